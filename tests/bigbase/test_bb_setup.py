"""Setting up a Big Base game: four sides as bases, the base card on the board, the next one face
up, slots per side, the config checks; record and replay as in standard games."""
import pytest
from bigbase_support import config, plain_board

from bigbase.rules import BigBaseGame
from smashup.engine import ConfigError, invariants, new_game, replay
from smashup.engine.bots import random_choice


@pytest.mark.parametrize("players, slots", [(2, 3), (3, 3), (4, 4)])
def test_a_new_game_has_four_sides_with_the_current_base_ability(players, slots):
    game = new_game(config(players), seed=5)
    assert isinstance(game, BigBaseGame)
    assert [game.side_name(s.uid) for s in game.bases] == ["North", "East", "South", "West"]
    base = game.base_card
    assert game.loc[base] == ("board",)
    # Every side is a base with the current base card's ability and breakpoint.
    for slot in game.bases:
        side = game.defs[slot.card]
        assert side.triggers is game.defs[base].triggers
        assert side.breakpoint == game.defs[base].breakpoint
    # The virtual 4th slot (no ability) only at four players.
    assert all(len(h) == slots for h in game.holders.values())
    assert game.next_base == game.base_deck[0]
    assert all(len(p.hand) == 5 for p in game.players)
    assert game.round == 1 and game.period == 1 and game.first_player == game.current
    assert invariants.check(game) == []


def test_the_view_shows_the_board_and_the_next_base_but_nothing_hidden():
    game = new_game(config(3), seed=2)
    view = game.view(None)
    bb = view["big_base"]
    assert view["mode"] == "bigbase"
    assert bb["current_base"]["id"] == game.base_card
    assert bb["next_base"]["id"] == game.next_base  # face up on the base deck
    assert bb["round"] == 1 and bb["period"] == 1 and bb["periods"] == 3
    assert bb["vp_table"] == [4, 3, 2, 1] and bb["side_bonus_vp"] == 1
    assert [s["name"] for s in bb["sides"]] == ["North", "East", "South", "West"]
    assert bb["sides"][0]["slots"][0]["ability"] == "On occupation: draw 1 card"
    assert invariants.leaks(game, None) == set()
    # The card after the next one stays hidden.
    assert game.base_deck[1] not in invariants.card_ids_in(view)


def test_the_config_keeps_the_board_it_was_played_on():
    game = new_game(config(2, board=plain_board()), seed=1)
    assert game.config["mode"] == "bigbase"
    assert game.config["board"]["id"] == "plain"
    default = new_game(config(2), seed=1)
    assert default.config["board"]["id"] == "default"


@pytest.mark.parametrize("extra, message", [
    ({"end_after_bases": 5}, "scoring periods"),
    ({"board": {"id": "x"}}, "missing"),
    ({"mode": "giant"}, "unknown mode"),
])
def test_a_config_that_cannot_be_played_is_refused(extra, message):
    with pytest.raises(ConfigError, match=message):
        new_game(config(2, **extra), seed=1)


def test_a_recorded_game_replays_to_the_same_state_with_its_hashes():
    import random

    game = new_game(config(3), seed="ab" * 32, track_hashes=True)
    rng = random.Random(4)
    while game.pending is not None and len(game.choices) < 120:
        game.apply(game.pending.seat, game.pending.id, random_choice(game, rng))
    again = replay(game.record())
    assert isinstance(again, BigBaseGame)
    assert again.digest() == game.digest()
    assert again.view(0) == game.view(0)


def test_the_state_hash_covers_the_board_state():
    game = new_game(config(2), seed=3)
    before = game.digest()
    game.round += 1
    assert game.digest() != before
    game.round -= 1
    uid = game.bases[0].uid
    game.holders[uid][1] = 0
    assert game.digest() != before


def test_every_big_base_field_is_state_and_caches_are_not():
    game = new_game(config(2), seed=3)
    fields = game.state_fields()
    for name in ("board", "current_base", "holders", "round", "period", "first_player",
                 "tiebreak_rounds", "round_marks", "scorings"):
        assert name in fields
    assert "_side_defs" not in fields
    before = game.digest()
    for name, change in (("period", 2), ("first_player", 1 - game.first_player),
                         ("tiebreak_rounds", 1),
                         ("round_marks", [(1, 0, 0)]), ("scorings", [{"period": 1}])):
        old = getattr(game, name)
        setattr(game, name, change)
        assert game.digest() != before, name
        setattr(game, name, old)
    assert game.digest() == before


def test_a_card_may_react_to_a_slot_being_taken():
    from smashup.engine.core import EVENT_KINDS

    assert "occupied" in EVENT_KINDS
