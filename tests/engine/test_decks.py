"""Drawing from an empty deck (WWWT "Draw 2 Cards", CR Phase 4): the discard pile is shuffled into a
new deck when a draw needs a card; with both empty, nothing is drawn. The same holds for looking at,
revealing and searching a deck (WWWT Phase 4)."""
from __future__ import annotations

import copy

import pytest

from smashup.engine import Ctx, Scenario, invariants, replay
from smashup.engine.testing import assert_refused, card, choose, end_play, play

from .support import ALIENS_NINJAS, PIRATES_ROBOTS, TEST_REGISTRY, seen


def draw_phase(deck=(), discard=(), seed=0, factions0=ALIENS_NINJAS) -> Scenario:
    s = Scenario([factions0, PIRATES_ROBOTS], seed=seed)
    s.base("Ninja Dojo")
    s.base("Temple of Goju")
    s.hand(0, "Invader")
    s.deck(0, *deck)
    s.discard(0, *discard)
    s.hand(1, "Collector")
    s.deck(1, *["Tiger Assassin"] * 4)
    return s


def names(game, cards):
    return sorted(game.name(c) for c in cards)


def test_an_empty_deck_takes_the_shuffled_discard_pile():
    game = draw_phase(discard=["Scout", "Collector", "Shinobi"]).build()
    end_play(game)
    p0 = game.players[0]
    assert len(p0.hand) == 3 and len(p0.deck) == 1 and p0.discard == []
    assert names(game, p0.hand + p0.deck) == ["Collector", "Invader", "Scout", "Shinobi"]
    assert "P0 shuffles their discard pile into a new deck." in [t for t, _ in game.log_lines]


def test_the_deck_is_used_up_before_the_discard_pile_is_shuffled_in():
    game = draw_phase(deck=["Supreme Overlord"], discard=["Scout", "Collector"]).build()
    end_play(game)
    p0 = game.players[0]
    in_hand = names(game, p0.hand)
    assert "Supreme Overlord" in in_hand and len(in_hand) == 3
    assert len(p0.deck) == 1 and p0.discard == []


def test_the_reshuffle_follows_the_seed():
    orders = set()
    for seed in range(8):
        game = draw_phase(discard=["Scout", "Collector", "Shinobi", "Beam Up"], seed=seed).build()
        end_play(game)
        orders.add(tuple(game.name(c) for c in game.players[0].deck))
        again = draw_phase(discard=["Scout", "Collector", "Shinobi", "Beam Up"], seed=seed).build()
        end_play(again)
        assert again.digest() == game.digest()
    assert len(orders) > 1


@pytest.mark.parametrize("from_bottom", [False, True])
def test_the_new_deck_is_the_shuffled_pile_beyond_the_cards_left(from_bottom):
    # `refill_deck` puts the whole pile in at once: exactly where moving its cards one by one
    # put them (under the cards left, or above them when taken from the bottom).
    game = draw_phase(deck=["Supreme Overlord"],
                      discard=["Scout", "Collector", "Shinobi", "Beam Up"]).build()
    p0 = game.players[0]
    left, pile = list(p0.deck), list(p0.discard)
    copy.deepcopy(game.rng).shuffle(pile)
    assert game.refill_deck(0, need=3, from_bottom=from_bottom)
    assert p0.deck == (pile + left if from_bottom else left + pile) and p0.discard == []
    assert {game.loc[c] for c in p0.deck} == {("deck", 0)}
    assert invariants.check(game) == []


def test_with_deck_and_discard_pile_empty_nothing_is_drawn():
    game = draw_phase().build()
    end_play(game)
    p0 = game.players[0]
    assert names(game, p0.hand) == ["Invader"] and p0.deck == [] and p0.discard == []
    assert game.current == 1 and game.pending.seat == 1  # the game goes on
    assert not any("P0 draws" in t for t, _ in game.log_lines)


def test_any_draw_reshuffles_not_only_the_draw_phase():
    s = draw_phase(discard=["Scout", "Shinobi"], factions0=("Testers", "Aliens"))
    s.minion(0, "Bookworm", owner=0)  # talent: draw a card
    game = s.build(TEST_REGISTRY)
    choose(game, "Bookworm's talent")
    p0 = game.players[0]
    assert len(p0.hand) == 2 and len(p0.deck) == 1 and p0.discard == []


# ---------------------------------------------------------------- look, reveal, search (WWWT) ---
# WWWT Phase 4: "If you need to draw, reveal, search for or look at a card and your deck is empty,
# shuffle your discard pile" into a new deck. The test-only Crystal Ball (look), Town Crier
# (reveal) and Treasure Map (search) use the vocabulary later factions will (Ctx.look_at_top,
# Ctx.reveal_top, Ctx.search_deck).
def deck_words(hand, deck=(), discard=(), seed=0) -> Scenario:
    s = Scenario([("Testers", "Aliens"), PIRATES_ROBOTS], seed=seed)
    s.base("Observatory")  # notes every event (tests/engine/support.py)
    s.base("Temple of Goju")
    s.hand(0, *hand, "Invader")  # the Invader keeps seat 0's Play Cards phase open
    s.deck(0, *deck)
    s.discard(0, *discard)
    s.hand(1, "Collector")
    s.deck(1, *["Tiger Assassin"] * 4)
    return s


def lines(game, seat=None) -> list[str]:
    """The log lines `seat` may read (None: public lines only)."""
    return [t for t, to in game.log_lines if to is None or (seat is not None and seat in to)]


def run_now(gen):
    """Run an ability that must finish without asking anything; return its result."""
    try:
        next(gen)
    except StopIteration as stop:
        return stop.value
    raise AssertionError("the ability asked a question")


def test_looking_at_an_empty_deck_shuffles_the_discard_pile_in_first():
    game = deck_words(["Crystal Ball"], discard=["Scout", "Collector", "Shinobi"]).build(TEST_REGISTRY)
    p0 = game.players[0]
    play(game, "Crystal Ball")
    assert p0.discard == [] and len(p0.deck) == 3
    top = p0.deck[:2]
    d = game.pending
    assert (d.seat, d.kind) == (0, "cards")
    assert {o.card for o in d.options} == set(top)
    # A look is for the looker only: the cards are shown to seat 0, named in seat 0's log only.
    assert [c["id"] for c in game.view(0)["pending"]["reveal"]] == top
    assert "reveal" not in game.view(1)["pending"]
    public = lines(game)
    assert public[-2:] == ["P0 shuffles their discard pile into a new deck.",
                           "P0 looks at the top 2 cards of their deck."]
    seen_line = f"You see {game.name(top[0])}, {game.name(top[1])}."
    assert seen_line in lines(game, 0) and seen_line not in lines(game, 1)
    choose(game, top[1])  # "in any order": the second card goes back on top
    assert p0.deck[:2] == [top[1], top[0]]
    assert game.loc[card(game, "Crystal Ball")] == ("discard", 0)
    assert seen(game) == [("action_played", "Crystal Ball")]  # rearranging moves nothing


def test_looking_past_the_last_card_shuffles_the_discard_pile_in_under_it():
    game = deck_words(["Crystal Ball"], deck=["Supreme Overlord"],
                      discard=["Scout"]).build(TEST_REGISTRY)
    play(game, "Crystal Ball")
    p0 = game.players[0]
    assert [game.name(c) for c in p0.deck] == ["Supreme Overlord", "Scout"]
    assert "P0 shuffles their discard pile into a new deck under the 1 card left." in lines(game)
    assert {game.name(o.card) for o in game.pending.options} == {"Supreme Overlord", "Scout"}


def test_a_deck_with_enough_cards_leaves_the_discard_pile_alone():
    game = deck_words(["Crystal Ball"], deck=["Supreme Overlord", "Invader", "Beam Up"],
                      discard=["Scout"]).build(TEST_REGISTRY)
    play(game, "Crystal Ball")
    p0 = game.players[0]
    assert names(game, p0.discard) == ["Scout"] and len(p0.deck) == 3
    assert {game.name(o.card) for o in game.pending.options} == {"Supreme Overlord", "Invader"}
    assert not any("shuffles" in t for t in lines(game))


def test_revealing_from_an_empty_deck_shuffles_the_discard_pile_in_first():
    game = deck_words(["Town Crier"], discard=["Scout"]).build(TEST_REGISTRY)
    scout = card(game, "Scout")
    play(game, "Town Crier")
    # A reveal is for everyone: the public log names the card.
    public = lines(game)
    shuffle = public.index("P0 shuffles their discard pile into a new deck.")
    assert public[shuffle + 1:] == ["P0 reveals the top card of their deck: Scout.",
                                    "Scout goes from P0's deck into their hand (Town Crier)."]
    assert game.loc[scout] == ("hand", 0)  # a minion: placed into the hand
    assert seen(game) == [("placed", "Scout"), ("action_played", "Town Crier")]


def test_searching_an_empty_deck_shuffles_the_discard_pile_in_then_the_deck():
    game = deck_words(["Treasure Map"], discard=["Scout", "Beam Up", "Collector"],
                      seed=3).build(TEST_REGISTRY)
    p0 = game.players[0]
    play(game, "Treasure Map")
    d = game.pending
    assert (d.seat, d.kind, d.min_count, d.max_count) == (0, "cards", 1, 1)
    assert names(game, [o.card for o in d.options]) == ["Collector", "Scout"]  # minions only
    # The searcher sees the whole deck, in an order that says nothing about the deck's.
    assert names(game, [c["id"] for c in game.view(0)["pending"]["reveal"]]) == [
        "Beam Up", "Collector", "Scout"]
    beam_up = card(game, "Beam Up")
    assert_refused(game, [f"c{beam_up}"])  # not a minion: refused, nothing changed
    collector = next(o.card for o in d.options if game.name(o.card) == "Collector")
    choose(game, collector)
    assert game.loc[collector] == ("hand", 0)
    assert names(game, p0.deck) == ["Beam Up", "Scout"]
    public = lines(game)
    search = public.index("P0 searches their deck (Treasure Map).")
    assert public.index("P0 shuffles their discard pile into a new deck.") < search
    # The card found is revealed, then the deck is shuffled.
    assert public[search + 1:] == ["P0 reveals Collector.",
                                   "Collector goes from P0's deck into their hand (Treasure Map).",
                                   "P0 shuffles their deck."]
    assert seen(game) == [("placed", "Collector"), ("action_played", "Treasure Map")]
    again = replay(game.record(), TEST_REGISTRY)
    assert again.digest() == game.digest()


@pytest.mark.parametrize("action", ["Crystal Ball", "Town Crier", "Treasure Map"])
def test_with_deck_and_discard_pile_empty_there_is_nothing_to_look_at(action):
    game = deck_words([action]).build(TEST_REGISTRY)
    play(game, action)
    assert game.pending.kind == "play" and len(game.choices) == 1  # nothing was asked
    assert game.players[0].deck == [] and game.players[0].discard == [card(game, action)]
    assert not any(w in t for t in lines(game) for w in ("shuffles", "looks", "reveals",
                                                          "searches"))


def test_cards_taken_from_the_bottom_put_the_new_deck_above_the_last_one():
    game = deck_words([], deck=["Supreme Overlord"], discard=["Scout", "Beam Up"]).build(
        TEST_REGISTRY)
    ctx = Ctx(game, card(game, "Invader"), 0)
    shown = ctx.reveal_top(0, 2, bottom=True)
    p0 = game.players[0]
    assert game.name(p0.deck[-1]) == "Supreme Overlord" and len(p0.deck) == 3
    assert shown == [p0.deck[-1], p0.deck[-2]]  # from the bottom inwards
    assert "P0 shuffles their discard pile into a new deck above the 1 card left." in lines(game)


@pytest.mark.parametrize("to, zone", [("discard", "discard"), (None, "deck")])
def test_a_search_may_discard_or_leave_the_card_for_the_ability(to, zone):
    game = deck_words([], deck=["Supreme Overlord", "Beam Up", "Scout"]).build(TEST_REGISTRY)
    ctx = Ctx(game, card(game, "Invader"), 0)
    deck_before = list(game.players[0].deck)
    found = run_now(ctx.search_deck("Which?", where=lambda c: game.name(c) == "Scout",
                                    min_count=1, to=to))
    assert [game.name(c) for c in found] == ["Scout"]
    assert game.loc[found[0]] == (zone, 0)
    shuffled = "P0 shuffles their deck." in lines(game)
    assert shuffled == (to is not None)  # left in the deck: the ability shuffles after using it
    if to is None:
        assert game.players[0].deck == deck_before
