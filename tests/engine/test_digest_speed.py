"""The digest is built part by part (Game._digest_v2) and keeps the parts only `new_card` changes:
it must always equal the hash of the whole state written out at once, the definition stored
records were hashed with."""
from __future__ import annotations

import hashlib
import random

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import REGISTRY, Scenario, new_game
from smashup.engine.bots import BOTS
from smashup.engine.game import _FIELDS, _FIELDS_V2, _plain


def reference_digest(game) -> str:
    fields = _FIELDS if game.digest_version >= 3 else _FIELDS_V2
    parts = [repr(getattr(game, n).getstate()) if n == "rng" else _plain(getattr(game, n), fields)
             for n in game.state_fields()]
    text = repr(parts).encode()
    return f"{game.digest_version}-" + hashlib.blake2b(text, digest_size=16).hexdigest()


def test_the_digest_is_the_hash_of_the_whole_state_after_every_choice():
    rng = random.Random(5)
    config = {"players": [{"factions": ["Robots", "Zombies"], "bot": "random"},
                          {"factions": ["Pirates", "Wizards"], "bot": "random"},
                          {"factions": ["Dinosaurs", "Tricksters"], "bot": "random"}],
              "specials": "ask", "base_sets": "all"}
    game = new_game(config, 11)
    while game.pending is not None and len(game.choices) < 300:
        assert game.digest() == reference_digest(game)
        d = game.pending
        game.apply(d.seat, d.id, BOTS["random"](game, rng))
    assert game.digest() == reference_digest(game)


def test_a_card_added_after_a_digest_changes_the_kept_parts():
    game = new_game({"players": [{"factions": ["Aliens", "Ninjas"]},
                                 {"factions": ["Robots", "Pirates"]}]}, 3)
    before = game.digest()
    game.new_card(REGISTRY.card("Invader"), 0, ("discard", 0))
    assert game.digest() == reference_digest(game) != before


def test_a_version_2_digest_is_the_hash_of_the_state_it_covered():
    game = new_game({"players": [{"factions": ["Aliens", "Ninjas"]},
                                 {"factions": ["Robots", "Pirates"]}]}, 3)
    game.digest_version = 2  # as for a record hashed before version 3
    assert game.digest().startswith("2-")
    assert game.digest() == reference_digest(game)


def test_a_tuple_holding_a_list_is_written_out_as_tuples():
    # The shortcut for tuples of plain values must not keep a list inside a tuple as a list.
    assert _plain((1, [2, 3])) == (1, (2, 3))
    assert _plain([("deck", 0), None]) == (("deck", 0), None)


def test_zones_are_written_as_the_whole_state_would_be_even_when_one_is_odd():
    # `loc` is written from each zone's kept text; a zone holding anything but strings and ints
    # (True equals 1 but is written "True") takes the general way, so the hash stays the one of
    # the state written out at once.
    game = new_game({"players": [{"factions": ["Aliens", "Ninjas"]},
                                 {"factions": ["Robots", "Pirates"]}]}, 3)
    assert game.digest() == reference_digest(game)  # ("hand", 1) and the others now kept
    card = game.players[1].hand[0]
    for odd in (("hand", True), ("hand", 1.0), ["hand", 1]):
        game.loc[card] = odd
        assert game.digest() == reference_digest(game)
    game.loc[card] = ("hand", 1)
    assert game.digest() == reference_digest(game)


def test_a_pending_question_is_written_as_the_whole_state_would_be_in_either_version():
    # The options of a pending question are written once per Option and kept (the main decision
    # offers the same Options again and again): kept for the version they were written for.
    rng = random.Random(2)
    game = new_game({"players": [{"factions": ["Aliens", "Ninjas"], "bot": "random"},
                                 {"factions": ["Robots", "Pirates"], "bot": "random"}]}, 4)
    while game.pending is not None and len(game.choices) < 120:
        for version in (3, 2, 3):
            game.digest_version = version
            assert game.digest() == reference_digest(game)
        d = game.pending
        game.apply(d.seat, d.id, BOTS["random"](game, rng))


def test_the_config_is_the_games_own_and_a_new_one_is_hashed_anew():
    # The config's text is kept while the same dict is the config: the game owns every part of
    # it (nothing the caller holds), and a config put in its place is written again.
    sets = ["core"]
    config = {"players": [{"factions": ["Aliens", "Ninjas"]},
                          {"factions": ["Robots", "Pirates"]}], "base_sets": sets}
    game = new_game(config, 3)
    before = game.digest()
    sets.append("wwwt")
    config["players"][0]["factions"].append("Zombies")
    assert game.digest() == before == reference_digest(game)
    game.config = {**game.config, "specials": "ask"}
    assert game.digest() == reference_digest(game) != before


def test_minions_in_play_are_written_as_the_whole_state_would_be():
    # The minions' states are written out field by field; one with a memory, or any odd value,
    # takes the general way. Either way the hash is the one of the state written at once.
    s = Scenario([("Aliens", "Ninjas"), ("Robots", "Pirates")])
    home = s.base("The Homeworld")
    s.base("Ninja Dojo")
    s.base("Tortuga")
    s.minion(home, "Invader", owner=0, counters=2, attached=[("Upgrade", 1)])
    game = s.build()
    assert game.digest() == reference_digest(game)  # one minion: "((id, state),)"
    minion = next(iter(game.minion_state))
    game.minion_state[minion].memory["seen"] = [3]
    assert game.digest() == reference_digest(game)
    game.minion_state[minion].memory.clear()
    game.minion_state[minion].counters = True  # odd, but written as it is
    assert game.digest() == reference_digest(game)
    game.minion_state.clear()
    assert game.digest() == reference_digest(game)
