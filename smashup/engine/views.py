"""What each seat may see: the board, the scores, its hand, its question, its log lines.

Rules implemented here: the community page's "Setup" (each player's hand is hidden from the
others; decks are face down; discard piles are face up and anyone may look through them) and
the project's rule that hidden information never leaks (DESIGN.md): a view is the public part,
the same for everyone (`public_view`), plus what only this seat may see (`private_view`: its
hand, its decision, private log lines such as what it drew). A mode (Big Base) adds its own
part to `public_view`.

Compiled, `game` is typed GameState (views.pxd).
"""
from __future__ import annotations

import cython

from .core import MINION
from .powers import breakpoint, total_power
from .powers import power as power_of
from .protections import ability_active, base_active
from .state import GameState


@cython.locals(game=GameState)
def card_view(game, cid: int) -> dict:
    # What never changes about a card is built once; a view gets a fresh copy to extend.
    static = game._static_views.get(cid)
    if static is None:
        defn = game.defs[cid]
        # Card texts are not repeated in every view: `card_texts()` gives them once, by name.
        static = {"id": cid, "name": defn.name, "type": defn.kind}
        if defn.kind == MINION:
            static["printed"] = defn.power
            static["power"] = defn.power
        if hasattr(defn, "faction"):
            static["faction"] = defn.faction
        if game.owner[cid] is not None:
            static["owner"] = game.owner[cid]
        game._static_views[cid] = static
    data = dict(static)
    if cid in game.minion_state:
        data["power"] = power_of(game, cid)
    return data


@cython.locals(game=GameState)
def view(game, seat: int | None) -> dict:
    """What `seat` may know (None: a spectator or the table display). Never a hidden card.

    It is the public part, the same for everyone, plus the part only this seat may see."""
    data = game.public_view()
    data.update(private_view(game, seat))
    return data


@cython.locals(game=GameState)
def public_view(game) -> dict:
    """The board, the scores, the discard piles and the counts: what everyone sees."""
    bases = []
    for slot in game.bases:
        bdef = game.base_def(slot)
        minions = []
        for m in slot.minions:
            mv = card_view(game, m)
            state = game.minion_state[m]
            mv["controller"] = state.controller
            mv["counters"] = state.counters
            mv["attached"] = [_attached_view(game, a) for a in state.attached]
            if not ability_active(game, m):
                mv["cancelled"] = True  # its abilities are treated as if they did not exist
            minions.append(mv)
        bases.append({
            "uid": slot.uid,
            "id": slot.card,
            "name": bdef.name,
            "breakpoint": breakpoint(game, slot),
            "vp": list(bdef.vp),
            "active": base_active(game, slot),
            "total_power": total_power(game, slot),
            "power_by_seat": {
                str(p.seat): game.player_power(slot.uid, p.seat) for p in game.players
            },
            "minions": minions,
            "actions": [_attached_view(game, a) for a in slot.actions],
        })
    players = []
    for p in game.players:
        players.append({
            "seat": p.seat,
            "name": p.name,
            "factions": list(p.factions),
            "bot": p.bot,
            "vp": p.vp,
            "hand_count": len(p.hand),
            "deck_count": len(p.deck),
            "discard": [card_view(game, c) for c in p.discard],
        })
    return {
        "turn": game.turn,
        "current": game.current,
        "phase": game.phase,
        "winner": game.winner,
        "players": players,
        "bases": bases,
        "base_deck_count": len(game.base_deck),
        "base_discard": [card_view(game, c) for c in game.base_discard],
        "ending": ending_view(game),
    }


@cython.locals(game=GameState)
def ending_view(game) -> dict:
    """How the game ends early, for pages: time called, the base limit, a tie playing on."""
    return {
        "time_called": game.time_called,
        "time_called_turn": game.time_called_turn,
        "reason": game.end_reason,
        "final_turn": game.final_turn,
        "play_on_until": game.play_on_until,
        "bases_scored": game.bases_scored,
        "end_after_bases": game.config.get("end_after_bases"),
        "shared_winners": list(game.shared_winners),
    }


@cython.locals(game=GameState)
def _hidden_from(game, cid: int, seat: int) -> bool:
    """Whether `seat` may not see where card `cid` is now: in a deck or the base deck (unless
    shown face up), or in another player's hand (invariants.hidden_from, for one card)."""
    zone = game.loc[cid]
    if zone[0] in ("deck", "base_deck"):
        return cid not in game.public_deck_cards() and cid not in game.pending.reveal
    return zone[0] == "hand" and zone[1] != seat and cid not in game.pending.reveal


@cython.locals(game=GameState)
def private_view(game, seat: int | None) -> dict:
    """The part of a view that depends on the seat: its hand, its decision, its log lines."""
    pending = None
    if game.pending is not None:
        if seat is not None and game.pending.seat == seat:
            pending = game.pending.public()
            pending["reveal"] = [card_view(game, c) for c in game.pending.reveal]
            source = pending["source"]
            if source is not None and _hidden_from(game, source, seat):
                # The card asking has gone out of sight since (Lost City, played after a
                # scoring, shuffled into a deck before it picks the new base): its id would
                # say where a hidden card lies.
                pending["source"] = None
        else:
            pending = {"seat": game.pending.seat, "kind": game.pending.kind}
    log = []
    for text, to in reversed(game.log_lines):
        if to is None or (seat is not None and seat in to):
            log.append(text)
            if len(log) == 60:
                break
    log.reverse()
    return {
        "seat": seat,
        "hand": [card_view(game, c) for c in game.players[seat].hand] if seat is not None else None,
        "pending": pending,
        "log": log,
    }


@cython.locals(game=GameState)
def card_texts(game) -> dict[str, str]:
    """Our own ability text of every card and base in this game, by name."""
    return {d.name: d.text for d in game.defs}


@cython.locals(game=GameState)
def _attached_view(game, a: int) -> dict:
    data = card_view(game, a)
    data["controller"] = game.action_state[a].controller
    return data


@cython.locals(game=GameState)
def summary(game) -> dict:
    return {
        "turns": game.turn,
        "over": game.over,
        "winner": game.winner,
        "shared_winners": list(game.shared_winners),
        "time_called": game.time_called,
        "vp": [p.vp for p in game.players],
        "choices": len(game.choices),
        "digest": game.digest(),
    }
