"""Cancelled abilities, protections and replacements: what stops or changes an effect on a card.

- Cancel (WWWT "Terms and Restrictions", Cancel: a cancelled ability is treated as if it did not
  exist): one gate, `ability_active`, read by triggers, power and breakpoint modifiers,
  protections, replacements, restrictions, plays offered, talents and Specials in play; a base's
  is `base_active`. The cancelled cards are listed once per board version (`cancelled_cards`).
- Protections (WWWT "Affect"; a card "cannot be affected/destroyed/moved"): `affects`, asked by
  every verb that acts on a card in play before it acts, with the protections working listed
  once per board version (`_working_protections`).
- Replacements (WWWT "Instead"; the affected card's controller orders several, each applies once
  to an event): "instead of affecting" (`affect_replaced`, Hideout) and the "instead" of a
  destroy, move, return or place (`replace`).

Compiled, `game` is typed GameState (protections.pxd) and the hot reads are C functions that the
other rule modules call directly.
"""
from __future__ import annotations

import cython

from .core import (
    ACTION,
    BASE,
    EXACT_CORNERS,
    MINION,
    Affect,
    EngineError,
    Event,
    Option,
    card_option_id,
)
from .decisions import _drives
from .effects import Ctx
from .registry import CardDef, Protection, _Declares
from .state import _MOVED_PROTECTOR, _NOTHING, IN_PLAY_ZONES, BaseSlot, GameState


@cython.locals(s=BaseSlot, d=CardDef)
def base_active(game, slot: BaseSlot) -> bool:
    """False while the base's abilities are cancelled (Jammed Signal, Infiltrate...)."""
    s = slot
    for a in s.actions:
        d = game.defs[a]  # an action on the base
        if d.cancels_base and ability_active(game, a):
            return False
    for eff in game.lasting:
        if eff.kind == "cancel_base" and eff.target == s.uid:
            return False
    return True


@cython.locals(d=CardDef)
def ability_active(game, cid: int, fresh: bool = False) -> bool:
    """The one gate of "is this card's ability working" (WWWT "Cancel": a cancelled ability
    is treated as if it did not exist), read by triggers, power and breakpoint modifiers,
    protections, replacements, restrictions, plays offered, talents and Specials in play.
    A base in play: `base_active`. A card in play: not in `cancelled_cards` (Cuddle, My Only
    Weakness!, Mind Lady). An action attached to a minion keeps its own abilities when the
    minion's are cancelled (WWWT clarification, Cuddle), unless they are abilities it gives
    the minion (`host_ability`: Flighterizer's kind). A card out of play: True (a Special in
    hand is never cancelled). `fresh`: counted afresh (`power_now`)."""
    zone = game.loc[cid]
    if zone[0] == "base":
        return base_active(game, game.slot(zone[1]))
    cancelled = _cancelled_now(game) if fresh else cancelled_cards(game)
    if not cancelled:
        return True
    if cid in cancelled:
        return False
    if zone[0] == "attached":
        d = game.defs[cid]  # an action on a minion
        if d.host_ability:
            return zone[1] not in cancelled
    return True


def cancelled_cards(game) -> frozenset:
    """The cards in play whose abilities are cancelled now, kept per board version: hosts of
    an attached action that `cancels_host` (itself working), and targets of an active lasting
    "cancel_abilities" (`Ctx.cancel_abilities`)."""
    if not game.host_cancellers and not game.lasting:
        return _NOTHING
    if game._turn_seen is not game.turn_state or game._seat_seen != game.current:
        game._note_turn()
    if game._cancelled_version != game.version:
        if not game._working_kept(game._cancelled_version, 0):
            game._cancelled = _cancelled_now(game)
        game._cancelled_version = game.version
    return game._cancelled


def _cancelled_now(game) -> frozenset:
    found = set()
    for eff in game.lasting:
        if eff.kind == "cancel_abilities" and game.lasting_active(eff):
            found.add(eff.target)
    for a in game.host_cancellers:
        # A canceller whose own abilities are cancelled cancels nothing.
        state = game.action_state.get(a)
        if state is not None and state.host_kind == "minion" and a not in found:
            found.add(state.host)
    return frozenset(found) if found else _NOTHING


@cython.locals(game=GameState)
def note_cancel(game, uid: int | None, was_active: bool, source: int | None,
                player: int | None, card: int | None = None) -> None:
    """Announce that abilities became cancelled (WWWT "Cancel": treated as if they did not
    exist), as its own event `cancelled` (`card`: the cancelling card), distinct from anything
    done to a card: a base's (`uid`; an attached action such as Jammed Signal, one
    transferred onto it, a lasting cancel such as Infiltrate's) or a card's in play (`card`,
    named in data "target", `base` its base: Cuddle, Mind Lady). Only what was working
    announces it, so a second cancel of something already cancelled is silent."""
    if card is not None:
        if was_active and game.in_play(card) and not ability_active(game, card):
            game.emit(Event("cancelled", card=source, base=game.base_of(card), player=player,
                            data={"target": card}, by_card=source, by_player=player))
        return
    slot = game.slot_or_none(uid)
    if was_active and slot is not None and not base_active(game, slot):
        game.emit(Event("cancelled", card=source, base=uid, player=player, by_card=source,
                        by_player=player))


def card_ctx(game, cid: int, seat: int | None = None) -> Ctx:
    """The Ctx a card's predicates get: you are its controller (a base: the current player;
    a card out of play: its owner), here is its base."""
    if seat is None:
        # `controller`, inlined: predicates of every card ask for this.
        state = game.minion_state.get(cid)
        if state is None:
            state = game.action_state.get(cid)
        seat = state.controller if state is not None else None
        if seat is None:
            seat = game.owner[cid] if game.owner[cid] is not None else game.current
    return Ctx(game, cid, seat)


@cython.locals(prot=Protection, sdef=_Declares)
def affects(game, source: int | None, source_player: int | None, target: int,
            kind: str = "affect") -> bool:
    """Whether an ability of `source` (controlled by `source_player`; None for a base's or
    the rules') may do `kind` to `target`: "affect" (anything), or "destroy"/"move" (also
    stopped by "cannot be destroyed/moved"). Typed protections (registry.Protection), and
    the cards an ability was told not to affect (`Ctx.unaffected_by`: Hideout)."""
    if game.lasting and source is not None:
        for eff in game.lasting:
            if (eff.kind == "unaffected_by" and eff.target == source
                    and target in eff.data["cards"]):
                return False
    if not game.protectors:
        return True
    sdef = None
    for prot, ctx, protector_ctrl in _working_protections(game):
        if prot.kind != "affect" and prot.kind != kind:
            continue
        if prot.only is not None:
            if source is None:
                continue
            if sdef is None:
                sdef = game.defs[source]
            if sdef.kind != (ACTION if prot.only == "actions" else MINION):
                continue
        if prot.from_ == "other_players_cards":
            if game.resolution >= EXACT_CORNERS:
                # The card whose ability it is, and who controls that card: a base's ability
                # is nobody's card, even performed by a player (The Deep).
                if source is None:
                    continue
                if sdef is None:
                    sdef = game.defs[source]
                if sdef.kind == BASE:
                    continue
                card_player = game.controller(source)
                if card_player is None:  # not in play: a resolving action, last words
                    card_player = source_player
                if card_player is None or card_player == protector_ctrl:
                    continue
            elif source_player is None or source_player == protector_ctrl:
                continue  # resolution 2 read it as "by other players"
        elif prot.from_ == "other_players":
            if source_player is None or source_player == protector_ctrl:
                continue
        elif prot.from_ == "not_its_controller":
            if source_player is not None and source_player == game.controller(target):
                continue
        if prot.covers(ctx, target):
            return False
    return True


@cython.locals(d=_Declares)
def _working_protections(game) -> list[tuple]:
    """(protection, its card's Ctx, that card's controller) of every protection working now,
    in the order of `protectors`, listed once per `version` like the modifiers (and kept the
    same way, `_working_kept`): what makes
    one work (its card in play and not cancelled, its base's abilities working) and its
    Ctx's player (a base's: the current one, `_power_reads_turn`) are what power reads."""
    if game._turn_seen is not game.turn_state or game._seat_seen != game.current:
        game._note_turn()
    if game._protections_version == game.version:
        return game._protections
    if not game._working_kept(game._protections_version, _MOVED_PROTECTOR):
        found = []
        cancelled = cancelled_cards(game)
        for protector in game.protectors:
            if cancelled and not ability_active(game, protector):
                continue
            zone = game.loc[protector]
            if zone[0] == "base" and not base_active(game, game.slot(zone[1])):
                continue  # a cancelled base protects nothing (Converted Cave under Raze)
            ctx = card_ctx(game, protector)
            ctrl = game.controller(protector)
            d = game.defs[protector]
            for prot in d.protections:  # a loop: no closure in a C function
                found.append((prot, ctx, ctrl))
        game._protections = found
    game._protections_version = game.version
    return game._protections


@cython.locals(game=GameState)
def affect_replaced(game, source: int | None, source_player: int | None, target: int,
                    kind: str) -> bool:
    """"If this ability would affect that card, something else happens instead" (Hideout):
    the first card in play whose "affect" replacement applies to this attempt (core.Affect)
    runs it, and the effect does not happen (True). It asks nothing: it runs inside plain
    verbs (add_power, attach) as well as in the destroy/move/return/place pipeline, before
    their own replacements. A base's or the rules' doing (no source) is never replaced."""
    if not game.replacers or source is None:
        return False
    attempt = None
    for cid in list(game.replacers):
        if game.loc[cid][0] not in IN_PLAY_ZONES or not ability_active(game, cid):
            continue
        for rep in game.defs[cid].replacements:
            if rep.event != "affect":
                continue
            attempt = attempt or Affect(source, source_player, target, kind)
            ctx = card_ctx(game, cid)
            if not rep.applies(ctx, attempt):
                continue
            result = rep.run(ctx, attempt)
            if _drives(result):
                raise EngineError(f"{game.name(cid)}: an \"affect\" replacement cannot ask "
                                  "anything (use Ctx.at_once for a verb)")
            if game.dropped_effects:
                game.check_dropped()
            if result:
                return True
    return False


@cython.locals(game=GameState)
def replace(game, kind: str, target: int, by: Ctx):
    """The replacements ("instead") of `kind` ("destroy", "move", "return", "place") about to
    happen to `target` by `by`'s ability: every card in play and active base with one that
    applies (registry.Replacement). When several apply, the target's controller picks which
    goes first (WWWT: the affected player orders them; each applies once to this event). A
    replacement that declines or returns False lets the next one try. True: the event was
    replaced and does not happen."""
    if not game.replacers:
        return False
    found = []
    applied = by.applied
    for cid in list(game.replacers):
        zone = game.loc[cid]
        if zone[0] == "base":
            if not base_active(game, game.slot(zone[1])):
                continue
            ctx = Ctx(game, cid, game.current, zone[1])
        elif not ability_active(game, cid):
            continue
        else:
            ctx = card_ctx(game, cid)
        for i, rep in enumerate(game.defs[cid].replacements):
            if (rep.event == kind and (cid, i, target) not in applied
                    and rep.applies(ctx, target)):
                found.append((cid, i, rep))
    chooser = game.controller(target)
    chooser = game.current if chooser is None else chooser
    while found:
        if len(found) == 1:
            cid, i, rep = found.pop()
        else:
            options = [Option(card_option_id("s", c, index=i), game.name(c), card=c)
                       for c, i, _ in found]
            chosen = yield from game.ask(
                chooser, "order", "Several effects would happen instead: pick the first",
                options)
            index = options.index(chosen[0])
            cid, i, rep = found.pop(index)
        if game.loc[target][0] not in IN_PLAY_ZONES:
            return True  # an earlier one took it away already
        zone = game.loc[cid]
        if zone[0] == "base":
            ctx = Ctx(game, cid, game.current, zone[1])
        elif zone[0] in IN_PLAY_ZONES and ability_active(game, cid):
            ctx = card_ctx(game, cid)
        else:
            continue  # its card left play (or was cancelled) meanwhile
        if not rep.applies(ctx, target):
            continue
        if rep.optional_label is not None:
            use = yield from game.ask_yes_no(ctx.me, rep.optional_label, source=cid)
            if not use:
                continue
        # What it does instead is not replaced by it again (each applies once to an event).
        ctx.applied = applied | {(cid, i, target)}
        replaced = yield from game.run_ability(rep.run, ctx, target)
        if replaced:
            return True
    return False
