"""Every card of the Aliens (Core Set), played through the engine.

Each test builds a position with `Scenario`, plays the card with the testing helpers and checks the
exact effect: the zone every card ends in, VP, power, and the kind of event the engine announced
(return, destroy, place, move and discard are different events that different cards react to).
The rulings come from the catalog (shared/cards/core.yaml, Aliens and the Core bases) and the
rulebooks (WWWT "Return": attached actions are discarded; "You can play a card even if its
ability can't happen"; a "may" is optional, anything else is mandatory).

Seat 1 always keeps a card it can play, so that when seat 0's turn ends the game stops at seat 1's
Play Cards decision instead of running on; seat 0 has two cards in its deck, so that its draw at the
end of the turn does not shuffle its discard pile back into its deck.
"""
from __future__ import annotations

import pytest

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import ACTION, MINION, REGISTRY, Scenario, replay
from smashup.engine.testing import (
    assert_refused,
    base_uid,
    card,
    choose,
    decline,
    end_play,
    labels,
    play,
    record_events,
)

ALIENS_NINJAS = [("Aliens", "Ninjas"), ("Pirates", "Robots")]
FILLER = "Ninja Acolyte"  # a card seat 1 holds so the game waits on its turn
DECK_FILLER = "Way of Deception"  # seat 0's next draw


def scenario(players=ALIENS_NINJAS, bases=("The Mothership", "Ninja Dojo")):
    """A scenario in seat 0's Play Cards phase, with `bases` in play (index = position)."""
    s = Scenario(players)
    for name in bases:
        s.base(name)
    for seat in range(1, len(players)):
        s.hand(seat, FILLER)
    s.deck(0, DECK_FILLER, DECK_FILLER)
    return s


def kinds_for(events, cid) -> list[str]:
    return [e.kind for e in events if e.card == cid]


def zone(game, cid) -> tuple:
    return game.loc[cid]


def option_cards(game) -> set[int]:
    return {o.card for o in game.pending.options if o.card is not None}


# ====================================================================== the deck =============


def test_the_alien_deck_matches_the_catalog():
    # shared/cards/core.yaml, Aliens: name, type, power, copies.
    expected = {
        "Supreme Overlord": (MINION, 5, 1), "Invader": (MINION, 3, 2), "Scout": (MINION, 3, 3),
        "Collector": (MINION, 2, 4),
        "Abduction": (ACTION, 0, 1), "Beam Up": (ACTION, 0, 2), "Crop Circles": (ACTION, 0, 1),
        "Disintegrator": (ACTION, 0, 2), "Invasion": (ACTION, 0, 1),
        "Jammed Signal": (ACTION, 0, 1), "Probe": (ACTION, 0, 1), "Terraforming": (ACTION, 0, 1),
    }
    aliens = REGISTRY.faction("Aliens")
    assert {c.name: (c.kind, c.power, c.copies) for c in aliens.cards} == expected
    assert len(aliens.deck()) == 20
    assert sum(c.power * c.copies for c in aliens.cards if c.is_minion) == 28  # the catalog's check
    # Only Jammed Signal stays in play, on a base, and it cancels that base's abilities.
    assert {c.name: c.attach for c in aliens.cards if c.attach} == {"Jammed Signal": "base"}
    assert [c.name for c in aliens.cards if c.cancels_base] == ["Jammed Signal"]
    assert [c.name for c in aliens.cards if c.is_special_only] == []


# ====================================================================== Supreme Overlord =====


def overlord_game():
    s = scenario()
    s.minion(0, "Invader", owner=1)
    s.minion(1, "Scout", owner=0)
    s.hand(0, "Supreme Overlord", "Beam Up")
    return s.build()


def test_overlord_may_return_any_minion_on_any_base_to_its_owners_hand():
    game = overlord_game()
    invader, scout = card(game, "Invader"), card(game, "Scout")
    play(game, "Supreme Overlord", base="Ninja Dojo")
    overlord = card(game, "Supreme Overlord")
    assert game.pending.kind == "target" and game.pending.may_decline
    # Any base, any controller, itself included.
    assert option_cards(game) == {invader, scout, overlord}
    events = record_events(game)
    choose(game, invader)
    assert zone(game, invader) == ("hand", 1)
    assert kinds_for(events, invader) == ["returned"]
    assert zone(game, overlord) == ("minion", base_uid(game, "Ninja Dojo"))
    assert game.players[1].vp == 0  # returning is not playing: no Invader VP


def test_overlord_may_return_itself():
    game = overlord_game()
    play(game, "Supreme Overlord", base="Ninja Dojo")
    overlord = card(game, "Supreme Overlord")
    events = record_events(game)
    choose(game, overlord)
    assert zone(game, overlord) == ("hand", 0)
    # It was still played (the play is announced once its on-play ability is done).
    assert kinds_for(events, overlord) == ["returned", "minion_played"]
    assert "Supreme Overlord returns to P0's hand (Supreme Overlord)." in [t for t, _ in game.log_lines]


def test_overlord_may_decline():
    game = overlord_game()
    invader, scout = card(game, "Invader"), card(game, "Scout")
    play(game, "Supreme Overlord", base="Ninja Dojo")
    overlord = card(game, "Supreme Overlord")
    events = record_events(game)
    decline(game)
    assert zone(game, invader) == ("minion", base_uid(game, "The Mothership"))
    assert zone(game, scout) == ("minion", base_uid(game, "Ninja Dojo"))
    assert zone(game, overlord) == ("minion", base_uid(game, "Ninja Dojo"))
    assert [e.kind for e in events] == ["minion_played"]


# ====================================================================== Invader ==============


def test_invader_gains_1_vp_and_keeps_it_after_leaving_play():
    s = scenario()
    s.vp(0, 4)
    s.hand(0, "Invader", "Beam Up")
    game = s.build()
    invader = card(game, "Invader")
    play(game, "Invader", base="The Mothership")
    assert game.players[0].vp == 5
    assert game.players[1].vp == 0
    assert "P0 gains 1 VP (Invader)." in [t for t, _ in game.log_lines]
    play(game, "Beam Up")  # the only minion in play: returned without a question
    assert zone(game, invader) == ("hand", 0)
    assert game.players[0].vp == 5


def test_a_returned_invader_played_again_gains_again():
    s = scenario()
    s.hand(0, "Invader", "Abduction")
    game = s.build()
    invader = card(game, "Invader")
    play(game, "Invader", base="The Mothership")
    play(game, "Abduction")  # returns the Invader (only target), grants an extra minion
    assert zone(game, invader) == ("hand", 0)
    assert game.players[0].vp == 1
    play(game, "Invader", base="Ninja Dojo")
    assert zone(game, invader) == ("minion", base_uid(game, "Ninja Dojo"))
    assert game.players[0].vp == 2


def test_invader_reaching_15_vp_wins_only_at_the_end_of_the_turn():
    # CR Phase 5: the end of the game is checked only at the end of a turn.
    s = scenario()
    s.vp(0, 14)
    s.hand(0, "Invader", "Beam Up")
    game = s.build()
    play(game, "Invader", base="The Mothership")
    assert game.players[0].vp == 15
    assert game.winner is None and game.pending.seat == 0 and game.pending.kind == "play"
    end_play(game)
    assert game.winner == 0 and game.over


def test_invader_moved_is_not_played_and_gains_nothing():
    s = scenario()
    s.minion(0, "Invader", owner=0)
    s.hand(0, "Invasion")
    game = s.build()
    invader = card(game, "Invader")
    play(game, "Invasion")  # the Invader is the only minion, the Dojo the only other base
    assert zone(game, invader) == ("minion", base_uid(game, "Ninja Dojo"))
    assert game.players[0].vp == 0


# ====================================================================== Scout ================


def scout_game(scout_base=1, scout_owner=0):
    """Ninja Dojo (index 1, breakpoint 18) is over its breakpoint: it scores when seat 0 ends
    the Play Cards phase. Seat 0 wins it (13 power against 7). Seat 0 controls the Scout."""
    s = scenario()
    s.minion(scout_base, "Scout", owner=scout_owner, controller=0)
    s.minion(1, "Ninja Master", owner=0)
    s.minion(1, "Supreme Overlord", owner=0)
    s.minion(1, "Tiger Assassin", owner=1)
    s.minion(1, "Invader", owner=1)
    if scout_base != 1:
        s.minion(1, "Collector", owner=0)
        s.minion(1, "Shinobi", owner=0)
    s.base_deck("Temple of Goju")
    s.hand(0, "Beam Up")  # keeps seat 0's Play Cards decision open
    return s.build()


def score_dojo_to_scout_question(game):
    end_play(game)
    # Scout's ability and the Dojo's happen in the same step: seat 0 orders them.
    assert game.pending.kind == "order"
    assert sorted(labels(game)) == ["Ninja Dojo", "Scout"]
    choose(game, "Scout")
    assert game.pending.kind == "confirm" and game.pending.seat == 0


def test_scout_may_go_to_hand_after_its_base_scores():
    game = scout_game()
    scout = card(game, "Scout")
    score_dojo_to_scout_question(game)
    choose(game, "yes")
    decline(game)  # Ninja Dojo: the winner may destroy a minion
    assert zone(game, scout) == ("hand", 0)
    for name in ("Ninja Master", "Supreme Overlord"):
        assert zone(game, card(game, name)) == ("discard", 0)
    for name in ("Tiger Assassin", "Invader"):
        assert zone(game, card(game, name)) == ("discard", 1)
    assert [p.vp for p in game.players] == [2, 3]  # Dojo pays 2 / 3 / 2
    assert game.name(game.bases[1].card) == "Temple of Goju"


def test_scout_declined_goes_to_the_discard_pile():
    game = scout_game()
    scout = card(game, "Scout")
    score_dojo_to_scout_question(game)
    choose(game, "no")
    decline(game)
    assert zone(game, scout) == ("discard", 0)


def test_scout_controlled_by_another_player_goes_to_its_owners_hand():
    # The controller ("you") decides; a card always goes to its owner's hand (WWWT, "owner").
    game = scout_game(scout_owner=1)
    scout = card(game, "Scout")
    score_dojo_to_scout_question(game)
    choose(game, "yes")
    decline(game)
    assert zone(game, scout) == ("hand", 1)


def goju_scout_game():
    """Temple of Goju (breakpoint 18) scores; seat 0's only minion there is a Scout, so Goju
    sends that Scout to the bottom of its deck "instead of the discard pile"."""
    s = scenario(bases=("Temple of Goju", "Ninja Dojo"))
    s.minion(0, "Scout", owner=0)
    for name in ("Ninja Master", "Tiger Assassin", "Collector", "Invader", "Shinobi"):
        s.minion(0, name, owner=1)
    s.base_deck("The Mothership")
    s.hand(0, "Beam Up")
    return s.build()


def test_scout_is_not_offered_once_temple_of_goju_has_sent_it_to_the_deck():
    # Our reading: the first "instead" that resolves wins; the Scout is no longer headed for
    # the discard pile, so its ability has nothing to replace and is not offered.
    game = goju_scout_game()
    scout = card(game, "Scout")
    end_play(game)
    assert sorted(labels(game)) == ["Scout", "Temple of Goju"]
    choose(game, "Temple of Goju")  # seat 0 orders; seat 1's strongest is forced, seat 0's too
    assert game.pending.seat == 1 and game.pending.kind == "play"  # no Scout question
    assert game.players[0].deck[-1] == scout


def test_scout_sent_to_hand_first_is_not_overridden_by_temple_of_goju():
    game = goju_scout_game()
    scout = card(game, "Scout")
    end_play(game)
    choose(game, "Scout")
    assert game.pending.kind == "confirm"
    choose(game, "yes")
    assert zone(game, scout) == ("hand", 0)


def test_scout_is_not_offered_when_another_base_scores():
    game = scout_game(scout_base=0)  # the Scout is on the Mothership, the Dojo scores
    scout = card(game, "Scout")
    mothership = base_uid(game, "The Mothership")
    end_play(game)
    # Only the Dojo's own ability: its winner may destroy a minion (the Scout among them).
    assert game.pending.kind == "target" and game.pending.source == card(game, "Ninja Dojo")
    decline(game)
    assert zone(game, scout) == ("minion", mothership)
    assert game.pending.seat == 1 and game.pending.kind == "play"  # no question on the Scout


# ====================================================================== Collector ============


def test_collector_returns_a_power_3_or_less_minion_on_its_own_base_only():
    s = scenario()
    s.minion(1, "Invader", owner=1)
    s.minion(1, "Tiger Assassin", owner=1)  # power 4
    s.minion(1, "Ninja Acolyte", owner=1, counters=2)  # 2 + 2 counters = 4
    s.minion(0, "Scout", owner=1)  # power 3 but on another base
    s.hand(0, "Collector")
    game = s.build()
    invader = card(game, "Invader")
    play(game, "Collector", base="Ninja Dojo")
    collector = card(game, "Collector")
    assert game.pending.may_decline
    assert option_cards(game) == {invader, collector}
    assert_refused(game, [f"m{card(game, 'Tiger Assassin')}"])
    assert_refused(game, [f"m{card(game, 'Scout')}"])
    events = record_events(game)
    choose(game, invader)
    assert zone(game, invader) == ("hand", 1)
    assert kinds_for(events, invader) == ["returned"]
    assert zone(game, collector) == ("minion", base_uid(game, "Ninja Dojo"))


def test_collector_may_return_itself_or_another_collector():
    s = scenario()
    s.minion(1, "Collector", owner=1)
    s.hand(0, "Collector")
    game = s.build()
    theirs = card(game, "Collector", "minion")
    mine = card(game, "Collector", "hand")
    play(game, "Collector", base="Ninja Dojo")
    assert option_cards(game) == {theirs, mine}
    choose(game, theirs)
    assert zone(game, theirs) == ("hand", 1)

    game = s.build()
    play(game, "Collector", base="Ninja Dojo")
    choose(game, mine)
    assert zone(game, mine) == ("hand", 0)


def test_collector_uses_current_power_a_poisoned_5_power_minion_qualifies():
    s = scenario()
    s.minion(1, "Ninja Master", owner=1, attached=[("Poison", 0)])  # 5 - 4 = 1
    s.hand(0, "Collector")
    game = s.build()
    master, poison = card(game, "Ninja Master"), card(game, "Poison")
    assert game.power(master) == 1
    play(game, "Collector", base="Ninja Dojo")
    assert master in option_cards(game)
    choose(game, master)
    # Returned to its owner's hand; the attached action goes to ITS owner's discard pile.
    assert zone(game, master) == ("hand", 1)
    assert zone(game, poison) == ("discard", 0)
    assert game.power(master) == 5


def test_collector_returning_itself_on_the_homeworld_loops_only_once_per_turn():
    # Catalog note: the old Collector + Homeworld loop is capped by the Homeworld's errata.
    s = scenario(bases=("The Homeworld", "Ninja Dojo"))
    s.hand(0, "Collector", "Beam Up")
    game = s.build()
    collector = card(game, "Collector")
    play(game, "Collector", base="The Homeworld")
    choose(game, collector)  # returns itself; the Homeworld grants a minion of power 2 or less
    assert zone(game, collector) == ("hand", 0)
    assert [(g.kind, g.max_power) for g in game.turn_state.grants] == [("action", None),
                                                                       ("minion", 2)]
    play(game, "Collector", base="The Homeworld")
    choose(game, collector)
    assert zone(game, collector) == ("hand", 0)
    assert [g.kind for g in game.turn_state.grants] == ["action"]  # no second extra
    assert not any("Collector" in label for label in labels(game))


def test_collector_may_decline():
    s = scenario()
    s.minion(1, "Invader", owner=1)
    s.hand(0, "Collector")
    game = s.build()
    invader = card(game, "Invader")
    play(game, "Collector", base="Ninja Dojo")
    decline(game)
    assert zone(game, invader) == ("minion", base_uid(game, "Ninja Dojo"))
    assert zone(game, card(game, "Collector")) == ("minion", base_uid(game, "Ninja Dojo"))


# ====================================================================== Abduction ============


def test_abduction_returns_a_minion_then_banks_an_extra_minion():
    s = scenario()
    s.minion(0, "Ninja Master", owner=1)
    s.minion(1, "Invader", owner=0)
    s.hand(0, "Abduction", "Scout", "Collector")
    game = s.build()
    master, invader = card(game, "Ninja Master"), card(game, "Invader")
    play(game, "Abduction")
    assert game.pending.kind == "target" and not game.pending.may_decline
    assert option_cards(game) == {master, invader}  # any minion, its own player's included
    assert_refused(game, [])  # not a "may"
    events = record_events(game)
    choose(game, master)
    assert zone(game, master) == ("hand", 1)
    assert kinds_for(events, master) == ["returned"]
    abduction = card(game, "Abduction")
    assert zone(game, abduction) == ("discard", 0)
    # The extra minion is banked for the Play Cards phase, not played at once.
    assert game.pending.kind == "play" and game.pending.seat == 0
    assert [g.kind for g in game.turn_state.grants] == ["minion", "minion"]
    play(game, "Scout", base="Ninja Dojo")
    play(game, "Collector", base="The Mothership")
    decline(game)  # Collector's "may"
    assert zone(game, card(game, "Scout")) == ("minion", base_uid(game, "Ninja Dojo"))
    assert zone(game, card(game, "Collector")) == ("minion", base_uid(game, "The Mothership"))
    assert game.pending.seat == 1  # both minion plays used: seat 0's phase ended by itself


def test_abduction_with_no_minion_in_play_still_grants_the_extra_minion():
    # "You can play a card even if its ability can't happen" (WWWT); the extra is not "to" return.
    s = scenario()
    s.hand(0, "Abduction", "Scout", "Collector")
    s.turn(minions_played=1)
    game = s.build()
    play(game, "Abduction")
    assert zone(game, card(game, "Abduction")) == ("discard", 0)
    assert [g.kind for g in game.turn_state.grants] == ["minion"]
    play(game, "Scout", base="Ninja Dojo")
    assert zone(game, card(game, "Scout")) == ("minion", base_uid(game, "Ninja Dojo"))


# ====================================================================== Beam Up ==============


def test_beam_up_is_mandatory_even_when_only_your_own_minion_is_a_target():
    s = scenario()
    s.minion(1, "Invader", owner=0)
    s.hand(0, "Beam Up", "Scout")
    game = s.build()
    invader = card(game, "Invader")
    events = record_events(game)
    play(game, "Beam Up")
    # One legal target: taken without a question.
    assert game.pending.kind == "play"
    assert zone(game, invader) == ("hand", 0)
    assert kinds_for(events, invader) == ["returned"]
    assert zone(game, card(game, "Beam Up")) == ("discard", 0)


def test_beam_up_cannot_be_declined_and_discards_attachments_to_their_owners():
    s = scenario()
    s.minion(0, "Scout", owner=0, attached=[("Poison", 1)])
    s.minion(1, "Invader", owner=1)
    s.hand(0, "Beam Up", "Collector")
    game = s.build()
    scout, poison = card(game, "Scout"), card(game, "Poison")
    play(game, "Beam Up")
    assert not game.pending.may_decline
    # While it resolves, the action is in no hand, deck or discard pile.
    assert zone(game, card(game, "Beam Up")) == ("resolving",)
    assert_refused(game, [])
    events = record_events(game)
    choose(game, scout)
    assert zone(game, scout) == ("hand", 0)
    assert zone(game, poison) == ("discard", 1)  # WWWT "Return": attachments are discarded
    assert kinds_for(events, scout) == ["returned"]
    assert kinds_for(events, poison) == ["discarded"]
    assert zone(game, card(game, "Invader")) == ("minion", base_uid(game, "Ninja Dojo"))


# ====================================================================== Crop Circles =========


def test_crop_circles_returns_every_minion_on_one_base_to_its_owner():
    s = scenario()
    s.minion(1, "Invader", owner=0, attached=[("Poison", 1)])
    s.minion(1, "Scout", owner=1)
    s.minion(1, "Collector", owner=1, controller=0)  # seat 0 controls it, seat 1 owns it
    s.minion(1, "Ninja Master", owner=1)
    s.base_action(1, "Infiltrate", owner=1)
    s.minion(0, "Tiger Assassin", owner=1)  # another base: untouched
    s.hand(0, "Crop Circles", "Beam Up")
    game = s.build()
    on_dojo = [card(game, n) for n in ("Invader", "Scout", "Collector", "Ninja Master")]
    invader, scout, collector, master = on_dojo
    poison, infiltrate = card(game, "Poison"), card(game, "Infiltrate")
    play(game, "Crop Circles")
    assert game.pending.kind == "base" and not game.pending.may_decline
    events = record_events(game)
    choose(game, "Ninja Dojo")
    dojo = base_uid(game, "Ninja Dojo")
    assert game.slot(dojo).minions == []
    assert zone(game, invader) == ("hand", 0)
    assert zone(game, collector) == ("hand", 1)  # to its owner, not its controller
    assert zone(game, scout) == ("hand", 1)
    assert zone(game, master) == ("hand", 1)
    assert zone(game, poison) == ("discard", 1)
    assert zone(game, infiltrate) == ("base_action", dojo)  # only minions are returned
    assert zone(game, card(game, "Tiger Assassin")) == ("minion", base_uid(game, "The Mothership"))
    for m in on_dojo:
        assert kinds_for(events, m) == ["returned"]
    assert zone(game, card(game, "Crop Circles")) == ("discard", 0)


def test_crop_circles_may_pick_a_base_without_minions():
    s = scenario()
    s.minion(0, "Invader", owner=1)
    s.hand(0, "Crop Circles", "Scout")
    game = s.build()
    play(game, "Crop Circles")
    choose(game, "Ninja Dojo")
    assert zone(game, card(game, "Invader")) == ("minion", base_uid(game, "The Mothership"))
    assert zone(game, card(game, "Crop Circles")) == ("discard", 0)


# ====================================================================== Disintegrator ========


def test_disintegrator_puts_a_minion_on_the_bottom_of_its_owners_deck():
    s = scenario()
    s.minion(1, "Scout", owner=1, controller=0)
    s.minion(1, "Tiger Assassin", owner=1)  # power 4: not a target
    s.minion(0, "Ninja Master", owner=1, attached=[("Poison", 0)])  # 5 - 4 = 1: a target
    s.minion(0, "Invader", owner=1, counters=1)  # 3 + 1 = 4: not a target
    s.deck(1, "Collector", "Shinobi")
    s.hand(0, "Disintegrator", "Beam Up")
    game = s.build()
    scout, master = card(game, "Scout"), card(game, "Ninja Master")
    play(game, "Disintegrator")
    assert not game.pending.may_decline
    assert option_cards(game) == {scout, master}
    assert_refused(game, [f"m{card(game, 'Tiger Assassin')}"])
    assert_refused(game, [f"m{card(game, 'Invader')}"])
    events = record_events(game)
    choose(game, scout)
    collector, shinobi = card(game, "Collector"), card(game, "Shinobi")
    assert game.players[1].deck == [collector, shinobi, scout]  # owner's deck, at the bottom
    assert kinds_for(events, scout) == ["placed"]
    assert zone(game, card(game, "Disintegrator")) == ("discard", 0)
    # Drawing the whole deck: the placed minion comes last.
    assert game.draw(1, 3) == [collector, shinobi, scout]


def test_disintegrator_takes_a_poisoned_minion_and_discards_the_poison():
    s = scenario()
    s.minion(0, "Ninja Master", owner=1, attached=[("Poison", 0)])
    s.hand(0, "Disintegrator", "Beam Up")
    game = s.build()
    master, poison = card(game, "Ninja Master"), card(game, "Poison")
    events = record_events(game)
    play(game, "Disintegrator")  # a single legal target
    assert game.players[1].deck == [master]
    assert zone(game, poison) == ("discard", 0)
    assert kinds_for(events, master) == ["placed"]
    assert "destroyed" not in [e.kind for e in events]


# ====================================================================== Invasion =============


def test_invasion_moves_a_minion_with_its_attachments():
    s = scenario(bases=("The Mothership", "Ninja Dojo", "Temple of Goju"))
    s.minion(1, "Ninja Master", owner=1, attached=[("Poison", 0)])
    s.minion(1, "Invader", owner=0)
    s.hand(0, "Invasion", "Scout")
    game = s.build()
    master, poison = card(game, "Ninja Master"), card(game, "Poison")
    dojo, goju = base_uid(game, "Ninja Dojo"), base_uid(game, "Temple of Goju")
    play(game, "Invasion")
    assert not game.pending.may_decline
    choose(game, master)
    assert game.pending.kind == "base"
    assert sorted(labels(game)) == ["Temple of Goju", "The Mothership"]  # not where it is
    assert_refused(game, [f"b{dojo}"])
    events = record_events(game)
    choose(game, "Temple of Goju")
    assert zone(game, master) == ("minion", goju)
    assert game.minion_state[master].attached == [poison]
    assert zone(game, poison) == ("attached", master)
    assert game.base_of(poison) == goju
    assert game.power(master) == 1  # still poisoned
    assert game.player_power(goju, 1) == 1 and game.player_power(dojo, 1) == 0
    moved = [e for e in events if e.card == master]
    assert [e.kind for e in moved] == ["moved"]
    assert moved[0].base == goju and moved[0].data["from"] == dojo
    assert game.minion_state[master].controller == 1


# ====================================================================== Jammed Signal ========


def test_jammed_signal_cancels_the_homeworlds_extra_minion():
    s = scenario(bases=("The Homeworld", "Ninja Dojo"))
    s.hand(0, "Jammed Signal", "Invader", "Collector")
    game = s.build()
    home = base_uid(game, "The Homeworld")
    play(game, "Jammed Signal")
    choose(game, "The Homeworld")
    signal = card(game, "Jammed Signal")
    assert zone(game, signal) == ("base_action", home)  # stays in play, not discarded
    assert game.view(0)["bases"][0]["active"] is False
    play(game, "Invader", base="The Homeworld")
    # The base gave no extra minion: with nothing left to play, seat 0's phase ended by itself
    # (the control test below stops at seat 0's decision with the Collector playable).
    assert game.pending.seat == 1
    assert zone(game, card(game, "Collector")) == ("hand", 0)


def test_the_homeworld_offers_its_extra_minion_without_jammed_signal():
    # The control case of the test above: same position, no Jammed Signal.
    s = scenario(bases=("The Homeworld", "Ninja Dojo"))
    s.hand(0, "Invader", "Collector")
    game = s.build()
    play(game, "Invader", base="The Homeworld")
    assert [(g.kind, g.max_power) for g in game.turn_state.grants] == [("action", None),
                                                                       ("minion", 2)]
    assert game.pending.seat == 0
    assert any("Play Collector" in label for label in labels(game))


def test_removing_jammed_signal_restores_the_bases_abilities():
    s = scenario(bases=("The Homeworld", "Ninja Dojo"))
    s.base_action(0, "Jammed Signal", owner=1)
    s.hand(0, "Infiltrate", "Invader", "Collector")
    game = s.build()
    signal = card(game, "Jammed Signal")
    play(game, "Infiltrate")
    choose(game, "The Homeworld")
    choose(game, "Jammed Signal")  # Infiltrate may destroy another action on the base
    assert zone(game, signal) == ("discard", 1)
    assert game.view(0)["bases"][0]["active"] is True
    play(game, "Invader", base="The Homeworld")
    assert [(g.kind, g.max_power) for g in game.turn_state.grants] == [("minion", 2)]
    play(game, "Collector", base="Ninja Dojo")
    assert zone(game, card(game, "Collector")) == ("minion", base_uid(game, "Ninja Dojo"))


def mothership_game(jammed):
    """The Mothership (breakpoint 20) has 22 power: it scores when seat 0 ends its phase."""
    s = scenario(bases=("The Mothership", "Ninja Dojo"))
    s.minion(0, "Invader", owner=0)
    s.minion(0, "Supreme Overlord", owner=0)
    s.minion(0, "Ninja Master", owner=0)
    s.minion(0, "Tiger Assassin", owner=0)
    s.minion(0, "Collector", owner=1)
    s.minion(0, "Shinobi", owner=1)
    if jammed:
        s.base_action(0, "Jammed Signal", owner=1)
    s.base_deck("Temple of Goju")
    s.hand(0, "Beam Up")
    return s.build()


def test_the_mothership_offers_its_rescue_without_jammed_signal():
    # The control case of the test below.
    game = mothership_game(jammed=False)
    end_play(game)
    assert game.pending.seat == 0 and game.pending.kind == "target"
    assert labels(game) == ["Invader (3, P0) on The Mothership"]
    choose(game, "Invader")
    assert zone(game, card(game, "Invader")) == ("hand", 0)


def test_jammed_signal_cancels_the_motherships_rescue_and_is_discarded_when_it_scores():
    game = mothership_game(jammed=True)
    signal = card(game, "Jammed Signal")
    end_play(game)
    # No "return one of your minions" question for the winner: seat 1's turn has begun.
    assert game.pending.seat == 1 and game.pending.kind == "play"
    assert zone(game, card(game, "Invader")) == ("discard", 0)
    assert zone(game, signal) == ("discard", 1)
    assert [p.vp for p in game.players] == [4, 2]


# ====================================================================== Probe ================


def probe_game(hand1=("Invader", "Beam Up", "Scout")):
    s = scenario(players=[("Aliens", "Ninjas"), ("Pirates", "Robots"), ("Wizards", "Zombies")])
    s.data["players"][1]["hand"] = list(hand1)
    s.hand(0, "Probe", "Collector")
    return s.build()


def test_probe_shows_the_hand_only_to_the_two_players_and_discards_a_chosen_minion():
    game = probe_game()
    play(game, "Probe")
    assert game.pending.kind == "player" and sorted(labels(game)) == ["P1", "P2"]
    choose(game, "P1")
    secret = "P1's hand: Invader, Beam Up, Scout."
    assert secret in game.view(0)["log"]
    assert secret in game.view(1)["log"]
    assert secret not in game.view(2)["log"]
    assert secret not in game.view(None)["log"]
    assert "P0 looks at P1's hand." in game.view(2)["log"]
    # Seat 0 picks among the minions, seeing the whole hand; nobody else sees the reveal.
    invader, beam_up, scout = (card(game, n, "hand") for n in ("Invader", "Beam Up", "Scout"))
    assert game.pending.seat == 0 and not game.pending.may_decline
    assert option_cards(game) == {invader, scout}
    assert {c["id"] for c in game.view(0)["pending"]["reveal"]} == {invader, beam_up, scout}
    assert "reveal" not in game.view(1)["pending"]
    for seat in (2, None):
        view = game.view(seat)
        assert "reveal" not in view["pending"] and "options" not in view["pending"]
        assert beam_up not in _card_ids(view)
    assert_refused(game, [])
    events = record_events(game)
    choose(game, scout)
    assert zone(game, scout) == ("discard", 1)
    assert game.players[1].hand == [invader, beam_up]
    assert kinds_for(events, scout) == ["discarded"]
    assert zone(game, card(game, "Probe")) == ("discard", 0)


def test_probe_on_a_hand_without_minions_discards_nothing():
    game = probe_game(hand1=("Beam Up", "Poison"))
    play(game, "Probe")
    choose(game, "P1")
    assert "P1's hand: Beam Up, Poison." in game.view(0)["log"]
    assert game.pending.kind == "play" and game.pending.seat == 0  # nothing to choose
    assert [game.name(c) for c in game.players[1].hand] == ["Beam Up", "Poison"]
    assert game.players[1].discard == []
    assert zone(game, card(game, "Probe")) == ("discard", 0)


def test_probe_in_a_two_player_game_needs_no_player_choice():
    s = scenario()
    s.data["players"][1]["hand"] = ["Invader"]
    s.hand(0, "Probe", "Collector")
    game = s.build()
    invader = card(game, "Invader")
    play(game, "Probe")  # one other player, one minion: both choices are forced
    assert zone(game, invader) == ("discard", 1)
    assert "P1's hand: Invader." in game.view(1)["log"]


def _card_ids(view) -> set[int]:
    """Every card id a view mentions (the shape of `game.view`)."""
    found = set()
    stack = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key in ("id", "card") and isinstance(value, int):
                    found.add(value)
                else:
                    stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
    return found


# ====================================================================== Terraforming =========


def terraforming_game(minions_played=1):
    s = scenario(bases=("The Mothership", "Ninja Dojo"))
    s.minion(1, "Invader", owner=0)
    s.minion(1, "Scout", owner=1, attached=[("Poison", 0)])
    s.base_action(1, "Infiltrate", owner=1)
    s.minion(0, "Tiger Assassin", owner=1)
    s.base_deck("Temple of Goju", "The Homeworld")
    s.hand(0, "Terraforming", "Collector", "Shinobi")
    s.turn(minions_played=minions_played)
    return s.build()


def test_terraforming_swaps_a_base_keeping_everything_on_it():
    game = terraforming_game()
    dojo_card, home_card = card(game, "Ninja Dojo"), card(game, "The Homeworld")
    slot = game.slot(base_uid(game, "Ninja Dojo"))
    invader, scout, poison = card(game, "Invader"), card(game, "Scout"), card(game, "Poison")
    infiltrate = card(game, "Infiltrate")
    events = record_events(game)
    play(game, "Terraforming")
    assert game.pending.kind == "base" and not game.pending.may_decline
    choose(game, "Ninja Dojo")
    # Any base of the base deck, never one in play.
    assert sorted(labels(game)) == ["Temple of Goju", "The Homeworld"]
    assert {c["name"] for c in game.view(0)["pending"]["reveal"]} == {"The Homeworld",
                                                                     "Temple of Goju"}
    choose(game, "The Homeworld")
    assert game.bases[1] is slot and slot.card == home_card  # same place, new base
    assert zone(game, home_card) == ("base", slot.uid)
    assert dojo_card in game.base_deck and home_card not in game.base_deck
    assert sorted(game.name(b) for b in game.base_deck) == ["Ninja Dojo", "Temple of Goju"]
    assert slot.minions == [invader, scout]
    assert game.minion_state[scout].attached == [poison]
    assert slot.actions == [infiltrate]
    assert game.power(scout) == 0
    # Nothing left play: no return, destroy or discard happened; the new base is announced
    # (WWWT clarification: Crypt Looter answers a swap).
    assert [e.kind for e in events] == ["base_entered", "action_played"]
    assert events[0].base == slot.uid and events[0].data == {"how": "swapped",
                                                             "replaced": dojo_card}
    assert zone(game, card(game, "Terraforming")) == ("discard", 0)


def test_terraforming_extra_minion_only_on_the_new_base():
    game = terraforming_game(minions_played=1)  # the free minion is already used
    play(game, "Terraforming")
    choose(game, "Ninja Dojo")
    choose(game, "Temple of Goju")
    goju = base_uid(game, "Temple of Goju")
    minion_plays = [o for o in game.pending.options if o.id.startswith("m")]
    assert {o.base for o in minion_plays} == {goju}
    assert {game.name(o.card) for o in minion_plays} == {"Collector", "Shinobi"}
    play(game, "Shinobi", base="Temple of Goju")
    assert zone(game, card(game, "Shinobi")) == ("minion", goju)
    assert not any(label.startswith("Play Collector") for label in labels(game))


def test_terraforming_brings_in_a_base_whose_ability_then_works():
    game = terraforming_game(minions_played=1)
    play(game, "Terraforming")
    choose(game, "Ninja Dojo")
    choose(game, "The Homeworld")
    play(game, "Shinobi", base="The Homeworld")  # the extra minion, on the new base
    # The Homeworld reacts: an extra minion of power 2 or less, on any base.
    assert [(g.kind, g.max_power) for g in game.turn_state.grants] == [("minion", 2)]
    play(game, "Collector", base="The Mothership")
    assert zone(game, card(game, "Collector")) == ("minion", base_uid(game, "The Mothership"))


def test_terraforming_replays_to_the_same_state():
    # The base deck shuffle comes from the game's seed, so a record rebuilds the same game.
    game = terraforming_game()
    play(game, "Terraforming")
    choose(game, "Ninja Dojo")
    choose(game, "The Homeworld")
    again = replay(game.record())
    assert again.digest() == game.digest()
    assert again.base_deck == game.base_deck


def test_terraforming_with_an_empty_base_deck_does_nothing():
    s = scenario()
    s.minion(1, "Invader", owner=0)
    s.hand(0, "Terraforming", "Collector")
    s.turn(minions_played=1)
    game = s.build()
    before = [s.card for s in game.bases]
    play(game, "Terraforming")
    assert [s.card for s in game.bases] == before
    assert zone(game, card(game, "Terraforming")) == ("discard", 0)
    assert game.pending.seat == 1  # no extra minion: seat 0's phase ended on its own


def test_terraforming_searches_the_shuffled_base_discard_pile_when_the_base_deck_is_empty():
    # Searching an empty base deck takes the shuffled base discard pile first, as draw_base does
    # (WWWT Phase 4; the base deck works like a player's deck, CR "Build the Base Deck").
    s = scenario()
    s.minion(1, "Invader", owner=0)
    s.base_discard("Temple of Goju", "The Homeworld")
    s.hand(0, "Terraforming", "Collector")
    s.turn(minions_played=1)
    game = s.build()
    dojo_card = card(game, "Ninja Dojo")
    play(game, "Terraforming")
    assert game.base_discard == [] and len(game.base_deck) == 2
    assert "The base discard pile is shuffled into a new base deck." in [t for t, _ in
                                                                         game.log_lines]
    choose(game, "Ninja Dojo")
    assert sorted(labels(game)) == ["Temple of Goju", "The Homeworld"]
    choose(game, "The Homeworld")
    assert game.name(game.bases[1].card) == "The Homeworld"
    assert game.loc[card(game, "Invader")] == ("minion", game.bases[1].uid)  # it stayed
    assert sorted(game.name(b) for b in game.base_deck) == ["Ninja Dojo", "Temple of Goju"]
    assert dojo_card in game.base_deck
    play(game, "Collector", base="The Homeworld")  # the extra minion, on the new base
    again = replay(game.record())
    assert again.digest() == game.digest()


# ====================================================================== Smoke Bomb ===========


def smoke_bomb_game(action):
    s = scenario()
    s.minion(1, "Scout", owner=1, attached=[("Smoke Bomb", 1)])
    s.minion(1, "Invader", owner=1)
    s.hand(0, action, "Supreme Overlord", "Collector")
    return s.build()


@pytest.mark.parametrize("action", ["Abduction", "Beam Up", "Disintegrator", "Invasion"])
def test_another_players_alien_action_cannot_choose_a_smoke_bombed_minion(action):
    game = smoke_bomb_game(action)
    scout, invader = card(game, "Scout"), card(game, "Invader")
    play(game, action)
    # The Invader is the only legal target, so it is taken without a question.
    assert game.pending.kind != "target"
    assert zone(game, scout) == ("minion", base_uid(game, "Ninja Dojo"))
    assert zone(game, invader) != ("minion", base_uid(game, "Ninja Dojo"))


def test_crop_circles_leaves_a_smoke_bombed_minion_of_another_player():
    game = smoke_bomb_game("Crop Circles")
    scout, invader = card(game, "Scout"), card(game, "Invader")
    play(game, "Crop Circles")
    choose(game, "Ninja Dojo")
    assert zone(game, scout) == ("minion", base_uid(game, "Ninja Dojo"))
    assert zone(game, invader) == ("hand", 1)


@pytest.mark.parametrize("minion", ["Supreme Overlord", "Collector"])
def test_a_minion_ability_can_choose_a_smoke_bombed_minion(minion):
    game = smoke_bomb_game("Beam Up")
    scout, bomb = card(game, "Scout"), card(game, "Smoke Bomb")
    # Smoke Bomb stops other players' actions only.
    play(game, minion, base="Ninja Dojo")
    assert scout in option_cards(game)
    choose(game, scout)
    assert zone(game, scout) == ("hand", 1)
    assert zone(game, bomb) == ("discard", 1)


def test_your_own_action_can_choose_your_smoke_bombed_minion():
    s = scenario()
    s.minion(1, "Scout", owner=0, attached=[("Smoke Bomb", 0)])
    s.minion(1, "Invader", owner=1)
    s.hand(0, "Beam Up", "Collector")
    game = s.build()
    scout = card(game, "Scout")
    play(game, "Beam Up")
    assert option_cards(game) == {scout, card(game, "Invader")}
    choose(game, scout)
    assert zone(game, scout) == ("hand", 0)
