class DurationError(ValueError):
    """A duration string that cannot be parsed."""
