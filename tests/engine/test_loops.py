"""The loop guard (CR "Infinite Loops", the "Finite Abilities" resolution): an ongoing ability reacts
at most `reactions.TRIGGER_LIMIT` times in one chain of events, so a chain of triggers that would repeat
without end is cut and the game reaches its next decision.

Ping and Pong (test-only bases, tests/engine/support.py) each move a minion that arrives there to
the other one, forever unless cut.
"""
from __future__ import annotations

import signal

import pytest

from smashup.engine import Scenario
from smashup.engine import reactions as reactions_module
from smashup.engine.testing import card, choose, play

from .support import ALIENS_NINJAS, PIRATES_ROBOTS, TEST_REGISTRY


@pytest.fixture
def deadline():
    """Fail instead of hanging if the guard ever stops working."""
    def expired(signum, frame):
        raise AssertionError("the chain of triggers did not stop")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def ping_pong(*hand) -> Scenario:
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    s.base("Ping")
    s.base("Pong")
    s.base("Temple of Goju")
    s.minion(2, "Scout", owner=1)
    s.hand(0, *hand)
    s.hand(1, "Collector")
    for seat in range(2):
        s.deck(seat, *["Tiger Assassin"] * 4)
    return s


def moves(game) -> list[str]:
    return [t for t, _ in game.log_lines if t.startswith("Scout moves")]


def test_a_chain_of_triggers_that_would_never_end_is_cut(deadline):
    game = ping_pong("Invasion", "Invader").build(TEST_REGISTRY)
    limit = reactions_module.TRIGGER_LIMIT
    play(game, "Invasion")  # the Scout is the only minion
    choose(game, "Ping")
    # Invasion moves it once; then Ping and Pong each move it `limit` times; Ping's next reaction
    # is refused, so the Scout rests on Ping.
    assert len(moves(game)) == 1 + 2 * limit
    stops = [t for t, _ in game.log_lines if "stops" in t]
    assert stops == [f"Ping has reacted {limit} times in a row and stops."]
    assert game.base_of(card(game, "Scout")) == game.bases[0].uid
    # The game goes on: the rest of seat 0's Play Cards phase.
    d = game.pending
    assert (d.seat, d.kind, game.phase) == (0, "play", "play")


def test_the_limit_holds_for_a_lower_limit_too(deadline, monkeypatch):
    monkeypatch.setattr(reactions_module, "TRIGGER_LIMIT", 3)
    game = ping_pong("Invasion", "Invader").build(TEST_REGISTRY)
    play(game, "Invasion")
    choose(game, "Ping")
    assert len(moves(game)) == 7


def test_each_new_chain_starts_counting_again(deadline, monkeypatch):
    monkeypatch.setattr(reactions_module, "TRIGGER_LIMIT", 3)
    # Encore (test-only) gives two extra actions: two Invasions are two chains.
    game = ping_pong("Encore", "Invasion", "Invasion", "Invader").build(TEST_REGISTRY)
    play(game, "Encore")
    play(game, "Invasion")
    choose(game, "Ping")
    assert len(moves(game)) == 7
    play(game, "Invasion")  # from Ping, where it rests, to Pong this time
    choose(game, "Pong")
    assert len(moves(game)) == 14
    assert sum("stops" in t for t, _ in game.log_lines) == 2
