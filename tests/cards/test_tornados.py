"""Every card of the Tornados (It's Your Fault!), played through the engine.

Each test builds a position with `Scenario`, plays the card with the testing helpers and checks the
exact effect: where every minion ends up, what is offered and what is refused, scores. The rulings
come from the catalog (smashup/cards/catalog/iyf.yaml, Tornados) and the IYF rulebook's
clarifications (Twister may move itself; a "may" is optional, anything else is mandatory).

Bases: Jungle Oasis (breakpoint 12, 2 VP to the winner), The Mothership (20) and Factory 436-1337
(25); none acts before it scores. Seat 1 always keeps a card it can play, so that when seat 0's turn
ends the game stops at seat 1's Play Cards decision.
"""
from __future__ import annotations

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import ACTION, MINION, REGISTRY
from smashup.engine.testing import (
    assert_refused,
    base_uid,
    card,
    choose,
    decline,
    end_play,
    find_cards,
    labels,
    play,
    record_events,
    where,
)

from .quiet_scene import QUIET_BASES, quiet_scene

PLAYERS = [("Tornados", "Pirates"), ("Ninjas", "Aliens")]
DECK_FILLER = "Swashbuckling"  # seat 0's next draws
OASIS, SHIP, FACTORY = 0, 1, 2


def scenario(bases=QUIET_BASES):
    return quiet_scene(PLAYERS, bases, [DECK_FILLER] * 4)


def talents(game) -> list[str]:
    return [label for label in labels(game) if "talent" in label]


def offered(game) -> list[str]:
    return sorted(game.name(o.card) for o in game.pending.options
                  if o.card is not None and o.alike is None)


def mid(game, name, zone="minion") -> str:
    return f"m{card(game, name, zone)}"


def bid(game, name) -> str:
    return f"b{base_uid(game, name)}"


# ====================================================================== the deck =============


def test_the_tornado_deck_matches_the_catalog():
    expected = {
        "Monster Tornado": (MINION, 5, 1), "Cyclone": (MINION, 4, 2), "Twister": (MINION, 3, 3),
        "Dust Devil": (MINION, 2, 4), "Carried Away": (ACTION, 0, 2),
        "Gone with the Wind": (ACTION, 0, 1), "Not in Kansas": (ACTION, 0, 1),
        "Over the Rainbow": (ACTION, 0, 1),
        "Picked Up": (ACTION, 0, 1), "Ripped Off": (ACTION, 0, 1), "Trade Winds": (ACTION, 0, 2),
        "Whirlwinds": (ACTION, 0, 1),
    }
    faction = REGISTRY.faction("Tornados")
    assert {c.name: (c.kind, c.power, c.copies) for c in faction.cards} == expected
    deck = faction.deck()
    assert len(deck) == 20 and sum(c.is_minion for c in deck) == 10
    assert all(c.text and c.set == "iyf" for c in faction.cards)
    # Catalog note: all of its actions are standard or Special, none stays in play.
    assert not [c.name for c in faction.cards if c.attach]
    assert {c.name for c in faction.cards if c.is_special_only} == {
        "Gone with the Wind", "Over the Rainbow", "Picked Up"}


# ====================================================================== Monster Tornado ======


def tornado_game():
    s = scenario()
    s.minion(OASIS, "Monster Tornado", owner=0)
    s.minion(OASIS, "Invader", owner=1)  # 3
    s.minion(SHIP, "Tiger Assassin", owner=1)  # 4
    s.minion(SHIP, "King Rex", owner=1)  # 7
    s.hand(0, "Swashbuckling", "Dust Devil")
    return s.build()


def test_monster_tornado_pulls_a_minion_of_power_4_or_less_here():
    game = tornado_game()
    choose(game, "Monster Tornado's talent")
    assert offered(game) == ["Invader", "Tiger Assassin"]
    assert_refused(game, [mid(game, "King Rex")])
    choose(game, card(game, "Tiger Assassin"))
    # From another base: it comes here, no question.
    assert where(game, card(game, "Tiger Assassin")) == "Jungle Oasis"
    assert talents(game) == []  # once per turn


def test_monster_tornado_sends_a_minion_from_here_to_another_base():
    game = tornado_game()
    choose(game, "Monster Tornado's talent")
    choose(game, card(game, "Invader"))
    assert labels(game) == ["The Mothership", "Factory 436-1337"]
    assert_refused(game, [bid(game, "Jungle Oasis")])
    choose(game, "Factory 436-1337")
    assert where(game, card(game, "Invader")) == "Factory 436-1337"


def test_monster_tornado_offers_no_talent_without_a_small_enough_minion():
    s = scenario()
    s.minion(OASIS, "Monster Tornado", owner=0)
    s.minion(SHIP, "King Rex", owner=1)
    s.hand(0, "Swashbuckling")
    game = s.build()
    assert talents(game) == []


# ====================================================================== Cyclone ==============


def test_cyclone_moves_itself_once_per_turn():
    s = scenario()
    s.minion(OASIS, "Cyclone", owner=0)
    s.minion(OASIS, "Cyclone", owner=0)
    s.hand(0, "Swashbuckling")
    game = s.build()
    assert talents(game) == ["Use Cyclone's talent"]  # alike copies: one option
    choose(game, "Cyclone's talent")
    assert labels(game) == ["The Mothership", "Factory 436-1337"]
    assert_refused(game, [bid(game, "Jungle Oasis")])
    choose(game, "The Mothership")
    assert sorted(where(game, c) for c in find_cards(game, "Cyclone")) == [
        "Jungle Oasis", "The Mothership"]
    # The one left on the Oasis has its own talent; the one that moved has used its own.
    choose(game, "Cyclone's talent")
    choose(game, "Factory 436-1337")
    assert sorted(where(game, c) for c in find_cards(game, "Cyclone")) == [
        "Factory 436-1337", "The Mothership"]
    assert talents(game) == []


# ====================================================================== Twister ==============


def test_twister_pulls_a_small_minion_here_and_may_move_itself():
    s = scenario()
    s.minion(SHIP, "Invader", owner=1)  # 3
    s.minion(SHIP, "Tiger Assassin", owner=1)  # 4: too strong
    s.hand(0, "Twister", "Swashbuckling")
    game = s.build()
    play(game, "Twister", base="Jungle Oasis")
    # Twister itself (IYF clarification) and the Invader.
    assert offered(game) == ["Invader", "Twister"]
    assert_refused(game, [mid(game, "Tiger Assassin")])
    choose(game, card(game, "Invader"))
    assert where(game, card(game, "Invader")) == "Jungle Oasis"

    game = s.build()
    play(game, "Twister", base="Jungle Oasis")
    choose(game, card(game, "Twister", "minion"))
    choose(game, "Factory 436-1337")
    assert where(game, card(game, "Twister")) == "Factory 436-1337"


def test_twister_may_move_nothing():
    s = scenario()
    s.minion(SHIP, "Invader", owner=1)
    s.hand(0, "Twister", "Swashbuckling")
    game = s.build()
    play(game, "Twister", base="Jungle Oasis")
    decline(game)
    assert where(game, card(game, "Invader")) == "The Mothership"
    assert where(game, card(game, "Twister")) == "Jungle Oasis"


# ====================================================================== Dust Devil ===========


def scoring_game(hand=("Swashbuckling",)):
    """The Oasis is ready to score (King Rex 7 + Invader 3 + Cyclone 4 = 14 of 12) when seat 0
    ends its turn; two Dust Devils wait on the Mothership."""
    s = scenario()
    s.minion(OASIS, "King Rex", owner=1)  # 7
    s.minion(OASIS, "Invader", owner=1)  # 3
    s.minion(OASIS, "Cyclone", owner=0)  # 4
    s.minion(SHIP, "Dust Devil", owner=0)
    s.minion(SHIP, "Dust Devil", owner=0)
    s.minion(SHIP, "Monster Tornado", owner=0)
    s.minion(FACTORY, "Tiger Assassin", owner=1)
    s.hand(0, *hand)
    return s


def test_dust_devils_may_join_another_base_just_before_it_scores():
    game = scoring_game().build()
    end_play(game)
    # Two alike Dust Devils: one option; its controller is then asked.
    assert game.pending.kind == "confirm" and game.pending.seat == 0
    assert game.pending.prompt == "Move Dust Devil to the scoring base?"
    choose(game, "yes")
    choose(game, "yes")
    assert [where(game, c) for c in find_cards(game, "Dust Devil")] == ["discard"] * 2
    # Cyclone 4 + 2 + 2 = 8 against 10: second place, nothing on the Oasis (2, 0, 0).
    assert game.players[1].vp == 2 and game.players[0].vp == 0


def test_a_dust_devil_may_stay_and_does_not_move_on_the_base_it_is_on():
    game = scoring_game().build()
    end_play(game)
    choose(game, "no")
    choose(game, "no")
    assert [where(game, c) for c in find_cards(game, "Dust Devil")] == ["The Mothership"] * 2

    s = scenario()
    s.minion(OASIS, "King Rex", owner=1)
    s.minion(OASIS, "Invader", owner=1)
    s.minion(OASIS, "Dust Devil", owner=0)
    s.hand(0, "Swashbuckling")
    game = s.build()
    end_play(game)
    # Already on the scoring base: no question; it scored there.
    assert game.current == 1 and game.loc[card(game, "Dust Devil")][0] == "discard"


def test_three_dust_devils_on_three_bases_read_differently():
    # Issue 24, mechanism 7: Specials of cards in play that a player can tell apart (here by
    # their bases) never read the same: each option says where its card is.
    s = scenario(bases=("Jungle Oasis", "The Mothership", "Factory 436-1337", "Tar Pits"))
    s.minion(OASIS, "King Rex", owner=1)
    s.minion(OASIS, "Invader", owner=1)
    s.minion(OASIS, "Cyclone", owner=0)  # 14 of 12
    s.minion(SHIP, "Dust Devil", owner=0)
    s.minion(FACTORY, "Dust Devil", owner=0)
    s.minion(3, "Dust Devil", owner=0)
    s.hand(0, "Swashbuckling")
    game = s.build()
    end_play(game)
    assert game.pending.kind == "order"
    assert sorted(labels(game)) == [
        "Move Dust Devil to the scoring base: Dust Devil (2, P0) on Factory 436-1337",
        "Move Dust Devil to the scoring base: Dust Devil (2, P0) on Tar Pits",
        "Move Dust Devil to the scoring base: Dust Devil (2, P0) on The Mothership",
    ]


# ====================================================================== Carried Away =========


def test_carried_away_moves_any_minion_to_another_base():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=1)
    s.minion(SHIP, "Cyclone", owner=0)
    s.hand(0, "Carried Away", "Dust Devil")
    game = s.build()
    play(game, "Carried Away")
    assert offered(game) == ["Cyclone", "King Rex"]
    assert_refused(game, [])  # not a "may"
    choose(game, card(game, "King Rex"))
    assert_refused(game, [bid(game, "Jungle Oasis")])
    choose(game, "Factory 436-1337")
    assert where(game, card(game, "King Rex")) == "Factory 436-1337"
    assert game.loc[card(game, "Carried Away")] == ("discard", 0)


def test_carried_away_with_no_minion_in_play_does_nothing():
    s = scenario()
    s.hand(0, "Carried Away", "Dust Devil")
    game = s.build()
    play(game, "Carried Away")
    assert game.pending.kind == "play" and game.loc[card(game, "Carried Away")] == ("discard", 0)


# ====================================================================== Gone with the Wind ===


def wind_game():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=1)
    s.minion(OASIS, "Cyclone", owner=0)
    s.minion(OASIS, "Dust Devil", owner=0)
    s.hand(0, "Gone with the Wind", "Swashbuckling")
    return s.build()


def test_gone_with_the_wind_saves_one_of_your_minions_from_the_scored_base():
    game = wind_game()
    assert "Play Gone with the Wind" not in " ".join(labels(game))  # a Special only
    events = record_events(game)
    end_play(game)
    assert labels(game) == ["Play Gone with the Wind: move one of your minions away", "Pass"]
    choose(game, "Play Gone with the Wind")
    # Only your minions of the scored base; King Rex is not offered.
    assert offered(game) == ["Cyclone", "Dust Devil"]
    assert_refused(game, [mid(game, "King Rex")])
    choose(game, card(game, "Cyclone"))
    # Never the scored base (the new one is not out yet).
    assert labels(game) == ["The Mothership", "Factory 436-1337"]
    choose(game, "The Mothership")
    assert where(game, card(game, "Cyclone")) == "The Mothership"
    assert game.loc[card(game, "Dust Devil")][0] == "discard"
    assert game.loc[card(game, "Gone with the Wind")] == ("discard", 0)
    assert any(e.kind == "moved" and e.card == card(game, "Cyclone") for e in events)


def test_gone_with_the_wind_may_move_nothing():
    game = wind_game()
    end_play(game)
    choose(game, "Play Gone with the Wind")
    decline(game)
    assert game.loc[card(game, "Cyclone")][0] == "discard"
    assert game.loc[card(game, "Gone with the Wind")] == ("discard", 0)


def test_gone_with_the_wind_is_not_offered_without_a_minion_of_yours_there():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=1)
    s.minion(OASIS, "Invader", owner=1)
    s.minion(SHIP, "Cyclone", owner=0)
    s.hand(0, "Gone with the Wind", "Swashbuckling")
    game = s.build()
    end_play(game)
    assert game.current == 1
    assert game.loc[card(game, "Gone with the Wind")] == ("hand", 0)


# ====================================================================== Not in Kansas ========


def kansas_game(base_deck=("Tar Pits", "Rhodes Plaza Mall"), base_discard=()):
    s = scenario()
    s.data["base_deck"] = list(base_deck)
    s.base_discard(*base_discard)
    s.minion(SHIP, "King Rex", owner=1, attached=[("Poison", 0)])
    s.minion(SHIP, "Cyclone", owner=0)
    s.base_action(SHIP, "Enshrouding Mist", owner=1)
    s.base_action(OASIS, "Enshrouding Mist", owner=1)
    s.hand(0, "Not in Kansas", "Dust Devil")
    return s.build()


def test_not_in_kansas_destroys_a_base_and_its_actions_and_the_top_base_takes_its_place():
    game = kansas_game()
    rex, cyclone, poison = card(game, "King Rex"), card(game, "Cyclone"), card(game, "Poison")
    mist_there, mist_elsewhere = find_cards(game, "Enshrouding Mist")
    if game.base_of(mist_there) != base_uid(game, "The Mothership"):
        mist_there, mist_elsewhere = mist_elsewhere, mist_there
    events = record_events(game)
    play(game, "Not in Kansas")
    assert labels(game) == ["Jungle Oasis", "The Mothership", "Factory 436-1337"]
    assert_refused(game, [])  # not a "may"
    choose(game, "The Mothership")
    assert [game.name(slot.card) for slot in game.bases] == [
        "Jungle Oasis", "Tar Pits", "Factory 436-1337"]
    assert [game.name(b) for b in game.base_discard] == ["The Mothership"]
    # Its minions stay, on the new base; the actions on it and (IYF clarification) on its
    # minions are destroyed; another base's action is not.
    assert where(game, rex) == where(game, cyclone) == "Tar Pits"
    assert game.loc[poison] == ("discard", 0) and game.loc[mist_there] == ("discard", 1)
    assert game.loc[mist_elsewhere][0] == "base_action"
    assert game.power(rex) == 7
    assert {e.card for e in events if e.kind == "destroyed"} == {poison, mist_there}
    assert any(e.kind == "base_entered" for e in events)


def test_not_in_kansas_takes_the_base_discard_pile_when_the_base_deck_is_empty():
    game = kansas_game(base_deck=(), base_discard=("Tar Pits",))
    play(game, "Not in Kansas")
    choose(game, "Jungle Oasis")
    assert [game.name(slot.card) for slot in game.bases] == [
        "Tar Pits", "The Mothership", "Factory 436-1337"]


def test_not_in_kansas_with_no_base_left_anywhere_changes_nothing():
    game = kansas_game(base_deck=())
    play(game, "Not in Kansas")
    choose(game, "The Mothership")
    assert [game.name(slot.card) for slot in game.bases] == [
        "Jungle Oasis", "The Mothership", "Factory 436-1337"]
    assert game.loc[card(game, "Poison")][0] == "attached"


# ====================================================================== Over the Rainbow =====


def test_over_the_rainbow_brings_one_of_your_minions_to_the_scoring_base():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=1)  # 7
    s.minion(OASIS, "Invader", owner=1)  # 3
    s.minion(OASIS, "Twister", owner=0)  # 3
    s.minion(SHIP, "Monster Tornado", owner=0)  # 5
    s.minion(SHIP, "Invader", owner=1)
    s.minion(FACTORY, "Cyclone", owner=0)
    s.hand(0, "Over the Rainbow", "Swashbuckling")
    game = s.build()
    end_play(game)
    choose(game, "Play Over the Rainbow")
    # Yours, from other bases: the Twister already there and the other player's are not offered.
    assert offered(game) == ["Cyclone", "Monster Tornado"]
    assert_refused(game, [mid(game, "Twister")])
    assert_refused(game, [f"m{card(game, 'Invader', 'minion', index=1)}"])
    choose(game, card(game, "Monster Tornado"))
    # 3 + 5 = 8 against 10: still second; the Oasis gives nothing to second.
    assert game.loc[card(game, "Monster Tornado")][0] == "discard"
    assert (game.players[0].vp, game.players[1].vp) == (0, 2)


def test_over_the_rainbow_wins_the_base_and_may_be_kept():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=1)  # 7
    s.minion(OASIS, "Twister", owner=0)  # 3
    s.minion(OASIS, "Dust Devil", owner=0)  # 2
    s.minion(FACTORY, "Monster Tornado", owner=0)  # 5
    s.hand(0, "Over the Rainbow", "Swashbuckling")
    game = s.build()
    end_play(game)
    choose(game, "Pass")
    assert game.loc[card(game, "Over the Rainbow")] == ("hand", 0)
    assert game.players[1].vp == 2

    game = s.build()
    end_play(game)
    choose(game, "Play Over the Rainbow")
    # One minion could go: it went (a mandatory single choice is not asked).
    assert (game.players[0].vp, game.players[1].vp) == (2, 0)


# ====================================================================== Picked Up ============


def test_picked_up_moves_a_minion_off_the_scoring_base():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=1)  # 7
    s.minion(OASIS, "Invader", owner=1)  # 3
    s.minion(OASIS, "Cyclone", owner=0)  # 4
    s.minion(OASIS, "Twister", owner=0)  # 3
    s.minion(SHIP, "Dust Devil", owner=0)
    s.hand(0, "Picked Up", "Swashbuckling")
    game = s.build()
    end_play(game)
    assert game.pending.prompt == "Move Dust Devil to the scoring base?"
    choose(game, "no")
    choose(game, "Play Picked Up")
    # Anyone's, from the scoring base only.
    assert offered(game) == ["Cyclone", "Invader", "King Rex", "Twister"]
    assert_refused(game, [mid(game, "Dust Devil")])
    choose(game, card(game, "King Rex"))
    assert_refused(game, [bid(game, "Jungle Oasis")])
    choose(game, "Factory 436-1337")
    # Rulebook: the base was ready and still scores; 7 against 3, seat 0 wins it.
    assert where(game, card(game, "King Rex")) == "Factory 436-1337"
    assert (game.players[0].vp, game.players[1].vp) == (2, 0)


# ====================================================================== Ripped Off ===========


def test_ripped_off_moves_an_action_on_a_base_to_another_base():
    s = scenario()
    s.base_action(OASIS, "Enshrouding Mist", owner=1)
    s.minion(SHIP, "Cyclone", owner=0, attached=[("Poison", 1)])
    s.hand(0, "Ripped Off", "Dust Devil")
    game = s.build()
    mist = card(game, "Enshrouding Mist")
    play(game, "Ripped Off")
    # The Poison has no other minion to go to: the Mist, the one action that can move, is
    # taken without a question.
    assert labels(game) == ["The Mothership", "Factory 436-1337"]
    assert_refused(game, [bid(game, "Jungle Oasis")])
    choose(game, "The Mothership")
    assert game.loc[mist] == ("base_action", base_uid(game, "The Mothership"))
    assert game.controller(mist) == 1  # it keeps its controller


def test_ripped_off_moves_an_action_on_a_minion_to_another_minion():
    s = scenario()
    s.minion(OASIS, "Cyclone", owner=0, attached=[("Poison", 1)])  # 4 - 4 = 0
    s.minion(SHIP, "Invader", owner=1)
    s.minion(FACTORY, "Dust Devil", owner=0)
    s.base_action(SHIP, "Enshrouding Mist", owner=1)
    s.hand(0, "Ripped Off", "Dust Devil")
    game = s.build()
    poison = card(game, "Poison")
    cyclone, invader = card(game, "Cyclone", "minion"), card(game, "Invader", "minion")
    assert game.power(cyclone) == 0
    play(game, "Ripped Off")
    assert offered(game) == ["Enshrouding Mist", "Poison"]
    choose(game, poison)
    assert offered(game) == ["Dust Devil", "Invader"]
    assert_refused(game, [f"m{cyclone}"])
    choose(game, invader)
    assert game.loc[poison] == ("attached", invader)
    assert (game.power(cyclone), game.power(invader)) == (4, 0)


def test_ripped_off_with_no_action_attached_does_nothing():
    s = scenario()
    s.minion(OASIS, "Cyclone", owner=0)
    s.hand(0, "Ripped Off", "Dust Devil")
    game = s.build()
    play(game, "Ripped Off")
    assert game.pending.kind == "play" and game.loc[card(game, "Ripped Off")] == ("discard", 0)


# ====================================================================== Trade Winds ==========


def test_trade_winds_swaps_two_small_minions_on_different_bases():
    s = scenario()
    s.minion(OASIS, "Invader", owner=1)  # 3
    s.minion(OASIS, "Ninja Acolyte", owner=1)  # 2
    s.minion(SHIP, "Dust Devil", owner=0)  # 2
    s.minion(SHIP, "Cyclone", owner=0)  # 4: too strong
    s.minion(FACTORY, "Twister", owner=0)  # 3
    s.hand(0, "Trade Winds", "Twister")
    game = s.build()
    invader, devil = card(game, "Invader", "minion"), card(game, "Dust Devil", "minion")
    acolyte = card(game, "Ninja Acolyte", "minion")
    play(game, "Trade Winds")
    assert offered(game) == ["Dust Devil", "Invader", "Ninja Acolyte", "Twister"]
    assert_refused(game, [mid(game, "Cyclone")])
    assert_refused(game, [])  # not a "may"
    choose(game, invader)
    # Only a minion on another base: the Acolyte beside it is no partner.
    assert offered(game) == ["Dust Devil", "Twister"]
    assert_refused(game, [f"m{acolyte}"])
    choose(game, devil)
    assert where(game, invader) == "The Mothership"
    assert where(game, devil) == "Jungle Oasis"
    assert where(game, acolyte) == "Jungle Oasis"


def test_trade_winds_with_no_pair_on_different_bases_moves_nothing():
    s = scenario()
    s.minion(OASIS, "Invader", owner=1)
    s.minion(OASIS, "Dust Devil", owner=0)
    s.minion(SHIP, "Cyclone", owner=0)
    s.hand(0, "Trade Winds", "Twister")
    game = s.build()
    play(game, "Trade Winds")
    assert game.pending.kind == "play"
    assert [where(game, card(game, n, "minion")) for n in ("Invader", "Dust Devil")] == [
        "Jungle Oasis"] * 2


# ====================================================================== Whirlwinds ===========


def test_whirlwinds_moves_any_number_of_your_minions_one_at_a_time():
    s = scenario()
    s.minion(OASIS, "Cyclone", owner=0)
    s.minion(OASIS, "Twister", owner=0)
    s.minion(SHIP, "Dust Devil", owner=0)
    s.minion(SHIP, "King Rex", owner=1)
    s.hand(0, "Whirlwinds", "Twister")
    game = s.build()
    play(game, "Whirlwinds")
    assert offered(game) == ["Cyclone", "Dust Devil", "Twister"]
    assert_refused(game, [mid(game, "King Rex")])
    choose(game, card(game, "Cyclone", "minion"))
    choose(game, "Factory 436-1337")
    choose(game, card(game, "Dust Devil"))
    choose(game, "Jungle Oasis")
    # A minion moved once is not offered again.
    assert offered(game) == ["Twister"]
    decline(game)
    assert where(game, card(game, "Cyclone")) == "Factory 436-1337"
    assert where(game, card(game, "Dust Devil")) == "Jungle Oasis"
    assert where(game, card(game, "Twister", "minion")) == "Jungle Oasis"


def test_whirlwinds_may_move_none():
    s = scenario()
    s.minion(OASIS, "Cyclone", owner=0)
    s.hand(0, "Whirlwinds", "Twister")
    game = s.build()
    play(game, "Whirlwinds")
    decline(game)
    assert where(game, card(game, "Cyclone")) == "Jungle Oasis"


def test_gone_with_the_winds_move_at_step_7_is_its_players():
    # Issue 24, mechanism 2: the move is made by the card's player when the cards are put away:
    # another player's Hatchling on the destination gives the minion -1.
    s = scenario()
    s.minion(OASIS, "King Rex", owner=1)
    s.minion(OASIS, "Cyclone", owner=0)
    s.minion(OASIS, "Dust Devil", owner=0)
    s.minion(SHIP, "Hatchling", owner=1)
    s.hand(0, "Gone with the Wind", "Swashbuckling")
    game = s.build()
    events = record_events(game)
    end_play(game)
    choose(game, "Play Gone with the Wind")
    cyclone = card(game, "Cyclone")
    choose(game, cyclone)
    choose(game, "The Mothership")
    assert where(game, cyclone) == "The Mothership"
    moved = [e for e in events if e.kind == "moved" and e.card == cyclone]
    assert moved[0].by_card == card(game, "Gone with the Wind") and moved[0].by_player == 0
    # The Hatchling's -1 (until the end of the turn, which has ended since).
    assert [(e.card, e.by_card) for e in events if e.kind == "power_changed"] == [
        (cyclone, card(game, "Hatchling"))]
