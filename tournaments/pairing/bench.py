"""Benchmark the pairing on a simulated event: random results, the real standings, timed rounds.

Pure Python (the `bench_pairing` management command only prints it). For every round it counts the
repeat meetings and a lower bound of them, so that "avoidable" repeats are told from forced ones:
- exact search / matching: the pairing is optimal, the bound is its own count;
- otherwise the degree bound (players who have met almost everyone), and for small events the
  exact minimum by branch and bound. `avoidable` sums repeats above a proven minimum; a round whose
  minimum could not be proven is counted in `unproven_rounds` and only adds to `avoidable_at_most`.
The bound counts repeats alone; with short tables the fairness rule can force a few more.

With `faction_copies` the event drafts at the round 1 tables and players keep their pair (a per-event
draft: each table takes different factions from the 17, at most that many copies of each): later
rounds also avoid faction clashes and the report counts them. The bound and `avoidable` then count
a clash as the pairing weighs it (Weights.clash / Weights.repeat repeats), since a repeat above
the repeats' own minimum may be the price of a clash avoided.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import replace

from smashup.draft import FACTIONS
from tournaments.pairing import kernel
from tournaments.pairing.bounds import degree_bound, min_repeats, pigeonhole_repeats
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
    faction_copies: int | None = None,
    drops: int = 0,
    late: int = 0,
    short_tables: str = "strict",
) -> dict:
    """`drops`: players (drawn at random, seeded) who leave after each round; `late`: players who
    enter before round 2 (with no points and no history); `short_tables`: PairingOptions'."""
    options = PairingOptions(
        table_size=table_size, layout=layout, faction_copies=faction_copies, short_tables=short_tables
    )
    if max_evaluations is not None:
        options = replace(options, max_evaluations=max_evaluations)
    held: dict[int, tuple[str, ...]] = {}
    clashes: list[int] = []
    rng = random.Random(f"{seed}:results")
    ids = list(range(1, players + 1))
    games: list[Game] = []
    byes: list[tuple[int, int]] = []
    history: list[PastRound] = []
    seconds, cpu, repeats, units, bounds, methods, proven, unfair = [], [], [], [], [], [], [], []
    w = options.weights
    ratio = w.clash / w.repeat if faction_copies is not None else 0.0
    bye_value = average_points(table_size)
    dropped: set[int] = set()
    for r in range(1, rounds + 1):
        if r == 2 and late:
            ids += list(range(players + 1, players + late + 1))
        standings = compute_standings(
            ids, games, byes, dropped=dropped, options=StandingsOptions(seed=seed, bye_points=bye_value)
        )
        entrants = [
            Player(s.player, s.points, s.tiebreaks, dropped=s.dropped, factions=held.get(s.player, ()))
            for s in standings
        ]
        started, started_cpu = time.perf_counter(), time.process_time()
        pairing = pair_round(entrants, history, r, seed, options)
        seconds.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        cost = pairing.repeats + ratio * pairing.clashes  # in repeats
        bound, tight = _bound(pairing, cost, ratio, entrants, history, r, seed, options)
        repeats.append(pairing.repeats)
        # Players at a short table again while someone had fewer (what the soft mode trades).
        unfair.append(sum(len(t.fairness) for t in pairing.tables))
        units.append(cost)
        bounds.append(bound)
        proven.append(tight)
        methods.append(pairing.method)
        clashes.append(pairing.clashes)
        if faction_copies is not None and r == 1:
            held = _draft(pairing.seats(), faction_copies, random.Random(f"{seed}:draft"))
        history.append(PastRound(pairing.seats(), pairing.bye_players()))
        for table in pairing.seats():
            games.append(Game(r, {pid: rng.randint(0, 20) for pid in table}))
        byes += [(r, pid) for pid in pairing.bye_players()]
        staying = sorted(set(ids) - dropped)
        dropped.update(rng.sample(staying, min(drops, max(0, len(staying) - 2))))
    report = {
        "players": players,
        "drops": drops,
        "late": late,
        "rounds": rounds,
        "table_size": table_size,
        "layout": layout,
        "seed": seed,
        "seconds_median": round(statistics.median(seconds), 4),
        "seconds_max": round(max(seconds), 4),
        "seconds_by_round": [round(s, 4) for s in seconds],
        # CPU seconds of this process: on a shared machine the steadier figure (wall time includes
        # waiting for a core).
        "cpu_seconds_median": round(statistics.median(cpu), 4),
        "cpu_seconds_max": round(max(cpu), 4),
        "cpu_seconds_by_round": [round(s, 4) for s in cpu],
        "repeats": sum(repeats),
        "repeats_by_round": repeats,
        "lower_bound": _int(sum(bounds)),
        # Repeats above a proven minimum; rounds whose minimum is unknown only give an upper estimate.
        "avoidable": _int(sum(u - b for u, b, t in zip(units, bounds, proven, strict=True) if t)),
        "avoidable_at_most": _int(sum(units) - sum(bounds)),
        "unproven_rounds": sum(1 for u, b, t in zip(units, bounds, proven, strict=True) if u > b and not t),
        "methods": sorted(set(methods)),
        "short_tables": short_tables,
        "unfair_short_tables": sum(unfair),
        "unfair_by_round": unfair,
        # How a small event's tabu step ran: compiled loops (kernel.py, `manage.py compile_engine`)
        # or numpy; the same pairings, not the same seconds.
        "tabu_step": "compiled" if kernel.COMPILED else "numpy",
    }
    if faction_copies is not None:
        report.update(faction_copies=faction_copies, clashes=sum(clashes), clashes_by_round=clashes)
    return report


def _draft(tables, copies: int, rng: random.Random) -> dict[int, tuple[str, ...]]:
    """Each table's players get two different factions from their table's own pool (`copies` of each)."""
    held = {}
    for table in tables:
        pool = [f for f in FACTIONS for _ in range(copies)]
        rng.shuffle(pool)
        for pid in table:
            first = pool.pop()
            second = next(f for f in reversed(pool) if f != first)
            pool.remove(second)
            held[pid] = (first, second)
    return held


def _int(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _bound(pairing, cost, ratio, entrants, history, round_number, seed, options) -> tuple[float, bool]:
    """(a lower bound of this round's `cost`: repeats, plus `ratio` per faction clash; whether it
    is proven to be the minimum)."""
    if pairing.method in ("random", "exact", "matching"):
        return cost, True
    ctx = build_context(standings_order(entrants, seed, round_number), history, options)
    layout = round_layout(ctx.n, options.table_size, options.layout)
    # Clashes cost >= 0: still bounds. The pigeonhole bound assumes the fairness rule the pairing keeps
    # (strict); in the soft mode the bound counts any grouping.
    bound = degree_bound(ctx, list(layout.tables), layout.byes)
    if ctx.strict:
        bound = max(bound, pigeonhole_repeats(ctx, list(layout.tables), layout.byes))
    if cost <= bound:
        return cost, True
    if ctx.n <= PROVE_UP_TO:
        fewest = min_repeats(
            ctx,
            list(layout.tables),
            layout.byes,
            upper=cost,
            node_limit=PROVE_NODES,
            fair=ctx.strict,
            clash=ratio,
        )
        if fewest is not None:
            return fewest, True
    return bound, False
