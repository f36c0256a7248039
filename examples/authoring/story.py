"""The vocabulary the task files use to describe tests, gold patches and solver attempts.

An attempt is a list of steps (a thought and one action). make_dataset.py replays the actions in a real clone of
the example repository, so every observation, every file edit and the final patch are what really happens; then it
renders the same story in the attempt's trajectory format.
"""
from dataclasses import dataclass, field
from typing import List, Optional, Union


@dataclass
class View:
    path: str


@dataclass
class Bash:
    command: str
    description: str = ""


@dataclass
class Replace:
    path: str
    old: str
    new: str


@dataclass
class Create:
    path: str
    text: str


@dataclass
class Submit:
    """The agent's final message (its claim); the submission is the work tree's diff at this point."""
    message: str


Action = Union[View, Bash, Replace, Create, Submit]


@dataclass
class Step:
    thought: str
    action: Action


@dataclass
class Attempt:
    id: str
    format: str  # swe-agent | mini-swe-agent | openhands-events | openhands-eval | claude-code
    model: str
    agent: str
    run: str
    start: str  # ISO time of the first step
    claimed_status: str
    claimed_summary: str
    steps: List[Step]
    # Ground truth, written by hand: what the attempt really does against each spec.
    violates: dict = field(default_factory=dict)  # spec id -> why
    failing_tests: List[str] = field(default_factory=list)  # test ids the verifier must see fail
    outcome: str = "true_pass"  # true_pass | true_fail | false_positive | false_negative
    responsible_tests: List[str] = field(default_factory=list)
    explanation: str = ""


@dataclass
class TaskContent:
    id: str
    test_edits: list  # Replace / Create applied to the base to make tests.patch
    gold_edits: list  # Replace / Create applied to the base to make gold.patch
    attempts: List[Attempt]
    empty_failing_tests: List[str]  # tests the empty patch fails (F2P tests except deliberately weak ones)
    weak_tests: dict = field(default_factory=dict)  # test id -> why it is weak
    notes: str = ""
    repair: Optional[dict] = None
    # Commands that show the truth directly, beyond the tests: each must exit 0 for the runs in "passes" and
    # non-zero for the runs in "fails" (run ids: gold, empty, attempt ids), after the patch is applied.
    probes: list = field(default_factory=list)
