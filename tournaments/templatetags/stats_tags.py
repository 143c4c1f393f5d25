"""Template helpers of the statistics, ratings and series pages."""

from django import template

register = template.Library()


@register.filter
def percent(value) -> str:
    """A share (0.315) as a whole percentage ("32 %"); empty for nothing."""
    if value is None or value == "":
        return ""
    try:
        return f"{float(value) * 100:.0f} %"
    except (TypeError, ValueError):
        return ""


@register.filter
def signed(value, places=1) -> str:
    """A change with its sign: "+2.4", "-0.7", "0.0" (for rating changes)."""
    if value is None or value == "":
        return ""
    try:
        number = round(float(value), int(places))
    except (TypeError, ValueError):
        return ""
    return f"{number:+.{int(places)}f}" if number else f"{0:.{int(places)}f}"


@register.filter
def ordinal(value) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th" (places in events and series)."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return ""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
