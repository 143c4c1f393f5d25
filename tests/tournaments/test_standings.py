"""Standings and tie-breakers (tournaments.standings) on hand-computed fixtures; no database."""

import pytest

from tournaments.standings import Game, StandingsOptions, compute_standings, draw_key

# Two rounds, six players (a table of 4 and a table of 2, then two tables of 3).
#   R1  A 15, B 12, C 12, D 5  -> A 4, B 2.5, C 2.5, D 1        E 10, F 8 -> E 4, F 1
#   R2  A 9, C 15, E 15        -> C 3.25, E 3.25, A 1           B 15, D 10, F 10 -> B 4, D 1.75, F 1.75
# Totals: A 5, B 6.5, C 5.75, D 2.75, E 7.25, F 2.75
# VP share: A 1 + 9/15, B 12/15 + 1, C 12/15 + 1, D 5/15 + 10/15 = 1, E 1 + 1, F 8/10 + 10/15
# Per-round averages: A 2.5, B 3.25, C 2.875, D 1.375, E 3.625, F 1.375
# SOS: D (A, B, C; B, F) = 13.25 / 5 = 2.65    F (E; B, D) = 8.25 / 3 = 2.75
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
    assert s["A"].vp_share == pytest.approx(1.6)
    assert s["D"].vp_share == pytest.approx(1.0)
    assert s["F"].vp_share == pytest.approx(0.8 + 10 / 15)
    assert s["D"].sos == pytest.approx(2.65)
    assert s["F"].sos == pytest.approx(2.75)
    assert {p: s[p].firsts for p in "ABCDEF"} == {"A": 1, "B": 1, "C": 1, "D": 0, "E": 2, "F": 0}
    assert s["F"].tiebreaks == (pytest.approx(0.8 + 10 / 15), 2.75, 0)


# One round, two tables of four; D drops afterwards.
#   A 20, B 10, C 5, D 0 -> 4, 3, 2, 1        E 25, F 10, G 5, H 0 -> 4, 3, 2, 1
# A and E: 4 points, VP share 1, one first each.
# SOS: A = (B 3 + C 2 + D max(1, floor 2)) / 3 = 7/3;  E = (3 + 2 + 1) / 3 = 2
SOS_GAMES = [Game(1, {"A": 20, "B": 10, "C": 5, "D": 0}), Game(1, {"E": 25, "F": 10, "G": 5, "H": 0})]


def test_a_dropped_opponent_counts_at_least_the_floor_in_strength_of_schedule():
    rows = by_player(compute_standings("ABCDEFGH", SOS_GAMES, dropped={"D"}))
    assert rows["A"].sos == pytest.approx(7 / 3)
    assert rows["E"].sos == pytest.approx(2)
    assert rows["A"].rank == 1 and rows["E"].rank == 2
    assert rows["D"].dropped and rows["D"].points == 1
    without_floor = by_player(
        compute_standings("ABCDEFGH", SOS_GAMES, dropped={"D"}, options=StandingsOptions(sos_floor=0))
    )
    assert without_floor["A"].sos == pytest.approx(2)


def test_the_organizer_chooses_the_order_of_tie_breakers():
    sos_first = compute_standings(
        "ABCDEFGH", SOS_GAMES, dropped={"D"}, options=StandingsOptions(tiebreakers=("sos", "vp"))
    )
    vp_first = compute_standings(
        "ABCDEFGH", SOS_GAMES, dropped={"D"}, options=StandingsOptions(tiebreakers=("vp", "sos"))
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
    other_seed = {
        tuple(r.player for r in compute_standings("ABCD", games, options=StandingsOptions(seed=s)))
        for s in range(20)
    }
    assert len(other_seed) > 1


def test_byes_score_the_average_seat_by_default_and_count_for_sos_rounds():
    games = [Game(1, {"A": 10, "B": 0}), Game(2, {"A": 10, "C": 0})]
    rows = by_player(compute_standings("ABC", games, byes=[(1, "C"), (2, "B")]))
    assert rows["C"].points == 2.5 + 1 and rows["C"].byes == 1 and rows["C"].games == 1
    # A's opponents: B (3.5 over 2 rounds) and C (3.5 over 2 rounds).
    assert rows["A"].sos == pytest.approx(1.75)
    fixed = by_player(
        compute_standings("ABC", games, byes=[(1, "C")], options=StandingsOptions(bye_points=4))
    )
    assert fixed["C"].points == 5


def test_a_game_with_no_vp_gives_no_share_and_a_shared_first_counts_as_a_first():
    rows = by_player(compute_standings("AB", [Game(1, {"A": 0, "B": 0})]))
    assert rows["A"].vp_share == 0 and rows["A"].firsts == 1 and rows["A"].points == 2.5


def test_unknown_player_in_a_game_is_an_error():
    with pytest.raises(ValueError, match="unknown"):
        compute_standings("AB", [Game(1, {"A": 1, "Z": 0})])
