"""Every card of the Grannies (What Were We Thinking?), played through the engine.

Each test builds a position with `Scenario`, plays the card with the testing helpers and checks the
exact effect: where each card of the deck went, what was shown to whom, what is offered. The rulings
come from the catalog (smashup/cards/catalog/wwwt.yaml, Grannies) and the WWWT rulebook ("reveal"
shows a card to everyone, "look at" only to you; a "may" is optional, anything else is mandatory).

Bases: Jungle Oasis (breakpoint 12, VP 2/0/0), The Mothership (20) and Factory 436-1337 (25);
none acts when a minion is played. Seat 1 always keeps a card it can play, so that when seat 0's
turn ends the game stops at seat 1's Play Cards decision.
"""
from __future__ import annotations

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import ACTION, MINION, REGISTRY
from smashup.engine.testing import (
    assert_refused,
    card,
    choose,
    decline,
    end_play,
    find_cards,
    labels,
    play,
    record_events,
)

from .deep_scene import deep_game, deep_may_destroy_the_invader
from .quiet_scene import QUIET_BASES, quiet_scene

PLAYERS = [("Grannies", "Dinosaurs"), ("Ninjas", "Aliens")]
# Seat 0 keeps a minion and an action it has not played, so its Play Cards phase waits after a
# card is played (a phase with nothing left to play ends by itself, and its draw would blur the
# deck); `hand_names` leaves them out.
HAND_FILLER = ("Armor Stego", "Howl")
OASIS, SHIP, FACTORY = 0, 1, 2


def scenario(deck=("Howl", "Howl", "Howl", "Howl"), bases=QUIET_BASES):
    return quiet_scene(PLAYERS, bases, deck, hand=HAND_FILLER)


def deck_names(game, seat=0) -> list[str]:
    return [game.name(c) for c in game.players[seat].deck]


def hand_names(game, seat=0) -> list[str]:
    """Seat 0's hand but the fillers (one of each)."""
    names = sorted(game.name(c) for c in game.players[seat].hand)
    for filler in HAND_FILLER:
        if filler in names:
            names.remove(filler)
    return names


def public_log(game) -> list[str]:
    return [t for t, to in game.log_lines if to is None]


def talents(game) -> list[str]:
    return [label for label in labels(game) if "talent" in label]


# ====================================================================== the deck =============


def test_the_grannies_deck_matches_the_catalog():
    expected = {
        "Matriarch": (MINION, 5, 1), "Granny": (MINION, 4, 2), "Nana": (MINION, 3, 3),
        "Grandma": (MINION, 2, 4), "Always Room at Granny's": (ACTION, 0, 1),
        "Attic Treasures": (ACTION, 0, 2), "Chicken Soup": (ACTION, 0, 1),
        "Don't Mess With My Babies!": (ACTION, 0, 1), "Family Reunion": (ACTION, 0, 1),
        "Granny's Purse": (ACTION, 0, 2), "Hush, My Stories are On": (ACTION, 0, 1),
        "Knitting Circle": (ACTION, 0, 1),
    }
    faction = REGISTRY.faction("Grannies")
    assert {c.name: (c.kind, c.power, c.copies) for c in faction.cards} == expected
    deck = faction.deck()
    assert len(deck) == 20 and sum(c.is_minion for c in deck) == 10
    assert all(c.text and c.set == "wwwt" for c in faction.cards)
    assert {c.name for c in faction.cards if c.attach == "base"} == {
        "Don't Mess With My Babies!", "Family Reunion"}


# ====================================================================== Matriarch ============


def test_matriarch_reveals_the_bottom_two_takes_the_minions_and_discards_the_rest():
    s = scenario(deck=["Howl", "Nana", "War Raptor", "Augmentation"])
    s.minion(OASIS, "Matriarch", owner=0)
    s.hand(0, "Howl")
    game = s.build()
    events = record_events(game)
    choose(game, "Matriarch's talent")
    assert hand_names(game) == ["Howl", "War Raptor"]
    assert [game.name(c) for c in game.players[0].discard] == ["Augmentation"]
    assert deck_names(game) == ["Howl", "Nana"]
    assert any("reveals the bottom 2 cards of their deck" in t for t in public_log(game))
    assert {e.kind for e in events if e.kind in ("placed", "discarded")} == {"placed",
                                                                              "discarded"}
    assert talents(game) == []  # once per turn


def test_matriarch_with_two_actions_discards_both_and_with_nothing_offers_no_talent():
    s = scenario(deck=["Nana", "Howl", "Augmentation"])
    s.minion(OASIS, "Matriarch", owner=0)
    s.hand(0, "Howl")
    game = s.build()
    choose(game, "Matriarch's talent")
    assert sorted(game.name(c) for c in game.players[0].discard) == ["Augmentation", "Howl"]
    assert deck_names(game) == ["Nana"]
    empty = scenario(deck=[])
    empty.minion(OASIS, "Matriarch", owner=0)
    empty.hand(0, "Howl")
    assert talents(empty.build()) == []


# ====================================================================== Granny / Grandma =====


def test_granny_looks_at_the_top_card_privately_and_may_put_it_on_the_bottom():
    s = scenario(deck=["Nana", "Howl", "War Raptor"])
    s.minion(OASIS, "Granny", owner=0)
    s.hand(0, "Howl")
    game = s.build()
    choose(game, "Granny's talent")
    # Only the player sees the card: the question names no card, the public log neither.
    assert game.pending.seat == 0 and labels(game) == ["Leave it on top", "Put it on the bottom"]
    assert not any("Nana" in t for t in public_log(game))
    assert ("You see Nana.", (0,)) in game.log_lines
    choose(game, "Put it on the bottom")
    assert deck_names(game) == ["Howl", "War Raptor", "Nana"]
    assert talents(game) == []


def test_granny_may_leave_the_card_on_top_and_two_grannies_each_have_their_talent():
    s = scenario(deck=["Nana", "Howl"])
    s.minion(OASIS, "Granny", owner=0)
    s.minion(SHIP, "Granny", owner=0)
    s.hand(0, "Howl")
    game = s.build()
    assert len(talents(game)) == 2  # different bases: not alike
    choose(game, talents(game)[0])
    choose(game, "Leave it on top")
    assert deck_names(game) == ["Nana", "Howl"]
    assert len(talents(game)) == 1


def test_grandma_looks_at_the_top_card_when_played():
    s = scenario(deck=["Nana", "Howl"])
    s.hand(0, "Grandma")
    game = s.build()
    play(game, "Grandma", base="Jungle Oasis")
    choose(game, "Put it on the bottom")
    assert deck_names(game) == ["Howl", "Nana"]


def test_grandma_with_an_empty_deck_and_discard_pile_asks_nothing():
    s = scenario(deck=[])
    s.hand(0, "Grandma", "Howl")
    game = s.build()
    play(game, "Grandma", base="Jungle Oasis")
    assert game.pending.kind == "play"


# ====================================================================== Nana =================


def test_nana_puts_a_revealed_minion_on_the_bottom():
    s = scenario(deck=["War Raptor", "Howl", "Howl"])
    s.hand(0, "Nana")
    game = s.build()
    play(game, "Nana", base="Jungle Oasis")
    assert deck_names(game) == ["Howl", "Howl", "War Raptor"]
    assert any("reveals the top card of their deck: War Raptor" in t for t in public_log(game))


def test_nana_puts_a_revealed_action_into_the_hand_or_plays_it_at_once():
    s = scenario(deck=["Augmentation", "Howl"])
    s.minion(OASIS, "War Raptor", owner=0)
    s.hand(0, "Nana")
    game = s.build()
    play(game, "Nana", base="Jungle Oasis")
    # "Must": no way to decline; the play is one of the two choices.
    assert game.pending.min_count == 1
    assert labels(game) == ["Put Augmentation into your hand",
                            "Play Augmentation now as an extra action"]
    raptor = card(game, "War Raptor")
    before = game.power(raptor)
    choose(game, "Play Augmentation now")
    choose(game, "War Raptor")
    assert game.power(raptor) == before + 4
    assert game.loc[card(game, "Augmentation")][0] == "discard"
    # The extra action came with it; the turn's own action play is still there.
    assert any(g.free and g.kind == ACTION for g in game.turn_state.grants)


def test_nana_may_put_the_action_into_the_hand():
    s = scenario(deck=["Howl", "Augmentation"])
    s.hand(0, "Nana")
    game = s.build()
    play(game, "Nana", base="Jungle Oasis")
    choose(game, "into your hand")
    assert hand_names(game) == ["Howl"]
    assert deck_names(game) == ["Augmentation"]


def test_nana_with_an_action_that_cannot_be_played_now_puts_it_into_the_hand():
    # Hidden Ninja is played only through its Special: "into your hand" is the one choice left,
    # taken without a question.
    s = scenario(deck=["Hidden Ninja", "Howl"])
    s.hand(0, "Nana")
    game = s.build()
    play(game, "Nana", base="Jungle Oasis")
    assert hand_names(game) == ["Hidden Ninja"] and game.pending.kind == "play"


def test_nana_refuses_a_forged_choice():
    s = scenario(deck=["Augmentation"])
    s.hand(0, "Nana")
    game = s.build()
    play(game, "Nana", base="Jungle Oasis")
    assert_refused(game, ["v9"])
    assert_refused(game, [])  # "must": declining is refused


# ====================================================================== Always Room ==========


def scoring_game(hand=("Always Room at Granny's",), minions=(("Grandma", 0), ("Nana", 0))):
    """Jungle Oasis (12) ready to score in seat 0's turn, seat 0 winning with `minions`."""
    s = scenario(deck=["Howl"] * 4)
    for name, owner in minions:
        s.minion(OASIS, name, owner=owner)
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(OASIS, "Tiger Assassin", owner=1)
    s.hand(0, *hand)
    s.turn(current=0, phase="score")
    return s.build()


def test_always_room_sends_up_to_three_minions_onto_the_deck_in_the_chosen_order():
    game = scoring_game(minions=(("Grandma", 0), ("Nana", 0), ("Granny", 0)))
    assert game.players[0].vp == 2
    choose(game, "Always Room")
    # Only your own minions there are offered; identical copies once.
    assert sorted(labels(game)) == [f"{n} on Jungle Oasis" for n in (
        "Grandma (2, P0)", "Granny (4, P0)", "King Rex (7, P0)", "Nana (3, P0)")]
    assert_refused(game, [f"m{card(game, 'Tiger Assassin')}"])
    choose(game, "Grandma")
    choose(game, "On top")
    choose(game, "Nana")
    choose(game, "On top")
    choose(game, "King Rex")
    choose(game, "On the bottom")
    # Three chosen: no fourth question. Step 7: seat 0 orders the two onto the top.
    assert game.pending.kind == "cards" and sorted(labels(game)) == ["Grandma", "Nana"]
    choose(game, "Nana")
    # Seat 0 then draws two at the end of the turn: Grandma (the top card), then Nana.
    assert [game.name(c) for c in game.players[0].hand[-2:]] == ["Grandma", "Nana"]
    assert deck_names(game)[-1] == "King Rex"
    assert game.loc[card(game, "Granny")][0] == "discard"
    assert game.loc[card(game, "Tiger Assassin")] == ("discard", 1)


def test_always_room_orders_copies_told_apart_in_play_once_onto_the_deck():
    # Issue 24, mechanism 7: two Grandmas, one with a counter, are told apart in play but not on
    # the deck they go onto: the order question offers one "Grandma".
    s = scenario(deck=["Howl"] * 4)
    s.minion(OASIS, "Grandma", owner=0)
    s.minion(OASIS, "Grandma", owner=0, counters=1)
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(OASIS, "Tiger Assassin", owner=1)
    s.hand(0, "Always Room at Granny's")
    s.turn(current=0, phase="score")
    game = s.build()
    choose(game, "Always Room")
    choose(game, "Grandma (2, P0)")
    choose(game, "On top")
    choose(game, "Grandma (3, 1 counter, P0)")
    choose(game, "On top")
    decline(game)
    # Step 7 put both on top without a question (the two read the same there); seat 0's draw at
    # the end of the turn took them.
    assert game.pending.kind == "play" and game.current == 1
    assert hand_names(game) == ["Grandma", "Grandma"]


def test_always_room_may_take_none():
    game = scoring_game()
    choose(game, "Always Room")
    decline(game)
    assert all(game.loc[card(game, n)][0] == "discard" for n in ("Grandma", "Nana"))


def test_always_room_is_not_offered_without_a_minion_of_yours_there():
    s = scenario(deck=["Howl"] * 4)
    s.minion(OASIS, "King Rex", owner=1)
    s.minion(OASIS, "Tiger Assassin", owner=1, counters=1)
    s.minion(SHIP, "Grandma", owner=0)
    s.hand(0, "Always Room at Granny's")
    s.turn(current=0, phase="score")
    game = s.build()
    # Jungle Oasis scored; seat 0 had nothing there, so no window question was asked of it.
    assert game.players[1].vp == 2 and game.pending.kind == "play"
    assert game.loc[card(game, "Always Room at Granny's")] == ("hand", 0)


def test_always_room_cannot_be_played_as_a_normal_action():
    s = scenario()
    s.hand(0, "Always Room at Granny's", "Howl")
    game = s.build()
    assert not any("Always Room" in label for label in labels(game))


# ====================================================================== Attic Treasures ======


def test_attic_treasures_puts_up_to_three_cards_under_the_deck_in_order_then_draws_as_many():
    s = scenario(deck=["Nana", "Granny", "Grandma", "Howl"])
    s.hand(0, "Attic Treasures", "War Raptor", "Augmentation", "King Rex", "Upgrade")
    game = s.build()
    play(game, "Attic Treasures")
    choose(game, "King Rex")
    choose(game, "War Raptor")
    choose(game, "Upgrade")
    assert hand_names(game) == ["Augmentation", "Grandma", "Granny", "Nana"]
    assert deck_names(game) == ["Howl", "King Rex", "War Raptor", "Upgrade"]
    # The table learns how many cards went under the deck, not which.
    assert "P0 puts 3 card(s) from their hand on the bottom of their deck." in public_log(game)
    assert not any("King Rex" in t for t in public_log(game))


def test_attic_treasures_may_stop_early_or_put_nothing():
    s = scenario(deck=["Nana", "Granny"])
    s.hand(0, "Attic Treasures", "War Raptor", "Augmentation")
    game = s.build()
    play(game, "Attic Treasures")
    choose(game, "War Raptor")
    decline(game)
    assert hand_names(game) == ["Augmentation", "Nana"]
    assert deck_names(game) == ["Granny", "War Raptor"]
    s2 = scenario(deck=["Nana"])
    s2.hand(0, "Attic Treasures", "War Raptor")
    game2 = s2.build()
    play(game2, "Attic Treasures")
    decline(game2)
    assert hand_names(game2) == ["War Raptor"] and deck_names(game2) == ["Nana"]


# ====================================================================== Chicken Soup =========


def test_chicken_soup_puts_up_to_two_cards_from_the_discard_pile_on_the_top_or_bottom():
    s = scenario(deck=["Howl", "Howl"])
    s.discard(0, "King Rex", "Nana", "Augmentation")
    s.hand(0, "Chicken Soup")
    game = s.build()
    play(game, "Chicken Soup")
    assert sorted(labels(game)) == ["Augmentation", "King Rex", "Nana"]
    choose(game, "King Rex")
    choose(game, "On top")
    choose(game, "Nana")
    choose(game, "On the bottom")
    assert deck_names(game) == ["King Rex", "Howl", "Howl", "Nana"]
    assert sorted(game.name(c) for c in game.players[0].discard) == ["Augmentation",
                                                                     "Chicken Soup"]


def test_chicken_soup_may_take_nothing():
    s = scenario(deck=["Howl"])
    s.discard(0, "King Rex")
    s.hand(0, "Chicken Soup")
    game = s.build()
    play(game, "Chicken Soup")
    decline(game)
    assert deck_names(game) == ["Howl"]
    assert game.loc[card(game, "King Rex")][0] == "discard"


# ====================================================================== Don't Mess With... ===


def babies_game(attacker_hand):
    s = scenario()
    s.base_action(OASIS, "Don't Mess With My Babies!", 0)
    s.minion(OASIS, "Grandma", owner=0)
    s.minion(SHIP, "Nana", owner=0)
    s.minion(OASIS, "Tiger Assassin", owner=1)
    s.hand(1, *attacker_hand)
    s.turn(current=1)
    return s.build()


def test_dont_mess_keeps_other_players_cards_off_your_minions_there():
    game = babies_game(["Ninja Master"])
    play(game, "Ninja Master", base="Jungle Oasis")
    # Grandma is protected from seat 1's card; seat 1's own minions are still targets.
    assert not any("Grandma" in label for label in labels(game))
    assert "Tiger Assassin (4, P1) on Jungle Oasis" in labels(game)
    assert_refused(game, [f"m{card(game, 'Grandma')}"])
    decline(game)


def test_dont_mess_protects_only_that_base():
    game = babies_game(["Ninja Master"])
    play(game, "Ninja Master", base="The Mothership")
    assert "Nana (3, P0) on The Mothership" in labels(game)


def test_dont_mess_lets_base_abilities_through():
    # Ninja Dojo's "the winner may destroy any minion" is the base's ability, controlled by
    # nobody: the protection does not stop it (catalog: base abilities still affect them).
    s = scenario()
    dojo = s.base("Ninja Dojo")
    s.base_action(OASIS, "Don't Mess With My Babies!", 0)
    s.minion(OASIS, "Grandma", owner=0)
    s.minion(dojo, "King Rex", owner=1, counters=11)
    s.hand(1, "Tiger Assassin")
    s.turn(current=1, phase="score")
    game = s.build()
    assert game.pending.seat == 1 and "Grandma (2, P0) on Jungle Oasis" in labels(game)
    choose(game, "Grandma")
    assert game.loc[card(game, "Grandma")] == ("discard", 0)


def test_dont_mess_lets_your_own_cards_through():
    s = scenario(deck=["Howl"])
    s.base_action(OASIS, "Don't Mess With My Babies!", 0)
    s.minion(OASIS, "Grandma", owner=0)
    s.hand(0, "Augmentation")
    game = s.build()
    play(game, "Augmentation")  # Grandma is the only minion: chosen without a question
    assert game.power(card(game, "Grandma")) == 6


# ====================================================================== Family Reunion =======


def test_family_reunion_takes_a_minion_from_the_bottom_after_you_play_a_minion_there():
    s = scenario(deck=["Howl", "War Raptor"])
    s.base_action(OASIS, "Family Reunion", 0)
    s.hand(0, "King Rex")
    game = s.build()
    play(game, "King Rex", base="Jungle Oasis")
    assert hand_names(game) == ["War Raptor"]
    assert any("reveals the bottom card of their deck: War Raptor" in t for t in public_log(game))


def test_family_reunion_puts_anything_else_on_top():
    s = scenario(deck=["War Raptor", "Howl"])
    s.base_action(OASIS, "Family Reunion", 0)
    s.hand(0, "King Rex")
    game = s.build()
    play(game, "King Rex", base="Jungle Oasis")
    assert deck_names(game) == ["Howl", "War Raptor"]
    assert hand_names(game) == []


def test_family_reunion_ignores_other_bases_and_other_players():
    s = scenario(deck=["Howl", "War Raptor"])
    s.base_action(OASIS, "Family Reunion", 0)
    s.hand(0, "King Rex")
    game = s.build()
    play(game, "King Rex", base="The Mothership")
    assert deck_names(game) == ["Howl", "War Raptor"]
    s = scenario(deck=["Howl", "War Raptor"])
    s.base_action(OASIS, "Family Reunion", 0)
    s.hand(1, "Tiger Assassin")
    s.turn(current=1)
    game = s.build()
    play(game, "Tiger Assassin", base="Jungle Oasis")
    assert deck_names(game) == ["Howl", "War Raptor"]


# ====================================================================== Granny's Purse =======


def test_grannys_purse_puts_a_revealed_action_into_the_hand_then_grants_an_extra_action():
    s = scenario(deck=["Augmentation", "Howl"])
    s.minion(OASIS, "War Raptor", owner=0)
    s.hand(0, "Granny's Purse")
    game = s.build()
    raptor = card(game, "War Raptor")
    before = game.power(raptor)
    play(game, "Granny's Purse")
    assert labels(game) == ["Put Augmentation into your hand", "Leave it on top"]
    choose(game, "into your hand")
    # The extra action is banked in your Play Cards phase: play Augmentation with it.
    play(game, "Augmentation")
    assert game.power(raptor) == before + 4


def test_grannys_purse_may_leave_the_action_on_top_and_sends_a_minion_to_the_bottom():
    s = scenario(deck=["Augmentation", "Howl"])
    s.hand(0, "Granny's Purse")
    game = s.build()
    play(game, "Granny's Purse")
    choose(game, "Leave it on top")
    assert deck_names(game) == ["Augmentation", "Howl"]
    s = scenario(deck=["War Raptor", "Howl"])
    s.hand(0, "Granny's Purse", "Howl")
    game = s.build()
    play(game, "Granny's Purse")
    assert deck_names(game) == ["Howl", "War Raptor"]
    play(game, "Howl")  # the extra action
    assert game.pending.kind == "play"


# ====================================================================== Hush ================


def test_hush_puts_the_bottom_card_into_the_hand_and_may_play_a_minion_at_once():
    s = scenario(deck=["Howl", "King Rex"])
    s.hand(0, "Hush, My Stories are On")
    game = s.build()
    play(game, "Hush, My Stories are On")
    assert game.pending.kind == "extra"
    choose(game, "King Rex on Jungle Oasis")
    assert game.loc[card(game, "King Rex")][0] == "minion"
    assert deck_names(game) == ["Howl"]


def test_hush_may_keep_the_minion_in_hand_and_takes_an_action_whatever_it_is():
    s = scenario(deck=["Howl", "King Rex"])
    s.hand(0, "Hush, My Stories are On")
    game = s.build()
    play(game, "Hush, My Stories are On")
    decline(game)
    assert hand_names(game) == ["King Rex"]
    s = scenario(deck=["King Rex", "Howl"])
    s.hand(0, "Hush, My Stories are On")
    game = s.build()
    play(game, "Hush, My Stories are On")
    assert hand_names(game) == ["Howl"]
    assert any("reveals the bottom card of their deck: Howl" in t for t in public_log(game))


# ====================================================================== Knitting Circle ======


def test_knitting_circle_destroys_up_to_three_actions_anywhere_and_draws_for_each():
    s = scenario(deck=["Nana", "Granny", "Grandma", "Howl"])
    s.base_action(OASIS, "Jammed Signal", 1)
    s.minion(SHIP, "War Raptor", owner=0, attached=[("Poison", 1)])
    s.minion(SHIP, "Tiger Assassin", owner=1, attached=[("Upgrade", 0)])
    s.hand(0, "Knitting Circle")
    game = s.build()
    play(game, "Knitting Circle")
    assert len(labels(game)) == 3
    choose(game, "Jammed Signal")
    choose(game, "Poison")
    decline(game)
    assert sorted(game.name(c) for c in game.players[1].discard) == ["Jammed Signal", "Poison"]
    assert hand_names(game) == ["Granny", "Nana"]
    assert game.loc[card(game, "Upgrade")][0] == "attached"


def test_knitting_circle_with_no_action_in_play_draws_nothing():
    s = scenario(deck=["Nana"])
    s.hand(0, "Knitting Circle", "Howl")
    game = s.build()
    play(game, "Knitting Circle")
    assert hand_names(game) == ["Howl"] and game.pending.kind == "play"


def test_end_of_turn_plays_on():
    s = scenario()
    s.hand(0, "Howl")
    game = s.build()
    end_play(game)
    assert game.pending.seat == 1
    assert find_cards(game, "Howl")


# ====================================================================== by cards / by players =
# Issue 24, mechanism 3: a protection "by cards other players control" does not stop a base's
# ability, even one a player performs (The Deep: "that player may destroy"); one "by other
# players" does. King Rex (7) played on The Deep: seat 0 may destroy seat 1's Invader (3) there.


def test_dont_mess_with_my_babies_does_not_stop_a_base_ability_a_player_performs():
    # The card says it: base abilities still affect them, whoever performs them.
    assert deep_may_destroy_the_invader(deep_game(PLAYERS, base_actions=("Don't Mess With My Babies!",)))
