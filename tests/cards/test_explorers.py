"""Every card of the Explorers (What Were We Thinking?), played through the engine.

Each test builds a position with `Scenario`, plays the card with the testing helpers and checks the
exact effect: zones, power, bases in play, the base deck's order, cards drawn, what is offered. The
rulings come from the catalog (smashup/cards/catalog/wwwt.yaml, Explorers) and the WWWT rulebook's
clarifications (Idaho Smith's base stays; Crypt Looter answers a swap; Forgotten Horrors draws once
per card).

Bases: Jungle Oasis (breakpoint 12), The Mothership (20) and Factory 436-1337 (25); none acts
before it scores. Seat 1 always keeps a card it can play, so that when seat 0's turn ends the game
stops at seat 1's Play Cards decision.
"""
from __future__ import annotations

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import Ctx, Scenario
from smashup.engine.testing import (
    assert_refused,
    card,
    choose,
    decline,
    end_play,
    hand_names,
    labels,
    play,
    record_events,
    where,
)

PLAYERS = [("Explorers", "Dinosaurs"), ("Ninjas", "Aliens")]
FILLER = "Ninja Acolyte"  # a card seat 1 holds so the game waits on its turn
DECK_FILLER = "Howl"  # seat 0's next draws
OASIS, SHIP, FACTORY = 0, 1, 2


def scenario(deck=None):
    s = Scenario(PLAYERS)
    for name in ("Jungle Oasis", "The Mothership", "Factory 436-1337"):
        s.base(name)
    s.hand(1, FILLER)
    s.deck(0, *(deck if deck is not None else [DECK_FILLER] * 4))
    s.deck(1, *[FILLER] * 4)
    s.base_deck("Temple of Goju", "Ninja Dojo", "Tar Pits")
    return s


def bases_in_play(game) -> list[str]:
    return [game.name(s.card) for s in game.bases]


def base_deck(game) -> list[str]:
    return [game.name(c) for c in game.base_deck]


# ------------------------------------------------------------------ Idaho Smith ----------------
def test_idaho_smith_adds_a_base_moves_there_and_takes_other_minions_along():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(OASIS, "Guide", owner=0)
    s.minion(OASIS, "Invader", owner=1)
    s.minion(SHIP, "Glory Hound", owner=0)
    s.hand(0, "Idaho Smith")
    game = s.build()
    play(game, "Idaho Smith", "Jungle Oasis")
    choose(game, "Yes")
    assert bases_in_play(game) == ["Jungle Oasis", "The Mothership", "Factory 436-1337",
                                   "Temple of Goju"]
    idaho = card(game, "Idaho Smith")
    assert where(game, idaho) == "Temple of Goju"
    # Only your other minions from Idaho Smith's old base are offered.
    assert sorted(labels(game)) == ["Guide (4, P0) on Jungle Oasis",
                                    "King Rex (7, P0) on Jungle Oasis"]
    choose(game, "King Rex")
    choose(game)  # stop
    assert where(game, card(game, "King Rex")) == "Temple of Goju"
    assert where(game, card(game, "Guide")) == "Jungle Oasis"
    assert where(game, card(game, "Invader")) == "Jungle Oasis"


def test_idaho_smith_may_decline_and_nothing_changes():
    s = scenario()
    s.hand(0, "Idaho Smith")
    game = s.build()
    play(game, "Idaho Smith", "Jungle Oasis")
    choose(game, "No")
    assert bases_in_play(game) == ["Jungle Oasis", "The Mothership", "Factory 436-1337"]
    assert base_deck(game) == ["Temple of Goju", "Ninja Dojo", "Tar Pits"]
    assert where(game, card(game, "Idaho Smith")) == "Jungle Oasis"


def test_idaho_smith_with_no_base_left_asks_nothing():
    s = scenario()
    s.data["base_deck"] = []
    s.hand(0, "Idaho Smith", "Howl")
    game = s.build()
    play(game, "Idaho Smith", "Jungle Oasis")
    assert game.pending.kind == "play"
    assert len(game.bases) == 3


def test_idaho_smiths_extra_base_is_replaced_when_it_scores_so_one_base_more_stays():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(OASIS, "Armor Stego", owner=0)
    s.hand(0, "Idaho Smith")
    game = s.build()
    play(game, "Idaho Smith", "Jungle Oasis")
    choose(game, "Yes")
    # Both King Rexes follow Idaho Smith: 7 + 7 + 5 on Temple of Goju.
    choose(game, "King Rex")
    choose(game, "King Rex")
    decline(game)
    end_play(game)
    choose(game, game.pending.options[0].id)  # Temple of Goju: a King Rex to its deck's bottom
    assert len(game.bases) == 4
    assert "Temple of Goju" not in bases_in_play(game)
    assert bases_in_play(game)[3] == "Ninja Dojo"


# ------------------------------------------------------------------ Guide ----------------------
def test_guide_gives_plus_one_after_a_minion_of_yours_moves_the_first_time_in_a_turn():
    s = scenario()
    s.minion(OASIS, "Guide", owner=0)
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(SHIP, "Invader", owner=1)
    s.minion(FACTORY, "Armor Stego", owner=0)  # its talent keeps the Play Cards phase open
    s.hand(0, "You Call This Archaeology?", "Idaho Smith")
    game = s.build()
    raptor = card(game, "King Rex")
    play(game, "You Call This Archaeology?")
    choose(game, "King Rex")
    choose(game, "The Mothership")
    assert game.power(raptor) == 8
    # A second move that turn gives nothing more (Idaho Smith takes it along to a new base).
    play(game, "Idaho Smith", "The Mothership")
    choose(game, "Yes")
    choose(game, "King Rex")
    assert where(game, raptor) == "Temple of Goju"
    assert game.power(raptor) == 8
    # Idaho Smith's own first move counted.
    assert game.power(card(game, "Idaho Smith")) == 6
    end_play(game)
    assert game.power(raptor) == 7


def test_two_guides_each_give_plus_one_and_other_players_minions_get_nothing():
    s = scenario()
    s.minion(OASIS, "Guide", owner=0)
    s.minion(SHIP, "Guide", owner=0)
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(SHIP, "Invader", owner=1)
    s.minion(FACTORY, "Armor Stego", owner=0)  # its talent keeps the Play Cards phase open
    s.hand(0, "It Belongs in a Museum")
    game = s.build()
    raptor, invader = card(game, "King Rex"), card(game, "Invader")
    play(game, "It Belongs in a Museum")
    choose(game, "King Rex")
    choose(game, "Invader")
    assert where(game, raptor) == "The Mothership" and where(game, invader) == "Jungle Oasis"
    while game.pending.kind == "order":
        choose(game, game.pending.options[0].id)
    assert game.power(raptor) == 9
    assert game.power(invader) == game.defs[invader].power


def test_guide_counts_a_minions_moves_from_the_start_of_the_turn_not_from_its_arrival():
    # Issue 24, mechanism 5: "for the first time in a turn" belongs to the minion. King Rex moved
    # once before the Guide came into play: its second move gives nothing.
    s = scenario()
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(FACTORY, "Armor Stego", owner=0)  # its talent keeps the Play Cards phase open
    s.hand(0, "Guide", "You Call This Archaeology?")
    game = s.build()
    rex = card(game, "King Rex")
    ship = game.bases[SHIP].uid
    list(game.resolve(Ctx(game, card(game, "Armor Stego"), 0).move(rex, ship)))  # an ability moved it
    play(game, "Guide", "Factory 436-1337")
    play(game, "You Call This Archaeology?")
    choose(game, "King Rex")
    choose(game, "Jungle Oasis")
    assert where(game, rex) == "Jungle Oasis"
    assert game.power(rex) == 7  # its second move this turn: no +1


# ------------------------------------------------------------------ Crypt Looter ---------------
def test_crypt_looter_is_played_on_a_base_that_replaces_a_scored_one():
    s = scenario()
    for _ in range(4):
        s.minion(OASIS, "Invader", owner=1)
    s.hand(0, "Crypt Looter", "Howl")
    s.hand(1, "Invasion")
    s.turn(current=1, minions_played=1)
    game = s.build()
    end_play(game)  # Jungle Oasis (12) scores on seat 1's turn; Temple of Goju replaces it
    assert bases_in_play(game)[0] == "Temple of Goju"
    assert game.pending.seat == 0
    assert labels(game) == ["Play Crypt Looter on the new base", "Pass"]
    choose(game, "Play Crypt Looter on the new base")
    assert where(game, card(game, "Crypt Looter")) == "Temple of Goju"


def test_crypt_looter_may_pass():
    s = scenario()
    for _ in range(4):
        s.minion(OASIS, "Invader", owner=1)
    s.hand(0, "Crypt Looter", "Howl")
    s.hand(1, "Invasion")
    s.turn(current=1, minions_played=1)
    game = s.build()
    end_play(game)
    choose(game, "Pass")
    assert game.loc[card(game, "Crypt Looter")] == ("hand", 0)


def test_crypt_looter_answers_a_base_swapped_in_and_an_extra_base():
    # Rulebook clarification: a base swapped for another (Terraforming) is new too.
    s = scenario()
    s.minion(OASIS, "Invader", owner=1)
    s.hand(1, "Terraforming", "Scout")
    s.hand(0, "Crypt Looter", "Howl")
    s.turn(current=1, minions_played=1)
    game = s.build()
    play(game, "Terraforming")
    choose(game, "Jungle Oasis")
    choose(game, "Tar Pits")
    assert game.pending.seat == 0
    choose(game, "Play Crypt Looter on the new base")
    assert where(game, card(game, "Crypt Looter")) == "Tar Pits"


def test_crypt_looter_answers_an_extra_base_as_an_extra_minion_and_refuses_a_forged_choice():
    s = scenario()
    s.hand(0, "Idaho Smith", "Crypt Looter")
    game = s.build()
    play(game, "Idaho Smith", "Jungle Oasis")
    choose(game, "Yes")
    assert labels(game) == ["Play Crypt Looter on the new base", "Pass"]
    assert_refused(game, [f"s{card(game, 'Idaho Smith')}:0"])
    choose(game, "Play Crypt Looter on the new base")
    # Both minions in play in one turn: the Looter was an extra minion.
    assert where(game, card(game, "Crypt Looter")) == "Temple of Goju"
    assert where(game, card(game, "Idaho Smith")) == "Temple of Goju"


# ------------------------------------------------------------------ Glory Hound ----------------
def test_glory_hound_puts_one_on_top_and_one_at_the_bottom():
    s = scenario()
    s.hand(0, "Glory Hound")
    game = s.build()
    play(game, "Glory Hound", "Jungle Oasis")
    assert sorted(o.label for o in game.pending.options) == ["Ninja Dojo", "Temple of Goju"]
    choose(game, "Ninja Dojo")
    assert base_deck(game) == ["Ninja Dojo", "Tar Pits", "Temple of Goju"]


def test_glory_hound_may_put_both_on_top_in_the_other_order():
    s = scenario()
    s.hand(0, "Glory Hound")
    game = s.build()
    play(game, "Glory Hound", "Jungle Oasis")
    choose(game, "Ninja Dojo", "Temple of Goju")
    choose(game, "Ninja Dojo")
    assert base_deck(game) == ["Ninja Dojo", "Temple of Goju", "Tar Pits"]


def test_glory_hound_may_put_both_at_the_bottom_and_other_players_do_not_see_them():
    s = scenario()
    s.hand(0, "Glory Hound")
    game = s.build()
    play(game, "Glory Hound", "Jungle Oasis")
    assert "Ninja Dojo" not in str(game.view(1))
    choose(game)
    choose(game, "Temple of Goju")
    assert base_deck(game) == ["Tar Pits", "Temple of Goju", "Ninja Dojo"]


# ------------------------------------------------------------------ Dr Livingstone -------------
def test_dr_livingstone_shuffles_a_minion_alone_on_its_base_into_its_owners_deck():
    s = scenario()
    s.minion(SHIP, "Invader", owner=1)
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(OASIS, "Scout", owner=1)
    s.hand(0, "Dr Livingstone, I Presume?")
    game = s.build()
    invader = card(game, "Invader")
    play(game, "Dr Livingstone, I Presume?")
    choose(game, "Invader")
    assert game.loc[invader] == ("deck", 1)
    assert len(game.players[1].deck) == 5


def test_dr_livingstone_does_nothing_to_a_minion_with_company():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(OASIS, "Scout", owner=1)
    s.hand(0, "Dr Livingstone, I Presume?")
    game = s.build()
    play(game, "Dr Livingstone, I Presume?")
    assert_refused(game, ["b1"])
    choose(game, "Scout")
    assert where(game, card(game, "Scout")) == "Jungle Oasis"


# ------------------------------------------------------------------ Forgotten Horrors ----------
def test_forgotten_horrors_draws_and_moves_on_after_you_play_a_minion_there():
    s = scenario()
    s.base_action(OASIS, "Forgotten Horrors", owner=0)
    s.hand(0, "King Rex")
    game = s.build()
    horrors = card(game, "Forgotten Horrors")
    play(game, "King Rex", "Jungle Oasis")
    assert game.pending.prompt == "Move Forgotten Horrors to which base?"
    assert_refused(game, [f"b{game.bases[0].uid}"])  # another base: not this one
    choose(game, "Factory 436-1337")
    assert where_action(game, horrors) == "Factory 436-1337"
    assert hand_names(game) == ["Howl"]


def where_action(game, a):
    return game.name(game.slot(game.loc[a][1]).card)


def test_forgotten_horrors_ignores_another_players_minion():
    s = scenario()
    s.base_action(OASIS, "Forgotten Horrors", owner=0)
    s.hand(1, "Scout", "Invasion")
    s.turn(current=1)
    game = s.build()
    play(game, "Scout", "Jungle Oasis")
    assert game.pending.seat == 1
    assert where_action(game, card(game, "Forgotten Horrors")) == "Jungle Oasis"
    assert hand_names(game) == []


def test_forgotten_horrors_draws_once_for_a_card_that_moves_several_of_your_minions_there():
    s = scenario()
    s.base_action(OASIS, "Forgotten Horrors", owner=0)
    s.minion(SHIP, "King Rex", owner=0)
    s.minion(FACTORY, "Glory Hound", owner=0)
    s.minion(FACTORY, "Armor Stego", owner=0)  # its talent keeps the Play Cards phase open
    s.hand(0, "X Never Marks the Spot")
    game = s.build()
    play(game, "X Never Marks the Spot")
    choose(game, "King Rex")
    choose(game, "Jungle Oasis")
    choose(game, "Glory Hound")
    choose(game, "Jungle Oasis")
    decline(game)
    choose(game, "Forgotten Horrors: after King Rex")
    choose(game, "The Mothership")
    assert hand_names(game) == ["Howl"]
    assert where_action(game, card(game, "Forgotten Horrors")) == "The Mothership"


def test_forgotten_horrors_ignores_a_move_by_another_players_card():
    # Moves caused by another player's card do not count.
    s = scenario()
    s.base_action(OASIS, "Forgotten Horrors", owner=0)
    s.minion(SHIP, "King Rex", owner=0)
    s.hand(1, "Invasion")
    s.turn(current=1)
    game = s.build()
    play(game, "Invasion")  # the only minion in play is taken without asking
    choose(game, "Jungle Oasis")
    assert hand_names(game) == []
    assert where_action(game, card(game, "Forgotten Horrors")) == "Jungle Oasis"


def test_forgotten_horrors_ignores_a_move_by_a_card_not_played_this_turn():
    # Clarification: a card already in play that moves your minion here (a talent, or Pirate
    # King's Special) counts only in the turn that card was played.
    s = scenario()
    s.base_action(OASIS, "Forgotten Horrors", owner=0)
    for _ in range(4):
        s.minion(OASIS, "Invader", owner=1)
    s.minion(SHIP, "Pirate King", owner=0)
    s.hand(0, "Howl")
    s.hand(1, "Invasion")
    s.turn(current=1, minions_played=1)
    game = s.build()
    events = record_events(game)
    end_play(game)  # Jungle Oasis (12) is about to score
    choose(game, "Yes")  # Pirate King joins the scoring base
    king = card(game, "Pirate King")
    assert [(e.kind, e.base) for e in events if e.card == king][0] == ("moved", OASIS + 1)
    assert hand_names(game) == ["Howl"]


# ------------------------------------------------------------------ Fortune and Glory ----------
def test_fortune_and_glory_moves_up_to_two_minions_from_one_base_each_where_chosen():
    s = scenario()
    s.minion(OASIS, "Invader", owner=1)
    s.minion(OASIS, "Scout", owner=1)
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(SHIP, "Collector", owner=1)
    s.hand(0, "Fortune and Glory")
    game = s.build()
    play(game, "Fortune and Glory")
    choose(game, "Jungle Oasis")
    assert "Collector (2, P1) on The Mothership" not in labels(game)
    choose(game, "Invader")
    choose(game, "The Mothership")
    choose(game, "Scout")
    choose(game, "Factory 436-1337")
    assert where(game, card(game, "Invader")) == "The Mothership"
    assert where(game, card(game, "Scout")) == "Factory 436-1337"
    assert where(game, card(game, "King Rex")) == "Jungle Oasis"


def test_fortune_and_glory_may_move_none():
    s = scenario()
    s.minion(OASIS, "Invader", owner=1)
    s.hand(0, "Fortune and Glory")
    game = s.build()
    play(game, "Fortune and Glory")
    choose(game, "Jungle Oasis")
    decline(game)
    assert where(game, card(game, "Invader")) == "Jungle Oasis"


# ------------------------------------------------------------------ I Said No Camels! ----------
def test_no_camels_puts_a_counter_on_each_of_your_minions_there():
    s = scenario()
    s.minion(FACTORY, "King Rex", owner=0)
    s.minion(FACTORY, "Guide", owner=0)
    s.minion(FACTORY, "Invader", owner=1)
    s.minion(SHIP, "Glory Hound", owner=0)
    s.hand(0, "I Said No Camels!")
    game = s.build()
    play(game, "I Said No Camels!")
    choose(game, "Factory 436-1337")
    choose(game, "A +1 power counter on each")
    assert [game.minion_state[card(game, n, "minion")].counters
            for n in ("King Rex", "Guide", "Invader", "Glory Hound")] == [1, 1, 0, 0]


def test_no_camels_may_draw_a_card_for_each_of_your_minions_there_instead():
    s = scenario()
    s.minion(FACTORY, "King Rex", owner=0)
    s.minion(FACTORY, "Guide", owner=0)
    s.minion(FACTORY, "Invader", owner=1)
    s.minion(SHIP, "Armor Stego", owner=0)  # its talent keeps the Play Cards phase open
    s.hand(0, "I Said No Camels!")
    game = s.build()
    play(game, "I Said No Camels!")
    choose(game, "Factory 436-1337")
    choose(game, "Draw a card for each")
    assert hand_names(game) == ["Howl", "Howl"]
    assert game.minion_state[card(game, "Guide")].counters == 0


# ------------------------------------------------------------------ Museum ---------------------
def test_it_belongs_in_a_museum_swaps_two_minions_on_different_bases():
    s = scenario()
    s.minion(OASIS, "Invader", owner=1)
    s.minion(OASIS, "Scout", owner=1)
    s.minion(SHIP, "King Rex", owner=0)
    s.minion(FACTORY, "Glory Hound", owner=0)
    s.hand(0, "It Belongs in a Museum")
    game = s.build()
    play(game, "It Belongs in a Museum")
    choose(game, "Invader")
    # Not a minion of the same base.
    assert sorted(labels(game)) == ["Glory Hound (2, P0) on Factory 436-1337",
                                    "King Rex (7, P0) on The Mothership"]
    assert_refused(game, [f"m{card(game, 'Scout')}"])
    choose(game, "King Rex")
    assert where(game, card(game, "Invader")) == "The Mothership"
    assert where(game, card(game, "King Rex")) == "Jungle Oasis"


def test_it_belongs_in_a_museum_moves_nothing_with_minions_on_one_base_only():
    s = scenario()
    s.minion(OASIS, "Invader", owner=1)
    s.minion(OASIS, "Scout", owner=1)
    s.hand(0, "It Belongs in a Museum", "Howl")
    game = s.build()
    play(game, "It Belongs in a Museum")
    assert game.pending.kind == "play"
    assert where(game, card(game, "Invader")) == "Jungle Oasis"


# ------------------------------------------------------------------ Lost City ------------------
def oasis_scores_on_seat_1s_turn(hand, base_deck=None, first="Jungle Oasis"):
    s = scenario()
    s.data["bases"][0]["name"] = first
    for _ in range(4):
        s.minion(OASIS, "Invader", owner=1)
    s.hand(0, *hand)
    s.hand(1, "Invasion")
    if base_deck is not None:
        s.data["base_deck"] = list(base_deck)
    s.turn(current=1, minions_played=1)
    return s


def test_lost_city_picks_one_of_the_top_two_bases_and_plays_an_extra_minion_there():
    game = oasis_scores_on_seat_1s_turn(["Lost City", "King Rex"]).build()
    end_play(game)
    assert labels(game) == ["Play Lost City: choose the new base", "Pass"]
    choose(game, "Play Lost City")
    # Both revealed bases are offered; the other goes to the base discard pile.
    assert sorted(o.label for o in game.pending.options) == ["Ninja Dojo", "Temple of Goju"]
    assert_refused(game, [f"c{card(game, 'Tar Pits')}"])
    choose(game, "Ninja Dojo")
    assert bases_in_play(game)[0] == "Ninja Dojo"
    assert [game.name(c) for c in game.base_discard] == ["Jungle Oasis", "Temple of Goju"]
    assert base_deck(game) == ["Tar Pits"]
    choose(game, "King Rex")
    assert where(game, card(game, "King Rex")) == "Ninja Dojo"
    assert game.loc[card(game, "Lost City")] == ("discard", 0)


def test_lost_citys_extra_minion_may_be_declined():
    game = oasis_scores_on_seat_1s_turn(["Lost City", "King Rex"]).build()
    end_play(game)
    choose(game, "Play Lost City")
    choose(game, "Temple of Goju")
    decline(game)
    assert bases_in_play(game)[0] == "Temple of Goju"
    assert game.loc[card(game, "King Rex")] == ("hand", 0)


def test_lost_city_gives_its_extra_minion_even_when_the_base_picks_its_own_replacement():
    # Rulebook clarification: School of Wizardry's winner picks the base; Lost City's player still
    # puts a minion on it (and reveals nothing).
    s = oasis_scores_on_seat_1s_turn(["Lost City", "King Rex"], first="School of Wizardry")
    for _ in range(3):
        s.minion(OASIS, "Invader", owner=1)  # 7 Invaders: 21 of 20
    game = s.build()
    end_play(game)
    choose(game, "Play Lost City")
    assert game.pending.seat == 1  # School of Wizardry's winner picks
    choose(game, "Tar Pits")
    choose(game, "Temple of Goju")
    assert bases_in_play(game)[0] == "Tar Pits"
    assert base_deck(game) == ["Temple of Goju", "Ninja Dojo"]
    assert game.pending.seat == 0
    choose(game, "King Rex")
    assert where(game, card(game, "King Rex")) == "Tar Pits"


def test_lost_city_does_nothing_in_big_base():
    from smashup.engine import REGISTRY

    assert REGISTRY.card("Lost City").no_effect_in_big_base == "replacement"


# ------------------------------------------------------------------ X Never Marks the Spot -----
def test_x_never_marks_the_spot_moves_any_of_your_minions_each_where_chosen():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(OASIS, "Guide", owner=0)
    s.minion(SHIP, "Invader", owner=1)
    s.hand(0, "X Never Marks the Spot")
    game = s.build()
    play(game, "X Never Marks the Spot")
    assert "Invader (1, P1) on The Mothership" not in labels(game)
    choose(game, "King Rex")
    assert_refused(game, [f"b{game.bases[0].uid}"])  # not its own base
    choose(game, "The Mothership")
    choose(game, "Guide")
    choose(game, "Factory 436-1337")
    assert where(game, card(game, "King Rex")) == "The Mothership"
    assert where(game, card(game, "Guide")) == "Factory 436-1337"


def test_x_never_marks_the_spot_may_move_none():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=0)
    s.hand(0, "X Never Marks the Spot")
    game = s.build()
    play(game, "X Never Marks the Spot")
    decline(game)
    assert where(game, card(game, "King Rex")) == "Jungle Oasis"


# ------------------------------------------------------------------ Archaeology ----------------
def test_you_call_this_archaeology_moves_one_of_your_minions():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(OASIS, "Invader", owner=1)
    s.hand(0, "You Call This Archaeology?")
    game = s.build()
    play(game, "You Call This Archaeology?")
    choose(game, "The Mothership")
    assert where(game, card(game, "King Rex")) == "The Mothership"


def test_you_call_this_archaeology_may_be_played_just_after_a_base_scores():
    s = scenario()
    for _ in range(3):
        s.minion(OASIS, "Invader", owner=1)
    s.minion(OASIS, "King Rex", owner=0)
    s.hand(0, "You Call This Archaeology?")
    s.hand(1, "Invasion")
    s.turn(current=1, minions_played=1)
    game = s.build()
    end_play(game)
    # Before scoring, then after scoring: seat 0 waits for after.
    assert game.pending.seat == 0
    choose(game, "Pass")
    assert game.pending.seat == 0
    choose(game, "Play You Call This Archaeology?")
    choose(game, "The Mothership")
    assert where(game, card(game, "King Rex")) == "The Mothership"
    assert game.players[0].vp == 0 and game.players[1].vp == 2


# ------------------------------------------------------------------ Big Base -------------------
def test_big_base_idaho_smiths_extra_base_replaces_the_base_card_and_he_moves_to_another_side():
    from bigbase.rules import BigBaseScenario, load_boards

    s = BigBaseScenario(PLAYERS, base="Jungle Oasis", next_bases=["Tar Pits", "Ninja Dojo"],
                        board=load_boards()["plain"])
    s.hand(1, FILLER)
    s.deck(0, *[DECK_FILLER] * 4)
    s.deck(1, *[FILLER] * 4)
    s.hand(0, "Idaho Smith")
    game = s.build()
    play(game, "Idaho Smith", "North")
    choose(game, "North slot 1")
    choose(game, "Yes")
    assert game.name(game.base_card) == "Tar Pits"
    assert [game.name(c) for c in game.base_discard] == ["Jungle Oasis"]
    assert sorted(labels(game)) == ["East", "South", "West"]
    choose(game, "East")
    choose(game, "East slot 1")
    assert game.loc[card(game, "Idaho Smith")] == ("minion", game.bases[1].uid)
