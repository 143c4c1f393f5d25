"""Scoring the board: VP for 1st to 4th by total power on the whole board from the period's table
(ties as in normal scoring), the side bonus, base abilities on each side, the board cleared
after; the end after the last period and the tie-break rounds."""
from bigbase_support import board, scenario, side_uid

from smashup.engine import invariants
from smashup.engine.testing import choose, end_play


def _scored(players=3, vp=(), round_=3, period=1, base="Jungle Oasis", tiebreak=0, **kw):
    s = scenario(players=players, base=base, next_bases=("Tar Pits", "The Central Brain"), **kw)
    for seat, amount in enumerate(vp):
        s.vp(seat, amount)
    s.round(round=round_, period=period, first_player=0, tiebreak_rounds=tiebreak)
    s.hand(0, "Howl")
    for seat in range(players):
        s.deck(seat, *{0: ("Augmentation", "Buccaneer"), 1: ("Zapbot", "Hoverbot"),
                       2: ("Collector", "Invader"), 3: ("Portal", "Scry")}[seat])
    return s


def test_vp_by_total_power_on_the_board_with_ties_and_the_side_bonus():
    s = _scored()
    s.minion("North", "King Rex", owner=0, slot=0)  # seat 0: 7
    s.minion("North", "Warbot", owner=1, slot=1)  # seat 1: 4 + 3 = 7
    s.minion("East", "Hoverbot", owner=1, slot=0)
    s.minion("East", "Tenacious Z", owner=2, slot=1)  # seat 2: 2 + 3 = 5
    s.minion("South", "Invader", owner=2, slot=2)
    game = s.build()
    end_play(game)  # the last turn of round 3 is over when everyone has played
    while game.period == 1:
        end_play(game)
    # Seats 0 and 1 tie for 1st (4 VP each), seat 2 is 3rd (2 VP: 2nd is skipped). Side bonus:
    # North seat 0 (7 to 4), East seat 1 (3 to 2), South seat 2, West nobody.
    assert [p.vp for p in game.players] == [5, 5, 3]
    last = game.scorings[-1]
    assert last["places"] == {"0": 1, "1": 1, "2": 3}
    assert last["vp"] == {"0": 4, "1": 4, "2": 2}
    assert last["side_bonus"] == {"0": 1, "1": 1, "2": 1}
    # Everything in play was discarded; nobody holds a slot.
    assert game.all_minions() == []
    assert sorted(game.name(c) for c in game.players[1].discard + game.players[1].hand
                  + game.players[1].deck) == ["Hoverbot", "Hoverbot", "Warbot", "Zapbot"]
    assert invariants.check(game) == []


def test_tied_players_each_get_the_side_bonus_and_an_empty_side_gives_none():
    s = _scored(players=2)
    s.minion("West", "King Rex", owner=0, slot=0)
    s.minion("West", "Warbot", owner=1, slot=1)
    s.minion("West", "Hoverbot", owner=1, slot=1)
    game = s.build()
    end_play(game)
    # 7 to 7 on West: both 1st (4 VP) and both get West's bonus.
    assert [p.vp for p in game.players] == [5, 5]


def test_a_player_without_minions_on_the_board_scores_nothing():
    s = _scored(players=3)
    s.minion("North", "King Rex", owner=0, slot=0)
    s.minion("South", "Zapbot", owner=1, slot=0)
    game = s.build()
    end_play(game)
    assert [p.vp for p in game.players] == [5, 4, 0]  # 1st + North, 2nd + South, nothing


def test_the_period_table_and_the_board_data_decide_the_vp():
    custom = board("plain", side_bonus_vp=2)
    custom["period_vp"]["2"] = [9, 7, 5, 3]
    s = _scored(players=2, period=2, board_data=custom)
    s.minion("North", "King Rex", owner=0, slot=0)
    s.minion("East", "Zapbot", owner=1, slot=0)
    game = s.build()
    end_play(game)
    assert [p.vp for p in game.players] == [9 + 2, 7 + 2]


def test_a_base_ability_works_on_each_side_when_the_board_scores():
    # Rhodes Plaza Mall: when it scores, each player gains 1 VP per minion of theirs there; each
    # side has it, so each minion on the board counts once.
    s = _scored(players=2, base="Rhodes Plaza Mall")
    s.minion("North", "King Rex", owner=0, slot=0)
    s.minion("East", "Buccaneer", owner=0, slot=0)
    s.minion("East", "Zapbot", owner=1, slot=1)
    game = s.build()
    end_play(game)
    # Seat 0: 1st (4) + North and East bonus (2) + 2 minions (2); seat 1: 2nd (3) + 1 minion.
    assert [p.vp for p in game.players] == [8, 4]


def test_the_winner_of_a_side_is_the_winner_for_its_base_ability():
    # The Mothership: after it scores, the winner (of that side) may return a minion of power 3 or
    # less from there to hand.
    s = _scored(players=2, base="The Mothership")
    s.minion("North", "King Rex", owner=0, slot=0)
    s.minion("East", "Zapbot", owner=1, slot=0)
    game = s.build()
    end_play(game)
    assert game.pending.seat == 1 and game.pending.kind == "target"
    zapbot = game.pending.options[0].card
    game.apply(1, game.pending.id, [game.pending.options[0].id])
    while game.period == 1:
        end_play(game)
    assert game.loc[zapbot] == ("hand", 1)


def test_after_the_last_period_the_most_vp_wins():
    s = _scored(players=2, period=3, vp=(10, 10))
    s.minion("North", "King Rex", owner=0, slot=0)
    s.minion("East", "Zapbot", owner=1, slot=0)
    game = s.build()
    end_play(game)
    assert game.over and game.winner == 0
    assert [p.vp for p in game.players] == [10 + 6 + 1, 10 + 5 + 1]


def test_a_tie_after_the_last_period_plays_a_tie_break_round_without_discarding():
    s = _scored(players=2, period=3, vp=(10, 11))
    s.minion("North", "King Rex", owner=0, slot=0)  # 1st: 6 + 1 -> 17
    s.minion("East", "Warbot", owner=1, slot=0)  # 2nd: 5 + 1 -> 17
    game = s.build()
    end_play(game)
    assert not game.over
    assert [p.vp for p in game.players] == [17, 17]
    assert game.tiebreak_rounds == 1
    # Nothing was discarded: the minions stay on the board.
    assert sorted(game.name(m) for m in game.all_minions()) == ["King Rex", "Warbot"]
    assert game.view(None)["big_base"]["vp_table"] == [4, 3, 2, 1]  # the tie-break table
    # The tie-break round: every player's turn, then the board scores with period 1's table.
    while not game.over:
        end_play(game)
    assert game.winner == 0
    assert [p.vp for p in game.players] == [17 + 4 + 1, 17 + 3 + 1]


def test_a_tie_that_cannot_be_broken_is_shared_after_the_limit():
    s = _scored(players=2, period=3, vp=(10, 10), tiebreak=10)
    s.minion("North", "King Rex", owner=0, slot=0)
    s.minion("East", "Warbot", owner=1, slot=0)
    s.minion("East", "Hoverbot", owner=1, slot=0)
    game = s.build()
    end_play(game)
    assert game.over and game.winner is None and game.shared_winners == [0, 1]
    assert side_uid(game, "East") in game.holders


def test_a_minion_an_ability_moves_to_another_side_stays_and_one_sent_to_hand_goes_there():
    s = _scored(players=2)
    s.minion("North", "First Mate", owner=0, slot=0)
    s.minion("East", "Scout", owner=1, slot=0)
    s.minion("East", "King Rex", owner=0, slot=1)
    game = s.build()
    end_play(game)
    mate = next(m for m in game.all_minions() if game.name(m) == "First Mate")
    scout = next(m for m in game.all_minions() if game.name(m) == "Scout")
    # After North scored: First Mate's Special (its controller is asked), to West.
    while game.pending.kind != "play":
        d = game.pending
        if d.kind == "confirm":
            game.apply(d.seat, d.id, ["yes"])
        elif d.kind == "base":
            choose(game, "West")
        elif d.kind == "slot":
            choose(game, "slot 1")
        else:
            game.apply(d.seat, d.id, [d.options[0].id])
    assert game.period == 2
    assert game.loc[mate] == ("minion", side_uid(game, "West"))  # stays on the board
    assert game.slot_of(side_uid(game, "West"), 0) == 0
    assert game.loc[scout] == ("hand", 1)
    assert [game.name(m) for m in game.all_minions()] == ["First Mate"]
    assert invariants.check(game) == []


# ====================================================================== one scoring ==========
# Issue 24: the board scores as one scoring (the Big Base rules: the steps of scoring as in
# normal Smash Up, one base with four sides): one round of Specials, where a Special that plays
# or moves a card to a base picks one side.


def test_the_board_scores_once_a_pirate_king_in_play_is_offered_once_and_picks_its_side():
    s = _scored(players=2, base="Jungle Oasis")
    s.minion("North", "Pirate King", owner=0, slot=0)
    s.minion("East", "King Rex", owner=1, slot=0)
    s.minion("South", "Zapbot", owner=1, slot=0)
    game = s.build()
    end_play(game)
    # One question for the Specials in play, for the whole board: the King once.
    d = game.pending
    assert (d.seat, d.kind) == (0, "confirm") and d.prompt == "Move Pirate King to the scoring base?"
    choose(game, "Yes")
    # "Choose one side": the sides it may sail to (not its own).
    assert game.pending.kind == "base" and game.pending.seat == 0
    assert sorted(o.label for o in game.pending.options) == ["East", "South", "West"]
    choose(game, "East")
    choose(game, "slot 2")  # seat 0 takes a free slot on East
    # Never asked again: the board scored, the King (on East) scored there with seat 1's Rex.
    assert game.pending.kind == "play"
    assert game.scorings[-1]["powers"] == {"0": 5, "1": 9}


def test_the_board_scores_once_one_round_of_specials_from_hand():
    s = _scored(players=2, base="Jungle Oasis", specials="ask")
    s.minion("North", "King Rex", owner=0, slot=0)
    s.minion("East", "Zapbot", owner=1, slot=0)
    s.hand(1, "Shinobi")
    game = s.build()
    end_play(game)
    end_play(game)  # seat 1 keeps its Shinobi
    asked = []
    while game.pending.kind == "special":
        asked.append((game.pending.seat, game.pending.prompt))
        labels = [o.label for o in game.pending.options if o.alike is None]
        assert game.pending.prompt == "The board is about to score: use a Special?"
        if game.pending.seat == 1 and "Play Shinobi on the scoring base" in labels:
            choose(game, "Shinobi")
            # Shinobi goes to one side, its player choosing.
            assert game.pending.kind == "base" and game.pending.seat == 1
            choose(game, "West")
            choose(game, "slot 1")
            continue
        choose(game, "Pass")
    # Before scoring, one round: seat 0 passes, seat 1 plays Shinobi, both pass (nobody holds
    # a Special for after scoring: no question then). Not one round per side.
    assert [seat for seat, _ in asked] == [0, 1, 0, 1]
    assert game.scorings[-1]["powers"] == {"0": 7, "1": 2 + 3}
