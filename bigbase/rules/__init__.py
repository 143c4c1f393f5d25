"""The rules of Big Base mode (pure Python: no Django), a variant of the shared engine.

`new_game({"mode": "bigbase", "board": ..., "players": [...]}, seed)` builds a `BigBaseGame`
(smashup.engine.setup dispatches on the config's mode); `replay` and `build_scenario` do the same.
These modules are compiled with the engine (smashup/engine/native.py).
"""
# The engine first: it installs the compiled build's import finder, which serves these modules too.
import smashup.engine  # noqa: F401, I001

from .board import Board, board_from_dict, board_to_dict, default_board, load_boards
from .game import BigBaseGame
from .scenario import BigBaseScenario, build_scenario

GAME_CLASS = BigBaseGame

__all__ = ["GAME_CLASS", "BigBaseGame", "BigBaseScenario", "Board", "board_from_dict",
           "board_to_dict", "build_scenario", "default_board", "load_boards"]
