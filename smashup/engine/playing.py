"""Playing a card: a minion onto a base, an action (attached to a minion or a base, or not), a
talent; the action discarded once it has resolved.

Rules implemented here: the community page's "Playing Cards" ("Playing Minions": onto a base, its
on-play ability resolving; "Playing Actions": revealed, its target chosen, resolved, then
discarded unless it stays in play attached), "Using Talents and 'On Your Turn' Abilities" (a
talent once per turn per card in play, `talents_usable`), WWWT "Card Resolution Order" step 5
(the action discarded, or where an ability sends it: `finish_action`), and WWWT "Terms" (a play
counts from the moment the card is revealed; an attached action is controlled by who played it).
Which plays are legal is plays.py; the main decision that offers them is options.py and turns.py.

Compiled, `game` is typed GameState (playing.pxd).
"""
from __future__ import annotations

import cython

from .core import (
    ACTION,
    MINION,
    ActionState,
    EngineError,
    Event,
    MinionState,
    Option,
    PlayRecord,
    card_option_id,
)
from .effects import Ctx, board_label
from .options import _mark_alike
from .powers import power as power_of
from .protections import ability_active, affects, base_active, card_ctx
from .registry import CardDef
from .state import GameState

# Where an action goes instead of its owner's discard pile (`Ctx.after_resolving`), for the log.
_DESTINATION_WORDS = {"hand": "into {p}'s hand", "deck_top": "on top of {p}'s deck",
                      "deck_bottom": "to the bottom of {p}'s deck"}


@cython.locals(defn=CardDef)
def attach_hosts(game, seat: int, cid: int) -> list[int]:
    """Legal hosts for an action that attaches: minion ids or base slot uids."""
    defn = game.defs[cid]
    filt = defn.attach_filter
    ctx = Ctx(game, cid, seat) if filt is not None else None
    if defn.attach == "minion":
        return [
            m
            for m in game.all_minions()
            if (filt is None or filt(ctx, m)) and affects(game, cid, seat, m)
        ]
    if defn.attach == "base":
        return [s.uid for s in game.bases if filt is None or filt(ctx, s.uid)]
    return []


@cython.locals(defn=CardDef)
def has_attach_host(game, seat: int, cid: int) -> bool:
    """Whether `attach_hosts` would name any host (stops at the first)."""
    defn = game.defs[cid]
    filt = defn.attach_filter
    if defn.attach == "minion":
        ctx = Ctx(game, cid, seat) if filt is not None else None
        for slot in game.bases:
            for m in slot.minions:
                if (filt is None or filt(ctx, m)) and affects(game, cid, seat, m):
                    return True
        return False
    if defn.attach == "base":
        if filt is None:
            return bool(game.bases)
        ctx = Ctx(game, cid, seat)
        return any([filt(ctx, s.uid) for s in game.bases])
    return False


@cython.locals(game=GameState)
def _note_play(game, seat: int, cid: int, kind: str, uid: int | None, extra: bool = False,
               special: bool = False, via: int | None = None, zone: str = "hand") -> None:
    game.turn_state.plays.append(PlayRecord(seat, cid, kind, uid, game.phase, extra, special,
                                            game.turn_state.seat, via, zone))


@cython.locals(game=GameState)
def play_minion(game, seat: int, cid: int, uid: int, extra: bool = False,
                special: bool = False, by_card: int | None = None, via: int | None = None,
                as_kind: str = MINION):
    """Play a minion from wherever it is onto a base and resolve its on-play ability.
    `extra`: not the turn's free minion; `by_card`: the card whose ability played it; `via`:
    the card whose ability let it come from where it was (PlayRecord.via); `as_kind`: the
    kind of play it used (ACTION: a minion played with an action play, `playable_as`)."""
    zone = game.loc[cid][0]
    if zone == "discard":
        game.log(f"{game.pname(seat)} plays {game.name(cid)} from their discard pile.")
    game.move_card(cid, ("minion", uid))
    entered = game.enter_play()
    game.minion_state[cid] = MinionState(controller=seat, entered=entered)
    game._board_moved(cid, ("minion", uid))  # its controller: power reads it
    _note_play(game, seat, cid, as_kind, uid, extra, special, via, zone)
    game.log(f"{game.pname(seat)} plays {game.name(cid)} on {game.base_name(uid)}.")
    # What the base looked like as the minion entered, before its own ability: cards that
    # compare the minion played with theirs ("a minion with less power than this one",
    # Leprechaun) read the powers there, and its serial of entry (MinionState.entered).
    data = {"entered": entered,
            "powers_here": {m: power_of(game, m) for m in game.slot(uid).minions}}
    defn = game.defs[cid]
    if defn.on_play is not None:
        yield from game.run_ability(defn.on_play, Ctx(game, cid, seat, base=uid))
    game.emit(Event("minion_played", card=cid, base=uid, player=seat, data=data,
                    by_card=by_card, by_player=seat))


@cython.locals(game=GameState, defn=CardDef)
def play_action(game, seat: int, cid: int, host=None, extra: bool = False,
                by_card: int | None = None, via: int | None = None):
    """Play an action: reveal it, attach it if it attaches, resolve it; the caller discards
    it afterwards (`finish_action`) unless it stayed in play."""
    defn = game.defs[cid]
    zone = game.loc[cid][0]
    game.move_card(cid, ("resolving",))
    # The play counts from the moment the card is revealed, before its target is chosen (as it
    # did when records of digest version 1 were made: their stored hashes count it there).
    _note_play(game, seat, cid, ACTION, None, extra, via=via, zone=zone)
    uid = None
    if defn.attach is not None:
        if host is None:
            hosts = attach_hosts(game, seat, cid)
            if defn.attach == "minion":
                # Alike hosts (two Invaders of one player on one base) are one option.
                at, describe = game.label_version(), game.describe_minion
                opts = _mark_alike(game, [Option(card_option_id("m", m),
                                                (board_label, game, at, describe, m), card=m)
                                         for m in hosts])
                prompt = f"Attach {defn.name} to which minion?"
            else:
                at, describe = game.label_version(), game.base_name
                opts = [Option(f"b{u}", (board_label, game, at, describe, u), base=u)
                        for u in hosts]
                prompt = f"Play {defn.name} on which base?"
            chosen = yield from game.ask(seat, "target", prompt, opts, source=cid,
                                         intent=defn.intent)
            host = chosen[0].card if defn.attach == "minion" else chosen[0].base
        if defn.attach == "base":
            yield from game.enter_base(cid, host, seat)
        if not attach(game, cid, seat, host, log_play=True):
            # Something happened instead of attaching it (Hideout): it was played, does
            # nothing, and is discarded when it has resolved.
            game.log(f"{game.pname(seat)} plays {defn.name}, which does not attach.")
            game.emit(Event("action_played", card=cid, player=seat, data={"host": host},
                            by_card=by_card, by_player=seat))
            return
        uid = game.base_of(cid)
    else:
        game.log(f"{game.pname(seat)} plays {defn.name}.")
    if uid is not None:
        game.turn_state.plays[-1].base = uid
    if defn.on_play is not None:
        yield from game.run_ability(defn.on_play, Ctx(game, cid, seat, base=uid))
    data = {"host": host} if defn.attach is not None else {}
    game.emit(Event("action_played", card=cid, base=uid, player=seat, data=data,
                    by_card=by_card, by_player=seat))


@cython.locals(game=GameState, defn=CardDef)
def attach(game, cid: int, seat: int, host: int, log_play: bool = False,
           by_card: int | None = None) -> bool:
    """Put action `cid` in play on `host` (a minion's id or a base's uid, as its `attach`
    says), controlled by `seat`: announced as `attached` (data "host"); an action that
    cancels a base announces `cancelled` too. False if the host cannot take it."""
    defn = game.defs[cid]
    if defn.attach == "minion":
        if not game.is_minion_in_play(host) or not affects(game, by_card or cid, seat, host):
            return False
        if game.affect_replaced(by_card or cid, seat, host, "attach"):
            return False
        was_active = ability_active(game, host)
        game.move_card(cid, ("attached", host))
        game.action_state[cid] = ActionState(seat, "minion", host)
        game._board_moved(cid, ("attached", host))  # its controller and host
        uid = game.base_of(host)
        where = game.name(host)
    elif defn.attach == "base":
        if game.slot_or_none(host) is None:
            return False
        was_active = base_active(game, game.slot(host))
        game.move_card(cid, ("base_action", host))
        game.action_state[cid] = ActionState(seat, "base", host)
        game._board_moved(cid, ("base_action", host))  # its controller and host
        uid = host
        where = game.base_name(host)
    else:
        raise EngineError(f"{defn.name} is not played on a minion or a base")
    if log_play:
        game.log(f"{game.pname(seat)} plays {defn.name} on {where}.")
    else:
        game.log(f"{defn.name} is attached to {where}.")
    game.emit(Event("attached", card=cid, base=uid, player=seat, data={"host": host},
                    by_card=cid if by_card is None else by_card, by_player=seat))
    if defn.attach == "base":
        game.note_cancel(host, was_active, cid, seat)
    elif defn.cancels_host:
        game.note_cancel(None, was_active, cid, seat, card=host)
    return True


@cython.locals(game=GameState)
def finish_action(game, cid: int) -> None:
    """CR step 5: an action that did not stay in play goes to its owner's discard pile (or
    where `Ctx.after_resolving` sends it)."""
    if game.loc[cid][0] != "resolving":
        game.resolving_to.pop(cid, None)
        return
    if game.lasting:
        game._end_lasting_of(cid)  # what lasted only while it resolved (Ctx.unaffected_by)
    owner = game.owner[cid]
    dest = game.resolving_to.pop(cid, None)
    if dest is None:
        game.move_card(cid, ("discard", owner))
        return
    if dest == "hand":
        game.move_card(cid, ("hand", owner))
    else:
        game.move_card(cid, ("deck", owner), 0 if dest == "deck_top" else None)
    game.log(f"{game.name(cid)} goes "
             f"{_DESTINATION_WORDS[dest].format(p=game.pname(owner))}.")
    game.emit(Event("placed", card=cid, player=owner,
                    data={"to": dest, "from": "resolving"}, by_card=cid, by_player=owner))


@cython.locals(game=GameState)
def use_talent(game, seat: int, cid: int):
    game.turn_state.talents_used.add(cid)
    game.log(f"{game.pname(seat)} uses the talent of {game.name(cid)}.")
    yield from game.run_ability(game.defs[cid].talent,
                                Ctx(game, cid, seat, base=game.base_of(cid)))


@cython.locals(defn=CardDef)
def talents_usable(game, seat: int) -> list[int]:
    found = []
    if not game.talented:
        return found
    minion_state, action_state = game.minion_state, game.action_state
    used = game.turn_state.talents_used
    for cid in game.talented:
        defn = game.defs[cid]
        # `controller`, inline: a main decision asks this of every card with a talent.
        state = minion_state.get(cid) or action_state.get(cid)
        if (state is None or state.controller != seat or cid in used
                or not ability_active(game, cid)):
            continue
        if defn.talent_usable is not None and not defn.talent_usable(card_ctx(game, cid)):
            continue
        found.append(cid)
    return found
