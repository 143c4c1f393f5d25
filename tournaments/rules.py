"""The event's rules page in words: how points, byes, tie-breakers and the draw work for this event.

Plain functions over the event's settings (no queries), so the page and its tests read the same text.
"""

from __future__ import annotations

from tournaments.scoring import FIXED_4321, average_points
from tournaments.standings import StandingsOptions

TIEBREAKER_RULES = {
    "vp_share": (
        "VP share",
        "In each game, your VP divided by the most VP anyone at your table scored (1 for the top score, "
        "0 when nobody scored). The standings show the average over the games you played.",
    ),
    "sos": (
        "Strength of schedule (SoS)",
        "The average tournament points per round of everyone you played against, once per opponent per "
        "game. Every opponent counts as at least {floor} points per round, whether they stayed or "
        "dropped, so an opponent's bad day or early leave moves nobody's SoS below that.",
    ),
    "firsts": (
        "Wins per game",
        "The share of your games you won (a shared first place counts as a win).",
    ),
    "vp": ("VP per game", "Your average VP per game played."),
}


def plural(n, word: str, plural_word: str | None = None) -> str:
    """'1 point', '2 points', '2.5 points' (grammar, issue 14)."""
    text = f"{n:g}" if isinstance(n, float) else str(n)
    return f"{text} {word if n == 1 else (plural_word or word + 's')}"


def event_rules(event) -> list[tuple[str, str]]:
    """(heading, text) for each rule that decides the standings of `event`."""
    options = StandingsOptions()
    if event.scoring == FIXED_4321:
        scoring = "First place gets 4 points, second 3, third 2, fourth 1, whatever the table size."
    else:
        scoring = (
            "First place gets 4 points and last place 1 at every table size; places between are spread "
            "evenly (4/3/2/1 at four players, 4/2.5/1 at three, 4/1 at two)."
        )
    bye = average_points(event.table_size, event.scoring)
    rules = [
        ("Points", scoring + " Players tied on VP share the points of the places they cover."),
        (
            "Byes",
            f"A bye is worth {plural(bye, 'point')}, what an average seat at a full table gets. It is "
            "not a game: VP share, wins and VP are averaged over the games you played, so a bye neither "
            "helps nor hurts you in the tie-breakers.",
        ),
    ]
    chosen = list(event.tiebreakers or ())
    for i, name in enumerate(chosen, 1):
        title, text = TIEBREAKER_RULES[name]
        rules.append((f"Tie-breaker {i}: {title}", text.format(floor=f"{options.sos_floor:g}")))
    rules.append(
        (
            "Seeded draw",
            "Players still tied after "
            + ("the tie-breakers" if chosen else "points")
            + " are ordered by a draw fixed by the event's seed and the player alone, not by the order "
            "of sign-up. A place the draw decided is marked 'draw' in the standings.",
        )
    )
    return rules


def layout_previews(table_size: int, counts) -> list[tuple[str, list[str]]]:
    """For the event form and the dashboard: what each layout gives at each player count, in words
    (pairing.layout.describe), so an organizer sees the byes and short tables before pairing."""
    from tournaments.models import Event
    from tournaments.pairing.layout import describe

    counts = sorted({int(c) for c in counts if int(c) >= 2})
    return [(label, [describe(n, table_size, mode) for n in counts]) for mode, label in Event.Layout.choices]
