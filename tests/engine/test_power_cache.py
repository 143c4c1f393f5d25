"""Power is computed once per state version (Game.version): every change power can read moves the
version, and a change that does not is caught (the invariants, and `powers.VERIFY_POWERS` in tests)."""
from __future__ import annotations

import pytest

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import EngineError, Scenario, invariants
from smashup.engine import powers as powers_module
from smashup.engine.testing import card, choose, play


def raptors():
    s = Scenario([("Dinosaurs", "Robots"), ("Ninjas", "Aliens")])
    for name in ("Jungle Oasis", "Factory 436-1337", "The Mothership"):
        s.base(name)
    s.minion(0, "War Raptor", owner=0)
    s.minion(0, "War Raptor", owner=1)
    s.minion(1, "War Raptor", owner=0)
    s.hand(0, "War Raptor", "Upgrade")
    return s.build()


def test_a_power_is_read_from_the_cache_until_the_board_changes(monkeypatch):
    monkeypatch.setattr(powers_module, "VERIFY_POWERS", False)  # it would recount to compare
    game = raptors()
    first = card(game, "War Raptor", "minion")
    assert game.power(first) == 4
    calls = []
    real = game._count_base
    game._count_base = lambda slot: calls.append(slot.uid) or real(slot)
    assert game.power(first) == 4
    assert calls == []  # same version: no recount
    play(game, "War Raptor", base="Jungle Oasis")
    assert game.power(first) == 5  # a minion entered play: counted afresh, with its base
    assert calls == [game.base_of(first)]
    assert game.power(card(game, "War Raptor", "minion", 1)) == 5  # counted with it
    assert calls == [game.base_of(first)]


def test_attaching_and_drawing_move_the_version_only_when_the_board_changes():
    game = raptors()
    alone = card(game, "War Raptor", "minion", 2)
    assert game.power(alone) == 3
    before = game.version
    game.draw(0, 1)  # deck to hand: nothing power reads
    assert game.version == before
    play(game, "Upgrade")
    choose(game, game.describe_minion(alone))
    assert game.version > before
    assert game.power(alone) == 5


def test_a_change_that_forgets_changed_is_caught(monkeypatch):
    monkeypatch.setattr(powers_module, "VERIFY_POWERS", False)
    game = raptors()
    first = card(game, "War Raptor", "minion")
    assert game.power(first) == 4
    game.minion_state[first].counters += 2  # bypasses the verbs (and `changed`)
    assert game.power(first) == 4  # stale
    assert any("stale" in v for v in invariants.check(game))
    monkeypatch.setattr(powers_module, "VERIFY_POWERS", True)
    with pytest.raises(EngineError, match="stale"):
        game.power(first)
    game.changed()
    assert game.power(first) == 6
    assert not any("stale" in v for v in invariants.check(game))
