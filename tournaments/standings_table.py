"""The standings page's table body, built once per event version and cached.

Why not a template loop: at 512 entrants x 6 rounds the template engine spent most of the page's time
on the table's ~5,000 cells (a variable lookup, a filter, localisation and autoescaping each, tens of
microseconds apiece), and reading the standings cache spent most of the rest unpickling 512 `Entrant`
model instances. Here each row becomes escaped HTML once, from plain values, and the rows are cached
by the event's version (every change bumps it: `services.touch`), so a page view costs one cache read
of plain strings and one join. The markup is the one `_standings_table.html` had.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.safestring import SafeString, mark_safe

from . import services
from .models import Event, Penalty
from .penalties import summary
from .services.results import STANDINGS_CACHE_SECONDS

# Not "draw": on a standings table that reads as a drawn game (issue 27). The order was settled by lot.
DRAW_MARK = (
    ' <abbr class="t-draw" title="Tied on points and every tie-breaker: this order was settled by lot'
    ' (a draw seeded from the event, the same on every page)">by lot</abbr>'
)


@dataclass(frozen=True)
class PublicPenalty:
    """A penalty in force as the standings page lists it: who, what and when, never the note."""

    name: str
    kind: str
    label: str  # the kind in words, lower case ("vp loss")
    vp: int
    round_number: int | None


@dataclass(frozen=True)
class StandingsTable:
    """Plain values only (cheap to pickle): each row's entrant id and its escaped `<tr>`."""

    rows: tuple[tuple[int, str], ...]
    leader: str | None  # the first row's name (the winner once the event is over)
    # By round (those without one last), then in the order given; from the standings' own read.
    penalties: tuple[PublicPenalty, ...] = ()

    def html(self, me_pk: int | None = None) -> SafeString:
        """The `<tbody>` rows, the viewer's own row marked `me`."""
        if me_pk is None:
            return mark_safe("".join(html for _, html in self.rows))
        return mark_safe(
            "".join(
                html.replace('<tr class="', '<tr class="me ', 1) if pk == me_pk else html
                for pk, html in self.rows
            )
        )


def _points(value: float) -> str:
    """tournament_tags.num at 3 places for a float (no trailing zeros), without the filter's checks."""
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _tiebreak(value: float) -> str:
    """As `_points` at 2 places (a fixed format: a third faster than one with the places as a value)."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def row_html(row) -> str:
    """One standings row (a `services.Row`, or its entrant and `Standing`) as HTML, every text
    escaped (the standard library's `html.escape`: the same five characters as Django's)."""
    entrant, standing = (row.entrant, row.standing) if hasattr(row, "standing") else row
    name = html.escape(entrant.name)
    if standing.dropped and not standing.disqualified:
        name += ' <span class="t-muted">(dropped)</span>'
    name += penalty_marks(standing.penalties)
    if standing.draw_decided:
        name += DRAW_MARK
    tiebreaks = "".join([f'<td class="n">{_tiebreak(value)}</td>' for value in standing.tiebreaks])
    games = str(standing.games)
    if standing.byes:
        games += f" + {standing.byes} bye{'s' * (standing.byes != 1)}"
    return (
        f'<tr class="{"dropped" if standing.dropped else ""}"><td>{standing.rank}</td><td>{name}</td>'
        f'<td class="n"><strong>{_points(standing.points)}</strong></td>{tiebreaks}'
        f'<td class="n">{games}</td></tr>'
    )


def penalty_marks(given) -> str:
    """A row's penalties (tournaments.penalties.summary) as marks after the name: "disqualified",
    a VP or game loss with its round, the warnings counted."""
    if not given:  # most rows
        return ""
    return "".join(
        f' <span class="t-penalty{" t-dq" if text == "disqualified" else ""}">{html.escape(text)}</span>'
        for text in summary(given)
    )


def build(rows, penalties=(), names: dict[int, str] | None = None) -> StandingsTable:
    """From `services.ranked` pairs (entrant, Standing), or `services.Row`s; `penalties`: the
    event's in force (`services.penalties_in_force`), `names` of their players by entrant id."""
    pairs = [(row.entrant, row.standing) if hasattr(row, "standing") else row for row in rows]
    return StandingsTable(
        rows=tuple([(pair[0].pk, row_html(pair)) for pair in pairs]),
        leader=pairs[0][0].name if pairs else None,
        penalties=public_penalties(penalties, names or {}),
    )


def public_penalties(given, names: dict[int, str]) -> tuple[PublicPenalty, ...]:
    """The list under the table: by round, those without a round last (as PostgreSQL sorts a
    null), each round's in the order given."""
    labels = dict(Penalty.Kind.choices)
    return tuple(
        PublicPenalty(names[p.player], p.kind, str(labels[p.kind]).lower(), p.vp, p.round)
        for p in sorted(given, key=lambda p: (p.round is None, p.round or 0))
    )


def standings_table(event: Event) -> StandingsTable:
    """The table of `services.standings(event)` (from plain entrants), cached by the event's
    version (read-only pages only, like `cached_standings`). A cache that is down only costs the
    building."""
    key = f"tournaments:standings-table:2:{event.pk}:{event.version}"  # 2: with the penalties
    try:
        table = cache.get(key)
    except Exception:  # the cache (Redis) is down: build
        table = None
    if table is None:
        # From plain values (no Entrant instances, nothing unpickled): what a page after a change costs.
        entrants, penalties = services.plain_entrants(event), services.penalties_in_force(event)
        names = {e.pk: e.name for e in entrants} if penalties else None
        table = build(services.ranked(event, entrants=entrants, penalties=penalties), penalties, names)
        try:
            cache.set(key, table, STANDINGS_CACHE_SECONDS)
        except Exception:
            pass
    return table
