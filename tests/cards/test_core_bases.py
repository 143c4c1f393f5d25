"""Every base of the Core Set, scored (or triggered) through the engine.

Each test builds a position with `Scenario`, makes the base score (or its ability happen) and checks
the exact effect: VP, the zone every card ends in, power, who was asked what. The rulings come from
the catalog (shared/cards/core.yaml, `bases`: ability and notes) and the rulebooks: tied players
each use a base's ability, from the current player clockwise (WWWT "Tie Fighter"); cards put away
when a base scores are discarded, not destroyed (WWWT "Scoring a base"); an attached Jammed Signal
cancels the base's abilities.

Every seat holds a card it can play (a Ninja Acolyte), so that a Play Cards phase waits for its
player instead of ending on its own, and when seat 0's turn ends the game stops at seat 1's Play Cards
decision; seat 0 has two cards in its deck, so that its draw at the end of the turn does not shuffle
its discard pile back into its deck.
"""
from __future__ import annotations

import smashup.cards  # noqa: F401  (fills REGISTRY)
from smashup.engine import REGISTRY, Scenario
from smashup.engine.core import MINION
from smashup.engine.simulate import simulate
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
THREE = [("Aliens", "Ninjas"), ("Pirates", "Robots"), ("Wizards", "Zombies")]
FILLER = "Ninja Acolyte"  # a card every seat holds so that its Play Cards phase waits for it
DECK_FILLER = "Way of Deception"  # seat 0's next draws
REPLACEMENT = "Rhodes Plaza Mall"  # the default top of the base deck: out of reach, no effect


def scenario(*bases, players=ALIENS_NINJAS, base_deck=(REPLACEMENT,)):
    """Seat 0's Play Cards phase with `bases` in play (index = position)."""
    s = Scenario(players)
    for name in bases:
        s.base(name)
    for seat in range(len(players)):
        s.hand(seat, FILLER)
    s.deck(0, DECK_FILLER, DECK_FILLER)
    s.base_deck(*base_deck)
    return s


def minions(s, base_index, owner, *names, **kwargs):
    for name in names:
        s.minion(base_index, name, owner=owner, **kwargs)


def zone(game, cid) -> tuple:
    return game.loc[cid]


def vp(game) -> list[int]:
    return [p.vp for p in game.players]


def base_names(game) -> list[str]:
    return [game.name(s.card) for s in game.bases]


def names(game, cards) -> list[str]:
    return [game.name(c) for c in cards]


def option_cards(game) -> set[int]:
    return {o.card for o in game.pending.options if o.card is not None}


def at(game, seat, kind) -> bool:
    return game.pending is not None and (game.pending.seat, game.pending.kind) == (seat, kind)


def seat_1_plays(game) -> bool:
    """Seat 0's turn is over and nothing else was asked: seat 1's Play Cards decision is open."""
    return at(game, 1, "play")


def test_the_core_set_has_its_sixteen_bases_with_the_catalog_numbers():
    expected = {
        "The Homeworld": (23, (4, 2, 1)), "The Mothership": (20, (4, 2, 1)),
        "Jungle Oasis": (12, (2, 0, 0)), "Tar Pits": (16, (4, 3, 2)),
        "Ninja Dojo": (18, (2, 3, 2)), "Temple of Goju": (18, (2, 3, 2)),
        "The Grey Opal": (17, (3, 1, 1)), "Tortuga": (21, (4, 3, 2)),
        "Factory 436-1337": (25, (2, 2, 1)), "The Central Brain": (19, (4, 2, 1)),
        "Cave of Shinies": (23, (4, 2, 1)), "Mushroom Kingdom": (20, (5, 3, 2)),
        "School of Wizardry": (20, (3, 2, 1)), "The Great Library": (22, (4, 2, 1)),
        "Evans City Cemetery": (20, (5, 3, 2)), "Rhodes Plaza Mall": (24, (0, 0, 0)),
    }
    core = {b.name: (b.breakpoint, b.vp) for b in REGISTRY.bases.values() if b.set == "core"}
    assert core == expected
    assert all(REGISTRY.base(name).text for name in expected)


# ====================================================================== The Homeworld ========


def test_homeworld_banks_one_extra_minion_of_power_2_or_less_per_turn():
    s = scenario("The Homeworld", "Ninja Dojo")
    s.hand(0, "Invader", "Collector", "Ninja Acolyte", "Tiger Assassin", "Beam Up")
    game = s.build()
    play(game, "Invader", base="The Homeworld")
    # Banked for the Play Cards phase (no question now): printed power 2 or less, any base.
    assert at(game, 0, "play")
    grants = [g for g in game.turn_state.grants if g.kind == MINION]
    assert [(g.free, g.max_power, g.base) for g in grants] == [(False, 2, None)]
    assert "Play Collector on Ninja Dojo" in labels(game)
    assert not [x for x in labels(game) if "Tiger Assassin" in x]
    play(game, "Collector", base="The Homeworld")
    decline(game)  # the Collector's own "may"
    # Once per turn: the second minion played here gives nothing more.
    assert at(game, 0, "play")
    assert [g for g in game.turn_state.grants if g.kind == MINION] == []
    assert labels(game) == ["Play Beam Up", "End the Play Cards phase"]


def test_homeworld_outside_the_play_phase_the_extra_is_played_at_once_and_counted_per_player():
    s = scenario("The Homeworld", "Ninja Dojo")
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin", "Tiger Assassin",
            "Invader")  # 21
    s.hand(0, "Invader")
    s.hand(1, "Shinobi", "Invader")  # with the filler Ninja Acolyte (power 2)
    game = s.build()
    play(game, "Invader", base="The Homeworld")  # seat 0 uses the Homeworld this turn: 21 -> 24
    assert [g.max_power for g in game.turn_state.grants if g.kind == MINION] == [2]
    end_play(game)
    # Before scoring, seat 1 plays Shinobi on the Homeworld: seat 1's own once-per-turn use.
    assert at(game, 1, "special")
    choose(game, "Shinobi")
    shinobi = card(game, "Shinobi", "minion")
    assert zone(game, shinobi) == ("minion", base_uid(game, "The Homeworld"))
    # Not in its Play Cards phase: seat 1 must play the extra now or lose it; only power 2 or less.
    assert at(game, 1, "extra") and game.pending.may_decline
    assert {game.name(c) for c in option_cards(game)} == {"Ninja Acolyte"}
    choose(game, "Ninja Acolyte on Ninja Dojo")
    acolyte = card(game, "Ninja Acolyte", "minion")
    assert zone(game, acolyte) == ("minion", base_uid(game, "Ninja Dojo"))
    # The Homeworld scores: seat 0 (24) 4 VP + Invader's 1, seat 1 (the Shinobi, 3) 2 VP.
    assert seat_1_plays(game)
    assert vp(game) == [5, 2]


# ====================================================================== The Mothership =======


def test_mothership_winner_may_return_one_minion_of_power_3_or_less_to_hand():
    s = scenario("The Mothership", "Ninja Dojo")
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin", "Invader", "Collector")
    minions(s, 0, 1, "Shinobi")
    game = s.build()
    invader, collector = card(game, "Invader"), card(game, "Collector")
    end_play(game)
    # Seat 0 (19) wins 4, seat 1 (3) 2; only the winner is asked, about its minions of power <= 3.
    assert at(game, 0, "target") and game.pending.may_decline
    assert option_cards(game) == {invader, collector}
    choose(game, invader)
    assert seat_1_plays(game)
    assert vp(game) == [4, 2]
    assert zone(game, invader) == ("hand", 0)
    assert zone(game, collector) == ("discard", 0)
    assert zone(game, card(game, "Shinobi")) == ("discard", 1)
    assert base_names(game) == [REPLACEMENT, "Ninja Dojo"]


def test_mothership_tied_winners_each_return_one_current_player_first():
    s = scenario("The Mothership", "Ninja Dojo")
    minions(s, 0, 0, "Supreme Overlord", "Invader", "Collector")  # 10
    minions(s, 0, 1, "Ninja Master", "Shinobi", "Ninja Acolyte")  # 10
    game = s.build()
    end_play(game)
    assert at(game, 0, "target")
    assert option_cards(game) == {card(game, "Invader"), card(game, "Collector")}
    choose(game, "Collector")
    assert at(game, 1, "target")
    shinobi, acolyte = card(game, "Shinobi"), card(game, "Ninja Acolyte", "minion")
    assert option_cards(game) == {shinobi, acolyte}
    choose(game, shinobi)
    assert seat_1_plays(game)
    assert vp(game) == [4, 4]
    assert zone(game, card(game, "Collector")) == ("hand", 0)
    assert zone(game, shinobi) == ("hand", 1)
    assert zone(game, acolyte) == ("discard", 1)


# ====================================================================== Ninja Dojo ===========


def test_dojo_winner_may_destroy_any_minion_in_play():
    s = scenario("Ninja Dojo", "The Mothership")
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin")  # 14
    minions(s, 0, 1, "Tiger Assassin")  # 4
    minions(s, 1, 1, "Invader")
    minions(s, 1, 0, "Scout")
    game = s.build()
    events = record_events(game)
    end_play(game)
    # Any minion in play: here or elsewhere, anyone's, the winner's own included.
    assert at(game, 0, "target") and game.pending.may_decline
    assert len(option_cards(game)) == 6
    assert_refused(game, ["m999"])
    invader = card(game, "Invader")
    choose(game, invader)
    assert zone(game, invader) == ("discard", 1)
    assert [e.kind for e in events if e.card == invader] == ["destroyed"]
    assert seat_1_plays(game)
    assert vp(game) == [2, 3]  # the Dojo pays 2 to the winner, 3 to the runner-up


def test_dojo_tied_winners_each_may_destroy():
    s = scenario("Ninja Dojo", "The Mothership")
    minions(s, 0, 0, "Supreme Overlord", "Tiger Assassin")  # 9
    minions(s, 0, 1, "Ninja Master", "Tiger Assassin")  # 9
    minions(s, 1, 1, "Invader")
    minions(s, 1, 0, "Scout")
    game = s.build()
    end_play(game)
    assert at(game, 0, "target")
    choose(game, "Invader")
    assert at(game, 1, "target")  # the other winner uses it too
    assert card(game, "Invader") not in option_cards(game)
    decline(game)
    assert seat_1_plays(game)
    assert vp(game) == [2, 2]
    assert zone(game, card(game, "Scout")) == ("minion", base_uid(game, "The Mothership"))


# ====================================================================== Temple of Goju =======


def test_goju_sends_each_players_strongest_minion_to_the_bottom_of_its_owners_deck():
    s = scenario("Temple of Goju", "Ninja Dojo")
    minions(s, 0, 0, "Supreme Overlord", "Invader", "Collector")  # 10
    minions(s, 0, 1, "Tiger Assassin", "Buccaneer")  # 8: a tie for its strongest
    s.deck(1, "Beam Up")
    game = s.build()
    overlord = card(game, "Supreme Overlord")
    end_play(game)
    # Seat 0's strongest is one card (no question); seat 1 picks between its two of power 4
    # (two identical copies would be one option: test_goju_takes_one_of_two_identical...).
    assert at(game, 1, "target") and not game.pending.may_decline
    strongest = set(option_cards(game))
    assert strongest == {card(game, "Tiger Assassin"), card(game, "Buccaneer")}
    chosen = card(game, "Buccaneer")
    choose(game, chosen)
    assert seat_1_plays(game)
    assert vp(game) == [2, 3]
    assert game.players[1].deck[-1] == chosen  # the bottom, under Beam Up
    assert zone(game, card(game, "Tiger Assassin")) == ("discard", 1)
    # Seat 0's deck was two fillers, then the Overlord at the bottom; the end-of-turn draw took
    # the two fillers.
    assert game.players[0].deck == [overlord]
    assert zone(game, card(game, "Invader")) == ("discard", 0)


def test_goju_after_a_scout_went_to_hand_takes_the_strongest_minion_still_bound_for_discard():
    # The first "instead" wins (Scoring.redirect): the Scout, sent to the hand first, is no longer
    # headed for the discard pile, so Goju takes the strongest of the others.
    s = scenario("Temple of Goju", "Ninja Dojo")
    minions(s, 0, 0, "Scout", "Collector")  # 5
    minions(s, 0, 1, "Ninja Master", "Tiger Assassin", "Tiger Assassin")  # 13
    game = s.build()
    scout, collector, master = card(game, "Scout"), card(game, "Collector"), card(game, "Ninja Master")
    end_play(game)
    assert at(game, 0, "order")  # the current player orders the Scout and the base
    choose(game, "Scout")
    choose(game, "Yes")
    assert seat_1_plays(game)  # Goju's picks were forced: one strongest minion each
    assert zone(game, scout) == ("hand", 0)
    assert game.players[0].deck == [collector]
    assert game.players[1].deck == [master]
    assert vp(game) == [3, 2]


def test_goju_sends_a_minion_to_its_owner_not_its_controller():
    s = scenario("Temple of Goju", "Ninja Dojo")
    minions(s, 0, 1, "Ninja Master", controller=0)  # seat 0 controls seat 1's Ninja Master
    minions(s, 0, 0, "Tiger Assassin", "Tiger Assassin", "Invader", "Collector")
    game = s.build()
    master = card(game, "Ninja Master")
    end_play(game)
    assert seat_1_plays(game)
    assert game.players[1].deck == [master]
    assert vp(game) == [2, 0]


# ====================================================================== Jungle Oasis =========


def test_jungle_oasis_pays_only_the_winner():
    s = scenario("Jungle Oasis", "Ninja Dojo")
    minions(s, 0, 0, "Supreme Overlord", "Invader")  # 8
    minions(s, 0, 1, "Tiger Assassin")  # 4: runner-up, worth 0
    game = s.build()
    end_play(game)
    assert seat_1_plays(game)
    assert vp(game) == [2, 0]
    assert zone(game, card(game, "Tiger Assassin")) == ("discard", 1)
    assert base_names(game) == [REPLACEMENT, "Ninja Dojo"]


# ====================================================================== Tar Pits =============


def tar_pits_game():
    s = scenario("Tar Pits", "Ninja Dojo")
    minions(s, 0, 1, "Invader", "Scout")
    minions(s, 1, 1, "Collector")
    s.deck(1, "Beam Up")
    s.hand(0, "Ninja Master", "Seeing Stars")
    return s.build()


def test_tar_pits_first_destruction_each_turn_goes_to_the_deck_bottom_and_is_not_destroyed():
    game = tar_pits_game()
    invader, scout = card(game, "Invader"), card(game, "Scout")
    events = record_events(game)
    play(game, "Ninja Master", base="Tar Pits")
    choose(game, invader)
    assert zone(game, invader) == ("deck", 1)
    assert game.players[1].deck == [card(game, "Beam Up"), invader]  # the bottom
    assert [e.kind for e in events if e.card == invader] == ["placed"]  # not "destroyed"
    assert not [line for line, _ in game.log_lines if "Invader is destroyed" in line]
    # The second destruction here in the same turn happens normally.
    play(game, "Seeing Stars")
    choose(game, scout)
    assert zone(game, scout) == ("discard", 1)
    assert [e.kind for e in events if e.card == scout] == ["destroyed"]


def test_tar_pits_does_not_touch_destructions_on_other_bases():
    game = tar_pits_game()
    collector, scout = card(game, "Collector"), card(game, "Scout")
    play(game, "Seeing Stars")
    choose(game, collector)  # on the Ninja Dojo
    assert zone(game, collector) == ("discard", 1)
    # Its once-per-turn use is still there for a minion on the Tar Pits.
    play(game, "Ninja Master", base="Tar Pits")
    choose(game, scout)
    assert zone(game, scout) == ("deck", 1)


def test_tar_pits_is_used_again_on_the_next_turn():
    s = scenario("Tar Pits", "Ninja Dojo")
    minions(s, 0, 1, "Invader", "Scout")
    s.hand(0, "Seeing Stars")
    s.hand(1, "Seeing Stars")
    minions(s, 0, 0, "Collector")
    game = s.build()
    invader, collector = card(game, "Invader"), card(game, "Collector")
    play(game, "Seeing Stars", index=0)
    choose(game, invader)
    assert zone(game, invader) == ("deck", 1)
    end_play(game)
    assert seat_1_plays(game)
    play(game, "Seeing Stars")
    choose(game, collector)
    assert game.players[0].deck[-1] == collector


def test_jammed_signal_on_tar_pits_lets_the_destruction_happen():
    game_data = scenario("Tar Pits", "Ninja Dojo")
    minions(game_data, 0, 1, "Invader")
    game_data.base_action(0, "Jammed Signal", owner=1)
    game_data.hand(0, "Seeing Stars")
    game = game_data.build()
    invader = card(game, "Invader")
    play(game, "Seeing Stars")
    assert zone(game, invader) == ("discard", 1)  # the only target: no question


# ====================================================================== The Grey Opal ========


def test_grey_opal_each_non_winner_may_move_a_minion_away_instead_of_the_discard_pile():
    s = scenario("The Grey Opal", "Ninja Dojo", "The Mothership", players=THREE)
    minions(s, 0, 0, "Supreme Overlord", "Invader")  # 8: the winner
    s.minion(0, "Tiger Assassin", owner=1, attached=[("Smoke Bomb", 1)])
    minions(s, 0, 1, "Ninja Acolyte")  # seat 1: 6
    minions(s, 0, 2, "Invader")  # seat 2: 3
    game = s.build()
    tiger = card(game, "Tiger Assassin")
    bomb = card(game, "Smoke Bomb")
    events = record_events(game)
    end_play(game)
    # The winner is not asked; seat 1 then seat 2, each about their own minions here.
    assert at(game, 1, "target") and game.pending.may_decline
    assert option_cards(game) == {tiger, card(game, "Ninja Acolyte", "minion")}
    choose(game, tiger)
    assert at(game, 1, "base")
    assert labels(game) == ["Ninja Dojo", "The Mothership"]  # another base, not this one
    choose(game, "Ninja Dojo")
    assert zone(game, tiger) == ("minion", game.bases[0].uid)  # still here until step 7
    assert at(game, 2, "target")
    assert option_cards(game) == {card(game, "Invader", index=1)}
    decline(game)
    assert seat_1_plays(game)
    dojo = base_uid(game, "Ninja Dojo")
    assert zone(game, tiger) == ("minion", dojo)
    assert zone(game, bomb) == ("attached", tiger)  # a move keeps what is attached
    assert [e.kind for e in events if e.card == tiger] == ["moved"]
    assert zone(game, card(game, "Ninja Acolyte", "discard")) == ("discard", 1)
    assert zone(game, card(game, "Invader", index=1)) == ("discard", 2)
    assert vp(game) == [3, 1, 1]


def test_grey_opal_tied_winners_do_not_move():
    s = scenario("The Grey Opal", "Ninja Dojo")
    minions(s, 0, 0, "Supreme Overlord", "Tiger Assassin")  # 9
    minions(s, 0, 1, "Ninja Master", "Tiger Assassin")  # 9
    game = s.build()
    end_play(game)
    assert seat_1_plays(game)  # nobody was asked
    assert vp(game) == [3, 3]
    assert game.bases[1].minions == []


def test_grey_opal_a_minion_moved_away_can_make_another_base_score():
    s = scenario("The Grey Opal", "Jungle Oasis", base_deck=(REPLACEMENT, "Tar Pits"))
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin")  # 14
    minions(s, 0, 1, "Tiger Assassin")  # 4
    minions(s, 1, 0, "Supreme Overlord", "Invader")  # 8 on the Oasis (breakpoint 12)
    game = s.build()
    end_play(game)
    choose(game, "Tiger Assassin")  # seat 1; the Oasis is the only other base
    # 12 on the Oasis now: it scores in the same phase (seat 0 8, seat 1 4).
    assert seat_1_plays(game)
    assert vp(game) == [3 + 2, 1 + 0]
    assert base_names(game) == [REPLACEMENT, "Tar Pits"]
    assert names(game, game.base_discard) == ["The Grey Opal", "Jungle Oasis"]


# ====================================================================== Tortuga ==============


def tortuga_game(jammed=False):
    s = scenario("Tortuga", "Ninja Dojo", base_deck=("The Mothership", REPLACEMENT))
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin")  # 14
    minions(s, 0, 1, "Invader", "Collector", "Ninja Acolyte")  # 7
    minions(s, 1, 1, "Tiger Assassin")
    minions(s, 1, 0, "Scout")
    if jammed:
        s.base_action(0, "Jammed Signal", owner=1)
    return s.build()


def test_tortuga_runner_up_may_move_a_minion_onto_the_replacement_base():
    game = tortuga_game()
    tiger = card(game, "Tiger Assassin", index=1)
    assert game.minion_state[tiger].controller == 1
    end_play(game)
    # The replacement is already out when the runner-up decides.
    assert base_names(game) == ["The Mothership", "Ninja Dojo"]
    assert at(game, 1, "target") and game.pending.may_decline
    assert option_cards(game) == {tiger}  # only the runner-up's own minions
    choose(game, tiger)
    assert zone(game, tiger) == ("minion", base_uid(game, "The Mothership"))
    assert seat_1_plays(game)
    assert vp(game) == [4, 3]
    assert zone(game, card(game, "Scout")) == ("minion", base_uid(game, "Ninja Dojo"))


def test_jammed_signal_on_tortuga_cancels_the_move():
    game = tortuga_game(jammed=True)
    end_play(game)
    assert seat_1_plays(game)
    assert vp(game) == [4, 3]
    assert zone(game, card(game, "Jammed Signal")) == ("discard", 1)
    assert zone(game, card(game, "Tiger Assassin", index=1)) == ("minion",
                                                                  base_uid(game, "Ninja Dojo"))


# ====================================================================== Factory 436-1337 =====


def test_factory_winner_gains_1_vp_per_full_5_power_there():
    s = scenario("Factory 436-1337", "Ninja Dojo")
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin", "Invader")  # 17
    minions(s, 0, 1, "Tiger Assassin", "Shinobi", "Ninja Acolyte")  # 9
    game = s.build()
    end_play(game)
    assert seat_1_plays(game)
    assert vp(game) == [2 + 3, 2]  # 17 // 5 = 3; the runner-up gets nothing more
    assert any("gains 3 VP (Factory 436-1337)" in line for line, _ in game.log_lines)


def test_factory_tied_winners_each_gain_the_bonus():
    s = scenario("Factory 436-1337", "Ninja Dojo")
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Invader")  # 13
    minions(s, 0, 1, "Supreme Overlord", "Ninja Master", "Shinobi")  # 13
    game = s.build()
    end_play(game)
    assert seat_1_plays(game)
    assert vp(game) == [2 + 2, 2 + 2]


# ====================================================================== The Central Brain ====


def brain_game(jammed=False):
    s = scenario("The Central Brain", "Ninja Dojo")
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Invader")  # 13 printed
    minions(s, 0, 1, "Tiger Assassin")  # 4 printed: 17 < 19, 21 with the Brain
    minions(s, 1, 0, "Invader")
    if jammed:
        s.base_action(0, "Jammed Signal", owner=1)
    return s.build()


def test_central_brain_gives_each_minion_here_plus_1_power():
    game = brain_game()
    brain_invader, dojo_invader = card(game, "Invader", index=0), card(game, "Invader", index=1)
    assert game.power(brain_invader) == 4
    assert game.power(card(game, "Tiger Assassin")) == 5  # every player's
    assert game.power(dojo_invader) == 3  # not elsewhere
    assert game.total_power(game.bases[0]) == 21
    end_play(game)  # 21 >= 19: it scores
    assert seat_1_plays(game)
    assert vp(game) == [4, 2]


def test_central_brain_bonus_is_lost_when_the_minion_leaves():
    s = scenario("The Central Brain", "Ninja Dojo")
    minions(s, 0, 0, "Invader")
    s.hand(0, "Way of Deception")
    game = s.build()
    invader = card(game, "Invader")
    assert game.power(invader) == 4
    play(game, "Way of Deception")
    choose(game, "Ninja Dojo")  # the only minion is forced; then the base
    assert zone(game, invader) == ("minion", base_uid(game, "Ninja Dojo"))
    assert game.power(invader) == 3


def test_jammed_signal_on_the_central_brain_cancels_the_bonus():
    game = brain_game(jammed=True)
    assert game.power(card(game, "Invader", index=0)) == 3
    assert game.total_power(game.bases[0]) == 17
    end_play(game)  # below 19: no scoring
    assert seat_1_plays(game)
    assert vp(game) == [0, 0]
    assert base_names(game) == ["The Central Brain", "Ninja Dojo"]


# ====================================================================== Cave of Shinies ======


def cave_game(jammed=False):
    s = scenario("Cave of Shinies", "Ninja Dojo")
    minions(s, 0, 1, "Invader", controller=0)  # seat 1 owns it, seat 0 controls it
    minions(s, 0, 1, "Scout")
    minions(s, 1, 1, "Collector")
    if jammed:
        s.base_action(0, "Jammed Signal", owner=1)
    s.hand(0, "Ninja Master", "Seeing Stars")
    return s.build()


def test_cave_of_shinies_the_owner_gains_1_vp_when_a_minion_here_is_destroyed():
    game = cave_game()
    invader = card(game, "Invader")
    play(game, "Ninja Master", base="Cave of Shinies")
    choose(game, invader)
    assert zone(game, invader) == ("discard", 1)
    assert vp(game) == [0, 1]  # the owner, not the controller
    # A minion destroyed on another base gives nothing.
    play(game, "Seeing Stars")
    choose(game, "Collector")
    assert zone(game, card(game, "Collector")) == ("discard", 1)
    assert vp(game) == [0, 1]


def test_cave_of_shinies_pays_for_a_minion_destroyed_by_another_base_scoring():
    s = scenario("Ninja Dojo", "Cave of Shinies")
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin", "Tiger Assassin")
    minions(s, 1, 1, "Scout")
    game = s.build()
    end_play(game)
    choose(game, "Scout")  # the Dojo's winner destroys the Scout on the Cave
    assert seat_1_plays(game)
    assert vp(game) == [2, 1]


def test_cave_of_shinies_minions_discarded_when_it_scores_give_nothing():
    s = scenario("Cave of Shinies", "Ninja Dojo")
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin", "Tiger Assassin")  # 18
    minions(s, 0, 1, "Ninja Master")  # 5
    game = s.build()
    end_play(game)
    assert seat_1_plays(game)
    assert vp(game) == [4, 2]  # the places only
    assert zone(game, card(game, "Ninja Master", index=1)) == ("discard", 1)


def test_jammed_signal_on_cave_of_shinies_cancels_the_vp():
    game = cave_game(jammed=True)
    play(game, "Ninja Master", base="Cave of Shinies")
    choose(game, "Invader")
    assert zone(game, card(game, "Invader")) == ("discard", 1)
    assert vp(game) == [0, 0]


# ====================================================================== Mushroom Kingdom =====


def test_mushroom_kingdom_at_the_start_of_each_turn_that_player_may_pull_in_anothers_minion():
    s = scenario("Mushroom Kingdom", "Ninja Dojo")
    s.turn(current=0, phase="start")
    minions(s, 0, 1, "Scout")  # already here: not a choice
    minions(s, 1, 1, "Tiger Assassin")
    minions(s, 1, 0, "Invader")  # seat 0's own: not a choice for seat 0
    s.hand(0, "Beam Up")
    game = s.build()
    tiger, invader = card(game, "Tiger Assassin"), card(game, "Invader")
    mushroom = base_uid(game, "Mushroom Kingdom")
    assert at(game, 0, "target") and game.pending.may_decline
    assert option_cards(game) == {tiger}
    choose(game, tiger)
    assert zone(game, tiger) == ("minion", mushroom)
    assert game.minion_state[tiger].controller == 1  # moved, not taken over
    assert at(game, 0, "play")
    end_play(game)
    # Seat 1's turn starts: its choice is among seat 0's minions elsewhere.
    assert at(game, 1, "target")
    assert option_cards(game) == {invader}
    decline(game)
    assert seat_1_plays(game)
    assert zone(game, invader) == ("minion", base_uid(game, "Ninja Dojo"))


# ====================================================================== School of Wizardry ===


def school_game(seat_1_ties=False, jammed=False):
    s = scenario("School of Wizardry", "Ninja Dojo",
                 base_deck=("Tar Pits", "Tortuga", "Jungle Oasis", "The Great Library"))
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin")  # 14
    if seat_1_ties:
        minions(s, 0, 1, "Supreme Overlord", "Ninja Master", "Tiger Assassin")
    else:
        minions(s, 0, 1, "Tiger Assassin", "Tiger Assassin")
    if jammed:
        s.base_action(0, "Jammed Signal", owner=1)
    return s.build()


def test_school_of_wizardry_winner_picks_the_replacement_from_the_top_3_and_orders_the_rest():
    game = school_game()
    end_play(game)
    assert at(game, 0, "cards")
    assert labels(game) == ["Tar Pits", "Tortuga", "Jungle Oasis"]
    # The winner sees them; nobody else does.
    assert [c["name"] for c in game.view(0)["pending"]["reveal"]] == labels(game)
    assert "reveal" not in game.view(1)["pending"]
    assert_refused(game, [])
    choose(game, "Jungle Oasis")
    assert at(game, 0, "cards")
    assert labels(game) == ["Tar Pits", "Tortuga"]
    choose(game, "Tortuga")  # on top, then the Tar Pits
    assert seat_1_plays(game)
    assert base_names(game) == ["Jungle Oasis", "Ninja Dojo"]
    assert names(game, game.base_deck) == ["Tortuga", "Tar Pits", "The Great Library"]
    assert vp(game) == [3, 2]


def test_school_of_wizardry_tied_winners_each_use_it_and_the_last_pick_stands():
    game = school_game(seat_1_ties=True)
    end_play(game)
    assert at(game, 0, "cards")
    choose(game, "Jungle Oasis")
    choose(game, "Tortuga")
    # Seat 1 sees the top 3 as seat 0 left them.
    assert at(game, 1, "cards")
    assert labels(game) == ["Jungle Oasis", "Tortuga", "Tar Pits"]
    choose(game, "Tar Pits")
    choose(game, "Jungle Oasis")
    assert seat_1_plays(game)
    assert base_names(game) == ["Tar Pits", "Ninja Dojo"]
    assert names(game, game.base_deck) == ["Jungle Oasis", "Tortuga", "The Great Library"]
    assert vp(game) == [3, 3]


def test_jammed_signal_on_school_of_wizardry_replaces_it_from_the_top():
    game = school_game(jammed=True)
    end_play(game)
    assert seat_1_plays(game)
    assert base_names(game) == ["Tar Pits", "Ninja Dojo"]
    assert names(game, game.base_deck) == ["Tortuga", "Jungle Oasis", "The Great Library"]


# ====================================================================== The Great Library ====


def test_great_library_each_player_with_a_minion_there_may_draw_a_card():
    s = scenario("The Great Library", "Ninja Dojo", players=THREE)
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin")  # 14
    minions(s, 0, 1, "Tiger Assassin", "Tiger Assassin")  # 8
    minions(s, 1, 2, "Invader")  # seat 2 has nothing on the Library
    s.deck(1, "Beam Up")
    s.deck(2, "Beam Up")
    game = s.build()
    assert game.players[0].deck == [card(game, DECK_FILLER, index=i) for i in (0, 1)]
    end_play(game)
    assert at(game, 0, "confirm")
    choose(game, "No")
    assert at(game, 1, "confirm")
    choose(game, "Yes")
    assert seat_1_plays(game)  # seat 2 was not asked
    assert names(game, game.players[1].hand) == [FILLER, "Beam Up"]
    assert names(game, game.players[2].deck) == ["Beam Up"]
    assert len(game.players[0].hand) == 1 + 2  # the filler and its end-of-turn draw
    assert vp(game) == [4, 2, 0]


# ====================================================================== Evans City Cemetery ==


def test_evans_city_cemetery_winner_discards_their_hand_and_draws_5():
    s = scenario("Evans City Cemetery", "Ninja Dojo")
    minions(s, 0, 1, "Supreme Overlord", "Ninja Master", "Tiger Assassin")  # 14
    minions(s, 0, 0, "Tiger Assassin", "Invader")  # 7
    s.hand(1, "Beam Up")  # with the filler Ninja Acolyte
    s.deck(1, "Invader", "Scout", "Collector", "Shinobi", "Seeing Stars", "Disintegrator")
    s.hand(0, "Probe")
    game = s.build()
    old_hand = list(game.players[1].hand)
    end_play(game)
    assert seat_1_plays(game)
    assert vp(game) == [3, 5]
    assert names(game, game.players[1].hand) == [
        "Invader", "Scout", "Collector", "Shinobi", "Seeing Stars"]
    assert names(game, game.players[1].deck) == ["Disintegrator"]
    assert set(old_hand) <= set(game.players[1].discard)
    assert zone(game, card(game, "Probe")) == ("hand", 0)  # the runner-up keeps its hand


# ====================================================================== Rhodes Plaza Mall ====


def test_rhodes_plaza_mall_each_player_gains_1_vp_per_minion_there_and_no_place_vp():
    s = scenario("Rhodes Plaza Mall", "Ninja Dojo", players=THREE, base_deck=("Jungle Oasis",))
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin")  # 14, 3 minions
    minions(s, 0, 1, "Tiger Assassin", "Invader")  # 7, 2 minions
    minions(s, 0, 2, "Invader")  # 3, 1 minion
    minions(s, 1, 2, "Collector")  # elsewhere: does not count
    game = s.build()
    end_play(game)
    assert seat_1_plays(game)
    assert vp(game) == [3, 2, 1]


def test_jammed_signal_on_rhodes_plaza_mall_leaves_nothing_to_gain():
    s = scenario("Rhodes Plaza Mall", "Ninja Dojo", base_deck=("Jungle Oasis",))
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin", "Tiger Assassin")
    minions(s, 0, 1, "Supreme Overlord", "Invader")
    s.base_action(0, "Jammed Signal", owner=1)
    game = s.build()
    end_play(game)
    assert seat_1_plays(game)
    assert vp(game) == [0, 0]


# ====================================================================== every base in play ===


def test_random_games_with_all_sixteen_bases_keep_every_invariant():
    result = simulate(30, [2, 3, 4], seed=16, bots="random")
    assert result["games"] == 30
    assert result["violations"] == 0, result["violation_details"]


# ====================================================================== identical copies =====
# Issue 24, mechanism 7: two copies a player cannot tell apart (the same name, base, controller,
# owner, power, counters, attachments) are one option at every base's question. A choice among
# copies only is made without asking.


def shown(game) -> list[str]:
    """The options a player sees (an identical copy's is not shown: core.Option.alike)."""
    return labels(game)


def test_dojo_offers_identical_copies_once():
    s = scenario("Ninja Dojo", "The Mothership")
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin", "Invader", "Collector")
    minions(s, 1, 1, "King Rex", "King Rex")
    game = s.build()
    end_play(game)
    assert at(game, 0, "target")
    assert shown(game).count("King Rex (7, P1) on The Mothership") == 1
    assert len(option_cards(game)) == 7  # both copies' ids are still accepted (old records)


def test_goju_takes_one_of_two_identical_strongest_without_asking():
    s = scenario("Temple of Goju", "Ninja Dojo")
    minions(s, 0, 0, "Supreme Overlord", "Invader", "Collector")  # 10
    minions(s, 0, 1, "King Rex", "King Rex")  # 14: a tie of identical copies
    game = s.build()
    end_play(game)
    assert seat_1_plays(game)  # nobody was asked which King Rex
    assert game.name(game.players[1].deck[-1]) == "King Rex"
    assert names(game, game.players[1].discard) == ["King Rex"]


def test_mothership_offers_identical_copies_once():
    s = scenario("The Mothership", "Ninja Dojo")
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin", "Invader", "Invader")
    minions(s, 0, 1, "Shinobi")
    game = s.build()
    end_play(game)
    assert at(game, 0, "target")
    assert shown(game) == ["Invader (3, P0) on The Mothership"]


def test_grey_opal_offers_identical_copies_once():
    s = scenario("The Grey Opal", "Ninja Dojo")
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin", "Invader")  # 16
    minions(s, 0, 1, "King Rex", "King Rex")  # 14
    game = s.build()
    end_play(game)
    assert at(game, 1, "target")
    assert shown(game) == ["King Rex (7, P1) on The Grey Opal"]


def test_tortuga_offers_identical_copies_once():
    s = scenario("Tortuga", "Ninja Dojo", base_deck=("The Mothership", REPLACEMENT))
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin")  # 14
    minions(s, 0, 1, "Invader", "Collector", "Ninja Acolyte")  # 7: runner-up
    minions(s, 1, 1, "King Rex", "King Rex")
    game = s.build()
    end_play(game)
    assert at(game, 1, "target")
    assert shown(game) == ["King Rex (7, P1) on Ninja Dojo"]


def test_mushroom_kingdom_offers_identical_copies_once():
    s = scenario("Mushroom Kingdom", "Ninja Dojo")
    s.turn(current=0, phase="start")
    minions(s, 1, 1, "King Rex", "King Rex")
    s.hand(0, "Beam Up")
    game = s.build()
    assert at(game, 0, "target")
    assert shown(game) == ["King Rex (7, P1) on Ninja Dojo"]


def test_copies_told_apart_by_counters_owner_or_attachments_read_differently():
    s = scenario("Ninja Dojo", "The Mothership")
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin", "Invader", "Collector")
    s.minion(1, "Invader", owner=1)
    s.minion(1, "Invader", owner=1, counters=1)
    s.minion(1, "Invader", owner=0, controller=1)
    s.minion(1, "Invader", owner=1, attached=[("Upgrade", 1)])
    game = s.build()
    end_play(game)
    invaders = [label for label in shown(game) if label.endswith("on The Mothership")]
    assert sorted(invaders) == sorted([
        "Invader (3, P1) on The Mothership",
        "Invader (4, 1 counter, P1) on The Mothership",
        "Invader (3, P1, P0's card) on The Mothership",
        "Invader (5, P1, with Upgrade) on The Mothership",
    ])


# ====================================================================== who does it ==========
# Issue 24, mechanism 2: a base's ability that says who acts ("the winner may", "each player",
# "that player may") is done by that player: the cards that ask who destroyed or moved a minion,
# and the protections "by other players", read them.


def dojo_game(*extra):
    s = scenario("Ninja Dojo", "The Mothership")
    minions(s, 0, 0, "Supreme Overlord", "Ninja Master", "Tiger Assassin", "Invader", "Collector")
    for add in extra:
        add(s)
    return s


def test_dojo_the_winner_destroys_so_their_mako_may_follow():
    s = dojo_game(lambda s: s.minion(1, "Invader", owner=1))
    s.hand(0, "Mako")
    game = s.build()
    end_play(game)
    choose(game, card(game, "Invader", index=1))  # seat 1's Invader on The Mothership
    # "After you destroy a minion": the winner destroyed it, so the winner's Mako may follow.
    assert at(game, 0, "special") and "Play Mako on the base where you destroyed a minion" in \
        labels(game)
    choose(game, "Play Mako")
    assert zone(game, card(game, "Mako")) == ("minion", base_uid(game, "The Mothership"))


def test_dojo_the_winner_is_another_player_to_expanded_power():
    s = dojo_game(lambda s: s.minion(1, "Invader", owner=1, attached=[("Expanded Power", 1)]),
                  lambda s: s.minion(1, "Collector", owner=1))
    game = s.build()
    end_play(game)
    invader = card(game, "Invader", index=1)
    assert at(game, 0, "target") and invader not in option_cards(game)


def test_grey_opal_the_move_away_is_the_players_so_another_imperial_dragon_draws():
    s = scenario("The Grey Opal", "Ninja Dojo", players=THREE)
    minions(s, 0, 0, "Supreme Overlord", "King Rex")  # 12: the winner
    minions(s, 0, 1, "Ninja Acolyte", "Tiger Assassin")  # 6
    minions(s, 1, 2, "Imperial Dragon")  # seat 2's, on the Dojo
    s.deck(2, "Invader", "Invader")
    game = s.build()
    end_play(game)
    choose(game, card(game, "Ninja Acolyte", "minion"))  # seat 1 moves it to the Dojo
    # Seat 1 moved a minion onto the Dojo: seat 2's Imperial Dragon draws a card.
    assert len(game.players[2].hand) == 2


def test_mushroom_kingdom_that_player_moves_so_a_hatchling_there_snaps():
    s = scenario("Mushroom Kingdom", "Ninja Dojo")
    s.turn(current=0, phase="start")
    minions(s, 0, 1, "Hatchling")  # seat 1's, at the Kingdom
    minions(s, 1, 1, "Tiger Assassin")
    s.hand(0, "Beam Up")
    game = s.build()
    tiger = card(game, "Tiger Assassin")
    choose(game, tiger)  # seat 0 moves seat 1's Tiger Assassin to the Kingdom
    assert zone(game, tiger) == ("minion", base_uid(game, "Mushroom Kingdom"))
    # Another player (seat 0) moved a minion here: the Hatchling gives it -1.
    assert game.power(tiger) == 3
