"""The engine's switches for tests (module globals of game.py, since the compiled Game is a type
that cannot be patched): AFTER_APPLY runs after every accepted choice, never after a refused one;
VERIFY_POWERS catches a power read from a stale cache."""
import pytest

from smashup.engine import EngineError, IllegalChoice, new_game
from smashup.engine import game as game_module
from smashup.engine import powers as powers_module


def _game():
    return new_game({"players": [{"factions": ["Aliens", "Ninjas"]},
                                 {"factions": ["Pirates", "Robots"]}]}, 3)


def test_after_apply_runs_after_each_accepted_choice_only(monkeypatch):
    seen = []
    monkeypatch.setattr(game_module, "AFTER_APPLY", lambda g: seen.append(len(g.choices)))
    game = _game()
    decision = game.pending
    with pytest.raises(IllegalChoice):
        game.apply(decision.seat, decision.id, ["no such option"])
    assert seen == [] and game.choices == []
    game.apply(decision.seat, decision.id, [decision.options[0].id])
    assert seen == [1]


def test_verify_powers_catches_a_change_that_forgot_changed(monkeypatch):
    monkeypatch.setattr(powers_module, "VERIFY_POWERS", True)
    game = _game()
    while not any(s.minions for s in game.bases):
        d = game.pending
        game.apply(d.seat, d.id, [next((o.id for o in d.options if o.id.startswith("m")),
                                       d.options[0].id)])
    minion = next(m for s in game.bases for m in s.minions)
    game.power(minion)  # counted and cached
    game.minion_state[minion].counters += 1  # behind the cache's back: no `changed()`
    with pytest.raises(EngineError, match="stale"):
        game.power(minion)
