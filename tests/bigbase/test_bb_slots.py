"""Slots: a player's cards on a side are in one slot, a slot holds one player's cards; the
controller picks a free slot on arrival; "on occupation" fires when a card enters an empty slot
and not again while it holds cards; ongoing slot abilities; the virtual 4th slot."""
from bigbase_support import board_with_slot, scenario, side_uid

from smashup.engine import invariants
from smashup.engine.testing import assert_refused, choose, decline, end_play, labels, play

DRAW_ONE = {"ability": "on_occupation", "effect": {"draw": 1}}


def test_a_player_picks_a_free_slot_when_entering_a_side():
    s = scenario()
    s.hand(0, "King Rex", "Buccaneer")
    game = s.build()
    play(game, "King Rex", base="North")
    assert game.pending.kind == "slot"
    assert labels(game) == ["North slot 1 (no ability)", "North slot 2 (no ability)",
                            "North slot 3 (no ability)"]
    choose(game, "slot 2")
    north = side_uid(game, "North")
    assert game.holders[north] == [None, 0, None]
    assert game.slot_of(north, 0) == 1
    assert invariants.check(game) == []


def test_a_card_played_where_you_already_are_goes_to_your_slot_without_asking():
    s = scenario()
    s.minion("North", "King Rex", owner=0, slot=2)
    s.hand(0, "Buccaneer", "Tenacious Z")
    s.discard(0)
    game = s.build()
    game.turn_state.grants.append(game.turn_state.grants[0].__class__("minion"))
    play(game, "Buccaneer", base="North")
    assert game.pending.kind == "play"  # no slot question
    north = side_uid(game, "North")
    assert game.holders[north] == [None, None, 0]


def test_a_slot_holding_another_players_cards_is_not_offered():
    s = scenario()
    s.minion("North", "Zapbot", owner=1, slot=0)
    s.hand(0, "King Rex", "Howl")  # Howl: something left to play, so the turn waits
    game = s.build()
    play(game, "King Rex", base="North")
    assert labels(game) == ["North slot 2 (no ability)", "North slot 3 (no ability)"]
    assert_refused(game, ["o0"])  # the other player's slot
    choose(game, "slot 3")
    assert game.holders[side_uid(game, "North")] == [1, None, 0]


def test_the_only_free_slot_is_taken_without_asking():
    s = scenario(players=3)
    s.minion("East", "Zapbot", owner=1, slot=0)
    s.minion("East", "Invader", owner=2, slot=2)
    s.hand(0, "King Rex", "Howl")
    game = s.build()
    play(game, "King Rex", base="East")
    assert game.holders[side_uid(game, "East")] == [1, 0, 2]
    assert game.pending.kind == "play"


def test_four_players_have_a_virtual_fourth_slot_without_ability():
    s = scenario(players=4)
    s.minion("East", "Zapbot", owner=1, slot=0)
    s.minion("East", "Invader", owner=2, slot=1)
    s.base_action("East", "Enshrouding Mist", owner=3, slot=2)
    s.hand(0, "King Rex", "Howl")
    game = s.build()
    east = side_uid(game, "East")
    assert len(game.holders[east]) == 4
    play(game, "King Rex", base="East")
    assert game.holders[east] == [1, 2, 3, 0]
    assert game.slot_ability(east, 3) is None


def test_on_occupation_fires_when_the_slot_was_empty_and_not_again():
    s = scenario(board_data=board_with_slot(0, 0, DRAW_ONE))
    s.hand(0, "King Rex", "Buccaneer", "Howl")
    s.deck(0, "War Raptor", "Armor Stego", "Laseratops")
    game = s.build()
    game.turn_state.grants.append(game.turn_state.grants[0].__class__("minion"))
    play(game, "King Rex", base="North")
    choose(game, "slot 1")
    assert [game.name(c) for c in game.players[0].hand] == ["Buccaneer", "Howl", "War Raptor"]
    assert any(e for e in game.log_lines if "takes North slot 1" in e[0])
    play(game, "Buccaneer", base="North")  # the slot already holds their cards
    assert [game.name(c) for c in game.players[0].hand] == ["Howl", "War Raptor"]


def test_on_occupation_fires_again_after_the_slot_was_emptied():
    s = scenario(board_data=board_with_slot(0, 0, DRAW_ONE))
    s.minion("North", "War Raptor", owner=0, slot=0)
    s.hand(0, "King Rex", "Natural Selection")
    s.deck(0, "Armor Stego", "Laseratops")
    game = s.build()
    north = side_uid(game, "North")
    # Gone from the slot (returned to hand by hand here, as an effect would): the slot is empty.
    raptor = next(m for m in game.slot(north).minions)
    game.move_card(raptor, ("hand", 0))
    assert game.free_slots(north) == [0, 1, 2]
    play(game, "King Rex", base="North")
    choose(game, "slot 1")
    assert "Armor Stego" in [game.name(c) for c in game.players[0].hand]


def test_a_minion_moved_to_another_side_takes_a_slot_there_chosen_by_its_controller():
    s = scenario(board_data=board_with_slot(1, 1, DRAW_ONE))
    s.minion("North", "War Raptor", owner=1, slot=0)
    s.hand(0, "Shanghai", "King Rex")
    s.deck(1, "Zapbot")
    s.turn(current=0)
    game = s.build()
    play(game, "Shanghai")  # the only minion of another player: chosen at once
    choose(game, "East")
    # The moved minion's controller (seat 1) picks its slot on East, and draws from the slot.
    assert game.pending.seat == 1 and game.pending.kind == "slot"
    choose(game, "slot 2")
    east = side_uid(game, "East")
    assert game.holders[east] == [None, 1, None]
    assert [game.name(c) for c in game.players[1].hand] == ["Zapbot"]
    assert game.slot_of(side_uid(game, "North"), 1) is None


def test_an_action_on_a_side_occupies_a_slot_but_one_on_another_players_minion_does_not():
    s = scenario()
    s.minion("North", "Zapbot", owner=1, slot=0)
    s.hand(0, "Upgrade", "Wildlife Preserve", "King Rex")
    game = s.build()
    game.turn_state.grants.append(game.turn_state.grants[1].__class__("action"))
    play(game, "Upgrade")  # the only minion in play: attached at once
    north = side_uid(game, "North")
    assert game.holders[north] == [1, None, None]
    play(game, "Wildlife Preserve")
    choose(game, "North")
    choose(game, "slot 3")
    assert game.holders[north] == [1, None, 0]
    assert invariants.check(game) == []


def test_ongoing_first_minion_counter_once_per_round():
    ongoing = {"ability": "ongoing", "effect": {"first_minion_counter": True}}
    s = scenario(board_data=board_with_slot(0, 0, ongoing))
    s.minion("North", "War Raptor", owner=0, slot=0)
    s.hand(0, "King Rex", "Buccaneer", "Howl")
    game = s.build()
    game.turn_state.grants.append(game.turn_state.grants[0].__class__("minion"))
    play(game, "King Rex", base="North")
    rex = next(m for m in game.all_minions() if game.name(m) == "King Rex")
    assert game.minion_state[rex].counters == 1
    play(game, "Buccaneer", base="North")
    buc = next(m for m in game.all_minions() if game.name(m) == "Buccaneer")
    assert game.minion_state[buc].counters == 0


def test_slot_ability_extra_minion_here():
    extra = {"ability": "on_occupation", "effect": {"extra_minion": {"max_power": 2, "here": True}}}
    s = scenario(board_data=board_with_slot(1, 0, extra))
    s.hand(0, "King Rex", "War Raptor", "Buccaneer", "Howl")
    game = s.build()
    play(game, "King Rex", base="East")
    choose(game, "slot 1")
    # The extra play is banked in the Play Cards phase: a minion of power 2 or less, on East.
    options = labels(game)
    assert "Play War Raptor on East" in options
    assert "Play War Raptor on North" not in options
    assert not any("Buccaneer" in o for o in options)
    play(game, "War Raptor", base="East")
    assert game.slot_of(side_uid(game, "East"), 0) == 0


def test_slot_ability_power_counters():
    counters = {"ability": "on_occupation", "effect": {"power_counter": 2}}
    s = scenario(board_data=board_with_slot(2, 0, counters))
    s.hand(0, "Buccaneer", "Howl")
    game = s.build()
    play(game, "Buccaneer", base="South")
    choose(game, "slot 1")
    # The only minion of theirs there gets them at once.
    buc = next(m for m in game.all_minions() if game.name(m) == "Buccaneer")
    assert game.minion_state[buc].counters == 2
    assert game.power(buc) == 4 + 2 + 1  # and The Central Brain's +1 on every side


def test_slot_ability_scry_puts_chosen_cards_under_the_deck():
    s = scenario(board_data=board_with_slot(3, 0, {"ability": "on_occupation",
                                                    "effect": {"scry": 2}}))
    s.hand(0, "Buccaneer", "Howl")
    s.deck(0, "War Raptor", "Augmentation", "Armor Stego")
    game = s.build()
    play(game, "Buccaneer", base="West")
    choose(game, "slot 1")
    # The two top cards are shown to their owner only while deciding.
    assert {game.name(c) for c in game.pending.reveal} == {"War Raptor", "Augmentation"}
    assert invariants.check(game) == []
    choose(game, "War Raptor")  # to the bottom
    decline(game)  # no more
    assert [game.name(c) for c in game.players[0].deck] == ["Augmentation", "Armor Stego",
                                                            "War Raptor"]


def test_slot_ability_loot_and_scry():
    data = board_with_slot(2, 0, {"ability": "on_occupation",
                                  "effect": {"loot": {"draw": 2, "discard": 1}}})
    data["sides"][3]["slots"][0] = {"ability": "on_occupation", "effect": {"scry": 2}}
    s = scenario(board_data=data)
    s.hand(0, "Buccaneer", "Howl")
    s.deck(0, "War Raptor", "Augmentation", "Armor Stego", "Laseratops")
    game = s.build()
    play(game, "Buccaneer", base="South")
    choose(game, "slot 1")
    assert game.pending.kind == "cards"  # discard one after drawing two
    choose(game, "Augmentation")
    assert [game.name(c) for c in game.players[0].hand] == ["Howl", "War Raptor"]
    assert [game.name(c) for c in game.players[0].discard] == ["Augmentation"]


def test_slot_questions_and_the_occupancy_invariant():
    s = scenario()
    s.minion("North", "King Rex", owner=0, slot=0)
    s.hand(0, "Howl")
    game = s.build()
    north = side_uid(game, "North")
    assert game.mode_problems() == []
    game.holders[north] = [None, None, None]
    assert game.mode_problems() == ["seat 0 has cards on North but holds 0 slots there"]
    game.holders[north] = [0, None, None]
    end_play(game)


def test_unused_helpers_are_exercised():
    # `decline` is part of the testing vocabulary used with optional slot abilities.
    move_in = {"ability": "on_occupation", "effect": {"move_in": True}}
    s = scenario(board_data=board_with_slot(2, 0, move_in))
    s.minion("North", "Buccaneer", owner=0, slot=0)
    s.hand(0, "King Rex", "Howl")
    game = s.build()
    play(game, "King Rex", base="South")
    choose(game, "slot 1")
    assert game.pending.min_count == 0  # "you may"
    decline(game)
    assert game.slot_of(side_uid(game, "North"), 0) == 0


def test_the_default_boards_extra_action_slot_banks_an_action_in_the_play_phase():
    from bigbase_support import board

    s = scenario(board_data=board("default"))
    s.hand(0, "King Rex", "Howl", "Augmentation")
    s.turn(current=0, actions_played=1)
    game = s.build()
    assert not any(label.startswith("Play Howl") for label in labels(game))
    play(game, "King Rex", base="North")
    assert "North slot 2 (On occupation: you may play an extra action)" in labels(game)
    choose(game, "slot 2")
    assert "Play Howl" in labels(game)
    play(game, "Howl")
    # One extra action only: with nothing left to play the turn ended (and the round with it).
    assert game.round == 2
