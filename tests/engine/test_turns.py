"""Turn phases (CR "Turns", WWWT "The Phases of a Turn"): the free minion and action in any order,
extra plays banked in the Play Cards phase, talents once per turn, scoring, the draw and the hand
limit, the end of the turn and the win check.

A Play Cards decision whose only option is to end the phase is taken without asking, so these
scenarios give each seat cards that keep a real decision open where the test looks.
"""
from __future__ import annotations

import pytest

from smashup.engine import IllegalChoice, Scenario
from smashup.engine.testing import card, choose, end_play, labels, play

from .support import ALIENS_NINJAS, PIRATES_ROBOTS, TEST_REGISTRY


def two_players(factions0=ALIENS_NINJAS) -> Scenario:
    """Seat 0 to play on the Ninja Dojo and the Temple of Goju. Both decks hold Tiger Assassins
    (so a draw is recognisable) and seat 1 holds one, so its turn stops at its Play Cards phase."""
    s = Scenario([factions0, PIRATES_ROBOTS])
    s.base("Ninja Dojo")
    s.base("Temple of Goju")
    s.deck(0, *["Tiger Assassin"] * 2)
    s.deck(1, *["Tiger Assassin"] * 2)
    s.hand(1, "Tiger Assassin")
    return s


def plays(game) -> list[str]:
    """The main decision's card plays, by kind and card name."""
    return sorted({f"{o.value[0]}:{game.name(o.card)}" for o in game.pending.options
                   if o.value and o.value[0] in ("minion", "action")})


def hand_names(game, seat) -> list[str]:
    return sorted(game.name(c) for c in game.players[seat].hand)


def at_turn(game, turn, seat) -> bool:
    """The game waits in `seat`'s Play Cards phase of turn number `turn`."""
    return (game.turn, game.current, game.phase, game.pending.seat, game.pending.kind) == (
        turn, seat, "play", seat, "play")


# ---------------------------------------------------------------------------- free plays ---
def test_free_action_then_free_minion():
    s = two_players()
    s.hand(0, "Invader", "Beam Up", "Beam Up")
    game = s.build()
    assert plays(game) == ["action:Beam Up", "minion:Invader"]
    play(game, "Beam Up")  # nothing in play: playable, does nothing, then discarded
    assert plays(game) == ["minion:Invader"]
    assert at_turn(game, 1, 0) and game.players[0].vp == 0
    play(game, "Invader", base="Ninja Dojo")
    # Both free plays are used: the phase ends by itself (its only option was to end it).
    assert at_turn(game, 2, 1)
    assert game.players[0].vp == 1
    assert hand_names(game, 0) == ["Beam Up", "Tiger Assassin", "Tiger Assassin"]


def test_free_minion_then_free_action():
    s = two_players()
    s.hand(0, "Invader", "Collector", "Seeing Stars")
    game = s.build()
    play(game, "Invader", base="Ninja Dojo")
    assert plays(game) == ["action:Seeing Stars"]  # the other minion has no play left
    play(game, "Seeing Stars")  # the Invader (3) is the only minion: it must be the target
    assert game.loc[card(game, "Invader")] == ("discard", 0)
    assert at_turn(game, 2, 1)
    assert hand_names(game, 0) == ["Collector", "Tiger Assassin", "Tiger Assassin"]


def test_a_play_that_is_not_offered_is_refused():
    s = two_players()
    s.hand(0, "Invader", "Collector", "Beam Up")
    game = s.build()
    play(game, "Invader", base="Ninja Dojo")
    collector = card(game, "Collector", "hand")
    d = game.pending
    assert at_turn(game, 1, 0)
    with pytest.raises(IllegalChoice):
        game.apply(0, d.id, [f"m{collector}@{game.bases[0].uid}"])


def test_the_scenario_turn_state_counts_plays_already_made():
    s = two_players()
    s.hand(0, "Invader", "Beam Up")
    s.turn(current=0, phase="play", minions_played=1)
    game = s.build()
    assert plays(game) == ["action:Beam Up"]
    assert game.turn_state.minions_played == 1


# ---------------------------------------------------------------------------- extra plays ---
def test_extra_minion_from_an_action_is_banked_for_the_play_phase():
    s = two_players()
    s.minion(0, "Scout", owner=1)
    s.hand(0, "Abduction", "Invader", "Invader", "Collector")
    game = s.build()
    play(game, "Abduction")  # the Scout is the only minion: returned to seat 1's hand
    assert game.loc[card(game, "Scout")] == ("hand", 1)
    assert at_turn(game, 1, 0)  # banked, not asked at once
    assert sorted((g.kind, g.free) for g in game.turn_state.grants) == [
        ("minion", False), ("minion", True)]
    play(game, "Invader", base="Ninja Dojo")
    assert plays(game) == ["minion:Collector", "minion:Invader"]
    play(game, "Invader", base="Temple of Goju")
    assert at_turn(game, 2, 1)
    assert game.players[0].vp == 2
    assert hand_names(game, 0) == ["Collector", "Tiger Assassin", "Tiger Assassin"]


def test_extra_minion_granted_after_the_free_minion_still_adds_one():
    s = two_players()
    s.minion(0, "Scout", owner=1)
    s.hand(0, "Abduction", "Invader", "Collector")
    game = s.build()
    play(game, "Invader", base="Ninja Dojo")
    assert plays(game) == ["action:Abduction"]
    play(game, "Abduction")
    choose(game, "Scout")
    assert plays(game) == ["minion:Collector"]
    play(game, "Collector", base="Temple of Goju")
    assert game.pending.kind == "target"  # Collector may return itself: decline
    choose(game)
    assert at_turn(game, 2, 1)
    assert game.is_minion_in_play(card(game, "Collector"))


def test_unused_extra_plays_are_lost_when_the_play_phase_ends():
    s = two_players(factions0=("Aliens", "Testers"))
    s.hand(0, "Double Feature", "Invader", "Beam Up", "Invader", "Beam Up")
    game = s.build(TEST_REGISTRY)
    play(game, "Double Feature")
    assert sorted((g.kind, g.free) for g in game.turn_state.grants) == [
        ("action", False), ("minion", False), ("minion", True)]
    end_play(game)
    assert at_turn(game, 2, 1)
    end_play(game)
    # Seat 0's next turn: one free minion and one free action, no more.
    assert at_turn(game, 3, 0)
    assert sorted((g.kind, g.free) for g in game.turn_state.grants) == [
        ("action", True), ("minion", True)]


# ---------------------------------------------------------------------------- talents ---
def test_a_talent_is_used_at_most_once_per_turn_and_again_next_turn():
    s = two_players(factions0=("Testers", "Aliens"))
    s.minion(0, "Bookworm", owner=0)
    s.hand(0, "Invader")
    s.deck(0, *["Scout"] * 6)
    game = s.build(TEST_REGISTRY)
    assert "Use Bookworm's talent" in labels(game)
    choose(game, "Bookworm's talent")
    assert at_turn(game, 1, 0)
    assert hand_names(game, 0) == ["Invader", "Tiger Assassin"]  # it drew one card
    assert "Use Bookworm's talent" not in labels(game)
    end_play(game)
    # Seat 1's turn: seat 0's talent is not offered (a talent is used on your own turn).
    assert at_turn(game, 2, 1) and "Use Bookworm's talent" not in labels(game)
    end_play(game)
    assert at_turn(game, 3, 0) and "Use Bookworm's talent" in labels(game)


def test_a_talent_can_be_used_again_by_a_card_that_left_play_and_was_played_again():
    # CR "Using Talents and 'On Your Turn' Abilities": the game tracks the card in play, not the
    # physical card, so a card removed and played again this turn may use its talent again.
    s = two_players(factions0=("Testers", "Aliens"))
    s.minion(0, "Bookworm", owner=0)
    s.hand(0, "Beam Up")
    game = s.build(TEST_REGISTRY)
    choose(game, "Bookworm's talent")
    play(game, "Beam Up")  # the Bookworm is the only minion: back to hand
    play(game, "Bookworm", base="Ninja Dojo")
    assert at_turn(game, 1, 0)
    assert labels(game) == ["Use Bookworm's talent", "End the Play Cards phase"]


# ---------------------------------------------------------------------------- draw and hand limit ---
@pytest.mark.parametrize("in_hand, discards", [(8, 0), (9, 1), (11, 3)])
def test_draw_two_then_discard_down_to_ten_only_in_the_draw_phase(in_hand, discards):
    s = two_players()
    s.hand(0, *["Collector"] * in_hand)
    s.deck(0, "Invader")  # deck: Tiger Assassin, Tiger Assassin, Invader
    game = s.build()
    assert at_turn(game, 1, 0)  # more than 10 cards before the draw phase is fine
    end_play(game)
    p0 = game.players[0]
    assert [game.name(c) for c in p0.deck] == ["Invader"]
    if discards:
        d = game.pending
        assert (d.seat, d.kind, d.min_count, d.max_count) == (0, "discard", discards, discards)
        with pytest.raises(IllegalChoice):  # one card too few
            game.apply(0, d.id, [o.id for o in d.options[: discards - 1]])
        choose(game, *[o.id for o in d.options[:discards]])
    assert len(p0.hand) == min(in_hand + 2, 10)
    assert [game.name(c) for c in p0.discard] == ["Collector"] * discards
    assert at_turn(game, 2, 1)


def test_more_than_ten_cards_after_other_draws_is_fine():
    s = two_players(factions0=("Testers", "Aliens"))
    s.minion(0, "Night Owl", owner=0)  # its controller draws 3 at the end of every turn
    s.hand(0, *["Collector"] * 10)
    s.deck(0, *["Invader"] * 20)
    game = s.build(TEST_REGISTRY)
    end_play(game)
    d = game.pending
    assert (d.kind, d.min_count) == ("discard", 2)  # 12 -> 10 in the draw phase
    choose(game, *[o.id for o in d.options[:2]])
    p0 = game.players[0]
    # End of turn: the Night Owl draws 3 (13 in hand) and nobody asks for a discard.
    assert len(p0.hand) == 13
    assert at_turn(game, 2, 1)
    end_play(game)  # seat 1 draws 2; at its end of turn the Night Owl draws 3 more for seat 0
    assert len(p0.hand) == 16
    assert at_turn(game, 3, 0)
    end_play(game)  # 18 in hand in seat 0's draw phase: discard 8
    d = game.pending
    assert (d.seat, d.kind, d.min_count, d.max_count) == (0, "discard", 8, 8)


@pytest.mark.parametrize("move_away", [True, False])
def test_a_base_scores_only_if_ready_in_the_score_phase(move_away):
    # CR Phase 3: what counts is the power when the Score Bases phase checks, not during play.
    s = two_players()
    s.minion(0, "Supreme Overlord", owner=0)
    s.minion(0, "Ninja Master", owner=0)
    s.minion(0, "Tiger Assassin", owner=1)
    s.minion(0, "Ninja Acolyte", owner=1)
    s.hand(0, "Invader", "Invasion")
    s.base_deck("The Homeworld")
    game = s.build()
    play(game, "Invader", base="Ninja Dojo")
    assert game.total_power(game.bases[0]) == 19  # over the Dojo's 18 during the Play Cards phase
    if move_away:
        play(game, "Invasion")
        choose(game, "Tiger Assassin")  # to the Temple of Goju, the only other base
        assert game.total_power(game.bases[0]) == 15
        # Both free plays are used: the Play Cards phase ends by itself.
    else:
        end_play(game)
    names = [game.name(slot.card) for slot in game.bases]
    if move_away:
        assert names == ["Ninja Dojo", "Temple of Goju"]
        assert [p.vp for p in game.players] == [1, 0]
        assert at_turn(game, 2, 1)
    else:
        # Seat 0 (13) wins 2 VP, seat 1 (6) is runner-up with 3; the Dojo's winner may destroy.
        assert [p.vp for p in game.players] == [1 + 2, 3]
        assert game.pending.kind == "target" and game.pending.seat == 0
        choose(game)
        assert [game.name(slot.card) for slot in game.bases] == ["The Homeworld", "Temple of Goju"]
        assert at_turn(game, 2, 1)


# ---------------------------------------------------------------------------- game end ---
def test_invader_reaching_15_mid_turn_wins_only_at_the_end_of_the_turn():
    s = two_players()
    s.vp(0, 14)
    s.hand(0, "Invader", "Beam Up")
    game = s.build()
    play(game, "Invader", base="Ninja Dojo")
    assert game.players[0].vp == 15
    assert game.winner is None and at_turn(game, 1, 0)  # the turn goes on
    d = game.pending
    game.apply(0, d.id, ["end"])
    assert game.winner == 0 and game.pending is None and game.phase == "over"
    assert "wins with 15 VP" in game.log_lines[-1][0]
    assert len(game.players[0].hand) == 3  # the draw phase still happened


def test_a_tied_lead_keeps_playing_until_it_breaks():
    s = two_players()
    s.vp(0, 14)
    s.vp(1, 15)
    s.hand(0, "Invader")
    s.hand(1, "Invader", "Beam Up")
    game = s.build()
    play(game, "Invader", base="Ninja Dojo")
    assert [p.vp for p in game.players] == [15, 15]
    assert game.winner is None and at_turn(game, 2, 1)  # 15-15 at the end of the turn: play on
    end_play(game)
    assert game.winner is None and at_turn(game, 3, 0)
    end_play(game)
    play(game, "Invader", base="Ninja Dojo")  # seat 1: 16 against 15
    assert game.winner is None and game.pending is not None
    end_play(game)
    assert game.winner == 1 and game.pending is None


def test_the_leader_wins_at_the_end_of_anyone_s_turn():
    s = two_players()
    s.vp(0, 3)
    s.vp(1, 15)
    s.hand(0, "Invader")
    game = s.build()
    assert at_turn(game, 1, 0)  # 15 VP does not cut short a turn in progress
    end_play(game)
    assert game.winner == 1 and game.pending is None


def test_below_15_nobody_wins():
    s = two_players()
    s.vp(0, 14)
    s.vp(1, 13)
    s.hand(0, "Invader")
    game = s.build()
    end_play(game)
    assert game.winner is None and at_turn(game, 2, 1)
