"""Task format-precision: a precision option for format_duration and the CLI.

False positive here: attempt sweagent-gpt-4o rounds with Python's round(), which rounds halves to even (150 s at
minute precision gives "2m", the request says "3m"); the only rounding tests use odd halves (90 s), so it passes.
Weak test: test_invalid_precision_is_usage_error passes on the base already (argparse rejects the unknown option
with status 2), so it cannot tell a fix from no fix.
"""
from story import Attempt, Bash, Create, Replace, Step, Submit, TaskContent, View

FORMAT_OLD_HEAD = '''def format_duration(seconds):
    """Return ``seconds`` with the largest units first, leaving out zero parts; zero is ``"0s"``."""
'''

FORMAT_OLD_BODY = '''    if seconds == 0:
        return "0s"
    parts = []
    rest = seconds
    for unit, size in UNITS.items():
        amount, rest = divmod(rest, size)
'''

TEST_FORMAT_ADD = '''

def test_precision_rounds_half_up():
    assert format_duration(90, precision="m") == "2m"
    assert format_duration(89, precision="m") == "1m"
    assert format_duration(5420, precision="h") == "2h"
    assert format_duration(5340, precision="h") == "1h"


def test_precision_carries_into_larger_units():
    assert format_duration(3599, precision="m") == "1h"
    assert format_duration(3689, precision="m") == "1h 1m"
    assert format_duration(86399, precision="h") == "1d"


def test_precision_hides_smaller_parts_and_shows_zero_in_its_unit():
    assert format_duration(90061, precision="h") == "1d 1h"
    assert format_duration(20, precision="m") == "0m"
    assert format_duration(0, precision="h") == "0h"


def test_precision_unknown_unit():
    with pytest.raises(ValueError, match="d.*h.*m.*s"):
        format_duration(60, precision="w")
'''

TEST_CLI_ADD = '''

def test_fmt_and_sum_accept_precision():
    proc = run_cli("fmt", "5399", "--precision", "h")
    assert (proc.returncode, proc.stdout) == (0, "1h\\n")
    proc = run_cli("sum", "1h", "20m", "--precision", "h")
    assert (proc.returncode, proc.stdout) == (0, "1h\\n")


def test_sum_rounds_the_total_not_each_item():
    proc = run_cli("sum", "40s", "40s", "--precision", "m")
    assert (proc.returncode, proc.stdout) == (0, "1m\\n")


def test_invalid_precision_is_usage_error():
    proc = run_cli("fmt", "60", "--precision", "w")
    assert proc.returncode == 2
    assert proc.stdout == ""
'''

TEST_EDITS = [
    Replace("tests/test_format.py", '        assert parse_duration(format_duration(seconds)) == seconds\n',
            '        assert parse_duration(format_duration(seconds)) == seconds\n' + TEST_FORMAT_ADD),
    Replace("tests/test_cli.py", '    proc = run_cli("average", "1h")\n    assert proc.returncode == 2\n',
            '    proc = run_cli("average", "1h")\n    assert proc.returncode == 2\n' + TEST_CLI_ADD),
]

GOLD_EDITS = [
    Replace("durations/format.py", FORMAT_OLD_HEAD, '''def format_duration(seconds, precision="s"):
    """Return ``seconds`` with the largest units first, leaving out zero parts.

    ``precision`` is the smallest unit shown (``"d"``, ``"h"``, ``"m"`` or ``"s"``): the duration is first rounded
    to a whole number of that unit, halves up. A duration that rounds to zero is ``"0"`` and the unit (``"0m"``).
    """
    if precision not in UNITS:
        raise ValueError(f"precision must be one of {', '.join(UNITS)}; got {precision!r}")
'''),
    Replace("durations/format.py", FORMAT_OLD_BODY, '''    step = UNITS[precision]
    # Integer arithmetic on purpose: round() rounds halves to even, and 150 s must give "3m", not "2m".
    rounded = (seconds + step // 2) // step * step
    if rounded == 0:
        return f"0{precision}"
    parts = []
    rest = rounded
    for unit, size in UNITS.items():
        if size < step:
            break
        amount, rest = divmod(rest, size)
'''),
    Replace("durations/cli.py", "from .parse import parse_duration\n", "from .parse import UNITS, parse_duration\n"),
    Replace("durations/cli.py", '''    p_sum.add_argument("durations", nargs="+", metavar="DURATION")
''', '''    p_sum.add_argument("durations", nargs="+", metavar="DURATION")
    p_sum.add_argument("--precision", choices=list(UNITS), default="s", help="round the total to this unit")
'''),
    Replace("durations/cli.py", '''    p_fmt.add_argument("seconds", type=int)
''', '''    p_fmt.add_argument("seconds", type=int)
    p_fmt.add_argument("--precision", choices=list(UNITS), default="s", help="round to this unit")
'''),
    Replace("durations/cli.py", '''            print(format_duration(total))
        elif args.command == "fmt":
            print(format_duration(args.seconds))
''', '''            print(format_duration(total, precision=args.precision))
        elif args.command == "fmt":
            print(format_duration(args.seconds, precision=args.precision))
'''),
]

# ---- attempt 1: SWE-agent + gpt-4o, the false positive --------------------------------------------------------

SWEAGENT_GPT4O = Attempt(
    id="sweagent-gpt-4o",
    format="swe-agent",
    model="gpt-4o-2024-08-06",
    agent="swe-agent 1.1.0",
    run="sweagent-gpt-4o__durations__t-0.00",
    start="2025-06-03T09:14:02",
    claimed_status="submitted",
    claimed_summary="Added precision to format_duration (rounds to the unit) and --precision to sum and fmt.",
    steps=[
        Step("Let me start by looking at the layout of the repository to find the formatting code and the CLI.",
             Bash("find . -name '*.py' -not -path './.git/*' | sort")),
        Step("The formatting lives in `durations/format.py`. Let me open it.", View("durations/format.py")),
        Step("And the command line, which will need the new option.", View("durations/cli.py")),
        Step("I'll add a `precision` parameter that defaults to \"s\" and validate it against `UNITS`, so the "
             "error message lists the accepted units.",
             Replace("durations/format.py", FORMAT_OLD_HEAD, '''def format_duration(seconds, precision="s"):
    """Return ``seconds`` with the largest units first, leaving out zero parts; zero is ``"0s"``.

    ``precision`` is the smallest unit shown; the value is rounded to a whole number of it first.
    """
    if precision not in UNITS:
        raise ValueError(f"invalid precision {precision!r}, expected one of: {', '.join(UNITS)}")
''')),
        Step("Now the rounding itself. Python's built-in `round()` gives the nearest whole number of precision "
             "units; I multiply back to seconds so the existing divmod loop can carry into larger units, and stop "
             "the loop at the precision unit so smaller parts are never shown.",
             Replace("durations/format.py", FORMAT_OLD_BODY, '''    step = UNITS[precision]
    rounded = round(seconds / step) * step
    if rounded == 0:
        return f"0{precision}"
    parts = []
    rest = rounded
    for unit, size in UNITS.items():
        if size < step:
            break
        amount, rest = divmod(rest, size)
''')),
        Step("Let me check the examples from the issue.",
             Bash('python3 -c \'from durations import format_duration as f; '
                  'print(f(90, precision="m"), "|", f(89, precision="m"), "|", f(3599, precision="m"), "|", '
                  'f(20, precision="m"), "|", f(3725))\'')),
        Step("All as expected: 90 s is 2m, 89 s is 1m, 3599 s carries to 1h, 20 s is 0m, and the default output "
             "is unchanged. Now the CLI: import `UNITS` for the choices.",
             Replace("durations/cli.py", "from .parse import parse_duration\n",
                     "from .parse import UNITS, parse_duration\n")),
        Step("Add `--precision` to both subcommands; `choices` makes argparse reject bad values with exit status 2.",
             Replace("durations/cli.py", '''    p_sum.add_argument("durations", nargs="+", metavar="DURATION")
    p_fmt = sub.add_parser("fmt", help="format a number of seconds")
    p_fmt.add_argument("seconds", type=int)
''', '''    p_sum.add_argument("durations", nargs="+", metavar="DURATION")
    p_sum.add_argument("--precision", choices=list(UNITS), default="s")
    p_fmt = sub.add_parser("fmt", help="format a number of seconds")
    p_fmt.add_argument("seconds", type=int)
    p_fmt.add_argument("--precision", choices=list(UNITS), default="s")
''')),
        Step("Pass the precision through. For `sum` the total is formatted once, so it is the total that gets "
             "rounded.",
             Replace("durations/cli.py", '''            print(format_duration(total))
        elif args.command == "fmt":
            print(format_duration(args.seconds))
''', '''            print(format_duration(total, precision=args.precision))
        elif args.command == "fmt":
            print(format_duration(args.seconds, precision=args.precision))
''')),
        Step("Let me try the CLI examples, including an invalid precision.",
             Bash("python3 -m durations sum 40s 40s --precision m; python3 -m durations fmt 5399 --precision h; "
                  "python3 -m durations fmt 60 --precision w; echo \"exit status: $?\"")),
        Step("The CLI behaves as requested. Let me run the whole test suite to make sure nothing broke.",
             Bash("python3 -m pytest -q")),
        Step("All tests pass. Submitting.",
             Submit("I added a `precision` argument to `format_duration` (rounds to a whole number of the unit, "
                    "hides smaller parts, shows `0<unit>` for zero) and `--precision` to `sum` and `fmt`.")),
    ],
    violates={"A2": "round() rounds halves to even: 150 s at minute precision gives '2m' (the request says '3m'), "
                    "9000 s at hour precision gives '2h' instead of '3h'."},
    failing_tests=[],
    outcome="false_positive",
    responsible_tests=["TA1"],
    explanation="Passes every test but violates A2 (halves round up). TA1, the only test of the rounding rule, "
                "uses 90 s and 5420 s: 1.5 rounds to 2 under both half-up and half-to-even, so the test cannot "
                "see the difference. A test with an even half (150 s at 'm' -> '3m') would catch it.",
)

# ---- attempt 2: mini-swe-agent + gpt-5-mini, correct ----------------------------------------------------------

MINI_FORMAT = '''"""Turn a number of seconds into a short string such as ``"1h 2m 5s"``."""
from .parse import UNITS


def _round_half_up(seconds, step):
    """Round ``seconds`` to a whole number of ``step`` seconds; exact halves go up."""
    whole, rest = divmod(seconds, step)
    if rest * 2 >= step:
        whole += 1
    return whole * step


def format_duration(seconds, precision="s"):
    """Return ``seconds`` with the largest units first, leaving out zero parts.

    ``precision`` ("d", "h", "m" or "s") is the smallest unit shown; the value is rounded to it (halves up)
    before it is split. Zero is shown in the precision unit: ``"0s"``, ``"0m"``...
    """
    if precision not in UNITS:
        raise ValueError(f"unknown precision {precision!r}: use one of {', '.join(repr(u) for u in UNITS)}")
    if isinstance(seconds, bool) or not isinstance(seconds, int):
        raise TypeError(f"seconds must be an int, not {type(seconds).__name__}")
    if seconds < 0:
        raise ValueError(f"negative duration: {seconds}")
    step = UNITS[precision]
    rest = _round_half_up(seconds, step)
    if rest == 0:
        return f"0{precision}"
    parts = []
    for unit, size in UNITS.items():
        if size < step:
            break
        amount, rest = divmod(rest, size)
        if amount:
            parts.append(f"{amount}{unit}")
    return " ".join(parts)
'''

MINI_CLI_PATCH = r"""python3 - <<'PY'
from pathlib import Path
p = Path("durations/cli.py")
s = p.read_text()
s = s.replace("from .parse import parse_duration\n", "from .parse import UNITS, parse_duration\n")
s = s.replace(
    '    p_fmt.add_argument("seconds", type=int)\n',
    '    p_fmt.add_argument("seconds", type=int)\n'
    '    for p in (p_sum, p_fmt):\n'
    '        p.add_argument("--precision", choices=list(UNITS), default="s",\n'
    '                       help="smallest unit shown; the value is rounded to it (halves up)")\n',
)
s = s.replace("print(format_duration(total))", "print(format_duration(total, precision=args.precision))")
s = s.replace("print(format_duration(args.seconds))", "print(format_duration(args.seconds, precision=args.precision))")
p.write_text(s)
PY
git diff --stat"""

MINI_GPT5MINI = Attempt(
    id="mini-gpt-5-mini",
    format="mini-swe-agent",
    model="gpt-5-mini-2025-08-07",
    agent="mini-swe-agent 2.2.4",
    run="mini-gpt-5-mini__durations",
    start="2025-09-11T16:40:27",
    claimed_status="Submitted",
    claimed_summary="Submitted",
    steps=[
        Step("", Bash("ls -la && git log --oneline | head -5")),
        Step("", Bash("nl -ba durations/format.py && nl -ba durations/cli.py && nl -ba durations/parse.py | sed -n '1,12p'")),
        Step("THOUGHT: I'll rewrite format.py with a half-up rounding helper using integer arithmetic (round() would "
             "round 2.5 to 2), stop the unit loop at the precision unit, and render zero in that unit.",
             Create("durations/format.py", MINI_FORMAT)),
        Step("", Bash(MINI_CLI_PATCH)),
        Step("THOUGHT: Check the examples from the PR description, including the halves (90 s and 150 s) and the "
             "sum that must round the total.",
             Bash("python3 -c 'from durations import format_duration as f; "
                  "print([f(90, precision=\"m\"), f(150, precision=\"m\"), f(89, precision=\"m\"), "
                  "f(3599, precision=\"m\"), f(20, precision=\"m\"), f(3725)])' && "
                  "python3 -m durations sum 40s 40s --precision m && "
                  "(python3 -m durations fmt 60 --precision w; echo \"status=$?\")")),
        Step("", Bash("python3 -m pytest -q 2>&1 | tail -3")),
        Step("", Submit("")),
    ],
    outcome="true_pass",
)

# ---- attempt 3: OpenHands + claude-3.5-sonnet, rounds each item of a sum ---------------------------------------

OH_HELPER = '''def round_to_unit(seconds, unit):
    """Round ``seconds`` to a whole number of ``unit`` (one of UNITS), halves rounding up."""
    size = UNITS[unit]
    return (seconds + size // 2) // size * size


def format_duration(seconds, precision="s"):
    """Return ``seconds`` with the largest units first, leaving out zero parts.

    With ``precision`` ("d", "h", "m" or "s") the value is rounded to that unit and smaller parts are dropped.
    """
    if precision not in UNITS:
        raise ValueError(f"precision must be one of {sorted(UNITS, key=UNITS.get, reverse=True)}, not {precision!r}")
'''

OPENHANDS_SONNET = Attempt(
    id="openhands-claude-3-5-sonnet",
    format="openhands-events",
    model="claude-3-5-sonnet-20241022",
    agent="OpenHands CodeActAgent 0.28",
    run="openhands-claude-3-5-sonnet",
    start="2025-03-18T11:02:44",
    claimed_status="finished",
    claimed_summary="Implemented precision rounding in format_duration and a --precision option for sum and fmt.",
    steps=[
        Step("I'll start by exploring the repository structure.", Bash("cd /repo && ls -R durations tests")),
        Step("Let me look at the formatting function.", View("durations/format.py")),
        Step("Now the CLI.", View("durations/cli.py")),
        Step("I'll add a reusable `round_to_unit` helper (half-up, integer arithmetic) and a `precision` parameter "
             "to `format_duration`.",
             Replace("durations/format.py", FORMAT_OLD_HEAD, OH_HELPER)),
        Step("Now use the helper in the body and stop at the precision unit.",
             Replace("durations/format.py", FORMAT_OLD_BODY, '''    rounded = round_to_unit(seconds, precision)
    if rounded == 0:
        return f"0{precision}"
    parts = []
    rest = rounded
    for unit, size in UNITS.items():
        if size < UNITS[precision]:
            break
        amount, rest = divmod(rest, size)
''')),
        Step("Next the CLI imports.",
             Replace("durations/cli.py", '''from .format import format_duration
from .parse import parse_duration
''', '''from .format import format_duration, round_to_unit
from .parse import UNITS, parse_duration
''')),
        Step("Add the option to both subcommands.",
             Replace("durations/cli.py", '''    p_fmt.add_argument("seconds", type=int)
    return parser
''', '''    p_fmt.add_argument("seconds", type=int)
    for command in (p_sum, p_fmt):
        command.add_argument("--precision", choices=list(UNITS), default="s", help="unit to round to")
    return parser
''')),
        Step("For `sum`, I'll round every duration to the requested precision before adding them, so each item "
             "contributes a whole number of units and the total is consistent with the items shown.",
             Replace("durations/cli.py", '''            total = sum(parse_duration(d) for d in args.durations)
            print(format_duration(total))
        elif args.command == "fmt":
            print(format_duration(args.seconds))
''', '''            total = sum(round_to_unit(parse_duration(d), args.precision) for d in args.durations)
            print(format_duration(total, precision=args.precision))
        elif args.command == "fmt":
            print(format_duration(args.seconds, precision=args.precision))
''')),
        Step("Let me verify the library behaviour.",
             Bash("cd /repo && python3 -c 'from durations import format_duration as f; "
                  "print(f(90, precision=\"m\"), f(150, precision=\"m\"), f(3599, precision=\"m\"), "
                  "f(20, precision=\"m\"))'")),
        Step("Now the CLI, including an invalid precision.",
             Bash("cd /repo && python3 -m durations sum 1h 20m --precision h && "
                  "python3 -m durations fmt 60 --precision w; echo \"exit code: $?\"")),
        Step("Run the existing tests.", Bash("cd /repo && python3 -m pytest -q")),
        Step("Everything passes. Let me review the final diff.", Bash("cd /repo && git diff")),
        Step("", Submit("I've implemented the precision option:\n\n1. `format_duration(seconds, precision=\"s\")` "
                        "rounds to a whole number of the unit (halves up), hides smaller parts and shows `0m` etc. "
                        "for zero; an unknown precision raises ValueError listing the units.\n2. `durations sum` "
                        "and `durations fmt` accept `--precision {d,h,m,s}`; each duration in `sum` is rounded to "
                        "the precision before adding.\n\nAll existing tests pass.")),
    ],
    violates={"A7": "sum rounds each item before adding: `sum 40s 40s --precision m` prints '2m' instead of '1m'."},
    failing_tests=["TA6"],
    outcome="true_fail",
    responsible_tests=["TA6"],
    explanation="Genuine failure: the request says the total is rounded, not each item; TA6 checks exactly that.",
)

TASK = TaskContent(
    id="format-precision",
    test_edits=TEST_EDITS,
    gold_edits=GOLD_EDITS,
    attempts=[SWEAGENT_GPT4O, MINI_GPT5MINI, OPENHANDS_SONNET],
    empty_failing_tests=["TA1", "TA2", "TA3", "TA4", "TA5", "TA6"],
    probes=[
        {"spec": "A2", "what": "halves round up, also when the quotient is even (150 s -> 3m, 9000 s -> 3h)",
         "command": "python3 -c 'from durations import format_duration as f; "
                    "r = [f(150, precision=\"m\"), f(9000, precision=\"h\")]; print(r); assert r == [\"3m\", \"3h\"]'",
         "passes": ["gold", "mini-gpt-5-mini", "openhands-claude-3-5-sonnet"], "fails": ["empty", "sweagent-gpt-4o"]},
        {"spec": "A7", "what": "sum rounds the total: 40s + 40s at minute precision is 1m",
         "command": "python3 -m durations sum 40s 40s --precision m | grep -qx 1m",
         "passes": ["gold", "mini-gpt-5-mini", "sweagent-gpt-4o"], "fails": ["empty", "openhands-claude-3-5-sonnet"]},
    ],
    weak_tests={"TA7": "Passes on the base commit: argparse already exits with status 2 for the unknown option "
                       "--precision, so this FAIL_TO_PASS test cannot tell a fix from no fix."},
)
