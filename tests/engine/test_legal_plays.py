"""The play-legality generator (`Game.legal_plays`, smashup/engine/plays.py): every legal play
from the grants, with its source zone, its kind and its base, filtered by the one restriction
check (`Game.forbids`); grants matched to plays so that none is lost to the order of grants.
Test-only cards stand in for the real ones that need each mechanism (They Keep Coming, Tenacious
Z, They're Coming To Get You, Outbreak, a card offering an extra minion each turn, Block the
Path, Overrun, Mark of Sleep, Argonaut)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import smashup.cards  # noqa: F401  (the records below use the real cards)
from smashup.engine import ACTION, MINION, ConfigError, Faction, Scenario, new_game, replay
from smashup.engine.core import Play
from smashup.engine.registry import Registry
from smashup.engine.testing import (
    assert_refused,
    base_uid,
    card,
    choose,
    decline,
    end_play,
    labels,
    play,
)

from .support import ALIENS_NINJAS, PIRATES_ROBOTS, build_test_registry

R = build_test_registry()
_t = Faction("Play Testers", set="testset", registry=R)


@_t.action("Two Ways In", text="An extra minion on the first base; an extra minion of power 2 "
           "or less.")
def _two_ways_in(ctx):
    yield from ctx.grant_extra(MINION, base=ctx.bases()[0])
    yield from ctx.grant_extra(MINION, max_power=2)


@_t.action("Small Then Anywhere", text="An extra minion of power 2 or less; an extra minion on "
           "the first base.")
def _small_then_anywhere(ctx):
    yield from ctx.grant_extra(MINION, max_power=2)
    yield from ctx.grant_extra(MINION, base=ctx.bases()[0])


@_t.action("Back Door", text="An extra minion from your discard pile (They Keep Coming).")
def _back_door(ctx):
    yield from ctx.grant_extra(MINION, zones=("discard",))


@_t.action("Fresh Ground", text="An extra minion on a base where you have none (Outbreak).")
def _fresh_ground(ctx):
    yield from ctx.grant_extra(MINION, condition="no_minion_of_yours")


@_t.action("Back Door Now", text="Play an extra minion from your discard pile now.")
def _back_door_now(ctx):
    yield from ctx.play_extra_now(MINION, zones=("discard",))


_stubborn = _t.minion("Stubborn Zed", power=2, copies=3, text=(
    "Special: in your Play Cards phase, play this from your discard pile as an extra minion; one "
    "Stubborn Zed per turn (Tenacious Z)."))
_stubborn.grants_each_turn(MINION, zone="discard", this_card=True, once="name")

_fog = _t.action("Fog Bank", attach="base", text="Ongoing: on each of your turns, one extra "
                 "minion here.")
_fog.grants_each_turn(MINION, here=True)

_grave = _t.action("Open Grave", attach="base", text=(
    "Ongoing: once on each of your turns, a minion play you could use from hand here may take a "
    "minion from your discard pile (They're Coming To Get You)."))
_grave.play_source("discard", once_per_turn=True,
                   applies=lambda ctx, p, grant: p.base == ctx.here and grant.card is None)

_road = _t.action("Roadblock", attach="base", text="Ongoing: no Aliens minion can be played "
                  "here (Block the Path, Aliens named).")


@_road.restriction
def _roadblock(ctx, p):
    return (p.base == ctx.here and ctx.is_minion(p.card)
            and ctx.faction_of(p.card) == ctx.recall("faction", "Aliens"))


_keep_out = _t.action("Keep Out", attach="base", text="Ongoing: other players cannot play "
                      "minions here (Overrun).")


@_keep_out.restriction
def _keep_out_rule(ctx, p):
    return p.base == ctx.here and p.seat != ctx.me and ctx.is_minion(p.card)


@_t.action("Lullaby", text="Choose a player: they cannot play actions during their next turn "
           "(Mark of Sleep).")
def _lullaby(ctx):
    seat = yield from ctx.choose_player(ctx.players(), "Who falls asleep?")
    ctx.restrict(seat, ACTION, next_turn=True)


_oarsman = _t.minion("Oarsman", power=2, text="May be played with an action play (Argonaut).")
_oarsman.card.playable_as = (ACTION,)


def scenario(*hand, discard=(), played_minion=False, bases=("Test Arena", "Filler Field")):
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    for b in bases:
        s.base(b)
    s.hand(0, *hand)
    # A talent that stays usable, so the phase does not end by itself when nothing else is.
    s.minion(0, "Bookworm", owner=0)
    s.discard(0, *discard)
    s.deck(0, *["Scout"] * 5)
    s.deck(1, *["Scout"] * 5)
    s.hand(1, "Scout")
    s.turn(0, minions_played=1 if played_minion else 0)
    return s


def plays_of(game, name, seat=None):
    """{(base name or None, zone, kind)} of the legal plays of `name` for `seat` (the current)."""
    seat = game.current if seat is None else seat
    return {(game.base_name(p.base) if p.base is not None else None, p.zone, p.kind)
            for p in game.legal_plays(seat) if game.name(p.card) == name}


# ------------------------------------------------------------------ grant matching ------------
@pytest.mark.parametrize("granter", ["Two Ways In", "Small Then Anywhere"])
def test_collector_on_x_never_takes_the_grant_invader_on_x_needs(granter):
    # Issue 9: "an extra minion on base X" and "an extra minion of power 2 or less" (in either
    # order); Collector (2) on X must leave Invader (3) on X legal, as the rules allow playing
    # the extras in any order.
    game = scenario(granter, "Collector", "Invader", played_minion=True).build(R)
    play(game, granter)
    play(game, "Collector", base="Test Arena")
    decline(game)  # Collector's own "may"
    assert plays_of(game, "Invader") == {("Test Arena", "hand", MINION)}
    invader = card(game, "Invader")
    assert_refused(game, [f"m{invader}@{base_uid(game, 'Filler Field')}"])
    play(game, "Invader", base="Test Arena")
    assert game.loc[invader] == ("minion", base_uid(game, "Test Arena"))
    # Both extras are used now, whichever each play ended up with.
    assert [g for g in game.turn_state.grants if g.kind == MINION] == []
    assert [(game.name(p.card), p.extra) for p in game.turn_state.plays if p.card is not None
            and p.kind == MINION] == [("Collector", True), ("Invader", True)]


def test_a_moved_play_keeps_the_record_of_which_play_was_the_extra_one():
    game = scenario("Two Ways In", "Collector", "Invader", "Scout").build(R)
    play(game, "Two Ways In")
    play(game, "Collector", base="Test Arena")  # an extra (the most restrictive fitting)
    decline(game)
    play(game, "Invader", base="Filler Field")  # only the free minion play fits
    records = [(game.name(p.card), p.extra) for p in game.turn_state.plays if p.kind == MINION]
    assert records == [("Collector", True), ("Invader", False)]
    # Scout (3) may still go on Test Arena: Collector moves to the power-2 extra.
    assert plays_of(game, "Scout") == {("Test Arena", "hand", MINION)}


def test_a_grant_given_after_a_play_is_not_traded_back_to_it():
    # Collector used the free minion play; a power-2 extra given later cannot take Collector's
    # place so that Invader (3) gets the free play.
    game = scenario("Collector", "Invader", "Two Ways In",
                    bases=("Filler Field", "Test Arena")).build(R)
    play(game, "Collector", base="Test Arena")
    decline(game)
    play(game, "Two Ways In")
    assert plays_of(game, "Invader") == {("Filler Field", "hand", MINION)}


# ------------------------------------------------------------------ source zones ---------------
def test_a_grant_from_the_discard_pile_offers_alike_copies_once():
    game = scenario("Back Door", discard=("Invader", "Invader", "Collector"),
                    played_minion=True).build(R)
    assert plays_of(game, "Invader") == set()
    play(game, "Back Door")
    assert plays_of(game, "Invader") == {("Test Arena", "discard", MINION),
                                         ("Filler Field", "discard", MINION)}
    assert [lb for lb in labels(game) if "Invader" in lb] == [
        "Play Invader from your discard pile on Test Arena",
        "Play Invader from your discard pile on Filler Field"]
    choose(game, "Play Invader from your discard pile on Filler Field")
    record = game.turn_state.plays[-1]
    assert (record.zone, record.extra, record.via) == ("discard", True, None)
    assert plays_of(game, "Invader") == set() and plays_of(game, "Collector") == set()


def test_play_extra_now_from_the_discard_pile_offers_alike_copies_once_and_may_be_declined():
    game = scenario("Back Door Now", discard=("Invader", "Invader")).build(R)
    play(game, "Back Door Now")
    assert game.pending.kind == "extra"
    assert labels(game) == ["Invader (from your discard pile) on Test Arena",
                            "Invader (from your discard pile) on Filler Field"]
    # The other copy's plays are not shown, yet accepted (Option.alike): records replay.
    first, second = [c for c in game.players[0].discard if game.name(c) == "Invader"]
    assert {o.alike for o in game.pending.options if o.card == second} == {
        f"m{first}@{base_uid(game, 'Test Arena')}", f"m{first}@{base_uid(game, 'Filler Field')}"}
    decline(game)
    assert [game.name(c) for c in game.players[0].discard].count("Invader") == 2


def test_a_card_playable_from_the_discard_pile_once_per_turn_across_copies():
    game = scenario("Invader", discard=("Stubborn Zed", "Stubborn Zed")).build(R)
    assert plays_of(game, "Stubborn Zed") == {("Test Arena", "discard", MINION),
                                              ("Filler Field", "discard", MINION)}
    choose(game, "Play Stubborn Zed from your discard pile on Filler Field")
    record = game.turn_state.plays[-1]
    assert (record.extra, record.special, record.zone) == (True, True, "discard")
    # Its own extra play: the free minion play is still there, and no second Zed this turn.
    assert plays_of(game, "Stubborn Zed") == set()
    assert ("Filler Field", "hand", MINION) in plays_of(game, "Invader")


def test_a_discard_grant_taken_by_a_zed_moves_to_its_own_play_when_another_minion_needs_it():
    # Back Door (any minion from the discard pile) used for a Stubborn Zed, which could come back
    # by its own ability: the Collector in the pile is still playable, and the Zed's record then
    # says its own ability brought it back.
    game = scenario("Back Door", discard=("Stubborn Zed", "Collector"),
                    played_minion=True).build(R)
    play(game, "Back Door")
    zed = card(game, "Stubborn Zed")
    choose(game, "Play Stubborn Zed from your discard pile on Test Arena")
    assert game.turn_state.plays[-1].via is None  # the banked grant, as before
    assert plays_of(game, "Collector") == {("Test Arena", "discard", MINION),
                                           ("Filler Field", "discard", MINION)}
    choose(game, "Play Collector from your discard pile on Filler Field")
    zed_record = next(p for p in game.turn_state.plays if p.card == zed)
    assert (zed_record.via, zed_record.special) == (zed, True)
    assert plays_of(game, "Stubborn Zed") == set()


def test_a_play_source_lets_a_play_take_a_discard_minion_onto_its_base_once_per_turn():
    s = scenario("Two Ways In", "Invader", discard=("Collector", "Scout"))
    s.base_action(0, "Open Grave", owner=0)
    game = s.build(R)
    assert plays_of(game, "Collector") == {("Test Arena", "discard", MINION)}
    choose(game, "Play Collector from your discard pile on Test Arena")
    decline(game)
    record = game.turn_state.plays[-1]
    assert (record.extra, record.via, record.zone) == (False, card(game, "Open Grave"), "discard")
    play(game, "Two Ways In")
    assert plays_of(game, "Scout") == set()  # once per turn
    assert plays_of(game, "Invader") == {("Test Arena", "hand", MINION)}


def test_a_conditional_grant_needs_a_base_without_your_minion():
    game = scenario("Fresh Ground", "Invader", played_minion=True).build(R)  # Bookworm: Arena
    play(game, "Fresh Ground")
    assert plays_of(game, "Invader") == {("Filler Field", "hand", MINION)}


def test_a_card_in_play_offers_an_extra_minion_on_its_base_each_turn():
    s = scenario("Invader", "Collector", played_minion=True)
    s.base_action(1, "Fog Bank", owner=0)
    game = s.build(R)
    assert plays_of(game, "Invader") == {("Filler Field", "hand", MINION)}
    play(game, "Invader", base="Filler Field")
    assert game.turn_state.plays[-1].via == card(game, "Fog Bank")
    assert plays_of(game, "Collector") == set()


def test_a_minion_played_with_an_action_play():
    game = scenario("Oarsman", played_minion=True).build(R)
    assert plays_of(game, "Oarsman") == {("Test Arena", "hand", ACTION),
                                         ("Filler Field", "hand", ACTION)}
    choose(game, "Play Oarsman on Filler Field as an action")
    oarsman = card(game, "Oarsman")
    assert game.loc[oarsman] == ("minion", base_uid(game, "Filler Field"))
    assert game.turn_state.plays[-1].kind == ACTION
    assert game.turn_state.actions_played == 1 and game.turn_state.minions_played == 1


def test_a_minion_played_as_an_action_is_still_a_minion_to_restrictions():
    s = scenario("Oarsman", played_minion=True)
    s.base_action(0, "Keep Out", owner=1)
    game = s.build(R)
    assert plays_of(game, "Oarsman") == {("Filler Field", "hand", ACTION)}


# ------------------------------------------------------------------ restrictions ---------------
def test_a_card_in_play_forbids_a_faction_on_its_base():
    s = scenario("Invader", "Tiger Assassin")
    s.base_action(0, "Roadblock", owner=1)
    game = s.build(R)
    assert plays_of(game, "Invader") == {("Filler Field", "hand", MINION)}
    assert ("Test Arena", "hand", MINION) in plays_of(game, "Tiger Assassin")
    invader = card(game, "Invader")
    assert_refused(game, [f"m{invader}@{base_uid(game, 'Test Arena')}"])


def test_other_players_cannot_play_minions_on_a_guarded_base():
    s = scenario("Invader")
    s.base_action(0, "Keep Out", owner=1)
    game = s.build(R)
    assert plays_of(game, "Invader") == {("Filler Field", "hand", MINION)}
    s = scenario("Invader")
    s.base_action(0, "Keep Out", owner=0)
    game = s.build(R)
    assert ("Test Arena", "hand", MINION) in plays_of(game, "Invader")


def test_a_restriction_binds_extra_plays_and_plays_by_abilities():
    s = scenario("Back Door Now", discard=("Invader",))
    s.base_action(0, "Roadblock", owner=1)
    game = s.build(R)
    play(game, "Back Door Now")
    assert labels(game) == ["Invader (from your discard pile) on Filler Field"]
    ctx = game.card_ctx(card(game, "Roadblock"), seat=0)
    invader = card(game, "Invader")
    assert not ctx.can_play(invader, base_uid(game, "Test Arena"))
    assert ctx.can_play(invader, base_uid(game, "Filler Field"))
    assert ctx.playable_bases(invader) == [base_uid(game, "Filler Field")]


def test_a_player_put_to_sleep_cannot_play_actions_during_their_next_turn_only():
    s = scenario("Lullaby", "Invader")
    s.hand(1, "Disintegrator", "Invader")
    game = s.build(R)
    play(game, "Lullaby")
    choose(game, "P1")
    assert {game.name(p.card) for p in game.legal_plays(0)} == {"Invader"}  # not asleep now
    end_play(game)
    while game.pending is not None and game.current == 0:
        choose(game, game.pending.options[0].id)
    assert game.current == 1 and game.pending.kind == "play"
    names = {game.name(p.card) for p in game.legal_plays(1)}
    assert "Invader" in names and "Disintegrator" not in names
    assert_refused(game, [f"a{card(game, 'Disintegrator')}"])


def test_legal_plays_are_plain_values_and_nobody_else_has_any():
    game = scenario("Invader", "Disintegrator").build(R)
    plays = game.legal_plays(0)
    assert all(isinstance(p, Play) for p in plays)
    assert {p.kind for p in plays} == {MINION, ACTION}
    assert Play(0, card(game, "Invader"), MINION, "hand", base_uid(game, "Test Arena")) in plays
    assert game.legal_plays(1) == []  # not their turn


def test_legal_plays_onto_one_base_are_those_of_all_bases_there():
    """`onto` (what `can_play` asks: one card, one base) gives a hand minion's plays onto that
    base exactly as the full list does, restrictions included; an action's play is unchanged."""
    s = scenario("Invader", "Disintegrator")
    s.base_action(0, "Roadblock", owner=1)
    game = s.build(R)
    everything = game.legal_plays(0)
    for slot in game.bases:
        onto = game.legal_plays(0, onto=slot.uid)
        assert [p for p in onto if p.kind == MINION] == [
            p for p in everything if p.kind == MINION and p.base == slot.uid]
        assert [p for p in onto if p.kind == ACTION] == [
            p for p in everything if p.kind == ACTION]
    invader = card(game, "Invader")
    assert game.legal_plays(0, cards=[invader], onto=base_uid(game, "Test Arena")) == []


# ------------------------------------------------------------------ records ---------------------
V2_RECORDS = json.loads((Path(__file__).parent / "fixtures" / "digest_v2_records.json")
                        .read_text())["records"]


@pytest.mark.parametrize("entry", V2_RECORDS, ids=[e["name"] for e in V2_RECORDS])
def test_records_hashed_before_the_generator_still_replay_with_their_hashes(entry):
    # Made by the engine before this change (the fixture's "about"): Tenacious Z, They Keep
    # Coming, They're Coming To Get You, Block the Path, Mark of Sleep, Hoverbot... Every stored
    # hash must match (digest 2 leaves out the fields added since).
    record = entry["record"]
    game = replay(record)
    assert game.digest_version == 2
    assert game.hashes == record["hashes"]


def test_new_games_hash_with_digest_3_which_reads_the_matching_state():
    game = scenario("Two Ways In", "Collector", "Invader", played_minion=True).build(R)
    assert game.digest().startswith("3-")
    play(game, "Two Ways In")
    play(game, "Collector", base="Test Arena")
    decline(game)
    assert game.turn_state.spent  # Collector could have used either extra
    before = game.digest()
    game.digest_version = 2
    old = game.digest()
    game.turn_state.spent[0].could.pop()
    assert game.digest() == old  # digest 2 does not read it...
    game.digest_version = 3
    assert game.digest() != before  # ...digest 3 does
    fresh = new_game({"players": [{"factions": ["Zombies", "Tricksters"]},
                                  {"factions": ["Robots", "Wizards"]}]}, seed=7,
                     track_hashes=True)
    d = fresh.pending
    fresh.apply(d.seat, d.id, [d.options[0].id])
    assert fresh.hashes[-1].startswith("3-")
    assert replay(fresh.record()).hashes == fresh.hashes


# ------------------------------------------------------------------ declarations ----------------
@pytest.mark.parametrize("declare", [
    lambda c: c.grants_each_turn(MINION, zone="deck"),
    lambda c: c.grants_each_turn(MINION, once="twice"),
    lambda c: c.grants_each_turn(MINION, condition="no_such_condition"),
    lambda c: c.play_source("deck"),
])
def test_a_misspelt_play_declaration_is_refused_and_declares_nothing(declare):
    minion = Faction("Typos", set="typos", registry=Registry()).minion("Typo", power=1).card
    with pytest.raises(ConfigError):
        declare(minion)
    assert minion.turn_grants == [] and minion.play_sources == []
