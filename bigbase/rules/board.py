"""A Big Base board as plain data: its sides, their slots and slot abilities, the VP table per
scoring period and the side bonus (rules `shared/rules/003_*`, DESIGN.md section 4).

Every number and slot ability is data (`board_from_dict`), so an organizer can edit a board in the
admin and a game stores the board it was played on in its config. The rules code reads a `Board`,
never a printed value. `bigbase/data/boards.yaml` holds the project's default boards.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from smashup.engine.core import ConfigError

SIDE_NAMES = ("North", "East", "South", "West")
# The slot-ability vocabulary (the board file's header describes each effect).
ON_OCCUPATION = "on_occupation"
ONGOING = "ongoing"
OCCUPATION_EFFECTS = ("draw", "loot", "extra_minion", "extra_action", "power_counter", "scry",
                      "move_in")
ONGOING_EFFECTS = ("first_minion_counter",)
# Found from the package, not from this file: compiled (smashup/engine/native.py), this module is
# loaded from the build's folder.
DATA_FILE = Path(str(resources.files("bigbase").joinpath("data", "boards.yaml")))


@dataclass(frozen=True)
class SlotAbility:
    """What a slot does for the player whose cards are in it: `when` ON_OCCUPATION (a card of
    theirs enters it while it is empty) or ONGOING (while they are there); `effect` one word of
    the vocabulary; `args` its numbers as sorted (name, value) pairs ("amount" for a bare number)."""

    when: str
    effect: str
    args: tuple = ()

    def arg(self, name: str, default=None):
        return dict(self.args).get(name, default)

    def words(self) -> str:
        """The ability for people, in our own words."""
        a = dict(self.args)
        text = {
            "draw": lambda: f"draw {_cards(a['amount'])}",
            "loot": lambda: f"draw {_cards(a['draw'])}, then discard {_cards(a['discard'])}",
            "extra_minion": lambda: ("you may play an extra minion of power "
                                     f"{a['max_power']} or less"
                                     + (" here" if a.get("here") else "")),
            "extra_action": lambda: "you may play an extra action",
            "power_counter": lambda: (f"put {a['amount']} +1 power counter"
                                      f"{'s' if a['amount'] != 1 else ''} on one of your minions "
                                      "here"),
            "scry": lambda: (f"look at the top {_cards(a['amount'])} of your deck; put any of "
                             "them on the bottom, the rest back on top"),
            "move_in": lambda: "you may move one of your minions from another side here",
            "first_minion_counter": lambda: ("the first minion you play here each round gets a "
                                             "+1 power counter"),
        }[self.effect]()
        return ("On occupation: " if self.when == ON_OCCUPATION else "Ongoing: ") + text


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


@dataclass(frozen=True)
class Side:
    name: str
    slots: tuple  # SlotAbility or None for each slot


@dataclass(frozen=True)
class Board:
    id: str
    name: str
    rounds_per_period: int
    periods: int
    period_vp: tuple  # ((period, (vp 1st, 2nd, 3rd, 4th)), ...)
    side_bonus_vp: int
    tiebreak_period: int
    sides: tuple  # four Side

    def vp_table(self, period: int) -> tuple:
        return dict(self.period_vp)[period]


def _int(value, what: str, low: int = 0, high: int = 99) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ConfigError(f"board: {what} must be a whole number from {low} to {high}")
    return value


def _ability(data, where: str) -> SlotAbility | None:
    if data in (None, {}):
        return None
    if not isinstance(data, dict) or set(data) != {"ability", "effect"}:
        raise ConfigError(f"board: {where} is an empty slot {{}} or has 'ability' and 'effect'")
    when = data["ability"]
    if when not in (ON_OCCUPATION, ONGOING):
        raise ConfigError(f"board: {where}: ability is {ON_OCCUPATION!r} or {ONGOING!r}, "
                          f"not {when!r}")
    effect = data["effect"]
    if not isinstance(effect, dict) or len(effect) != 1:
        raise ConfigError(f"board: {where}: the effect is one word with its value")
    (name, value), = effect.items()
    allowed = OCCUPATION_EFFECTS if when == ON_OCCUPATION else ONGOING_EFFECTS
    if name not in allowed:
        raise ConfigError(f"board: {where}: {name!r} is not an {when} effect "
                          f"(known: {', '.join(allowed)})")
    w = f"{where} {name}"
    if name in ("draw", "power_counter", "scry"):
        args = {"amount": _int(value, w, 1, 10)}
    elif name == "loot":
        if not isinstance(value, dict) or set(value) != {"draw", "discard"}:
            raise ConfigError(f"board: {w} takes draw and discard")
        args = {"draw": _int(value["draw"], w, 1, 10), "discard": _int(value["discard"], w, 1, 10)}
    elif name == "extra_minion":
        if not isinstance(value, dict) or not set(value) <= {"max_power", "here"} or \
                "max_power" not in value:
            raise ConfigError(f"board: {w} takes max_power and here")
        here = value.get("here", False)
        if not isinstance(here, bool):
            raise ConfigError(f"board: {w}: here is true or false")
        args = {"max_power": _int(value["max_power"], w, 0, 20), "here": here}
    else:  # extra_action, move_in, first_minion_counter
        if value is not True:
            raise ConfigError(f"board: {w} takes true")
        args = {}
    return SlotAbility(when, name, tuple(sorted(args.items())))


def board_from_dict(data) -> Board:
    """Check a board given as plain data (the board file's entries, the admin's JSON) and build
    it. Raises ConfigError naming what is wrong."""
    if not isinstance(data, dict):
        raise ConfigError("board: a board is a mapping")
    known = {"id", "name", "rounds_per_period", "periods", "period_vp", "side_bonus_vp",
             "tiebreak_period", "sides"}
    extra = set(data) - known
    if extra:
        raise ConfigError(f"board: unknown keys {sorted(extra)}")
    missing = known - set(data)
    if missing:
        raise ConfigError(f"board: missing {sorted(missing)}")
    if not isinstance(data["id"], str) or not data["id"]:
        raise ConfigError("board: id is a non-empty text")
    periods = _int(data["periods"], "periods", 1, 10)
    rounds = _int(data["rounds_per_period"], "rounds_per_period", 1, 10)
    table = data["period_vp"]
    if not isinstance(table, dict):
        raise ConfigError("board: period_vp maps each period to four VP values")
    period_vp = {}
    for key, row in table.items():
        period = int(key) if isinstance(key, str) and key.isdigit() else key
        if not isinstance(period, int) or not 1 <= period <= periods:
            raise ConfigError(f"board: period_vp has period {key!r}, not 1 to {periods}")
        if not isinstance(row, list) or len(row) != 4:
            raise ConfigError(f"board: period {period} needs VP for 1st to 4th place")
        period_vp[period] = tuple(_int(v, f"period {period} VP", 0, 99) for v in row)
    if set(period_vp) != set(range(1, periods + 1)):
        raise ConfigError(f"board: period_vp needs every period from 1 to {periods}")
    tiebreak = _int(data["tiebreak_period"], "tiebreak_period", 1, periods)
    sides = data["sides"]
    if not isinstance(sides, list) or len(sides) != 4:
        raise ConfigError("board: a board has four sides")
    built = []
    for i, side in enumerate(sides):
        if not isinstance(side, dict) or side.get("name") != SIDE_NAMES[i]:
            raise ConfigError(f"board: side {i + 1} is {SIDE_NAMES[i]}")
        slots = side.get("slots")
        if not isinstance(slots, list) or len(slots) != 3:
            raise ConfigError(f"board: {SIDE_NAMES[i]} has three slots")
        built.append(Side(SIDE_NAMES[i], tuple(
            _ability(s, f"{SIDE_NAMES[i]} slot {j + 1}") for j, s in enumerate(slots))))
    return Board(data["id"], str(data["name"]), rounds, periods,
                 tuple(sorted(period_vp.items())),
                 _int(data["side_bonus_vp"], "side_bonus_vp", 0, 99), tiebreak, tuple(built))


def board_to_dict(board: Board) -> dict:
    """The plain data of a board (what a game's config stores), the inverse of `board_from_dict`."""
    def slot(ability):
        if ability is None:
            return {}
        args = dict(ability.args)
        if ability.effect in ("draw", "power_counter", "scry"):
            value = args["amount"]
        elif args:
            value = args
        else:
            value = True
        return {"ability": ability.when, "effect": {ability.effect: value}}

    return {
        "id": board.id, "name": board.name, "rounds_per_period": board.rounds_per_period,
        "periods": board.periods,
        "period_vp": {str(p): list(row) for p, row in board.period_vp},
        "side_bonus_vp": board.side_bonus_vp, "tiebreak_period": board.tiebreak_period,
        "sides": [{"name": s.name, "slots": [slot(a) for a in s.slots]} for s in board.sides],
    }


def load_boards(path: Path | str = DATA_FILE) -> dict[str, dict]:
    """The boards of a board file, by id, as checked plain data (`board_to_dict` form)."""
    import yaml

    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    if not isinstance(data, dict) or not isinstance(data.get("boards"), list):
        raise ConfigError(f"{path}: a board file has a list of boards")
    boards = {}
    for entry in data["boards"]:
        board = board_from_dict(entry)
        if board.id in boards:
            raise ConfigError(f"{path}: board {board.id!r} appears twice")
        boards[board.id] = board_to_dict(board)
    return boards


# The default board as plain data, read from the board file once per process (`default_board`).
_DEFAULT_BOARD: dict | None = None


def default_board() -> dict:
    """The project's default board, as plain data (a fresh copy: callers may change it). Read
    from the board file once per process: every Big Base game without a board of its own asks
    for it, and parsing the file took about half of a simulated game's instructions."""
    global _DEFAULT_BOARD
    if _DEFAULT_BOARD is None:
        _DEFAULT_BOARD = load_boards()["default"]
    return copy.deepcopy(_DEFAULT_BOARD)
