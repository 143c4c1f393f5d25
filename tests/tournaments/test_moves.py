"""Moving one player to another table, priced as a swap is, and the numbers of tables some players
keep (tournaments.moves); no database."""

import pytest

from tournaments.moves import check_move, number_tables, repair_table
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


# --- a table paired again --------------------------------------------------------------------------
SIXTEEN = [Player(i, points=float(p)) for i, p in enumerate([8, 8, 7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1])]
ROUND_ONE = [PastRound([[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]])]
ROUND_TWO = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]


def test_a_table_paired_again_is_split_with_the_fewest_moves_and_no_new_repeat():
    result = repair_table(ROUND_TWO, [], 1, SIXTEEN, ROUND_ONE, 2, "seed")
    before = set(ROUND_TWO[1])
    # Its four players sit at four tables now; three of them swapped with one player of each other table.
    assert sorted(len(before & set(t)) for t in result.tables) == [1, 1, 1, 1]
    assert len(result.moved) == 6 and result.changed == (0, 1, 2, 3)
    assert result.check.pairing.repeats == 0
    assert sorted(p for t in result.tables for p in t) == list(range(16))
    # The same inputs give the same re-pairing (a preview and the change agree).
    assert repair_table(ROUND_TWO, [], 1, SIXTEEN, ROUND_ONE, 2, "seed").tables == result.tables


def test_only_the_free_tables_change_and_a_table_alone_cannot_be_paired_again():
    result = repair_table(ROUND_TWO, [], 0, SIXTEEN, ROUND_ONE, 2, "seed", free=[0, 3], numbers=[1, 2, 3, 9])
    assert result.tables[1] == ROUND_TWO[1] and result.tables[2] == ROUND_TWO[2]
    assert set(result.changed) == {0, 3}
    assert all(w.startswith(("Table 1:", "Table 9:")) for w in result.check.warnings)
    with pytest.raises(ValueError, match="no other table can change: table 9 alone"):
        repair_table(ROUND_TWO, [], 3, SIXTEEN, ROUND_ONE, 2, "seed", free=[3], numbers=[1, 2, 3, 9])
