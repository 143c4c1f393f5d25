"""Template helpers of the judge tools: the open calls of the dashboard, a player's own call and
penalties, and the penalties the standings list (without the judges' notes)."""

from django import template

from tournaments import services
from tournaments.models import Penalty

register = template.Library()


@register.simple_tag
def open_judge_calls(event):
    """The calls waiting for a judge, the oldest first (the dashboard)."""
    return services.open_calls(event)


@register.simple_tag
def my_judge_call(entrant):
    """The player's open call, if any (their page, their table's draft)."""
    return services.my_open_call(entrant)


@register.simple_tag
def my_penalties(entrant):
    """The player's penalties in force, with the judge's note (their own page only)."""
    if entrant is None:
        return []
    return list(Penalty.objects.filter(entrant=entrant, revoked_at__isnull=True).order_by("created_at", "pk"))


@register.simple_tag
def public_penalties(event):
    """The event's penalties in force, for the standings: who, what and when, never the note."""
    return list(
        Penalty.objects.filter(event=event, revoked_at__isnull=True)
        .select_related("entrant")
        .order_by("round_number", "created_at", "pk")
    )
