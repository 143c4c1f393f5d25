"""Every card of the Rock Stars (What Were We Thinking?), played through the engine.

Each test builds a position with `Scenario`, plays the card with the testing helpers and checks the
exact effect: zones, power, breakpoints, cards drawn, what is offered. The rulings come from the
catalog (smashup/cards/catalog/wwwt.yaml, Rock Stars) and the WWWT rulebook (the clarification on
Turn Up to 11; breakpoints never below 0; a "may" is optional, anything else is mandatory).

Bases: Jungle Oasis (breakpoint 12), The Mothership (20) and Factory 436-1337 (25, the big venue);
none acts before it scores. Seat 1 always keeps a card it can play, so that when seat 0's turn ends
the game stops at seat 1's Play Cards decision.
"""
from __future__ import annotations

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import ACTION, MINION, REGISTRY, Ctx
from smashup.engine.testing import (
    assert_refused,
    base_uid,
    card,
    choose,
    decline,
    end_play,
    find_cards,
    hand_names,
    labels,
    play,
    where,
)
from smashup.engine.testing import log_texts as log

from .quiet_scene import QUIET_BASES, quiet_scene

PLAYERS = [("Rock Stars", "Dinosaurs"), ("Ninjas", "Aliens")]
DECK_FILLER = "Howl"  # seat 0's next draws
OASIS, SHIP, FACTORY = 0, 1, 2


def scenario(bases=QUIET_BASES, deck=None):
    return quiet_scene(PLAYERS, bases, deck if deck is not None else [DECK_FILLER] * 4)


def breakpoints(game) -> dict[str, int]:
    return {game.name(slot.card): game.breakpoint(slot) for slot in game.bases}


def talents(game) -> list[str]:
    return [label for label in labels(game) if "talent" in label]


def power_on(game, base_name, seat) -> int:
    return game.player_power(base_uid(game, base_name), seat)


# ====================================================================== the deck =============


def test_the_rock_star_deck_matches_the_catalog():
    expected = {
        "The Monarch": (MINION, 5, 1), "Classic Rocker": (MINION, 4, 2),
        "Rick Roll": (MINION, 3, 2), "Groupie": (MINION, 2, 5),
        "Guest Star": (ACTION, 0, 2), "Hot Venue": (ACTION, 0, 1), "Power Ballad": (ACTION, 0, 1),
        "Reunion Tour": (ACTION, 0, 1), "Rock of Luuv": (ACTION, 0, 1),
        "Total Sellout": (ACTION, 0, 2), "Tour Bus": (ACTION, 0, 1),
        "Turn Up to 11": (ACTION, 0, 1),
    }
    faction = REGISTRY.faction("Rock Stars")
    assert {c.name: (c.kind, c.power, c.copies) for c in faction.cards} == expected
    deck = faction.deck()
    assert len(deck) == 20 and sum(c.is_minion for c in deck) == 10
    assert all(c.text and c.set == "wwwt" for c in faction.cards)
    assert {c.name for c in faction.cards if c.attach == "base"} == {"Hot Venue", "Turn Up to 11"}


# ====================================================================== The Monarch ==========


def test_the_monarch_finds_a_groupie_in_the_deck_reveals_it_and_shuffles():
    s = scenario(deck=["Howl", "Groupie", "Rick Roll", "Howl"])
    s.minion(OASIS, "The Monarch", owner=0)
    s.hand(0, "Howl")
    game = s.build()
    choose(game, "The Monarch's talent")
    assert game.pending.kind == "cards"
    # The searcher sees the deck; only Groupies are offered, each saying where it lies.
    assert labels(game) == ["Groupie"]
    groupie = card(game, "Groupie")
    choose(game, "Groupie")
    assert game.loc[groupie] == ("hand", 0)
    assert "P0 reveals Groupie." in log(game)
    assert any("shuffles their deck" in t for t in log(game))
    assert len(game.players[0].deck) == 3


def test_the_monarch_searches_the_discard_pile_too_and_tells_the_copies_apart():
    s = scenario(deck=["Howl", "Groupie", "Howl"])
    s.discard(0, "Groupie", "Rick Roll")
    s.minion(OASIS, "The Monarch", owner=0)
    s.hand(0, "Howl")
    game = s.build()
    choose(game, "The Monarch's talent")
    assert sorted(labels(game)) == ["Groupie (from your deck)", "Groupie (from your discard pile)"]
    in_pile = find_cards(game, "Groupie", "discard")[0]
    choose(game, "Groupie (from your discard pile)")
    assert game.loc[in_pile] == ("hand", 0)
    assert len(find_cards(game, "Groupie", "deck")) == 1
    # Ruling: the deck was searched too (one search of both), so it was shuffled.
    assert any("shuffles their deck" in t for t in log(game))


def test_the_monarch_may_take_nothing_and_is_used_once_per_turn():
    s = scenario(deck=["Groupie", "Howl"])
    s.minion(OASIS, "The Monarch", owner=0)
    s.hand(0, "Howl")
    game = s.build()
    choose(game, "The Monarch's talent")
    decline(game)
    assert find_cards(game, "Groupie", "deck") and not find_cards(game, "Groupie", "hand")
    assert talents(game) == []


def test_the_monarch_with_nothing_to_search_offers_no_talent():
    s = scenario(deck=[])
    s.minion(OASIS, "The Monarch", owner=0)
    s.hand(0, "Howl")
    game = s.build()
    assert talents(game) == []


# ====================================================================== Classic Rocker =======


def test_classic_rocker_draws_on_a_big_venue_once_per_turn_for_every_copy():
    s = scenario()
    s.minion(FACTORY, "Classic Rocker", owner=0)  # 25
    s.minion(FACTORY, "Classic Rocker", owner=0)
    s.hand(0, "Groupie")
    game = s.build()
    assert talents(game) == ["Use Classic Rocker's talent"]  # alike copies: one option
    choose(game, "Classic Rocker's talent")
    assert hand_names(game) == ["Groupie", "Howl"]
    # "Only one Classic Rocker ability per turn, however many you have."
    assert talents(game) == []


def test_classic_rocker_below_21_offers_nothing_until_turn_up_to_11_raises_it():
    s = scenario()
    s.minion(OASIS, "Classic Rocker", owner=0)  # 12
    s.hand(0, "Turn Up to 11", "War Raptor")
    game = s.build()
    assert talents(game) == []
    play(game, "Turn Up to 11")
    choose(game, "Jungle Oasis")
    # Catalog note: the current (modified) breakpoint is read.
    assert breakpoints(game)["Jungle Oasis"] == 21
    choose(game, "Classic Rocker's talent")
    assert hand_names(game) == ["Howl", "War Raptor"]


def test_classic_rocker_below_21_after_a_rampage_offers_nothing():
    s = scenario()
    s.minion(FACTORY, "Classic Rocker", owner=0)
    s.minion(FACTORY, "King Rex", owner=0)  # 25 - 7 = 18
    s.hand(0, "Rampage", "Groupie")
    game = s.build()
    assert talents(game) == ["Use Classic Rocker's talent"]
    play(game, "Rampage")
    choose(game, "King Rex")
    assert breakpoints(game)["Factory 436-1337"] == 18
    assert talents(game) == []


# ====================================================================== Rick Roll ============


def rick_roll_game():
    s = scenario()
    s.minion(OASIS, "Groupie", owner=0)  # 12 < 25
    s.minion(OASIS, "Groupie", owner=0)
    s.minion(SHIP, "King Rex", owner=0)  # 20 < 25
    s.minion(SHIP, "War Raptor", owner=0)
    s.minion(OASIS, "Invader", owner=1)  # not yours
    s.hand(0, "Rick Roll")
    return s.build()


RICK_ROLL_OPTIONS = ["Groupie (2, P0) on Jungle Oasis", "King Rex (7, P0) on The Mothership",
                     "War Raptor (3, P0) on The Mothership"]


def test_rick_roll_moves_up_to_three_of_your_minions_from_lower_breakpoints():
    game = rick_roll_game()
    play(game, "Rick Roll", base="Factory 436-1337")
    # Alike Groupies are one option; the other player's Invader is not offered.
    assert labels(game) == RICK_ROLL_OPTIONS
    assert card(game, "Invader") not in [o.card for o in game.pending.options]
    choose(game, card(game, "King Rex"))
    choose(game, find_cards(game, "Groupie")[0])
    choose(game, find_cards(game, "Groupie")[1])
    # Three moved: no fourth question.
    assert game.pending.kind == "play"
    assert [where(game, c) for c in find_cards(game, "Groupie")] == ["Factory 436-1337"] * 2
    assert where(game, card(game, "King Rex")) == "Factory 436-1337"
    assert where(game, card(game, "War Raptor")) == "The Mothership"
    assert where(game, card(game, "Invader")) == "Jungle Oasis"


def test_rick_roll_may_move_none_and_a_base_with_a_higher_breakpoint_is_not_a_source():
    game = rick_roll_game()
    play(game, "Rick Roll", base="The Mothership")  # 20: only the Oasis (12) is lower
    assert {game.name(o.card) for o in game.pending.options if o.card is not None} == {"Groupie"}
    assert_refused(game, [f"m{card(game, 'King Rex')}"])
    decline(game)
    assert [where(game, c) for c in find_cards(game, "Groupie")] == ["Jungle Oasis"] * 2


def test_rick_roll_on_the_lowest_base_asks_nothing():
    game = rick_roll_game()
    play(game, "Rick Roll", base="Jungle Oasis")
    assert game.pending.kind == "play"
    assert where(game, card(game, "King Rex")) == "The Mothership"


# ====================================================================== Groupie ==============


def test_groupies_chain_onto_the_same_base_as_extra_minions():
    s = scenario()
    s.hand(0, "Groupie", "Groupie", "Groupie", "King Rex", "Howl")
    game = s.build()
    play(game, "Groupie", base="The Mothership")
    # Only another Groupie, only onto this base; King Rex is not offered.
    assert labels(game) == ["Groupie on The Mothership"]
    choose(game, "Groupie on The Mothership")
    choose(game, "Groupie on The Mothership")
    assert [where(game, c) for c in find_cards(game, "Groupie")] == ["The Mothership"] * 3
    # The first was the turn's minion play, the others extras: King Rex waits, Howl may go.
    assert labels(game) == ["Play Howl", "End the Play Cards phase"]
    assert hand_names(game) == ["Howl", "King Rex"]


def test_a_groupie_may_decline_the_next_one():
    s = scenario()
    s.hand(0, "Groupie", "Groupie")
    game = s.build()
    play(game, "Groupie", base="Jungle Oasis")
    decline(game)
    assert len(find_cards(game, "Groupie", "hand")) == 1 and len(find_cards(game, "Groupie", "minion")) == 1


def test_a_lone_groupie_asks_nothing():
    s = scenario()
    s.hand(0, "Groupie", "Howl")
    game = s.build()
    play(game, "Groupie", base="Jungle Oasis")
    assert game.pending.kind == "play"


# ====================================================================== Guest Star ===========


def test_guest_star_plays_the_groupie_from_the_deck_at_once_and_shuffles():
    s = scenario(deck=["Howl", "Groupie", "Howl"])
    s.hand(0, "Guest Star", "Groupie")
    game = s.build()
    play(game, "Guest Star")
    choose(game, "Groupie")
    found = find_cards(game, "Groupie", "deck")[0]
    assert "Groupie (from your deck) on Factory 436-1337" in labels(game)
    choose(game, "Groupie (from your deck) on Factory 436-1337")
    assert where(game, found) == "Factory 436-1337"
    # Its own on-play: the Groupie in hand may follow it.
    assert labels(game) == ["Groupie on Factory 436-1337"]
    decline(game)
    assert any("shuffles their deck" in t for t in log(game))
    assert game.loc[card(game, "Guest Star")] == ("discard", 0)


def test_guest_star_puts_the_groupie_into_your_hand_when_you_do_not_play_it():
    s = scenario(deck=["Howl", "Howl"])
    s.discard(0, "Groupie")
    s.hand(0, "Guest Star", "Howl")
    game = s.build()
    play(game, "Guest Star")
    choose(game, "Groupie")
    decline(game)
    assert hand_names(game) == ["Groupie", "Howl"]
    assert any("shuffles their deck" in t for t in log(game))


def test_guest_star_without_a_groupie_does_nothing_but_shuffle():
    s = scenario(deck=["Howl", "Howl"])
    s.hand(0, "Guest Star", "War Raptor")
    game = s.build()
    play(game, "Guest Star")
    assert game.pending.kind == "play"
    assert hand_names(game) == ["War Raptor"]
    assert any("shuffles their deck" in t for t in log(game))


# ====================================================================== Hot Venue ============


def test_hot_venue_gives_your_minions_there_one_power():
    s = scenario()
    s.minion(FACTORY, "Groupie", owner=0)
    s.minion(FACTORY, "Invader", owner=1)
    s.minion(OASIS, "Rick Roll", owner=0)
    s.hand(0, "Hot Venue", "Howl")
    game = s.build()
    play(game, "Hot Venue")
    choose(game, "Factory 436-1337")
    assert game.power(card(game, "Groupie")) == 3
    assert game.power(card(game, "Invader")) == 3
    assert game.power(card(game, "Rick Roll")) == 3


def test_hot_venue_on_a_big_venue_draws_at_the_end_of_a_turn_you_played_a_minion_there():
    s = scenario()
    s.base_action(FACTORY, "Hot Venue", owner=0)
    s.hand(0, "Groupie", "Howl")
    game = s.build()
    play(game, "Groupie", base="Factory 436-1337")
    end_play(game)
    assert game.current == 1
    # Two drawn in the Draw phase, one more by Hot Venue at the end of the turn.
    assert len(game.players[0].hand) == 1 + 2 + 1
    assert "P0 draws 1 card." in log(game)


def test_hot_venue_draws_nothing_when_you_played_no_minion_there():
    s = scenario()
    s.base_action(FACTORY, "Hot Venue", owner=0)
    s.hand(0, "Groupie", "Howl")
    game = s.build()
    play(game, "Groupie", base="Jungle Oasis")
    end_play(game)
    assert game.current == 1 and len(game.players[0].hand) == 1 + 2


def test_hot_venue_below_21_draws_nothing_unless_turned_up_to_11():
    s = scenario()
    s.base_action(SHIP, "Hot Venue", owner=0)
    s.hand(0, "Groupie", "Howl")
    game = s.build()
    play(game, "Groupie", base="The Mothership")
    end_play(game)
    assert game.current == 1 and len(game.players[0].hand) == 1 + 2

    s = scenario()
    s.base_action(SHIP, "Hot Venue", owner=0)
    s.base_action(SHIP, "Turn Up to 11", owner=0)
    s.hand(0, "Groupie", "Howl")
    game = s.build()
    play(game, "Groupie", base="The Mothership")
    end_play(game)
    assert game.current == 1 and len(game.players[0].hand) == 1 + 2 + 1


def test_hot_venue_draws_for_its_controller_on_another_players_turn_only_if_they_played_there():
    s = scenario()
    s.base_action(FACTORY, "Hot Venue", owner=1)
    s.hand(0, "Groupie", "Howl")
    game = s.build()
    play(game, "Groupie", base="Factory 436-1337")  # seat 0 played there, not seat 1
    end_play(game)
    assert game.current == 1 and len(game.players[1].hand) == 1
    assert "P1 draws 1 card." not in log(game)



def play_as_action(game, name, base_name):
    """Play a minion from the hand with the action play (Argonaut's Special)."""
    cid = next(c for c in game.players[game.pending.seat].hand if game.name(c) == name)
    uid = base_uid(game, base_name)
    [opt] = [o for o in game.pending.options
             if o.card == cid and o.base == uid and "as an action" in o.label]
    game.apply(game.pending.seat, game.pending.id, [opt.id])


def test_hot_venue_draws_for_a_minion_played_there_as_an_action():
    # Issue 24, mechanism 4: an Argonaut played with the action play is a minion you played.
    s = scenario()
    s.base_action(FACTORY, "Hot Venue", owner=0)
    s.hand(0, "Argonaut", "Howl")
    game = s.build()
    play_as_action(game, "Argonaut", "Factory 436-1337")  # nothing else to play: the turn ends
    assert game.current == 1
    assert len(game.players[0].hand) == 1 + 2 + 1

# ====================================================================== Power Ballad =========


def test_power_ballad_gives_your_minions_on_a_base_one_power_this_turn():
    s = scenario()
    s.minion(OASIS, "Groupie", owner=0)
    s.minion(OASIS, "Rick Roll", owner=0)
    s.minion(OASIS, "Invader", owner=1)
    s.minion(SHIP, "King Rex", owner=0)
    s.hand(0, "Power Ballad", "War Raptor")
    game = s.build()
    play(game, "Power Ballad")
    assert_refused(game, [])
    choose(game, "Jungle Oasis")
    assert power_on(game, "Jungle Oasis", 0) == 7
    assert game.power(card(game, "Invader")) == 3
    assert game.power(card(game, "King Rex")) == 7
    end_play(game)
    assert game.power(card(game, "Groupie")) == 2


def ballad_special_game(base):
    s = scenario(bases=("Jungle Oasis", "The Mothership", "Factory 436-1337"))
    index = {"Jungle Oasis": OASIS, "Factory 436-1337": FACTORY}[base]
    # Seat 1 leads by 2 on the ready base; seat 0 holds the Ballad for the Special.
    if base == "Factory 436-1337":
        s.minion(index, "King Rex", owner=0)
        s.minion(index, "Groupie", owner=0)
        s.minion(index, "Groupie", owner=0)
        s.minion(index, "Groupie", owner=0)  # 13
        s.minion(index, "Supreme Overlord", owner=1)
        s.minion(index, "Supreme Overlord", owner=1)
        s.minion(index, "Invader", owner=1)
        s.minion(index, "Collector", owner=1)  # 15: 28 in all
    else:
        s.minion(index, "Groupie", owner=0)
        s.minion(index, "Groupie", owner=0)  # 4
        s.minion(index, "Supreme Overlord", owner=1)
        s.minion(index, "Invader", owner=1)  # 8: 12 in all
    s.hand(0, "Power Ballad", "Howl")
    return s.build()


def test_power_ballad_as_a_special_before_a_big_venue_scores():
    game = ballad_special_game("Factory 436-1337")
    end_play(game)
    assert game.pending.seat == 0
    assert "Play Power Ballad: your minions on the scoring base get +1 power" in labels(game)
    choose(game, "Play Power Ballad")
    # 13 + 4 = 17 against 15: first place, 2 VP and 3 more for 17 power (the Factory).
    assert find_cards(game, "Power Ballad", "discard")
    assert (game.players[0].vp, game.players[1].vp) == (5, 2)


def test_power_ballad_is_no_special_before_a_small_base_scores():
    game = ballad_special_game("Jungle Oasis")
    end_play(game)
    # The Oasis (12) scored without the question: the Ballad stays in hand.
    assert game.loc[card(game, "Power Ballad")] == ("hand", 0)
    assert game.players[1].vp == 2


# ====================================================================== Reunion Tour =========


def test_reunion_tour_shuffles_chosen_minions_from_your_discard_pile_into_your_deck():
    s = scenario(deck=["Howl"])
    s.discard(0, "Groupie", "Groupie", "King Rex", "Howl")
    s.hand(0, "Reunion Tour", "War Raptor")
    game = s.build()
    play(game, "Reunion Tour")
    # Minions only, alike Groupies once.
    assert sorted(game.name(o.card) for o in game.pending.options) == ["Groupie", "King Rex"]
    choose(game, "Groupie")
    choose(game, "King Rex")
    decline(game)
    assert sorted(game.name(c) for c in game.players[0].deck) == ["Groupie", "Howl", "King Rex"]
    assert sorted(game.name(c) for c in game.players[0].discard) == [
        "Groupie", "Howl", "Reunion Tour"]
    assert any("shuffled into" in t for t in log(game))


def test_reunion_tour_may_shuffle_none():
    s = scenario(deck=["Howl"])
    s.discard(0, "Groupie")
    s.hand(0, "Reunion Tour", "War Raptor")
    game = s.build()
    play(game, "Reunion Tour")
    decline(game)
    assert [game.name(c) for c in game.players[0].deck] == ["Howl"]
    assert game.loc[card(game, "Groupie")] == ("discard", 0)


# ====================================================================== Rock of Luuv =========


def test_rock_of_luuv_takes_up_to_three_minions_of_one_name_of_power_2_or_less():
    s = scenario(deck=["Groupie", "Groupie", "Groupie", "Groupie", "War Raptor", "Rick Roll",
                       "Howl"])
    s.hand(0, "Rock of Luuv", "King Rex")
    game = s.build()
    play(game, "Rock of Luuv")
    # Printed power 2 or less, minions only: no Rick Roll (3), no Howl.
    assert sorted(labels(game)) == ["Groupie", "War Raptor"]
    choose(game, "Groupie")
    # Four Groupies in the deck, at most three.
    assert labels(game) == ["3 Groupie cards", "2 Groupie cards", "1 Groupie card"]
    choose(game, "3 Groupie")
    assert hand_names(game) == ["Groupie", "Groupie", "Groupie", "King Rex"]
    assert len(find_cards(game, "Groupie", "deck")) == 1
    assert any("shuffles their deck" in t for t in log(game))


def test_rock_of_luuv_may_find_nothing():
    s = scenario(deck=["War Raptor", "Howl"])
    s.hand(0, "Rock of Luuv", "King Rex")
    game = s.build()
    play(game, "Rock of Luuv")
    decline(game)
    assert hand_names(game) == ["King Rex"]
    assert find_cards(game, "War Raptor", "deck")


# ====================================================================== Total Sellout ========


def sellout_game(base_index, mine=True):
    s = scenario()
    s.minion(base_index, "Supreme Overlord", owner=1)
    s.minion(base_index, "Supreme Overlord", owner=1)
    s.minion(base_index, "Supreme Overlord", owner=1)
    s.minion(base_index, "Supreme Overlord", owner=1)
    s.minion(base_index, "Supreme Overlord", owner=1)  # 25: ready on every base here
    if mine:
        s.minion(base_index, "Groupie", owner=0)
    s.hand(0, "Total Sellout", "Howl")
    s.deck(0, *[DECK_FILLER] * 4)  # 8 in all: no reshuffle of the discard pile
    return s.build()


def test_total_sellout_after_a_big_venue_scores_draws_three():
    game = sellout_game(FACTORY)
    end_play(game)
    assert labels(game) == ["Play Total Sellout: draw 2 cards (3 at a big venue)", "Pass"]
    choose(game, "Play Total Sellout")
    assert find_cards(game, "Total Sellout", "discard")
    # Howl kept, 3 from Total Sellout, then the 2 of the Draw phase.
    assert len(game.players[0].hand) == 1 + 3 + 2


def test_total_sellout_after_a_smaller_base_draws_two():
    game = sellout_game(SHIP)
    end_play(game)
    choose(game, "Play Total Sellout")
    assert len(game.players[0].hand) == 1 + 2 + 2


def test_total_sellout_needs_a_minion_of_yours_on_the_base():
    game = sellout_game(FACTORY, mine=False)
    end_play(game)
    assert find_cards(game, "Total Sellout", "hand")
    assert game.current == 1


def test_total_sellout_cannot_be_played_as_a_normal_action():
    game = sellout_game(FACTORY)
    assert not any("Total Sellout" in label for label in labels(game))


# ====================================================================== Tour Bus =============


def test_tour_bus_moves_up_to_three_of_your_minions_to_a_bigger_base():
    s = scenario()
    s.minion(OASIS, "Groupie", owner=0)
    s.minion(SHIP, "King Rex", owner=0)
    s.minion(FACTORY, "Rick Roll", owner=0)  # already there
    s.minion(OASIS, "Invader", owner=1)
    s.hand(0, "Tour Bus", "Howl")
    game = s.build()
    play(game, "Tour Bus")
    choose(game, "The Mothership")  # 20: only the Oasis (12) is lower
    assert [game.name(o.card) for o in game.pending.options] == ["Groupie"]
    choose(game, "Groupie")
    assert where(game, card(game, "Groupie")) == "The Mothership"
    assert game.pending.kind == "play"  # nothing more to move


def test_tour_bus_may_move_none():
    s = scenario()
    s.minion(OASIS, "Groupie", owner=0)
    s.hand(0, "Tour Bus", "Howl")
    game = s.build()
    play(game, "Tour Bus")
    choose(game, "Factory 436-1337")
    decline(game)
    assert where(game, card(game, "Groupie")) == "Jungle Oasis"


# ====================================================================== Turn Up to 11 ========


def test_turn_up_to_11_starts_a_smaller_base_at_21_and_changes_count_from_there():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=0)  # 7 on the Oasis
    s.minion(OASIS, "Groupie", owner=0)  # and 2
    s.hand(0, "Turn Up to 11", "War Raptor")
    game = s.build()
    play(game, "Turn Up to 11")
    choose(game, "Jungle Oasis")
    assert breakpoints(game) == {"Jungle Oasis": 21, "The Mothership": 20,
                                 "Factory 436-1337": 25}
    view = {b["name"]: b["breakpoint"] for b in game.view(None)["bases"]}
    assert view["Jungle Oasis"] == 21
    # Nine power on a 12 base, yet not ready: it starts at 21 now.
    assert game.pending.kind == "play" and game.ready_bases() == []
    ctx = Ctx(game, card(game, "King Rex"), 0)
    assert ctx.breakpoint(base_uid(game, "Jungle Oasis")) == 21


def test_turn_up_to_11_does_not_lower_a_base_printed_above_21():
    s = scenario()
    s.hand(0, "Turn Up to 11", "Howl")
    game = s.build()
    play(game, "Turn Up to 11")
    choose(game, "Factory 436-1337")
    assert breakpoints(game)["Factory 436-1337"] == 25


def test_a_rampage_still_lowers_a_turned_up_base_from_21():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(OASIS, "Groupie", owner=0)  # 9 on the Oasis
    s.base_action(OASIS, "Turn Up to 11", owner=0)
    s.hand(0, "Rampage", "War Raptor")
    game = s.build()
    play(game, "Rampage")
    choose(game, "King Rex")
    # WWWT clarification: 21 - 7 = 14; 9 power is not enough.
    assert breakpoints(game)["Jungle Oasis"] == 14
    assert game.ready_bases() == []


# ====================================================================== bad choices ==========


def test_a_groupie_refuses_another_minion_or_another_base():
    s = scenario()
    s.hand(0, "Groupie", "Groupie", "King Rex")
    game = s.build()
    play(game, "Groupie", base="The Mothership")
    rex, oasis = card(game, "King Rex"), base_uid(game, "Jungle Oasis")
    other = find_cards(game, "Groupie", "hand")[0]
    assert_refused(game, [f"m{rex}@{base_uid(game, 'The Mothership')}"])
    assert_refused(game, [f"m{other}@{oasis}"])


def test_the_monarch_refuses_a_card_that_is_not_a_groupie():
    s = scenario(deck=["Groupie", "Rick Roll"])
    s.minion(OASIS, "The Monarch", owner=0)
    s.hand(0, "Howl")
    game = s.build()
    choose(game, "The Monarch's talent")
    assert_refused(game, [f"c{card(game, 'Rick Roll')}"])
    assert_refused(game, ["c9999"])


def test_tour_bus_must_choose_a_base_and_refuses_a_minion_from_a_bigger_one():
    s = scenario()
    s.minion(FACTORY, "King Rex", owner=0)
    s.minion(OASIS, "Groupie", owner=0)
    s.hand(0, "Tour Bus", "War Raptor")
    game = s.build()
    play(game, "Tour Bus")
    assert_refused(game, [])
    choose(game, "The Mothership")
    assert_refused(game, [f"m{card(game, 'King Rex')}"])
    choose(game, "Groupie")
    assert where(game, card(game, "King Rex")) == "Factory 436-1337"


def test_total_sellout_refuses_a_pass_by_another_seat():
    game = sellout_game(FACTORY)
    end_play(game)
    assert_refused(game, ["pass"], seat=1)
