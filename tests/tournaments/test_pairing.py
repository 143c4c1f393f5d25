"""Pairing (tournaments.pairing): pure functions over plain data, tested without a database."""

import random
import subprocess
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from tournaments.draft import FACTIONS as CLASH_POOL
from tournaments.pairing import (
    Layout,
    PairingOptions,
    PastRound,
    Player,
    check_swap,
    evaluate,
    pair_round,
    round_layout,
)
from tournaments.pairing.bounds import degree_bound, min_repeats
from tournaments.pairing.context import build_context, standings_order
from tournaments.pairing.grouping import Grouping
from tournaments.pairing.local import group_kinds, initial_groups
from tournaments.scoring import table_points

ROOT = Path(__file__).resolve().parents[2]


# --- helpers ---------------------------------------------------------------------------------------


def ranked(ids):
    """Players with points falling in the order given (the first is top of the standings)."""
    return [Player(pid, points=float(len(ids) - i)) for i, pid in enumerate(ids)]


def met_pairs(history):
    return Counter(frozenset(p) for r in history for t in r.tables for p in combinations(t, 2))


def repeats_of(tables, history):
    met = met_pairs(history)
    return sum(met[frozenset(p)] for t in tables for p in combinations(t, 2))


def greedy(ids, history, sizes):
    """The naive top-down pairing: each table takes the best-ranked players who met nobody at it yet,
    and when nobody fits, simply the next best. Known to paint itself into a corner at the bottom."""
    met = met_pairs(history)
    left, tables = list(ids), []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            fits = [p for p in left if all(not met[frozenset((p, q))] for q in table)]
            pick = fits[0] if fits else left[0]
            left.remove(pick)
            table.append(pick)
        tables.append(table)
    return tables


def play_event(n, rounds, seed, options=None, results_seed=0):
    """Pair `rounds` rounds with random VP results; returns the list of pairings and the history."""
    options = options or PairingOptions()
    rng = random.Random(results_seed)
    points = dict.fromkeys(range(n), 0.0)
    history, pairings = [], []
    for r in range(1, rounds + 1):
        pairing = pair_round([Player(i, points[i]) for i in range(n)], history, r, seed, options)
        pairings.append(pairing)
        history.append(PastRound(pairing.seats(), pairing.bye_players()))
        for table in pairing.seats():
            for pid, pts in table_points({pid: rng.randint(0, 15) for pid in table}).items():
                points[pid] += pts
        for pid in pairing.bye_players():
            points[pid] += 2.5
    return pairings, history


def min_repeats_for(players, history, round_number, seed, options=None):
    options = options or PairingOptions()
    ctx = build_context(standings_order(players, seed, round_number), history, options)
    layout = round_layout(ctx.n, options.table_size, options.layout)
    return min_repeats(ctx, list(layout.tables), layout.byes, node_limit=5_000_000)


# --- layout ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(6, 40))
def test_layout_uses_ceil_n_over_4_tables_with_4t_minus_n_tables_of_three(n):
    layout = round_layout(n)
    tables = -(-n // 4)
    assert len(layout.tables) == tables and layout.byes == 0
    assert Counter(layout.tables) == Counter({4: tables - (4 * tables - n), 3: 4 * tables - n}) - Counter()


def test_layout_small_counts_and_options():
    assert round_layout(5).tables == (3, 2)
    assert [round_layout(n).tables for n in (2, 3, 4)] == [(2,), (3,), (4,)]
    assert round_layout(10, mode="prefer_small").tables == (4, 3, 3)
    assert round_layout(12, mode="prefer_small").tables == (3, 3, 3, 3)
    assert round_layout(11, mode="prefer_small").tables == (4, 4, 3)
    assert round_layout(11, mode="byes") == Layout((4, 4, 3))  # 3 left over still play a game
    assert round_layout(7, mode="byes") == Layout((4, 3))  # not three byes a round
    assert round_layout(6, mode="byes") == Layout((4,), 2)
    assert round_layout(9, table_size=3, mode="byes") == Layout((3, 3, 3))
    assert round_layout(8, table_size=3, mode="byes") == Layout((3, 3), 2)  # never a table of 2
    # "prefer smaller" at tables of three would make tables of two: it is "even" there.
    assert round_layout(8, table_size=3, mode="prefer_small") == round_layout(8, table_size=3)
    assert round_layout(9, table_size=3, mode="prefer_small").tables == (3, 3, 3)  # was 3, 2, 2, 2
    assert round_layout(9, table_size=2).tables == (2, 2, 2, 2) and round_layout(9, table_size=2).byes == 1
    assert round_layout(1).byes == 1 and round_layout(1).tables == ()
    with pytest.raises(ValueError):
        round_layout(8, mode="tables of seven")


# --- round 1 and determinism ------------------------------------------------------------------------


def test_a_layout_says_what_it_gives_in_words():
    from tournaments.pairing.layout import describe

    assert describe(7) == "7 players: 1 table of 4 and 1 table of 3"
    assert describe(6, mode="byes") == "6 players: 1 table of 4 and 2 byes"
    assert describe(13) == "13 players: 1 table of 4 and 3 tables of 3"
    assert describe(9, table_size=2) == "9 players: 4 tables of 2 and 1 bye"
    assert describe(10, mode="prefer_small") == "10 players: 1 table of 4 and 2 tables of 3"
    assert describe(1) == "1 player: 1 bye"


def test_round_one_is_a_seeded_random_draw_that_anyone_can_regenerate():
    players = [Player(f"p{i}") for i in range(14)]
    first = pair_round(players, [], 1, seed="spring-open")
    assert first.method == "random"
    assert sorted(len(t) for t in first.seats()) == [3, 3, 4, 4]
    assert pair_round(list(reversed(players)), [], 1, seed="spring-open").seats() == first.seats()
    assert pair_round(players, [], 1, seed="autumn-open").seats() != first.seats()
    assert sorted(p for t in first.seats() for p in t) == sorted(p.id for p in players)


def test_same_seed_and_history_give_the_same_tables():
    pairings, history = play_event(20, 3, seed=7)
    players = [Player(i, points=float(i % 5)) for i in range(20)]
    again = [pair_round(players, history, 4, seed=7).seats() for _ in range(2)]
    shuffled = players[:]
    random.Random(1).shuffle(shuffled)
    assert again[0] == again[1] == pair_round(shuffled, history, 4, seed=7).seats()
    # The whole event replays identically too.
    assert [p.seats() for p in play_event(20, 3, seed=7)[0]] == [p.seats() for p in pairings]


# --- rematch avoidance ------------------------------------------------------------------------------

# 12 players at tables of three, round 2 (exact search). Ranked A..L.
TRIOS_ROUND_1 = [PastRound([("H", "I", "F"), ("L", "B", "K"), ("J", "C", "E"), ("G", "D", "A")])]
# 16 players at tables of four, round 3 (local search).
QUADS_HISTORY = [
    PastRound([("K", "G", "M", "F"), ("H", "B", "I", "P"), ("J", "O", "L", "D"), ("N", "A", "C", "E")]),
    PastRound([("D", "H", "P", "N"), ("I", "L", "J", "B"), ("O", "K", "C", "G"), ("F", "A", "E", "M")]),
]


@pytest.mark.parametrize(
    "ids, history, size, method",
    [("ABCDEFGHIJKL", TRIOS_ROUND_1, 3, "exact"), ("ABCDEFGHIJKLMNOP", QUADS_HISTORY, 4, "local")],
)
def test_greedy_makes_avoidable_rematches_that_the_search_avoids(ids, history, size, method):
    players = ranked(list(ids))
    sizes = list(round_layout(len(ids), size).tables)
    assert repeats_of(greedy(list(ids), history, sizes), history) > 0
    round_number = len(history) + 1
    pairing = pair_round(players, history, round_number, seed=3, options=PairingOptions(table_size=size))
    assert pairing.method == method
    assert pairing.repeats == 0 == repeats_of(pairing.seats(), history)
    assert min_repeats_for(players, history, round_number, 3, PairingOptions(table_size=size)) == 0


def test_12_players_at_tables_of_4_meet_at_least_3_repeats_in_round_2_and_the_pairing_reaches_3():
    # Proof of the bound: round 1 left three groups of four who all met. In round 2 each table of four
    # seats four players from only three groups, so two of them come from the same group: at least
    # one repeat per table, three in all.
    players = [Player(i) for i in range(12)]
    round_1 = pair_round(players, [], 1, seed=11)
    history = [PastRound(round_1.seats())]
    for results in range(3):
        scored = [Player(i, points=float(random.Random(results).randint(1, 4))) for i in range(12)]
        assert min_repeats_for(scored, history, 2, 11) == 3
        pairing = pair_round(scored, history, 2, seed=11)
        assert pairing.method == "exact" and pairing.repeats == 3
        # ... and the repeats are spread one per table, each pair meeting for the second time.
        assert [len(t.repeats) for t in pairing.tables] == [1, 1, 1]


@pytest.mark.parametrize("seed", range(4))
def test_12_players_at_tables_of_3_avoid_every_repeat_for_3_rounds(seed):
    pairings, history = play_event(12, 3, seed=seed, options=PairingOptions(table_size=3), results_seed=seed)
    assert [p.repeats for p in pairings] == [0, 0, 0]
    assert max(met_pairs(history).values()) == 1


@pytest.mark.parametrize("results_seed", range(3))
def test_16_players_over_6_rounds_never_get_an_avoidable_repeat(results_seed):
    options = PairingOptions(max_evaluations=200_000)
    pairings, history = play_event(16, 6, seed=1, options=options, results_seed=results_seed)
    assert [p.repeats for p in pairings[:3]] == [0, 0, 0]
    players = [Player(i) for i in range(16)]
    for r, pairing in enumerate(pairings[1:], 2):
        ctx = build_context(players, history[: r - 1], options)
        if pairing.repeats > degree_bound(ctx, [4, 4, 4, 4]):
            assert min_repeats(ctx, [4, 4, 4, 4], upper=pairing.repeats) == pairing.repeats, f"round {r}"
    # By round 6 nobody has 3 players left to meet: the bound is every player's whole table.
    assert degree_bound(build_context(players, history[:5], options), [4, 4, 4, 4]) > 0


def test_larger_events_avoid_rematches_by_local_search():
    pairings, _ = play_event(64, 6, seed=2)
    assert {p.method for p in pairings[1:]} == {"local"}
    assert sum(p.repeats for p in pairings) == 0


# --- fairness and seats -----------------------------------------------------------------------------


@pytest.mark.parametrize("n, layout", [(10, "even"), (13, "even"), (21, "even"), (11, "byes"), (9, "byes")])
def test_nobody_gets_a_second_short_table_or_bye_before_everyone_had_one(n, layout):
    options = PairingOptions(layout=layout, max_evaluations=100_000)
    pairings, _ = play_event(n, 6, seed=5, options=options)
    short, byes = Counter(), Counter()
    for pairing in pairings:
        at_short = [p for t in pairing.seats() if len(t) < 4 for p in t]
        at_full = [p for t in pairing.seats() if len(t) == 4 for p in t]
        if at_short:
            assert max(short[p] for p in at_short) <= min(short[p] for p in at_full)
        if pairing.bye_players():
            seated = at_short + at_full
            assert max(byes[p] for p in pairing.bye_players()) <= min(byes[p] for p in seated)
        short.update(at_short)
        byes.update(pairing.bye_players())
    counts = short if layout == "even" else byes
    assert max(counts[p] for p in range(n)) - min(counts[p] for p in range(n)) <= 1


@pytest.mark.parametrize("n", [10, 13])
def test_repeats_are_the_fewest_the_fairness_rule_allows(n):
    pairings, history = play_event(n, 4, seed=6, options=PairingOptions(max_evaluations=100_000))
    players = [Player(i) for i in range(n)]
    sizes = list(round_layout(n).tables)
    for r, pairing in enumerate(pairings[1:], 2):
        ctx = build_context(players, history[: r - 1], PairingOptions())
        fewest = min_repeats(ctx, sizes, upper=pairing.repeats, fair=True)
        assert pairing.repeats == fewest >= min_repeats(ctx, sizes, upper=fewest), f"round {r}"


def test_byes_go_to_the_lowest_ranked_who_had_none():
    players = ranked(list("ABCDEFGHI"))  # 9 players, byes mode: 2 tables of 4 and 1 bye
    options = PairingOptions(layout="byes")
    history = [PastRound([("A", "B", "C", "D"), ("E", "F", "G", "H")], byes=["I"])]
    pairing = pair_round(players, history, 2, seed=1, options=options)
    assert pairing.bye_players() == ["H"]


def test_the_first_seat_rotates_to_those_who_sat_first_least():
    pairings, _ = play_event(12, 6, seed=3)
    firsts = Counter(p.seats()[i][0] for p in pairings for i in range(3))
    assert max(firsts.values()) <= 2  # 18 first seats over 12 players


# --- tables of two ----------------------------------------------------------------------------------


def test_two_player_matching_avoids_a_rematch_that_the_standings_cut_would_make():
    players = ranked(list("ABCDEFGH"))
    history = [PastRound([("A", "B"), ("C", "D"), ("E", "F"), ("G", "H")])]
    pairing = pair_round(players, history, 2, seed=1, options=PairingOptions(table_size=2))
    assert pairing.method == "matching" and pairing.repeats == 0
    # Closest scores without a rematch: A-C, B-D, E-G, F-H.
    assert sorted(sorted(t) for t in pairing.seats()) == [["A", "C"], ["B", "D"], ["E", "G"], ["F", "H"]]


def test_one_v_one_event_with_an_odd_player_gives_a_fair_bye_and_no_rematches():
    pairings, _ = play_event(9, 5, seed=4, options=PairingOptions(table_size=2))
    assert sum(p.repeats for p in pairings) == 0
    byes = [b for p in pairings for b in p.bye_players()]
    assert len(byes) == 5 and len(set(byes)) == 5


def test_large_one_v_one_rounds_use_the_local_search():
    pairings, _ = play_event(150, 4, seed=4, options=PairingOptions(table_size=2))
    assert pairings[-1].method == "local" and sum(p.repeats for p in pairings) == 0


# --- faction clashes (a per-event draft: each round-1 table drafted from its own pool) ---------------

# Round 1 was A B C D / E F G H; each table drafted eight different factions (one copy each), so a
# faction can be held at both tables. Points favour A, E, B, F: the standings cut (and the best
# spread with the fewest repeats) is A E B F / C G D H, where Aliens, Ninjas, Pirates, Robots, and
# Wizards, Zombies, Dinosaurs, Tricksters are each held twice. A B G H / C D E F has as few repeats
# (4, two per table) and no clash.
CLASH_HISTORY = [PastRound([("A", "B", "C", "D"), ("E", "F", "G", "H")])]
CLASH_FACTIONS = {
    "A": ("Aliens", "Ninjas"), "B": ("Pirates", "Robots"), "C": ("Wizards", "Zombies"),
    "D": ("Dinosaurs", "Tricksters"), "E": ("Aliens", "Pirates"), "F": ("Ninjas", "Robots"),
    "G": ("Wizards", "Dinosaurs"), "H": ("Zombies", "Tricksters"),
}  # fmt: skip
CLASH_POINTS = {"A": 4, "E": 4, "B": 3, "F": 3, "C": 2, "G": 2, "D": 1, "H": 1}


def holders(points=CLASH_POINTS, factions=CLASH_FACTIONS):
    return [Player(p, float(points[p]), factions=factions[p]) for p in points]


def test_without_the_faction_check_the_best_pairing_clashes():
    plain = pair_round(holders(), CLASH_HISTORY, 2, seed=1)
    assert sorted(sorted(t) for t in plain.seats()) == [list("ABEF"), list("CDGH")]
    checked = evaluate(plain.seats(), [], holders(), CLASH_HISTORY, options=PairingOptions(faction_copies=1))
    assert checked.clashes == 8 and plain.clashes == 0  # unseen without faction_copies


def test_the_pairing_avoids_faction_clashes_at_the_same_repeats():
    pairing = pair_round(holders(), CLASH_HISTORY, 2, seed=1, options=PairingOptions(faction_copies=1))
    assert pairing.method == "exact"
    assert sorted(sorted(t) for t in pairing.seats()) == [list("ABGH"), list("CDEF")]
    assert pairing.clashes == 0 and pairing.repeats == 4
    # Two copies per table: sharing one faction is allowed, so the spread decides again.
    two = pair_round(holders(), CLASH_HISTORY, 2, seed=1, options=PairingOptions(faction_copies=2))
    assert sorted(sorted(t) for t in two.seats()) == [list("ABEF"), list("CDGH")] and two.clashes == 0


def test_a_clash_weighs_more_than_a_rematch():
    # 1v1, round 1 A-B and C-D. Every new opponent holds one of your factions; your round-1
    # opponent drafted beside you and holds none: two rematches beat two clashes.
    factions = {"A": ("Aliens", "Ninjas"), "B": ("Pirates", "Robots"), "C": ("Aliens", "Pirates"),
                "D": ("Ninjas", "Robots")}  # fmt: skip
    players = holders({"A": 3, "B": 3, "C": 0, "D": 0}, factions)
    history = [PastRound([("A", "B"), ("C", "D")])]
    options = PairingOptions(table_size=2, faction_copies=1)
    pairing = pair_round(players, history, 2, seed=1, options=options)
    assert pairing.method == "matching"
    assert sorted(sorted(t) for t in pairing.seats()) == [["A", "B"], ["C", "D"]]
    assert pairing.clashes == 0 and pairing.repeats == 2
    assert pair_round(players, history, 2, seed=1, options=PairingOptions(table_size=2)).repeats == 0


def test_fairness_weighs_more_than_a_clash():
    # 1v1 with three players: C had the bye, so C plays now, though both A and B hold one of C's
    # factions; the table says so.
    factions = {"A": ("Aliens", "Pirates"), "B": ("Ninjas", "Robots"), "C": ("Aliens", "Ninjas")}
    players = holders({"A": 1, "B": 1, "C": 1}, factions)
    history = [PastRound([("A", "B")], byes=["C"])]
    pairing = pair_round(players, history, 2, seed=1, options=PairingOptions(table_size=2, faction_copies=1))
    assert pairing.bye_players() != ["C"] and pairing.clashes == 1
    (table,) = pairing.tables
    assert [(f, sorted(h), c) for f, h, c in table.clashes] in (
        [("Aliens", ["A", "C"], 1)],
        [("Ninjas", ["B", "C"], 1)],
    )
    assert any(line.strip().startswith("faction clash:") and "both hold" in line for line in table.lines())
    assert "1 faction clash" in pairing.lines()[0]


def test_a_swap_that_makes_a_clash_warns_and_the_table_explains_it():
    options = PairingOptions(faction_copies=1)
    pairing = evaluate([list("ABGH"), list("CDEF")], [], holders(), CLASH_HISTORY, options=options)
    assert pairing.clashes == 0
    check = check_swap(pairing, "B", "E", holders(), CLASH_HISTORY, options=options)
    # A and E both hold Aliens at table 1; B joins C D F, with F holding Robots too.
    assert "Table 1: A and E both hold Aliens (1 copy per table)" in check.warnings
    assert "Table 2: B and F both hold Robots (1 copy per table)" in check.warnings
    assert check.pairing.clashes == 2 and check.delta >= 2 * options.weights.clash
    assert "faction clash: A and E both hold Aliens (1 copy per table)" in "\n".join(check.after[0].lines())


@pytest.mark.parametrize("seed", range(3))
def test_larger_events_with_a_per_event_draft_avoid_clashes_and_repeats(seed):
    """64 players: after the round-1 draft (each table eight different factions of the 17), the
    standings cut alone clashes every round; the local search leaves no clash and no repeat."""
    rng = random.Random(seed)
    points, held, history = dict.fromkeys(range(64), 0.0), {}, []
    for r in range(1, 5):
        players = [Player(i, points[i], factions=held.get(i, ())) for i in range(64)]
        options = PairingOptions(faction_copies=1)
        pairing = pair_round(players, history, r, seed, options)
        if r == 1:
            for table in pairing.seats():
                pool = rng.sample(sorted(CLASH_POOL), 2 * len(table))
                held.update({p: tuple(pool[2 * k : 2 * k + 2]) for k, p in enumerate(table)})
        else:
            assert pairing.method == "local" and pairing.clashes == 0 and pairing.repeats == 0, r
            blind = pair_round(players, history, r, seed, PairingOptions())
            assert evaluate(blind.seats(), [], players, history, r, seed, options).clashes > 0
        history.append(PastRound(pairing.seats()))
        for table in pairing.seats():
            for pid, pts in table_points({pid: rng.randint(0, 15) for pid in table}).items():
                points[pid] += pts


def test_the_local_searchs_quick_clash_count_matches_a_recount():
    """Grouping.hard_delta counts clashes from per-table faction counts; a recount after each swap agrees."""
    rng = random.Random(4)
    players = [Player(i, factions=tuple(rng.sample(sorted(CLASH_POOL), 2))) for i in range(22)]
    for copies in (1, 2):
        ctx = build_context(players, [], PairingOptions(faction_copies=copies))
        layout = round_layout(22, 4, "byes")
        kinds = group_kinds(layout)
        state = Grouping(ctx, initial_groups(ctx, layout), kinds)
        for _ in range(300):
            x, y = rng.sample(range(22), 2)
            if state.where[x] == state.where[y]:
                continue
            before, delta = state.hard_total(), state.hard_delta(x, y)
            state.swap(x, y)
            recount = Grouping(ctx, state.groups, kinds)
            assert recount.hard_total() == pytest.approx(state.hard_total())
            assert state.hard_total() - before == pytest.approx(delta)


# --- explanations and manual swaps -----------------------------------------------------------------


def test_each_table_explains_its_cost():
    players = ranked(list("ABCDEFGH"))
    history = [PastRound([("A", "B", "C", "D"), ("E", "F", "G", "H")])]
    pairing = pair_round(players, history, 2, seed=1)
    table = pairing.tables[0]
    assert table.number == 1 and len(table.repeats) == 2  # 8 players from two groups: 2 per table
    for a, b, times in table.repeats:
        assert times == 1 and {a, b} <= set(table.players)
    assert table.spread == max(table.points) - min(table.points)
    text = "\n".join(pairing.lines())
    assert "met 1 time before" in text and "spread:" in text and "first seat:" in text


def test_dropped_players_are_not_paired_and_their_history_does_not_matter():
    players = ranked(list("ABCDEFGHI"))
    players[0] = Player("A", 9.0, dropped=True)
    history = [PastRound([("A", "B", "C"), ("D", "E", "F"), ("G", "H", "I")])]
    pairing = pair_round(players, history, 2, seed=1, options=PairingOptions(table_size=4))
    assert sorted(p for t in pairing.seats() for p in t) == list("BCDEFGHI")
    # Two tables of four from groups of 2, 3 and 3 who met: one repeat per table is forced.
    assert pairing.repeats == 2 == min_repeats_for(players, history, 2, 1)
    assert all("A" not in (a, b) for t in pairing.tables for a, b, _ in t.repeats)


def test_a_manual_swap_is_priced_and_warns_about_the_rematch_it_creates():
    players = ranked(list("ABCDEFGH"))
    history = [PastRound([("A", "B"), ("C", "D"), ("E", "F"), ("G", "H")])]
    pairing = evaluate([["A", "C", "E", "G"], ["B", "D", "F", "H"]], [], players, history)
    assert pairing.repeats == 0
    check = check_swap(pairing, "C", "B", players, history)
    assert check.delta > 0
    assert check.pairing.repeats == 2
    assert any("A and B met 1 time before" in w for w in check.warnings)
    assert check.after[0].players == ("A", "B", "E", "G")
    same_table = check_swap(pairing, "A", "C", players, history)
    assert same_table.pairing.repeats == 0 and not any("met" in w for w in same_table.warnings)
    with pytest.raises(ValueError):
        check_swap(pairing, "A", "Z", players, history)
    with pytest.raises(ValueError, match="missing"):
        evaluate([["A", "C", "E", "G"]], [], players, history)


def test_the_pairing_modules_do_not_import_django():
    code = (
        "import sys\n"
        "import tournaments.pairing, tournaments.standings, tournaments.scoring, tournaments.draft\n"
        "import tournaments.topcut, tournaments.pairing.exact, tournaments.pairing.local\n"
        "import tournaments.pairing.grouping, tournaments.pairing.arrays\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'django')\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr


def test_pairings_do_not_depend_on_pythons_string_hashing():
    code = (
        "from tournaments.pairing import PairingOptions, PastRound, Player, pair_round\n"
        "history = []\n"
        "for r in (1, 2, 3, 4):\n"
        "    players = [Player(f'p{i}', points=float((i * r) % 7)) for i in range(22)]\n"
        "    pairing = pair_round(players, history, r, 'hash', PairingOptions(max_evaluations=50_000))\n"
        "    history.append(PastRound(pairing.seats()))\n"
        "print([h.tables for h in history])\n"
    )
    outputs = set()
    for hash_seed in ("1", "2"):
        result = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": hash_seed},
        )
        assert result.returncode == 0, result.stderr
        outputs.add(result.stdout)
    assert len(outputs) == 1


# ---------------------------------------------------------------------------------- bounds -------
def _random_history(n: int, rounds: int, seed: int, size: int = 4) -> list[PastRound]:
    import random as _random

    from tournaments.pairing.layout import round_layout as _layout

    rng = _random.Random(seed)
    history = []
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        layout = _layout(n, size, "even")
        tables, start = [], 0
        for s in layout.tables:
            tables.append(order[start : start + s])
            start += s
        history.append(PastRound(tables, order[start:]))
    return history


@pytest.mark.parametrize("n", [9, 10, 11, 13, 14])
@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_the_pigeonhole_bound_never_exceeds_the_proven_fewest_repeats(n, rounds):
    from tournaments.pairing.bounds import min_repeats, pigeonhole_repeats
    from tournaments.pairing.context import build_context
    from tournaments.pairing.layout import round_layout as _layout

    for seed in range(6):
        history = _random_history(n, rounds, seed)
        ctx = build_context([Player(i) for i in range(n)], history, PairingOptions())
        layout = _layout(n, 4, "even")
        bound = pigeonhole_repeats(ctx, list(layout.tables), layout.byes)
        fewest = min_repeats(ctx, list(layout.tables), layout.byes, fair=True, node_limit=2_000_000)
        assert fewest is not None and bound <= fewest, (seed, bound, fewest)


def test_17_players_after_a_round_of_short_tables_are_forced_into_4_repeats_and_the_pairing_stops_there():
    from tournaments.pairing.bounds import pigeonhole_repeats
    from tournaments.pairing.context import build_context

    # Round 1: two full tables (0-3, 4-7) and three of three (8-10, 11-13, 14-16).
    r1 = PastRound([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10], [11, 12, 13], [14, 15, 16]])
    ctx = build_context([Player(i) for i in range(17)], [r1], PairingOptions())
    assert pigeonhole_repeats(ctx, [4, 4, 3, 3, 3]) == 4
    pairing = pair_round([Player(i, points=i % 4) for i in range(17)], [r1], 2, "s")
    assert pairing.repeats == 4
    # Stopped by the bound: no tabu steps after the repair reached it, or only a few.
    assert pairing.stats["steps"] < 1_000


def test_the_cycle_collector_is_held_off_while_a_round_is_paired_and_then_as_it_was(monkeypatch):
    import gc

    from tournaments.pairing import rounds

    seen, search = [], rounds.local_search

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return search(*args, **kwargs)

    monkeypatch.setattr(rounds, "local_search", watched)
    assert gc.isenabled()
    play_event(30, 2, seed="gc")
    assert seen == [False] and gc.isenabled()

    gc.disable()  # a caller that keeps it off finds it off
    try:
        play_event(30, 2, seed="gc")
        assert not gc.isenabled()
    finally:
        gc.enable()

    monkeypatch.setattr(rounds, "local_search", lambda *a, **k: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        play_event(30, 2, seed="gc")
    assert gc.isenabled()  # back on after a failed round too
