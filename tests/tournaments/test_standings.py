"""Standings and tie-breakers (tournaments.standings) on hand-computed fixtures; no database."""

from dataclasses import FrozenInstanceError, fields

import pytest

from tournaments.standings import Game, Standing, StandingsOptions, compute_standings, draw_key

# Two rounds, six players (a table of 4 and a table of 2, then two tables of 3).
#   R1  A 15, B 12, C 12, D 5  -> A 4, B 2.5, C 2.5, D 1        E 10, F 8 -> E 4, F 1
#   R2  A 9, C 15, E 15        -> C 3.25, E 3.25, A 1           B 15, D 10, F 10 -> B 4, D 1.75, F 1.75
# Totals: A 5, B 6.5, C 5.75, D 2.75, E 7.25, F 2.75
# VP share (per game): A (1 + 9/15)/2, B (12/15 + 1)/2, C (12/15 + 1)/2, D (5/15 + 10/15)/2 = 0.5,
#   E (1 + 1)/2, F (8/10 + 10/15)/2
# Per-round averages: A 2.5, B 3.25, C 2.875, D 1.375, E 3.625, F 1.375; in SoS each counts at least
#   the floor 2: D and F count 2.
# SOS: D (A, B, C; B, F) = (2.5 + 3.25 + 2.875 + 3.25 + 2) / 5 = 2.775
#      F (E; B, D) = (3.625 + 3.25 + 2) / 3 = 8.875 / 3
GAMES = [
    Game(1, {"A": 15, "B": 12, "C": 12, "D": 5}),
    Game(1, {"E": 10, "F": 8}),
    Game(2, {"A": 9, "C": 15, "E": 15}),
    Game(2, {"B": 15, "D": 10, "F": 10}),
]


def by_player(rows):
    return {r.player: r for r in rows}


def test_totals_and_tie_breakers_match_the_hand_computation():
    rows = compute_standings("ABCDEF", GAMES)
    assert [r.player for r in rows] == ["E", "B", "C", "A", "F", "D"]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]
    s = by_player(rows)
    assert {p: s[p].points for p in "ABCDEF"} == {
        "A": 5,
        "B": 6.5,
        "C": 5.75,
        "D": 2.75,
        "E": 7.25,
        "F": 2.75,
    }
    assert s["A"].vp_share == pytest.approx(0.8)
    assert s["D"].vp_share == pytest.approx(0.5)
    assert s["F"].vp_share == pytest.approx((0.8 + 10 / 15) / 2)
    assert s["D"].sos == pytest.approx(2.775)
    assert s["F"].sos == pytest.approx(8.875 / 3)
    assert {p: s[p].firsts for p in "ABCDEF"} == {"A": 1, "B": 1, "C": 1, "D": 0, "E": 2, "F": 0}
    assert s["F"].tiebreaks == (pytest.approx((0.8 + 10 / 15) / 2), pytest.approx(8.875 / 3), 0)
    assert not any(r.draw_decided for r in rows)


# The issue's example. Round 1, tables of three (normalised: 4 / 2.5 / 1):
#   P 20, Q 10, W 0        R 20, S 10, X 0        X drops, W stays.
# P and R have the same points, VP share and firsts; their SoS must not differ because X left:
# every opponent counts at least the floor of 2, so both are (2.5 + 2) / 2 = 2.25.
ISSUE_GAMES = [Game(1, {"P": 20, "Q": 10, "W": 0}), Game(1, {"R": 20, "S": 10, "X": 0})]


def test_strength_of_schedule_floors_every_opponent_alike_dropped_or_not():
    rows = by_player(compute_standings("PQWRSX", ISSUE_GAMES, dropped={"X"}))
    assert rows["P"].sos == rows["R"].sos == pytest.approx(2.25)
    # Only the seeded draw separates them, and the rows say so.
    assert {rows["P"].rank, rows["R"].rank} == {1, 2}
    assert rows["P"].draw_decided and rows["R"].draw_decided
    assert not rows["Q"].draw_decided or rows["S"].draw_decided  # Q and S tie exactly too
    stays = by_player(compute_standings("PQWRSX", ISSUE_GAMES))
    assert stays["P"].sos == stays["R"].sos  # whether X drops changes nothing
    without_floor = by_player(
        compute_standings("PQWRSX", ISSUE_GAMES, dropped={"X"}, options=StandingsOptions(sos_floor=0))
    )
    assert without_floor["P"].sos == without_floor["R"].sos == pytest.approx(1.75)


# A table of four and a table of three:
#   A 20, B 10, C 5, D 0 -> 4, 3, 2, 1        E 25, F 10, G 0 -> 4, 2.5, 1
# SoS: A (3 + 2 + floor 2) / 3 = 7/3;  E (2.5 + floor 2) / 2 = 2.25.  VP per game: A 20, E 25.
SOS_GAMES = [Game(1, {"A": 20, "B": 10, "C": 5, "D": 0}), Game(1, {"E": 25, "F": 10, "G": 0})]


def test_the_organizer_chooses_the_order_of_tie_breakers():
    sos_first = compute_standings(
        "ABCDEFG", SOS_GAMES, dropped={"D"}, options=StandingsOptions(tiebreakers=("sos", "vp"))
    )
    vp_first = compute_standings(
        "ABCDEFG", SOS_GAMES, dropped={"D"}, options=StandingsOptions(tiebreakers=("vp", "sos"))
    )
    assert [r.player for r in sos_first[:2]] == ["A", "E"]
    assert [r.player for r in vp_first[:2]] == ["E", "A"]
    with pytest.raises(ValueError):
        compute_standings("AB", [], options=StandingsOptions(tiebreakers=("coin",)))


def test_full_ties_go_to_a_seeded_draw_that_ignores_input_order():
    games = [Game(1, {"A": 5, "B": 5}), Game(1, {"C": 5, "D": 5})]
    opts = StandingsOptions(seed="event-7")
    first = [r.player for r in compute_standings("ABCD", games, options=opts)]
    again = [r.player for r in compute_standings("DCBA", list(reversed(games)), options=opts)]
    assert first == again
    assert first == sorted("ABCD", key=lambda p: -draw_key("event-7", p))
    assert all(r.draw_decided for r in compute_standings("ABCD", games, options=opts))
    other_seed = {
        tuple(r.player for r in compute_standings("ABCD", games, options=StandingsOptions(seed=s)))
        for s in range(20)
    }
    assert len(other_seed) > 1


def test_byes_score_the_average_seat_by_default_and_count_for_sos_rounds():
    games = [Game(1, {"A": 10, "B": 0}), Game(2, {"A": 10, "C": 0})]
    rows = by_player(compute_standings("ABC", games, byes=[(1, "C"), (2, "B")]))
    assert rows["C"].points == 2.5 + 1 and rows["C"].byes == 1 and rows["C"].games == 1
    # A's opponents: B (3.5 over 2 rounds) and C (3.5 over 2 rounds), each raised to the floor 2.
    assert rows["A"].sos == pytest.approx(2.0)
    fixed = by_player(
        compute_standings("ABC", games, byes=[(1, "C")], options=StandingsOptions(bye_points=4))
    )
    assert fixed["C"].points == 5


def test_a_bye_is_neutral_in_the_tie_breakers():
    # X: a bye (2.5) and a win at a table of three (4) = 6.5, VP share 1 in the one game played.
    # Y: a win (4) and a second place (2.5) at tables of three = 6.5, VP share (1 + 10/20) / 2.
    # Summed, Y's two games would beat X's one; per game, X's perfect game ranks first.
    games = [
        Game(1, {"Y": 20, "A": 10, "B": 0}),
        Game(2, {"X": 30, "C": 0, "D": 0}),
        Game(2, {"E": 20, "Y": 10, "F": 0}),
    ]
    rows = compute_standings("XYABCDEF", games, byes=[(1, "X")])
    s = by_player(rows)
    assert s["X"].points == s["Y"].points == 6.5
    assert s["X"].vp_share == pytest.approx(1.0) and s["Y"].vp_share == pytest.approx(0.75)
    assert s["X"].rank < s["Y"].rank
    wins_first = by_player(
        compute_standings(
            "XYABCDEF", games, byes=[(1, "X")], options=StandingsOptions(tiebreakers=("firsts",))
        )
    )
    # X won 1 of 1 game, Y 1 of 2: the bye is not a game lost.
    assert wins_first["X"].tiebreaks == (1.0,) and wins_first["Y"].tiebreaks == (0.5,)
    assert wins_first["X"].rank < wins_first["Y"].rank


def test_a_game_with_no_vp_gives_no_share_and_no_win_while_a_shared_first_counts_as_a_first():
    # Nobody scored: nobody won (issue 27: it counted a win for everyone); the points are shared.
    rows = by_player(compute_standings("ABCD", [Game(1, {"A": 0, "B": 0, "C": 0, "D": 0})]))
    assert all(rows[p].vp_share == 0 and rows[p].firsts == 0 and rows[p].points == 2.5 for p in "ABCD")
    # The only one who came wins, 0 VP or not; two who came and did not score do not.
    rows = by_player(compute_standings("AB", [Game(1, {"A": 0, "B": 0}, frozenset({"B"}))]))
    assert rows["A"].firsts == 1 and rows["A"].points == 4 and rows["B"].firsts == 0
    rows = by_player(compute_standings("ABC", [Game(1, {"A": 0, "B": 0, "C": 0}, frozenset({"C"}))]))
    assert rows["A"].firsts == rows["B"].firsts == 0
    rows = by_player(compute_standings("AB", [Game(1, {"A": 7, "B": 7})]))
    assert rows["A"].firsts == rows["B"].firsts == 1  # a shared first with VP is a win each


def test_unknown_player_in_a_game_is_an_error():
    with pytest.raises(ValueError, match="unknown"):
        compute_standings("AB", [Game(1, {"A": 1, "Z": 0})])
    # The first game with one is named, with every unknown player of it.
    games = [Game(1, {"A": 1, "B": 0}), Game(2, {"A": 1, "Y": 0, "Z": 2}), Game(3, {"Q": 1})]
    with pytest.raises(ValueError, match=r"round 2: unknown players \['Y', 'Z'\]"):
        compute_standings("AB", games)


def test_rows_are_complete_standings():
    """The rows are built without `Standing.__init__` (speed): each must still be the instance the
    constructor makes, every field set, equal to one built by it, frozen."""
    row = compute_standings("ABCDEF", GAMES)[0]
    assert set(vars(row)) == {f.name for f in fields(Standing)}
    assert row == Standing(**vars(row))
    with pytest.raises(FrozenInstanceError):
        row.rank = 2


def test_a_swap_preview_is_told_in_words():
    from tournaments.pairing import PairingOptions, PastRound, Player, check_swap, pair_round
    from tournaments.rules import swap_summary

    players = [Player(p, points=i) for i, p in enumerate("ABCDEFGHIJKL")]
    history = [PastRound([["A", "B", "C"], ["D", "E", "F"], ["G", "H", "I"], ["J", "K", "L"]])]
    options = PairingOptions(table_size=3)
    pairing = pair_round(players, history, 2, "s", options)
    assert pairing.repeats == 0
    first, second = pairing.seats()[:2]
    old = {p: i for i, t in enumerate(history[0].tables) for p in t}
    # Bring a round-1 table-mate of first[0] to its table: a repeat meeting.
    mate = next(p for t in pairing.seats()[1:] for p in t if old[p] == old[first[0]])
    check = check_swap(pairing, first[1], mate, players, history, "s", options)
    (line,) = swap_summary(check)
    assert line.startswith("Overall worse than now:") and "more repeat meeting" in line
    assert "000" not in line
