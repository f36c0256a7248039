import pytest

from durations import DurationError, parse_duration


def test_parse_single_units():
    assert parse_duration("45s") == 45
    assert parse_duration("2m") == 120
    assert parse_duration("3h") == 10800
    assert parse_duration("1d") == 86400


def test_parse_combined():
    assert parse_duration("1h30m") == 5400
    assert parse_duration("1d 2h 3m 4s") == 93784


def test_parse_spaces_and_case():
    assert parse_duration("  1H 30M ") == 5400
    assert parse_duration("1 h") == 3600


def test_parse_rejects_garbage():
    for text in ["", "   ", "abc", "5", "h", "-5m", "1.5h", "1x", "1h30"]:
        with pytest.raises(DurationError, match="'"):
            parse_duration(text)


def test_parse_rejects_out_of_order():
    for text in ["30m1h", "1h1h", "1s1m"]:
        with pytest.raises(DurationError, match="order"):
            parse_duration(text)
