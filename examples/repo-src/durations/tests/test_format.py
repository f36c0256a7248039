import pytest

from durations import format_duration, parse_duration


def test_format_basic():
    assert format_duration(45) == "45s"
    assert format_duration(3725) == "1h 2m 5s"
    assert format_duration(90061) == "1d 1h 1m 1s"


def test_format_leaves_out_zero_parts():
    assert format_duration(3600) == "1h"
    assert format_duration(86405) == "1d 5s"


def test_format_zero():
    assert format_duration(0) == "0s"


def test_format_rejects_negative_and_non_int():
    with pytest.raises(ValueError):
        format_duration(-1)
    with pytest.raises(TypeError):
        format_duration(1.5)


def test_format_round_trips():
    for seconds in [1, 59, 61, 3599, 3601, 86399, 93784]:
        assert parse_duration(format_duration(seconds)) == seconds
