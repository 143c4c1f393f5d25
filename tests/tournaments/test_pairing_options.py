"""Pairing options of issue 27 (soft short-table fairness, clubs apart in round 1) and the fast tabu
step: pure functions, no database."""

import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tournaments.draft import FACTIONS as CLASH_POOL
from tournaments.pairing import PairingOptions, PastRound, Player, Weights, bench, kernel, pair_round
from tournaments.pairing.context import build_context, standings_order
from tournaments.pairing.grouping import EPS, Grouping
from tournaments.pairing.layout import round_layout
from tournaments.pairing.local import group_kinds, initial_groups
from tournaments.scoring import table_points


def club_pairs(tables, clubs) -> int:
    return sum(
        1
        for t in tables
        for i, a in enumerate(t)
        for b in t[i + 1 :]
        if clubs.get(a) and clubs.get(a) == clubs.get(b)
    )


# --- soft short-table fairness ---------------------------------------------------------------------


def test_an_unknown_short_table_mode_is_refused():
    with pytest.raises(ValueError, match="short_tables"):
        PairingOptions(short_tables="lenient")


def test_soft_fairness_weighs_a_second_short_table_at_half_a_repeat_and_byes_stay_strict():
    strict, soft = PairingOptions(), PairingOptions(short_tables="soft")
    assert strict.effective_weights() == strict.weights
    weights = soft.effective_weights()
    assert weights.fairness == weights.repeat / 2
    assert weights.bye_fairness == strict.weights.bye_fairness > weights.clash


def test_soft_fairness_gives_a_second_short_table_to_spare_a_rematch():
    """Seven players at tables of 4 and 3: round 1 put A B C at the short table. Strict: the short
    table goes to three of D E F G, two of whom met at round 1's table of four; soft: someone who
    had a short table has it again and nobody meets twice."""
    history = [PastRound([("D", "E", "F", "G"), ("A", "B", "C")])]
    players = [Player(p) for p in "ABCDEFG"]
    strict = pair_round(players, history, 2, "s", PairingOptions())
    soft = pair_round(players, history, 2, "s", PairingOptions(short_tables="soft"))
    assert strict.repeats > 0 and not any(t.fairness for t in strict.tables)
    assert soft.repeats < strict.repeats and any(t.fairness for t in soft.tables)


@pytest.mark.parametrize("players", [13, 14])
def test_soft_fairness_trades_short_tables_for_fewer_repeats(players, monkeypatch):
    """Over simulated events (the bench, without its proofs): fewer repeats in the soft mode, more
    players at a short table again before everyone had one."""
    monkeypatch.setattr(bench, "PROVE_UP_TO", 0)
    strict = [bench.run_bench(players, 5, seed=s) for s in range(3)]
    soft = [bench.run_bench(players, 5, seed=s, short_tables="soft") for s in range(3)]
    assert sum(r["repeats"] for r in soft) < sum(r["repeats"] for r in strict)
    assert sum(r["unfair_short_tables"] for r in soft) > sum(r["unfair_short_tables"] for r in strict)
    assert {r["short_tables"] for r in soft} == {"soft"}


# --- clubs apart in round 1 ------------------------------------------------------------------------


def test_round_one_keeps_players_of_a_club_apart_when_asked():
    clubs = {i: ("Red" if i <= 4 else "Blue" if i <= 8 else "") for i in range(1, 17)}
    players = [Player(i, club=clubs[i]) for i in range(1, 17)]
    plain = pair_round(players, [], 1, "s", PairingOptions())
    apart = pair_round(players, [], 1, "s", PairingOptions(avoid_clubs=True))
    assert club_pairs(plain.seats(), clubs) > 0  # the draw alone seats club-mates together
    assert club_pairs(apart.seats(), clubs) == 0
    assert apart.method == "random"
    # Reproducible from the seed and the clubs; the tables change by swaps only.
    assert pair_round(players, [], 1, "s", PairingOptions(avoid_clubs=True)).seats() == apart.seats()
    pairs = zip(plain.seats(), apart.seats(), strict=True)
    moved = sum(1 for a, b in pairs for x, y in zip(a, b, strict=True) if x != y)
    assert 0 < moved <= 8


def test_club_names_compare_case_blind_and_players_without_a_club_are_not_moved():
    players = [Player(i, club={1: "Red", 2: "red ", 3: "RED"}.get(i, "")) for i in range(1, 13)]
    plain = pair_round([Player(i) for i in range(1, 13)], [], 1, "s", PairingOptions(avoid_clubs=True))
    apart = pair_round(players, [], 1, "s", PairingOptions(avoid_clubs=True))
    clubs = {p.id: p.club.strip().casefold() for p in players}
    assert club_pairs(apart.seats(), clubs) == 0
    assert plain.seats() == pair_round([Player(i) for i in range(1, 13)], [], 1, "s").seats()


def test_a_club_larger_than_the_tables_is_spread_as_evenly_as_possible():
    clubs = {i: "Red" if i <= 9 else "" for i in range(1, 17)}
    apart = pair_round(
        [Player(i, club=clubs[i]) for i in range(1, 17)], [], 1, "s", PairingOptions(avoid_clubs=True)
    )
    per_table = sorted(sum(1 for p in t if clubs[p]) for t in apart.seats())
    assert per_table == [2, 2, 2, 3]  # 9 over 4 tables: 6 pairs, the fewest


def test_clubs_do_not_change_the_byes_of_the_draw():
    options = PairingOptions(layout="byes", avoid_clubs=True)
    players = [Player(i, club="Red" if i % 2 else "Blue") for i in range(1, 11)]
    plain = pair_round([Player(i) for i in range(1, 11)], [], 1, "s", PairingOptions(layout="byes"))
    apart = pair_round(players, [], 1, "s", options)
    assert apart.bye_players() == plain.bye_players() and len(apart.bye_players()) == 2


# --- the tabu step as arrays -----------------------------------------------------------------------


def scan(state, trouble, window, tabu_until, step, current, best, rng):
    """The tabu step as it was written before issue 27: every swap one by one (hard_delta), in
    `near` order, a tie replacing the move held with probability 1 / ties so far."""
    move, ties = None, 0
    for x in trouble:
        x_tabu = tabu_until[x] >= step
        for gy in state.near(state.where[x], window):
            for y in state.groups[gy]:
                delta = state.hard_delta(x, y)
                if (x_tabu or tabu_until[y] >= step) and current + delta >= best - EPS:
                    continue
                if move is None or delta < move[0] - EPS:
                    move, ties = (delta, x, y), 1
                elif delta <= move[0] + EPS:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        move = (delta, x, y)
    return move


def simulated_context(n, rounds, copies, seed, short_tables="strict", layout="even"):
    rng = random.Random(seed)
    options = PairingOptions(faction_copies=copies, short_tables=short_tables, layout=layout)
    points, held, history = dict.fromkeys(range(n), 0.0), {}, []
    for r in range(1, rounds + 1):
        players = [Player(i, points[i], factions=held.get(i, ())) for i in range(n)]
        pairing = pair_round(players, history, r, seed, options)
        if r == 1 and copies:
            for table in pairing.seats():
                pool = rng.sample(sorted(CLASH_POOL), 2 * len(table))
                held.update({p: tuple(pool[2 * k : 2 * k + 2]) for k, p in enumerate(table)})
        history.append(PastRound(pairing.seats(), pairing.bye_players()))
        for table in pairing.seats():
            for pid, pts in table_points({pid: rng.randint(0, 15) for pid in table}).items():
                points[pid] += pts
    players = [Player(i, points[i], factions=held.get(i, ())) for i in range(n)]
    return build_context(standings_order(players, seed, rounds + 1), history, options), options


@pytest.mark.parametrize(
    "n, copies, layout, dense, whole",
    [(17, None, "even", True, True), (21, None, "byes", True, True), (16, 1, "even", True, True),
     (22, 2, "even", True, True), (41, 1, "byes", True, True), (38, None, "even", True, True),
     (17, None, "even", True, False), (21, None, "byes", True, False), (16, 1, "even", True, False),
     (22, 2, "even", True, False), (18, None, "byes", False, False), (16, 1, "even", False, False)],
)  # fmt: skip
def test_the_tabu_step_as_arrays_makes_the_choices_of_the_scan(n, copies, layout, dense, whole, monkeypatch):
    """Same move, same generator state afterwards, as the one-by-one scan, on states met along a
    random walk (tabu players, short tables, byes and faction clashes included), with who met whom
    as a matrix (small events) or as pairs (large ones: `dense` False), every pair priced from
    scratch as whole matrices (small events: `whole`) or only the troubled players' from the costs
    kept per group (larger ones)."""
    from tournaments.pairing import arrays, grouping, local

    monkeypatch.setattr(local.kernel, "COMPILED", False)  # numpy's step here (the loops: below)
    if not dense:
        monkeypatch.setattr(arrays, "DENSE_UP_TO", 0)
    if not whole:
        monkeypatch.setattr(grouping, "MATRIX_UP_TO", 0)
    walk_against_the_scan(n, copies, layout, whole)


def walk_against_the_scan(n, copies, layout, whole):
    ctx, options = simulated_context(n, 4, copies, seed=n, layout=layout)
    layout = round_layout(ctx.n, options.table_size, options.layout)
    kinds = group_kinds(layout)
    state = Grouping(ctx, initial_groups(ctx, layout), kinds)
    assert state.small == whole
    walk = random.Random(1)
    tabu_until = [0] * ctx.n
    for step in range(1, 120):
        trouble = state.troubled() or walk.sample(range(ctx.n), 3)
        current = state.hard_total()
        best = current - walk.choice([0, ctx.weights.repeat, 3 * ctx.weights.repeat])
        seed = walk.random()
        one, two = random.Random(seed), random.Random(seed)
        expected = scan(state, trouble, options.window, tabu_until, step, current, best, one)
        got = state.best_tabu_move(trouble, options.window, np.array(tabu_until), step, current, best, two)
        assert got == expected and one.getstate() == two.getstate(), step
        x, y = walk.sample(range(ctx.n), 2)
        if state.where[x] != state.where[y]:
            state.tabu_swap(x, y)
            tabu_until[x] = tabu_until[y] = step + walk.randrange(1, 6)
        recount = Grouping(ctx, state.groups, kinds)
        assert recount.hard == state.hard and recount.repeats == state.repeats
        if ctx.factions is not None:  # the faction counts each step reads, against a count by hand
            assert (state.held_np == recount.held_np).all()
            for g, (members, is_bye) in enumerate(zip(state.groups, state.is_bye, strict=True)):
                held = [
                    0 if is_bye else sum(f in ctx.factions[p] for p in members)
                    for f in range(len(ctx.faction_names))
                ]
                assert state.held_np[g, :-1].tolist() == held


def kernel_as_python():
    """kernel.py run as Python, whether or not its compiled build is the module imported."""
    path = Path(__file__).resolve().parents[2] / "tournaments" / "pairing" / "kernel.py"
    spec = importlib.util.spec_from_file_location("kernel_as_python", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert not module.COMPILED
    return module


@pytest.mark.parametrize("build", ["python", "imported"])
@pytest.mark.parametrize(
    "n, copies, layout",
    [(17, None, "even"), (21, None, "byes"), (16, 1, "even"), (22, 2, "even"), (41, 1, "byes"),
     (38, None, "even")],
)  # fmt: skip
def test_the_tabu_step_as_loops_makes_the_choices_of_the_scan(n, copies, layout, build, monkeypatch):
    """kernel.best_small_move, the step of a small event as loops, in place of numpy's
    (best_tabu_move calls it where it runs compiled): the same moves, evaluations and generator
    calls as the scan, run as Python and as imported (compiled where the build is, as in CI)."""
    from tournaments.pairing import local

    loops = kernel_as_python() if build == "python" else local.kernel
    use_kernel(loops, monkeypatch)
    monkeypatch.setattr(loops, "COMPILED", True)

    def numpy_step(self):
        raise AssertionError("numpy's step ran, not the loops")

    monkeypatch.setattr(Grouping, "_small_deltas", numpy_step)
    walk_against_the_scan(n, copies, layout, True)


@pytest.mark.skipif(
    not kernel.COMPILED, reason="the loops as Python take minutes for a round (CI compiles them)"
)
@pytest.mark.parametrize(
    "n, copies, weights",
    [(28, 1, Weights()), (36, 1, Weights()), (20, None, Weights()),
     (24, 1, Weights(repeat=1_000_000, clash=10_000_000, fairness=100_000_000))],
)  # fmt: skip
def test_a_compiled_tabu_step_makes_the_same_pairings_as_numpys(n, copies, weights, monkeypatch):
    """Every round of an event (the tabu search's thousands of steps) paired with the compiled
    step and with numpy's: the same tables, byes, tabu steps and evaluations (weights given as
    ints too: the step reads its costs as doubles)."""
    from tournaments.pairing import local

    rng = random.Random(n)
    options = PairingOptions(faction_copies=copies, weights=weights)
    points, held, history = dict.fromkeys(range(n), 0.0), {}, []
    searched = 0
    for r in range(1, 7):
        players = [Player(i, points[i], factions=held.get(i, ())) for i in range(n)]
        monkeypatch.setattr(local.kernel, "COMPILED", True)
        compiled = pair_round(players, history, r, n, options)
        monkeypatch.setattr(local.kernel, "COMPILED", False)
        plain = pair_round(players, history, r, n, options)
        assert (compiled.seats(), compiled.bye_players()) == (plain.seats(), plain.bye_players()), r
        steps = [(p.stats.get("steps"), p.stats.get("evaluations")) for p in (compiled, plain)]
        assert steps[0] == steps[1], r
        searched += steps[0][0] or 0
        if r == 1 and copies:
            for table in compiled.seats():
                pool = rng.sample(sorted(CLASH_POOL), 2 * len(table))
                held.update({p: tuple(pool[2 * k : 2 * k + 2]) for k, p in enumerate(table)})
        history.append(PastRound(compiled.seats(), compiled.bye_players()))
        for table in compiled.seats():
            for pid, pts in table_points({pid: rng.randint(0, 15) for pid in table}).items():
                points[pid] += pts
    assert searched > 1_000  # the tabu search ran: the steps compared are many


# --- the repair's and the polish's swaps as arrays ---------------------------------------------------


def scan_best_swap(state, x, groups):
    """The repair's and the polish's swap as it was written before: every swap one by one
    (swap_delta, full cost), the first kept unless a later one is lower by more than EPS."""
    best = None
    for gy in groups:
        for y in state.groups[gy]:
            delta, a, b, terms = state.swap_delta(x, y)
            if best is None or delta < best[0] - EPS:
                best = (delta, y, a, b, terms)
    return best


def scan_polish(state, window, budget, players):
    """The polish as it was written before: each player's best swap priced one by one."""
    todo = set(players)
    while todo and state.evaluations < budget:
        moved = set()
        for x in sorted(todo):
            found = scan_best_swap(state, x, state.near(state.where[x], window))
            if found is not None and found[0] < -EPS and state.hard_delta(x, found[1]) <= EPS:
                _, y, a, b, terms = found
                gx, gy = state.where[x], state.where[y]
                state.apply(x, y, a, b, terms)
                moved.update(state.groups[gx], state.groups[gy])
        todo = moved


SWAP_CASES = [
    (17, None, "even", True, "strict"), (21, None, "byes", True, "strict"), (16, 1, "even", True, "strict"),
    (22, 2, "even", True, "soft"), (18, None, "byes", False, "strict"), (26, 1, "byes", False, "soft"),
]  # fmt: skip


def use_kernel(loops, monkeypatch):
    """kernel.py as `loops` for the grouping's steps and prices and for the search around them."""
    from tournaments.pairing import grouping, local

    monkeypatch.setattr(grouping, "kernel", loops)
    monkeypatch.setattr(local, "kernel", loops)


def use_pricing(build, monkeypatch):
    """The swaps' prices as numpy's arrays ("numpy"), or as kernel.py's loops (kernel.Pricer) run
    as Python ("loops") or as imported ("imported": compiled where the build is)."""
    from tournaments.pairing import local

    if build == "numpy":
        monkeypatch.setattr(local.kernel, "COMPILED", False)
        return
    loops = kernel_as_python() if build == "loops" else local.kernel
    use_kernel(loops, monkeypatch)
    monkeypatch.setattr(loops, "COMPILED", True)

    def numpy_costs(*args):
        raise AssertionError("numpy's table costs ran, not the loops")

    monkeypatch.setattr(Grouping, "_table_costs", numpy_costs)


@pytest.mark.parametrize("build", ["numpy", "loops", "imported"])
@pytest.mark.parametrize("n, copies, layout, dense, short_tables", SWAP_CASES)
def test_the_swaps_priced_as_arrays_are_the_scans_to_the_last_bit(
    n, copies, layout, dense, short_tables, build, monkeypatch
):
    """Grouping.best_swap gives the scan's swap and the same delta, bit for bit, and counts the
    same evaluations, for any player (byes included) against nearby tables, one table or all, on
    states met along a random walk; priced by numpy and by kernel.py's loops (as Python and as
    imported: compiled where the build is)."""
    from tournaments.pairing import arrays

    use_pricing(build, monkeypatch)
    if not dense:
        monkeypatch.setattr(arrays, "DENSE_UP_TO", 0)
    ctx, options = simulated_context(n, 4, copies, seed=n, layout=layout, short_tables=short_tables)
    layout = round_layout(ctx.n, options.table_size, options.layout)
    kinds = group_kinds(layout)
    state = Grouping(ctx, initial_groups(ctx, layout), kinds)
    walk = random.Random(2)
    for step in range(60):
        x = walk.randrange(ctx.n)
        gx = state.where[x]
        for groups in (
            state.near(gx, options.window),
            state.near(gx, 1),
            [g for g in range(len(kinds)) if g != gx],
        ):
            before = state.evaluations
            expected = scan_best_swap(state, x, groups)
            counted = state.evaluations - before
            got = state.best_swap(x, groups)
            assert got == expected and state.evaluations - before == 2 * counted, step
        x, y = walk.sample(range(ctx.n), 2)
        if state.where[x] != state.where[y]:
            state.swap(x, y)


@pytest.mark.parametrize("build", ["numpy", "loops", "imported"])
@pytest.mark.parametrize("n, copies, layout, dense, short_tables", SWAP_CASES)
def test_the_polish_priced_as_arrays_makes_the_scans_swaps(
    n, copies, layout, dense, short_tables, build, monkeypatch
):
    """From a shuffled grouping (many swaps to make, so many players priced again after a swap
    near them), the polish ends where the one-by-one polish ends, with the same evaluations,
    repeats and meetings per group (numpy's prices and kernel.py's loops, as in the test above;
    the loops price each player at their turn and keep the meetings per group up themselves)."""
    from tournaments.pairing import arrays, local

    use_pricing(build, monkeypatch)
    if not dense:
        monkeypatch.setattr(arrays, "DENSE_UP_TO", 0)
    ctx, options = simulated_context(n, 4, copies, seed=n, layout=layout, short_tables=short_tables)
    layout = round_layout(ctx.n, options.table_size, options.layout)
    kinds = group_kinds(layout)
    order = list(range(ctx.n))
    random.Random(n).shuffle(order)
    groups, start = [], 0
    for size, _ in kinds:
        groups.append(order[start : start + size])
        start += size
    one, two = Grouping(ctx, groups, kinds), Grouping(ctx, groups, kinds)
    for window in (1, options.window):
        scan_polish(one, window, 10**9, range(ctx.n))
        local._polish(two, window, 10**9, set(range(ctx.n)))
        assert one.groups == two.groups and one.costs == two.costs and one.evaluations == two.evaluations
        # What the swaps keep up (compiled: kernel.Pricer's loops over the pairs) as the one by one's.
        assert one.repeats == two.repeats and (one.metg == two.metg).all()


@pytest.mark.parametrize("n, layout", [(23, "even"), (21, "byes"), (30, "even")])
def test_tables_seated_together_are_seated_as_one_by_one(n, layout):
    """seat_orders gives seat_order's order for every table, and leaves the generator where the
    one-by-one seating leaves it (tables of 2 to 8, from an event's seat history)."""
    from tournaments.pairing.seats import seat_order, seat_orders

    ctx, _ = simulated_context(n, 4, None, seed=n, layout=layout)
    walk = random.Random(n)
    order = list(range(ctx.n))
    walk.shuffle(order)
    groups, start = [], 0
    for size in [2, 3, 4, 4, 3, 1, 5, 6, 7, 8] * 3:
        if start + size > len(order):
            break
        groups.append(order[start : start + size])
        start += size
    one, two = random.Random(1), random.Random(1)
    assert seat_orders(ctx, groups, two) == [seat_order(ctx, g, one) for g in groups]
    assert one.getstate() == two.getstate()


# Events paired round by round (as simulated_context, with a draft at the round 1 tables): prints
# each round's seats, byes and tabu steps, and how the pairing's built modules ran.
EVENTS = """
import json, random, sys
from tournaments.draft import FACTIONS
from tournaments.pairing import PairingOptions, PastRound, Player, kernel, local, pair_round
from tournaments.scoring import table_points
out = []
for n, copies, short_tables in [(13, 1, "strict"), (16, 1, "strict"), (21, None, "strict"),
                                (28, 1, "strict"), (36, 1, "strict"), (24, 1, "soft")]:
    rng = random.Random(n)
    options = PairingOptions(faction_copies=copies, short_tables=short_tables, layout="byes")
    points, held, history = dict.fromkeys(range(n), 0.0), {}, []
    for r in range(1, 7):
        players = [Player(i, points[i], factions=held.get(i, ())) for i in range(n)]
        pairing = pair_round(players, history, r, n, options)
        out.append([pairing.seats(), pairing.bye_players(), pairing.stats.get("steps")])
        if r == 1 and copies:
            for table in pairing.seats():
                pool = rng.sample(sorted(FACTIONS), 2 * len(table))
                held.update({p: tuple(pool[2 * k : 2 * k + 2]) for k, p in enumerate(table)})
        history.append(PastRound(pairing.seats(), pairing.bye_players()))
        for table in pairing.seats():
            for pid, pts in table_points({pid: rng.randint(0, 15) for pid in table}).items():
                points[pid] += pts
print(json.dumps([out, kernel.COMPILED, local.__file__.endswith(".py")]))
"""


def test_the_pairing_is_the_same_built_and_as_python():
    """The pairing's modules as built (native.OTHER_MODULES: compiled where the build is, as in
    CI) and as their Python source (SMASHUP_ENGINE=python, numpy's tabu step): the same seats,
    byes and tabu steps in every round of events of 13-36 players, with a draft, byes, soft short
    tables."""
    root = Path(__file__).resolve().parents[2]

    def run(engine):
        env = {**os.environ, "SMASHUP_ENGINE": engine, "PYTHONPATH": str(root)}
        done = subprocess.run(
            [sys.executable, "-c", EVENTS], cwd=root, capture_output=True, text=True, env=env, timeout=300
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads(done.stdout)

    built, python = run(""), run("python")
    assert python[1:] == [False, True]  # nothing compiled
    if os.environ.get("SMASHUP_REQUIRE_COMPILED_ENGINE"):
        assert built[1:] == [True, False]  # CI compiles them
    assert built[0] == python[0]
    assert sum(steps or 0 for _, _, steps in built[0]) > 5_000  # the tabu search ran


@pytest.mark.skipif(
    not os.environ.get("SMASHUP_REQUIRE_COMPILED_ENGINE"),
    reason="CI (.ci/run) compiles the pairing step with the engine, sets SMASHUP_REQUIRE_COMPILED_ENGINE",
)
def test_ci_runs_the_compiled_tabu_step():
    assert kernel.COMPILED, kernel.__file__


# --- the fixed costs of a round --------------------------------------------------------------------


@pytest.mark.parametrize("lengths", [(2,), (0,), (0, 1, 2)])
def test_the_seeded_draw_among_equals_orders_as_one_sort_by_the_whole_key(lengths):
    """standings_order draws (a hash per player) only among players equal on points and
    tie-breakers: the order of one sort by points, tie-breakers and the draw, with many ties
    (-0.0 and 0.0 among them), dropped players, and tie-breakers of unequal lengths."""
    from tournaments.pairing.context import seeded_key

    walk = random.Random(len(lengths))
    for event in range(300):
        players = [
            Player(i, walk.choice([0, 1, 2.0, 0.0, -0.0]),
                   tuple(walk.choice([0, 1, 2.5]) for _ in range(walk.choice(lengths))),
                   dropped=walk.random() < 0.1)
            for i in range(walk.randint(0, 30))
        ]  # fmt: skip
        one_sort = sorted(
            (p for p in players if not p.dropped),
            key=lambda p: (-p.points, *(-t for t in p.tiebreaks), seeded_key(event, 3, "rank", p.id)),
        )
        assert standings_order(players, event, 3) == one_sort, event


@pytest.mark.parametrize("n, copies", [(17, None), (22, 2), (41, 1)])
def test_the_search_arrays_read_the_context_as_a_loop_over_it_does(n, copies):
    """arrays.arrays_of reads who met whom and the factions held by iterators: the same arrays as
    a loop over every player's meetings and factions."""
    from tournaments.pairing.arrays import arrays_of

    ctx, _ = simulated_context(n, 4, copies, seed=n)
    arrays = arrays_of(ctx)
    a = [p for p, row in enumerate(ctx.met) for _ in row]
    b = [q for row in ctx.met for q in row]
    times = [k for row in ctx.met for k in row.values()]
    assert [column.tolist() for column in arrays.pairs] == [a, b, times]
    assert all(column.dtype == np.int64 for column in arrays.pairs)
    if copies is None:
        assert arrays.factions is None and arrays.one_hot is None
        return
    none = len(ctx.faction_names)
    for p, held in enumerate(ctx.factions):
        assert arrays.factions[p].tolist() == [*held, *[none] * (arrays.factions.shape[1] - len(held))]
        assert np.flatnonzero(arrays.one_hot[p]).tolist() == sorted(held)


def pigeonhole_cases():
    """(context, table sizes) pairs: events simulated over 4 rounds, 17 players after a round of
    two full tables and three short ones (where a round at the same tables forces repeats), 8
    after two tables of 4."""
    from tournaments.pairing.context import build_context

    for n, layout in [(17, "even"), (21, "byes"), (30, "even"), (41, "byes"), (64, "even")]:
        ctx, _ = simulated_context(n, 4, None, seed=n, layout=layout)
        short = next(b for b in range(1, 5) if (n - 3 * b) % 4 == 0)  # tables of 3 that seat everyone
        mixed = [4] * ((n - 3 * short) // 4) + [3] * short
        for sizes in ([4] * (n // 4), mixed, [3] * (n // 3), [2] * (n // 2)):
            yield ctx, sizes
    first = PastRound([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10], [11, 12, 13], [14, 15, 16]])
    ctx = build_context([Player(i) for i in range(17)], [first], PairingOptions())
    for sizes in ([4, 4, 3, 3, 3], [4, 4, 4, 4], [3, 3, 3, 3, 3, 2], [4, 3, 3, 3, 2, 2]):
        yield ctx, sizes
    # 8 players after two tables of 4: at three short tables two of each table meet again.
    halves = PastRound([[0, 1, 2, 3], [4, 5, 6, 7]])
    ctx = build_context([Player(i) for i in range(8)], [halves], PairingOptions())
    for sizes in ([3, 3, 2], [4, 4], [2, 2, 2, 2]):
        yield ctx, sizes


def test_the_pigeonhole_bound_skips_only_tables_that_force_nothing():
    """pigeonhole_repeats, counting each earlier table's best case alone (above exact_up_to
    players, or with byes), passes over the rounds whose tables hold no more players than there
    are tables of each kind: the same bound as the sum over every table's cases, here written out
    (rounds whose tables fit and rounds whose tables do not)."""
    from tournaments.pairing.bounds import _spread_pairs, fair_places, pigeonhole_repeats

    forced = 0
    for ctx, sizes in pigeonhole_cases():
        byes = ctx.n - sum(sizes)
        places = fair_places(ctx, sizes, byes)
        everyone = set(range(ctx.n))
        must_short, must_full = everyone - places["full"], everyone - places["short"]
        either = places["short"] & places["full"]
        if byes:
            out = places["bye"]
            must_short, must_full, either = must_short - out, must_full - out, either - out
        short = sum(1 for s in sizes if s < ctx.table_size)
        full = len(sizes) - short
        written_out = sum(
            min(
                _spread_pairs(len(must_short & set(t)) + x, short)
                + _spread_pairs(len(must_full & set(t)) + len(either & set(t)) - x, full)
                for x in range(len(either & set(t)) + 1)
            )
            for tables in ctx.past_tables
            for t in tables
        )
        assert pigeonhole_repeats(ctx, sizes, byes, exact_up_to=0) == written_out, (ctx.n, sizes)
        forced += written_out
    assert forced  # some tables force repeats: counted, not passed over
