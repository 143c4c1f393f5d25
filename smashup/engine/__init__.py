"""The Smash Up rules engine: pure Python, no Django, deterministic from a seed.

The contract (DESIGN.md section 3):

    game = new_game(config, seed)        # runs to the first decision; seed: a secret (rng.py)
    game.pending                         # the open Decision, or None when the game is over
    game.apply(seat, decision_id, ids)   # checks everything first; IllegalChoice changes nothing
    game.view(seat)                      # what that seat may know (None: spectators)
    game.record() / replay(record)       # config, seed, rng version, choices; the same game again

`Scenario` builds a game in any position for tests. Card modules (smashup.cards) declare cards
with `Faction` and `base` and write their abilities with the `Ctx` effect vocabulary.
"""
# A fresh compiled build of the hot modules, if there is one, is loaded in their place (native.py).
from . import native

native.install()

from .core import (  # noqa: E402
    ACTION,
    BASE,
    EXACT_CORNERS,
    MINION,
    ConfigError,
    Decision,
    EngineError,
    Event,
    IllegalChoice,
    Option,
    ReplayMismatch,
    counted,
)

# Game before effects: compiled, effects and plays need Game to exist (the end of game.py).
from .game import Game  # noqa: E402

# isort: split
from .declare import Faction, base  # noqa: E402
from .effects import Ctx  # noqa: E402
from .registry import REGISTRY  # noqa: E402
from .setup import Scenario, build_scenario, find_cards, new_game, replay  # noqa: E402

__all__ = [
    "ACTION", "BASE", "EXACT_CORNERS", "MINION", "ConfigError", "Ctx", "Decision", "EngineError", "Event",
    "Faction", "Game", "IllegalChoice", "Option", "REGISTRY", "ReplayMismatch", "Scenario",
    "base", "build_scenario", "counted", "find_cards", "new_game", "replay",
]
