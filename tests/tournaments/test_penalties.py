"""Penalties as inputs of the standings (tournaments.penalties, tournaments.standings); no database.

The fixture is test_standings' six players over two rounds, hand-computed there:
    R1  A 15, B 12, C 12, D 5  -> A 4, B 2.5, C 2.5, D 1        E 10, F 8 -> E 4, F 1
    R2  A 9, C 15, E 15        -> C 3.25, E 3.25, A 1           B 15, D 10, F 10 -> B 4, D 1.75, F 1.75
    Totals: A 5, B 6.5, C 5.75, D 2.75, E 7.25, F 2.75
"""

import pytest

from tournaments.penalties import (
    DISQUALIFICATION,
    GAME_LOSS,
    VP_LOSS,
    WARNING,
    Penalty,
    apply_penalties,
    summary,
)
from tournaments.scoring import FIXED_4321
from tournaments.standings import Game, StandingsOptions, compute_standings

GAMES = [
    Game(1, {"A": 15, "B": 12, "C": 12, "D": 5}),
    Game(1, {"E": 10, "F": 8}),
    Game(2, {"A": 9, "C": 15, "E": 15}),
    Game(2, {"B": 15, "D": 10, "F": 10}),
]


def rows(penalties=(), **options):
    return {r.player: r for r in compute_standings("ABCDEF", GAMES, penalties=penalties, **options)}


def test_a_warning_is_shown_and_changes_no_number():
    before = rows()
    after = rows([Penalty("A", WARNING, 1)])
    assert {p: (r.points, r.rank, r.tiebreaks) for p, r in after.items()} == {
        p: (r.points, r.rank, r.tiebreaks) for p, r in before.items()
    }
    assert after["A"].penalties == (Penalty("A", WARNING, 1),)
    assert summary(after["A"].penalties) == ["1 warning"]


def test_a_vp_loss_scores_the_table_again_by_the_event_scoring():
    # R1: A 15 - 4 = 11 is now below B and C (12 each): B and C share 1st-2nd, A 3rd, D 4th.
    # Normalised at four: B, C (4 + 3) / 2 = 3.5 each, A 2, D 1.
    s = rows([Penalty("A", VP_LOSS, 1, vp=4)])
    assert s["A"].points == 2 + 1  # round 2 unchanged (1 point)
    assert s["B"].points == 3.5 + 4 and s["C"].points == 3.5 + 3.25
    assert s["D"].points == 1 + 1.75
    assert s["A"].vp == 11 + 9  # the VP tie-breaker counts what is left
    assert s["B"].vp_share == pytest.approx((1 + 1) / 2)  # B now has the table's top VP
    assert s["A"].penalties[0].text == "−4 VP in round 1"
    # 4/3/2/1 scoring: the same places, its own points.
    fixed = rows([Penalty("A", VP_LOSS, 1, vp=4)], options=StandingsOptions(preset=FIXED_4321))
    assert fixed["B"].points == 3.5 + 4 and fixed["A"].points == 2 + 2


def test_vp_losses_add_up_and_never_go_below_zero():
    games = apply_penalties(GAMES, [Penalty("D", VP_LOSS, 1, vp=3), Penalty("D", VP_LOSS, 1, vp=9)])
    assert games[0].vp == {"A": 15, "B": 12, "C": 12, "D": 0}
    assert games[1:] == GAMES[1:]  # untouched games are passed on as they are


def test_a_game_loss_makes_that_table_a_loss_for_that_player_only():
    # R2, table of three: C and E had 15 each, A 9. A game loss for C: C scores 0 and places last
    # (below A, who had fewer VP); E wins alone: E 4, A 2.5, C 1.
    s = rows([Penalty("C", GAME_LOSS, 2)])
    assert s["E"].points == 4 + 4 and s["A"].points == 4 + 2.5 and s["C"].points == 2.5 + 1
    assert s["C"].vp == 12  # the game's VP are gone
    assert s["E"].firsts == 2
    assert s["B"].points == 6.5  # other tables: unchanged
    assert summary(s["C"].penalties) == ["game loss in round 2"]


def test_a_game_loss_for_a_round_without_that_players_game_changes_nothing():
    assert rows([Penalty("A", GAME_LOSS, 3)])["A"].points == 5  # no round 3 yet


def test_a_disqualified_player_is_listed_last_and_marked():
    before = rows()
    s = rows([Penalty("E", DISQUALIFICATION, 2)])
    ordered = sorted(s.values(), key=lambda r: r.rank)
    assert ordered[-1].player == "E" and ordered[-1].disqualified
    assert [r.player for r in ordered[:-1]] == ["B", "C", "A", "F", "D"]
    # Their games still count for the others: the same points and tie-breakers.
    assert all(s[p].points == before[p].points and s[p].sos == before[p].sos for p in "ABCDF")
    assert summary(s["E"].penalties) == ["disqualified"]
    assert not any(r.disqualified for r in ordered[:-1])


def test_penalties_are_plain_data_and_checked():
    with pytest.raises(ValueError, match="unknown penalty"):
        Penalty("A", "yellow card")
    with pytest.raises(ValueError, match="names the round"):
        Penalty("A", GAME_LOSS)
    with pytest.raises(ValueError, match="at least 1 VP"):
        Penalty("A", VP_LOSS, 1, vp=0)
    given = [Penalty("A", WARNING), Penalty("A", VP_LOSS, 2, vp=1), Penalty("A", WARNING, 1)]
    assert summary(rows(given)["A"].penalties) == ["−1 VP in round 2", "2 warnings"]
