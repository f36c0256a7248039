"""Task fractional-units: decimal amounts and a week unit in parse_duration.

Uncovered spec: C7 (format_duration never prints weeks) has no test. Attempt openhands-gpt-4o violates it by adding
"w" to the shared UNITS table, and no test notices; it fails other tests anyway (it accepts ".5h" and rounds halves
to even).
"""
from story import Attempt, Bash, Create, Replace, Step, Submit, TaskContent, View

TEST_PARSE_ADD = '''

def test_fractional_amounts():
    assert parse_duration("1.5h") == 5400
    assert parse_duration("0.25d") == 21600
    assert parse_duration("2.5m 30s") == 180


@pytest.mark.parametrize("text", [".5h", "1.h", "1..5h"])
def test_fraction_needs_digits_on_both_sides_of_the_point(text):
    with pytest.raises(DurationError):
        parse_duration(text)


def test_week_unit():
    assert parse_duration("1w") == 604800
    assert parse_duration("2W") == 1209600
    assert parse_duration("1w 2d") == 777600


def test_week_comes_first_and_at_most_once():
    assert parse_duration("1w 6d 23h") == 1206000
    for text in ["2d1w", "1w1w", "1h 1w"]:
        with pytest.raises(DurationError, match=re.escape(repr(text))):
            parse_duration(text)


def test_rounds_once_at_the_end_half_up():
    assert parse_duration("0.5s") == 1
    assert parse_duration("2.5s") == 3
    assert parse_duration("1.4s") == 1
    assert parse_duration("0.01m 0.5s") == 1
'''

TEST_CLI_ADD = '''

def test_sum_accepts_fractions():
    proc = run_cli("sum", "1.5h", "0.25d")
    assert (proc.returncode, proc.stdout) == (0, "7h 30m\\n")
'''

TEST_EDITS = [
    Replace("tests/test_parse.py", "import pytest\n", "import re\n\nimport pytest\n"),
    Replace("tests/test_parse.py", '"-5m", "1.5h", "1x"', '"-5m", "1x"'),
    Replace("tests/test_parse.py", '''        with pytest.raises(DurationError, match="order"):
            parse_duration(text)
''', '''        with pytest.raises(DurationError, match="order"):
            parse_duration(text)
''' + TEST_PARSE_ADD),
    Replace("tests/test_cli.py", '    proc = run_cli("average", "1h")\n    assert proc.returncode == 2\n',
            '    proc = run_cli("average", "1h")\n    assert proc.returncode == 2\n' + TEST_CLI_ADD),
]

PARSE_UNITS_OLD = '''# Seconds per unit, largest first: a duration lists its units in this order, each at most once.
UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}

_PART = re.compile(r"(\\d+)([a-z]+)")
'''

GOLD_EDITS = [
    Replace("durations/parse.py", '"""Turn strings such as ``"1h 30m"`` into a number of seconds."""\nimport re\n',
            '"""Turn strings such as ``"1h 30m"`` or ``"1.5h"`` into a number of seconds."""\nimport re\n'
            'from fractions import Fraction\n'),
    Replace("durations/parse.py", PARSE_UNITS_OLD, '''# Seconds per unit, largest first: a duration lists its units in this order, each at most once.
# format_duration prints with this table, and it never prints weeks.
UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_PARSE_UNITS = {"w": 7 * 86400, **UNITS}

# An amount is digits with an optional fraction; a digit is needed on both sides of the point.
_PART = re.compile(r"(\\d+(?:\\.\\d+)?)([a-z]+)")
'''),
    Replace("durations/parse.py", '    """Return the whole number of seconds in ``text``.\n',
            '    """Return the number of seconds in ``text``, rounded to a whole second (halves up).\n'),
    Replace("durations/parse.py", "    order = list(UNITS)\n", "    order = list(_PARSE_UNITS)\n"),
    Replace("durations/parse.py", "        if unit not in UNITS:\n", "        if unit not in _PARSE_UNITS:\n"),
    Replace("durations/parse.py", "        total += int(amount) * UNITS[unit]\n",
            "        total += Fraction(amount) * _PARSE_UNITS[unit]\n"),
    Replace("durations/parse.py", '''        raise DurationError(f"cannot parse {text!r}")
    return total
''', '''        raise DurationError(f"cannot parse {text!r}")
    # Exact until here; round once, halves up ("0.01m 0.5s" is 1.1 s, so 1).
    return int(total + Fraction(1, 2))
'''),
]

# ---- attempt 1: mini-swe-agent + gpt-5, correct ----------------------------------------------------------------

MINI_PARSE = '''"""Turn strings such as ``"1h 30m"`` or ``"1.5h"`` into a number of seconds."""
import re
from decimal import ROUND_HALF_UP, Decimal

from .errors import DurationError

# Seconds per unit, largest first. format_duration iterates over UNITS, so weeks live in a separate table
# (formatting must keep days as its largest unit).
UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_ALL_UNITS = {"w": 7 * 86400, **UNITS}

# Digits, optionally "." and more digits ("1.5" yes; ".5" and "1." no), then a unit.
_PART = re.compile(r"(\\d+(?:\\.\\d+)?)([a-z]+)")


def parse_duration(text):
    """Return the number of seconds in ``text`` as an int.

    Parts may be separated by spaces (``"1h 30m"``), units are case-insensitive, amounts may have a decimal
    fraction. The exact total is rounded once to whole seconds, halves up. Raises DurationError otherwise; the
    message quotes the input.
    """
    compact = "".join(text.split()).lower()
    if not compact:
        raise DurationError(f"empty duration {text!r}")
    order = list(_ALL_UNITS)
    total = Decimal(0)
    pos = 0
    last = -1
    for match in _PART.finditer(compact):
        if match.start() != pos:
            break
        amount, unit = match.groups()
        if unit not in _ALL_UNITS:
            raise DurationError(f"unknown unit {unit!r} in {text!r}")
        rank = order.index(unit)
        if rank <= last:
            raise DurationError(f"units out of order or repeated in {text!r}")
        last = rank
        total += Decimal(amount) * _ALL_UNITS[unit]
        pos = match.end()
    if pos != len(compact):
        raise DurationError(f"cannot parse {text!r}")
    return int(total.quantize(Decimal(1), rounding=ROUND_HALF_UP))
'''

MINI_GPT5 = Attempt(
    id="mini-gpt-5",
    format="mini-swe-agent",
    model="gpt-5-2025-08-07",
    agent="mini-swe-agent 2.2.4",
    run="mini-gpt-5__durations",
    start="2025-09-11T17:02:55",
    claimed_status="Submitted",
    claimed_summary="Submitted",
    steps=[
        Step("", Bash("ls && cat durations/parse.py && grep -n UNITS -r durations")),
        Step("THOUGHT: format.py iterates over UNITS, so adding weeks there would make format_duration print "
             "weeks, which the PR forbids. I'll keep UNITS as is, add a separate parsing table with `w`, use "
             "Decimal for exact sums and round once with ROUND_HALF_UP.",
             Create("durations/parse.py", MINI_PARSE)),
        Step("", Bash("python3 -c 'from durations import parse_duration as p, format_duration as f\n"
                      "for t in [\"1.5h\", \"0.25d\", \"2.5m\", \"1w 2d\", \"0.5s\", \"0.01m 0.5s\", \"2.5s\"]:\n"
                      "    print(t, p(t))\n"
                      "print(f(8 * 86400))\n"
                      "for t in [\".5h\", \"1.h\", \"2d 1w\", \"1w 1w\"]:\n"
                      "    try:\n"
                      "        p(t)\n"
                      "    except ValueError as e:\n"
                      "        print(\"error:\", e)'")),
        Step("", Bash("python3 -m pytest -q 2>&1 | tail -15")),
        Step("THOUGHT: The only failure is test_parse_rejects_garbage, which still lists \"1.5h\" as invalid: that "
             "is exactly the behaviour the PR changes, so the test itself needs updating, not the code. Checking "
             "the CLI and submitting.",
             Bash("python3 -m durations sum 1.5h 0.25d")),
        Step("", Submit("")),
    ],
    outcome="true_pass",
)

# ---- attempt 2: OpenHands (evaluation output) + gpt-4o, fails -------------------------------------------------

OPENHANDS_GPT4O = Attempt(
    id="openhands-gpt-4o",
    format="openhands-eval",
    model="gpt-4o-2024-08-06",
    agent="OpenHands CodeActAgent 0.28",
    run="openhands-gpt-4o-maxiter_30",
    start="2025-03-19T15:47:21",
    claimed_status="finished",
    claimed_summary="Added fractional amounts and the w unit to parse_duration.",
    steps=[
        Step("Let me look at the parser.", View("durations/parse.py")),
        Step("I'll add the week unit to the unit table.",
             Replace("durations/parse.py", '''UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}''',
                     '''UNITS = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1}''')),
        Step("Allow an optional decimal part in the amount.",
             Replace("durations/parse.py", '''_PART = re.compile(r"(\\d+)([a-z]+)")''',
                     '''_PART = re.compile(r"(\\d*\\.?\\d+)([a-z]+)")''')),
        Step("Use floats for the amounts and round the total to whole seconds.",
             Replace("durations/parse.py", "        total += int(amount) * UNITS[unit]\n",
                     "        total += float(amount) * UNITS[unit]\n")),
        Step("", Replace("durations/parse.py", '''        raise DurationError(f"cannot parse {text!r}")
    return total
''', '''        raise DurationError(f"cannot parse {text!r}")
    return round(total)
''')),
        Step("Let me test a few examples.",
             Bash("cd /repo && python3 -c 'from durations import parse_duration as p; "
                  "print(p(\"1.5h\"), p(\"0.25d\"), p(\"2w\"), p(\"1w 2d\"), p(\"0.01m 0.5s\"))'")),
        Step("Now the existing tests.", Bash("cd /repo && python3 -m pytest -q 2>&1 | tail -15")),
        Step("The one failure is `test_parse_rejects_garbage`, which expects \"1.5h\" to be rejected; the issue "
             "asks for exactly that input to be accepted, so the failure is expected and the test will have to be "
             "updated. Let me check the CLI.",
             Bash("cd /repo && python3 -m durations sum 1.5h 0.25d")),
        Step("", Submit("I added support for fractional amounts (e.g. `1.5h`) and the `w` unit to "
                        "`parse_duration`. The totals are rounded to whole seconds. The existing test that expects "
                        "`1.5h` to be invalid fails now, as intended by the issue.")),
    ],
    violates={
        "C2": "The amount pattern \\d*\\.?\\d+ accepts a missing leading digit: '.5h' parses as 1800 s.",
        "C6": "Float total rounded with round(), which rounds halves to even: '0.5s' gives 0 and '2.5s' gives 2.",
        "C7": "Adds 'w' to the shared UNITS table that format_duration iterates: format_duration(8 * 86400) prints "
              "'1w 1d' instead of '8d'. No test covers C7, so nothing reports it.",
    },
    failing_tests=["TC2a", "TC5"],
    outcome="true_fail",
    responsible_tests=["TC2a", "TC5"],
    explanation="Genuine failure (C2, C6 caught by TC2a and TC5). Its C7 violation is invisible to the verifier: "
                "C7 is the dataset's uncovered spec.",
)

TASK = TaskContent(
    id="fractional-units",
    test_edits=TEST_EDITS,
    gold_edits=GOLD_EDITS,
    attempts=[MINI_GPT5, OPENHANDS_GPT4O],
    empty_failing_tests=["TC1", "TC3", "TC4", "TC5", "TC6"],
    probes=[
        {"spec": "C2", "what": "'.5h' is rejected",
         "command": "python3 -c 'import durations as d\ntry:\n    d.parse_duration(\".5h\")\nexcept d.DurationError:\n"
                    "    pass\nelse:\n    raise SystemExit(\".5h was accepted\")'",
         "passes": ["gold", "empty", "mini-gpt-5"], "fails": ["openhands-gpt-4o"]},
        {"spec": "C6", "what": "halves round up once at the end: 0.5s is 1, 2.5s is 3, 0.01m 0.5s is 1",
         "command": "python3 -c 'from durations import parse_duration as p; "
                    "r = [p(\"0.5s\"), p(\"2.5s\"), p(\"0.01m 0.5s\")]; print(r); assert r == [1, 3, 1]'",
         "passes": ["gold", "mini-gpt-5"], "fails": ["empty", "openhands-gpt-4o"]},
        {"spec": "C7", "what": "format_duration never prints weeks: 8 days is 8d",
         "command": "python3 -c 'from durations import format_duration as f; print(f(8 * 86400)); "
                    "assert f(8 * 86400) == \"8d\"'",
         "passes": ["gold", "empty", "mini-gpt-5"], "fails": ["openhands-gpt-4o"]},
    ],
)
