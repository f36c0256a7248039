"""Turn a number of seconds into a short string such as ``"1h 2m 5s"``."""
from .parse import UNITS


def format_duration(seconds):
    """Return ``seconds`` with the largest units first, leaving out zero parts; zero is ``"0s"``."""
    if isinstance(seconds, bool) or not isinstance(seconds, int):
        raise TypeError(f"seconds must be an int, not {type(seconds).__name__}")
    if seconds < 0:
        raise ValueError(f"negative duration: {seconds}")
    if seconds == 0:
        return "0s"
    parts = []
    rest = seconds
    for unit, size in UNITS.items():
        amount, rest = divmod(rest, size)
        if amount:
            parts.append(f"{amount}{unit}")
    return " ".join(parts)
