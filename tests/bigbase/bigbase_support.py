"""Helpers for the Big Base tests: boards as data and small positions."""
import copy

import smashup.cards  # noqa: F401  (declares the cards)
from bigbase.rules import BigBaseScenario, load_boards

BOARDS = load_boards()


def board(name="default", **changes) -> dict:
    data = copy.deepcopy(BOARDS[name])
    data.update(changes)
    return data


def plain_board(**changes) -> dict:
    """A board without slot abilities, so a test sees only the rule it checks."""
    return board("plain", **changes)


def board_with_slot(side: int, index: int, ability: dict, base="plain") -> dict:
    data = board(base)
    data["sides"][side]["slots"][index] = ability
    return data


def scenario(players=2, base="The Central Brain", next_bases=("Jungle Oasis", "Tar Pits"),
             board_data=None, **kwargs) -> BigBaseScenario:
    pairs = [("Dinosaurs", "Pirates"), ("Robots", "Ninjas"), ("Aliens", "Zombies"),
             ("Wizards", "Tricksters")][:players]
    return BigBaseScenario(pairs, base=base, next_bases=list(next_bases),
                           board=board_data if board_data is not None else plain_board(), **kwargs)


def config(players=2, **extra) -> dict:
    pairs = [["Dinosaurs", "Pirates"], ["Robots", "Ninjas"], ["Aliens", "Zombies"],
             ["Wizards", "Tricksters"]][:players]
    data = {"mode": "bigbase", "players": [{"factions": p} for p in pairs]}
    data.update(extra)
    return data


def side_uid(game, name: str) -> int:
    for slot in game.bases:
        if game.side_name(slot.uid) == name:
            return slot.uid
    raise LookupError(name)
