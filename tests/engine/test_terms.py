"""Terms (WWWT "Terms and Restrictions", CR "Void Where Prohibited"): play, move, return, place,
destroy, discard, transfer and cancel are distinct events (the cards put away after a base scores
included); owner and controller; "may" and must; "any number" allows zero; a card is playable when
its ability cannot happen; power is derived and never below 0; "until the end of the turn"; "can't"
beats "can"; card text beats rules.

The Observatory (a test-only base, tests/engine/support.py) notes every event it sees, so each test
checks exactly which events an effect sets off.
"""
from __future__ import annotations

import pytest

from smashup.engine import Ctx, IllegalChoice, Scenario
from smashup.engine.testing import card, choose, end_play, labels, play

from .support import ALIENS_NINJAS, PIRATES_ROBOTS, TEST_REGISTRY, seen, snapshot


def table(factions0=ALIENS_NINJAS) -> Scenario:
    """Seat 0 to play on The Homeworld, the Observatory and the Temple of Goju. Both seats have
    decks and seat 1 a hand, so the game stops at seat 1's turn when seat 0's phase ends."""
    s = Scenario([factions0, PIRATES_ROBOTS])
    s.base("The Homeworld")
    s.base("Observatory")
    s.base("Temple of Goju")
    for seat in range(2):
        s.deck(seat, *["Tiger Assassin"] * 4)
    s.hand(1, "Collector")
    return s


HOME, OBS, GOJU = 0, 1, 2


# ---------------------------------------------------------------------------- distinct events ---
def test_playing_a_minion_is_a_play_and_nothing_else():
    s = table()
    s.hand(0, "Invader", "Beam Up")
    game = s.build(TEST_REGISTRY)
    play(game, "Invader", base="Observatory")
    assert seen(game) == [("minion_played", "Invader")]


def test_a_move_is_not_a_play():
    s = table()
    s.minion(GOJU, "Scout", owner=1)
    s.hand(0, "Invasion", "Invader")
    game = s.build(TEST_REGISTRY)
    play(game, "Invasion")  # the Scout is the only minion
    choose(game, "Observatory")
    assert seen(game) == [("moved", "Scout"), ("action_played", "Invasion")]
    assert game.base_of(card(game, "Scout")) == game.bases[OBS].uid


def test_the_homeworld_reacts_to_a_minion_played_there_but_not_to_one_moved_there():
    s = table()
    s.minion(GOJU, "Scout", owner=0)
    s.hand(0, "Invasion", "Invader", "Collector")
    game = s.build(TEST_REGISTRY)
    play(game, "Invasion")
    choose(game, "The Homeworld")
    assert game.base_of(card(game, "Scout")) == game.bases[HOME].uid
    assert [g.source for g in game.turn_state.grants] == ["turn"]  # no extra minion
    play(game, "Invader", base="The Homeworld")
    assert [(g.source, g.max_power) for g in game.turn_state.grants] == [("The Homeworld", 2)]


@pytest.mark.parametrize("action, target_zone, events", [
    ("Beam Up", ("hand", 1), [("returned", "Scout"), ("action_played", "Beam Up")]),
    ("Disintegrator", ("deck", 1), [("placed", "Scout"), ("action_played", "Disintegrator")]),
    ("Seeing Stars", ("discard", 1), [("destroyed", "Scout"), ("action_played", "Seeing Stars")]),
])
def test_return_place_and_destroy_are_distinct_events(action, target_zone, events):
    s = table()
    s.minion(GOJU, "Scout", owner=1)
    s.hand(0, action, "Invader")
    game = s.build(TEST_REGISTRY)
    play(game, action)  # the Scout is the only minion: the target is forced
    assert seen(game) == events
    assert game.loc[card(game, "Scout")] == target_zone
    if target_zone[0] == "deck":
        assert game.players[1].deck[-1] == card(game, "Scout")  # the bottom


def test_discarding_from_a_hand_is_a_discard():
    s = table()
    s.hand(0, "Probe", "Invader")
    s.hand(1, "Scout")
    game = s.build(TEST_REGISTRY)
    play(game, "Probe")  # one opponent: forced; seat 1's hand: Collector and Scout
    choose(game, "Scout")
    assert seen(game) == [("discarded", "Scout"), ("action_played", "Probe")]
    assert game.loc[card(game, "Scout")] == ("discard", 1)


def test_a_returned_minion_s_attached_actions_are_discarded_not_destroyed():
    s = table()
    s.minion(GOJU, "Supreme Overlord", owner=1, attached=[("Poison", 0)])
    s.hand(0, "Beam Up", "Invader")
    game = s.build(TEST_REGISTRY)
    play(game, "Beam Up")
    assert seen(game) == [("discarded", "Poison"), ("returned", "Supreme Overlord"),
                          ("action_played", "Beam Up")]
    assert game.loc[card(game, "Poison")] == ("discard", 0)


# ---------------------------------------------------------------------------- owner and controller ---
def test_owner_and_controller():
    s = table()
    # Seat 0 controls a Scout that seat 1 owns; seat 1 has its own Collector there.
    s.minion(GOJU, "Scout", owner=1, controller=0)
    s.minion(GOJU, "Collector", owner=1)
    s.hand(0, "Way of Deception", "Beam Up")
    game = s.build(TEST_REGISTRY)
    goju = game.bases[GOJU].uid
    scout = card(game, "Scout")
    assert game.player_power(goju, 0) == 3 and game.player_power(goju, 1) == 2
    # "One of your minions" means one you control: the Scout is the only choice.
    play(game, "Way of Deception")
    choose(game, "Observatory")
    assert game.base_of(scout) == game.bases[OBS].uid
    assert game.minion_state[scout].controller == 0
    assert game.base_of(card(game, "Collector", "minion")) == goju  # seat 1's own: not a choice


def test_a_card_leaving_play_goes_to_its_owner():
    s = table()
    s.minion(GOJU, "Scout", owner=1, controller=0)
    s.hand(0, "Beam Up", "Invader")
    game = s.build(TEST_REGISTRY)
    play(game, "Beam Up")
    assert game.loc[card(game, "Scout")] == ("hand", 1)


# ---------------------------------------------------------------------------- may and must ---
def test_must_a_mandatory_target_may_be_your_own_minion():
    s = table()
    s.minion(GOJU, "Scout", owner=0)
    s.hand(0, "Beam Up", "Invader")
    game = s.build(TEST_REGISTRY)
    play(game, "Beam Up")  # the only minion in play is seat 0's own: it must go
    assert game.loc[card(game, "Scout")] == ("hand", 0)


def test_must_a_mandatory_target_cannot_be_declined():
    s = table()
    s.minion(GOJU, "Scout", owner=0)
    s.minion(GOJU, "Collector", owner=1)
    s.hand(0, "Beam Up", "Invader")
    game = s.build(TEST_REGISTRY)
    play(game, "Beam Up")
    d = game.pending
    assert (d.kind, d.min_count, d.max_count, d.may_decline) == ("target", 1, 1, False)
    before = snapshot(game)
    with pytest.raises(IllegalChoice):
        game.apply(0, d.id, [])
    assert snapshot(game) == before


def test_may_an_optional_ability_can_be_declined():
    s = table()
    s.minion(GOJU, "Scout", owner=1)
    s.hand(0, "Supreme Overlord", "Beam Up")
    game = s.build(TEST_REGISTRY)
    play(game, "Supreme Overlord", base="Temple of Goju")
    d = game.pending
    assert (d.kind, d.min_count, d.may_decline) == ("target", 0, True)
    choose(game)
    assert game.is_minion_in_play(card(game, "Scout"))
    assert game.is_minion_in_play(card(game, "Supreme Overlord"))


@pytest.mark.parametrize("destroy", [0, 1, 2])
def test_any_number_allows_zero(destroy):
    s = table()
    s.minion(GOJU, "Supreme Overlord", owner=1, attached=[("Poison", 0), ("Poison", 1)])
    s.hand(0, "Poison", "Invader")
    game = s.build(TEST_REGISTRY)
    overlord = card(game, "Supreme Overlord")
    play(game, "Poison")  # the Overlord is the only minion: it is the host
    d = game.pending
    assert (d.kind, d.min_count, d.max_count) == ("cards", 0, 2)  # any number of the 2 others
    choose(game, *[o.id for o in d.options[:destroy]])
    assert len(game.minion_state[overlord].attached) == 3 - destroy
    assert len(game.players[0].discard) + len(game.players[1].discard) == destroy
    assert game.power(overlord) == max(0, 5 - 4 * (3 - destroy))  # never below 0


# ---------------------------------------------------------------------------- playable without effect ---
@pytest.mark.parametrize("action", ["Beam Up", "Seeing Stars", "Disintegrator", "Invasion",
                                    "Crop Circles", "Abduction"])
def test_an_action_is_playable_when_its_ability_cannot_happen(action):
    s = table()
    s.hand(0, action, "Invader")
    game = s.build(TEST_REGISTRY)
    assert f"Play {action}" in labels(game)
    play(game, action)
    if game.pending.kind == "base":  # Crop Circles still names a base: it empties nothing
        choose(game, "Temple of Goju")
    assert game.loc[card(game, action)] == ("discard", 0)
    assert game.pending.kind == "play" and game.turn_state.actions_played == 1
    assert not any(g.kind == "action" for g in game.turn_state.grants)


def test_an_action_is_playable_when_its_only_target_is_protected():
    s = table()
    s.minion(GOJU, "Scout", owner=1, attached=[("Smoke Bomb", 1)])
    s.hand(0, "Seeing Stars", "Invader")
    game = s.build(TEST_REGISTRY)
    play(game, "Seeing Stars")
    assert game.is_minion_in_play(card(game, "Scout"))
    assert game.loc[card(game, "Seeing Stars")] == ("discard", 0)


# ---------------------------------------------------------------------------- power ---
def test_power_is_derived_and_never_below_zero():
    s = table()
    s.minion(GOJU, "Collector", owner=1, attached=[("Poison", 0)])
    s.minion(GOJU, "Supreme Overlord", owner=1, attached=[("Poison", 0)])
    s.minion(GOJU, "Invader", owner=0, counters=2)
    s.hand(0, "Poison", "Invader")
    game = s.build(TEST_REGISTRY)
    collector, overlord = card(game, "Collector", "minion"), card(game, "Supreme Overlord")
    invader = card(game, "Invader", "minion")
    assert game.power(collector) == 0  # 2 - 4, not -2
    assert game.power(overlord) == 1
    assert game.power(invader) == 5  # printed 3 + 2 counters
    assert game.total_power(game.bases[GOJU]) == 6  # the Collector adds 0, not -2
    view = game.view(0)
    powers = {m["name"]: m["power"] for m in view["bases"][GOJU]["minions"]}
    assert powers == {"Collector": 0, "Supreme Overlord": 1, "Invader": 5}
    # A second Poison on the Overlord destroys the first: the power follows at once.
    play(game, "Poison")
    choose(game, "Supreme Overlord")
    d = game.pending
    first_poison = game.minion_state[overlord].attached[0]
    assert [o.card for o in d.options] == [first_poison]
    choose(game, first_poison)
    assert game.power(overlord) == 1
    assert len(game.minion_state[overlord].attached) == 1


def test_until_the_end_of_the_turn_expires_at_the_end_of_the_turn():
    s = table(factions0=("Testers", "Aliens"))
    s.minion(GOJU, "Scout", owner=1)
    s.hand(0, "Pep Talk", "Invader")
    game = s.build(TEST_REGISTRY)
    scout = card(game, "Scout")
    play(game, "Pep Talk")  # the Scout is the only minion
    assert game.power(scout) == 6
    assert game.total_power(game.bases[GOJU]) == 6
    play(game, "Invader", base="Temple of Goju")
    assert game.current == 1 and game.phase == "play"
    assert game.power(scout) == 3
    assert game.lasting == []


def test_a_lasting_power_change_ends_when_its_minion_leaves_play():
    # CR "Void Where Prohibited": an effect ends at its deadline or when its card leaves play,
    # whichever is sooner; played again, the minion is a new card in play.
    s = table(factions0=("Testers", "Aliens"))
    s.minion(GOJU, "Scout", owner=0)
    s.minion(HOME, "Bookworm", owner=0)  # an unused talent keeps the Play Cards phase open
    s.hand(0, "Double Feature", "Pep Talk", "Supreme Overlord")
    game = s.build(TEST_REGISTRY)
    scout = card(game, "Scout")
    play(game, "Double Feature")
    play(game, "Pep Talk")
    choose(game, "Scout")
    assert game.power(scout) == 6
    play(game, "Supreme Overlord", base="Temple of Goju")
    choose(game, "Scout")
    assert game.loc[scout] == ("hand", 0)
    play(game, "Scout", base="Temple of Goju")
    assert (game.turn, game.current, game.phase) == (1, 0, "play")  # the same turn
    assert game.power(scout) == 3


# ---------------------------------------------------------------------------- can't beats can ---
def test_cant_beats_can_smoke_bomb_against_seeing_stars():
    s = table()
    s.minion(GOJU, "Scout", owner=1, attached=[("Smoke Bomb", 1)])
    s.minion(GOJU, "Invader", owner=1)
    s.hand(0, "Seeing Stars", "Tiger Assassin")
    game = s.build(TEST_REGISTRY)
    scout = card(game, "Scout")
    play(game, "Seeing Stars")  # "destroy a minion" can, Smoke Bomb can't: the Invader is the only
    assert game.is_minion_in_play(scout)
    assert game.loc[card(game, "Invader", "discard")] == ("discard", 1)
    # Smoke Bomb stops other players' actions only: a minion's ability still reaches the Scout.
    play(game, "Tiger Assassin", base="Temple of Goju")
    assert [game.name(o.card) for o in game.pending.options] == ["Scout"]
    choose(game, "Scout")
    assert game.loc[scout] == ("discard", 1)


def test_cant_beats_can_no_action_of_another_player_attaches_to_a_smoke_bombed_minion():
    s = table()
    s.minion(GOJU, "Supreme Overlord", owner=1, attached=[("Smoke Bomb", 1)])
    s.minion(GOJU, "Invader", owner=1)
    s.hand(0, "Poison", "Invader")
    game = s.build(TEST_REGISTRY)
    play(game, "Poison")  # the Invader is the only legal host
    assert game.loc[card(game, "Poison")] == ("attached", card(game, "Invader", "minion"))
    assert game.power(card(game, "Supreme Overlord")) == 5


def test_smoke_bomb_does_not_stop_its_controller_s_own_actions():
    s = table(factions0=("Ninjas", "Aliens"))
    s.minion(GOJU, "Scout", owner=0, attached=[("Smoke Bomb", 0)])
    s.hand(0, "Seeing Stars", "Invader")
    game = s.build(TEST_REGISTRY)
    play(game, "Seeing Stars")
    assert game.loc[card(game, "Scout")] == ("discard", 0)
    assert game.loc[card(game, "Smoke Bomb")] == ("discard", 0)


# ---------------------------------------------------------------------------- transfer ---
# WWWT "Transfer": relocating an action or power counters from one card to another. Not a move (the
# minion stays), not a play, not a discard: its own event. The test-only Hand-Me-Down and Siphon
# use `Ctx.transfer`.
def test_transferring_an_attached_action_is_a_transfer_not_a_move_or_a_play():
    s = table(factions0=("Testers", "Aliens"))
    s.minion(GOJU, "Supreme Overlord", owner=1, attached=[("Poison", 1)])
    s.minion(HOME, "Invader", owner=1)
    s.minion(HOME, "Scout", owner=0)
    s.hand(0, "Hand-Me-Down", "Collector")
    game = s.build(TEST_REGISTRY)
    overlord, invader, poison = (card(game, "Supreme Overlord"), card(game, "Invader"),
                                 card(game, "Poison"))
    play(game, "Hand-Me-Down")  # the Poison is the only attached action
    assert {o.card for o in game.pending.options} == {invader, card(game, "Scout")}  # not its host
    choose(game, invader)
    assert seen(game) == [("transferred", "Poison"), ("action_played", "Hand-Me-Down")]
    assert game.loc[poison] == ("attached", invader)
    assert game.minion_state[invader].attached == [poison]
    assert game.minion_state[overlord].attached == []
    assert game.action_state[poison].host == invader
    assert game.action_state[poison].controller == 1  # still its controller's
    assert (game.power(overlord), game.power(invader)) == (5, 0)  # the -4 went with it
    assert game.base_of(invader) == game.bases[HOME].uid  # nothing moved but the action


def test_transferring_power_counters_moves_them_and_is_one_transfer():
    s = table(factions0=("Testers", "Aliens"))
    s.minion(GOJU, "Scout", owner=1, counters=3)
    s.minion(HOME, "Invader", owner=0, counters=1)
    s.hand(0, "Siphon", "Collector")
    game = s.build(TEST_REGISTRY)
    scout, invader = card(game, "Scout"), card(game, "Invader")
    play(game, "Siphon")
    choose(game, scout)  # take from the Scout (3 counters): up to two, to the only other minion
    assert (game.minion_state[scout].counters, game.minion_state[invader].counters) == (1, 3)
    assert (game.power(scout), game.power(invader)) == (4, 6)
    assert seen(game) == [("transferred", "Invader"), ("action_played", "Siphon")]
    # Only as many as there are: the last counter goes, and no more.
    s2 = table(factions0=("Testers", "Aliens"))
    s2.minion(GOJU, "Scout", owner=1, counters=1)
    s2.minion(HOME, "Invader", owner=0)
    s2.hand(0, "Siphon", "Collector")
    game = s2.build(TEST_REGISTRY)
    play(game, "Siphon")  # the Scout is the only minion with counters
    assert (game.minion_state[card(game, "Scout")].counters,
            game.minion_state[card(game, "Invader")].counters) == (0, 1)


def test_adding_counters_from_the_pool_is_not_a_transfer():
    s = table()
    s.minion(GOJU, "Scout", owner=0)
    s.hand(0, "Invader")
    game = s.build(TEST_REGISTRY)
    scout = card(game, "Scout")
    Ctx(game, scout, 0).add_counters(scout, 2)
    assert game.minion_state[scout].counters == 2 and game.power(scout) == 5
    # Announced as a change of counters (an affect, item C), never as a transfer.
    assert [(e.kind, e.card, e.data, e.by_card, e.by_player) for e in game._events] == [
        ("counters_changed", scout, {"amount": 2}, scout, 0)]


def test_no_action_of_another_player_is_transferred_onto_a_smoke_bombed_minion():
    s = table(factions0=("Testers", "Aliens"))
    s.minion(GOJU, "Supreme Overlord", owner=1, attached=[("Smoke Bomb", 1)])
    s.minion(GOJU, "Invader", owner=1, attached=[("Poison", 0)])
    s.hand(0, "Hand-Me-Down", "Collector")
    game = s.build(TEST_REGISTRY)
    overlord, poison = card(game, "Supreme Overlord"), card(game, "Poison")
    ctx = Ctx(game, card(game, "Hand-Me-Down"), 0)
    before = snapshot(game)
    # "Has an action attached" is an affect (WWWT "Affect"): the Smoke Bomb refuses it.
    assert list(ctx.transfer(poison, overlord)) == [] and snapshot(game) == before
    assert game.loc[poison] == ("attached", card(game, "Invader"))


def test_a_base_becoming_cancelled_is_a_cancel_event():
    s = table()
    s.hand(0, "Jammed Signal", "Invader")
    game = s.build(TEST_REGISTRY)
    play(game, "Jammed Signal")
    choose(game, "Temple of Goju")
    assert seen(game) == [("cancelled", "Jammed Signal"), ("action_played", "Jammed Signal")]
    assert not game.base_active(game.bases[GOJU])


@pytest.mark.parametrize("jammed, events", [
    (False, [("destroyed", "Infiltrate"), ("cancelled", "Infiltrate")]),
    (True, [("destroyed", "Infiltrate")]),  # already cancelled: nothing becomes cancelled
])
def test_infiltrate_cancels_with_an_event_only_a_base_that_was_working(jammed, events):
    s = table(factions0=("Ninjas", "Aliens"))
    s.base_action(GOJU, "Infiltrate", owner=0)
    if jammed:
        s.base_action(GOJU, "Jammed Signal", owner=1)
    s.hand(0, "Invader")
    game = s.build(TEST_REGISTRY)
    choose(game, "Use Infiltrate's talent")
    assert seen(game) == events
    assert not game.base_active(game.bases[GOJU])


def test_transferring_jammed_signal_cancels_the_new_base_and_frees_the_old_one():
    s = table(factions0=("Testers", "Aliens"))
    s.base_action(GOJU, "Jammed Signal", owner=1)
    s.hand(0, "Hand-Me-Down", "Collector")
    game = s.build(TEST_REGISTRY)
    signal = card(game, "Jammed Signal")
    play(game, "Hand-Me-Down")
    choose(game, "The Homeworld")
    assert seen(game) == [("transferred", "Jammed Signal"), ("cancelled", "Jammed Signal"),
                          ("action_played", "Hand-Me-Down")]
    assert game.loc[signal] == ("base_action", game.bases[HOME].uid)
    assert game.action_state[signal].host == game.bases[HOME].uid
    assert not game.base_active(game.bases[HOME]) and game.base_active(game.bases[GOJU])


# ---------------------------------------------------------------------------- put away, not destroyed ---
def test_cards_put_away_after_scoring_are_discarded_or_placed_or_returned_never_destroyed():
    # CR Phase 3 step 7: the cards on the scored base go to the discard piles, and cards that
    # react to being discarded react to this (Igor, Jumper, Clyde 2.0). A card an "instead" sends
    # elsewhere is announced by its own term: Temple of Goju and Scout place, never destroy.
    s = table()
    s.minion(GOJU, "Supreme Overlord", owner=0, attached=[("Smoke Bomb", 0)])
    s.minion(GOJU, "Invader", owner=0)
    s.minion(GOJU, "Ninja Master", owner=1)
    s.minion(GOJU, "Scout", owner=1)
    s.minion(GOJU, "Collector", owner=1)  # 8 against 10: 18, Goju's breakpoint
    s.base_action(GOJU, "Infiltrate", owner=1)
    s.hand(0, "Probe")
    s.base_deck("Filler Field")
    game = s.build(TEST_REGISTRY)
    end_play(game)
    assert game.pending.kind == "order"  # Goju and the Scout both act after scoring
    choose(game, "Temple of Goju")  # each player's strongest: the Overlord, the Ninja Master
    choose(game, "yes")  # the Scout goes to its owner's hand instead
    assert seen(game) == [
        ("discarded", "Smoke Bomb"), ("placed", "Supreme Overlord"), ("discarded", "Invader"),
        ("placed", "Ninja Master"), ("placed", "Scout"), ("discarded", "Collector"),
        ("discarded", "Infiltrate"),
    ]
    assert game.loc[card(game, "Scout")] == ("hand", 1)
    assert game.players[0].deck[-1] == card(game, "Supreme Overlord")
    assert game.loc[card(game, "Collector", "discard")] == ("discard", 1)


def test_the_mothership_returns_a_minion_and_says_so():
    s = table()
    ship = s.base("The Mothership")
    s.minion(ship, "Supreme Overlord", owner=0)
    s.minion(ship, "Invader", owner=0, attached=[("Poison", 1)])  # power 0 after the Poison
    s.minion(ship, "Ninja Master", owner=0)
    s.minion(ship, "Tiger Assassin", owner=0)
    s.minion(ship, "Collector", owner=1)  # 14 + 2 + 4 = 20, the breakpoint
    s.minion(ship, "Tiger Assassin", owner=1)
    s.hand(0, "Probe")
    s.base_deck("Filler Field")
    game = s.build(TEST_REGISTRY)
    invader = card(game, "Invader")
    end_play(game)
    choose(game, invader)  # the winner (seat 0) returns a minion of power 3 or less
    events = seen(game)
    assert ("returned", "Invader") in events and ("discarded", "Poison") in events
    assert not any(kind in ("destroyed", "placed") for kind, _ in events)
    assert game.loc[invader] == ("hand", 0)


def test_discarding_down_to_ten_cards_is_a_discard():
    s = table()
    s.hand(0, *["Invader"] * 10)
    game = s.build(TEST_REGISTRY)
    end_play(game)  # 10 + 2 drawn: discard 2
    d = game.pending
    assert (d.seat, d.kind, d.min_count) == (0, "discard", 2)
    choose(game, *[o.id for o in d.options[-2:]])
    assert seen(game) == [("discarded", "Tiger Assassin"), ("discarded", "Tiger Assassin")]
    assert len(game.players[0].hand) == 10


# ---------------------------------------------------------------------------- card text beats rules ---
def test_card_text_beats_rules():
    # CR "Void Where Prohibited": "card text and rules text will conflict. When there's a fight,
    # card text wins" (an invisible "unless stated otherwise" on every rule). The rule: the cards
    # on a scored base go to their owners' discard piles (CR step 7). Temple of Goju's text sends
    # each player's strongest minion to the bottom of its owner's deck instead, and wins; on a
    # Goju whose text is cancelled (Jammed Signal), the rule applies again.
    results = {}
    for jammed in (False, True):
        s = table()
        s.minion(GOJU, "Supreme Overlord", owner=0)
        s.minion(GOJU, "Ninja Master", owner=1)
        s.minion(GOJU, "Tiger Assassin", owner=1)
        s.minion(GOJU, "Collector", owner=0)
        s.minion(GOJU, "Invader", owner=0)  # 10 against 9: 19 of 18
        if jammed:
            s.base_action(GOJU, "Jammed Signal", owner=1)
        s.hand(0, "Probe")
        s.base_deck("Filler Field")
        game = s.build(TEST_REGISTRY)
        watched = [card(game, name, "minion")
                   for name in ("Supreme Overlord", "Ninja Master", "Tiger Assassin")]
        end_play(game)
        results[jammed] = {game.name(m): game.loc[m][0] for m in watched}
    assert results[False] == {"Supreme Overlord": "deck", "Ninja Master": "deck",
                              "Tiger Assassin": "discard"}
    assert results[True] == {"Supreme Overlord": "discard", "Ninja Master": "discard",
                             "Tiger Assassin": "discard"}


def test_card_text_never_takes_power_below_zero():
    # The one exception the same rule names: power is never reduced below zero, whatever the text.
    s = table()
    s.minion(GOJU, "Collector", owner=1, attached=[("Poison", 0)])
    s.hand(0, "Invader")
    game = s.build(TEST_REGISTRY)
    assert game.power(card(game, "Collector", "minion")) == 0
