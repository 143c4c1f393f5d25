"""Card tests check the engine after every step: every power read from the cache (Game.version)
against one computed afresh, so a state change that forgot `Game.changed()` fails the test that made
it; and after every accepted choice every invariant (every card in exactly one zone, no view shows
a hidden card)."""
import pytest

from smashup.engine import game as game_module
from smashup.engine import powers as powers_module
from smashup.engine.invariants import check


@pytest.fixture(autouse=True)
def verify_power_cache(monkeypatch):
    monkeypatch.setattr(powers_module, "VERIFY_POWERS", True)


@pytest.fixture(autouse=True)
def sound_after_every_choice(monkeypatch):
    def checked(game):
        assert check(game) == []

    monkeypatch.setattr(game_module, "AFTER_APPLY", checked)
