"""Parse and format human-written durations such as ``1h 30m``."""
from .errors import DurationError
from .format import format_duration
from .parse import UNITS, parse_duration

__all__ = ["DurationError", "UNITS", "format_duration", "parse_duration"]
__version__ = "0.1.0"
