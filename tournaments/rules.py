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
        "The share of your games you won (a shared first place counts as a win; a table where nobody "
        "scored has no winner, unless only one player came).",
    ),
    "vp": ("VP per game", "Your average VP per game played."),
}


def plural(n, word: str, plural_word: str | None = None) -> str:
    """'1 point', '2 points', '2.5 points' (grammar, issue 14)."""
    text = f"{n:g}" if isinstance(n, float) else str(n)
    return f"{text} {word if n == 1 else (plural_word or word + 's')}"


def listed(items: list[str]) -> str:
    """'Ada', 'Ada and Bo', 'Ada, Bo and Cy': names or labels as a sentence lists them."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


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
    if event.short_tables == "soft" or event.avoid_clubs:
        parts = []
        if event.short_tables == "soft":
            parts.append(
                "Short tables are weighed against rematches: a player may sit at a short table again "
                "before everyone had one when that spares a rematch."
            )
        if event.avoid_clubs:
            parts.append(
                "Round 1 is drawn at random, then changed by as few swaps as needed so that players of "
                "one club sit at different tables where the numbers allow."
            )
        rules.append(("Pairing", " ".join(parts)))
    rules.append(
        (
            "No-shows",
            "A player who does not come to their table is marked as a no-show by an organizer: they "
            "score 0 VP and place below everyone who played at that table (a loss; a present player "
            "with 0 VP still places above them), and the others finish the table's result as usual. "
            "As under Magic's tournament rules, where a player missing from their match gets a loss "
            "and is dropped unless they report to the organizer, a no-show is also dropped from the "
            "next round on, unless the organizer keeps them in the event (e.g. they arrive late): "
            "tell an organizer as soon as you can.",
        )
    )
    rules.append(
        (
            "Extra time",
            "When a judge call stops a table, an organizer can give that table extra minutes. Its "
            "clock (on the projector and on its players' pages) runs on past the round's time, and "
            "time is called at that table when its extra time is over.",
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


def _change(n: int, word: str, plural_word: str | None = None) -> str | None:
    if n == 0:
        return None
    return f"{abs(n)} {'more' if n > 0 else 'fewer'} {word if abs(n) == 1 else (plural_word or word + 's')}"


def swap_summary(check) -> list[str]:
    """A swap preview in words instead of a raw cost ("+40000000"): what changes at the tables the
    swap touches, most important first (the pairing's own order: fairness, faction clashes, repeat
    meetings, the points spread)."""
    from tournaments.pairing.cost import TableReport

    def totals(reports):
        tables = [r for r in reports if isinstance(r, TableReport)]
        return (
            sum(len(t.fairness) for t in tables),
            sum(len(holders) - copies for t in tables for _, holders, copies in t.clashes),
            sum(k for t in tables for _, _, k in t.repeats),
            sum(t.spread for t in tables),
        )

    before, after = totals(check.before), totals(check.after)
    fair, clash, repeat, _ = (a - b for a, b in zip(after, before, strict=True))
    lines = [
        text
        for text in (
            _change(
                fair,
                "player at a short table again before everyone had one",
                "players at a short table again before everyone had one",
            ),
            _change(clash, "faction clash", "faction clashes"),
            _change(repeat, "repeat meeting"),
        )
        if text
    ]
    if after[3] != before[3]:
        wider = "wider" if after[3] > before[3] else "narrower"
        lines.append(
            f"a {wider} points spread at these tables ({before[3]:g} to {after[3]:g} points between "
            "the highest and the lowest, added up)"
        )
    if not lines:
        lines.append("no change in fairness, faction clashes, repeat meetings or the points spread")
    verdict = "worse" if check.delta > 0 else "better" if check.delta < 0 else "the same"
    return [f"Overall {verdict} than now: " + "; ".join(lines) + "."]
