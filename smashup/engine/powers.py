"""Power and breakpoints, derived on demand and kept per board version.

- Power (WWWT "Terms and Restrictions", Power: printed power + power counters + every active
  modifier, never below 0; a change of power is an affect, so a protected minion ignores it):
  `power` reads it, counted a base at a time (`_count_base`) from the modifiers working at this
  board version (`_working_modifiers`) and the lasting power changes in force; `power_now`
  counts one afresh (the invariants and VERIFY_POWERS compare both).
- Breakpoints (WWWT "Terms": a base's breakpoint is never reduced below 0; the clarification on
  Turn Up to 11: the other changes apply from the new start): `breakpoint`, `starting_breakpoint`.
- A base's total power (CR "Phase 3: Score Bases": a base is ready when its total power reaches
  its breakpoint), kept per base like power: `total_power`.

What keeps them: `GameState.version` and its upkeep (state.py: `_board_moved`, `changed`,
`_new_power_version`, `_note_turn`). Compiled, `game` is typed GameState (power.pxd) and the hot
reads are C functions the other rule modules cimport.
"""
from __future__ import annotations

import cython

from .core import EngineError, MinionState
from .effects import Ctx
from .protections import ability_active, affects, base_active, cancelled_cards, card_ctx
from .registry import BaseDef, _Declares
from .state import _BASE, _MOVED_MODIFIER, BaseSlot, GameState

# A switch for tests (tests/*/conftest.py), a module global because the compiled Game is a type
# that cannot be patched: every power read from the cache is compared with one computed afresh,
# so a change that forgot `changed()` fails the test that made it.
VERIFY_POWERS = False


def power(game, cid: int) -> int:
    """Current power: printed + counters + every active modifier, never below 0 (WWWT).
    Computed once per `version` (`power_now` does the work), a base at a time: a minion's
    power is rarely read alone (a base's total, the powers where a minion entered, the
    minions offered as targets), so its neighbours are counted with it (`_count_base`)."""
    if game._turn_seen is not game.turn_state or game._seat_seen != game.current:
        game._note_turn()
    if game._powers_version != game.version:
        game._new_power_version()
    zone = game.loc[cid]
    if zone[0] != "minion":
        return _count_power(game, cid)  # out of a base: printed, rarely asked
    known = game._powers.get(zone[1])
    if known is None:
        game._count_base(game.slot(zone[1]))
        return game._powers[zone[1]][cid]
    value = known[cid]
    if VERIFY_POWERS and value != power_now(game, cid):
        raise EngineError(f"{game.name(cid)}'s power is stale: {value}, now "
                          f"{power_now(game, cid)} (a change that did not call "
                          "Game.changed)")
    return value


@cython.locals(here=BaseSlot)
def _count_base(game, slot: BaseSlot) -> int:
    """Count (`_count_power`) the power of every minion on `slot`, in one pass, kept for this
    version (`_powers`, `_totals`); returns their total."""
    here = slot
    game._counting += 1  # the flags its modifiers read are noted (`Ctx.flag`)
    try:
        total = _count_minions(game, here)
    finally:
        game._counting -= 1
    game._totals[here.uid] = total
    return total


@cython.locals(state=MinionState, powers=dict, states=dict, defs=list, here=BaseSlot,
               anyone=list, targeted=dict, entries=list, bonuses=dict, d=_Declares)
def _count_minions(game, slot: BaseSlot) -> int:
    here = slot
    powers = game._powers[here.uid] = {}
    defs = game.defs
    states = game.minion_state
    anyone = targeted = None
    if game.modifier_sources:
        anyone, targeted = _working_modifiers(game)
    bonuses = _lasting_bonuses(game) if game.lasting else None
    total = 0
    for m in here.minions:
        state = states.get(m)
        d = defs[m]
        if state is None:
            value = d.power
        else:
            value = d.power + state.counters
            if anyone is not None:
                entries = targeted.get(m, anyone) if targeted else anyone
                for source, modifier, ctx, ctrl in entries:
                    delta = modifier(ctx, m)
                    # A change of power is an affect (WWWT "Affect"): a protected minion
                    # ignores it; a base's modifier is nobody's card.
                    if delta and (ctrl is _BASE or affects(game, source, ctrl, m)):
                        value += delta
            if bonuses:
                value += bonuses.get(m, 0)
            if value < 0:
                value = 0
        powers[m] = value
        total += value
    return total


def _count_power(game, cid: int) -> int:
    # power_now, with the modifiers working at this version listed once (_modifiers_now).
    game._counting += 1  # the flags its modifiers read are noted (`Ctx.flag`)
    try:
        return _count_one(game, cid)
    finally:
        game._counting -= 1


@cython.locals(d=_Declares)
def _count_one(game, cid: int) -> int:
    state = game.minion_state.get(cid)
    d = game.defs[cid]
    if state is None:
        return d.power
    total = d.power + state.counters
    if game.modifier_sources:
        anyone, targeted = _working_modifiers(game)
        for source, modifier, ctx, ctrl in (targeted.get(cid, anyone) if targeted
                                            else anyone):
            delta = modifier(ctx, cid)
            # A change of power is an affect (WWWT "Affect"): a protected minion ignores it;
            # a base's modifier is nobody's card.
            if delta and (ctrl is _BASE or affects(game, source, ctrl, cid)):
                total += delta
    if game.lasting:
        total += _lasting_bonuses(game).get(cid, 0)
    return total if total > 0 else 0


def _working_modifiers(game) -> tuple[list, dict]:
    """`_modifiers_now`, listed once per version (kept through a local change that leaves it
    as it was: `_working_kept`)."""
    if game._modifiers_version != game.version:
        if not game._working_kept(game._modifiers_version, _MOVED_MODIFIER):
            game._modifiers = _modifiers_now(game)
        game._modifiers_version = game.version
    return game._modifiers


@cython.locals(sdef=_Declares)
def _modifiers_now(game) -> tuple[list, dict]:
    """(source, its modifier, its Ctx, its controller or _BASE) of every power modifier working
    now: a card in play's, or an active base's. Split by reach (`CardDef.modifier_to`): those
    that may change any minion, and per minion, those plus the ones that may change only it
    (itself, its host, the minions here); a minion not in that map is changed only by the
    first list."""
    anyone = []
    targeted: dict[int, list] = {}
    here: set = set()  # the bases "here" modifiers reach: their minions are listed
    loc = game.loc
    cancelled = cancelled_cards(game)  # none cancelled: every card in play works
    for source in game.modifier_sources:
        zone = loc[source]
        sdef = game.defs[source]
        modifier = sdef.power_modifier
        if zone[0] == "base":
            if not base_active(game, game.slot(zone[1])):
                continue
            entry = (source, modifier, Ctx(game, source, game.current, zone[1]), _BASE)
        else:
            if cancelled and not ability_active(game, source):
                continue
            ctrl = game.controller(source)
            entry = (source, modifier, Ctx(game, source, ctrl), ctrl)
        to = sdef.modifier_to
        if to is None:
            anyone.append(entry)
            for entries in targeted.values():
                entries.append(entry)
            continue
        if to == "itself":
            reach = (source,) if zone[0] == "minion" else ()
        elif to == "host":
            reach = (zone[1],) if zone[0] == "attached" else ()
        else:  # "here"
            uid = zone[1] if zone[0] != "attached" else game.base_of(zone[1])
            reach = game.slot(uid).minions if uid is not None else ()
            here.add(uid)
        for m in reach:
            entries = targeted.get(m)
            if entries is None:
                entries = targeted[m] = list(anyone)
            entries.append(entry)
    game._here_bases = frozenset(here)
    return anyone, targeted


def _lasting_bonuses(game) -> dict:
    """The lasting power changes in force at this version, summed per minion."""
    bonuses = game._bonuses
    if bonuses is None:
        bonuses = game._bonuses = {}
        for eff in game.lasting:
            if eff.kind == "power" and game.lasting_active(eff):
                bonuses[eff.target] = bonuses.get(eff.target, 0) + eff.amount
    return bonuses


def power_now(game, cid: int) -> int:
    """Power computed afresh from the board (`power` keeps it per `version`; the invariants
    compare both after every step of a simulated game). What modifiers ask `Ctx.controls`
    is asked afresh too (its answers are kept per version like power)."""
    game._controls_known = (-1, None)
    game._counting += 1  # the flags its modifiers read are noted (`Ctx.flag`)
    try:
        return _fresh_power(game, cid)
    finally:
        game._counting -= 1


@cython.locals(defn=_Declares, sdef=_Declares)
def _fresh_power(game, cid: int) -> int:
    defn = game.defs[cid]
    state = game.minion_state.get(cid)
    if state is None:
        return defn.power
    total = defn.power + state.counters
    for source in game.modifier_sources:
        sdef = game.defs[source]
        zone = game.loc[source]
        if zone[0] == "base":
            if base_active(game, game.slot(zone[1])):
                total += sdef.power_modifier(Ctx(game, source, game.current, zone[1]), cid)
            continue
        if not ability_active(game, source, fresh=True):
            continue
        ctrl = game.controller(source)
        delta = sdef.power_modifier(Ctx(game, source, ctrl), cid)
        # A change of power is an affect (WWWT "Affect"): a protected minion ignores it.
        if delta and affects(game, source, ctrl, cid):
            total += delta
    for eff in game.lasting:
        if eff.kind == "power" and eff.target == cid and game.lasting_active(eff):
            total += eff.amount
    return max(0, total)


@cython.locals(game=GameState)
def player_power(game, uid: int, seat: int) -> int:
    slot = game.slot(uid)
    return sum([power(game, m) for m in slot.minions if game.minion_state[m].controller == seat])


def total_power(game, slot: BaseSlot) -> int:
    """The power of every minion here, kept per `version` like power (scoring checks every
    base after every turn; `VERIFY_POWERS` checks each power read instead)."""
    if game._turn_seen is not game.turn_state or game._seat_seen != game.current:
        game._note_turn()
    if game._powers_version != game.version:
        game._new_power_version()
    known = game._totals.get(slot.uid)
    if known is None:
        return game._count_base(slot)
    if VERIFY_POWERS:
        fresh = sum([power_now(game, m) for m in slot.minions])
        if known != fresh:
            raise EngineError(f"{game.name(slot.card)}'s total power is stale: {known}, now "
                              f"{fresh} (a change that did not call Game.changed)")
    return known


@cython.locals(bdef=BaseDef, sdef=_Declares)
def breakpoint(game, slot: BaseSlot) -> int:
    """A base's breakpoint now, derived on demand like power: its starting value (printed,
    unless a card in play sets another: Turn Up to 11), then every modifier of a card in
    play and every active lasting "breakpoint" change (Rampage), never below 0 (WWWT: "base
    breakpoint is never reduced below zero"; the clarification on Turn Up to 11: the other
    changes still apply, counted from the new start). Scoring readiness, views and cards
    all read it here. Read while power is counted, it is noted (`_breakpoints_read`): a
    lasting breakpoint change then counts power afresh."""
    if game._counting:
        game._breakpoints_read = True
    bdef = game.base_def(slot)
    value = bdef.breakpoint
    if game.breakpoint_sources:
        value, delta = starting_breakpoint(game, slot), 0
        for source in game.breakpoint_sources:
            sdef = game.defs[source]
            if sdef.breakpoint_modifier is not None and ability_active(game, source):
                delta += sdef.breakpoint_modifier(card_ctx(game, source), slot.uid)
        value += delta
    if game.lasting:
        for eff in game.lasting:
            if (eff.kind == "breakpoint" and eff.target == slot.card
                    and game.lasting_active(eff)):
                value += eff.amount
    return max(0, value)


@cython.locals(sdef=_Declares)
def starting_breakpoint(game, slot: BaseSlot) -> int:
    """A base's starting breakpoint: printed, or what a card in play sets it to. Several
    that set it: the catalog lets the current player choose which prevails; a breakpoint
    is read between questions, so the engine takes the highest, which is every such
    choice within these boxes (only Turn Up to 11 sets one, to 21)."""
    printed = game.base_def(slot).breakpoint
    starts = []
    for source in game.breakpoint_sources:
        sdef = game.defs[source]
        if sdef.starting_breakpoint is not None and ability_active(game, source):
            start = sdef.starting_breakpoint(card_ctx(game, source), slot.uid)
            if start is not None:
                starts.append(start)
    return max(starts) if starts else printed
