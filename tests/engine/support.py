"""Shared instruments of the rules tests: a test registry with tiny test-only cards and bases, a
snapshot of everything a refused choice must leave alone, and a bot driver.

The test registry holds every real card and base (Aliens, Ninjas, the Core bases) plus test-only
content that no real game can reach: it lives in its own `Registry`, never in `REGISTRY`.
"""
from __future__ import annotations

import random

import smashup.cards  # noqa: F401  (fills REGISTRY)
from smashup.engine import ACTION, MINION, REGISTRY, Faction, base
from smashup.engine.bots import random_choice
from smashup.engine.invariants import check
from smashup.engine.registry import Registry
from smashup.engine.testing import snapshot  # noqa: F401  (re-exported for the rules tests)

ALIENS_NINJAS = ("Aliens", "Ninjas")
NINJAS_ALIENS = ("Ninjas", "Aliens")
# Four players need five bases: the implemented Core bases plus a test-only filler base.
WITH_FILLER = ["core", "core-filler"]
EVENT_KINDS = ("minion_played", "action_played", "destroyed", "returned", "moved", "placed",
               "discarded")


def two_player_config(**options) -> dict:
    config = {"players": [{"factions": list(ALIENS_NINJAS)}, {"factions": list(NINJAS_ALIENS)}]}
    config.update(options)
    return config


def config_for(n: int, **options) -> dict:
    pairs = [ALIENS_NINJAS, NINJAS_ALIENS]
    config = {"players": [{"factions": list(pairs[i % 2])} for i in range(n)]}
    config.update(options)
    return config


def _seen(game) -> list:
    # Where the recording base writes: a plain attribute of this test game.
    return game.__dict__.setdefault("seen", [])


def seen(game) -> list[tuple[str, str | None]]:
    """(event kind, card name) of every event the Observatory saw, in order."""
    return list(_seen(game))


def build_test_registry() -> Registry:
    r = Registry()
    r.cards.update(REGISTRY.cards)
    r.bases.update(REGISTRY.bases)
    r.factions.update(REGISTRY.factions)

    # A fifth Core base so that four players (five bases) can play while only four real Core bases
    # are implemented. No ability.
    base("Filler Field", "core-filler", 20, (3, 2, 1), text="No ability.", registry=r)

    testers = Faction("Testers", set="testset", registry=r)
    base("Test Arena", "testset", 15, (3, 2, 1), text="No ability.", registry=r)

    @testers.action("Pep Talk", text="A minion gets +3 power until the end of the turn.")
    def pep_talk(ctx):
        target = yield from ctx.choose_minion(ctx.minions(), "Which minion gets +3 power?")
        if target is not None:
            ctx.power_until_end_of_turn(target, 3)

    reader = testers.minion("Bookworm", power=1, text="Talent: draw a card.")

    @reader.talent_ability()
    def bookworm_reads(ctx):
        ctx.draw(ctx.me, 1)
        yield from ()

    night_reader = testers.minion("Night Owl", power=1, text=(
        "Ongoing: at the end of each turn, its controller draws three cards."))

    @night_reader.trigger("turn_end")
    def night_owl_reads(ctx, event):
        ctx.draw(ctx.me, 3)
        yield from ()

    @testers.action("Double Feature", text="Play an extra minion and an extra action this turn.")
    def double_feature(ctx):
        yield from ctx.grant_extra(MINION)
        yield from ctx.grant_extra(ACTION)

    @testers.action("Encore", text="Play two extra actions this turn.")
    def encore(ctx):
        yield from ctx.grant_extra(ACTION)
        yield from ctx.grant_extra(ACTION)

    # Only actions: every opening hand lacks a minion, so the mulligan is always offered.
    paper = Faction("Paper Pushers", set="testset", registry=r)
    paper.action("Memo", copies=20, text="No effect.")
    clerks = Faction("Clerks", set="testset", registry=r)
    clerks.action("Form", copies=20, text="No effect.")

    # The recorder: a base with no rule of its own that notes every event of the game.
    observatory = base("Observatory", "testset", 99, (1, 1, 1), text="Notes every event.",
                       registry=r)
    for kind in EVENT_KINDS:
        def note(ctx, event, kind=kind):
            name = ctx.game.name(event.card) if event.card is not None else None
            _seen(ctx.game).append((kind, name))
            yield from ()

        observatory.trigger(kind)(note)

    # The loop: after a minion is moved onto Ping it moves to Pong, and back again. Without the
    # finite-abilities cap (game.TRIGGER_LIMIT) this would never end.
    for here, there in (("Ping", "Pong"), ("Pong", "Ping")):
        bdef = base(here, "loop", 99, (1, 1, 1), text=f"After a minion moves here, move it to {there}.",
                    registry=r)

        def bounce(ctx, event, there=there):
            target = next(s.uid for s in ctx.game.bases if ctx.game.name(s.card) == there)
            yield from ctx.move(event.card, target)

        bdef.trigger("moved", applies=lambda g, c, e: g.loc[c] == ("base", e.base))(bounce)
    return r


TEST_REGISTRY = build_test_registry()


def run_random(game, seed: int, max_steps: int = 3000, checks: bool = True) -> int:
    """Play random legal choices to the end (or `max_steps`); assert the invariants after each."""
    rng = random.Random(seed)
    steps = 0
    while game.pending is not None and steps < max_steps:
        before = [p.vp for p in game.players]
        d = game.pending
        game.apply(d.seat, d.id, random_choice(game, rng))
        steps += 1
        if checks:
            problems = check(game, before)
            assert not problems, (steps, problems)
    return steps
