"""tournaments.ratings: OpenSkill (Plackett-Luce) over tables of 2-4 with ties; no database."""

from __future__ import annotations

import pytest

from tournaments import ratings
from tournaments.ratings import NEWCOMER, RatedRound, RatedSeat, Skill


def table(*places):
    """A table of players named by letters, with these places."""
    return [RatedSeat(chr(ord("a") + i), place, ref=i) for i, place in enumerate(places)]


def test_a_newcomer_shows_zero_and_a_winner_rises_above_the_losers():
    assert NEWCOMER.rating == pytest.approx(0.0)
    after = ratings.rate_table(table(1, 2, 3, 4), {})
    order = sorted(after, key=lambda p: -after[p].rating)
    assert order == ["a", "b", "c", "d"]
    assert after["a"].rating > 0 and after["a"].mu > NEWCOMER.mu
    assert after["d"].mu < NEWCOMER.mu
    assert all(s.sigma < NEWCOMER.sigma for s in after.values())  # every result teaches something


def test_a_tie_moves_tied_players_alike_and_a_shared_first_less_than_a_clear_one():
    tied = ratings.rate_table(table(1, 1, 3), {})
    assert tied["a"].mu == pytest.approx(tied["b"].mu)
    clear = ratings.rate_table(table(1, 2, 3), {})
    assert clear["a"].mu > tied["a"].mu > clear["b"].mu
    # The player behind a tie for first is moved as if the tie were not there (openskill's
    # Plackett-Luce moved them exactly as much as the two winners: why the model is Bradley-Terry).
    four = ratings.rate_table(table(1, 1, 3, 4), {})
    assert four["a"].mu == pytest.approx(four["b"].mu)
    assert four["a"].mu > NEWCOMER.mu > four["c"].mu > four["d"].mu
    assert four["c"].mu == pytest.approx(ratings.rate_table(table(1, 2, 3, 4), {})["c"].mu)


def test_tables_of_two_three_and_four_are_rated_and_a_table_of_one_changes_nothing():
    for size in (2, 3, 4):
        assert len(ratings.rate_table(table(*range(1, size + 1)), {})) == size
    assert ratings.rate_table(table(1), {}) == {}
    with pytest.raises(ValueError):
        ratings.rate_table([RatedSeat("a", 1), RatedSeat("a", 2)], {})


def test_beating_a_strong_player_is_worth_more_than_beating_a_newcomer():
    strong = {"b": Skill(35.0, 3.0)}
    upset = ratings.rate_table(table(1, 2), strong)
    expected = ratings.rate_table(table(1, 2), {})
    assert upset["a"].mu - NEWCOMER.mu > expected["a"].mu - NEWCOMER.mu


def test_rounds_are_rated_in_key_order_whatever_order_they_come_in_and_the_same_input_gives_the_same_output():
    r1 = RatedRound((1,), [table(1, 2, 3, 4)])
    r2 = RatedRound((2,), [[RatedSeat("a", 2), RatedSeat("d", 1)], [RatedSeat("b", 1), RatedSeat("c", 1)]])
    skills, changes = ratings.rate_rounds([r2, r1])
    again, changes_again = ratings.rate_rounds([r1, r2])
    assert skills == again and changes == changes_again
    assert [c.round_key for c in changes] == [(1,)] * 4 + [(2,)] * 4
    # The second round starts from the first round's results, and each change says before and after.
    a_changes = [c for c in changes if c.player == "a"]
    assert a_changes[1].before == a_changes[0].after
    assert skills["a"] == a_changes[1].after


def test_rating_from_a_midpoint_with_the_skills_then_equals_rating_everything():
    rounds = [RatedRound((n,), [table(*(1 + (i + n) % 4 for i in range(4)))]) for n in range(1, 6)]
    full, _ = ratings.rate_rounds(rounds)
    halfway, _ = ratings.rate_rounds(rounds[:2])
    rest, _ = ratings.rate_rounds(rounds[2:], halfway)
    assert rest == full


def test_a_player_at_two_tables_of_one_round_is_refused():
    with pytest.raises(ValueError, match="two tables"):
        ratings.rate_rounds([RatedRound((1,), [table(1, 2), table(1, 2)])])


def test_places_leave_no_shows_out_and_share_equal_vp():
    assert ratings.places_of({"a": 12, "b": 15, "c": 12, "d": 0}, absent={"d"}) == {"a": 2, "b": 1, "c": 2}
    assert ratings.places_of({"a": 0, "b": 0}) == {"a": 1, "b": 1}


def test_the_leaderboard_sorts_by_the_shown_rating():
    board = ratings.leaderboard({"x": Skill(30, 8), "y": Skill(26, 1), "z": Skill(25, 25 / 3)})
    assert [p for p, _ in board] == ["y", "x", "z"]
