"""The board is data: loaded from the board file, checked, and stored plain in a game's config."""
import pytest
from bigbase_support import board

from bigbase.rules import board_from_dict, board_to_dict, default_board, load_boards
from bigbase.rules.board import DATA_FILE
from smashup.engine import ConfigError


def test_the_board_file_holds_the_default_and_the_plain_board():
    boards = load_boards()
    assert set(boards) == {"default", "plain"}
    default = board_from_dict(boards["default"])
    assert [s.name for s in default.sides] == ["North", "East", "South", "West"]
    assert default.vp_table(1) == (4, 3, 2, 1)
    assert default.vp_table(3) == (6, 5, 3, 2)
    assert default.side_bonus_vp == 1 and default.rounds_per_period == 3 and default.periods == 3
    assert default.sides[0].slots[0].effect == "draw"
    assert default.sides[0].slots[0].words() == "On occupation: draw 1 card"
    assert all(a is None for s in board_from_dict(boards["plain"]).sides for a in s.slots)


def test_the_default_board_is_read_once_and_handed_out_as_copies(monkeypatch):
    """A new Big Base game without a board asks for the default one: the file is parsed once per
    process (it was half of a simulated game's work), and each caller gets its own copy."""
    from bigbase.rules import board as board_module

    reads = []
    monkeypatch.setattr(board_module, "_DEFAULT_BOARD", None)
    monkeypatch.setattr(board_module, "load_boards",
                        lambda: (reads.append(1), load_boards())[1])
    first = board_module.default_board()
    first["sides"].clear()  # a caller changing its copy
    second = board_module.default_board()
    assert len(reads) == 1
    assert second == load_boards()["default"] and second["sides"]


def test_the_repository_copy_is_the_shared_board_file():
    # bigbase/data/boards.yaml is the project's copy of shared/bigbase/board.yaml.
    assert DATA_FILE.name == "boards.yaml" and DATA_FILE.exists()
    assert default_board() == load_boards()["default"]


def test_a_board_survives_the_round_trip_through_plain_data():
    for data in load_boards().values():
        assert board_to_dict(board_from_dict(data)) == data


@pytest.mark.parametrize("change, message", [
    ({"periods": 0}, "periods"),
    ({"period_vp": {"1": [4, 3, 2]}}, "1st to 4th"),
    ({"period_vp": {"1": [4, 3, 2, 1]}}, "every period"),
    ({"side_bonus_vp": -1}, "side_bonus_vp"),
    ({"tiebreak_period": 4}, "tiebreak_period"),
    ({"sides": []}, "four sides"),
    ({"colour": "red"}, "unknown keys"),
])
def test_a_bad_board_is_refused_with_a_clear_message(change, message):
    with pytest.raises(ConfigError, match=message):
        board_from_dict(board(**change))


@pytest.mark.parametrize("slot, message", [
    ({"ability": "sometimes", "effect": {"draw": 1}}, "ability is"),
    ({"ability": "on_occupation", "effect": {"teleport": 1}}, "not an on_occupation effect"),
    ({"ability": "ongoing", "effect": {"draw": 1}}, "not an ongoing effect"),
    ({"ability": "on_occupation", "effect": {"draw": 0}}, "from 1 to 10"),
    ({"ability": "on_occupation", "effect": {"loot": {"draw": 2}}}, "draw and discard"),
    ({"ability": "on_occupation"}, "'ability' and 'effect'"),
])
def test_a_bad_slot_ability_is_refused(slot, message):
    data = board()
    data["sides"][1]["slots"][2] = slot
    with pytest.raises(ConfigError, match=message):
        board_from_dict(data)


def test_sides_must_come_in_board_order():
    data = board()
    data["sides"][0]["name"] = "East"
    with pytest.raises(ConfigError, match="side 1 is North"):
        board_from_dict(data)
