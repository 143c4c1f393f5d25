"""Setup (CR "Setup", WWWT p.3-4): players, decks, the base deck, bases in play, hands, the
mulligan, the first player, and determinism from the seed."""
from __future__ import annotations

import pytest

from smashup.engine import ConfigError, new_game
from smashup.engine.game import Game
from smashup.engine.testing import choose

from .support import TEST_REGISTRY, WITH_FILLER, config_for, two_player_config


# ---------------------------------------------------------------------------- refused configs ---
@pytest.mark.parametrize("players", [0, 1, 5])
def test_player_count_outside_2_to_4_is_refused(players):
    with pytest.raises(ConfigError, match="2 to 4 players"):
        new_game(config_for(players), seed=1)


@pytest.mark.parametrize("config, message", [
    ({"players": [{"factions": ["Aliens", "Aliens"]}, {"factions": ["Ninjas", "Aliens"]}]},
     "same faction twice"),
    ({"players": [{"factions": ["Aliens", "Martians"]}, {"factions": ["Ninjas", "Aliens"]}]},
     "unknown faction 'Martians'"),
    ({"players": [{"factions": ["Aliens"]}, {"factions": ["Ninjas", "Aliens"]}]},
     "exactly two factions"),
    ({"players": [{"factions": ["Aliens", "Ninjas", "Aliens"]}, {"factions": ["Ninjas", "Aliens"]}]},
     "exactly two factions"),
    ({"players": ["Aliens", {"factions": ["Ninjas", "Aliens"]}]}, "exactly two factions"),
    ({"players": "two"}, "2 to 4 players"),
    (["not", "a", "mapping"], "mapping"),
    (two_player_config(specials="sometimes"), "specials"),
    (two_player_config(mode="bigbase-but-misspelled"), "unknown mode"),
    (two_player_config(base_sets="some"), "base_sets"),
    (two_player_config(base_sets=["core", 7]), "base_sets"),
    (two_player_config(first_player=2), "first_player"),
    (two_player_config(first_player=-1), "first_player"),
    (two_player_config(first_player="0"), "first_player"),
    (two_player_config(first_player=True), "first_player"),
    (two_player_config(mulligan="no"), "mulligan"),
    (two_player_config(base_sets=["core", "Core Set"]), "unknown base set 'Core Set'"),
    (two_player_config(base_sets=[]), "at least one set"),
    ({"players": [{"factions": ["Aliens", "Ninjas"]}, {"factions": ["Robots", 3]}]}, "by its name"),
    # Each faction is in a game once (issue 9: the app has one copy of every faction).
    ({"players": [{"factions": ["Aliens", "Ninjas"]}, {"factions": ["Ninjas", "Aliens"]}]},
     "Ninjas is held by player 0 and player 1: each faction is in a game once"),
    ({"players": [{"factions": ["Aliens", "Ninjas"]}, {"factions": ["Pirates", "Robots"]},
                  {"factions": ["Wizards", "Robots"]}]},
     "Robots is held by player 1 and player 2"),
    ({"players": [{"factions": ["Aliens", "Ninjas"], "bot": "genius"},
                  {"factions": ["Ninjas", "Aliens"]}]}, "unknown bot"),
])
def test_bad_configs_are_refused_with_a_clear_message(config, message):
    with pytest.raises(ConfigError, match=message):
        new_game(config, seed=1)


def test_too_few_bases_for_the_players_is_a_config_error():
    # Four players need five bases; the Core Set alone (as implemented now) may not have them, so
    # a base list that is too short must be refused, not crash.
    with pytest.raises(ConfigError, match="need 5 bases"):
        new_game(config_for(4, base_sets=["testset"]), seed=1, registry=TEST_REGISTRY)


# ---------------------------------------------------------------------------- a fresh game ---
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_has_a_40_card_deck_of_two_factions_and_5_cards_in_hand(players):
    game = new_game(config_for(players, mulligan=False, base_sets=WITH_FILLER), seed=3,
                    registry=TEST_REGISTRY)
    assert len(game.players) == players
    for p in game.players:
        cards = [c for c, owner in enumerate(game.owner) if owner == p.seat]
        assert len(cards) == 40
        assert len(p.hand) == 5 and len(p.deck) == 35 and p.discard == []
        assert sorted(p.hand + p.deck) == sorted(cards)
        factions = {game.defs[c].faction for c in cards}
        assert factions == set(p.factions) and len(factions) == 2
        for faction in p.factions:
            assert sum(1 for c in cards if game.defs[c].faction == faction) == 20
        assert p.vp == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_base_per_player_plus_one_is_in_play(players):
    game = new_game(config_for(players, base_sets=WITH_FILLER), seed=5, registry=TEST_REGISTRY)
    assert len(game.bases) == players + 1
    assert all(slot.minions == [] and slot.actions == [] for slot in game.bases)
    assert game.base_discard == []


def _base_names(game) -> set[str]:
    return {game.name(s.card) for s in game.bases} | {game.name(c) for c in game.base_deck}


def test_base_deck_comes_from_the_sets_of_the_chosen_factions():
    # Core factions only: no base of another set may appear, and every Core base is there.
    game = new_game(two_player_config(), seed=2, registry=TEST_REGISTRY)
    core = {b.name for b in TEST_REGISTRY.bases.values() if b.set == "core"}
    assert _base_names(game) == core

    # A faction of another set brings that set's bases too (each set once).
    config = {"players": [{"factions": ["Aliens", "Testers"]}, {"factions": ["Ninjas", "Pirates"]}]}
    game = new_game(config, seed=2, registry=TEST_REGISTRY)
    testset = {b.name for b in TEST_REGISTRY.bases.values() if b.set == "testset"}
    assert _base_names(game) == core | testset
    assert len(game.bases) + len(game.base_deck) == len(core | testset)


def test_base_deck_all_takes_every_set():
    game = new_game(two_player_config(base_sets="all"), seed=2, registry=TEST_REGISTRY)
    assert _base_names(game) == set(TEST_REGISTRY.bases)


def test_base_deck_of_the_real_registry_by_sets():
    # Core factions bring the Core bases; "all" brings every set with bases and names them in the
    # game's config (and so in its record), so that a later set does not change its replay.
    from smashup.engine import REGISTRY, replay

    core = {b.name for b in REGISTRY.bases.values() if b.set == "core"}
    every = {b.name for b in REGISTRY.bases.values()}
    assert every > core  # What Were We Thinking? bases exist too
    game = new_game(two_player_config(base_sets="factions"), seed=4)
    assert _base_names(game) == core and game.config["base_sets"] == "factions"
    game = new_game(two_player_config(base_sets="all"), seed=4)
    assert _base_names(game) == every and len(game.bases) == 3
    assert game.config["base_sets"] == sorted({b.set for b in REGISTRY.bases.values()})
    again = replay(game.record())
    assert again.config == game.config and again.digest() == game.digest()


def test_a_record_that_says_all_sets_means_the_core_set_it_was_made_with():
    from smashup.engine import REGISTRY, replay

    core = {b.name for b in REGISTRY.bases.values() if b.set == "core"}
    record = {"config": two_player_config(base_sets="all"), "seed": 4, "choices": []}
    game = replay(record)
    assert _base_names(game) == core
    assert game.record()["config"]["base_sets"] == "all"  # written back as it was


def test_a_new_game_names_its_bases_and_replays_with_them_whatever_the_sets_hold_later():
    # A base added to a set after the game was made (a later helper's Retirement Community) must
    # not change the base deck of its replay: the record names the bases it dealt from.
    from smashup.engine import REGISTRY, replay
    from smashup.engine.registry import BaseDef

    game = new_game(two_player_config(base_sets="all"), seed=4)
    named = game.config["bases"]
    assert set(named) == {b.name for b in REGISTRY.bases.values()}
    record = game.record()
    later = BaseDef(name="Later Base", set="core", breakpoint=20, vp=(3, 2, 1))
    REGISTRY.bases[later.name] = later
    try:
        again = replay(record)
    finally:
        del REGISTRY.bases[later.name]
    assert again.config["bases"] == named and again.digest() == game.digest()


def test_an_older_record_without_names_deals_the_bases_its_sets_had_then():
    from smashup.engine import REGISTRY, replay
    from smashup.engine.registry import BaseDef
    from smashup.engine.setup import LEGACY_SET_BASES

    later = BaseDef(name="Later Base", set="wwwt", breakpoint=20, vp=(3, 2, 1))
    REGISTRY.bases[later.name] = later
    try:
        record = {"config": two_player_config(base_sets=["core", "wwwt"]), "seed": 4, "choices": []}
        game = replay(record)
    finally:
        del REGISTRY.bases[later.name]
    assert _base_names(game) == set(LEGACY_SET_BASES["core"]) | set(LEGACY_SET_BASES["wwwt"])
    assert "bases" not in game.record()["config"]  # written back as it was


@pytest.mark.parametrize("bases, message", [
    ("Tortuga", "list of base names"), ([], "list of base names"),
    (["Tortuga", "Tortuga"], "each base once"), (["Tortuga", "Atlantis"], "unknown base 'Atlantis'"),
])
def test_a_config_naming_bad_bases_is_refused(bases, message):
    with pytest.raises(ConfigError, match=message):
        new_game({**two_player_config(), "bases": bases}, seed=1)


# ---------------------------------------------------------------------------- mulligan ---
def _hand_has_minion(game, seat) -> bool:
    return any(game.defs[c].is_minion for c in game.players[seat].hand)


def test_mulligan_is_offered_exactly_when_an_opening_hand_has_no_minion():
    offered = kept_minion_hands = 0
    for seed in range(80):
        game = new_game(two_player_config(), seed)
        # The mulligans are asked in turn order from the first player, before any play.
        d = game.pending
        asked = []
        while d.kind == "confirm":
            asked.append(d.seat)
            assert not _hand_has_minion(game, d.seat)
            assert [o.label for o in d.options] == ["Mulligan", "Keep"]
            choose(game, "Keep")
            d = game.pending
        assert d.kind == "play" and d.seat == game.current
        for seat in range(2):
            if seat not in asked:
                assert _hand_has_minion(game, seat)
                kept_minion_hands += 1
        offered += len(asked)
    assert offered > 0 and kept_minion_hands > 0  # both cases were really exercised


def test_mulligan_discards_the_hand_and_draws_five_once():
    # Paper Pushers and Clerks are all actions: both hands lack minions, before and after.
    config = {"players": [{"factions": ["Paper Pushers", "Clerks"]},
                          {"factions": ["Filers", "Stampers"]}], "first_player": 1,
              "base_sets": WITH_FILLER}
    game = new_game(config, seed=9, registry=TEST_REGISTRY)
    assert game.pending.kind == "confirm" and game.pending.seat == 1
    first_hand = list(game.players[1].hand)
    choose(game, "Mulligan")
    p1 = game.players[1]
    assert sorted(p1.discard) == sorted(first_hand)
    assert len(p1.deck) == 30 and len(p1.hand) == 5
    assert not set(p1.hand) & set(first_hand)
    assert any("shows a hand without minions" in text for text, to in game.log_lines if to is None)
    # Seat 0 is asked next; seat 1 is not asked again although its new hand has no minion either.
    assert game.pending.kind == "confirm" and game.pending.seat == 0
    choose(game, "Keep")
    p0 = game.players[0]
    assert len(p0.deck) == 35 and p0.discard == [] and len(p0.hand) == 5
    assert game.pending.kind == "play" and game.pending.seat == 1


def test_mulligan_can_be_switched_off():
    config = {"players": [{"factions": ["Paper Pushers", "Clerks"]},
                          {"factions": ["Filers", "Stampers"]}], "mulligan": False,
              "base_sets": WITH_FILLER}
    game = new_game(config, seed=9, registry=TEST_REGISTRY)
    assert game.pending.kind == "play"


# ---------------------------------------------------------------------------- first player ---
@pytest.mark.parametrize("first", [0, 1, 2])
def test_first_player_from_config(first):
    game = new_game(config_for(3, first_player=first, mulligan=False), seed=11)
    assert game.current == first
    assert game.pending.seat == first and game.pending.kind == "play"
    assert game.turn == 1


def test_first_player_from_the_seed_varies_and_is_repeatable():
    firsts = {new_game(config_for(3, mulligan=False), seed).current for seed in range(30)}
    assert firsts == {0, 1, 2}
    for seed in range(5):
        a = new_game(config_for(3, mulligan=False), seed)
        b = new_game(config_for(3, mulligan=False), seed)
        assert a.current == b.current


# ---------------------------------------------------------------------------- determinism ---
def _deal(game: Game):
    return ([[game.name(c) for c in p.hand] for p in game.players],
            [[game.name(c) for c in p.deck] for p in game.players],
            [game.name(s.card) for s in game.bases], [game.name(c) for c in game.base_deck])


def test_same_seed_same_game_different_seed_different_deal():
    a = new_game(config_for(3), seed=42)
    b = new_game(config_for(3), seed=42)
    c = new_game(config_for(3), seed=43)
    assert a.digest() == b.digest() and _deal(a) == _deal(b) and a.current == b.current
    assert _deal(a) != _deal(c)
    assert a.digest() != c.digest()



def test_a_faction_held_twice_is_refused_for_scenarios_but_an_older_record_still_replays():
    from smashup.engine import Scenario, replay

    with pytest.raises(ConfigError, match="Aliens is held by player 0 and player 1"):
        Scenario([("Aliens", "Ninjas"), ("Aliens", "Robots")]).build()
    # A game set up before the rule (both seats Aliens and Ninjas) replays as it was played.
    mirror = {"players": [{"factions": ["Aliens", "Ninjas"]}, {"factions": ["Ninjas", "Aliens"]}]}
    old = new_game(mirror, seed=5, track_hashes=True, shared_factions=True)
    old.apply(old.pending.seat, old.pending.id, [old.pending.options[0].id])
    again = replay(old.record())
    assert again.digest() == old.digest()
    assert [p.factions for p in again.players] == [["Aliens", "Ninjas"], ["Ninjas", "Aliens"]]
