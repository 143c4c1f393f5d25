"""The expert bot (smashup/engine/expert.py): legal answers, the budget, a cancelled search that
leaves nothing behind, and the search never reading a card its seat cannot see (issue 25)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

import smashup.cards  # noqa: F401  (fills the registry)
from smashup.botbench import deals
from smashup.botregistry import Budget, Cancelled, expert_available
from smashup.engine import REGISTRY, Decision, Option, Scenario, expert, new_game
from smashup.engine.bots import heuristic_choice
from smashup.engine.forks import is_quiet
from smashup.engine.testing import choose

pytestmark = pytest.mark.skipif(
    not expert_available(), reason="the engine cannot re-deal a game yet (Game.determinize, issue 23)"
)

FACTIONS = sorted(REGISTRY.factions)
FEW = 12  # iterations: enough to grow a tree, few enough for a test


def game_at(mode: str, players: int, turn: int, seed: int = 1):
    """A seeded game played by heuristic bots until `turn` has begun and a seat must choose among
    several answers."""
    config, secret = next(deals(seed, 1, players, mode, FACTIONS))
    game = new_game(config, secret)
    rng = random.Random(seed)
    while game.pending is not None and (game.turn < turn or expert._one_answer(game, game.pending)):
        d = game.pending
        game.apply(d.seat, d.id, heuristic_choice(game, rng))
    assert game.pending is not None
    return game


def hand_limit_game():
    """Seat 0 ends its turn with 12 cards in hand and draws 2: it must discard 4 of 14."""
    s = Scenario([("Aliens", "Ninjas"), ("Pirates", "Robots")], seed=3)
    s.base("The Homeworld")
    s.base("The Central Brain")
    s.hand(0, *(["Invader"] * 4 + ["Collector"] * 3), "Tiger Assassin", "Ninja Acolyte", "Shinobi",
           "Disintegrator", "Scout")  # fmt: skip
    s.deck(0, "Invader", "Collector", "Scout")
    s.hand(1, "Buccaneer", "Microbot Guard")
    s.deck(1, "First Mate", "Zapbot", "Saucy Wench")
    game = s.build()
    choose(game, "end")
    return game


@pytest.mark.parametrize("mode", ["standard", "bigbase"])
@pytest.mark.parametrize("players", [2, 4])
def test_every_answer_is_legal_to_the_end_of_a_game(mode, players):
    """Seat 0 answers every decision with the expert at a small iteration cap (the engine refuses an
    illegal answer, which would fail the test); the others with the heuristic bot."""
    config, secret = next(deals(7, 1, players, mode, FACTIONS))
    game = new_game(config, secret)
    rng = random.Random(2)
    searched = 0
    while game.pending is not None:
        d = game.pending
        if d.seat == 0:
            result = expert.search(game, 0, rng, Budget(iterations=3))
            searched += not result.forced
            ids = result.choice
        else:
            ids = heuristic_choice(game, rng)
        game.apply(d.seat, d.id, ids)
    assert searched > 10


def test_a_decision_with_one_answer_is_answered_at_once_without_a_search(monkeypatch):
    """The engine itself resolves most questions with one answer (one mandatory target); any other
    is answered without re-dealing anything."""
    monkeypatch.setattr(expert, "determinized", lambda *a: pytest.fail("searched a decision with one answer"))
    one = Decision("d1", 0, "confirm", "Go on?", [Option("ok", "OK")])
    every = Decision("d2", 0, "cards", "Choose both", [Option("a", "A"), Option("b", "B")], 2, 2)
    for decision, answer in ((one, ["ok"]), (every, ["a", "b"])):
        game = SimpleNamespace(pending=decision, turn=1)
        result = expert.search(game, 0, random.Random(0), Budget(iterations=100))
        assert result.forced and result.iterations == 0 and result.choice == answer
    several = Decision("d3", 0, "confirm", "Go on?", [Option("ok", "OK")], 0, 1)  # or decline
    assert expert._one_answer(SimpleNamespace(pending=several), several) is None


def test_a_choice_of_several_is_picked_one_at_a_time_and_sent_whole():
    game = hand_limit_game()
    d = game.pending
    assert d.kind == "discard" and d.seat == 0 and d.min_count == d.max_count == 4
    result = expert.search(game, 0, random.Random(1), Budget(iterations=40))
    assert len(result.choice) == 4 and len(set(result.choice)) == 4
    assert result.iterations == 40
    game.apply(0, d.id, result.choice)  # legal
    # The tree's first steps are single options, not whole answers.
    assert all(len(line.ids) <= 1 for line in result.lines)


def test_the_iteration_cap_and_the_lines_of_the_answer():
    game = game_at("standard", 2, 5)
    seat = game.pending.seat
    result = expert.search(game, seat, random.Random(3), Budget(iterations=FEW))
    assert result.iterations == FEW and result.playouts_per_second > 0
    assert sum(line.visits for line in result.lines) == FEW
    assert result.lines[0].ids == result.choice or game.pending.max_count > 1
    assert all(0.0 <= line.reward <= 1.0 for line in result.lines)


def test_a_time_budget_ends_the_search():
    game = game_at("standard", 4, 6)
    result = expert.search(game, game.pending.seat, random.Random(4), Budget(seconds=0.2))
    assert result.iterations >= 1 and result.seconds < 2.0


@pytest.mark.parametrize("after", [0, 5])
def test_a_cancelled_search_leaves_nothing_behind(monkeypatch, after):
    """The decision is answered elsewhere while the bot thinks: `Budget.stop` raises Cancelled,
    which the search lets through, every game it made is closed, and the real game is as it was
    (its digest, record and open decision)."""
    game = game_at("standard", 2, 4)
    seat = game.pending.seat
    before = (game.digest(), game.record(), game.pending.id, game.view(seat))
    made = []
    real = expert.determinized

    def watched(g, s, rng):
        det = real(g, s, rng)
        made.append(det)
        return det

    monkeypatch.setattr(expert, "determinized", watched)
    asked = {"n": 0}

    def cancelled():
        asked["n"] += 1
        return asked["n"] > after

    with pytest.raises(Cancelled):
        expert.search(
            game, seat, random.Random(5), Budget(iterations=1000, cancelled=cancelled, check_every=1)
        )
    assert len(made) == after
    assert all(det.pending is None for det in made)  # closed
    assert (game.digest(), game.record(), game.pending.id, game.view(seat)) == before
    # And the game plays on.
    game.apply(seat, game.pending.id, heuristic_choice(game, random.Random(0)))


def test_a_finished_search_leaves_the_real_game_as_it_was():
    game = game_at("bigbase", 3, 4)
    seat = game.pending.seat
    before = (game.digest(), game.record(), game.view(seat))
    expert.search(game, seat, random.Random(6), Budget(iterations=FEW))
    assert (game.digest(), game.record(), game.view(seat)) == before


# ---------------------------------------------------------------------------- never peeks ----
def hidden_cards(game, seat: int) -> dict:
    """Where each card `seat` cannot see lies: other hands, every deck in order, the base deck."""
    return {
        "hands": [list(p.hand) for p in game.players if p.seat != seat],
        "decks": [list(p.deck) for p in game.players],
        "base_deck": list(game.base_deck),
    }


def quiet_game_at(mode: str, players: int, turn: int, seed: int):
    """`game_at`, moved on to the next quiet point (forks.py: a main decision asked at top level)."""
    game = game_at(mode, players, turn, seed)
    rng = random.Random(seed)
    while not is_quiet(game) or expert._one_answer(game, game.pending) is not None:
        d = game.pending
        game.apply(d.seat, d.id, heuristic_choice(game, rng))
    return game


def twin_games(mode: str, players: int, turn: int, seed: int, follow_up: bool = False):
    """A game and another that looks the same from the deciding seat and differs in its hidden
    cards: the first re-dealt from that seat's view (Game.determinize) at a quiet point. With
    `follow_up`, both then take the same play of that seat, which asks it a question in the middle
    of the card's ability (not a quiet point): the twins are compared there."""
    game = quiet_game_at(mode, players, turn, seed)
    rng = random.Random(seed)
    while follow_up:
        seat = game.pending.seat
        for option in game.pending.options:
            trial = game.fork()
            trial.apply(seat, trial.pending.id, [option.id])
            d = trial.pending
            if d is not None and d.seat == seat and not is_quiet(trial) and not expert._one_answer(trial, d):
                break
        else:
            d = game.pending
            game.apply(d.seat, d.id, heuristic_choice(game, rng))
            while not is_quiet(game):
                d = game.pending
                game.apply(d.seat, d.id, heuristic_choice(game, rng))
            continue
        break
    seat = game.pending.seat
    twin = game.determinize(seat, random.Random(1000 + seed))
    if follow_up:
        for one in (game, twin):
            one.apply(seat, one.pending.id, [option.id])
        assert not is_quiet(game) and game.pending.seat == seat
    assert twin.view(seat) == game.view(seat)
    assert hidden_cards(twin, seat) != hidden_cards(game, seat)
    return game, twin, seat


@pytest.mark.parametrize(
    ("mode", "players", "turn", "seed"),
    [("standard", 2, 3, 11), ("standard", 4, 6, 12), ("bigbase", 2, 4, 13), ("bigbase", 4, 5, 14)],
)
@pytest.mark.parametrize("follow_up", [False, True], ids=["main decision", "inside an ability"])
def test_the_expert_never_peeks(mode, players, turn, seed, follow_up):
    """Two games identical from the bot's seat, differing in the hidden cards, and the same random
    seed: the same answer, and the same search (every line's visits and rewards); at a main
    decision, and at a question inside a card's ability."""
    game, twin, seat = twin_games(mode, players, turn, seed, follow_up)
    one = expert.search(game, seat, random.Random(seed), Budget(iterations=FEW))
    two = expert.search(twin, seat, random.Random(seed), Budget(iterations=FEW))
    assert one.choice == two.choice
    assert [(line.key, line.visits, line.reward) for line in one.lines] == [
        (line.key, line.visits, line.reward) for line in two.lines
    ]



def test_with_no_deal_fitting_its_view_the_expert_still_answers_and_never_deals_in_place(monkeypatch):
    """When no determinization fits the seat's view (away from a quiet point, none found in the
    tries), the search plays no iteration on a game keeping real hidden cards in place (exact
    determinize: NotDealt, never the fallback): it answers with a legal random choice of its own
    decision, the same for twin games."""
    from smashup.engine import determinize as determinizing

    game, twin, seat = twin_games("standard", 2, 3, 11, follow_up=True)
    fell_back = []
    monkeypatch.setattr(determinizing, "_dealt_in_place", lambda *args: fell_back.append(1))
    monkeypatch.setattr(determinizing, "ATTEMPTS", 0)  # no deal fits
    one = expert.search(game, seat, random.Random(3), Budget(iterations=FEW))
    two = expert.search(twin, seat, random.Random(3), Budget(iterations=FEW))
    assert fell_back == [] and one.choice == two.choice
    assert set(one.choice) <= {o.id for o in game.pending.options}
    assert not any(line.visits for line in one.lines)
