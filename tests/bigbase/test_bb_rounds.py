"""Rounds and periods: turns with only Start and Play Cards; after every turn the round's draw,
end-of-turn effects once, "until end of turn" effects lasting the round, the base card rotating,
and after the last round of a period the period advancing and the First Player changing."""
from bigbase_support import scenario, side_uid

from smashup.engine import invariants
from smashup.engine.testing import choose, end_play, labels, play


def _names(game, cards):
    return [game.name(c) for c in cards]


def test_a_turn_has_no_draw_and_the_round_draws_for_everyone_from_the_first_player():
    s = scenario()
    s.hand(0, "Howl")
    s.deck(0, "King Rex", "Buccaneer", "War Raptor")
    s.hand(1, "Zapbot")
    s.deck(1, "Hoverbot", "Warbot")
    s.round(round=1, period=1, first_player=0)
    game = s.build()
    end_play(game)
    # Seat 1's turn: seat 0 drew nothing at the end of its turn.
    assert game.current == 1 and game.phase == "play"
    assert _names(game, game.players[0].hand) == ["Howl"]
    end_play(game)
    # End of round: each draws 2, the First Player first; round 2 begins with seat 0.
    assert _names(game, game.players[0].hand) == ["Howl", "King Rex", "Buccaneer"]
    assert _names(game, game.players[1].hand) == ["Zapbot", "Hoverbot", "Warbot"]
    draws = [t for t, _ in game.log_lines if "draws 2 cards" in t]
    assert draws[-2:] == ["P0 draws 2 cards.", "P1 draws 2 cards."]
    assert game.round == 2 and game.period == 1 and game.current == 0
    assert invariants.check(game) == []


def test_the_base_card_rotates_every_round_and_each_side_takes_the_new_ability():
    s = scenario(base="The Central Brain", next_bases=("Jungle Oasis", "Tar Pits"))
    s.minion("North", "King Rex", owner=0, slot=0)
    s.hand(0, "Howl")
    s.deck(0, "Augmentation", "Buccaneer")
    game = s.build()
    rex = game.slot(side_uid(game, "North")).minions[0]
    assert game.power(rex) == 8  # The Central Brain: +1 on every side
    assert game.name(game.base_card) == "The Central Brain"
    assert game.view(None)["big_base"]["next_base"]["name"] == "Jungle Oasis"
    end_play(game)
    assert game.name(game.base_card) == "Jungle Oasis"
    assert game.name(game.next_base) == "Tar Pits"
    assert _names(game, game.base_discard) == ["The Central Brain"]
    assert game.power(rex) == 7
    assert all(game.defs[s.card].breakpoint == 12 for s in game.bases)  # Jungle Oasis's


def test_until_end_of_turn_lasts_until_the_end_of_the_round():
    s = scenario(base="Jungle Oasis", next_bases=("Tar Pits",))
    s.minion("North", "King Rex", owner=0, slot=0)
    s.hand(0, "Howl")
    s.hand(1, "Zapbot")
    s.deck(0, "Augmentation", "Buccaneer")
    game = s.build()
    rex = game.slot(side_uid(game, "North")).minions[0]
    play(game, "Howl")  # +1 power to each of your minions until the end of the turn
    assert game.power(rex) == 8
    assert game.current == 1  # seat 0 had nothing more to play
    assert game.power(rex) == 8  # still, during the other player's turn
    end_play(game)
    assert game.round == 2
    assert game.power(rex) == 7


def test_end_of_turn_abilities_happen_once_at_the_end_of_the_round():
    s = scenario(base="Jungle Oasis", next_bases=("Tar Pits",))
    s.minion("North", "King Rex", owner=0, slot=0)
    s.hand(1, "Assassination", "Zapbot")
    s.hand(0, "Howl")
    s.deck(0, "Augmentation", "Buccaneer")
    s.turn(current=1)
    s.round(first_player=1)
    game = s.build()
    play(game, "Assassination")  # on the only minion in play: at once
    buc = game.slot(side_uid(game, "North")).minions[0]
    end_play(game)
    # Seat 0's turn: Assassination waits for the end of the round.
    assert game.current == 0 and game.is_minion_in_play(buc)
    end_play(game)
    assert not game.is_minion_in_play(buc)
    assert game.loc[buc] == ("discard", 0)
    ends = [e for e in game.log_lines if "is destroyed (Assassination)" in e[0]]
    assert len(ends) == 1


def test_after_the_last_round_of_a_period_the_period_advances_and_the_lowest_vp_goes_first():
    s = scenario(base="Jungle Oasis", next_bases=("Tar Pits", "The Central Brain"))
    s.minion("North", "King Rex", owner=0, slot=0)
    s.hand(0, "Howl")
    s.deck(0, "Augmentation", "Buccaneer")
    s.deck(1, "Zapbot", "Hoverbot")
    s.vp(0, 3).vp(1, 3)
    s.round(round=3, period=1, first_player=0)
    game = s.build()
    end_play(game)
    # Round 3 was the last of period 1: the board scored (seat 0: 4 VP for 1st, 1 for North).
    assert [p.vp for p in game.players] == [8, 3]
    assert game.period == 2 and game.round == 1
    # Seat 1 has the lowest VP: the new First Player, whose turn comes first.
    assert game.first_player == 1 and game.current == 1
    assert game.all_minions() == []  # the board was cleared
    assert all(h == [None, None, None] for h in game.holders.values())


def test_a_tie_for_lowest_vp_goes_to_the_first_tied_player_after_the_first_player():
    s = scenario(players=3, base="Jungle Oasis", next_bases=("Tar Pits",))
    s.hand(1, "Zapbot")
    s.vp(0, 2).vp(1, 5).vp(2, 2)
    s.deck(0, "Howl", "Buccaneer").deck(1, "Hoverbot", "Warbot").deck(2, "Invader", "Collector")
    s.round(round=3, period=1, first_player=1)
    s.turn(current=1)
    game = s.build()
    end_play(game)
    # Seats 0 and 2 tie for the lowest VP; clockwise after seat 1 comes seat 2 first.
    assert game.first_player == 2 and game.period == 2


def test_changing_the_base_card_changes_it_for_every_side():
    s = scenario(base="Jungle Oasis", next_bases=("Tar Pits", "The Central Brain"))
    s.minion("North", "King Rex", owner=0, slot=0)
    s.hand(0, "Terraforming", "Buccaneer")
    s.turn(current=0, minions_played=1)
    game = s.build()
    rex = game.slot(side_uid(game, "North")).minions[0]
    play(game, "Terraforming")
    choose(game, "East")
    choose(game, "The Central Brain")
    assert game.name(game.base_card) == "The Central Brain"
    assert game.loc[game.base_card] == ("board",)
    assert sorted(game.name(c) for c in game.base_deck) == ["Jungle Oasis", "Tar Pits"]
    assert game.power(rex) == 8  # every side has The Central Brain's +1
    # The extra minion goes on the side chosen.
    assert labels(game) == ["Play Buccaneer on East", "End the Play Cards phase"]
    assert invariants.check(game) == []


def test_time_called_makes_this_round_the_last_and_the_board_scores():
    s = scenario(base="Jungle Oasis", next_bases=("Tar Pits",))
    s.minion("North", "King Rex", owner=0, slot=0)
    s.hand(0, "Howl")
    s.deck(0, "Augmentation", "Buccaneer").deck(1, "Zapbot", "Hoverbot")
    s.round(round=1, period=1)
    game = s.build()
    game.call_time()
    end_play(game)
    assert game.over and game.winner == 0
    assert [p.vp for p in game.players] == [5, 0]
