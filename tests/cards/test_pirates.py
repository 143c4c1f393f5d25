"""Every card of the Pirates (Core Set), played through the engine.

Each test builds a position with `Scenario`, plays the card with the testing helpers and checks the
exact effect: where every card ends, power, VP and the events announced. The rulings come from the
catalog (shared/cards/core.yaml, Pirates: current errata and AEG's notes): Buccaneer escapes once per
turn and may decline; First Mate sails each time its base scores, never to the replacement base;
Powderkeg destroys the others even when the chosen minion survives; Full Sail before scoring does
not stop the base from scoring.

Seat 1 always keeps a card it can play, so that when seat 0's turn ends the game stops at seat 1's
Play Cards decision.
"""
from __future__ import annotations

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import ACTION, MINION, REGISTRY, Scenario
from smashup.engine.testing import (
    assert_refused,
    base_uid,
    card,
    choose,
    decline,
    end_play,
    find_cards,
    labels,
    play,
    record_events,
)

PLAYERS = [("Pirates", "Wizards"), ("Ninjas", "Robots")]
FILLER = "Ninja Acolyte"  # a card seat 1 holds so the game waits on its turn
KEEP = "Mystic Studies"  # an action seat 0 holds so its Play Cards phase stays open
OASIS, FACTORY, SHIP = 0, 1, 2  # Jungle Oasis 12 (2/0/0), Factory 436-1337 25, The Mothership 20


def scenario(seat1_hand=(FILLER,)):
    s = Scenario(PLAYERS)
    for name in ("Jungle Oasis", "Factory 436-1337", "The Mothership"):
        s.base(name)
    s.hand(1, *seat1_hand)
    s.deck(0, *["Enchantress"] * 6)
    s.deck(1, *[FILLER] * 6)
    s.base_deck("Rhodes Plaza Mall", "Tar Pits")
    return s


def kinds(events, kind) -> list:
    return [e for e in events if e.kind == kind]


def where(game, name, index=0):
    """(zone kind, base name or seat) of a card, by name."""
    zone = game.loc[card(game, name, index=index)]
    if zone[0] == "minion":
        return ("minion", game.base_name(zone[1]))
    return zone


def log(game) -> list[str]:
    return [t for t, to in game.log_lines if to is None]


# ====================================================================== the deck =============


def test_the_pirate_deck_matches_the_catalog():
    expected = {
        "Pirate King": (MINION, 5, 1), "Buccaneer": (MINION, 4, 2), "Saucy Wench": (MINION, 3, 3),
        "First Mate": (MINION, 2, 4), "Broadside": (ACTION, 0, 2), "Cannon": (ACTION, 0, 1),
        "Dinghy": (ACTION, 0, 2), "Full Sail": (ACTION, 0, 1), "Powderkeg": (ACTION, 0, 1),
        "Sea Dogs": (ACTION, 0, 1), "Shanghai": (ACTION, 0, 1), "Swashbuckling": (ACTION, 0, 1),
    }
    pirates = REGISTRY.faction("Pirates")
    assert {c.name: (c.kind, c.power, c.copies) for c in pirates.cards} == expected
    assert len(pirates.deck()) == 20
    assert all(c.text for c in pirates.cards)
    assert not any(c.attach for c in pirates.cards)
    assert [c.name for c in pirates.cards if c.specials] == ["Pirate King", "First Mate",
                                                             "Full Sail"]


# ====================================================================== Pirate King ==========


def king_game():
    s = scenario()
    s.minion(OASIS, "Ninja Master", owner=1)
    s.minion(OASIS, "Tiger Assassin", owner=1)  # seat 1: 9 here
    s.minion(OASIS, "Saucy Wench", owner=0)
    s.minion(OASIS, "Saucy Wench", owner=0)  # seat 0: 6 here; 15 of 12: Jungle Oasis scores
    s.minion(FACTORY, "Pirate King", owner=0)
    s.hand(0, "Enchantress")
    game = s.build()
    end_play(game)
    return game


def test_pirate_king_may_move_to_the_scoring_base_before_it_scores():
    game = king_game()
    # A Special of a card in play (Me First!: these come first): its controller may use it.
    d = game.pending
    assert (d.seat, d.kind) == (0, "confirm")
    assert d.prompt == "Move Pirate King to the scoring base?"
    oasis = base_uid(game, "Jungle Oasis")
    events = record_events(game)
    choose(game, "Yes")
    moved = kinds(events, "moved")
    assert [(game.name(e.card), e.base) for e in moved] == [("Pirate King", oasis)]
    # 11 against 9: seat 0 wins Jungle Oasis (2 VP) with the King, then the King is discarded.
    assert [p.vp for p in game.players] == [2, 0]
    assert where(game, "Pirate King") == ("discard", 0)


def test_pirate_king_declined_stays_and_the_base_scores_without_it():
    game = king_game()
    choose(game, "No")
    assert [p.vp for p in game.players] == [0, 2]
    assert where(game, "Pirate King") == ("minion", "Factory 436-1337")


def test_pirate_king_on_the_scoring_base_is_not_offered():
    s = scenario()
    s.minion(OASIS, "Pirate King", owner=0)
    s.minion(OASIS, "Ninja Master", owner=1)
    s.minion(OASIS, "Tiger Assassin", owner=1)  # 14 of 12
    s.hand(0, "Enchantress")
    game = s.build()
    end_play(game)
    assert game.pending.kind != "special"  # nothing to offer: seat 0 was not asked
    assert [p.vp for p in game.players] == [0, 2]


def test_pirate_king_that_cannot_be_moved_is_not_offered():
    # Another player's Tooth and Claw... and Guns on the King keeps its own controller's abilities
    # away: its Special could do nothing, so it is not offered (a bot used it forever).
    s = scenario()
    s.minion(OASIS, "Ninja Master", owner=1)
    s.minion(OASIS, "Tiger Assassin", owner=1)
    s.minion(OASIS, "Saucy Wench", owner=0)
    s.minion(FACTORY, "Pirate King", owner=0, attached=[("Tooth and Claw... and Guns", 1)])
    s.hand(0, "Enchantress")
    game = s.build()
    end_play(game)
    assert game.pending.kind != "special"
    assert where(game, "Pirate King") == ("minion", "Factory 436-1337")
    assert [p.vp for p in game.players] == [0, 2]


# ====================================================================== Buccaneer ============


def buccaneer_game():
    s = scenario(seat1_hand=("Ninja Master", FILLER))
    s.minion(OASIS, "Buccaneer", owner=0)
    s.minion(OASIS, "First Mate", owner=0)
    s.minion(FACTORY, "Invader", owner=1)
    s.hand(0, "Powderkeg", "Ninja Master", KEEP)
    return s.build()


def test_buccaneer_may_move_to_another_base_instead_of_being_destroyed():
    game = buccaneer_game()
    buccaneer = card(game, "Buccaneer")
    events = record_events(game)
    play(game, "Ninja Master", base="Jungle Oasis")
    choose(game, buccaneer)
    d = game.pending
    assert (d.seat, d.kind, d.min_count) == (0, "base", 0)
    assert sorted(labels(game)) == ["Factory 436-1337", "The Mothership"]
    choose(game, "The Mothership")
    assert where(game, "Buccaneer") == ("minion", "The Mothership")
    assert not kinds(events, "destroyed")
    assert [game.name(e.card) for e in kinds(events, "moved")] == ["Buccaneer"]


def test_buccaneer_escapes_only_once_per_turn():
    game = buccaneer_game()
    buccaneer = card(game, "Buccaneer")
    play(game, "Ninja Master", base="Jungle Oasis")
    choose(game, buccaneer)
    choose(game, "Factory 436-1337")
    # Powderkeg on the Buccaneer: this turn's escape is used up, so it is destroyed.
    play(game, "Powderkeg")
    choose(game, buccaneer)
    assert game.loc[buccaneer] == ("discard", 0)


def test_buccaneer_escape_comes_back_on_the_next_turn():
    game = buccaneer_game()
    buccaneer = card(game, "Buccaneer")
    play(game, "Ninja Master", base="Jungle Oasis")
    choose(game, buccaneer)
    choose(game, "Factory 436-1337")
    end_play(game)
    assert (game.pending.seat, game.pending.kind) == (1, "play")
    play(game, "Ninja Master", base="Factory 436-1337")
    choose(game, buccaneer)
    assert (game.pending.seat, game.pending.kind) == (0, "base")
    choose(game, "Jungle Oasis")
    assert where(game, "Buccaneer") == ("minion", "Jungle Oasis")


def test_buccaneer_declining_lets_it_be_destroyed():
    game = buccaneer_game()
    buccaneer = card(game, "Buccaneer")
    events = record_events(game)
    play(game, "Ninja Master", base="Jungle Oasis")
    choose(game, buccaneer)
    decline(game)
    assert game.loc[buccaneer] == ("discard", 0)
    assert [game.name(e.card) for e in kinds(events, "destroyed")] == ["Buccaneer"]


# ====================================================================== Saucy Wench ==========


def wench_game():
    s = scenario()
    s.minion(OASIS, "Zapbot", owner=1)
    s.minion(OASIS, "Zapbot", owner=1)  # alike the first
    s.minion(OASIS, "Shinobi", owner=1)  # power 3: too strong
    s.minion(OASIS, "Warbot", owner=1, counters=0)
    s.minion(OASIS, "First Mate", owner=0)  # your own may go too
    s.minion(FACTORY, "Invader", owner=1)  # power 3 anyway, another base
    s.hand(0, "Saucy Wench", KEEP)
    game = s.build()
    play(game, "Saucy Wench", base="Jungle Oasis")
    return game


def test_saucy_wench_may_destroy_a_minion_of_power_2_or_less_on_its_base():
    game = wench_game()
    d = game.pending
    assert (d.kind, d.min_count) == ("target", 0)
    zapbots = find_cards(game, "Zapbot")
    assert {o.card for o in d.options} == {zapbots[0], card(game, "First Mate")}
    assert_refused(game, [f"m{card(game, 'Shinobi')}"])
    assert_refused(game, [f"m{zapbots[1]}"])  # the alike copy is not a second option
    choose(game, zapbots[0])
    assert game.loc[zapbots[0]] == ("discard", 1)
    assert game.loc[zapbots[1]][0] == "minion"


def test_saucy_wench_may_decline():
    game = wench_game()
    decline(game)
    assert all(game.loc[z][0] == "minion" for z in find_cards(game, "Zapbot"))


# ====================================================================== First Mate ===========


def mate_game(mates=2):
    s = scenario()
    s.minion(OASIS, "Ninja Master", owner=1)
    s.minion(OASIS, "Tiger Assassin", owner=1)  # 9
    for _ in range(mates):
        s.minion(OASIS, "First Mate", owner=0)
    s.minion(OASIS, "Saucy Wench", owner=0)  # 9 + 4 + 3 = 16 of 12
    s.hand(0, "Enchantress")
    game = s.build()
    end_play(game)
    return game


def test_first_mates_may_each_move_to_another_base_instead_of_the_discard_pile():
    game = mate_game()
    mates = find_cards(game, "First Mate")
    d = game.pending
    # Two alike First Mates, Specials of cards in play: one at a time, no order to pick (alike),
    # each its controller's yes or no.
    assert (d.seat, d.kind, d.source) == (0, "confirm", mates[0])
    choose(game, "Yes")
    # Only the other bases: the replacement is not out yet.
    assert sorted(labels(game)) == ["Factory 436-1337", "The Mothership"]
    choose(game, "The Mothership")
    assert (game.pending.kind, game.pending.source) == ("confirm", mates[1])
    choose(game, "Yes")
    events = record_events(game)
    choose(game, "Factory 436-1337")
    assert where(game, "First Mate", 0) == ("minion", "The Mothership")
    assert where(game, "First Mate", 1) == ("minion", "Factory 436-1337")
    assert where(game, "Saucy Wench") == ("discard", 0)
    assert sorted(game.name(e.card) for e in kinds(events, "moved")) == ["First Mate"] * 2
    assert not kinds(events, "destroyed")
    assert "Rhodes Plaza Mall" in [game.base_name(s.uid) for s in game.bases]


def test_first_mate_passed_goes_to_the_discard_pile():
    game = mate_game(mates=1)
    choose(game, "No")
    assert where(game, "First Mate") == ("discard", 0)


# ====================================================================== Broadside ============


def broadside_game():
    s = scenario()
    s.minion(OASIS, "Saucy Wench", owner=0)
    s.minion(OASIS, "First Mate", owner=0)
    s.minion(OASIS, "Zapbot", owner=1)
    s.minion(OASIS, "Zapbot", owner=1)
    s.minion(OASIS, "Shinobi", owner=1)  # 3: spared
    s.minion(FACTORY, "Zapbot", owner=1)  # another base: spared
    s.minion(SHIP, "Zapbot", owner=1)  # no minion of yours there: not a choice
    s.hand(0, "Broadside", KEEP)
    game = s.build()
    play(game, "Broadside")
    return game


def test_broadside_destroys_every_weak_minion_of_one_player_on_a_base_of_yours():
    game = broadside_game()
    # Only Jungle Oasis has a minion of yours: chosen without a question.
    assert game.pending.kind == "player"
    events = record_events(game)
    choose(game, "P1")
    zapbots = find_cards(game, "Zapbot")
    assert [game.loc[z][0] for z in zapbots] == ["discard", "discard", "minion", "minion"]
    assert where(game, "Shinobi")[0] == "minion"
    assert where(game, "First Mate")[0] == "minion"
    assert sorted(game.name(e.card) for e in kinds(events, "destroyed")) == ["Zapbot"] * 2


def test_broadside_may_choose_yourself():
    game = broadside_game()
    assert sorted(labels(game)) == ["P0", "P1"]
    choose(game, "P0")
    assert where(game, "First Mate") == ("discard", 0)
    assert where(game, "Saucy Wench")[0] == "minion"
    assert all(game.loc[z][0] == "minion" for z in find_cards(game, "Zapbot"))


def test_broadside_refuses_a_base_without_a_minion_of_yours():
    s = scenario()
    s.minion(OASIS, "First Mate", owner=0)
    s.minion(FACTORY, "First Mate", owner=0)
    s.minion(SHIP, "Zapbot", owner=1)
    s.hand(0, "Broadside", KEEP)
    game = s.build()
    play(game, "Broadside")
    assert sorted(labels(game)) == ["Factory 436-1337", "Jungle Oasis"]
    assert_refused(game, [f"b{base_uid(game, 'The Mothership')}"])


# ====================================================================== Cannon ===============


def cannon_game():
    s = scenario()
    s.minion(OASIS, "Zapbot", owner=1)
    s.minion(OASIS, "Zapbot", owner=1)
    s.minion(FACTORY, "First Mate", owner=0)
    s.minion(SHIP, "Shinobi", owner=1)  # 3: too strong
    s.hand(0, "Cannon", KEEP)
    game = s.build()
    play(game, "Cannon")
    return game


def test_cannon_destroys_up_to_two_weak_minions_anywhere():
    game = cannon_game()
    zapbots = find_cards(game, "Zapbot")
    assert {o.card for o in game.pending.options} == {zapbots[0], card(game, "First Mate")}
    assert_refused(game, [f"m{card(game, 'Shinobi')}"])
    choose(game, zapbots[0])
    # The second shot: the other Zapbot is now one option of its own.
    assert {o.card for o in game.pending.options} == {zapbots[1], card(game, "First Mate")}
    choose(game, zapbots[1])
    assert [game.loc[z][0] for z in zapbots] == ["discard", "discard"]
    assert where(game, "First Mate")[0] == "minion"
    assert game.pending.kind == "play"


def test_cannon_may_stop_after_one_or_none():
    game = cannon_game()
    zapbots = find_cards(game, "Zapbot")
    choose(game, zapbots[0])
    decline(game)
    assert [game.loc[z][0] for z in zapbots] == ["discard", "minion"]
    game = cannon_game()
    decline(game)
    assert all(game.loc[z][0] == "minion" for z in find_cards(game, "Zapbot"))


# ====================================================================== Dinghy ===============


def dinghy_game():
    s = scenario()
    s.minion(OASIS, "First Mate", owner=0)
    s.minion(OASIS, "First Mate", owner=0)
    s.minion(FACTORY, "Saucy Wench", owner=0)
    s.minion(OASIS, "Zapbot", owner=1)
    s.hand(0, "Dinghy", KEEP)
    game = s.build()
    play(game, "Dinghy")
    return game


def test_dinghy_moves_up_to_two_of_your_minions_to_different_bases():
    game = dinghy_game()
    mates = find_cards(game, "First Mate")
    assert {o.card for o in game.pending.options} == {mates[0], card(game, "Saucy Wench")}
    assert_refused(game, [f"m{card(game, 'Zapbot')}"])  # not yours
    choose(game, mates[0])
    choose(game, "The Mothership")
    # The second: the other First Mate is now alone on Jungle Oasis.
    assert {o.card for o in game.pending.options} == {mates[1], card(game, "Saucy Wench")}
    choose(game, card(game, "Saucy Wench"))
    assert sorted(labels(game)) == ["Jungle Oasis", "The Mothership"]  # not its own base
    choose(game, "Jungle Oasis")
    assert game.pending.kind == "play"  # two at most
    assert where(game, "First Mate", 0) == ("minion", "The Mothership")
    assert where(game, "First Mate", 1) == ("minion", "Jungle Oasis")
    assert where(game, "Saucy Wench") == ("minion", "Jungle Oasis")


def test_dinghy_may_move_none():
    game = dinghy_game()
    decline(game)
    assert game.pending.kind == "play"
    assert where(game, "Saucy Wench") == ("minion", "Factory 436-1337")


# ====================================================================== Full Sail ============


def test_full_sail_moves_any_number_of_your_minions():
    s = scenario()
    for name in ("First Mate", "Saucy Wench", "Buccaneer"):
        s.minion(OASIS, name, owner=0)
    s.hand(0, "Full Sail", KEEP)
    game = s.build()
    play(game, "Full Sail")
    for name in ("First Mate", "Saucy Wench", "Buccaneer"):
        choose(game, card(game, name))
        choose(game, "The Mothership")
    assert game.pending.kind == "play"  # none left to move
    assert all(where(game, n) == ("minion", "The Mothership")
               for n in ("First Mate", "Saucy Wench", "Buccaneer"))
    assert game.loc[card(game, "Full Sail")] == ("discard", 0)


def test_full_sail_before_scoring_moves_minions_away_and_the_base_still_scores():
    s = scenario()
    s.minion(OASIS, "Ninja Master", owner=1)
    s.minion(OASIS, "Buccaneer", owner=0)
    s.minion(OASIS, "Saucy Wench", owner=0)  # 12 of 12
    s.hand(0, "Full Sail", "Enchantress")
    game = s.build()
    play(game, "Enchantress", base="Factory 436-1337")  # the turn's minion; Full Sail waits
    assert game.pending.kind == "play"
    end_play(game)
    assert labels(game) == ["Play Full Sail: move any number of your minions", "Pass"]
    choose(game, card(game, "Full Sail"))
    choose(game, card(game, "Buccaneer"))
    choose(game, "The Mothership")
    decline(game)  # the Wench stays
    # Rulebook example: Jungle Oasis scores all the same, now 8 against 3.
    assert [p.vp for p in game.players] == [0, 2]
    assert where(game, "Buccaneer") == ("minion", "The Mothership")
    assert where(game, "Saucy Wench") == ("discard", 0)
    assert game.loc[card(game, "Full Sail")] == ("discard", 0)
    assert "P0 plays Full Sail." in log(game)


# ====================================================================== Powderkeg ============


def powderkeg_game(keg="Buccaneer"):
    s = scenario()
    s.minion(OASIS, keg, owner=0)
    s.minion(OASIS, "Saucy Wench", owner=0)  # 3: yours too
    s.minion(OASIS, "Tiger Assassin", owner=1)  # 4: equal
    s.minion(OASIS, "Pirate King", owner=0)  # 5: stronger
    s.minion(FACTORY, "Zapbot", owner=1)  # another base
    s.hand(0, "Powderkeg", KEEP)
    game = s.build()
    play(game, "Powderkeg")
    return game


def test_powderkeg_destroys_the_chosen_minion_and_every_one_as_weak_or_weaker_on_its_base():
    game = powderkeg_game()
    assert_refused(game, [f"m{card(game, 'Tiger Assassin')}"])  # not yours
    events = record_events(game)
    choose(game, card(game, "Buccaneer"))
    decline(game)  # the Buccaneer does not escape
    assert sorted(game.name(e.card) for e in kinds(events, "destroyed")) == [
        "Buccaneer", "Saucy Wench", "Tiger Assassin"]
    assert where(game, "Pirate King")[0] == "minion"
    assert where(game, "Zapbot")[0] == "minion"


def test_powderkeg_still_destroys_the_others_when_the_chosen_minion_survives():
    game = powderkeg_game(keg="Warbot")
    choose(game, card(game, "Warbot"))
    assert where(game, "Warbot")[0] == "minion"  # cannot be destroyed
    assert where(game, "Saucy Wench") == ("discard", 0)
    assert where(game, "Tiger Assassin") == ("discard", 1)


def test_powderkeg_others_go_even_when_the_buccaneer_sails_away():
    game = powderkeg_game()
    choose(game, card(game, "Buccaneer"))
    choose(game, "The Mothership")
    assert where(game, "Buccaneer") == ("minion", "The Mothership")
    assert where(game, "Tiger Assassin") == ("discard", 1)


# ====================================================================== Sea Dogs =============


def sea_dogs_game():
    s = scenario()
    s.minion(OASIS, "Zapbot", owner=1)
    s.minion(OASIS, "Warbot", owner=1)
    s.minion(OASIS, "Shinobi", owner=1)  # Ninjas: stays
    s.minion(OASIS, "Hoverbot", owner=0, controller=0)  # a Robot of yours: stays
    s.minion(FACTORY, "Zapbot", owner=1)  # another base: stays
    s.hand(0, "Sea Dogs", KEEP)
    game = s.build()
    play(game, "Sea Dogs")
    return game


def test_sea_dogs_moves_every_minion_of_the_named_faction_of_other_players_between_two_bases():
    game = sea_dogs_game()
    assert sorted(labels(game)) == ["Ninjas", "Pirates", "Robots", "Wizards"]
    choose(game, "Robots")
    assert sorted(labels(game)) == ["Factory 436-1337", "Jungle Oasis"]
    choose(game, "Jungle Oasis")
    assert sorted(labels(game)) == ["Factory 436-1337", "The Mothership"]
    events = record_events(game)
    choose(game, "The Mothership")
    zapbots = find_cards(game, "Zapbot")
    assert where(game, "Warbot") == ("minion", "The Mothership")
    assert game.loc[zapbots[0]] == ("minion", base_uid(game, "The Mothership"))
    assert game.loc[zapbots[1]] == ("minion", base_uid(game, "Factory 436-1337"))
    assert where(game, "Shinobi") == ("minion", "Jungle Oasis")
    assert where(game, "Hoverbot") == ("minion", "Jungle Oasis")
    assert len(kinds(events, "moved")) == 2


def test_sea_dogs_naming_a_faction_with_no_such_minion_moves_nothing():
    game = sea_dogs_game()
    choose(game, "Wizards")
    assert game.pending.kind == "play"
    assert "No minion of the Wizards can be moved (Sea Dogs)." in log(game)


# ====================================================================== Shanghai =============


def test_shanghai_moves_another_players_minion_to_another_base():
    s = scenario()
    s.minion(OASIS, "Zapbot", owner=1)
    s.minion(OASIS, "First Mate", owner=0)
    s.hand(0, "Shanghai", KEEP)
    game = s.build()
    play(game, "Shanghai")  # the Zapbot is the only choice
    assert sorted(labels(game)) == ["Factory 436-1337", "The Mothership"]
    assert_refused(game, [f"b{base_uid(game, 'Jungle Oasis')}"])  # not its own base
    choose(game, "Factory 436-1337")
    assert where(game, "Zapbot") == ("minion", "Factory 436-1337")
    assert where(game, "First Mate") == ("minion", "Jungle Oasis")


def test_shanghai_refuses_your_own_minion():
    s = scenario()
    s.minion(OASIS, "Zapbot", owner=1)
    s.minion(FACTORY, "Tiger Assassin", owner=1)
    s.minion(OASIS, "First Mate", owner=0)
    s.hand(0, "Shanghai", KEEP)
    game = s.build()
    play(game, "Shanghai")
    assert_refused(game, [f"m{card(game, 'First Mate')}"])


# ====================================================================== Swashbuckling ========


def test_swashbuckling_gives_each_of_your_minions_1_power_until_the_end_of_the_turn():
    s = scenario()
    s.minion(OASIS, "First Mate", owner=0)
    s.minion(FACTORY, "Saucy Wench", owner=0)
    s.minion(FACTORY, "Zapbot", owner=1)
    s.hand(0, "Swashbuckling", "Buccaneer")
    game = s.build()
    play(game, "Swashbuckling")
    mate, wench, zapbot = card(game, "First Mate"), card(game, "Saucy Wench"), card(game, "Zapbot")
    assert [game.power(m) for m in (mate, wench, zapbot)] == [3, 4, 2]
    play(game, "Buccaneer", base="The Mothership")  # played later: not affected
    assert game.power(card(game, "Buccaneer")) == 4
    # The turn ended (nothing left to play): the bonus is gone.
    assert (game.pending.seat, game.pending.kind) == (1, "play")
    assert [game.power(m) for m in (mate, wench)] == [2, 3]


# ====================================================================== bots =================


def test_the_heuristic_bot_sails_its_own_minions_with_dinghy():
    # Dinghy and Full Sail help their targets: the bot moves its own minions (bots.SELF_TARGETED;
    # no decision intent exists yet).
    import random

    from smashup.engine.bots import heuristic_choice

    game = dinghy_game()
    ids_chosen = heuristic_choice(game, random.Random(1))
    assert len(ids_chosen) == 1
    chosen = game.pending.option(ids_chosen[0]).card
    assert game.controller(chosen) == 0


def test_buccaneer_and_tar_pits_both_replacing_its_destruction_its_controller_picks_one():
    s = Scenario(PLAYERS)
    s.base("Tar Pits")
    s.base("The Mothership")
    s.hand(1, FILLER)
    s.deck(1, *[FILLER] * 4)
    s.minion(0, "Buccaneer", owner=0)
    s.hand(0, "Ninja Master", KEEP)
    game = s.build()
    buccaneer = card(game, "Buccaneer")
    play(game, "Ninja Master", base="Tar Pits")
    choose(game, buccaneer)
    d = game.pending
    assert (d.seat, d.kind) == (0, "order")
    assert sorted(labels(game)) == ["Buccaneer", "Tar Pits"]
    choose(game, "Buccaneer")
    choose(game, "The Mothership")
    # Moved instead: Tar Pits has nothing left to replace.
    assert where(game, "Buccaneer") == ("minion", "The Mothership")
    assert buccaneer not in game.players[0].deck


def test_buccaneer_is_not_destroyed_when_its_base_scores_so_it_is_not_asked():
    s = scenario()
    s.minion(OASIS, "Buccaneer", owner=0)
    s.minion(OASIS, "Ninja Master", owner=1)
    s.minion(OASIS, "Shinobi", owner=1)  # 12 of 12
    s.hand(0, "Enchantress")
    game = s.build()
    end_play(game)
    assert where(game, "Buccaneer") == ("discard", 0)
    assert (game.pending.seat, game.pending.kind) == (1, "play")


def test_first_mates_move_at_step_7_is_its_controllers():
    # Issue 24, mechanism 2: First Mate's Special is its controller's, and so is the move it
    # makes when the base's cards are put away: another player's Imperial Dragon there draws.
    s = scenario()
    s.minion(OASIS, "King Rex", owner=1)
    s.minion(OASIS, "Invader", owner=1)
    s.minion(OASIS, "First Mate", owner=0)  # 12 of 12
    s.minion(SHIP, "Imperial Dragon", owner=1)
    s.hand(0, KEEP)
    game = s.build()
    events = record_events(game)
    hand = len(game.players[1].hand)
    end_play(game)
    choose(game, "Yes")  # First Mate sails
    choose(game, "The Mothership")
    mate = card(game, "First Mate")
    moved = [e for e in events if e.kind == "moved" and e.card == mate]
    assert moved and (moved[0].by_card, moved[0].by_player) == (mate, 0)
    assert len(game.players[1].hand) == hand + 1  # the Imperial Dragon drew


def test_a_first_mate_on_temple_of_goju_may_sail_before_the_temple_takes_it():
    # Issue 24, mechanism 6 (WWWT "Me First!", CR step 6): the current player orders Temple of
    # Goju's after-scoring ability among the Specials of cards in play. First Mate, seat 0's
    # strongest minion there, sails first: the Temple then takes nothing of seat 0's.
    s = Scenario(PLAYERS)
    s.base("Temple of Goju")
    s.base("Jungle Oasis")
    s.minion(0, "First Mate", owner=0)  # 2: seat 0's only minion there, so its strongest
    s.minion(0, "King Rex", owner=1)
    s.minion(0, "Tiger Assassin", owner=1)
    s.minion(0, "Ninja Master", owner=1)  # 18 in all
    s.hand(0, KEEP)
    s.hand(1, FILLER)
    s.deck(0, *["Enchantress"] * 6)
    s.deck(1, *[FILLER] * 6)
    s.base_deck("Rhodes Plaza Mall")
    game = s.build()
    end_play(game)
    assert game.pending.kind == "order" and game.pending.seat == 0
    assert sorted(labels(game)) == [
        "Move First Mate to another base instead of the discard pile: First Mate (2, P0) on "
        "Temple of Goju", "Temple of Goju"]
    choose(game, "Move First Mate")
    choose(game, "Yes")
    mate = card(game, "First Mate")
    assert where(game, "First Mate") == ("minion", "Jungle Oasis")
    assert mate not in game.players[0].deck
