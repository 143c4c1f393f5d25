"""Option labels are formatted when first read (`core.Option`: a label may be `(function, *args)`),
since a bot picks by id and most labels are never read. A label must read exactly what it read
when its question was asked: one read from the board (`effects.board_label`) is refused once the
board has changed, rather than describing another board."""
from __future__ import annotations

import dataclasses

import pytest

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import EngineError, Scenario
from smashup.engine.core import Option
from smashup.engine.testing import card, choose, labels, play


def _beam_up_question():
    """Seat 0 has played Beam Up: which minion to return (`Ctx.choose_minion`)."""
    s = Scenario([("Aliens", "Ninjas"), ("Pirates", "Robots")])
    s.base("The Mothership")
    s.base("Ninja Dojo")
    s.hand(1, "Ninja Acolyte")
    s.deck(0, "Way of Deception", "Way of Deception")
    s.minion(0, "Scout", owner=0)
    s.minion(1, "Invader", owner=1)
    s.hand(0, "Beam Up", "Collector")
    game = s.build()
    play(game, "Beam Up")
    assert game.pending.kind == "target"
    return game


def test_a_target_reads_as_the_board_was_when_asked():
    game = _beam_up_question()
    # Nothing formatted yet: the question holds what to format.
    assert all(type(o.label_as_made()) is tuple for o in game.pending.options)
    assert labels(game) == ["Scout (3, P0) on The Mothership", "Invader (3, P1) on Ninja Dojo"]
    assert all(type(o.label_as_made()) is str for o in game.pending.options)
    choose(game, card(game, "Scout"))
    assert game.loc[card(game, "Scout")] == ("hand", 0)


def test_a_label_read_after_the_board_changed_is_refused():
    game = _beam_up_question()
    scout, invader = game.pending.options
    assert scout.label == "Scout (3, P0) on The Mothership"
    game.changed()  # the board moves on (as it does once the question is answered)
    assert scout.label == "Scout (3, P0) on The Mothership"  # read in time: kept
    with pytest.raises(EngineError, match="after the board changed"):
        invader.public()


def test_a_label_is_formatted_once_on_first_read_and_copies_keep_it_unformatted():
    calls = []

    def words(name, power):
        calls.append(name)
        return f"{name} ({power})"

    opt = Option("m1", (words, "Scout", 3), card=1)
    copy = Option(opt.id, opt.label_as_made(), opt.card, alike="m0")  # as Game._mark_alike
    assert calls == []
    assert opt.label == opt.label == "Scout (3)"
    assert copy.label == "Scout (3)"
    assert calls == ["Scout", "Scout"]


def test_an_option_is_the_dataclass_it_was():
    lazy = Option("m1", (str.upper, "scout"), card=1, base=2, value=("x",))
    plain = Option("m1", "SCOUT", card=1, base=2, value=("x",))
    assert [f.name for f in dataclasses.fields(Option)] == [
        "id", "label", "card", "base", "value", "alike", "play"]
    assert [f.name for f in dataclasses.fields(Option) if f.metadata.get("words")] == [
        "label", "alike"]
    assert dataclasses.is_dataclass(lazy)
    assert lazy == plain
    assert lazy != Option("m1", "SCOUT", card=1, base=2, value=("y",))
    assert lazy != Option("m1", "Scout", card=1, base=2, value=("x",))
    assert repr(lazy) == ("Option(id='m1', label='SCOUT', card=1, base=2, value=('x',), "
                          "alike=None, play=None)")
    assert dataclasses.replace(lazy, alike="m0") == Option("m1", "SCOUT", 1, 2, ("x",), "m0")
    assert dataclasses.asdict(plain)["label"] == "SCOUT"
    assert lazy.public() == {"id": "m1", "label": "SCOUT", "card": 1, "base": 2}
    with pytest.raises(TypeError):
        hash(lazy)
