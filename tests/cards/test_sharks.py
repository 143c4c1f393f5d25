"""Every card of the Sharks (It's Your Fault!), played through the engine.

Each test builds a position with `Scenario`, plays the card and checks the exact effect: which
minions are destroyed, counters, power, cards drawn, what is offered and what is refused. Rulings:
the catalog (smashup/cards/catalog/iyf.yaml, Sharks: notes and doubts) and the IYF rulebook's
clarifications (Hammerhead, Chum); a destruction without "may" is mandatory when a minion
qualifies, even one of yours.

Bases: Jungle Oasis (breakpoint 12), The Mothership (20) and Factory 436-1337 (25); none acts
before it scores. Seat 1 keeps a card it can play, so that when seat 0's turn ends the game stops
at seat 1's Play Cards decision, and seat 0 keeps an action (Howl) so that its own phase does not
end by itself after a play.
"""
from __future__ import annotations

import smashup.cards  # noqa: F401  (declares the registered cards)
import smashup.cards.sharks  # noqa: F401  (declares the Sharks)
from smashup.engine import ACTION, MINION, REGISTRY, Scenario
from smashup.engine.testing import (
    assert_refused,
    base_uid,
    card,
    choose,
    decline,
    end_play,
    find_cards,
    hand_names,
    labels,
    play,
    record_events,
)

PLAYERS = [("Sharks", "Dinosaurs"), ("Ninjas", "Aliens")]
FILLER = "Ninja Acolyte"
DECK_FILLER = "King Rex"
HAND_FILLER = "Howl"  # an action seat 0 keeps, so its Play Cards phase never ends by itself
OASIS, SHIP, FACTORY = 0, 1, 2


def scenario(deck=None):
    s = Scenario(PLAYERS)
    for name in ("Jungle Oasis", "The Mothership", "Factory 436-1337"):
        s.base(name)
    s.hand(0, HAND_FILLER)
    s.hand(1, FILLER)
    s.deck(0, *(deck if deck is not None else [DECK_FILLER] * 4))
    s.deck(1, *[FILLER] * 4)
    s.base_deck("Rhodes Plaza Mall")
    return s


def zone(game, cid) -> str:
    where = game.loc[cid]
    return game.name(game.slot(where[1]).card) if where[0] == "minion" else where[0]


def option_of(game, cid) -> str:
    return next(o.id for o in game.pending.options if o.card == cid)


# ====================================================================== the deck =============


def test_the_shark_deck_matches_the_catalog():
    expected = {
        "Megalodon": (MINION, 5, 1), "Great White": (MINION, 4, 2), "Hammerhead": (MINION, 3, 3),
        "Mako": (MINION, 2, 4), "Air Jaws": (ACTION, 0, 1), "Blood in the Water": (ACTION, 0, 2),
        "Chum": (ACTION, 0, 1), "Dangerous Waters": (ACTION, 0, 1),
        "Feeding Frenzy": (ACTION, 0, 1), "Freakin' Laser Beam": (ACTION, 0, 1),
        "Torn Apart": (ACTION, 0, 1), "Week of Sharks": (ACTION, 0, 2),
    }
    faction = REGISTRY.faction("Sharks")
    assert {c.name: (c.kind, c.power, c.copies) for c in faction.cards} == expected
    deck = faction.deck()
    assert len(deck) == 20 and sum(c.is_minion for c in deck) == 10
    assert all(c.text and c.set == "iyf" for c in faction.cards)
    assert {c.name: c.attach for c in faction.cards if c.attach} == {
        "Blood in the Water": "base", "Chum": "minion", "Dangerous Waters": "base",
        "Week of Sharks": "base"}


# ====================================================================== Megalodon ============


def megalodon_table():
    s = scenario()
    s.minion(FACTORY, "Tiger Assassin", owner=1)   # 4: prey
    s.minion(FACTORY, "Ninja Master", owner=1)     # 5: too big
    s.minion(SHIP, "Ninja Acolyte", owner=1)     # elsewhere
    s.hand(0, "Megalodon")
    return s.build()


def test_megalodon_destroys_a_minion_of_power_4_or_less_here():
    game = megalodon_table()
    tiger = card(game, "Tiger Assassin")
    play(game, "Megalodon", base="Factory 436-1337")
    assert [o.card for o in game.pending.options] == [tiger]  # not the 5, not the other base
    assert game.pending.min_count == 0
    choose(game, tiger)
    assert game.loc[tiger] == ("discard", 1)


def test_megalodon_may_decline_and_refuses_a_minion_too_big_or_elsewhere():
    game = megalodon_table()
    play(game, "Megalodon", base="Factory 436-1337")
    assert_refused(game, [f"m{card(game, 'Ninja Master')}"])
    assert_refused(game, [f"m{card(game, 'Ninja Acolyte')}"])
    decline(game)
    assert zone(game, card(game, "Tiger Assassin")) == "Factory 436-1337"


def scoring_megalodon(prey="Shinobi"):
    # Jungle Oasis (12) is full: Megalodon 5 + King Rex 7; ending the phase scores it.
    s = scenario()
    s.minion(OASIS, "Megalodon", owner=0)
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(OASIS, prey, owner=1)
    s.minion(OASIS, "Tiger Assassin", owner=1)
    s.hand(0, "King Rex")
    return s.build()


def test_megalodon_bites_just_before_its_base_scores():
    game = scoring_megalodon()
    end_play(game)
    assert game.pending.kind == "confirm" and game.pending.seat == 0
    choose(game, "Yes")
    shinobi = card(game, "Shinobi")
    # The 3 is the only prey (Tiger Assassin has 4): chosen without asking.
    assert game.loc[shinobi] == ("discard", 1)
    assert game.players[0].vp == 2 and game.players[1].vp == 0  # Tiger's 4 was second: Oasis pays 0


def test_megalodon_may_keep_its_special():
    game = scoring_megalodon()
    end_play(game)
    choose(game, "No")
    assert zone(game, card(game, "Shinobi")) == "discard"  # scored with the base, not destroyed
    assert game.players[0].vp == 2


def test_megalodon_has_no_special_without_prey_on_its_base():
    game = scoring_megalodon(prey="Ninja Master")
    end_play(game)
    assert game.pending.kind != "confirm"  # nothing of power 3 or less: no question


# ====================================================================== Great White ==========


def test_great_white_moves_then_must_destroy_a_small_minion_there():
    s = scenario()
    s.minion(OASIS, "Great White", owner=0)
    s.minion(SHIP, "Ninja Acolyte", owner=1)
    s.minion(SHIP, "Collector", owner=1)
    s.minion(SHIP, "Shinobi", owner=1)
    s.hand(0, "King Rex")
    game = s.build()
    white = card(game, "Great White")
    choose(game, "Great White's talent")
    assert sorted(labels(game)) == ["Factory 436-1337", "The Mothership"]  # not its own base
    assert_refused(game, [f"b{base_uid(game, 'Jungle Oasis')}"])
    choose(game, "The Mothership")
    assert zone(game, white) == "The Mothership"
    d = game.pending
    assert d.min_count == 1  # mandatory: power 2 or less only, not Shinobi
    assert sorted(labels(game)) == ["Collector (2, P1) on The Mothership",
                                    "Ninja Acolyte (2, P1) on The Mothership"]
    assert_refused(game, [f"m{card(game, 'Shinobi')}"])
    choose(game, "Collector")
    assert game.loc[card(game, "Collector")] == ("discard", 1)


def test_great_white_destroys_your_own_minion_if_it_is_the_only_one():
    s = scenario()
    s.minion(OASIS, "Great White", owner=0)
    s.minion(SHIP, "Mako", owner=0)
    s.hand(0, "King Rex")
    game = s.build()
    choose(game, "Great White's talent")
    choose(game, "The Mothership")
    assert game.loc[card(game, "Mako")] == ("discard", 0)


# ====================================================================== Hammerhead ===========


def test_hammerhead_counts_each_minion_destroyed_on_its_base():
    s = scenario()
    s.minion(OASIS, "Hammerhead", owner=0)
    s.minion(OASIS, "Ninja Acolyte", owner=1)
    s.minion(OASIS, "Collector", owner=1)
    s.minion(SHIP, "Hammerhead", owner=0)
    s.hand(0, "Feeding Frenzy")
    game = s.build()
    here, there = card(game, "Hammerhead", index=0), card(game, "Hammerhead", index=1)
    if game.loc[here][1] != base_uid(game, "Jungle Oasis"):
        here, there = there, here
    play(game, "Feeding Frenzy")
    choose(game, "Jungle Oasis")
    choose(game, "Ninja Acolyte")
    choose(game, "Collector")  # the last one: the frenzy stops by itself
    # Two reactions, one per minion destroyed: the current player orders them.
    assert labels(game) == ["Hammerhead: after Ninja Acolyte is destroyed (Jungle Oasis)",
                            "Hammerhead: after Collector is destroyed (Jungle Oasis)"]
    choose(game, "after Collector")
    # Two destroyed at once: one counter each (IYF clarification); none on the other base.
    assert game.minion_state[here].counters == 2
    assert game.minion_state[there].counters == 0
    assert game.power(here) == 5


# ====================================================================== Mako =================


def torn_apart_table(deck=None, mako_in_hand=True):
    s = scenario(deck=deck)
    s.minion(SHIP, "Shinobi", owner=1)
    s.hand(0, "Torn Apart", *(["Mako"] if mako_in_hand else []))
    return s.build()


def test_mako_follows_your_destruction_onto_that_base_as_an_extra_minion():
    game = torn_apart_table()
    mako = card(game, "Mako")
    play(game, "Torn Apart")
    d = game.pending
    assert d.kind == "special" and d.seat == 0
    assert labels(game) == ["Play Mako on the base where you destroyed a minion", "Pass"]
    choose(game, "Play Mako")
    assert zone(game, mako) == "The Mothership"
    play_record = game.turn_state.plays[-1]
    assert play_record.card == mako and play_record.extra
    # The turn's own minion play is still there.
    assert any(o.card == card(game, "King Rex") for o in game.pending.options)


def test_mako_drawn_by_torn_apart_answers_that_same_destruction():
    game = torn_apart_table(deck=["Mako", "King Rex", "King Rex"], mako_in_hand=False)
    play(game, "Torn Apart")
    assert game.pending.kind == "special"
    choose(game, "Play Mako")
    assert zone(game, card(game, "Mako")) == "The Mothership"


def test_mako_may_pass():
    game = torn_apart_table()
    play(game, "Torn Apart")
    choose(game, "Pass")
    assert game.loc[card(game, "Mako")] == ("hand", 0)
    assert game.pending.kind == "play"


def test_mako_does_not_answer_a_destruction_by_another_player():
    s = scenario()
    s.minion(SHIP, "Hammerhead", owner=0)
    s.hand(0, "Mako")
    s.hand(1, "Ninja Master", "Probe")
    s.turn(current=1)
    game = s.build()
    play(game, "Ninja Master", base="The Mothership")
    choose(game, "Hammerhead")
    assert game.loc[card(game, "Hammerhead")] == ("discard", 0)
    # Seat 0's minion was destroyed, but not by seat 0: no window, back to seat 1's play.
    assert game.pending.kind == "play" and game.pending.seat == 1


# ====================================================================== Air Jaws =============


def test_air_jaws_moves_your_minion_then_destroys_a_small_one_there():
    s = scenario()
    s.minion(OASIS, "Hammerhead", owner=0)
    s.minion(OASIS, "Mako", owner=0)
    s.minion(FACTORY, "Shinobi", owner=1)
    s.minion(FACTORY, "Ninja Master", owner=1)
    s.hand(0, "Air Jaws")
    game = s.build()
    play(game, "Air Jaws")
    assert sorted(labels(game)) == ["Hammerhead (3, P0) on Jungle Oasis",
                                    "Mako (2, P0) on Jungle Oasis"]
    assert_refused(game, [f"m{card(game, 'Shinobi')}"])  # only your own minions move
    choose(game, "Hammerhead")
    choose(game, "Factory")
    # Shinobi (3) is the only minion of power 3 or less there besides... Hammerhead itself (3).
    assert sorted(labels(game)) == ["Hammerhead (3, P0) on Factory 436-1337",
                                    "Shinobi (3, P1) on Factory 436-1337"]
    assert game.pending.min_count == 1
    choose(game, "Shinobi")
    assert game.loc[card(game, "Shinobi")] == ("discard", 1)
    assert zone(game, card(game, "Hammerhead")) == "Factory 436-1337"


# ====================================================================== Blood in the Water ===


def blood_table():
    s = scenario()
    s.minion(OASIS, "Ninja Acolyte", owner=1)
    s.base_action(OASIS, "Blood in the Water", owner=0)
    s.hand(0, "Torn Apart", "Mako", "Hammerhead", "Great White")
    return s.build()


def test_blood_in_the_water_plays_a_small_minion_here_after_a_destruction_here():
    game = blood_table()
    play(game, "Torn Apart")  # the Acolyte is the only prey: destroyed without asking
    assert game.pending.kind == "extra" and game.pending.min_count == 0
    # Power 3 or less, only here: Mako and Hammerhead, not Great White (4).
    assert sorted(labels(game)) == ["Hammerhead on Jungle Oasis", "Mako on Jungle Oasis"]
    assert_refused(game, [f"m{card(game, 'Great White')}@{base_uid(game, 'Jungle Oasis')}"])
    choose(game, "Hammerhead")
    assert zone(game, card(game, "Hammerhead")) == "Jungle Oasis"
    assert game.turn_state.plays[-1].extra


def test_blood_in_the_water_may_be_declined():
    game = blood_table()
    play(game, "Torn Apart")
    decline(game)
    assert sorted(hand_names(game)) == ["Great White", "Hammerhead", "Howl", "King Rex", "Mako"]


# ====================================================================== Chum =================


def test_chum_feeds_its_host_after_any_minion_is_destroyed_anywhere():
    s = scenario()
    s.minion(OASIS, "Collector", owner=1, attached=[("Chum", 0)])
    s.minion(FACTORY, "Shinobi", owner=1)
    s.hand(0, "Torn Apart")
    game = s.build()
    host = card(game, "Collector")
    play(game, "Torn Apart")
    choose(game, "Shinobi")
    assert game.minion_state[host].counters == 1 and game.power(host) == 3


def test_chum_is_played_on_any_minion():
    s = scenario()
    s.minion(OASIS, "Collector", owner=1)
    s.minion(OASIS, "Mako", owner=0)
    s.hand(0, "Chum")
    game = s.build()
    play(game, "Chum")
    assert game.pending.intent == "help"
    assert sorted(labels(game)) == ["Collector (2, P1) on Jungle Oasis",
                                    "Mako (2, P0) on Jungle Oasis"]
    choose(game, "Mako")
    assert game.loc[card(game, "Chum")] == ("attached", card(game, "Mako"))


# ====================================================================== Dangerous Waters =====


def test_dangerous_waters_talent_takes_2_power_from_a_minion_here_until_the_end_of_the_turn():
    s = scenario()
    s.minion(OASIS, "Tiger Assassin", owner=1)
    s.minion(SHIP, "Shinobi", owner=1)
    s.base_action(OASIS, "Dangerous Waters", owner=0)
    s.hand(0, "King Rex")
    game = s.build()
    tiger = card(game, "Tiger Assassin")
    choose(game, "Dangerous Waters's talent")
    assert game.power(tiger) == 2
    end_play(game)
    assert game.power(tiger) == 4


def test_dangerous_waters_chooses_only_a_minion_on_its_base():
    s = scenario()
    s.minion(OASIS, "Tiger Assassin", owner=1)
    s.minion(OASIS, "Mako", owner=0)
    s.minion(SHIP, "Shinobi", owner=1)
    s.base_action(OASIS, "Dangerous Waters", owner=0)
    s.hand(0, "King Rex")
    game = s.build()
    choose(game, "Dangerous Waters's talent")
    assert game.pending.intent == "harm"
    assert_refused(game, [f"m{card(game, 'Shinobi')}"])
    choose(game, "Mako")  # anyone's
    assert game.power(card(game, "Mako")) == 0


# ====================================================================== Feeding Frenzy =======


def frenzy_table():
    s = scenario()
    s.minion(OASIS, "Ninja Acolyte", owner=1)
    s.minion(OASIS, "Collector", owner=1)
    s.minion(OASIS, "Mako", owner=0)
    s.minion(OASIS, "Shinobi", owner=1)
    s.hand(0, "Feeding Frenzy")
    return s.build()


def test_feeding_frenzy_destroys_any_number_of_small_minions_there():
    game = frenzy_table()
    acolyte = card(game, "Ninja Acolyte", "minion")
    play(game, "Feeding Frenzy")
    choose(game, "Jungle Oasis")
    assert sorted(labels(game)) == ["Collector (2, P1) on Jungle Oasis",
                                    "Mako (2, P0) on Jungle Oasis",
                                    "Ninja Acolyte (2, P1) on Jungle Oasis"]
    assert_refused(game, [f"m{card(game, 'Shinobi')}"])
    choose(game, "Collector")
    choose(game, "Ninja Acolyte")
    decline(game)  # enough: Mako stays
    assert game.loc[card(game, "Collector")] == ("discard", 1)
    assert find_cards(game, "Ninja Acolyte", "discard") == [acolyte]
    assert zone(game, card(game, "Mako")) == "Jungle Oasis"


def test_feeding_frenzy_may_destroy_none():
    game = frenzy_table()
    play(game, "Feeding Frenzy")
    choose(game, "Jungle Oasis")
    decline(game)
    assert len(game.slot(base_uid(game, "Jungle Oasis")).minions) == 4


# ====================================================================== Freakin' Laser Beam ==


def laser_table():
    s = scenario()
    s.minion(OASIS, "Hammerhead", owner=0)       # 3
    s.minion(OASIS, "Shinobi", owner=1)          # 3: as strong, may be shot
    s.minion(OASIS, "Collector", owner=1)        # 2
    s.minion(OASIS, "Tiger Assassin", owner=1)   # 4: too strong
    s.minion(SHIP, "Mako", owner=0)              # 2, alone on its base: no shot
    s.hand(0, "Freakin' Laser Beam")
    return s.build()


def test_freakin_laser_beam_destroys_another_minion_no_stronger_than_yours():
    game = laser_table()
    play(game, "Freakin' Laser Beam")
    # Mako has nothing to shoot: only the Hammerhead fires, so it is chosen without asking.
    assert game.pending.min_count == 1
    assert sorted(labels(game)) == ["Collector (2, P1) on Jungle Oasis",
                                    "Shinobi (3, P1) on Jungle Oasis"]
    assert_refused(game, [f"m{card(game, 'Tiger Assassin')}"])
    assert_refused(game, [f"m{card(game, 'Hammerhead')}"])  # never the chosen minion
    choose(game, "Shinobi")
    assert game.loc[card(game, "Shinobi")] == ("discard", 1)
    assert zone(game, card(game, "Tiger Assassin")) == "Jungle Oasis"


def test_freakin_laser_beam_offers_only_minions_that_have_a_target():
    s = scenario()
    s.minion(OASIS, "Hammerhead", owner=0)
    s.minion(OASIS, "Collector", owner=1)
    s.minion(SHIP, "Great White", owner=0)
    s.minion(SHIP, "Shinobi", owner=1)
    s.minion(FACTORY, "Mako", owner=0)
    s.minion(FACTORY, "Ninja Master", owner=1)
    s.hand(0, "Freakin' Laser Beam")
    game = s.build()
    play(game, "Freakin' Laser Beam")
    assert sorted(labels(game)) == ["Great White (4, P0) on The Mothership",
                                    "Hammerhead (3, P0) on Jungle Oasis"]
    assert_refused(game, [f"m{card(game, 'Mako')}"])
    choose(game, "Great White")
    assert game.loc[card(game, "Shinobi")] == ("discard", 1)


# ====================================================================== Torn Apart ===========


def test_torn_apart_destroys_a_minion_of_power_3_or_less_anywhere_then_draws():
    s = scenario(deck=["Mako", "King Rex"])
    s.minion(OASIS, "Shinobi", owner=1)
    s.minion(SHIP, "Collector", owner=1)
    s.minion(SHIP, "Tiger Assassin", owner=1)
    s.hand(0, "Torn Apart")
    game = s.build()
    events = record_events(game)
    play(game, "Torn Apart")
    assert game.pending.min_count == 1
    assert_refused(game, [f"m{card(game, 'Tiger Assassin')}"])
    choose(game, "Collector")
    destroyed = [e for e in events if e.kind == "destroyed"]
    assert [e.card for e in destroyed] == [card(game, "Collector")]
    assert destroyed[0].by_player == 0
    # The drawn Mako could answer: the window is the rulebook's step 4.
    assert hand_names(game) == ["Howl", "Mako"]


# ====================================================================== Week of Sharks =======


def week_table(with_minion=True):
    s = scenario(deck=["King Rex"] * 6)
    if with_minion:
        s.minion(SHIP, "Mako", owner=0)
    s.base_action(SHIP, "Week of Sharks", owner=0)
    s.base_action(SHIP, "Week of Sharks", owner=0)
    s.hand(0, "Hammerhead")
    return s.build()


def test_week_of_sharks_draws_one_card_at_the_end_of_your_turn_only_once():
    game = week_table()
    end_play(game)
    # Two Week of Sharks: 2 in hand + 2 drawn + 1 extra, not 2 extra.
    assert len(game.players[0].hand) == 5
    assert game.pending.seat == 1


def test_week_of_sharks_needs_your_minion_on_its_base():
    game = week_table(with_minion=False)
    end_play(game)
    assert len(game.players[0].hand) == 4


def test_week_of_sharks_draws_nothing_at_the_end_of_another_players_turn():
    game = week_table()
    end_play(game)
    before = len(game.players[0].hand)
    end_play(game)  # seat 1 ends its turn
    assert len(game.players[0].hand) == before


def test_great_white_destroys_nothing_where_no_minion_is_small_enough():
    s = scenario()
    s.minion(OASIS, "Great White", owner=0)
    s.minion(SHIP, "Shinobi", owner=1)
    s.hand(0, "King Rex")
    game = s.build()
    choose(game, "Great White's talent")
    choose(game, "The Mothership")
    assert zone(game, card(game, "Shinobi")) == "The Mothership"
    assert game.pending.kind == "play"
