"""Template helpers of the judge tools: the open calls of the dashboard, a player's own call and
penalties. (The penalties the standings list, without the judges' notes, come with the standings
table: tournaments/standings_table.py.)"""

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
