"""Cancelled means as if it did not exist, for every kind of hook (WWWT "Cancel"; issue 24,
mechanism 1). Every field of a card's and a base's definition is classified in the registry
(`CARD_FIELDS`, `BASE_FIELDS`): a hook that works in play must pass the one gate
(`protections.ability_active`; a base: `base_active`). This file holds one probe per such hook:
a test-only card or base with that hook, which must act while it works and do nothing once its
abilities are cancelled. A field added to CardDef or BaseDef fails here until it is classified,
and a hook that works in play fails until its cancelled case is written and passes."""

from __future__ import annotations

import dataclasses

import pytest

from smashup.engine import MINION, Ctx, Faction, Scenario, base
from smashup.engine.core import Lasting, Play
from smashup.engine.plays import PlayFinder
from smashup.engine.registry import BASE_FIELDS, CARD_FIELDS, WORKS_IN_PLAY, BaseDef, CardDef
from smashup.engine.restrictions import play_barrier
from smashup.engine.scoring import Scoring, placement_vp_change
from smashup.engine.testing import card, end_play

from .support import PIRATES_ROBOTS, note_ran, registry_with_test_cards


def _registry():
    r = registry_with_test_cards()
    probes = Faction("Probes", set="testset", registry=r)

    talker = probes.minion("Talker", power=1, text="Talent: draw a card.")
    talker.talent_ability(usable=lambda ctx: True)(lambda ctx: ctx.draw(ctx.me, 1))

    watcher = probes.minion("Watcher", power=1, text="Ongoing: after a minion is played, gain 1 VP.")
    watcher.trigger("minion_played", applies=lambda ctx, e: e.card != ctx.card)(
        lambda ctx, e: ctx.gain_vp(ctx.me, 1)
    )

    lookout = probes.minion("Lookout", power=1, text="Special: at the start of your turn, draw.")
    lookout.special("turn_start", zone="play")(lambda ctx, w: ctx.draw(ctx.me, 1))

    drummer = probes.minion("Drummer", power=1, text="Ongoing: this minion has +1 power.")
    drummer.modifier(to="itself")(lambda ctx, m: 1 if m == ctx.card else 0)

    amp = probes.action("Amp", attach="base", text="Ongoing: this base's breakpoint starts at 30.")
    amp.sets_starting_breakpoint(lambda ctx, uid: 30 if uid == ctx.here else None)

    lighthouse = probes.minion("Lighthouse", power=1, text="Ongoing: this base's breakpoint -5.")
    lighthouse.modifies_breakpoint(lambda ctx, uid: -5 if uid == ctx.here else 0)

    tollman = probes.minion("Tollman", power=1, text="Ongoing: +1 placement VP to you here.")
    tollman.modifies_placement_vp(lambda ctx, sc, seat: 1 if seat == ctx.me else 0)

    shield = probes.minion("Shield", power=1, text="Ongoing: this minion cannot be destroyed.")
    shield.protection("destroy")(lambda ctx, m: m == ctx.card)

    stand_in = probes.minion(
        "Stand-In",
        power=1,
        text=("Ongoing: if this minion would be destroyed, return it to your hand instead."),
    )

    @stand_in.replacement("destroy", applies=lambda ctx, m: m == ctx.card)
    def stand_in_leaves(ctx, m):
        yield from ctx.return_to_hand(m)
        return True

    gatekeeper = probes.minion("Gatekeeper", power=1, text="Ongoing: no minion is played here.")
    gatekeeper.restriction(lambda ctx, play: play.kind == MINION and play.base == ctx.here)

    doorman = probes.minion("Doorman", power=1, text="Ongoing: no minion is played here.")
    doorman.restriction(here=True)(lambda ctx, play: play.kind == MINION and play.base == ctx.here)

    picket = probes.minion("Picket", power=1, text="Ongoing: no minion is played on another base.")
    picket.restriction(elsewhere=True)(
        lambda ctx, play: play.kind == MINION and play.base not in (None, ctx.here))

    probes.action("Jammer", attach="base", cancels_base=True, text="Ongoing: cancels this base.")
    probes.action("Muzzle", attach="minion", cancels_host=True, text="Ongoing: cancels its host.")

    wings = probes.action("Wings", attach="minion", host_ability=True, text="It gains a talent.")
    wings.talent_ability()(lambda ctx: ctx.draw(ctx.me, 1))

    probes.minion("Recruiter", power=1, text="Ongoing: an extra minion each turn.").grants_each_turn(MINION)

    necromancer = probes.minion(
        "Necromancer", power=1, text=("Ongoing: you may play minions from your discard pile.")
    )
    necromancer.play_source("discard")

    # A base for each base hook. Breakpoint 1: a minion on it makes it score.
    def probe_base(name, **kw):
        return base(name, "testset", kw.pop("breakpoint", 1), (3, 2, 1), registry=r, text=name)

    on_watch = probe_base("Watched Base", breakpoint=99)
    on_watch.trigger("minion_played")(lambda ctx, e: ctx.gain_vp(e.player, 1))

    refuge = probe_base("Refuge", breakpoint=99)

    @refuge.replacement("destroy", applies=lambda ctx, m: ctx.base_of(m) == ctx.here)
    def refuge_saves(ctx, m):
        yield from ctx.return_to_hand(m)
        return True

    probe_base("Recruiting Base", breakpoint=99).grants_each_turn(MINION, here=True)
    step = probe_base("Scoring Base")
    for hook in ("before_scoring", "when_scoring", "after_scoring"):
        step.hook(hook)(lambda ctx, sc, hook=hook: note_ran(ctx, hook))
    step.hook("replace_from")(lambda ctx, sc: note_ran(ctx, "replace_from"))
    step.hook("after_replaced")(lambda ctx, sc, new: note_ran(ctx, "after_replaced"))
    probe_base("Stage", breakpoint=99).modifier(to="here")(
        lambda ctx, m: 1 if ctx.base_of(m) == ctx.here else 0
    )
    probe_base("Dawn Base", breakpoint=99).hook("at_turn_start")(
        lambda ctx, seat: note_ran(ctx, "at_turn_start")
    )
    probe_base("Sanctuary", breakpoint=99).protection("destroy")(lambda ctx, m: ctx.base_of(m) == ctx.here)
    return r


REG = _registry()
FACTIONS = [("Probes", "Aliens"), PIRATES_ROBOTS]


def board(*minions, base_name="Jungle Oasis", actions=(), hand=("Scout",), discard=()):
    """Seat 0 to play; `minions` (name, owner[, attached]) and `actions` (name, owner) on the first
    base; a second base to play elsewhere."""
    s = Scenario(FACTIONS)
    first = s.base(base_name)
    s.base("The Central Brain")
    for name, owner, *attached in minions:
        s.minion(first, name, owner=owner, attached=attached[0] if attached else ())
    for name, owner in actions:
        s.base_action(first, name, owner=owner)
    s.hand(0, *hand)
    s.discard(0, *discard)
    s.hand(1, "Collector")
    s.deck(0, *["Scout"] * 6)
    s.deck(1, *["Scout"] * 6)
    s.base_deck("Rhodes Plaza Mall", "The Homeworld")
    return s.build(REG)


def cancel(game, cid):
    """The abilities of a card in play cancelled for good (as Mind Lady's, without an end)."""
    game.lasting.append(Lasting("cancel_abilities", cid, ends=None, on_card=True))
    game.changed()


def cancel_base(game, uid):
    game.lasting.append(Lasting("cancel_base", uid, ends=None))
    game.changed()


def first_base(game):
    return game.bases[0]


def play_scout(game, where=0):
    d = game.pending
    scout = card(game, "Scout", "hand")
    [opt] = [o for o in d.options if o.card == scout and o.base == game.bases[where].uid]
    game.apply(d.seat, d.id, [opt.id])


# ---------------------------------------------------------------- card hooks ------------------
def talent(cancelled):
    game = board(("Talker", 0))
    if cancelled:
        cancel(game, card(game, "Talker"))
    return card(game, "Talker") in game.talents_usable(0)


def triggers(cancelled):
    game = board(("Watcher", 0))
    if cancelled:
        cancel(game, card(game, "Watcher"))
    play_scout(game, 1)
    return game.players[0].vp == 1


def specials(cancelled):
    game = board(("Lookout", 0))
    if cancelled:
        cancel(game, card(game, "Lookout"))
    return bool(game._usable_specials(0, "turn_start", None, zone="play"))


def power_modifier(cancelled):
    game = board(("Drummer", 0))
    if cancelled:
        cancel(game, card(game, "Drummer"))
    return game.power(card(game, "Drummer")) == 2


def starting_breakpoint(cancelled):
    game = board(actions=[("Amp", 0)])
    if cancelled:
        cancel(game, card(game, "Amp"))
    return game.breakpoint(first_base(game)) == 30


def breakpoint_modifier(cancelled):
    game = board(("Lighthouse", 0))
    if cancelled:
        cancel(game, card(game, "Lighthouse"))
    return game.breakpoint(first_base(game)) == 12 - 5


def placement_vp_modifier(cancelled):
    game = board(("Tollman", 0))
    if cancelled:
        cancel(game, card(game, "Tollman"))
    return placement_vp_change(game, Scoring(first_base(game), first_base(game).card), 0) == 1


def protections(cancelled):
    game = board(("Shield", 0))
    if cancelled:
        cancel(game, card(game, "Shield"))
    return not game.affects(None, 1, card(game, "Shield"), "destroy")


def replacements(cancelled):
    game = board(("Stand-In", 0))
    stand_in = card(game, "Stand-In")
    if cancelled:
        cancel(game, stand_in)
    list(Ctx(game, card(game, "Scout", "hand"), 1).destroy(stand_in))
    return game.loc[stand_in] == ("hand", 0)


def restrictions(cancelled):
    game = board(("Gatekeeper", 1))
    if cancelled:
        cancel(game, card(game, "Gatekeeper"))
    play = Play(0, card(game, "Scout", "hand"), MINION, "hand", first_base(game).uid)
    return game.forbids(play) is not None


def restrictions_here(cancelled):
    game = board(("Doorman", 1))
    if cancelled:
        cancel(game, card(game, "Doorman"))
    barred = play_barrier(game, 0)
    play = Play(0, card(game, "Scout", "hand"), MINION, "hand", first_base(game).uid)
    return barred is not None and barred(play)


def restrictions_elsewhere(cancelled):
    game = board(("Picket", 1))
    if cancelled:
        cancel(game, card(game, "Picket"))
    barred = play_barrier(game, 0)
    other = [s.uid for s in game.bases if s.uid != first_base(game).uid][0]
    play = Play(0, card(game, "Scout", "hand"), MINION, "hand", other)
    return barred is not None and barred(play)


def cancels_base(cancelled):
    game = board(actions=[("Jammer", 1)])
    if cancelled:
        cancel(game, card(game, "Jammer"))
    return not game.base_active(first_base(game))


def cancels_host(cancelled):
    game = board(("Drummer", 0, [("Muzzle", 1)]))
    if cancelled:
        cancel(game, card(game, "Muzzle"))
    return game.power(card(game, "Drummer")) == 1


def host_ability(cancelled):
    # The ability Wings gives its host goes with the host's: here "cancelled" is the host.
    game = board(("Scout", 0, [("Wings", 0)]))
    if cancelled:
        cancel(game, card(game, "Scout", "minion"))
    return card(game, "Wings") in game.talents_usable(0)


def turn_grants(cancelled):
    game = board(("Recruiter", 0))
    if cancelled:
        cancel(game, card(game, "Recruiter"))
    return [g.source for g in PlayFinder(game, 0)._turn_grants()] == ["Recruiter"]


def play_sources(cancelled):
    game = board(("Necromancer", 0), discard=("Invader",))
    if cancelled:
        cancel(game, card(game, "Necromancer"))
    return any(p.zone == "discard" for p in game.legal_plays(0))


CARD_PROBES = {
    "talent": talent,
    "talent_usable": talent,
    "triggers": triggers,
    "specials": specials,
    "power_modifier": power_modifier,
    "starting_breakpoint": starting_breakpoint,
    "breakpoint_modifier": breakpoint_modifier,
    "placement_vp_modifier": placement_vp_modifier,
    "protections": protections,
    "replacements": replacements,
    "restrictions": restrictions,
    "restrictions_here": restrictions_here,
    "restrictions_elsewhere": restrictions_elsewhere,
    "cancels_base": cancels_base,
    "cancels_host": cancels_host,
    "host_ability": host_ability,
    "turn_grants": turn_grants,
    "play_sources": play_sources,
}


# ---------------------------------------------------------------- base hooks ------------------
def _base_game(name, cancelled, *minions, hand=("Scout",)):
    game = board(*minions, base_name=name, hand=hand)
    if cancelled:
        cancel_base(game, first_base(game).uid)
    return game


def base_triggers(cancelled):
    game = _base_game("Watched Base", cancelled)
    play_scout(game, 0)
    return game.players[0].vp == 1


def base_replacements(cancelled):
    game = _base_game("Refuge", cancelled, ("Invader", 1))
    invader = card(game, "Invader", "minion")
    list(Ctx(game, card(game, "Scout", "hand"), 0).destroy(invader))
    return game.loc[invader] == ("hand", 1)


def base_turn_grants(cancelled):
    game = _base_game("Recruiting Base", cancelled)
    return [g.source for g in PlayFinder(game, 0)._turn_grants()] == ["Recruiting Base"]


def _scored(cancelled):
    game = _base_game("Scoring Base", cancelled, ("Invader", 0))
    end_play(game)
    return getattr(game, "ran", [])


def base_power_modifier(cancelled):
    game = _base_game("Stage", cancelled, ("Invader", 0))
    return game.power(card(game, "Invader", "minion")) == 4


def base_at_turn_start(cancelled):
    game = _base_game("Dawn Base", cancelled)
    end_play(game)
    return "at_turn_start" in getattr(game, "ran", [])


def base_protections(cancelled):
    game = _base_game("Sanctuary", cancelled, ("Invader", 1))
    return not game.affects(None, 0, card(game, "Invader", "minion"), "destroy")


BASE_PROBES = {
    "triggers": base_triggers,
    "replacements": base_replacements,
    "turn_grants": base_turn_grants,
    "before_scoring": lambda cancelled: "before_scoring" in _scored(cancelled),
    "when_scoring": lambda cancelled: "when_scoring" in _scored(cancelled),
    "after_scoring": lambda cancelled: "after_scoring" in _scored(cancelled),
    "replace_from": lambda cancelled: "replace_from" in _scored(cancelled),
    "after_replaced": lambda cancelled: "after_replaced" in _scored(cancelled),
    "power_modifier": base_power_modifier,
    "at_turn_start": base_at_turn_start,
    "protections": base_protections,
}


def test_every_field_of_a_card_and_a_base_is_classified():
    assert {f.name for f in dataclasses.fields(CardDef)} == set(CARD_FIELDS)
    assert {f.name for f in dataclasses.fields(BaseDef)} == set(BASE_FIELDS)


def test_every_hook_that_works_in_play_has_its_cancelled_case():
    assert set(CARD_PROBES) == {k for k, v in CARD_FIELDS.items() if v == WORKS_IN_PLAY}
    assert set(BASE_PROBES) == {k for k, v in BASE_FIELDS.items() if v == WORKS_IN_PLAY}


@pytest.mark.parametrize("hook", sorted(CARD_PROBES))
def test_a_card_hook_acts_while_it_works_and_not_once_cancelled(hook):
    probe = CARD_PROBES[hook]
    assert probe(cancelled=False), f"{hook}: the probe card does not act at all"
    assert not probe(cancelled=True), f"{hook}: a cancelled card still acts"


@pytest.mark.parametrize("hook", sorted(BASE_PROBES))
def test_a_base_hook_acts_while_it_works_and_not_once_cancelled(hook):
    probe = BASE_PROBES[hook]
    assert probe(cancelled=False), f"{hook}: the probe base does not act at all"
    assert not probe(cancelled=True), f"{hook}: a cancelled base still acts"
