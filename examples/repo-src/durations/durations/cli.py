"""Command line: ``python -m durations sum 1h 30m`` or ``python -m durations fmt 5400``."""
import argparse
import sys

from .format import format_duration
from .parse import parse_duration


def build_parser():
    parser = argparse.ArgumentParser(prog="durations", description="Add up and format durations.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_sum = sub.add_parser("sum", help="add durations and print the total")
    p_sum.add_argument("durations", nargs="+", metavar="DURATION")
    p_fmt = sub.add_parser("fmt", help="format a number of seconds")
    p_fmt.add_argument("seconds", type=int)
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
    except ValueError as exc:  # DurationError is a ValueError
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
