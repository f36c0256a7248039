"""Turn strings such as ``"1h 30m"`` into a number of seconds."""
import re

from .errors import DurationError

# Seconds per unit, largest first: a duration lists its units in this order, each at most once.
UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}

_PART = re.compile(r"(\d+)([a-z]+)")


def parse_duration(text):
    """Return the whole number of seconds in ``text``.

    Parts may be separated by spaces (``"1h 30m"``) and units are case-insensitive.
    Raises DurationError for anything else; the message quotes the input.
    """
    compact = "".join(text.split()).lower()
    if not compact:
        raise DurationError(f"empty duration {text!r}")
    order = list(UNITS)
    total = 0
    pos = 0
    last = -1
    for match in _PART.finditer(compact):
        if match.start() != pos:
            break
        amount, unit = match.groups()
        if unit not in UNITS:
            raise DurationError(f"unknown unit {unit!r} in {text!r}")
        rank = order.index(unit)
        if rank <= last:
            raise DurationError(f"units out of order or repeated in {text!r}")
        last = rank
        total += int(amount) * UNITS[unit]
        pos = match.end()
    if pos != len(compact):
        raise DurationError(f"cannot parse {text!r}")
    return total
