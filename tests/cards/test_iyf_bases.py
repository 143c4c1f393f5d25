"""The bases of It's Your Fault!, through the engine.

Each test builds a position with `Scenario`, makes the base's ability happen (a play, a move, a
destroy, scoring) and checks the exact effect: VP, power, counters, zones, who was asked what. The
rulings come from the catalog (smashup/cards/catalog/iyf.yaml, `bases`).

Every seat holds a card it can play (a Ninja Acolyte), so a Play Cards phase waits for its player;
both decks hold enough cards that no draw reshuffles a discard pile.
"""
from __future__ import annotations

import smashup.cards  # noqa: F401  (fills REGISTRY)
import smashup.cards.iyf_bases  # noqa: F401
from smashup.engine import REGISTRY
from smashup.engine.testing import (
    assert_refused,
    card,
    choose,
    decline,
    end_play,
    labels,
    play,
    record_events,
    where,
)

from .quiet_scene import FILLER, bases_scene

PLAYERS = [("Dinosaurs", "Aliens"), ("Ninjas", "Robots")]


def scenario(*bases, players=PLAYERS):
    return bases_scene(bases, players)


def counters(game, cid):
    return game.minion_state[cid].counters


def test_the_bases_match_the_catalog():
    expected = {"Dragon's Lair": (18, (2, 2, 1)), "Wyrm's Desolation": (20, (5, 3, 2)),
                "Oracle at Delphi": (18, (4, 2, 1)), "Wooden Horse": (21, (3, 2, 1)),
                "Shark Reef": (20, (4, 2, 1)), "The Deep": (16, (3, 2, 2)),
                "Converted Cave": (18, (4, 3, 2)), "Crystal Fortress": (19, (3, 1, 1)),
                "Tornado Alley": (25, (4, 3, 2)), "Trailer Park": (20, (4, 2, 1))}
    found = {b.name: (b.breakpoint, b.vp) for b in REGISTRY.bases.values() if b.set == "iyf"}
    assert found == expected
    assert all(b.text for b in REGISTRY.bases.values() if b.set == "iyf")


# ====================================================================== Dragon's Lair ========


def test_dragons_lair_winner_draws_three_after_it_scores_and_second_place_also_gets_two():
    s = scenario("Dragon's Lair", "Jungle Oasis")
    s.minion(0, "King Rex", owner=0)
    s.minion(0, "Supreme Overlord", owner=0)  # 12
    s.minion(0, "Supreme Overlord", owner=1)  # 5
    s.hand(0, "King Rex")
    game = s.build()
    play(game, "King Rex", base="Dragon's Lair")  # 24 of 18; nothing left to play: scoring
    assert game.current == 1
    # The unusual split: 2 VP for the winner and 2 for the runner-up.
    assert (game.players[0].vp, game.players[1].vp) == (2, 2)
    # The winner drew 3 (after scoring), then the 2 of the draw phase.
    assert len(game.players[0].hand) == 5 and len(game.players[0].deck) == 1
    assert len(game.players[1].hand) == 1


def test_dragons_lair_tied_winners_each_draw_three():
    s = scenario("Dragon's Lair", "Jungle Oasis")
    s.minion(0, "King Rex", owner=0)
    s.minion(0, "King Rex", owner=1)
    s.minion(0, "Invader", owner=1)  # 10
    s.hand(0, "Invader")
    game = s.build()
    play(game, "Invader", base="Dragon's Lair")  # 10 against 10: both win
    assert (game.players[0].vp, game.players[1].vp) == (3, 2)  # the Invader's VP
    assert len(game.players[0].hand) == 5  # 3 after scoring, 2 drawn
    assert len(game.players[1].hand) == 4  # its Acolyte and 3


# ====================================================================== Wyrm's Desolation ====


def test_wyrms_desolation_takes_one_power_from_each_minion_there_only():
    s = scenario("Wyrm's Desolation", "Jungle Oasis")
    s.minion(0, "King Rex", owner=0)
    s.minion(0, "Collector", owner=1)
    s.minion(1, "Invader", owner=0)
    s.hand(0, "Dinghy")
    game = s.build()
    rex, collector, invader = (card(game, n) for n in ("King Rex", "Collector", "Invader"))
    assert (game.power(rex), game.power(collector), game.power(invader)) == (6, 1, 3)
    play(game, "Dinghy")
    choose(game, "King Rex")
    decline(game)  # no second minion
    assert where(game, rex) == "Jungle Oasis" and game.power(rex) == 7


def test_wyrms_desolation_cancelled_weakens_nothing():
    s = scenario("Wyrm's Desolation", "Jungle Oasis")
    s.minion(0, "King Rex", owner=0)
    s.base_action(0, "Jammed Signal", owner=1)
    game = s.build()
    assert game.power(card(game, "King Rex")) == 7


# ====================================================================== Oracle at Delphi =====


def test_oracle_puts_a_revealed_action_into_the_players_hand():
    s = scenario("Oracle at Delphi", "Jungle Oasis")
    s.hand(0, "War Raptor", "Invader")
    game = s.build()
    top = game.players[0].deck[0]  # a Beam Up
    play(game, "War Raptor", base="Oracle at Delphi")
    assert top in game.players[0].hand
    assert game.loc[top] == ("hand", 0)
    assert "P0 reveals the top card of their deck: Beam Up." in [t for t, _ in game.log_lines]


def test_oracle_leaves_a_revealed_minion_on_top():
    s = scenario("Oracle at Delphi", "Jungle Oasis")
    s.hand(1, "Beam Up")  # something left to play: the phase waits
    s.turn(current=1)
    s.hand(0, "Invader")
    game = s.build()
    top = game.players[1].deck[0]  # an Acolyte: a minion
    play(game, FILLER, base="Oracle at Delphi")
    assert game.players[1].deck[0] == top and game.name(top) == FILLER
    assert top not in game.players[1].hand
    assert "P1 reveals the top card of their deck: Ninja Acolyte." in [
        t for t, _ in game.log_lines]


# ====================================================================== Wooden Horse =========


def test_wooden_horse_lets_the_player_of_an_action_give_a_minion_there_two_power():
    s = scenario("Wooden Horse", "Jungle Oasis")
    s.minion(0, "Collector", owner=1)
    s.minion(0, "Ninja Acolyte", owner=0)
    s.minion(1, "Invader", owner=1)
    s.hand(0, "Howl", "King Rex")
    game = s.build()
    play(game, "Howl")  # each of your minions +1 this turn
    assert game.pending.seat == 0
    # Anyone's minion on the Horse; the Invader elsewhere is not offered.
    assert sorted(game.name(o.card) for o in game.pending.options) == ["Collector",
                                                                     "Ninja Acolyte"]
    assert_refused(game, [f"m{card(game, 'Invader')}"])
    choose(game, card(game, "Collector"))
    assert game.power(card(game, "Collector")) == 4
    assert game.power(card(game, "Ninja Acolyte", "minion")) == 3  # Howl's +1 only
    end_play(game)
    assert game.power(card(game, "Collector")) == 2


def test_wooden_horse_may_be_declined():
    s = scenario("Wooden Horse", "Jungle Oasis")
    s.minion(0, "Ninja Acolyte", owner=0)
    s.hand(0, "Howl", "King Rex")
    game = s.build()
    play(game, "Howl")
    decline(game)
    assert game.power(card(game, "Ninja Acolyte", "minion")) == 3


# ====================================================================== Shark Reef ===========


def test_shark_reef_feeds_the_player_who_destroyed_a_minion_there():
    s = scenario("Shark Reef", "Jungle Oasis")
    s.minion(0, "Collector", owner=1)
    s.minion(1, "War Raptor", owner=0)
    s.minion(1, "Zapbot", owner=1)
    s.hand(0, "Laseratops")
    game = s.build()
    play(game, "Laseratops", base="Shark Reef")
    choose(game, "Collector")  # destroyed by seat 0's Laseratops
    assert game.loc[card(game, "Collector")] == ("discard", 1)
    assert game.pending.seat == 0
    # Only seat 0's own minions, on any base.
    assert sorted(game.name(o.card) for o in game.pending.options) == ["Laseratops",
                                                                     "War Raptor"]
    assert_refused(game, [f"m{card(game, 'Zapbot')}"])
    choose(game, "War Raptor")
    assert counters(game, card(game, "War Raptor")) == 1


def test_shark_reef_may_be_declined_and_ignores_destroys_elsewhere():
    s = scenario("Shark Reef", "Jungle Oasis")
    s.minion(0, "Collector", owner=1)
    s.minion(1, "Zapbot", owner=1)
    s.hand(0, "Laseratops", "Laseratops")
    game = s.build()
    play(game, "Laseratops", base="Shark Reef")
    choose(game, "Collector")
    decline(game)
    assert counters(game, card(game, "Laseratops", "minion")) == 0
    s = scenario("Shark Reef", "Jungle Oasis")
    s.minion(1, "Zapbot", owner=1)
    s.hand(0, "Laseratops", "Invader")
    game = s.build()
    play(game, "Laseratops", base="Jungle Oasis")
    choose(game, "Zapbot")  # destroyed on the Oasis: the Reef does nothing
    assert game.pending.kind == "play"


# ====================================================================== The Deep =============


def test_the_deep_lets_a_player_of_a_big_minion_destroy_a_weaker_one_there():
    s = scenario("The Deep", "Jungle Oasis")
    s.minion(0, "Supreme Overlord", owner=1)  # 5: stronger than the Laseratops
    s.minion(0, "Invader", owner=1)  # 3
    s.minion(0, "War Raptor", owner=0)  # 2: the player's own may be chosen too
    s.minion(1, "Collector", owner=1)
    s.hand(0, "Laseratops", "Invader")
    game = s.build()
    play(game, "Laseratops", base="The Deep")
    decline(game)  # the Laseratops' own destroy
    assert game.pending.seat == 0
    assert sorted(game.name(o.card) for o in game.pending.options) == ["Invader", "War Raptor"]
    assert_refused(game, [f"m{card(game, 'Supreme Overlord')}"])
    assert_refused(game, [f"m{card(game, 'Collector')}"])
    choose(game, "Invader")
    assert game.loc[card(game, "Invader", "discard")] == ("discard", 1)


def test_the_deep_ignores_a_minion_under_power_4_and_may_be_declined():
    s = scenario("The Deep", "Jungle Oasis")
    s.minion(0, "Collector", owner=1)
    s.hand(0, "Invader", "War Raptor")
    game = s.build()
    play(game, "Invader", base="The Deep")  # 3: nothing
    assert game.pending.kind == "play"
    s = scenario("The Deep", "Jungle Oasis")
    s.minion(0, "Collector", owner=1)
    s.hand(0, "King Rex", "War Raptor")
    game = s.build()
    play(game, "King Rex", base="The Deep")
    decline(game)
    assert where(game, card(game, "Collector")) == "The Deep"


# ====================================================================== Converted Cave =======


def test_converted_cave_shelters_small_minions_from_other_players():
    s = scenario("Converted Cave", "Jungle Oasis")
    s.minion(0, "Collector", owner=1)  # 2: sheltered
    s.minion(0, "Invader", owner=1)  # 3: not
    s.hand(0, "Tiger Assassin", "War Raptor")
    game = s.build()
    play(game, "Tiger Assassin", base="Converted Cave")
    # Only the Invader can be destroyed: the Collector is not even offered.
    assert [game.name(o.card) for o in game.pending.options] == ["Invader"]
    assert_refused(game, [f"m{card(game, 'Collector')}"])


def test_converted_cave_lets_a_controller_destroy_their_own_small_minion():
    s = scenario("Converted Cave", "Jungle Oasis")
    s.minion(0, "War Raptor", owner=0)  # 2, seat 0's own
    s.minion(0, "Collector", owner=1)  # 2, seat 1's
    s.hand(0, "Laseratops", "Invader")
    game = s.build()
    play(game, "Laseratops", base="Converted Cave")
    assert [game.name(o.card) for o in game.pending.options] == ["War Raptor"]
    choose(game, "War Raptor")
    assert game.loc[card(game, "War Raptor")] == ("discard", 0)


def test_converted_cave_cancelled_shelters_nothing():
    s = scenario("Converted Cave", "Jungle Oasis")
    s.minion(0, "Collector", owner=1)
    s.base_action(0, "Jammed Signal", owner=0)
    s.hand(0, "Tiger Assassin", "War Raptor")
    game = s.build()
    play(game, "Tiger Assassin", base="Converted Cave")
    choose(game, "Collector")
    assert game.loc[card(game, "Collector")] == ("discard", 1)


# ====================================================================== Crystal Fortress =====


def test_crystal_fortress_puts_a_minion_from_the_discard_pile_under_the_deck():
    s = scenario("Crystal Fortress", "Jungle Oasis")
    s.discard(0, "Invader", "Beam Up")
    s.hand(0, "War Raptor", "War Raptor", "Invader")
    game = s.build()
    play(game, "War Raptor", base="Crystal Fortress")
    # Minions only: the Beam Up is not offered.
    assert labels(game) == ["Invader"]
    choose(game, "Invader")
    invader = game.players[0].deck[-1]
    assert game.name(invader) == "Invader"
    assert [game.name(c) for c in game.players[0].discard] == ["Beam Up"]


def test_crystal_fortress_works_for_every_minion_played_there_and_may_be_declined():
    s = scenario("Crystal Fortress", "Jungle Oasis")
    s.discard(0, "Invader", "Collector")
    s.hand(0, "Zapbot", "War Raptor", "Beam Up")
    game = s.build()
    play(game, "Zapbot", base="Crystal Fortress")  # its own extra play of power 2 or less
    decline(game)  # the Fortress, the first time
    play(game, "War Raptor", base="Crystal Fortress")
    assert sorted(labels(game)) == ["Collector", "Invader"]  # asked again: every minion
    choose(game, "Collector")
    assert game.name(game.players[0].deck[-1]) == "Collector"


# ====================================================================== Tornado Alley ========


def test_tornado_alley_pulls_a_minion_in_after_the_first_minion_played_there():
    s = scenario("Tornado Alley", "Jungle Oasis")
    s.minion(1, "Collector", owner=1)
    s.minion(1, "Invader", owner=0)
    s.hand(0, "Zapbot", "War Raptor", "War Raptor", "Beam Up")
    game = s.build()
    play(game, "Zapbot", base="Tornado Alley")
    # Anyone's minion from another base.
    assert sorted(game.name(o.card) for o in game.pending.options) == ["Collector", "Invader"]
    choose(game, "Collector")
    assert where(game, card(game, "Collector")) == "Tornado Alley"
    # The second minion the same player plays there this turn pulls nothing.
    play(game, "War Raptor", base="Tornado Alley")
    assert game.pending.kind == "play"
    assert where(game, card(game, "Invader")) == "Jungle Oasis"


def test_tornado_alley_may_be_declined():
    s = scenario("Tornado Alley", "Jungle Oasis")
    s.minion(1, "Collector", owner=1)
    s.hand(0, "War Raptor", "Beam Up")
    game = s.build()
    play(game, "War Raptor", base="Tornado Alley")
    decline(game)
    assert where(game, card(game, "Collector")) == "Jungle Oasis"


def test_tornado_alley_move_is_made_by_the_player_and_counts_per_player():
    s = scenario("Tornado Alley", "Jungle Oasis")
    s.minion(1, "Collector", owner=1)
    s.hand(0, "War Raptor", "Beam Up")
    game = s.build()
    events = record_events(game)
    play(game, "War Raptor", base="Tornado Alley")
    choose(game, "Collector")
    moved = [e for e in events if e.kind == "moved"]
    assert [(e.card, e.by_player) for e in moved] == [(card(game, "Collector"), 0)]


# ====================================================================== Trailer Park =========


def test_trailer_park_puts_a_counter_on_each_minion_moved_there():
    s = scenario("Trailer Park", "Jungle Oasis")
    s.minion(1, "Collector", owner=1)
    s.minion(1, "War Raptor", owner=0)
    s.minion(1, "Invader", owner=0)
    s.hand(0, "Dinghy", "King Rex")
    game = s.build()
    play(game, "Dinghy")
    choose(game, "War Raptor")
    choose(game, "Invader")
    # The base reacts to both moves of one batch: the current player orders them.
    choose(game, "after Invader")
    raptor, invader = card(game, "War Raptor"), card(game, "Invader")
    assert (counters(game, raptor), counters(game, invader)) == (1, 1)
    assert counters(game, card(game, "Collector")) == 0


def test_trailer_park_ignores_a_minion_played_there():
    s = scenario("Trailer Park", "Jungle Oasis")
    s.hand(0, "War Raptor", "King Rex")
    game = s.build()
    play(game, "War Raptor", base="Trailer Park")
    assert counters(game, card(game, "War Raptor")) == 0


# ====================================================================== who does it ==========
# Issue 24, mechanism 2: Ninja Dojo's "the winner may destroy" is done by the winner.


def dojo_scores(*minions_elsewhere, base="Shark Reef"):
    """Seat 0 wins Ninja Dojo (18) when its turn ends; `minions_elsewhere` (name, owner) on
    `base`."""
    s = scenario("Ninja Dojo", base)
    for name in ("King Rex", "Armor Stego", "Laseratops", "War Raptor", "Invader"):  # 20
        s.minion(0, name, owner=0)
    for name, owner in minions_elsewhere:
        s.minion(1, name, owner=owner)
    s.hand(0, "Howl")
    game = s.build()
    end_play(game)
    return game


def test_shark_reef_feeds_the_dojo_winner_who_destroyed_a_minion_there():
    game = dojo_scores(("Collector", 1), ("Zapbot", 0))
    choose(game, "Collector")
    # The winner destroyed it: the winner may put a +1 counter on one of their minions.
    assert game.pending.seat == 0 and game.pending.kind == "target"
    choose(game, "Zapbot")
    assert counters(game, card(game, "Zapbot")) == 1


def test_converted_cave_shelters_small_minions_from_the_dojo_winner_but_not_their_own():
    game = dojo_scores(("Collector", 1), ("Zapbot", 0), base="Converted Cave")
    offered = {game.name(o.card) for o in game.pending.options}
    assert "Collector" not in offered  # another player's, power 2: sheltered from the winner
    assert "Zapbot" in offered  # the winner's own: the winner may destroy it
