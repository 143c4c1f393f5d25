"""Card tests check the engine after every step: every power read from the cache (Game.version)
against one computed afresh, so a state change that forgot `Game.changed()` fails the test that made
it; and after every accepted choice every invariant (every card in exactly one zone, no view shows
a hidden card)."""
import pytest

from smashup.engine.game import Game
from smashup.engine.invariants import check


@pytest.fixture(autouse=True)
def verify_power_cache(monkeypatch):
    monkeypatch.setattr(Game, "verify_powers", True)


@pytest.fixture(autouse=True)
def sound_after_every_choice(monkeypatch):
    apply = Game.apply

    def checked(self, seat, decision_id, choice):
        apply(self, seat, decision_id, choice)
        assert check(self) == []

    monkeypatch.setattr(Game, "apply", checked)
