"""Every card of the Dinosaurs (Core Set), played through the engine.

Each test builds a position with `Scenario`, plays the card with the testing helpers and checks the
exact effect: the zone every card ends in, power, breakpoints, VP and the events announced. The
rulings come from the catalog (smashup/cards/catalog/core.yaml, Dinosaurs: the current errata and
AEG's notes) and the rulebooks (WWWT "Affect", "Terms"; a "may" is optional, anything else is
mandatory; power and breakpoints never go below 0).

Seat 1 always keeps a card it can play, so that when seat 0's turn ends the game stops at seat 1's
Play Cards decision; seat 0 has cards in its deck, so that its draw never reshuffles its discard
pile into its deck.
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
from smashup.engine.testing import log_texts as log

from .deep_scene import deep_game, deep_may_destroy_the_invader
from .quiet_scene import quiet_scene

PLAYERS = [("Dinosaurs", "Robots"), ("Ninjas", "Aliens")]
DECK_FILLER = "Tech Center"  # seat 0's next draws
OASIS, FACTORY, SHIP = 0, 1, 2  # bases without an ability that interferes


def scenario(bases=("Jungle Oasis", "Factory 436-1337", "The Mothership")):
    return quiet_scene(PLAYERS, bases, [DECK_FILLER] * 4)


def kinds_for(events, cid) -> list[str]:
    return [e.kind for e in events if e.card == cid]


def option_cards(game) -> set[int]:
    return {o.card for o in game.pending.options if o.card is not None}


def at(game, seat, kind) -> bool:
    return game.pending is not None and (game.pending.seat, game.pending.kind) == (seat, kind)


def to_next_turn_of(game, seat):
    """End Play Cards phases until `seat`'s next Play Cards decision."""
    end_play(game)
    while not at(game, seat, "play"):
        end_play(game)


# ====================================================================== the deck =============


def test_the_dinosaur_deck_matches_the_catalog():
    expected = {
        "King Rex": (MINION, 7, 1), "Laseratops": (MINION, 4, 2), "Armor Stego": (MINION, 3, 3),
        "War Raptor": (MINION, 2, 4),
        "Augmentation": (ACTION, 0, 2), "Howl": (ACTION, 0, 2), "Natural Selection": (ACTION, 0, 1),
        "Rampage": (ACTION, 0, 1), "Survival of the Fittest": (ACTION, 0, 1),
        "Tooth and Claw... and Guns": (ACTION, 0, 1), "Upgrade": (ACTION, 0, 1),
        "Wildlife Preserve": (ACTION, 0, 1),
    }
    dinos = REGISTRY.faction("Dinosaurs")
    assert {c.name: (c.kind, c.power, c.copies) for c in dinos.cards} == expected
    assert len(dinos.deck()) == 20
    assert {c.name: c.attach for c in dinos.cards if c.attach} == {
        "Tooth and Claw... and Guns": "minion", "Upgrade": "minion", "Wildlife Preserve": "base"}
    assert all(c.text for c in dinos.cards)


# ====================================================================== King Rex =============


def test_king_rex_has_7_power_and_no_ability():
    s = scenario()
    s.hand(0, "King Rex", "Howl")
    game = s.build()
    events = record_events(game)
    play(game, "King Rex", base="Jungle Oasis")
    rex = card(game, "King Rex")
    assert game.power(rex) == 7
    assert [e.kind for e in events] == ["minion_played"]
    assert at(game, 0, "play")


# ====================================================================== Laseratops ===========


def laseratops_game():
    s = scenario()
    s.minion(OASIS, "Collector", owner=1)  # printed 2: yes
    s.minion(OASIS, "Collector", owner=1)  # alike: one option for both
    s.minion(OASIS, "Zapbot", owner=0, attached=[("Upgrade", 0)])  # printed 2, now 4: yes
    s.minion(OASIS, "Invader", owner=1, attached=[("Poison", 1)])  # printed 3, now 0: no
    s.minion(FACTORY, "Ninja Acolyte", owner=1)  # printed 2 but elsewhere: no
    s.hand(0, "Laseratops", "Howl")
    return s.build()


def test_laseratops_may_destroy_a_minion_of_printed_power_2_or_less_on_its_base():
    game = laseratops_game()
    collectors = find_cards(game, "Collector")
    zapbot = card(game, "Zapbot")
    play(game, "Laseratops", base="Jungle Oasis")
    d = game.pending
    assert (d.seat, d.kind, d.min_count) == (0, "target", 0)
    # Printed power, any controller, this base only; the two alike Collectors are one option.
    assert option_cards(game) == {collectors[0], zapbot}
    assert len(set(labels(game))) == len(labels(game))
    events = record_events(game)
    choose(game, collectors[0])
    assert game.loc[collectors[0]] == ("discard", 1)
    assert kinds_for(events, collectors[0]) == ["destroyed"]
    assert "Collector is destroyed (Laseratops)." in log(game)


def test_laseratops_refuses_a_minion_of_printed_power_3_and_may_decline():
    game = laseratops_game()
    invader = card(game, "Invader")
    acolyte = card(game, "Ninja Acolyte", "minion")
    play(game, "Laseratops", base="Jungle Oasis")
    assert_refused(game, [f"m{invader}"])
    assert_refused(game, [f"m{acolyte}"])
    events = record_events(game)
    decline(game)
    assert [e.kind for e in events] == ["minion_played"]
    assert len(game.minion_state) == 6


def test_laseratops_can_destroy_its_controllers_own_minion():
    game = laseratops_game()
    zapbot = card(game, "Zapbot")
    upgrade = card(game, "Upgrade")
    play(game, "Laseratops", base="Jungle Oasis")
    choose(game, zapbot)
    assert game.loc[zapbot] == ("discard", 0)
    assert game.loc[upgrade] == ("discard", 0)


# ====================================================================== Armor Stego ==========


def stego_game(talent=True):
    s = scenario()
    s.minion(OASIS, "Armor Stego", owner=0)
    s.hand(0, "Howl")
    game = s.build()
    stego = card(game, "Armor Stego")
    if talent:
        choose(game, f"t{stego}")
    return game, stego


def test_armor_stego_talent_gives_2_power_only_during_other_players_turns():
    game, stego = stego_game()
    assert game.power(stego) == 3  # not during your own turn
    assert f"t{stego}" not in [o.id for o in game.pending.options]  # once per turn
    end_play(game)
    assert game.current == 1
    assert game.power(stego) == 5
    assert game.total_power(game.bases[OASIS]) == 5
    to_next_turn_of(game, 0)
    # Until the start of your next turn: it is gone, to be renewed with the talent.
    assert game.power(stego) == 3
    assert game.lasting == []
    assert f"t{stego}" in [o.id for o in game.pending.options]


def test_armor_stego_without_its_talent_has_no_bonus():
    # Current errata: a talent, not an ongoing bonus (catalog note).
    game, stego = stego_game(talent=False)
    end_play(game)
    assert game.current == 1
    assert game.power(stego) == 3


def test_armor_stego_bonus_ends_when_it_leaves_play():
    s = scenario()
    s.minion(OASIS, "Armor Stego", owner=0)
    s.hand(0, "Howl")
    s.hand(1, "Beam Up")
    game = s.build()
    stego = card(game, "Armor Stego")
    choose(game, f"t{stego}")
    end_play(game)
    assert [e.target for e in game.lasting] == [stego]
    play(game, "Beam Up")  # the Stego is the only minion
    assert game.loc[stego] == ("hand", 0)
    assert game.lasting == []
    assert game.power(stego) == 3


# ====================================================================== War Raptor ===========


def test_war_raptor_gets_1_power_for_each_war_raptor_on_its_base():
    s = scenario()
    s.minion(OASIS, "War Raptor", owner=0)
    s.minion(OASIS, "War Raptor", owner=1)  # another player's counts too
    s.minion(FACTORY, "War Raptor", owner=0)
    s.hand(0, "War Raptor", "Howl")
    game = s.build()
    here = [m for m in find_cards(game, "War Raptor", "minion") if game.base_of(m) == game.bases[0].uid]
    alone = card(game, "War Raptor", "minion", 2)
    in_hand = card(game, "War Raptor", "hand")
    assert [game.power(m) for m in here] == [4, 4]
    assert game.power(alone) == 3
    assert game.power(in_hand) == 2  # only in play (AEG)
    play(game, "War Raptor", base="Jungle Oasis")
    assert [game.power(m) for m in here + [in_hand]] == [5, 5, 5]
    assert game.power(alone) == 3


# ====================================================================== Augmentation =========


def test_augmentation_gives_any_minion_4_power_until_the_end_of_your_turn():
    s = scenario()
    s.minion(OASIS, "Invader", owner=1)
    s.minion(FACTORY, "War Raptor", owner=0)
    s.hand(0, "Augmentation", "King Rex")
    game = s.build()
    invader, raptor = card(game, "Invader"), card(game, "War Raptor")
    play(game, "Augmentation")
    assert game.pending.kind == "target" and not game.pending.may_decline
    assert option_cards(game) == {invader, raptor}  # any controller
    events = record_events(game)
    choose(game, invader)
    assert game.power(invader) == 7
    assert [e.kind for e in events] == ["power_changed", "action_played"]
    # "Until the end of your turn": the end of seat 0's turn (AEG: played on another player's
    # turn, that is the end of seat 0's next turn; core.Lasting.ends).
    assert [e.ends for e in game.lasting] == [("turn_end", 0)]
    end_play(game)
    assert game.current == 1 and game.power(invader) == 3
    assert game.lasting == []


def test_augmentation_cannot_target_a_minion_protected_from_your_actions():
    s = scenario()
    s.minion(OASIS, "Invader", owner=1, attached=[("Smoke Bomb", 1)])
    s.minion(OASIS, "Scout", owner=1)
    s.hand(0, "Augmentation", "King Rex")
    game = s.build()
    invader, scout = card(game, "Invader"), card(game, "Scout")
    play(game, "Augmentation")  # the Scout is the only legal target: no question
    assert game.power(scout) == 7
    assert game.power(invader) == 3


def test_augmentation_with_alike_targets_offers_one_option_for_them():
    s = scenario()
    s.minion(OASIS, "Invader", owner=1)
    s.minion(OASIS, "Invader", owner=1)
    s.minion(FACTORY, "Invader", owner=1)
    s.hand(0, "Augmentation", "King Rex")
    game = s.build()
    invaders = find_cards(game, "Invader")
    play(game, "Augmentation")
    assert option_cards(game) == {invaders[0], invaders[2]}
    assert len(set(labels(game))) == 2
    assert_refused(game, [f"m{invaders[1]}"])


# ====================================================================== Howl =================


def test_howl_gives_each_of_your_minions_in_play_1_power_until_the_end_of_your_turn():
    s = scenario()
    s.minion(OASIS, "War Raptor", owner=0)
    s.minion(FACTORY, "King Rex", owner=0)
    s.minion(OASIS, "Invader", owner=1)
    s.minion(OASIS, "Scout", owner=1, controller=0)  # yours by control
    s.minion(SHIP, "Armor Stego", owner=0)  # its talent keeps the phase open
    s.hand(0, "Howl", "Laseratops")
    game = s.build()
    raptor, rex = card(game, "War Raptor"), card(game, "King Rex")
    invader, scout = card(game, "Invader"), card(game, "Scout")
    events = record_events(game)
    play(game, "Howl")
    assert [game.power(m) for m in (raptor, rex, invader, scout)] == [4, 8, 3, 4]
    assert [e.kind for e in events].count("power_changed") == 4  # the Stego too
    play(game, "Laseratops", base="Factory 436-1337")  # nothing of printed power 2 there
    # Minions played later are not affected (catalog).
    assert game.power(card(game, "Laseratops")) == 4
    assert all(e.ends == ("turn_end", 0) for e in game.lasting)
    end_play(game)
    assert game.current == 1
    assert [game.power(m) for m in (raptor, rex, scout)] == [3, 7, 3]


# ====================================================================== Natural Selection ====


def selection_game():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=0)  # 7
    s.minion(OASIS, "Invader", owner=1)  # 3: prey
    s.minion(OASIS, "Warbot", owner=1)  # 4 but cannot be destroyed: never prey
    s.minion(OASIS, "War Raptor", owner=0)  # 3, mine: prey of the Rex too
    s.minion(OASIS, "Scout", owner=1)  # 3 like the Raptor: not its prey
    s.minion(FACTORY, "Collector", owner=0)  # 2, nothing weaker there: no hunter
    s.minion(FACTORY, "Ninja Acolyte", owner=1)  # 2
    s.minion(SHIP, "Laseratops", owner=0)  # 4
    s.minion(SHIP, "Invader", owner=1)  # 3: its prey
    s.hand(0, "Natural Selection", "King Rex")
    return s.build()


def test_natural_selection_destroys_a_weaker_minion_on_the_chosen_minions_base():
    game = selection_game()
    rex, raptor = card(game, "King Rex", "minion"), card(game, "War Raptor")
    invader, scout = card(game, "Invader", "minion"), card(game, "Scout")
    play(game, "Natural Selection")
    # Only minions of yours with some prey there: not the Collector.
    assert option_cards(game) == {rex, card(game, "Laseratops")}
    assert not game.pending.may_decline
    assert_refused(game, [f"m{card(game, 'Collector')}"])
    choose(game, rex)
    assert option_cards(game) == {invader, raptor, scout}  # any controller, yours included
    events = record_events(game)
    choose(game, invader)
    assert game.loc[invader] == ("discard", 1)
    assert kinds_for(events, invader) == ["destroyed"]
    assert game.loc[card(game, "Warbot")][0] == "minion"


def test_natural_selection_refuses_a_minion_that_is_not_weaker():
    game = selection_game()
    rex = card(game, "King Rex", "minion")
    play(game, "Natural Selection")
    choose(game, rex)
    assert_refused(game, [f"m{card(game, 'Warbot')}"])
    assert_refused(game, [f"m{card(game, 'Ninja Acolyte')}"])
    assert_refused(game, [])


def test_natural_selection_without_a_hunter_does_nothing():
    s = scenario()
    s.minion(OASIS, "War Raptor", owner=0)  # 3
    s.minion(OASIS, "Invader", owner=1)  # 3
    s.hand(0, "Natural Selection", "King Rex")
    game = s.build()
    events = record_events(game)
    play(game, "Natural Selection")
    assert at(game, 0, "play")
    assert [e.kind for e in events] == ["action_played"]
    assert game.loc[card(game, "Natural Selection")] == ("discard", 0)


# ====================================================================== Rampage ==============


def test_rampage_lowers_the_breakpoint_by_the_minions_power_and_the_base_scores():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=0)  # 7
    s.minion(OASIS, "Invader", owner=1)  # 3: 10 of 12
    s.minion(FACTORY, "War Raptor", owner=0)
    s.hand(0, "Rampage", "Laseratops")
    game = s.build()
    rex = card(game, "King Rex")
    play(game, "Rampage")
    assert option_cards(game) == {rex, card(game, "War Raptor")}  # only yours, on any base
    assert_refused(game, [f"m{card(game, 'Invader')}"])
    choose(game, rex)
    oasis = game.bases[OASIS]
    assert game.breakpoint(oasis) == 5
    assert game.view(1)["bases"][OASIS]["breakpoint"] == 5
    assert "Jungle Oasis's breakpoint is now 5 (Rampage)." in log(game)
    end_play(game)
    assert game.players[0].vp == 2  # Jungle Oasis scored: 2 VP to the winner


def test_rampage_amount_is_fixed_when_played_and_ends_with_the_turn():
    s = scenario()
    s.minion(OASIS, "War Raptor", owner=0)  # 3 alone
    s.minion(SHIP, "Armor Stego", owner=0)  # its talent keeps the phase open
    s.hand(0, "Rampage", "War Raptor")
    game = s.build()
    raptor = card(game, "War Raptor", "minion")
    play(game, "Rampage")
    choose(game, raptor)
    assert game.breakpoint(game.bases[OASIS]) == 9
    play(game, "War Raptor", base="Jungle Oasis")
    assert game.power(raptor) == 4
    assert game.breakpoint(game.bases[OASIS]) == 9  # AEG: later power changes do not alter it
    end_play(game)
    assert game.current == 1
    assert game.breakpoint(game.bases[OASIS]) == 12


# ====================================================================== Survival of the Fittest


def test_survival_destroys_one_weakest_minion_on_each_base_with_a_stronger_one():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(OASIS, "Collector", owner=1)  # 2: weakest
    s.minion(OASIS, "Collector", owner=0)  # 2: weakest too, yours: you choose
    s.minion(FACTORY, "Invader", owner=1)
    s.minion(FACTORY, "Scout", owner=1)  # all equal: nothing here
    s.minion(SHIP, "War Raptor", owner=0)  # 3, yours: destroyed (hits you too)
    s.minion(SHIP, "Laseratops", owner=1)
    s.hand(0, "Survival of the Fittest", "King Rex")
    game = s.build()
    theirs = card(game, "Collector", "minion", 0)
    mine = card(game, "Collector", "minion", 1)
    raptor = card(game, "War Raptor")
    play(game, "Survival of the Fittest")
    assert game.pending.kind == "target" and not game.pending.may_decline
    assert option_cards(game) == {theirs, mine}
    assert "Jungle Oasis" in game.pending.prompt
    assert_refused(game, [f"m{card(game, 'King Rex', 'minion')}"])  # not a weakest one
    assert_refused(game, [])  # mandatory
    events = record_events(game)
    choose(game, theirs)
    assert game.loc[theirs] == ("discard", 1)
    assert game.loc[mine][0] == "minion"
    assert game.loc[raptor] == ("discard", 0)  # one weakest: no question
    assert [e.kind for e in events] == ["destroyed", "destroyed", "action_played"]
    assert {game.loc[c][0] for c in (card(game, "Invader"), card(game, "Scout"))} == {"minion"}


def test_survival_skips_a_weakest_minion_that_cannot_be_destroyed():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(OASIS, "Warbot", owner=1)  # 4: the weakest, but cannot be destroyed
    s.minion(FACTORY, "Laseratops", owner=0)
    s.minion(FACTORY, "Invader", owner=1, attached=[("Smoke Bomb", 1)])  # not affected
    s.hand(0, "Survival of the Fittest", "King Rex")
    game = s.build()
    events = record_events(game)
    play(game, "Survival of the Fittest")
    assert [e.kind for e in events] == ["action_played"]
    assert len(game.minion_state) == 4


# ====================================================================== Tooth and Claw =======


def test_tooth_and_claw_keeps_other_players_cards_away_from_its_host():
    s = scenario()
    s.minion(OASIS, "War Raptor", owner=0)
    s.minion(OASIS, "Invader", owner=1)
    s.hand(0, "Tooth and Claw... and Guns", "Howl")
    s.hand(1, "Ninja Master", "Poison")
    game = s.build()
    raptor, invader = card(game, "War Raptor"), card(game, "Invader")
    claws = card(game, "Tooth and Claw... and Guns")
    play(game, "Tooth and Claw... and Guns")
    assert option_cards(game) == {raptor, invader}  # any minion
    choose(game, raptor)
    assert game.loc[claws] == ("attached", raptor)
    assert at(game, 1, "play")
    # Seat 1's minion (Ninja Master) and action (Poison) cannot reach the Raptor.
    play(game, "Ninja Master", base="Jungle Oasis")
    master = card(game, "Ninja Master")
    assert option_cards(game) == {invader, master}
    assert_refused(game, [f"m{raptor}"])
    decline(game)
    play(game, "Poison")
    assert option_cards(game) == {invader, master}
    choose(game, invader)
    assert game.loc[raptor][0] == "minion" and game.loc[claws] == ("attached", raptor)
    assert game.power(raptor) == 3


def test_tooth_and_claw_lets_your_own_cards_affect_its_host():
    s = scenario()
    s.minion(OASIS, "War Raptor", owner=0, attached=[("Tooth and Claw... and Guns", 0)])
    s.hand(0, "Howl", "King Rex")
    game = s.build()
    play(game, "Howl")
    assert game.power(card(game, "War Raptor")) == 4


def test_tooth_and_claw_does_not_stop_a_base():
    s = scenario(bases=("The Central Brain", "Jungle Oasis"))
    s.minion(0, "War Raptor", owner=0, attached=[("Tooth and Claw... and Guns", 0)])
    s.hand(0, "Howl")
    game = s.build()
    assert game.power(card(game, "War Raptor")) == 4  # 3 + The Central Brain's +1


def test_tooth_and_claw_on_another_players_minion_guards_it_from_its_own_controller():
    # "Other players" are those other than the controller of Tooth and Claw (catalog wording).
    s = scenario()
    s.minion(OASIS, "Invader", owner=1, attached=[("Tooth and Claw... and Guns", 0)])
    s.minion(OASIS, "King Rex", owner=0)
    s.hand(0, "Augmentation", "Howl")
    game = s.build()
    invader = card(game, "Invader")
    play(game, "Augmentation")
    assert invader in option_cards(game)


# ====================================================================== Upgrade ==============


def test_upgrade_gives_its_host_2_power_while_attached():
    s = scenario()
    s.minion(OASIS, "Invader", owner=1)
    s.minion(OASIS, "War Raptor", owner=0)
    s.minion(FACTORY, "Scout", owner=1, attached=[("Smoke Bomb", 1)])
    s.hand(0, "Upgrade", "Howl")
    s.hand(1, "Beam Up")
    game = s.build()
    raptor = card(game, "War Raptor")
    upgrade = card(game, "Upgrade")
    play(game, "Upgrade")
    assert game.pending.prompt == "Attach Upgrade to which minion?"
    assert option_cards(game) == {raptor, card(game, "Invader")}
    assert_refused(game, [f"m{card(game, 'Scout')}"])  # Smoke Bomb: not affected by your actions
    choose(game, raptor)
    assert game.loc[upgrade] == ("attached", raptor)
    assert at(game, 1, "play")
    assert game.power(raptor) == 5
    play(game, "Beam Up")
    choose(game, raptor)
    assert game.loc[raptor] == ("hand", 0) and game.loc[upgrade] == ("discard", 0)
    assert game.power(raptor) == 2


# ====================================================================== Wildlife Preserve ====


def preserve_game():
    s = scenario()
    s.minion(OASIS, "War Raptor", owner=0, attached=[("Poison", 1), ("Upgrade", 0)])
    s.minion(OASIS, "Invader", owner=1, attached=[("Poison", 1)])  # not yours: stays
    s.minion(FACTORY, "King Rex", owner=0, attached=[("Poison", 1)])  # elsewhere: stays
    s.hand(0, "Wildlife Preserve", "Howl")
    s.hand(1, "Seeing Stars", "Ninja Master", "Assassination")
    return s.build()


def test_wildlife_preserve_discards_other_players_actions_on_your_minions_there():
    game = preserve_game()
    raptor, rex, invader = card(game, "War Raptor"), card(game, "King Rex"), card(game, "Invader")
    poisons = find_cards(game, "Poison")
    upgrade = card(game, "Upgrade")
    assert game.power(raptor) == 1
    play(game, "Wildlife Preserve")
    assert game.pending.prompt == "Play Wildlife Preserve on which base?"
    events = record_events(game)
    choose(game, "Jungle Oasis")
    on_raptor = poisons[0]
    assert game.loc[on_raptor] == ("discard", 1)
    assert kinds_for(events, on_raptor) == ["discarded"]  # discarded, not destroyed (AEG)
    assert game.loc[upgrade] == ("attached", raptor)  # yours stays
    assert game.power(raptor) == 5
    assert game.loc[poisons[1]] == ("attached", invader)
    assert game.loc[poisons[2]] == ("attached", rex)
    assert game.power(rex) == 3


def test_wildlife_preserve_keeps_other_players_actions_away_but_not_their_minions():
    game = preserve_game()
    raptor, invader = card(game, "War Raptor"), card(game, "Invader")
    play(game, "Wildlife Preserve")
    choose(game, "Jungle Oasis")
    assert at(game, 1, "play")
    # Assassination (an action) cannot be played on the Raptor; only the Invader is a host.
    play(game, "Assassination")
    assert option_cards(game) == {invader, card(game, "King Rex")}
    assert_refused(game, [f"m{raptor}"])
    choose(game, invader)
    # A minion's ability is not an action: Ninja Master may destroy the Raptor.
    play(game, "Ninja Master", base="Jungle Oasis")
    assert raptor in option_cards(game)
    choose(game, raptor)
    assert game.loc[raptor] == ("discard", 0)


# ====================================================================== by cards / by players =
# Issue 24, mechanism 3: a protection "by cards other players control" does not stop a base's
# ability, even one a player performs (The Deep: "that player may destroy"); one "by other
# players" does. King Rex (7) played on The Deep: seat 0 may destroy seat 1's Invader (3) there.


def test_tooth_and_claw_does_not_stop_a_base_ability_a_player_performs():
    assert deep_may_destroy_the_invader(
        deep_game(PLAYERS, minion_attached=[("Tooth and Claw... and Guns", 1)]))
