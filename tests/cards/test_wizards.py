"""Every card of the Wizards (Core Set), played through the engine.

Each test builds a position with `Scenario`, plays the card with the testing helpers and checks the
exact effect: the zone every card ends in, cards drawn, extra plays and what was shown to whom. The
rulings come from the catalog (shared/cards/core.yaml, Wizards: AEG's notes): an extra action from
the Archmage or a Chronomage stays available when that minion is destroyed later in the turn.

Seat 1 always keeps a card it can play, so that when seat 0's turn ends the game stops at seat 1's
Play Cards decision.
"""
from __future__ import annotations

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import ACTION, MINION, REGISTRY, Scenario
from smashup.engine.invariants import leaks
from smashup.engine.testing import assert_refused, base_uid, card, choose, decline, labels, play

PLAYERS = [("Wizards", "Robots"), ("Ninjas", "Aliens")]
FILLER = "Ninja Acolyte"  # a card seat 1 holds so the game waits on its turn
KEEP = "Microbot Guard"  # a card seat 0 holds so its Play Cards phase stays open
KEEP_ACTION = "Tech Center"  # the same, once the free minion is played
DECK = ("Zapbot", "Warbot", "Hoverbot", "Nukebot", "Zapbot", "Warbot")  # seat 0's deck
OASIS, FACTORY, SHIP = 0, 1, 2


def scenario(deck=DECK, players=PLAYERS, actions_played=0, minions_played=0):
    s = Scenario(players)
    for name in ("Jungle Oasis", "Factory 436-1337", "The Mothership"):
        s.base(name)
    for seat in range(1, len(players)):
        s.hand(seat, FILLER)
        s.deck(seat, *[FILLER] * 4)
    s.deck(0, *deck)
    s.base_deck("Rhodes Plaza Mall")
    s.turn(0, actions_played=actions_played, minions_played=minions_played)
    return s


def names(game, cards) -> list[str]:
    return [game.name(c) for c in cards]


def hand_names(game, seat=0) -> list[str]:
    return names(game, game.players[seat].hand)


def deck_names(game, seat=0) -> list[str]:
    return names(game, game.players[seat].deck)


def log(game) -> list[str]:
    return [t for t, to in game.log_lines if to is None]


def action_plays(game) -> list[str]:
    return sorted({o.label for o in game.pending.options if o.id.startswith("a")})


def played(game) -> list[tuple[str, bool]]:
    return [(game.name(p.card), p.extra) for p in game.turn_state.plays if p.card is not None]


# ====================================================================== the deck =============


def test_the_wizard_deck_matches_the_catalog():
    expected = {
        "Archmage": (MINION, 4, 1), "Chronomage": (MINION, 3, 2), "Enchantress": (MINION, 2, 3),
        "Neophyte": (MINION, 2, 4), "Mass Enchantment": (ACTION, 0, 1),
        "Mystic Studies": (ACTION, 0, 2), "Portal": (ACTION, 0, 1), "Sacrifice": (ACTION, 0, 1),
        "Scry": (ACTION, 0, 1), "Summon": (ACTION, 0, 2), "Time Loop": (ACTION, 0, 1),
        "Winds of Change": (ACTION, 0, 1),
    }
    wizards = REGISTRY.faction("Wizards")
    assert {c.name: (c.kind, c.power, c.copies) for c in wizards.cards} == expected
    assert len(wizards.deck()) == 20
    assert all(c.text for c in wizards.cards)
    assert not any(c.attach or c.specials for c in wizards.cards)


# ====================================================================== Archmage =============


def archmage_game(**kw):
    s = scenario(**kw)
    s.minion(OASIS, "Archmage", owner=0)
    return s


def test_archmage_talent_gives_one_extra_action_once_per_turn():
    s = archmage_game(actions_played=1)  # the free action is used up
    s.hand(0, "Mystic Studies", "Summon", KEEP)
    game = s.build()
    assert action_plays(game) == []
    choose(game, "Use Archmage's talent")
    assert "P0 may play an extra action (Archmage)." in log(game)
    assert "Use Archmage's talent" not in labels(game)  # once per turn
    play(game, "Mystic Studies")
    assert hand_names(game)[-2:] == ["Zapbot", "Warbot"]
    assert played(game)[-1] == ("Mystic Studies", True)
    assert action_plays(game) == []  # one extra only


def test_archmage_extra_action_stays_when_the_archmage_is_destroyed():
    s = archmage_game(actions_played=0)
    s.hand(0, "Sacrifice", "Mystic Studies", KEEP)
    game = s.build()
    archmage = card(game, "Archmage")
    choose(game, "Use Archmage's talent")
    play(game, "Sacrifice")  # one of the two actions: the Archmage is the only minion to choose
    assert game.loc[archmage] == ("discard", 0)
    # AEG: the extra action gained from the talent is still there.
    assert "Play Mystic Studies" in action_plays(game)
    play(game, "Mystic Studies")
    assert [n for n, _ in played(game)] == ["Sacrifice", "Mystic Studies"]


def test_archmage_without_its_talent_gives_nothing():
    s = archmage_game(actions_played=1)
    s.hand(0, "Mystic Studies", KEEP)
    game = s.build()
    assert action_plays(game) == []
    assert "Use Archmage's talent" in labels(game)


# ====================================================================== Chronomage ===========


def test_chronomage_gives_one_extra_action():
    s = scenario(actions_played=1)
    s.hand(0, "Chronomage", "Mystic Studies", "Summon", KEEP)
    game = s.build()
    play(game, "Chronomage", base="Jungle Oasis")
    assert "P0 may play an extra action (Chronomage)." in log(game)
    play(game, "Summon")
    assert played(game)[-1] == ("Summon", True)
    assert action_plays(game) == []


def test_chronomage_extra_action_stays_when_it_is_destroyed():
    s = scenario(actions_played=0)
    s.hand(0, "Chronomage", "Sacrifice", "Mystic Studies", KEEP)
    game = s.build()
    play(game, "Chronomage", base="Jungle Oasis")
    chronomage = card(game, "Chronomage")
    play(game, "Sacrifice")
    assert game.loc[chronomage] == ("discard", 0)
    assert hand_names(game)[-3:] == ["Zapbot", "Warbot", "Hoverbot"]  # its power: 3 cards
    assert "Play Mystic Studies" in action_plays(game)  # AEG: the extra stays


# ====================================================================== Enchantress ==========


def test_enchantress_draws_one_card():
    s = scenario()
    s.hand(0, "Enchantress", KEEP_ACTION)
    game = s.build()
    play(game, "Enchantress", base="Factory 436-1337")
    assert hand_names(game) == [KEEP_ACTION, "Zapbot"]
    assert deck_names(game)[0] == "Warbot"


# ====================================================================== Neophyte =============


def neophyte_game(top, deck_rest=("Zapbot",)):
    s = scenario(deck=(top, *deck_rest))
    s.minion(FACTORY, "Invader", owner=1)
    s.hand(0, "Neophyte", KEEP_ACTION)
    game = s.build()
    play(game, "Neophyte", base="Jungle Oasis")
    return game


def test_neophyte_may_play_a_revealed_action_at_once_as_an_extra():
    game = neophyte_game("Mystic Studies")
    studies = card(game, "Mystic Studies")
    assert "P0 reveals the top card of their deck: Mystic Studies." in log(game)
    d = game.pending
    assert (d.seat, d.kind, d.min_count) == (0, "extra", 0)
    assert [o.card for o in d.options] == [studies]
    assert d.reveal == [studies]  # the chooser's view may name the deck card
    assert leaks(game, 0) == set() and leaks(game, 1) == set()
    choose(game, studies)
    assert game.loc[studies] == ("discard", 0)
    assert hand_names(game) == [KEEP_ACTION, "Zapbot"]  # it drew 2: the deck had one more
    assert played(game)[-1] == ("Mystic Studies", True)


def test_neophyte_may_put_the_revealed_action_into_the_hand_instead():
    game = neophyte_game("Mystic Studies")
    studies = card(game, "Mystic Studies")
    decline(game)
    assert game.pending.kind == "confirm"
    choose(game, "yes")
    assert game.loc[studies] == ("hand", 0)
    assert "Mystic Studies goes from P0's deck into their hand (Neophyte)." in log(game)


def test_neophyte_declining_both_leaves_the_action_on_top():
    game = neophyte_game("Mystic Studies")
    studies = card(game, "Mystic Studies")
    decline(game)
    choose(game, "no")
    assert game.players[0].deck[0] == studies
    assert game.pending.kind == "play"


def test_neophyte_leaves_a_revealed_minion_on_top_and_asks_nothing():
    game = neophyte_game("Warbot")
    assert deck_names(game)[:2] == ["Warbot", "Zapbot"]
    assert game.pending.kind == "play"
    assert "P0 reveals the top card of their deck: Warbot." in log(game)


def test_neophyte_cannot_play_an_action_usable_only_through_its_special():
    game = neophyte_game("Hidden Ninja")
    # Hidden Ninja is played only through its Special: only "into your hand" is offered.
    assert game.pending.kind == "confirm"
    choose(game, "yes")
    assert hand_names(game) == [KEEP_ACTION, "Hidden Ninja"]


def test_neophyte_refuses_a_card_that_was_not_revealed():
    game = neophyte_game("Mystic Studies")
    assert_refused(game, [f"a{card(game, KEEP_ACTION)}"])


# ====================================================================== Mass Enchantment =====


def mass_game(tops, players=PLAYERS, minions=()):
    s = scenario(players=players, actions_played=0)
    for seat, top in enumerate(tops, start=1):
        s.data["players"][seat]["deck"].insert(0, top)
    for base_index, name, owner in minions:
        s.minion(base_index, name, owner)
    s.hand(0, "Mass Enchantment", KEEP)
    return s.build()


def test_mass_enchantment_plays_another_players_revealed_action_under_your_control():
    game = mass_game(["Seeing Stars"], minions=[(FACTORY, "Invader", 1), (SHIP, "Zapbot", 0)])
    stars = card(game, "Seeing Stars")
    play(game, "Mass Enchantment")
    assert "P0 reveals the top card of P1's deck: Seeing Stars." in log(game)
    d = game.pending
    assert d.kind == "extra" and d.min_count == 0 and d.reveal == [stars]
    assert labels(game) == ["Seeing Stars (from P1's deck)"]
    choose(game, stars)
    # You resolve it: seat 0 picks the minion to destroy.
    assert game.pending.seat == 0
    choose(game, card(game, "Invader"))
    assert game.loc[card(game, "Invader")] == ("discard", 1)
    assert game.loc[stars] == ("discard", 1)  # to its owner's discard pile
    assert played(game) == [("Mass Enchantment", False), ("Seeing Stars", True)]
    assert game.turn_state.plays[-1].seat == 0


def test_mass_enchantment_declined_leaves_the_revealed_cards_on_their_decks():
    game = mass_game(["Seeing Stars"], minions=[(FACTORY, "Invader", 1)])
    stars = card(game, "Seeing Stars")
    play(game, "Mass Enchantment")
    decline(game)
    assert game.players[1].deck[0] == stars
    assert game.loc[card(game, "Mass Enchantment")] == ("discard", 0)


def test_mass_enchantment_reveals_every_other_deck_and_labels_copies_apart():
    players = [("Wizards", "Robots"), ("Ninjas", "Aliens"), ("Pirates", "Zombies")]
    game = mass_game(["Seeing Stars", "Seeing Stars"], players=players,
                     minions=[(FACTORY, "Invader", 1)])
    play(game, "Mass Enchantment")
    assert sorted(labels(game)) == ["Seeing Stars (from P1's deck)",
                                    "Seeing Stars (from P2's deck)"]
    stars_2 = game.players[2].deck[0]
    choose(game, stars_2)  # the Invader is its only target: destroyed without a question
    assert game.loc[card(game, "Invader")] == ("discard", 1)
    assert game.loc[stars_2] == ("discard", 2)
    assert game.name(game.players[1].deck[0]) == "Seeing Stars"


def test_mass_enchantment_with_no_action_revealed_asks_nothing():
    game = mass_game(["Invader"])
    play(game, "Mass Enchantment")
    assert game.pending.kind == "play"
    assert game.name(game.players[1].deck[0]) == "Invader"


def test_mass_enchantment_an_action_played_on_a_minion_stays_under_your_control():
    game = mass_game(["Poison"], minions=[(FACTORY, "Invader", 1)])
    poison = card(game, "Poison")
    play(game, "Mass Enchantment")
    choose(game, poison)  # the only host: attached without a question
    assert game.loc[poison] == ("attached", card(game, "Invader"))
    assert game.controller(poison) == 0 and game.owner[poison] == 1


# ====================================================================== Mystic Studies =======


def test_mystic_studies_draws_two_cards():
    s = scenario()
    s.hand(0, "Mystic Studies", KEEP)
    game = s.build()
    play(game, "Mystic Studies")
    assert hand_names(game) == [KEEP, "Zapbot", "Warbot"]
    assert game.loc[card(game, "Mystic Studies")] == ("discard", 0)


# ====================================================================== Portal ===============

PORTAL_DECK = ("Enchantress", "Mystic Studies", "Enchantress", "Chronomage", "Summon", "Archmage")


def portal_game():
    s = scenario(deck=PORTAL_DECK)
    s.hand(0, "Portal", KEEP)
    game = s.build()
    play(game, "Portal")
    return game


def test_portal_puts_chosen_revealed_minions_into_the_hand_one_kind_at_a_time():
    game = portal_game()
    top = game.players[0].deck[:5]
    assert ("P0 reveals the top 5 cards of their deck: Enchantress, Mystic Studies, Enchantress, "
            "Chronomage, Summon.") in log(game)
    d = game.pending
    assert d.reveal == top and d.min_count == 0
    # Two alike Enchantresses are one option.
    assert sorted(labels(game)) == ["Chronomage", "Enchantress"]
    choose(game, "Enchantress")
    assert sorted(labels(game)) == ["Chronomage", "Enchantress"]  # the second copy
    choose(game, "Enchantress")
    assert labels(game) == ["Chronomage"]
    decline(game)
    assert hand_names(game) == [KEEP, "Enchantress", "Enchantress"]
    # The rest go back in the order picked: Chronomage on top, then Summon, then Mystic Studies.
    assert game.pending.kind == "cards"
    assert sorted(labels(game)) == ["Chronomage", "Mystic Studies", "Summon"]
    choose(game, "Chronomage")
    choose(game, "Summon")
    assert deck_names(game) == ["Chronomage", "Summon", "Mystic Studies", "Archmage"]
    assert game.loc[card(game, "Portal")] == ("discard", 0)


def test_portal_may_take_no_minion():
    game = portal_game()
    decline(game)
    assert hand_names(game) == [KEEP]
    assert len(game.pending.options) == 4  # Enchantress once, Mystic Studies, Chronomage, Summon


def test_portal_refuses_a_revealed_action_as_a_minion():
    game = portal_game()
    assert_refused(game, [f"c{card(game, 'Mystic Studies')}"])
    assert_refused(game, [f"c{card(game, 'Archmage')}"])  # the sixth card was not revealed


# ====================================================================== Sacrifice ============


def sacrifice_game(*minions):
    s = scenario()
    for name, owner, counters in minions:
        s.minion(OASIS, name, owner=owner, counters=counters)
    s.hand(0, "Sacrifice", KEEP)
    game = s.build()
    play(game, "Sacrifice")
    return game


def test_sacrifice_draws_cards_equal_to_current_power_then_destroys_the_minion():
    game = sacrifice_game(("Chronomage", 0, 1), ("Enchantress", 0, 0), ("Invader", 1, 0))
    chronomage = card(game, "Chronomage")
    assert {o.card for o in game.pending.options} == {chronomage, card(game, "Enchantress")}
    assert_refused(game, [f"m{card(game, 'Invader')}"])  # only one of your minions
    choose(game, chronomage)
    assert hand_names(game) == [KEEP, "Zapbot", "Warbot", "Hoverbot", "Nukebot"]  # power 3 + 1
    assert game.loc[chronomage] == ("discard", 0)


def test_sacrifice_of_a_minion_that_cannot_be_destroyed_still_draws():
    game = sacrifice_game(("Warbot", 0, 0))  # the only choice: taken without a question
    warbot = card(game, "Warbot", "minion")
    assert game.loc[warbot][0] == "minion"
    assert len(game.players[0].hand) == 5  # KEEP and 4 cards


def test_sacrifice_without_a_minion_of_yours_does_nothing():
    game = sacrifice_game(("Invader", 1, 0))
    assert hand_names(game) == [KEEP]
    assert game.loc[card(game, "Invader")][0] == "minion"


# ====================================================================== Scry =================


def test_scry_takes_a_revealed_action_into_the_hand_and_shuffles_the_deck():
    s = scenario(deck=("Summon", "Zapbot", "Summon", "Time Loop", "Warbot"))
    s.hand(0, "Scry", KEEP)
    game = s.build()
    play(game, "Scry")
    d = game.pending
    assert d.min_count == 1
    assert sorted(labels(game)) == ["Summon", "Time Loop"]  # alike copies once
    assert sorted(d.reveal) == sorted(game.players[0].deck)  # the searcher sees the deck
    choose(game, "Time Loop")
    assert hand_names(game) == [KEEP, "Time Loop"]
    assert "P0 reveals Time Loop." in log(game)
    assert "P0 shuffles their deck." in log(game)
    assert sorted(deck_names(game)) == ["Summon", "Summon", "Warbot", "Zapbot"]


def test_scry_without_an_action_in_the_deck_finds_nothing():
    s = scenario(deck=("Zapbot", "Warbot"))
    s.hand(0, "Scry", KEEP)
    game = s.build()
    play(game, "Scry")
    assert game.pending.kind == "play"
    assert hand_names(game) == [KEEP]
    assert sorted(deck_names(game)) == ["Warbot", "Zapbot"]


# ====================================================================== Summon ===============


def test_summon_gives_one_extra_minion():
    s = scenario(minions_played=1)
    s.hand(0, "Summon", "Enchantress", "Neophyte")
    game = s.build()
    play(game, "Summon")
    assert "P0 may play an extra minion (Summon)." in log(game)
    play(game, "Enchantress", base="The Mothership")
    assert game.loc[card(game, "Enchantress")] == ("minion", base_uid(game, "The Mothership"))
    assert "P0 plays Enchantress on The Mothership." in log(game)
    # One extra only: nothing else was playable, so the turn passed to seat 1.
    assert (game.pending.seat, game.pending.kind) == (1, "play")


# ====================================================================== Time Loop ============


def test_time_loop_gives_two_extra_actions():
    s = scenario(deck=("Zapbot",) * 8)
    s.hand(0, "Time Loop", "Mystic Studies", "Mystic Studies", "Summon", KEEP)
    game = s.build()
    play(game, "Time Loop")  # the free action
    play(game, "Mystic Studies")
    play(game, "Mystic Studies")
    assert [e for _, e in played(game)] == [False, True, True]
    assert action_plays(game) == []  # Summon stays in hand


# ====================================================================== Winds of Change ======


def test_winds_of_change_shuffles_the_hand_in_draws_five_and_gives_an_extra_action():
    s = scenario(deck=("Zapbot", "Warbot"), actions_played=0)
    s.hand(0, "Winds of Change", "Summon", "Hoverbot", "Nukebot")
    game = s.build()
    winds = card(game, "Winds of Change")
    play(game, "Winds of Change")
    # 3 cards shuffled in with the 2 of the deck: the 5 drawn are exactly them.
    assert sorted(hand_names(game)) == ["Hoverbot", "Nukebot", "Summon", "Warbot", "Zapbot"]
    assert game.players[0].deck == []
    assert game.loc[winds] == ("discard", 0)
    assert "P0 may play an extra action (Winds of Change)." in log(game)
    play(game, "Summon")
    assert played(game)[-1] == ("Summon", True)


def test_winds_of_change_with_an_empty_hand_still_draws_five():
    s = scenario(deck=DECK, actions_played=0)
    s.hand(0, "Winds of Change")
    game = s.build()
    play(game, "Winds of Change")
    assert len(game.players[0].hand) == 5
    assert "P0 shuffles their deck." in log(game)


def test_mass_enchantment_does_not_offer_an_action_played_only_through_its_special():
    game = mass_game(["Hidden Ninja"])
    play(game, "Mass Enchantment")
    assert game.pending.kind == "play"
    assert game.name(game.players[1].deck[0]) == "Hidden Ninja"


def test_mass_enchantment_reveals_from_a_refilled_deck_when_a_deck_is_empty():
    s = scenario(actions_played=0)
    s.data["players"][1]["deck"] = []
    s.discard(1, "Seeing Stars")
    s.minion(FACTORY, "Invader", owner=1)
    s.hand(0, "Mass Enchantment", KEEP)
    game = s.build()
    play(game, "Mass Enchantment")
    stars = card(game, "Seeing Stars")
    assert game.pending.reveal == [stars]
    choose(game, stars)  # the Invader is the only target
    assert game.loc[card(game, "Invader")] == ("discard", 1)
