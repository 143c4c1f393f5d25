"""Every card of the Mythic Greeks (It's Your Fault!), played through the engine.

Each test builds a position with `Scenario`, plays the card and checks the exact effect: counters,
power, breakpoints, cards drawn and where cards go, what is offered and what is refused. Rulings:
the catalog (smashup/cards/catalog/iyf.yaml, Mythic Greeks: notes and doubts) and the IYF
rulebook's clarifications (Heracles and Odysseus react to every action, "any player" includes you;
Jason's bonus follows the minions on the chosen base; Argonaut played as an action does not use the
minion play and sets off Spartan, Jason and the like either way).

Bases: Jungle Oasis (breakpoint 12), The Mothership (20) and Factory 436-1337 (25); none acts
before it scores. Seat 0 keeps King Rex (a minion) and seat 1 a card it can play, so that nobody's
Play Cards phase ends by itself.
"""
from __future__ import annotations

import smashup.cards  # noqa: F401  (declares the registered cards)
import smashup.cards.mythic_greeks  # noqa: F401  (declares the Mythic Greeks)
from smashup.engine import ACTION, MINION, REGISTRY, Ctx, Scenario
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

PLAYERS = [("Mythic Greeks", "Dinosaurs"), ("Ninjas", "Aliens")]
FILLER = "Ninja Acolyte"
OASIS, SHIP, FACTORY = 0, 1, 2


def scenario(deck=None, hand=("King Rex",)):
    s = Scenario(PLAYERS)
    for name in ("Jungle Oasis", "The Mothership", "Factory 436-1337"):
        s.base(name)
    s.hand(0, *hand)
    s.hand(1, FILLER, "Probe")
    s.deck(0, *(deck if deck is not None else ["King Rex"] * 4))
    s.deck(1, *[FILLER] * 4)
    s.base_deck("Rhodes Plaza Mall")
    return s


def zone(game, cid) -> str:
    where = game.loc[cid]
    return game.name(game.slot(where[1]).card) if where[0] == "minion" else where[0]


def counters(game, name, index=0) -> int:
    return game.minion_state[card(game, name, "minion", index)].counters


def power(game, name, index=0) -> int:
    return game.power(card(game, name, "minion", index))


def answer_everything(game) -> None:
    """Answer whatever an opponent's card asks (declining, or the first option) until the next
    Play Cards decision."""
    while game.pending.kind != "play":
        if game.pending.min_count == 0:
            decline(game)
        else:
            choose(game, game.pending.options[0].id)


# ====================================================================== the deck =============


def test_the_mythic_greek_deck_matches_the_catalog():
    favors = ("Aphrodite", "Apollo", "Ares", "Athena", "Dionysus", "Hades", "Hera", "Hermes",
              "Poseidon", "Zeus")
    expected = {"Odysseus": (MINION, 5, 1), "Heracles": (MINION, 4, 1), "Jason": (MINION, 4, 1),
                "Spartan": (MINION, 3, 3), "Argonaut": (MINION, 2, 4)}
    expected.update({f"Favor of {god}": (ACTION, 0, 1) for god in favors})
    faction = REGISTRY.faction("Mythic Greeks")
    assert {c.name: (c.kind, c.power, c.copies) for c in faction.cards} == expected
    deck = faction.deck()
    assert len(deck) == 20 and sum(c.is_minion for c in deck) == 10
    assert all(c.text and c.set == "iyf" for c in faction.cards)
    assert REGISTRY.card("Argonaut").playable_as == (ACTION,)
    assert REGISTRY.card("Favor of Zeus").no_effect_in_big_base == "breakpoint"


# ====================================================================== Odysseus =============


def test_odysseus_puts_a_counter_on_one_of_your_minions_after_each_action_you_play():
    s = scenario()
    s.minion(OASIS, "Odysseus", owner=0)
    s.minion(SHIP, "Argonaut", owner=0)
    s.minion(SHIP, "Shinobi", owner=1)
    s.hand(0, "Favor of Hermes", "Favor of Aphrodite")
    game = s.build()
    play(game, "Favor of Hermes")
    d = game.pending
    assert d.kind == "target" and d.min_count == 1 and d.intent == "help"  # mandatory
    assert sorted(labels(game)) == ["Argonaut (2, P0) on The Mothership",
                                    "Odysseus (5, P0) on Jungle Oasis"]
    assert_refused(game, [f"m{card(game, 'Shinobi')}"])
    choose(game, "Argonaut")
    assert counters(game, "Argonaut") == 1
    # Every action, not only the first one of the turn (IYF clarification).
    play(game, "Favor of Aphrodite")
    choose(game, "Odysseus")
    assert counters(game, "Odysseus") == 1


def test_odysseus_ignores_another_players_action():
    s = scenario()
    s.minion(OASIS, "Odysseus", owner=0)
    s.minion(OASIS, "Collector", owner=1)
    s.turn(current=1)
    game = s.build()
    play(game, "Probe")
    answer_everything(game)
    assert game.pending.seat == 1 and counters(game, "Odysseus") == 0


# ====================================================================== Heracles =============


def test_heracles_grows_after_every_action_of_any_player_until_the_end_of_the_turn():
    s = scenario()
    s.minion(OASIS, "Heracles", owner=0)
    s.hand(0, "Favor of Hermes", "Favor of Aphrodite")
    game = s.build()
    play(game, "Favor of Hermes")
    assert power(game, "Heracles") == 5
    play(game, "Favor of Aphrodite")
    assert power(game, "Heracles") == 6
    end_play(game)
    assert power(game, "Heracles") == 4
    # Another player's action counts too.
    play(game, "Probe")
    answer_everything(game)
    assert game.pending.seat == 1 and power(game, "Heracles") == 5


# ====================================================================== Jason ================


def jason_table():
    s = scenario(hand=("King Rex", "Favor of Hermes", "Favor of Aphrodite", "Spartan"))
    s.minion(OASIS, "Jason", owner=0)
    s.minion(SHIP, "Argonaut", owner=0)
    s.minion(SHIP, "Shinobi", owner=1)
    s.minion(FACTORY, "Argonaut", owner=0)
    return s.build()


def test_jason_gives_your_minions_on_a_base_1_power_for_the_turn_even_those_arriving_later():
    game = jason_table()
    play(game, "Favor of Hermes")
    d = game.pending
    assert d.kind == "base" and d.min_count == 0 and d.intent == "help"
    choose(game, "The Mothership")
    on_ship = [m for m in game.slot(base_uid(game, "The Mothership")).minions]
    assert {game.name(m): game.power(m) for m in on_ship} == {"Argonaut": 3, "Shinobi": 3}
    assert power(game, "Jason") == 4  # not on that base
    play(game, "Spartan", base="The Mothership")
    assert power(game, "Spartan") == 4  # arrived later: gets it too
    # Once per turn: another action asks only the Spartan (just arrived) about its counter.
    play(game, "Favor of Aphrodite")
    assert game.pending.kind == "confirm"
    choose(game, "No")
    assert game.pending.kind == "play"
    end_play(game)
    assert power(game, "Spartan") == 3


def test_jason_may_be_declined_and_then_waits_for_the_next_action():
    game = jason_table()
    play(game, "Favor of Hermes")
    decline(game)
    assert power(game, "Argonaut") == 2
    play(game, "Favor of Aphrodite")
    assert game.pending.kind == "base"
    choose(game, "Factory")
    powers = {zone(game, m): game.power(m) for m in find_cards(game, "Argonaut", "minion")}
    assert powers == {"The Mothership": 2, "Factory 436-1337": 3}


def test_a_minion_that_leaves_jasons_base_loses_the_bonus():
    s = scenario(hand=("King Rex", "Favor of Hermes"))
    s.minion(OASIS, "Jason", owner=0)
    s.minion(SHIP, "Argonaut", owner=0)
    game = s.build()
    play(game, "Favor of Hermes")
    choose(game, "The Mothership")
    argonaut = card(game, "Argonaut", "minion")
    assert game.power(argonaut) == 3
    # Moved away (as Great White's talent would move it, here by the test): the bonus stays.
    list(Ctx(game, argonaut, 0).move(argonaut, base_uid(game, "Factory 436-1337")))
    assert game.power(argonaut) == 2


# ====================================================================== Spartan ==============


def spartan_table():
    s = scenario(hand=("King Rex", "Favor of Hermes", "Favor of Aphrodite"))
    s.minion(OASIS, "Spartan", owner=0)
    return s.build()


def test_spartan_may_take_a_counter_once_per_turn():
    game = spartan_table()
    play(game, "Favor of Hermes")
    assert game.pending.kind == "confirm"
    choose(game, "Yes")
    assert counters(game, "Spartan") == 1
    play(game, "Favor of Aphrodite")
    assert game.pending.kind == "play"  # once per turn
    assert counters(game, "Spartan") == 1


def test_spartan_declined_waits_for_the_next_action():
    game = spartan_table()
    play(game, "Favor of Hermes")
    choose(game, "No")
    assert counters(game, "Spartan") == 0
    play(game, "Favor of Aphrodite")
    choose(game, "Yes")
    assert counters(game, "Spartan") == 1


# ====================================================================== Argonaut =============


def test_argonaut_may_use_the_action_play_and_leaves_the_minion_play():
    s = scenario(hand=("King Rex", "Argonaut"))
    s.minion(OASIS, "Spartan", owner=0)
    game = s.build()
    argonaut = card(game, "Argonaut", "hand")
    as_action = [o for o in game.pending.options if o.card == argonaut and "as an action" in o.label]
    assert len(as_action) == 3  # one per base
    events = record_events(game)
    game.apply(0, game.pending.id, [next(o.id for o in as_action
                                         if o.base == base_uid(game, "The Mothership"))])
    # It counts as you playing an action: Spartan may take its counter.
    assert game.pending.kind == "confirm"
    choose(game, "Yes")
    assert counters(game, "Spartan") == 1
    assert zone(game, argonaut) == "The Mothership"
    assert [e.kind for e in events if e.card == argonaut][:2] == ["action_played", "minion_played"]
    record = game.turn_state.plays[-1]
    assert record.card == argonaut and record.kind == ACTION
    # Still a minion, but the minion play is left: King Rex may be played; no other action.
    assert any(o.card == card(game, "King Rex", "hand") for o in game.pending.options)
    play(game, "King Rex", base="Jungle Oasis")
    assert game.pending is None or game.pending.seat == 1


def test_argonaut_played_as_a_minion_also_counts_as_an_action():
    s = scenario(hand=("King Rex", "Argonaut", "Favor of Ares"))
    s.minion(OASIS, "Heracles", owner=0)
    game = s.build()
    play(game, "Argonaut", base="Jungle Oasis")
    assert power(game, "Heracles") == 5
    record = game.turn_state.plays[-1]
    assert record.kind == MINION
    # The action play is still there.
    assert any(o.card == card(game, "Favor of Ares") for o in game.pending.options)


# ====================================================================== the Favors ===========


def test_favor_of_aphrodite_gives_an_extra_minion():
    s = scenario(hand=("King Rex", "Spartan", "Favor of Aphrodite"))
    game = s.build()
    play(game, "Favor of Aphrodite")
    play(game, "King Rex", base="Factory 436-1337")
    play(game, "Spartan", base="Factory 436-1337")
    assert zone(game, card(game, "Spartan")) == "Factory 436-1337"


def test_favor_of_apollo_draws_and_gives_an_extra_action():
    s = scenario(hand=("King Rex", "Favor of Apollo", "Favor of Ares"),
                 deck=["Favor of Hera", "King Rex"])
    s.minion(OASIS, "Argonaut", owner=0)
    game = s.build()
    play(game, "Favor of Apollo")
    assert "Favor of Hera" in hand_names(game)
    play(game, "Favor of Hera")  # the extra action, with the card just drawn
    decline(game)  # (Hera puts no counter)
    assert game.turn_state.plays[-1].extra
    assert not any(o.card == card(game, "Favor of Ares") for o in game.pending.options)


def test_favor_of_ares_gives_one_of_your_minions_3_power_until_the_end_of_the_turn():
    s = scenario(hand=("King Rex", "Favor of Ares"))
    s.minion(OASIS, "Argonaut", owner=0)
    s.minion(SHIP, "King Rex", owner=0)
    s.minion(SHIP, "Shinobi", owner=1)
    game = s.build()
    play(game, "Favor of Ares")
    assert game.pending.min_count == 1 and game.pending.intent == "help"
    assert_refused(game, [f"m{card(game, 'Shinobi')}"])
    choose(game, "Argonaut")
    assert power(game, "Argonaut") == 5
    end_play(game)
    assert power(game, "Argonaut") == 2


def athena_table(deck):
    return scenario(hand=("King Rex", "Favor of Athena"), deck=deck).build()


def test_favor_of_athena_takes_a_revealed_action_and_puts_the_rest_back_in_any_order():
    game = athena_table(["Spartan", "Favor of Hera", "Argonaut", "Favor of Zeus", "Jason", "Odysseus"])
    play(game, "Favor of Athena")
    assert sorted(labels(game)) == ["Favor of Hera", "Favor of Zeus"]
    assert game.pending.min_count == 0
    choose(game, "Favor of Zeus")
    assert "Favor of Zeus" in hand_names(game)
    # The other four, back on top in the chosen order (the first picked on top).
    choose(game, "Jason")
    choose(game, "Spartan")
    choose(game, "Favor of Hera")
    deck = [game.name(c) for c in game.players[0].deck]
    assert deck == ["Jason", "Spartan", "Favor of Hera", "Argonaut", "Odysseus"]


def test_favor_of_athena_may_take_nothing():
    game = athena_table(["Favor of Hera", "Spartan"])
    play(game, "Favor of Athena")
    decline(game)
    choose(game, "Spartan")
    assert [game.name(c) for c in game.players[0].deck] == ["Spartan", "Favor of Hera"]
    assert "Favor of Hera" not in hand_names(game)


def dionysus_table():
    s = scenario(hand=("King Rex", "Favor of Dionysus", "Favor of Ares"), deck=["King Rex"] * 3)
    s.minion(OASIS, "Argonaut", owner=0)
    return s.build()


def test_favor_of_dionysus_boosts_grants_an_action_and_may_go_on_top_of_the_deck():
    game = dionysus_table()
    dionysus = card(game, "Favor of Dionysus")
    play(game, "Favor of Dionysus")
    assert power(game, "Argonaut") == 3  # the only minion: chosen without asking
    assert game.pending.kind == "confirm"
    choose(game, "Yes")
    assert game.players[0].deck[0] == dionysus
    play(game, "Favor of Ares")  # the free action is used: this one is the extra
    assert game.turn_state.plays[-1].extra


def test_favor_of_dionysus_goes_to_the_discard_pile_if_you_decline():
    game = dionysus_table()
    dionysus = card(game, "Favor of Dionysus")
    play(game, "Favor of Dionysus")
    choose(game, "No")
    assert game.loc[dionysus] == ("discard", 0)


def test_favor_of_hades_must_take_an_action_from_your_discard_pile():
    s = scenario(hand=("King Rex", "Favor of Hades"))
    s.discard(0, "Favor of Zeus", "Favor of Hera", "Spartan")
    game = s.build()
    play(game, "Favor of Hades")
    assert game.pending.min_count == 1
    assert sorted(labels(game)) == ["Favor of Hera", "Favor of Zeus"]
    assert_refused(game, [f"c{card(game, 'Spartan')}"])
    choose(game, "Favor of Hera")
    assert "Favor of Hera" in hand_names(game)


def test_favor_of_hades_with_no_action_in_the_pile_does_nothing():
    s = scenario(hand=("King Rex", "Favor of Hades"))
    s.discard(0, "Spartan")
    game = s.build()
    play(game, "Favor of Hades")
    assert game.pending.kind == "play" and hand_names(game) == ["King Rex"]


def hera_table():
    s = scenario(hand=("King Rex", "Favor of Hera"))
    s.minion(OASIS, "Spartan", owner=0)
    s.minion(OASIS, "Argonaut", owner=0)
    s.minion(SHIP, "Jason", owner=0)
    s.minion(SHIP, "Shinobi", owner=1)
    return s.build()


def test_favor_of_hera_puts_counters_on_up_to_two_of_your_minions():
    game = hera_table()
    play(game, "Favor of Hera")
    assert_refused(game, [f"m{card(game, 'Shinobi')}"])
    choose(game, "Spartan")
    assert "Spartan (4, P0) on Jungle Oasis" not in labels(game)  # two different minions
    choose(game, "Jason")
    assert counters(game, "Spartan") == 1 and counters(game, "Jason") == 1
    assert counters(game, "Argonaut") == 0


def test_favor_of_hera_may_stop_early():
    game = hera_table()
    play(game, "Favor of Hera")
    choose(game, "Argonaut")
    decline(game)
    assert counters(game, "Argonaut") == 1 and counters(game, "Spartan") == 0


def test_favor_of_hermes_gives_two_extra_actions():
    s = scenario(hand=("King Rex", "Favor of Hermes", "Favor of Ares", "Favor of Hera",
                       "Favor of Zeus"))
    s.minion(OASIS, "Argonaut", owner=0)
    game = s.build()
    play(game, "Favor of Hermes")
    play(game, "Favor of Ares")
    play(game, "Favor of Hera")
    decline(game)  # no counter
    # Three actions now played: the free one and two extras; a fourth is not offered.
    assert not any(o.card == card(game, "Favor of Zeus") for o in game.pending.options)


def test_favor_of_poseidon_shuffles_up_to_three_cards_from_your_discard_pile_into_your_deck():
    s = scenario(hand=("King Rex", "Favor of Poseidon"), deck=["King Rex"])
    s.discard(0, "Spartan", "Spartan", "Favor of Hera", "Jason")
    game = s.build()
    play(game, "Favor of Poseidon")
    # Two Spartans in the pile: one option.
    assert sorted(labels(game)) == ["Favor of Hera", "Jason", "Spartan"]
    choose(game, "Spartan")
    choose(game, "Spartan")
    choose(game, "Jason")
    # Three chosen: it stops by itself.
    assert game.pending.kind == "play"
    assert sorted(game.name(c) for c in game.players[0].deck) == ["Jason", "King Rex", "Spartan",
                                                                  "Spartan"]
    assert [game.name(c) for c in game.players[0].discard] == ["Favor of Hera",
                                                               "Favor of Poseidon"]


def test_favor_of_poseidon_may_shuffle_nothing():
    s = scenario(hand=("King Rex", "Favor of Poseidon"))
    s.discard(0, "Jason")
    game = s.build()
    play(game, "Favor of Poseidon")
    decline(game)
    assert find_cards(game, "Jason", "discard")


def test_favor_of_zeus_lowers_a_breakpoint_by_5_until_the_end_of_the_turn():
    s = scenario(hand=("King Rex", "Favor of Zeus"))
    s.minion(SHIP, "King Rex", owner=0)
    s.minion(SHIP, "King Rex", owner=0)
    s.minion(SHIP, "Shinobi", owner=1)  # 7 + 7 + 3 = 17: below 20
    game = s.build()
    play(game, "Favor of Zeus")
    assert game.pending.intent == "help"
    choose(game, "The Mothership")
    ship = game.slot(base_uid(game, "The Mothership"))
    assert game.breakpoint(ship) == 15  # 17 on a base that now breaks at 15
    end_play(game)
    assert game.players[0].vp == 4  # it scored


def test_jasons_bonus_is_his_ongoing_ability_and_ends_if_he_leaves_play():
    # Our reading: the bonus is Jason's ongoing ability ("his benefit", IYF clarification), so it
    # stops with him.
    s = scenario(hand=("King Rex", "Favor of Hermes"))
    s.minion(OASIS, "Jason", owner=0)
    s.minion(SHIP, "Argonaut", owner=0)
    game = s.build()
    play(game, "Favor of Hermes")
    choose(game, "The Mothership")
    argonaut, jason = card(game, "Argonaut", "minion"), card(game, "Jason", "minion")
    assert game.power(argonaut) == 3
    list(Ctx(game, jason, 1).destroy(jason))
    assert game.power(argonaut) == 2


def test_argonaut_may_use_an_extra_action_play():
    s = scenario(hand=("King Rex", "Favor of Apollo", "Argonaut"), deck=["King Rex"] * 3)
    game = s.build()
    play(game, "Favor of Apollo")  # the turn's action, and an extra one
    argonaut = card(game, "Argonaut", "hand")
    as_action = [o for o in game.pending.options if o.card == argonaut and "as an action" in o.label]
    game.apply(0, game.pending.id, [as_action[0].id])
    record = game.turn_state.plays[-1]
    assert (record.card, record.kind, record.extra) == (argonaut, ACTION, True)
    # The minion play is left for King Rex.
    assert any(o.card == card(game, "King Rex", "hand") for o in game.pending.options)


def test_spartan_takes_its_counter_after_an_action_you_play_on_another_players_turn():
    # An action played as a Special on seat 1's turn (Hidden Ninja, before Jungle Oasis scores).
    s = scenario(hand=("King Rex", "Hidden Ninja"))
    s.minion(OASIS, "Spartan", owner=0)
    s.minion(OASIS, "Ninja Master", owner=1)
    s.minion(OASIS, "Tiger Assassin", owner=1)
    s.turn(current=1)
    game = s.build()
    spartan = card(game, "Spartan", "minion")
    events = record_events(game)
    end_play(game)  # 3 + 5 + 4 = 12: Jungle Oasis scores
    assert game.pending.kind == "special" and game.pending.seat == 0
    choose(game, "Hidden Ninja")
    decline(game)  # no extra minion
    assert game.pending.kind == "confirm" and game.pending.seat == 0
    choose(game, "Yes")
    assert [(e.card, e.data) for e in events if e.kind == "counters_changed"] == [
        (spartan, {"amount": 1})]
    assert game.loc[spartan] == ("discard", 0)  # then it scored with its base
