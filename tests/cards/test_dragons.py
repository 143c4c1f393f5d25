"""Every card of the Dragons (It's Your Fault!), played through the engine.

Each test builds a position with `Scenario`, plays the card with the testing helpers and checks the
exact effect: zones, power, breakpoints, cards drawn, what is offered. The rulings come from the
catalog (smashup/cards/catalog/iyf.yaml, Dragons) and the IYF rulebook's clarifications (Imperial
Dragon: moving this minion activates it; a "may" is optional, anything else is mandatory).

Bases: Jungle Oasis (breakpoint 12, no ability) and The Mothership (20; it acts only after it
scores). Seat 1 always keeps a card it can play, so that when seat 0's turn ends the game stops at
seat 1's Play Cards decision.
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
    hand_names,
    labels,
    play,
    where,
)

from .quiet_scene import FILLER, quiet_scene

PLAYERS = [("Dragons", "Dinosaurs"), ("Ninjas", "Aliens")]
DECK_FILLER = "Howl"  # seat 0's next draws
OASIS, SHIP = 0, 1


def scenario(bases=("Jungle Oasis", "The Mothership"), deck=None):
    return quiet_scene(PLAYERS, bases, deck if deck is not None else [DECK_FILLER] * 4)


def option_names(game) -> list[str]:
    return sorted(game.name(o.card) for o in game.pending.options if o.card is not None)


def breakpoint(game, name) -> int:
    return game.breakpoint(game.slot(base_uid(game, name)))


# ====================================================================== the deck =============

def test_the_dragon_deck_matches_the_catalog():
    expected = {
        "Great Wyrm": (MINION, 5, 1), "Wyvern": (MINION, 4, 2), "Imperial Dragon": (MINION, 3, 3),
        "Hatchling": (MINION, 2, 4), "Bring Down the Walls": (ACTION, 0, 2),
        "Burn It Down": (ACTION, 0, 1), "Dangerous Ground": (ACTION, 0, 1),
        "Dragon Lands": (ACTION, 0, 1), "Flank Attack": (ACTION, 0, 1),
        "Intimidating Presence": (ACTION, 0, 1), "Raze": (ACTION, 0, 1), "Ruins": (ACTION, 0, 2),
    }
    faction = REGISTRY.faction("Dragons")
    assert {c.name: (c.kind, c.power, c.copies) for c in faction.cards} == expected
    assert len(faction.deck()) == 20 and all(c.text for c in faction.cards)
    # Eight action cards of six names are played on a base (catalog note); none on a minion.
    assert sorted(c.name for c in faction.cards if c.attach == "base") == [
        "Bring Down the Walls", "Dangerous Ground", "Dragon Lands", "Intimidating Presence",
        "Raze", "Ruins"]


# ====================================================================== Wyvern ===============


def test_wyvern_destroys_a_minion_of_power_3_or_less_here_even_your_own():
    s = scenario()
    s.minion(OASIS, "Invader", owner=1)  # 3
    s.minion(OASIS, "War Raptor", owner=0)  # 2, seat 0's own
    s.minion(OASIS, "Supreme Overlord", owner=1)  # 5: too strong
    s.minion(SHIP, "Collector", owner=1)  # another base
    s.hand(0, "Wyvern", "Howl")
    game = s.build()
    play(game, "Wyvern", base="Jungle Oasis")
    assert option_names(game) == ["Invader", "War Raptor"]
    assert_refused(game, [])  # mandatory
    assert_refused(game, [f"m{card(game, 'Supreme Overlord')}"])
    assert_refused(game, [f"m{card(game, 'Collector')}"])
    choose(game, "War Raptor")
    assert game.loc[card(game, "War Raptor")] == ("discard", 0)


def test_wyvern_with_nothing_weak_enough_destroys_nothing():
    s = scenario()
    s.minion(OASIS, "Supreme Overlord", owner=1)
    s.hand(0, "Wyvern", "Howl")
    game = s.build()
    play(game, "Wyvern", base="Jungle Oasis")
    assert game.pending.kind == "play"
    assert where(game, card(game, "Supreme Overlord")) == "Jungle Oasis"


def test_wyvern_weakened_to_3_by_wyrms_desolation_must_destroy_itself():
    s = scenario(bases=("Wyrm's Desolation", "Jungle Oasis"))
    s.hand(0, "Wyvern", "Howl")
    game = s.build()
    play(game, "Wyvern", base="Wyrm's Desolation")  # 4 - 1 = 3: "a minion", the only one
    assert game.loc[card(game, "Wyvern")] == ("discard", 0)


def test_wyvern_talent_lowers_its_base_breakpoint_by_3_until_the_end_of_the_turn():
    s = scenario()
    s.minion(SHIP, "Wyvern", owner=0)
    s.hand(0, "Howl", "War Raptor")
    game = s.build()
    assert breakpoint(game, "The Mothership") == 20
    choose(game, "Wyvern's talent")
    assert breakpoint(game, "The Mothership") == 17
    assert breakpoint(game, "Jungle Oasis") == 12
    assert not [label for label in labels(game) if "talent" in label]  # once per turn
    end_play(game)
    assert breakpoint(game, "The Mothership") == 20


# ====================================================================== Imperial Dragon ======


def test_imperial_dragon_draws_when_another_player_plays_a_minion_here():
    s = scenario()
    s.minion(OASIS, "Imperial Dragon", owner=1)  # seat 1's Dragon
    s.hand(0, "War Raptor", "Howl")
    s.hand(1, "Beam Up")
    game = s.build()
    play(game, "War Raptor", base="Jungle Oasis")
    assert len(game.players[1].hand) == 3  # the Acolyte, Beam Up and one drawn


def test_imperial_dragon_ignores_its_own_players_plays_and_other_bases():
    s = scenario()
    s.minion(OASIS, "Imperial Dragon", owner=0)
    s.hand(0, "War Raptor", "War Raptor", "Howl")
    game = s.build()
    play(game, "War Raptor", base="Jungle Oasis")  # yours: nothing
    assert len(game.players[0].hand) == 2
    s = scenario()
    s.minion(OASIS, "Imperial Dragon", owner=1)
    s.hand(0, "War Raptor", "Howl")
    game = s.build()
    play(game, "War Raptor", base="The Mothership")  # another base: nothing
    assert len(game.players[1].hand) == 1


def test_imperial_dragon_draws_when_another_player_moves_a_minion_here_not_away():
    s = scenario(bases=("Jungle Oasis", "The Mothership"))
    s.minion(OASIS, "Imperial Dragon", owner=1)
    s.minion(OASIS, "Collector", owner=0)
    s.minion(SHIP, "War Raptor", owner=0)
    s.hand(0, "Dinghy", "Howl")
    game = s.build()
    s_hand = len(game.players[1].hand)
    play(game, "Dinghy")
    choose(game, "War Raptor")  # to the Oasis: the Dragon draws
    choose(game, "Collector")  # away from the Oasis: nothing
    assert len(game.players[1].hand) == s_hand + 1


def test_imperial_dragon_moved_by_another_player_draws_on_its_new_base():
    # IYF clarification: moving this minion activates it.
    s = scenario()
    s.minion(OASIS, "Imperial Dragon", owner=1)
    s.hand(0, "Invasion", "King Rex")
    game = s.build()
    play(game, "Invasion")  # the only minion, to the only other base: no question
    assert where(game, card(game, "Imperial Dragon")) == "The Mothership"
    assert len(game.players[1].hand) == 2


def test_imperial_dragon_moved_by_its_own_player_draws_nothing():
    s = scenario()
    s.minion(OASIS, "Imperial Dragon", owner=0)
    s.hand(0, "Dinghy", "King Rex")
    game = s.build()
    play(game, "Dinghy")
    choose(game, "Imperial Dragon")  # no second minion to move: no more questions
    assert hand_names(game) == ["King Rex"]


# ====================================================================== Hatchling ============


def test_hatchling_weakens_a_minion_another_player_plays_here_for_the_turn():
    s = scenario()
    s.minion(OASIS, "Hatchling", owner=1)
    s.hand(0, "Invader", "Howl")
    game = s.build()
    play(game, "Invader", base="Jungle Oasis")
    invader = card(game, "Invader", "minion")
    assert game.power(invader) == 2
    end_play(game)
    assert game.power(invader) == 3


def test_hatchling_weakens_a_minion_another_player_moves_here_for_the_turn():
    s = scenario()
    s.minion(OASIS, "Hatchling", owner=1)
    s.minion(OASIS, "Hatchling", owner=1)  # each Hatchling snaps
    s.minion(SHIP, "Zapbot", owner=0)
    s.hand(0, "Dinghy", "King Rex")
    game = s.build()
    play(game, "Dinghy")
    choose(game, "Zapbot")  # to the Oasis
    assert game.power(card(game, "Zapbot")) == 0  # 2 - 1 - 1
    assert game.power(card(game, "Hatchling")) == 2
    end_play(game)
    assert game.power(card(game, "Zapbot")) == 2


def test_hatchling_ignores_its_own_players_minions():
    s = scenario()
    s.minion(OASIS, "Hatchling", owner=0)
    s.hand(0, "Invader", "Howl")
    game = s.build()
    play(game, "Invader", base="Jungle Oasis")
    assert game.power(card(game, "Invader", "minion")) == 3


def test_hatchling_moved_here_by_another_player_weakens_itself():
    # As the Imperial Dragon's clarification: a move here of this very minion counts.
    s = scenario()
    s.minion(OASIS, "Hatchling", owner=1)
    s.hand(0, "Invasion", "King Rex")
    game = s.build()
    play(game, "Invasion")  # the only minion, to the only other base: no question
    assert game.power(card(game, "Hatchling")) == 1


# ====================================================================== Bring Down the Walls =


def walls_game(*hand):
    s = scenario()
    s.minion(OASIS, "King Rex", owner=1)
    s.minion(OASIS, "Invader", owner=0)  # 10 of 12
    s.hand(0, "Bring Down the Walls", *hand)
    return s.build()


def test_bring_down_the_walls_plays_an_extra_minion_on_its_base_before_it_scores():
    game = walls_game("War Raptor", "Imperial Dragon")
    play(game, "Bring Down the Walls")
    choose(game, "Jungle Oasis")
    # 12: ready. Nothing left to play (the Dragon would be a second minion): scoring.
    play(game, "War Raptor", base="Jungle Oasis")
    assert game.pending.seat == 0 and game.pending.kind == "confirm"
    choose(game, "yes")  # use the Special of the Walls in play
    assert option_names(game) == ["Imperial Dragon"]
    choose(game, "Imperial Dragon on Jungle Oasis")
    # 3 + 2 + 3 = 8 against 7: seat 0 wins the Oasis.
    assert (game.players[0].vp, game.players[1].vp) == (2, 0)


def test_bring_down_the_walls_may_be_declined():
    game = walls_game("War Raptor", "Imperial Dragon")
    play(game, "Bring Down the Walls")
    choose(game, "Jungle Oasis")
    play(game, "War Raptor", base="Jungle Oasis")
    choose(game, "no")
    assert game.players[1].vp == 2
    assert card(game, "Imperial Dragon", "hand")


# ====================================================================== Dangerous Ground =====


def test_dangerous_ground_makes_another_player_discard_after_playing_a_minion_here():
    s = scenario()
    s.base_action(OASIS, "Dangerous Ground", owner=0)
    s.hand(0, "Invader")
    s.hand(1, "Beam Up", "Invasion")
    s.turn(current=1)
    game = s.build()
    play(game, FILLER, base="Jungle Oasis")
    assert game.pending.seat == 1
    assert sorted(labels(game)) == ["Beam Up", "Invasion"]
    assert_refused(game, [])
    choose(game, "Invasion")
    assert game.loc[card(game, "Invasion")] == ("discard", 1)


def test_dangerous_ground_spares_its_owner_and_other_bases():
    s = scenario()
    s.base_action(OASIS, "Dangerous Ground", owner=0)
    s.hand(0, "War Raptor", "Howl")
    game = s.build()
    play(game, "War Raptor", base="Jungle Oasis")
    assert hand_names(game) == ["Howl"] and game.pending.kind == "play"
    s = scenario()
    s.base_action(OASIS, "Dangerous Ground", owner=0)
    s.hand(1, "Beam Up")
    s.hand(0, "Invader")
    s.turn(current=1)
    game = s.build()
    play(game, FILLER, base="The Mothership")
    assert hand_names(game, 1) == ["Beam Up"]


# ====================================================================== Dragon Lands =========


def test_dragon_lands_gives_your_minions_on_its_base_one_power():
    s = scenario()
    s.minion(OASIS, "Zapbot", owner=0)
    s.minion(OASIS, "Collector", owner=1)
    s.minion(SHIP, "Invader", owner=0)
    s.hand(0, "Dragon Lands", "King Rex")
    game = s.build()
    play(game, "Dragon Lands")
    choose(game, "Jungle Oasis")
    assert game.power(card(game, "Zapbot")) == 3
    assert game.power(card(game, "Collector")) == 2
    assert game.power(card(game, "Invader")) == 3


def scoring_game(special):
    s = scenario()
    s.minion(OASIS, "King Rex", owner=1)
    s.minion(OASIS, "Supreme Overlord", owner=0)
    s.minion(OASIS, "Collector", owner=0)  # 7 and 7: 14 of 12, tied
    s.hand(0, special, "Howl")
    s.deck(0, "Howl")
    return s.build()


def test_dragon_lands_as_a_special_just_before_a_base_scores():
    game = scoring_game("Dragon Lands")
    # +1 each for seat 0: 9 against 7; the Lands left in hand (one action a turn): scoring.
    play(game, "Howl")
    assert game.pending.seat == 0
    choose(game, "Play Dragon Lands on the scoring base")
    # It was on the Oasis when it scored, and went to the discard pile with the base's cards.
    assert game.loc[card(game, "Dragon Lands")] == ("discard", 0)
    assert (game.players[0].vp, game.players[1].vp) == (2, 0)


def test_dragon_lands_special_may_be_passed():
    game = scoring_game("Dragon Lands")
    end_play(game)
    choose(game, "Pass")
    assert game.loc[card(game, "Dragon Lands")] == ("hand", 0)
    assert (game.players[0].vp, game.players[1].vp) == (2, 2)  # tied at 7


# ====================================================================== Intimidating Presence


def test_intimidating_presence_takes_one_power_from_other_players_minions_there():
    s = scenario()
    s.minion(OASIS, "Zapbot", owner=0)
    s.minion(OASIS, "Collector", owner=1)
    s.minion(SHIP, "Invader", owner=1)
    s.hand(0, "Intimidating Presence", "King Rex")
    game = s.build()
    play(game, "Intimidating Presence")
    choose(game, "Jungle Oasis")
    assert game.power(card(game, "Collector")) == 1
    assert game.power(card(game, "Zapbot")) == 2
    assert game.power(card(game, "Invader")) == 3


def test_intimidating_presence_as_a_special_turns_a_tie_into_a_win():
    game = scoring_game("Intimidating Presence")
    end_play(game)
    choose(game, "Play Intimidating Presence on the scoring base")
    assert (game.players[0].vp, game.players[1].vp) == (2, 0)  # 7 against 6


# ====================================================================== Flank Attack =========


def test_flank_attack_plays_an_action_for_a_base_from_the_deck_and_shuffles_it():
    s = scenario(deck=["Howl", "Raze", "Dragon Lands", "Howl"])
    s.discard(0, "Augmentation")  # played on a minion: not offered
    s.hand(0, "Flank Attack", "War Raptor")
    game = s.build()
    play(game, "Flank Attack")
    assert labels(game) == ["Dragon Lands (from your deck)", "Raze (from your deck)"]
    choose(game, "Raze")
    choose(game, "Jungle Oasis")  # where the found action is played (an extra action)
    assert game.loc[card(game, "Raze")] == ("base_action", base_uid(game, "Jungle Oasis"))
    assert "P0 shuffles their deck." in [t for t, _ in game.log_lines]
    assert len(game.players[0].deck) == 3


def test_flank_attack_finds_one_in_the_discard_pile_and_may_find_nothing():
    s = scenario(deck=["Howl"])
    s.discard(0, "Intimidating Presence")
    s.hand(0, "Flank Attack", "War Raptor")
    game = s.build()
    play(game, "Flank Attack")
    assert labels(game) == ["Intimidating Presence (from your discard pile)"]
    choose(game, "Intimidating Presence")
    choose(game, "The Mothership")
    assert where(game, card(game, "Intimidating Presence")) == "base_action"
    s = scenario(deck=["Howl"])
    s.discard(0, "Intimidating Presence")
    s.hand(0, "Flank Attack", "War Raptor")
    game = s.build()
    play(game, "Flank Attack")
    decline(game)
    assert game.loc[card(game, "Intimidating Presence")] == ("discard", 0)
    assert find_cards(game, "Flank Attack", "discard")


# ====================================================================== Raze =================


def test_raze_cancels_its_base_abilities():
    s = scenario(bases=("Wyrm's Desolation", "Jungle Oasis"))
    s.minion(OASIS, "King Rex", owner=1)
    s.hand(0, "Raze", "Howl")
    game = s.build()
    rex = card(game, "King Rex")
    assert game.power(rex) == 6
    play(game, "Raze")
    choose(game, "Wyrm's Desolation")
    assert game.power(rex) == 7


def test_imperial_dragon_draws_when_another_player_moves_a_minion_here_with_palooza():
    # Palooza's moves are each player's own (Ctx.acting): the Dragon knows who moved.
    s = scenario(bases=("Palooza", "Jungle Oasis"))
    s.minion(0, "Imperial Dragon", owner=0)
    s.minion(0, "King Rex", owner=0)
    s.minion(0, "King Rex", owner=0)
    s.minion(0, "King Rex", owner=1)  # 24 of 27
    s.minion(1, "Collector", owner=1)
    s.hand(0, "Invader")
    game = s.build()
    play(game, "Invader", base="Palooza")  # 27: ready; nothing left to play
    assert game.pending.seat == 1  # seat 0 has no minion elsewhere: seat 1 is asked
    choose(game, "Collector")
    # Seat 0 drew 1 (the Dragon) before the draw phase's 2.
    assert len(game.players[0].hand) == 3


# ====================================================================== Burn It Down =========


def burn_game():
    s = scenario(bases=("Wyrm's Desolation", "Jungle Oasis"))
    s.minion(0, "King Rex", owner=1, attached=[("Upgrade", 1)])
    s.base_action(0, "Dangerous Ground", owner=0)
    s.base_deck("Tar Pits")  # under the Rhodes Plaza Mall
    s.base_discard("The Central Brain")
    s.hand(0, "Burn It Down", "Invader")
    return s.build()


def test_burn_it_down_replaces_a_base_with_the_unseen_top_of_the_base_deck():
    game = burn_game()
    play(game, "Burn It Down")
    choose(game, "Wyrm's Desolation")
    # The top base is offered unseen (rulebook clarification); the discard pile's by name.
    assert labels(game) == ["The top base of the base deck (unseen)", "The Central Brain"]
    choose(game, "The top base")
    rex = card(game, "King Rex")
    assert where(game, rex) == "Rhodes Plaza Mall"  # its minions stay, on the new base
    # The base's actions are destroyed; those on its minions stay (rulebook clarification).
    assert game.loc[card(game, "Dangerous Ground")] == ("discard", 0)
    assert game.loc[card(game, "Upgrade")] == ("attached", rex)
    assert game.loc[card(game, "Wyrm's Desolation")][0] == "base_discard"
    assert game.power(rex) == 9  # 7 + 2, no longer weakened by the Desolation


def test_burn_it_down_may_bring_back_a_base_from_the_discard_pile():
    game = burn_game()
    play(game, "Burn It Down")
    choose(game, "Jungle Oasis")
    assert_refused(game, [])
    choose(game, "The Central Brain")
    assert [game.name(s.card) for s in game.bases] == ["Wyrm's Desolation", "The Central Brain"]
    assert game.name(game.base_deck[0]) == "Rhodes Plaza Mall"  # the deck untouched


# ====================================================================== Great Wyrm, Ruins ====


def toll_game(*dragons_cards, base="The Mothership"):
    """Seat 1 wins the base (11 against seat 0's 9); seat 0's cards take their toll."""
    s = scenario(bases=(base, "Jungle Oasis"))
    s.minion(0, "King Rex", owner=1)
    s.minion(0, "Invader", owner=1)
    s.minion(0, "Collector", owner=1)  # 12
    for name in dragons_cards:
        if name == "Ruins":
            s.base_action(0, "Ruins", owner=0)
        else:
            s.minion(0, name, owner=0)
    return s


def test_great_wyrm_takes_one_placement_vp_from_each_other_player_on_its_base():
    s = toll_game("Great Wyrm")  # 5
    s.hand(0, "Imperial Dragon")  # 8 against 12: 20 of 20
    game = s.build()
    play(game, "Imperial Dragon", base="The Mothership")
    # Seat 1 first (4 - 1), seat 0 second (2, its own Wyrm spares it).
    assert (game.players[0].vp, game.players[1].vp) == (2, 3)
    # The log says what took the VP (issue 26, finding 10).
    assert "P1 gains 3 VP (1st on The Mothership, -1 Great Wyrm)." in [t for t, _ in game.log_lines]


def test_ruins_and_great_wyrm_each_take_their_own_vp_never_below_zero():
    s = toll_game("Great Wyrm", "Ruins", "Ruins")
    s.hand(0, "Imperial Dragon")
    game = s.build()
    play(game, "Imperial Dragon", base="The Mothership")
    assert (game.players[0].vp, game.players[1].vp) == (2, 1)  # 4 - 3
    assert "P1 gains 1 VP (1st on The Mothership, -2 Ruins, -1 Great Wyrm)." in [
        t for t, _ in game.log_lines]
    s = scenario(bases=("Jungle Oasis", "The Mothership"))  # 2, 0, 0
    s.minion(0, "King Rex", owner=1)
    s.base_action(0, "Ruins", owner=0)
    s.hand(0, "Imperial Dragon")
    s.minion(0, "Collector", owner=0)
    game = s.build()
    play(game, "Imperial Dragon", base="Jungle Oasis")  # 5 against 7
    assert (game.players[0].vp, game.players[1].vp) == (0, 1)
    s = scenario(bases=("Jungle Oasis", "The Mothership"))
    s.minion(0, "King Rex", owner=1)
    s.base_action(0, "Ruins", owner=0)
    s.base_action(0, "Ruins", owner=0)
    s.hand(0, "Imperial Dragon")
    s.minion(0, "Collector", owner=0)
    game = s.build()
    play(game, "Imperial Dragon", base="Jungle Oasis")
    assert game.players[1].vp == 0  # 2 - 2, and not below


def test_ruins_spare_vp_from_abilities_and_other_bases():
    # Factory 436-1337 (2, 2, 1): its winner's bonus VP come from its ability, not its place.
    s = toll_game("Great Wyrm", base="Factory 436-1337")
    s.minion(0, "Supreme Overlord", owner=1)
    s.minion(0, "Supreme Overlord", owner=1)  # seat 1: 22
    s.minion(1, "Collector", owner=1)
    s.base_action(1, "Ruins", owner=0)  # on the Oasis: nothing to do with the Factory
    s.hand(0, "Imperial Dragon")
    game = s.build()
    play(game, "Imperial Dragon", base="Factory 436-1337")  # 30 of 25
    # Seat 1: 2 - 1 for first place, + 4 for 22 power; seat 0: 2 for second.
    assert (game.players[0].vp, game.players[1].vp) == (2, 5)


def test_a_cancelled_great_wyrm_takes_no_vp():
    # WWWT "Cancel": a cancelled ability is as if it did not exist, the toll at scoring too.
    for cancel in ("Cuddle", "My Only Weakness!"):
        s = toll_game()
        s.minion(0, "Great Wyrm", owner=0, attached=[(cancel, 1)])
        s.hand(0, "Imperial Dragon")
        game = s.build()
        play(game, "Imperial Dragon", base="The Mothership")
        assert (game.players[0].vp, game.players[1].vp) == (2, 4), cancel


def test_a_cancelled_great_wyrm_took_its_vp_in_resolution_2_records():
    s = toll_game()
    s.minion(0, "Great Wyrm", owner=0, attached=[("Cuddle", 1)])
    s.hand(0, "Imperial Dragon")
    game = s.build()
    game.resolution = 2  # a record made before issue 24 replays as it was played
    play(game, "Imperial Dragon", base="The Mothership")
    assert (game.players[0].vp, game.players[1].vp) == (2, 3)
