"""What forbids a play (CR "Playing Cards"; WWWT "Terms and Restrictions": a card that says a
player cannot play something): lasting "cannot play" effects on a player (Mark of Sleep) and the
restrictions of cards in play (Block the Path, Overrun). `forbids` is the one check of a play;
`play_barriers` the same check prepared once for the many plays of a main decision (plays.py's
generator filters by it). Methods of Game (game.py)."""
from __future__ import annotations

import cython

from .core import Play
from .protections import ability_active, card_ctx
from .state import GameState


def _bars_play(data: dict, play: Play, defn) -> bool:
    """Whether a "cannot play" lasting effect's data (kind, base, faction; each optional) covers
    `play` of the card `defn` (Block the Path, Overrun, Mark of Sleep)."""
    kind = data.get("kind")
    if kind is not None and kind != play.kind and kind != defn.kind:
        return False
    if data.get("base") is not None and data["base"] != play.base:
        return False
    return data.get("faction") is None or data["faction"] == defn.faction


def may_restrict(game) -> bool:
    """Whether anything could forbid a play now (a cheap test before `forbids`: it must
    see everything `forbids` reads)."""
    if game.restrictors:
        return True
    for eff in game.lasting:
        if eff.kind == "cannot_play":
            return True
    return False


def forbids(game, play: Play) -> str | None:
    """Why `play` is not allowed, or None: the one check of play restrictions. A lasting
    "cannot_play" on that player (data "kind": what the card is or is played as; "base";
    "faction": Mark of Sleep) or a card in play whose restriction forbids it (Block the
    Path, Overrun)."""
    if game.lasting:
        defn = game.defs[play.card]
        for eff in game.lasting:
            if eff.kind != "cannot_play" or eff.target != play.seat:
                continue
            if not _bars_play(eff.data, play, defn):
                continue
            if game.lasting_active(eff):
                kind = eff.data.get("kind")
                what = f"{kind}s" if kind else "cards"
                return f"{game.pname(play.seat)} cannot play {what} now ({game.name(eff.source)})"
    if game.restrictors:
        for rid in game.restrictors:
            if not ability_active(game, rid):
                continue
            ctx = card_ctx(game, rid)
            for forbidden in game.defs[rid].restrictions:
                if forbidden(ctx, play):
                    return f"{game.name(play.card)} cannot be played there ({game.name(rid)})"
    return None


@cython.locals(game=GameState)
def play_barrier(game, seat: int):
    """`forbids` for many plays of `seat` at one moment (a main decision lists dozens): what
    may forbid them is looked up once, and each play is then checked by the predicate this
    returns (true: forbidden). None when nothing may forbid a play of `seat` now."""
    found = play_barriers(game, seat)
    return None if found is None else found[0]


@cython.locals(game=GameState)
def play_barriers(game, seat: int):
    """(`play_barrier`'s predicate, where it may forbid a play), or None: where is the set of
    bases (slot uids) when only restrictions declared for their own base (`restriction(
    here=True)`: Block the Path, Overrun) may forbid anything, so a play elsewhere or of no
    base needs no check; None when a play anywhere may be forbidden. A restriction declared
    for the other bases (`restriction(elsewhere=True)`: Bear Picnic) is asked once per card,
    kind and zone: its answer then serves the plays of that card onto every other base (the
    predicate is made for one moment, so the answers it keeps are never stale)."""
    defs = game.defs
    lasting = [eff.data for eff in game.lasting
               if eff.kind == "cannot_play" and eff.target == seat
               and game.lasting_active(eff)]
    rules = []
    local = []  # (base, ctx, restriction): asked only of plays onto that base
    elsewhere = []  # (base, ctx, restriction, its answers): asked of plays onto the others
    for rid in game.restrictors:
        if ability_active(game, rid):
            ctx = card_ctx(game, rid)
            defn = defs[rid]
            here_only = defn.restrictions_here
            others_alike = defn.restrictions_elsewhere
            for forbidden in defn.restrictions:
                if here_only and forbidden in here_only:
                    local.append((ctx.here, ctx, forbidden))
                elif others_alike and forbidden in others_alike:
                    elsewhere.append((ctx.here, ctx, forbidden, {}))
                else:
                    rules.append((ctx, forbidden))
    if not lasting and not rules and not local and not elsewhere:
        return None

    def barred(play: Play) -> bool:
        if lasting:
            defn = defs[play.card]
            if any(_bars_play(data, play, defn) for data in lasting):
                return True
        for ctx, forbidden in rules:
            if forbidden(ctx, play):
                return True
        for here, ctx, forbidden in local:
            if play.base == here and forbidden(ctx, play):
                return True
        for here, ctx, forbidden, answers in elsewhere:
            if play.base is None or play.base == here:
                continue
            key = (play.seat, play.card, play.kind, play.zone)
            answer = answers.get(key)
            if answer is None:
                answer = answers[key] = bool(forbidden(ctx, play))
            if answer:
                return True
        return False

    return barred, (None if lasting or rules or elsewhere else {here for here, _, _ in local})


def play_forbidden(game, seat: int, cid: int, uid: int | None = None,
                   kind: str | None = None) -> str | None:
    """Why `seat` may not play card `cid` (onto base `uid`, as `kind`) from where it is now,
    or None (`forbids`)."""
    return forbids(game, Play(seat, cid, kind or game.defs[cid].kind, game.loc[cid][0], uid))
