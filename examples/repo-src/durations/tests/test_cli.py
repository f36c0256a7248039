import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args, stdin=None, cwd=None):
    """Run ``python -m durations`` as a user would, from ``cwd``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "durations", *args],
        input=stdin, capture_output=True, text=True, cwd=cwd or ROOT, env=env, timeout=30,
    )


def test_sum_adds_durations():
    proc = run_cli("sum", "1h", "45m", "30m")
    assert proc.returncode == 0
    assert proc.stdout == "2h 15m\n"


def test_sum_invalid_duration_exits_1():
    proc = run_cli("sum", "1h", "soon")
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "soon" in proc.stderr


def test_fmt_prints_formatted():
    proc = run_cli("fmt", "3725")
    assert proc.returncode == 0
    assert proc.stdout == "1h 2m 5s\n"


def test_unknown_command_is_usage_error():
    proc = run_cli("average", "1h")
    assert proc.returncode == 2
