"""The eight bases of What Were We Thinking?, through the engine.

Each test builds a position with `Scenario`, makes the base's ability happen (a play, a move, the
start of a turn, scoring) and checks the exact effect: VP, power, zones, who was asked what. The
rulings come from the catalog (smashup/cards/catalog/wwwt.yaml, `bases`).

Every seat holds a card it can play (a Ninja Acolyte), so a Play Cards phase waits for its player,
and the game stops at seat 1's Play Cards decision after seat 0's turn; both decks hold enough cards
that no draw reshuffles a discard pile.
"""
from __future__ import annotations

import smashup.cards  # noqa: F401  (fills REGISTRY)
from smashup.engine import REGISTRY
from smashup.engine.testing import (
    assert_refused,
    base_uid,
    card,
    choose,
    decline,
    end_play,
    labels,
    play,
    where,
)
from smashup.engine.testing import log_texts as log

from .quiet_scene import FILLER, bases_scene

PLAYERS = [("Rock Stars", "Aliens"), ("Ninjas", "Robots")]


def scenario(*bases, players=PLAYERS):
    return bases_scene(bases, players)


def test_the_implemented_bases_match_the_catalog():
    expected = {"Ancient Temple": (20, (4, 2, 1)), "City of Gold": (16, (3, 1, 1)),
                "Grandma's House": (25, (5, 3, 2)), "Lake Minnetonka": (26, (5, 3, 2)),
                "Palooza": (27, (6, 4, 3)), "Out in the Woods": (18, (3, 2, 1)),
                "Under the Bed": (22, (4, 2, 1)), "Retirement Community": (20, (4, 2, 1))}
    found = {b.name: (b.breakpoint, b.vp) for b in REGISTRY.bases.values() if b.set == "wwwt"}
    assert found == expected
    assert all(b.text for b in REGISTRY.bases.values() if b.set == "wwwt")


# ====================================================================== Ancient Temple =======


def test_ancient_temple_gives_a_lone_minion_five_power_for_the_turn():
    s = scenario("Ancient Temple", "Jungle Oasis")
    s.minion(0, "Collector", owner=1)  # seat 1's only minion here
    s.minion(0, "Invader", owner=0)
    s.minion(0, "Groupie", owner=0)  # seat 0 has two: nothing for them
    s.hand(0, "Groupie")
    game = s.build()
    collector = card(game, "Collector")
    assert game.power(collector) == 2
    end_play(game)
    assert game.current == 1
    assert game.power(collector) == 7
    assert game.power(card(game, "Invader")) == 3
    assert "Collector has +5 power this turn (Ancient Temple)." in log(game)
    play(game, FILLER, base="Jungle Oasis")  # its last playable card: the turn ends
    assert game.current == 0
    assert game.power(collector) == 2


def test_ancient_temple_bonus_ends_when_the_minion_moves_away_even_if_it_comes_back():
    s = scenario("Ancient Temple", "Jungle Oasis", players=[("Rock Stars", "Pirates"),
                                                           ("Ninjas", "Robots")])
    s.minion(0, "Groupie", owner=0)
    s.hand(0, "Dinghy", "Rick Roll")
    s.turn(current=1)
    game = s.build()
    # Seat 1 ends its turn; seat 0's starts with its lone Groupie blessed.
    end_play(game)
    assert game.current == 0
    groupie = card(game, "Groupie")
    assert game.power(groupie) == 7
    play(game, "Dinghy")
    choose(game, "Groupie")  # to the only other base, the Oasis; no second minion to move
    assert where(game, groupie) == "Jungle Oasis" and game.power(groupie) == 2
    play(game, "Rick Roll", base="Ancient Temple")  # brings it back from the Oasis (12 < 20)
    choose(game, "Groupie")
    assert where(game, groupie) == "Ancient Temple"
    assert game.power(groupie) == 2  # "while it stays here": gone for this turn


def test_ancient_temple_does_nothing_for_two_minions_or_none():
    s = scenario("Ancient Temple", "Jungle Oasis")
    s.minion(0, "Collector", owner=1)
    s.minion(0, "Zapbot", owner=1)
    s.hand(0, "Groupie")
    game = s.build()
    assert game.current == 0
    end_play(game)
    assert game.power(card(game, "Collector")) == 2 and game.power(card(game, "Zapbot")) == 2


# ====================================================================== City of Gold =========


def test_city_of_gold_pays_1_vp_at_the_start_of_a_turn_to_a_player_with_a_minion_there():
    s = scenario("City of Gold", "Jungle Oasis")
    s.minion(0, "Collector", owner=1)
    s.minion(1, "Invader", owner=0)  # seat 0 has none on the City
    s.hand(0, "Groupie")
    game = s.build()
    end_play(game)
    assert game.current == 1
    assert (game.players[0].vp, game.players[1].vp) == (0, 1)
    assert "P1 gains 1 VP (City of Gold)." in log(game)
    play(game, FILLER, base="Jungle Oasis")  # its last playable card: the turn ends
    assert game.current == 0 and game.players[0].vp == 0


# ====================================================================== Grandma's House ======


def test_grandmas_house_lets_the_player_put_the_top_card_on_the_bottom():
    s = scenario("Grandma's House", "Jungle Oasis")
    s.hand(0, "Groupie", "Beam Up")
    s.deck(0, "Invader")  # under the six fillers
    game = s.build()
    deck = game.players[0].deck
    top = deck[0]
    play(game, "Groupie", base="Grandma's House")
    assert game.pending.seat == 0 and game.pending.kind == "choice"
    assert labels(game) == ["Leave it on top", "Put it on the bottom"]
    # Only the player saw it: a private line of the log.
    assert ("You see Beam Up.", (0,)) in game.log_lines
    choose(game, "Put it on the bottom")
    assert game.players[0].deck[-1] == top and game.players[0].deck[0] != top


def test_grandmas_house_may_leave_it_on_top_and_only_for_plays_here():
    s = scenario("Grandma's House", "Jungle Oasis")
    s.hand(0, "Groupie", "Groupie", "Beam Up")
    game = s.build()
    play(game, "Groupie", base="Jungle Oasis")
    decline(game)  # the Groupie chain
    assert game.pending.kind == "play"
    s = scenario("Grandma's House", "Jungle Oasis")
    s.hand(0, "Groupie", "Beam Up")
    game = s.build()
    top = game.players[0].deck[0]
    play(game, "Groupie", base="Grandma's House")
    assert_refused(game, [])
    choose(game, "Leave it on top")
    assert game.players[0].deck[0] == top


# ====================================================================== Lake Minnetonka ======


def test_lake_minnetonka_gives_a_minion_played_or_moved_here_one_power_this_turn():
    s = scenario("Lake Minnetonka", "Jungle Oasis")
    s.minion(1, "Invader", owner=0)
    s.minion(1, "Collector", owner=1)
    s.hand(0, "Rick Roll", "Tour Bus")
    game = s.build()
    play(game, "Rick Roll", base="Lake Minnetonka")  # played here: +1
    choose(game, "Invader")  # moved here by Rick Roll: +1
    # The base reacts to both events of one batch: the current player orders them.
    assert sorted(labels(game)) == [
        "Lake Minnetonka: after Invader is moved (Lake Minnetonka)",
        "Lake Minnetonka: after Rick Roll is played (Lake Minnetonka)"]
    choose(game, "after Rick Roll")
    rick, invader = card(game, "Rick Roll"), card(game, "Invader")
    assert (game.power(rick), game.power(invader)) == (4, 4)
    assert game.power(card(game, "Collector")) == 2  # stayed on the Oasis
    end_play(game)
    assert (game.power(rick), game.power(invader)) == (3, 3)


# ====================================================================== Palooza ==============


def test_palooza_lets_each_player_move_one_minion_here_before_it_scores():
    s = scenario("Palooza", "Jungle Oasis", "The Mothership")
    s.minion(0, "Supreme Overlord", owner=0)
    s.minion(0, "Supreme Overlord", owner=1)
    s.minion(0, "Supreme Overlord", owner=0)
    s.minion(0, "Invader", owner=1)
    s.minion(0, "Invader", owner=1)
    s.minion(0, "Collector", owner=1)
    s.minion(0, "Collector", owner=1)  # 5+5+5+3+3+2+2 = 25 of 27
    s.minion(1, "Groupie", owner=0)
    s.minion(2, "Zapbot", owner=1)
    s.minion(2, "Hoverbot", owner=1)
    s.hand(0, "Rick Roll")
    game = s.build()
    play(game, "Rick Roll", base="Palooza")  # 28: it will score
    decline(game)  # Rick Roll's moves; nothing left to play: the turn goes on to scoring
    # Before scoring: seat 0 first, then seat 1, each may move one minion here.
    assert game.pending.seat == 0
    assert [game.name(o.card) for o in game.pending.options] == ["Groupie"]
    choose(game, "Groupie")
    assert game.pending.seat == 1
    assert sorted(game.name(o.card) for o in game.pending.options) == ["Hoverbot", "Zapbot"]
    assert_refused(game, [f"m{card(game, 'Groupie')}"])  # not theirs, and already here
    assert_refused(game, [f"m{card(game, 'Invader')}"])  # already here
    decline(game)
    # Seat 0: 5 + 5 + 3 + 2 = 15; seat 1: 5 + 3 + 3 + 2 + 2 = 15: tied for first, 6 VP each.
    assert (game.players[0].vp, game.players[1].vp) == (6, 6)


# ====================================================================== Retirement Community =


def retirement_game():
    """Retirement Community (20) scores in seat 0's turn: seat 0 wins with Supreme Overlord and
    Invader (8), seat 1 is second with Ninja Master and Shinobi (7); 15 + 5 counters."""
    s = scenario("Retirement Community", "Jungle Oasis", "The Mothership")
    s.minion(0, "Supreme Overlord", owner=0, counters=5)
    s.minion(0, "Invader", owner=0)
    s.minion(0, "Ninja Master", owner=1)
    s.minion(0, "Shinobi", owner=1)
    s.hand(0, "Rick Roll")
    s.turn(current=0, phase="score")
    return s.build()


def test_retirement_community_lets_each_player_put_one_minion_on_their_deck():
    game = retirement_game()
    assert (game.players[0].vp, game.players[1].vp) == (4, 2)
    # After scoring: the current player first, then clockwise; each only their own minions.
    assert game.pending.seat == 0
    assert sorted(game.name(o.card) for o in game.pending.options) == ["Invader",
                                                                       "Supreme Overlord"]
    assert_refused(game, [f"m{card(game, 'Ninja Master')}"])
    choose(game, "Invader")
    assert labels(game) == ["On top", "On the bottom"]
    choose(game, "On top")
    assert game.pending.seat == 1
    choose(game, "Shinobi")
    choose(game, "On the bottom")
    invader, shinobi = card(game, "Invader"), card(game, "Shinobi")
    # Seat 0 drew its 2 cards at the end of the turn: Invader was the top card.
    assert invader in game.players[0].hand
    assert game.players[1].deck[-1] == shinobi
    assert game.loc[card(game, "Supreme Overlord")] == ("discard", 0)
    assert game.loc[card(game, "Ninja Master")] == ("discard", 1)


def test_retirement_community_may_be_declined_by_each_player():
    game = retirement_game()
    decline(game)
    decline(game)
    assert all(game.loc[card(game, n)][0] == "discard"
               for n in ("Invader", "Supreme Overlord", "Ninja Master", "Shinobi"))


def test_retirement_community_offers_nothing_for_a_minion_already_sent_elsewhere():
    # A Scout goes to its owner's hand after scoring (its own "instead", first): the base does
    # not offer it again.
    s = scenario("Retirement Community", "Jungle Oasis", "The Mothership")
    s.minion(0, "Supreme Overlord", owner=0, counters=13)
    s.minion(0, "Scout", owner=1)
    s.hand(0, "Rick Roll")
    s.turn(current=0, phase="score")
    game = s.build()
    choose(game, "Scout")  # the current player orders the base's ability and Scout's
    choose(game, "Yes")  # Scout's controller sends it to their hand
    # Seat 0 is asked about its Overlord; seat 1 has nothing left to offer: not asked.
    choose(game, "Supreme Overlord")
    choose(game, "On the bottom")
    assert game.loc[card(game, "Scout")] == ("hand", 1)
    assert game.players[0].deck[-1] == card(game, "Supreme Overlord")


# ====================================================================== Out in the Woods =====


def test_out_in_the_woods_gives_every_minion_there_one_power_before_it_scores():
    s = scenario("Out in the Woods", "Jungle Oasis")
    s.minion(0, "Supreme Overlord", owner=0)
    s.minion(0, "Groupie", owner=0)  # 7, +2 = 9
    s.minion(0, "Supreme Overlord", owner=1)
    s.minion(0, "Invader", owner=1)  # 8, +2 = 10
    s.minion(1, "Zapbot", owner=1)  # another base: no bonus
    s.hand(0, "Rick Roll")
    game = s.build()
    play(game, "Rick Roll", base="Out in the Woods")  # 18 in all: ready; seat 0 has 10
    # Nothing left to play: the turn goes on to scoring.
    assert game.current == 1
    # 10 + 3 against 10 + 2: seat 0 first (3 VP), seat 1 second (2 VP).
    assert (game.players[0].vp, game.players[1].vp) == (3, 2)
    assert game.power(card(game, "Zapbot")) == 2


def test_a_pirate_king_may_join_out_in_the_woods_before_its_bonus():
    # Issue 24, mechanism 6 (WWWT "Me First!", CR step 3): the current player orders the base's
    # own before-scoring ability among the Specials of cards in play; the King sailing first
    # gets the Woods' +1 too.
    s = scenario("Out in the Woods", "Jungle Oasis")
    s.minion(0, "Supreme Overlord", owner=1)
    s.minion(0, "Invader", owner=1)  # 8
    s.minion(0, "Supreme Overlord", owner=0)
    s.minion(0, "Groupie", owner=0)  # 7
    s.minion(1, "Pirate King", owner=0)
    s.hand(0, "Rick Roll")
    game = s.build()
    play(game, "Rick Roll", base="Out in the Woods")  # 18: ready
    decline(game)  # Rick Roll brings nobody along
    assert game.pending.kind == "order" and game.pending.seat == 0
    assert sorted(labels(game)) == [
        "Move Pirate King to the scoring base: Pirate King (5, P0) on Jungle Oasis",
        "Out in the Woods"]
    choose(game, "Move Pirate King")
    choose(game, "Yes")
    king = card(game, "Pirate King")
    assert game.loc[king][0] == "discard"
    # Seat 0: Overlord 6, Groupie 3, Rick Roll 4 (3 + 1), King 6 = 19; seat 1: 6 + 4 = 10.
    assert (game.players[0].vp, game.players[1].vp) == (3, 2)
    assert game.base_scorings[-1]["powers"] == {"0": 19, "1": 10}


# ====================================================================== Under the Bed ========


def bed_game(*hand):
    s = scenario("Under the Bed", "Jungle Oasis")
    s.minion(1, "Collector", owner=1)
    s.hand(0, *hand)
    return s.build()


def test_under_the_bed_offers_an_extra_small_minion_after_one_played_elsewhere():
    game = bed_game("Invader", "Groupie", "Collector", "Beam Up")
    # Nothing played elsewhere yet: only the turn's own plays.
    assert "Play Groupie on Under the Bed" in labels(game)  # the normal play may go there
    play(game, "Invader", base="Jungle Oasis")
    # Now one extra minion of power 2 or less, only onto Under the Bed.
    assert [label for label in labels(game) if label.startswith("Play") and "Beam" not in label] \
        == ["Play Groupie on Under the Bed", "Play Collector on Under the Bed"]
    play(game, "Groupie", base="Under the Bed")
    assert where(game, card(game, "Groupie", "minion")) == "Under the Bed"
    # Once per turn: the Collector is not offered any more.
    assert not [label for label in labels(game) if "Collector" in label]
    assert game.turn_state.plays[-1].via == game.bases[0].card  # the play names the base
    assert game.players[1].vp == 0


def test_under_the_bed_offers_nothing_after_a_minion_played_on_it():
    game = bed_game("Groupie", "Groupie", "Beam Up")
    play(game, "Groupie", base="Under the Bed")
    decline(game)  # the Groupie's own chain
    assert not [label for label in labels(game) if label.startswith("Play Groupie")]


def test_under_the_bed_refuses_a_minion_above_power_2_and_another_base():
    game = bed_game("Invader", "Rick Roll", "Groupie", "Beam Up")
    play(game, "Invader", base="Jungle Oasis")
    rick, groupie = card(game, "Rick Roll"), card(game, "Groupie")
    bed, oasis = game.bases[0].uid, game.bases[1].uid
    assert_refused(game, [f"m{rick}@{bed}"])
    assert_refused(game, [f"m{groupie}@{oasis}"])


def test_under_the_bed_cancelled_offers_nothing():
    s = scenario("Under the Bed", "Jungle Oasis")
    s.base_action(0, "Jammed Signal", owner=1)
    s.hand(0, "Invader", "Groupie", "Beam Up")
    game = s.build()
    play(game, "Invader", base="Jungle Oasis")
    assert not [label for label in labels(game) if label.startswith("Play Groupie")]


def play_as_action(game, name, base_name):
    """Play a minion from the hand with the action play (Argonaut's Special)."""
    cid = next(c for c in game.players[game.pending.seat].hand if game.name(c) == name)
    uid = base_uid(game, base_name)
    [opt] = [o for o in game.pending.options
             if o.card == cid and o.base == uid and "as an action" in o.label]
    game.apply(game.pending.seat, game.pending.id, [opt.id])


def test_under_the_bed_counts_a_minion_played_elsewhere_as_an_action():
    # Issue 24, mechanism 4: an Argonaut played with the action play is a minion played.
    game = bed_game("Argonaut", "Groupie", "Groupie", "Beam Up")
    play_as_action(game, "Argonaut", "Jungle Oasis")
    play(game, "Groupie", base="Under the Bed")  # the turn's minion play, here
    decline(game)  # the Groupie's own chain
    # Under the Bed's extra, for the Argonaut played elsewhere (the Groupie may take it, which
    # leaves the minion play for another base).
    assert "Play Groupie on Under the Bed" in labels(game)
