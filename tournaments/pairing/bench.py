"""Benchmark the pairing on a simulated event: random results, the real standings, timed rounds.

Pure Python (the `bench_pairing` management command only prints it). For every round it counts the
repeat meetings and a lower bound of them, so that "avoidable" repeats are told from forced ones:
- exact search / matching: the pairing is optimal, the bound is its own count;
- otherwise the degree bound (players who have met almost everyone), and for small events the
  exact minimum by branch and bound. `avoidable` sums repeats above a proven minimum; a round whose
  minimum could not be proven is counted in `unproven_rounds` and only adds to `avoidable_at_most`.
The bound counts repeats alone; with short tables the fairness rule can force a few more.
"""

from __future__ import annotations

import random
import statistics
import time

from tournaments.pairing.bounds import degree_bound, min_repeats
from tournaments.pairing.context import PairingOptions, PastRound, Player, build_context, standings_order
from tournaments.pairing.layout import round_layout
from tournaments.pairing.rounds import pair_round
from tournaments.scoring import average_points
from tournaments.standings import Game, StandingsOptions, compute_standings

PROVE_UP_TO = 32  # players: try the exact minimum of repeats up to this size
PROVE_NODES = 2_000_000


def run_bench(
    players: int,
    rounds: int,
    table_size: int = 4,
    seed: int | str = 0,
    layout: str = "even",
    max_evaluations: int | None = None,
) -> dict:
    options = PairingOptions(table_size=table_size, layout=layout)
    if max_evaluations is not None:
        options = PairingOptions(table_size=table_size, layout=layout, max_evaluations=max_evaluations)
    rng = random.Random(f"{seed}:results")
    ids = list(range(1, players + 1))
    games: list[Game] = []
    byes: list[tuple[int, int]] = []
    history: list[PastRound] = []
    seconds, repeats, bounds, methods, proven = [], [], [], [], []
    bye_value = average_points(table_size)
    for r in range(1, rounds + 1):
        standings = compute_standings(
            ids, games, byes, options=StandingsOptions(seed=seed, bye_points=bye_value)
        )
        entrants = [Player(s.player, s.points, s.tiebreaks) for s in standings]
        started = time.perf_counter()
        pairing = pair_round(entrants, history, r, seed, options)
        seconds.append(time.perf_counter() - started)
        bound, tight = _bound(pairing, entrants, history, r, seed, options)
        repeats.append(pairing.repeats)
        bounds.append(bound)
        proven.append(tight)
        methods.append(pairing.method)
        history.append(PastRound(pairing.seats(), pairing.bye_players()))
        for table in pairing.seats():
            games.append(Game(r, {pid: rng.randint(0, 20) for pid in table}))
        byes += [(r, pid) for pid in pairing.bye_players()]
    return {
        "players": players,
        "rounds": rounds,
        "table_size": table_size,
        "layout": layout,
        "seed": seed,
        "seconds_median": round(statistics.median(seconds), 4),
        "seconds_max": round(max(seconds), 4),
        "seconds_by_round": [round(s, 4) for s in seconds],
        "repeats": sum(repeats),
        "repeats_by_round": repeats,
        "lower_bound": sum(bounds),
        # Repeats above a proven minimum; rounds whose minimum is unknown only give an upper estimate.
        "avoidable": sum(r - b for r, b, t in zip(repeats, bounds, proven, strict=True) if t),
        "avoidable_at_most": sum(repeats) - sum(bounds),
        "unproven_rounds": sum(1 for r, b, t in zip(repeats, bounds, proven, strict=True) if r > b and not t),
        "methods": sorted(set(methods)),
    }


def _bound(pairing, entrants, history, round_number, seed, options) -> tuple[int, bool]:
    """(a lower bound of this round's repeats, whether it is proven to be the minimum)."""
    if pairing.method in ("random", "exact", "matching"):
        return pairing.repeats, True
    ctx = build_context(standings_order(entrants, seed, round_number), history, options)
    layout = round_layout(ctx.n, options.table_size, options.layout)
    bound = degree_bound(ctx, list(layout.tables), layout.byes)
    if pairing.repeats <= bound:
        return pairing.repeats, True
    if ctx.n <= PROVE_UP_TO:
        fewest = min_repeats(
            ctx, list(layout.tables), layout.byes, upper=pairing.repeats, node_limit=PROVE_NODES, fair=True
        )
        if fewest is not None:
            return fewest, True
    return bound, False
