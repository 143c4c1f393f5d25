"""Moving one player to another table, priced as a swap is, and the numbers of tables some players
keep (tournaments.moves); no database."""

import pytest

from tournaments.moves import check_move, number_tables
from tournaments.pairing import PairingOptions, PastRound, Player, evaluate

# Round 2 of ten players at tables of 4 (4 + 3 + 3). In round 1, D sat with E and H.
HISTORY = [PastRound(tables=[["D", "E", "H", "J"], ["A", "F", "I"], ["B", "C", "G"]])]
PLAYERS = [
    Player(p, points=pts) for p, pts in zip("ABCDEFGHIJ", [4, 4, 4, 2.5, 2.5, 2.5, 1, 1, 1, 1], strict=True)
]
TABLES = [["A", "B", "C", "D"], ["E", "F", "G"], ["H", "I", "J"]]


def move(player, to, numbers=None, tables=TABLES):
    return check_move(tables, [], player, to, PLAYERS, HISTORY, 2, "seed", PairingOptions(), numbers=numbers)


def test_a_move_is_priced_against_the_round_as_it_is_and_explained():
    check = move("D", 1)  # D joins E, F, G: D and E met before
    old = evaluate(TABLES, [], PLAYERS, HISTORY, 2, "seed")
    new = evaluate([["A", "B", "C"], ["E", "F", "G", "D"], ["H", "I", "J"]], [], PLAYERS, HISTORY, 2, "seed")
    assert check.delta == pytest.approx(new.cost - old.cost) and check.delta > 0
    assert "Table 2: E and D met 1 time before" in check.warnings
    # A, B and C sat at the short table of round 1: the move gives them another.
    assert "Table 1: A gets a short table again (had 1)" in check.warnings
    assert [list(t.players) for t in check.after] == [["A", "B", "C"], ["E", "F", "G", "D"]]
    assert check.pairing.seats()[1] == ["E", "F", "G", "D"]  # the mover takes the last seat


def test_the_warnings_name_the_tables_as_the_room_numbers_them():
    check = move("D", 1, numbers=[1, 7, 3])
    assert "Table 7: E and D met 1 time before" in check.warnings
    assert [t.number for t in check.after] == [1, 7]


def test_a_move_that_cannot_be_is_refused():
    with pytest.raises(ValueError, match="already sits at table 1"):
        move("A", 0)
    with pytest.raises(ValueError, match="full"):
        move("E", 0)
    with pytest.raises(ValueError, match="no such table"):
        move("E", 5)
    with pytest.raises(ValueError, match="Z has no table"):
        move("Z", 1)
    two = [["A", "B"], ["C", "D", "E"]]
    with pytest.raises(ValueError, match="would keep only 1 player"):
        check_move(two, [], "A", 1, PLAYERS[:5], [], 2, "s", PairingOptions())


def test_a_table_left_two_players_short_is_warned_about():
    tables = [["A", "B", "C"], ["D", "E", "F"], ["G", "H", "I", "J"]]
    check = move("A", 1, tables=tables)
    assert "Table 1: only 2 players left" in check.warnings


def test_kept_tables_keep_their_numbers_and_the_others_fill_in():
    tables = [["A", "B"], ["C", "D"], ["E", "F"], ["G", "H"]]
    numbers, notes = number_tables(tables, {"F": 1})
    assert numbers == [2, 3, 1, 4] and notes == []
    # A number beyond the round's tables stays the player's: the room's table 9 is the accessible one.
    numbers, _ = number_tables(tables, {"C": 9, "H": 2})
    assert numbers == [1, 9, 3, 2]
    # Two players who keep tables and play together: the lower number, and a note.
    numbers, notes = number_tables(tables, {"A": 4, "B": 2})
    assert numbers == [2, 1, 3, 4]
    assert notes == ["B and A keep tables 2 and 4 and play together: they sit at table 2."]
    assert number_tables(tables, {}) == ([1, 2, 3, 4], [])
