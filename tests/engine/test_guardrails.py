"""Guardrails, so that 200 more cards cannot fail silently (issue 9, "the engine"):

- an unknown event, window, replaceable event or protection kind is refused when the card is
  declared;
- a verb used without `yield from` raises; an ability that asks nothing may be a plain function;
- "this base" (`ctx.here`) works in a base's trigger and in a leaves-play trigger;
- the state digest covers every piece of state without upkeep: changing any field moves it;
- an option id of an unknown shape is caught by the leak check's invariant.
(Card code reading engine internals is test_card_api.py; protection checks by hand,
test_pipeline.py.)"""
from __future__ import annotations

import copy
import dataclasses

import pytest

from smashup.engine import ConfigError, EngineError, Faction, Scenario, base
from smashup.engine.core import Option
from smashup.engine.game import NOT_STATE
from smashup.engine.invariants import check
from smashup.engine.registry import Registry
from smashup.engine.testing import card, choose, play

from .support import registry_with_test_cards


def build_registry() -> Registry:
    r = registry_with_test_cards()
    t = Faction("Guard Testers", set="guardset", registry=r)

    @t.action("Forgetful Smite", text="Destroy a minion (written without yield from: a bug).")
    def forgetful(ctx):
        for m in ctx.minions():
            ctx.destroy(m)  # the bug under test: no `yield from`
            return

    @t.action("Plain Gift", text="Gain 1 VP (a plain function: asks nothing).")
    def plain_gift(ctx):
        ctx.gain_vp(ctx.me, 1)

    where = base("Where Am I", "guardset", 99, (1, 1, 1), text="Notes where it is.", registry=r)

    @where.trigger("minion_played")
    def where_am_i(ctx, event):
        ctx.game.__dict__.setdefault("heres", []).append(("base", ctx.here))

    last = t.minion("Last Words", power=1, text=(
        "Ongoing: after this minion is destroyed, note its last base and controller."))

    @last.trigger("destroyed", leaves_play=True, applies=lambda ctx, e: e.card == ctx.card)
    def last_words(ctx, event):
        ctx.game.__dict__.setdefault("heres", []).append(("last", ctx.here, ctx.me))

    t.minion("Dummy", power=1, copies=10, text="No ability.")
    return r


REG = build_registry()
GT = ("Guard Testers", "Ninjas")


# ----------------------------------------------------------------- declarations ---------------
@pytest.mark.parametrize("declare", [
    lambda c: c.trigger("destoryed"),
    lambda c: c.trigger("turn_end", leaves_play=True),
    lambda c: c.special("afterscoring"),
    lambda c: c.special("before_scoring", zone="deck"),
    lambda c: c.replacement("explode"),
    lambda c: c.protection("smash"),
    lambda c: c.protection("affect", from_="friends"),
])
def test_a_misspelt_name_is_refused_when_the_card_is_declared(declare):
    t = Faction("Typos", set="typos", registry=Registry())
    minion = t.minion("Typo", power=1).card
    with pytest.raises(ConfigError):
        declare(minion)
    assert minion.triggers == [] and minion.specials == [] and minion.replacements == []


def test_a_misspelt_base_hook_is_refused():
    b = base("Typo Base", "typos", 10, (1, 1, 1), registry=Registry())
    with pytest.raises(ConfigError):
        b.hook("after_scored")
    with pytest.raises(ConfigError):
        b.trigger("scoring")


# ----------------------------------------------------------------- verbs ----------------------
def table(*hand, minions=(), bases=("Test Arena", "Filler Field")):
    s = Scenario([GT, ("Aliens", "Robots")])
    for b in bases:
        s.base(b)
    for b, name, owner in minions:
        s.minion(b, name, owner=owner)
    s.hand(0, *hand, "Dummy")
    for seat in range(2):
        s.deck(seat, *["Dummy"] * 6)
    return s.build(REG)


def test_a_verb_called_without_yield_from_raises_instead_of_doing_nothing():
    game = table("Forgetful Smite", minions=[(0, "Dummy", 1)])
    with pytest.raises(EngineError, match=r"ctx\.destroy.*Forgetful Smite.*yield from"):
        play(game, "Forgetful Smite")


def test_an_ability_that_asks_nothing_may_be_a_plain_function():
    game = table("Plain Gift")
    play(game, "Plain Gift")
    assert game.players[0].vp == 1


# ----------------------------------------------------------------- "this base" ----------------
def test_here_is_the_base_in_its_own_trigger_and_the_last_base_in_last_words():
    game = table("Dummy", "Tiger Assassin",
                 minions=[(1, "Last Words", 1)], bases=("Where Am I", "Test Arena"))
    where_uid, arena = game.bases[0].uid, game.bases[1].uid
    play(game, "Dummy", base="Where Am I")
    assert game.heres == [("base", where_uid)]
    game.heres.clear()
    play(game, "Tiger Assassin", base="Test Arena")  # may destroy power 3 or less here
    last = card(game, "Last Words")
    choose(game, last)
    # One batch: the Last Words and the base's note of Tiger Assassin's play, ordered by seat 0.
    assert game.pending.kind == "order"
    choose(game, "Last Words")
    # Its last words: on the base it was on, as its last controller (seat 1).
    assert game.heres == [("last", arena, 1), ("base", where_uid)]


# ----------------------------------------------------------------- the digest -----------------
def _changed(value):
    """A different value of the same shape (a new object: the original is left alone)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return 1
    if isinstance(value, list):
        return value[1:] if value else [0]
    if isinstance(value, tuple):
        return value[1:] if value else (0,)
    if isinstance(value, dict):
        if value:
            d = dict(value)
            d.pop(next(iter(d)))
            return d
        return {0: 0}
    if isinstance(value, set):
        return set(list(value)[1:]) if value else {0}
    if dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            if not f.metadata.get("words"):
                return dataclasses.replace(value, **{f.name: _changed(getattr(value, f.name))})
    raise AssertionError(f"no change for {value!r}")


def test_the_digest_moves_when_any_piece_of_state_changes():
    game = table("Tiger Assassin", minions=[(0, "Dummy", 1)])
    fields = game.state_fields()
    # The whole game is covered but what NOT_STATE names: no list to keep by hand.
    assert len(fields) >= 25
    assert not set(fields) & NOT_STATE
    before = game.digest()
    for name in fields:
        original = getattr(game, name)
        if name == "rng":
            changed = copy.deepcopy(original)
            changed.random()
        else:
            changed = _changed(original)
        setattr(game, name, changed)
        try:
            assert game.digest() != before, f"changing {name} does not move the digest"
        finally:
            setattr(game, name, original)
        assert game.digest() == before


def test_a_new_attribute_is_state_at_once():
    game = table()
    before = game.digest()
    game.some_new_state = 3
    assert "some_new_state" in game.state_fields()
    assert game.digest() != before


# ----------------------------------------------------------------- option ids -----------------
def test_an_option_id_of_an_unknown_shape_is_a_violation():
    game = table("Tiger Assassin")
    assert check(game) == []
    dummy = card(game, "Dummy", "hand")
    game.pending.options.append(Option(f"x{dummy}", "a card under a new prefix", card=dummy))
    assert any("unknown shape" in p for p in check(game))
    game.pending.options[-1] = Option(f"c{dummy + 1}", "a card id naming another card",
                                      card=dummy)
    assert any("names card" in p for p in check(game))
