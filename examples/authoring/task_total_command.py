"""Task total-command: `durations total PATH` adds up a file of durations.

False negative here: attempt claude-code-sonnet-4-5 reports a bad line as "durations: log.txt, line 3: cannot
parse 'abc'", which names the file and the line as the request asks; TB3 compares stderr with one exact string
("error: log.txt:3: ...") that the request never specifies, so the attempt fails.
"""
from story import Attempt, Bash, Create, Replace, Step, Submit, TaskContent, View

TEST_CLI_ADD = '''

def test_total_sums_file_skipping_blanks_and_comments(tmp_path):
    (tmp_path / "log.txt").write_text("1h\\n30m\\n\\n# lunch\\n  15m  \\n")
    proc = run_cli("total", "log.txt", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, "1h 45m\\n")


def test_total_reads_standard_input():
    proc = run_cli("total", "-", stdin="1h\\n1h\\n")
    assert (proc.returncode, proc.stdout) == (0, "2h\\n")


def test_total_reports_bad_line_location(tmp_path):
    (tmp_path / "log.txt").write_text("1h\\n# meeting\\nabc\\n")
    proc = run_cli("total", "log.txt", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr == "error: log.txt:3: cannot parse 'abc'\\n"


def test_total_reports_every_bad_line_in_order(tmp_path):
    (tmp_path / "log.txt").write_text("bogus\\n1h\\nnonsense\\n")
    proc = run_cli("total", "log.txt", cwd=tmp_path)
    assert proc.returncode == 1
    reports = proc.stderr.strip().splitlines()
    assert len(reports) == 2
    assert re.search(r"\\b1\\b", reports[0]) and re.search(r"\\b3\\b", reports[1])


def test_total_unreadable_file_exits_2(tmp_path):
    proc = run_cli("total", "missing.txt", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "missing.txt" in proc.stderr


def test_total_of_file_without_durations_is_zero(tmp_path):
    (tmp_path / "log.txt").write_text("# nothing logged yet\\n\\n")
    proc = run_cli("total", "log.txt", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, "0s\\n")
'''

TEST_EDITS = [
    Replace("tests/test_cli.py", "import os\n", "import os\nimport re\n"),
    Replace("tests/test_cli.py", '    proc = run_cli("average", "1h")\n    assert proc.returncode == 2\n',
            '    proc = run_cli("average", "1h")\n    assert proc.returncode == 2\n' + TEST_CLI_ADD),
]

CLI_IMPORTS = '''from .format import format_duration
from .parse import parse_duration
'''

CLI_FMT_PARSER = '''    p_fmt.add_argument("seconds", type=int)
    return parser
'''

CLI_MAIN_HEAD = '''    args = build_parser().parse_args(argv)
    try:
'''

GOLD_EDITS = [
    Replace("durations/cli.py", CLI_IMPORTS, '''from .errors import DurationError
from .format import format_duration
from .parse import parse_duration
'''),
    Replace("durations/cli.py", CLI_FMT_PARSER, '''    p_fmt.add_argument("seconds", type=int)
    p_total = sub.add_parser("total", help="add up the durations in a file, one per line")
    p_total.add_argument("path", metavar="PATH", help="the file to read, or - for standard input")
    return parser


def _read_lines(path):
    if path == "-":
        return sys.stdin.read().splitlines()
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def total_file(path):
    """Print the total of the durations in ``path``, one per line; returns the exit status."""
    try:
        lines = _read_lines(path)
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    seconds = 0
    bad = 0
    # Numbers count every physical line, so they match what an editor shows.
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            seconds += parse_duration(text)
        except DurationError as exc:
            print(f"error: {path}:{number}: {exc}", file=sys.stderr)
            bad += 1
    if bad:
        return 1
    print(format_duration(seconds))
    return 0
'''),
    Replace("durations/cli.py", CLI_MAIN_HEAD, '''    args = build_parser().parse_args(argv)
    if args.command == "total":
        return total_file(args.path)
    try:
'''),
]

# ---- attempt 1: Claude Code + Sonnet 4.5, the false negative ---------------------------------------------------

CC_TOTAL = '''    p_fmt.add_argument("seconds", type=int)
    p_total = sub.add_parser("total", help="add up the durations listed in a file, one per line")
    p_total.add_argument("path", help="file to read; - reads standard input")
    return parser


def _total(path):
    """Add up the durations in ``path`` (one per line); returns the exit status."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        print(f"durations: cannot open {path}: {exc.strerror}", file=sys.stderr)
        return 2

    total, problems = 0, []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            total += parse_duration(line)
        except DurationError as exc:
            problems.append(f"durations: {path}, line {lineno}: {exc}")

    if problems:
        print("\\n".join(problems), file=sys.stderr)
        return 1
    print(format_duration(total))
    return 0
'''

CLAUDE_CODE_SONNET = Attempt(
    id="claude-code-sonnet-4-5",
    format="claude-code",
    model="claude-sonnet-4-5-20250929",
    agent="claude-code 2.0.14",
    run="claude-code-sonnet-4-5",
    start="2025-10-08T14:21:09",
    claimed_status="completed",
    claimed_summary="Added `durations total PATH` with comment/blank skipping, stdin, per-line error reports (exit 1) "
                    "and exit 2 for unreadable files.",
    steps=[
        Step("I'll start by looking at the current CLI and how parsing errors are raised.", View("durations/cli.py")),
        Step("", View("durations/parse.py")),
        Step("Let me check how the existing CLI tests drive the command.", View("tests/test_cli.py")),
        Step("I'll add the `total` subcommand. Exit codes follow the README: 1 for invalid durations (like `sum`), "
             "2 when the file cannot be read.",
             Replace("durations/cli.py", CLI_FMT_PARSER, CC_TOTAL)),
        Step("", Replace("durations/cli.py", CLI_IMPORTS, '''from .errors import DurationError
from .format import format_duration
from .parse import parse_duration
''')),
        Step("Now dispatch to it from `main` before the existing try block, since `_total` handles its own errors.",
             Replace("durations/cli.py", CLI_MAIN_HEAD, '''    args = build_parser().parse_args(argv)
    if args.command == "total":
        return _total(args.path)
    try:
''')),
        Step("Let me try it on a sample log with comments, blank lines and two bad entries.",
             Bash("printf '1h\\n30m\\n\\n# lunch\\n  15m  \\nabc\\n2x\\n' > /tmp/log.txt && "
                  "python3 -m durations total /tmp/log.txt; echo \"exit=$?\"",
                  "Run total on a sample log with bad lines")),
        Step("Both bad lines are reported with their line numbers and the exit status is 1. Now the good path, "
             "standard input and a missing file.",
             Bash("printf '1h\\n# x\\n  15m\\n' | python3 -m durations total -; echo \"exit=$?\"; "
                  "python3 -m durations total /tmp/nope.txt; echo \"exit=$?\"",
                  "Check stdin and a missing file")),
        Step("Everything behaves as specified. Running the test suite.",
             Bash("python3 -m pytest -q tests/", "Run the test suite")),
        Step("", Bash("git diff", "Show the final diff")),
        Step("", Submit("I've added `durations total PATH`:\n\n- reads the file (or stdin with `-`), skips blank "
                        "lines and `#` comments, strips whitespace, prints the total with `format_duration`;\n"
                        "- reports every invalid line on stderr as `durations: <file>, line <n>: <reason>` and "
                        "exits 1, like `sum`;\n- exits 2 with `durations: cannot open <file>: <reason>` when the "
                        "file cannot be read;\n- an empty or comment-only file totals `0s`.\n\nAll tests pass.")),
    ],
    failing_tests=["TB3"],
    outcome="false_negative",
    responsible_tests=["TB3"],
    explanation="Satisfies every spec: each bad line is reported with the file name and the 1-based line number "
                "('durations: log.txt, line 3: cannot parse ...'). TB3 compares stderr with the exact string "
                "\"error: log.txt:3: cannot parse 'abc'\\n\"; the request never fixes the wording, so TB3 rejects a "
                "valid solution.",
)

# ---- attempt 2: SWE-agent + claude-3.7-sonnet, correct ---------------------------------------------------------

SWEAGENT_TOTAL = '''    p_fmt.add_argument("seconds", type=int)
    p_total = sub.add_parser("total", help="add up a file of durations, one per line")
    p_total.add_argument("path", help="file to read (- for standard input)")
    return parser


def _read_log(path):
    if path == "-":
        return sys.stdin.read().splitlines()
    with open(path, encoding="utf-8") as log:
        return log.read().splitlines()


def total_command(path):
    """Implements ``durations total``; returns the exit status."""
    try:
        lines = _read_log(path)
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    total = 0
    failed = False
    for number, line in enumerate(lines, 1):
        entry = line.strip()
        if not entry or entry.startswith("#"):
            continue
        try:
            total += parse_duration(entry)
        except DurationError as exc:
            print(f"error: {path}:{number}: {exc}", file=sys.stderr)
            failed = True
    if failed:
        return 1
    print(format_duration(total))
    return 0
'''

SWEAGENT_SONNET37 = Attempt(
    id="sweagent-claude-3-7-sonnet",
    format="swe-agent",
    model="claude-3-7-sonnet-20250219",
    agent="swe-agent 1.1.0",
    run="sweagent-claude-3-7-sonnet__durations__t-0.00",
    start="2025-05-20T08:31:50",
    claimed_status="submitted",
    claimed_summary="Implemented the total subcommand.",
    steps=[
        Step("I'll explore the repository to understand how the CLI is built.", Bash("ls -R durations tests")),
        Step("Let me look at the CLI module.", View("durations/cli.py")),
        Step("And at the README for the exit status conventions.", View("README.md")),
        Step("The README says errors are printed as `error: <message>` and invalid durations exit with 1. I'll "
             "follow that and prefix each bad line with `file:line:` like compilers do. First the subcommand and "
             "its implementation.",
             Replace("durations/cli.py", CLI_FMT_PARSER, SWEAGENT_TOTAL)),
        Step("I need `DurationError` so that only parse errors are reported per line.",
             Replace("durations/cli.py", CLI_IMPORTS, '''from .errors import DurationError
from .format import format_duration
from .parse import parse_duration
''')),
        Step("Wire it into `main`.",
             Replace("durations/cli.py", CLI_MAIN_HEAD, '''    args = build_parser().parse_args(argv)
    if args.command == "total":
        return total_command(args.path)
    try:
''')),
        Step("Let me create a small log file to test with.",
             Bash("printf '2h\\n\\n# standup\\n  45m \\n1x\\n10m\\noops\\n' > /tmp/week.log && "
                  "python3 -m durations total /tmp/week.log; echo \"status: $?\"")),
        Step("Both bad lines (5 and 7) are reported and the status is 1. Let me fix the log and check the total, "
             "stdin and a missing file.",
             Bash("sed -i '/1x/d; /oops/d' /tmp/week.log && python3 -m durations total /tmp/week.log && "
                  "echo '30m' | python3 -m durations total - && "
                  "python3 -m durations total /tmp/missing.log; echo \"status: $?\"")),
        Step("Now the test suite.", Bash("python3 -m pytest -q")),
        Step("Everything works. Submitting.", Submit("Implemented `durations total`.")),
    ],
    outcome="true_pass",
)

# ---- attempt 3: mini-swe-agent + gpt-4.1-mini, stops at the first bad line -------------------------------------

MINI_CLI = '''"""Command line: ``python -m durations sum 1h 30m`` or ``python -m durations fmt 5400``."""
import argparse
import sys

from .errors import DurationError
from .format import format_duration
from .parse import parse_duration


def build_parser():
    parser = argparse.ArgumentParser(prog="durations", description="Add up and format durations.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_sum = sub.add_parser("sum", help="add durations and print the total")
    p_sum.add_argument("durations", nargs="+", metavar="DURATION")
    p_fmt = sub.add_parser("fmt", help="format a number of seconds")
    p_fmt.add_argument("seconds", type=int)
    p_total = sub.add_parser("total", help="sum the durations in a file")
    p_total.add_argument("path")
    return parser


def main(argv=None):
    """Run the command line; returns the exit status (argparse exits with 2 on usage errors)."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "sum":
            total = sum(parse_duration(d) for d in args.durations)
            print(format_duration(total))
        elif args.command == "fmt":
            print(format_duration(args.seconds))
        elif args.command == "total":
            stream = sys.stdin if args.path == "-" else open(args.path)
            total = 0
            for number, line in enumerate(stream, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                try:
                    total += parse_duration(line)
                except DurationError as exc:
                    raise DurationError(f"{args.path}:{number}: {exc}") from exc
            print(format_duration(total))
    except ValueError as exc:  # DurationError is a ValueError
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
'''

MINI_GPT41MINI = Attempt(
    id="mini-gpt-4-1-mini",
    format="mini-swe-agent",
    model="gpt-4.1-mini-2025-04-14",
    agent="mini-swe-agent 2.2.4",
    run="mini-gpt-4-1-mini__durations",
    start="2025-09-12T10:05:13",
    claimed_status="Submitted",
    claimed_summary="Submitted",
    steps=[
        Step("THOUGHT: Let me see the CLI code first.", Bash("cat durations/cli.py")),
        Step("THOUGHT: I'll add a `total` subcommand inside the existing try block, so an invalid line is turned "
             "into an `error: ...` message with exit status 1 by the existing handler. I prefix the message with "
             "the path and line number.", Create("durations/cli.py", MINI_CLI)),
        Step("", Bash("git diff")),
        Step("THOUGHT: Try it with a valid file, stdin and a bad line.",
             Bash("printf '1h\\n# c\\n\\n 30m \\n' > /tmp/t.txt && python3 -m durations total /tmp/t.txt && "
                  "printf '1h\\n1h\\n' | python3 -m durations total - && printf '1h\\nxx\\n' > /tmp/bad.txt && "
                  "python3 -m durations total /tmp/bad.txt; echo $?")),
        Step("", Bash("python3 -m pytest -q")),
        Step("", Submit("")),
    ],
    violates={
        "B6": "Stops at the first invalid line: the re-raised DurationError ends the loop, so later bad lines are "
              "never reported.",
        "B7": "A missing file raises FileNotFoundError, which the `except ValueError` handler does not catch: a "
              "traceback and exit status 1 instead of an error message and status 2.",
    },
    failing_tests=["TB4", "TB5"],
    outcome="true_fail",
    responsible_tests=["TB4", "TB5"],
    explanation="Genuine failure of two specs; TB4 and TB5 catch them.",
)

REPAIR = {
    "target": "tests",
    "file": "tests.patch",
    "test": "TB3",
    "description": "TB3 pins one exact stderr string that the request never asks for. Loosen it to what the "
                   "request says (the report names the file and the 1-based line number), keeping the checks on "
                   "the exit status and the empty standard output. The alternative repair, stating the exact "
                   "message format in request.md and in spec B5, would turn the claude-code attempt into a true "
                   "failure instead.",
    "replace": {
        "old": "+    assert proc.stderr == \"error: log.txt:3: cannot parse 'abc'\\n\"\n",
        "new": "+    assert re.search(r\"log\\.txt\\D+3\\b\", proc.stderr)\n",
    },
    "repairedTestsPatch": "examples/repairs/total-command/tests.patch",
    "afterRepair": {"claude-code-sonnet-4-5": [], "sweagent-claude-3-7-sonnet": [],
                    "mini-gpt-4-1-mini": ["TB4", "TB5"], "gold": [],
                    "empty": ["TB1", "TB2", "TB3", "TB4", "TB5", "TB6"]},
}

TASK = TaskContent(
    id="total-command",
    test_edits=TEST_EDITS,
    gold_edits=GOLD_EDITS,
    attempts=[CLAUDE_CODE_SONNET, SWEAGENT_SONNET37, MINI_GPT41MINI],
    empty_failing_tests=["TB1", "TB2", "TB3", "TB4", "TB5", "TB6"],
    repair=REPAIR,
    probes=[
        {"spec": "B5", "what": "the report of a bad line names the file and its 1-based physical line number",
         "command": "printf '1h\\n# meeting\\nabc\\n' > log.txt && python3 -m durations total log.txt 2>&1 >/dev/null "
                    "| grep -E 'log\\.txt[^0-9]+3([^0-9]|$)'",
         "passes": ["gold", "claude-code-sonnet-4-5", "sweagent-claude-3-7-sonnet", "mini-gpt-4-1-mini"],
         "fails": ["empty"]},
        {"spec": "B6", "what": "every bad line is reported, not only the first",
         "command": "printf 'bogus\\n1h\\nnonsense\\n' > log.txt; python3 -m durations total log.txt 2> err.txt; "
                    "test $? -eq 1 && test \"$(wc -l < err.txt)\" -eq 2",
         "passes": ["gold", "claude-code-sonnet-4-5", "sweagent-claude-3-7-sonnet"],
         "fails": ["empty", "mini-gpt-4-1-mini"]},
        {"spec": "B7", "what": "an unreadable file exits with status 2",
         "command": "python3 -m durations total missing.txt; test $? -eq 2",
         "passes": ["gold", "claude-code-sonnet-4-5", "sweagent-claude-3-7-sonnet"],
         "fails": ["mini-gpt-4-1-mini"]},
    ],
)
