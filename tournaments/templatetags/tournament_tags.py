"""Small template helpers of the tournament pages."""

from django import template

register = template.Library()


@register.filter
def mmss(seconds) -> str:
    """Seconds as m:ss (h:mm:ss from an hour up), rounded up like the live countdown."""
    try:
        total = max(0, int(-(-float(seconds) // 1)))
    except (TypeError, ValueError):
        return ""
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@register.filter
def minutes(seconds) -> str:
    """Seconds as words for a clock warning: "10 minutes", "1 minute", "90 seconds"."""
    try:
        seconds = int(seconds)
    except (TypeError, ValueError):
        return ""
    if seconds % 60:
        return f"{seconds} seconds"
    return f"{seconds // 60} minute{'s' * (seconds != 60)}"


@register.filter
def num(value, places=3) -> str:
    """A number without trailing zeros (2.5, 4, 3.25), at most `places` decimals."""
    if value is None or value == "":
        return ""
    try:
        return f"{float(value):.{int(places)}f}".rstrip("0").rstrip(".")
    except (TypeError, ValueError):
        return str(value)


@register.filter
def get(mapping, key):
    try:
        return mapping.get(key)
    except AttributeError:
        return None
