"""Scoring, step by step (CR Phase 3 steps 1-10, WWWT "The Big Score"): the order of several ready
bases and the re-check after each, the before-scoring window, VP by rank with ties, eligibility,
after-scoring abilities, cards to their owners' discard piles, the base replaced from the base deck
(reshuffling the base discard pile), and the check again."""
from __future__ import annotations

import pytest

from smashup.engine import EngineError, Scenario
from smashup.engine.testing import base_uid, card, choose, labels

from .support import DISJOINT_PAIRS


def scoring_scenario(players=2) -> Scenario:
    """Seat 0's turn, at its Score Bases phase. Every seat holds a card and has a deck, so the game
    stops at the next seat's Play Cards phase after the scoring."""
    s = Scenario(list(DISJOINT_PAIRS[:players]))
    for seat in range(players):
        s.hand(seat, "Collector")
        s.deck(seat, *["Tiger Assassin"] * 4)
    s.turn(current=0, phase="score")
    return s


def names(game, cards) -> list[str]:
    return sorted(game.name(c) for c in cards)


def base_names(game) -> list[str]:
    return [game.name(slot.card) for slot in game.bases]


def log_text(game) -> list[str]:
    return [text for text, to in game.log_lines]


def next_turn(game, seat=1) -> bool:
    return (game.current, game.phase, game.pending.seat, game.pending.kind) == (
        seat, "play", seat, "play")


# ---------------------------------------------------------------------------- order, re-check ---
def two_ready_bases() -> Scenario:
    s = scoring_scenario()
    dojo = s.base("Ninja Dojo")  # 18: seat 0 alone with 18
    mother = s.base("The Mothership")  # 20: seat 1 alone with 21
    for name in ("Supreme Overlord", "Ninja Master", "Tiger Assassin", "Tiger Assassin"):
        s.minion(dojo, name, owner=0)
    for name in ("Supreme Overlord", "Ninja Master", "Shinobi", "Shinobi", "Invader", "Collector"):
        s.minion(mother, name, owner=1)
    s.base_deck("Temple of Goju", "The Homeworld")
    return s


def test_the_current_player_picks_which_ready_base_scores_first():
    game = two_ready_bases().build()
    d = game.pending
    assert (d.seat, d.kind) == (0, "score")
    assert labels(game) == ["Ninja Dojo (18/18)", "The Mothership (21/20)"]


def test_a_base_that_drops_below_its_breakpoint_after_the_first_scoring_does_not_score():
    game = two_ready_bases().build()
    choose(game, "Ninja Dojo")
    assert [p.vp for p in game.players] == [2, 0]
    # The Dojo's winner may destroy any minion: the Invader on the Mothership (21 -> 18 < 20).
    assert (game.pending.seat, game.pending.kind) == (0, "target")
    choose(game, "Invader")
    assert game.loc[card(game, "Invader")] == ("discard", 1)
    # The Dojo is replaced by the top of the base deck, in its place; the Mothership is checked
    # again and does not score.
    assert base_names(game) == ["Temple of Goju", "The Mothership"]
    assert [p.vp for p in game.players] == [2, 0]
    assert next_turn(game)
    assert sum("scores" in line for line in log_text(game)) == 1


def test_the_other_order_scores_both_bases():
    game = two_ready_bases().build()
    choose(game, "The Mothership")
    # Mothership: seat 1 wins 4; its winner may take back a minion of power 3 or less: decline.
    assert [p.vp for p in game.players] == [0, 4]
    assert (game.pending.seat, game.pending.kind) == (1, "target")
    choose(game)
    # Check again: the Dojo is still ready and is the only one, so it scores without a question.
    assert [p.vp for p in game.players] == [2, 4]
    assert (game.pending.seat, game.pending.kind) == (0, "target")  # the Dojo's winner may destroy
    choose(game)
    assert base_names(game) == ["The Homeworld", "Temple of Goju"]
    assert names(game, game.base_discard) == ["Ninja Dojo", "The Mothership"]
    assert next_turn(game)


# ---------------------------------------------------------------------------- VP and ties ---
def homeworld_with_powers(powers: list[int | None]) -> Scenario:
    """The Homeworld (23, VP 4/2/1) with one minion per seat of the given power (None: no minion),
    built from a Collector (2) and power counters."""
    s = scoring_scenario(len(powers))
    home = s.base("The Homeworld")
    s.base("Temple of Goju")
    s.base_deck("The Mothership")
    for seat, power in enumerate(powers):
        if power is not None:
            s.minion(home, "Collector", owner=seat, counters=power - 2)
    return s


@pytest.mark.parametrize("powers, vp", [
    ([10, 9, 5], [4, 2, 1]),
    ([10, 10, 5], [4, 4, 1]),  # tied winners both take 1st; the next gets 3rd, not 2nd
    ([12, 6, 6], [4, 2, 2]),  # tied runners-up both take 2nd
    ([10, 6, 6, 4], [4, 2, 2, 0]),  # a tie for 2nd: nobody is 3rd
    ([10, 8, 6, 4], [4, 2, 1, 0]),  # 4th place gets nothing
    ([9, 9, 9, 9], [4, 4, 4, 4]),
    ([12, 12, None], [4, 4, 0]),  # no minion there: no VP, even with a spot open
    ([23, None], [4, 0]),
])
def test_vp_by_rank_with_ties(powers, vp):
    game = homeworld_with_powers(powers).build()
    assert [p.vp for p in game.players] == vp
    assert base_names(game)[0] == "The Mothership"
    assert next_turn(game)


def test_the_vp_log_names_each_place():
    game = homeworld_with_powers([10, 10, 5]).build()
    lines = [line for line in log_text(game) if "VP (" in line]
    assert lines == ["P0 gains 4 VP (1st on The Homeworld).",
                     "P1 gains 4 VP (1st on The Homeworld).",
                     "P2 gains 1 VP (3rd on The Homeworld)."]


def test_the_log_says_a_base_scores_where_its_vp_are_given_after_the_specials_before_it():
    # Issue 26, finding 10: "X scores." came before the Specials played before scoring.
    game = homeworld_with_powers([10, 10, 5]).build()
    lines = log_text(game)
    about, scores = lines.index("The Homeworld is about to score."), lines.index(
        "The Homeworld scores.")
    assert about < scores and lines[scores + 1] == "P0 gains 4 VP (1st on The Homeworld)."


def test_a_minion_of_power_zero_makes_its_controller_eligible():
    # CR step 4: at least one minion there, even at 0 power (here a Poisoned Collector).
    s = scoring_scenario(3)
    mother = s.base("The Mothership")  # 20, VP 4/2/1
    s.base("Temple of Goju")
    s.base("Ninja Dojo")
    s.base_deck("The Homeworld")
    for name in ("Supreme Overlord", "Ninja Master", "Tiger Assassin", "Tiger Assassin",
                 "Collector"):
        s.minion(mother, name, owner=0)
    s.minion(mother, "Collector", owner=1, attached=[("Poison", 2)])
    game = s.build()
    poisoned = [m for m in game.bases[0].minions if game.minion_state[m].controller == 1][0]
    assert game.power(poisoned) == 0
    # The Mothership's winner (seat 0) may return a minion of power 3 or less: decline.
    assert game.pending.kind == "target" and game.pending.seat == 0
    choose(game)
    assert [p.vp for p in game.players] == [4, 2, 0]  # seat 2 had no minion: nothing


# ---------------------------------------------------------------------------- before scoring ---
def test_before_scoring_a_shinobi_from_hand_changes_the_ranking():
    s = scoring_scenario()
    dojo = s.base("Ninja Dojo")
    s.base("Temple of Goju")
    s.base_deck("The Homeworld")
    for name in ("Supreme Overlord", "Ninja Master", "Invader"):
        s.minion(dojo, name, owner=0)  # 13
    for name in ("Supreme Overlord", "Ninja Master", "Ninja Acolyte"):
        s.minion(dojo, name, owner=1)  # 12
    s.hand(1, "Shinobi", "Shinobi")
    game = s.build()
    d = game.pending
    assert (d.seat, d.kind) == (1, "special")  # seat 0 holds no Special: passed for (fast mode)
    assert [o.label for o in d.options] == ["Play Shinobi on the scoring base"] * 2 + ["Pass"]
    choose(game, d.options[0].id)
    assert game.player_power(base_uid(game, "Ninja Dojo"), 1) == 15
    # Only one Shinobi per scoring base: the second one is not offered, the window closes.
    # Seat 1 (15) wins 2 VP, seat 0 (13) is runner-up with 3; the Dojo's winner may destroy.
    assert [p.vp for p in game.players] == [3, 2]
    assert (game.pending.seat, game.pending.kind) == (1, "target")
    choose(game)
    assert names(game, game.players[1].hand) == ["Collector", "Shinobi"]


def test_a_base_scores_even_if_its_power_drops_below_the_breakpoint_before_scoring():
    # WWWT "The Big Score": once chosen, the base finishes scoring whatever is left on it.
    s = scoring_scenario()
    dojo = s.base("Ninja Dojo")  # 18
    s.base("Temple of Goju")
    s.base_deck("The Homeworld")
    for name in ("Supreme Overlord", "Tiger Assassin", "Invader"):
        s.minion(dojo, name, owner=0)  # 12
    s.minion(dojo, "Tiger Assassin", owner=1)  # 4 -> 16
    s.minion(dojo, "Collector", owner=1)  # 2 -> 18
    s.hand(1, "Hidden Ninja", "Ninja Master")
    game = s.build()
    choose(game, "Hidden Ninja")  # seat 1: an extra minion on the scoring base
    choose(game, "Ninja Master")
    choose(game, "Supreme Overlord")  # the Ninja Master destroys seat 0's Overlord
    assert game.total_power(game.bases[0]) == 18 - 5 + 5
    assert game.loc[card(game, "Supreme Overlord")] == ("discard", 0)
    # 7 against 11: seat 1 wins.
    assert [p.vp for p in game.players] == [3, 2]
    assert (game.pending.seat, game.pending.kind) == (1, "target")


# ---------------------------------------------------------------------------- after scoring ---
def test_after_scoring_abilities_send_cards_elsewhere_instead_of_the_discard_pile():
    s = scoring_scenario()
    mother = s.base("The Mothership")  # 20
    s.base("Temple of Goju")
    s.base_deck("The Homeworld")
    for name in ("Supreme Overlord", "Ninja Master", "Tiger Assassin", "Invader", "Collector"):
        s.minion(mother, name, owner=0)  # 19
    s.minion(mother, "Scout", owner=1)  # 3
    game = s.build()
    assert [p.vp for p in game.players] == [4, 2]
    # Two "after scoring" abilities at once: the current player orders them (CR Card Resolution
    # Order, step 3).
    d = game.pending
    assert (d.seat, d.kind) == (0, "order")
    assert [o.label for o in d.options] == ["Scout", "The Mothership"]
    choose(game, "Scout")
    assert (game.pending.seat, game.pending.kind) == (1, "confirm")  # a "may": its controller
    choose(game, "yes")
    # The Mothership: its winner may return one of their minions of power 3 or less.
    d = game.pending
    assert (d.seat, d.kind) == (0, "target")
    assert sorted(game.name(o.card) for o in d.options) == ["Collector", "Invader"]
    choose(game, "Invader")
    assert next_turn(game)
    assert game.loc[card(game, "Scout")] == ("hand", 1)
    assert game.loc[card(game, "Invader")] == ("hand", 0)
    assert names(game, game.players[0].discard) == ["Collector", "Ninja Master",
                                                    "Supreme Overlord", "Tiger Assassin"]


def test_cards_on_the_scored_base_go_to_their_owners_discard_piles():
    s = scoring_scenario()
    dojo = s.base("Ninja Dojo")
    s.base("Temple of Goju")
    s.base_deck("The Homeworld")
    # Seat 0 controls a Supreme Overlord that seat 1 owns, with seat 1's Smoke Bomb on it that seat
    # 0 controls, and its own Ninja Master; seat 1 has a Collector there with seat 0's Poison on it.
    s.minion(dojo, "Supreme Overlord", owner=1, controller=0, attached=[("Smoke Bomb", 1, 0)])
    s.minion(dojo, "Ninja Master", owner=0)
    s.minion(dojo, "Tiger Assassin", owner=0, counters=4)
    s.minion(dojo, "Collector", owner=1, attached=[("Poison", 0)])
    s.base_action(dojo, "Infiltrate", owner=1)
    game = s.build()
    # Seat 0 (18) wins the Dojo; seat 1's Collector (0 power) is runner-up.
    assert [p.vp for p in game.players] == [2, 3]
    choose(game)  # the Dojo's winner declines to destroy
    assert names(game, game.players[0].discard) == ["Ninja Master", "Poison", "Tiger Assassin"]
    assert names(game, game.players[1].discard) == ["Collector", "Infiltrate", "Smoke Bomb",
                                                    "Supreme Overlord"]
    assert not game.minion_state and not game.action_state
    assert names(game, game.base_discard) == ["Ninja Dojo"]
    # Discarding the cards of a scored base is not destroying them.
    assert not any("destroyed" in line for line in log_text(game))


# ---------------------------------------------------------------------------- replacement ---
def test_the_scored_base_is_discarded_and_replaced_in_its_place_from_the_top_of_the_base_deck():
    s = scoring_scenario(3)
    s.base("Temple of Goju")
    home = s.base("The Homeworld")
    s.base("Ninja Dojo")
    s.minion(home, "Collector", owner=0, counters=21)
    s.base_deck("The Mothership", "Ninja Dojo")
    game = s.build()
    assert base_names(game) == ["Temple of Goju", "The Mothership", "Ninja Dojo"]
    assert names(game, game.base_deck) == ["Ninja Dojo"]
    assert names(game, game.base_discard) == ["The Homeworld"]
    assert "The Mothership replaces The Homeworld." in log_text(game)


def test_an_empty_base_deck_takes_the_shuffled_base_discard_pile():
    outcomes = set()
    for seed in range(12):
        s = scoring_scenario()
        s.data["seed"] = seed
        home = s.base("The Homeworld")
        s.base("Temple of Goju")
        s.minion(home, "Collector", owner=0, counters=21)
        s.base_discard("The Mothership")
        game = s.build()  # the base deck is empty
        new = base_names(game)[0]
        # The scored Homeworld joined the discard pile before the reshuffle (WWWT "Back to Your
        # Corners"), so either base may come up; the other is the new base deck.
        assert {new} | set(names(game, game.base_deck)) == {"The Homeworld", "The Mothership"}
        assert game.base_discard == [] and len(game.base_deck) == 1
        assert "The base discard pile is shuffled into a new base deck." in log_text(game)
        outcomes.add(new)
    assert outcomes == {"The Homeworld", "The Mothership"}  # really shuffled



def test_a_scored_base_is_no_longer_found_by_its_uid_and_its_replacement_is():
    # `Game.slot` reads the bases by uid from an index kept with `bases`: a scored base leaves it,
    # the base that replaces it joins it in its place.
    game = two_ready_bases().build()
    dojo = base_uid(game, "Ninja Dojo")
    choose(game, "Ninja Dojo")
    choose(game, "Invader")
    assert game.slot_or_none(dojo) is None
    with pytest.raises(EngineError):
        game.slot(dojo)
    temple = base_uid(game, "Temple of Goju")
    assert temple != dojo and game.slot(temple) is game.bases[0]
    assert game._slot_of == {slot.uid: slot for slot in game.bases}
