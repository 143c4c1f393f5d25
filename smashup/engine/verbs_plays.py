"""The vocabulary's verbs on plays: extra plays (banked in your Play Cards phase, now or never
elsewhere), a play made by an ability, the plays a card could make, restrictions on a player's
plays, an action attached while it resolves, where a resolving action goes, a play that also
counts as an action's.

Rules implemented here: the community page's "Playing Cards" and "Phase 2: Play Cards" (extra
plays: "an extra minion" is banked for the phase when granted in it, else played at once or
lost), WWWT "Terms" ("play" is playing from the hand unless a card says otherwise; a minion
played by an ability is played, so its on-play ability resolves), and the legality of every such
play (plays.py, `Game.legal_plays`). Each is a method of `Ctx` (effects.py).

Compiled, `ctx` is typed `_Ctx` (context.pxd) by `@cython.locals`: its fields are read as C fields.
"""
from __future__ import annotations

import cython

from .context import _Ctx
from .core import GRANT_CONDITIONS, MINION, EngineError, Event, Grant, Lasting, Option, card_option_id


@cython.locals(ctx=_Ctx)
def grant_extra(ctx, kind: str, seat: int | None = None, max_power=None, base=None,
                zones=("hand",), condition: str | None = None):
    """An extra minion/action play. In the owner's Play Cards phase it is banked for the
    phase; at any other time it must be used at once or is lost (CR, "extra"). `zones`:
    where the card may come from ("hand", "discard": They Keep Coming); `condition`: a named
    condition on the base (core.GRANT_CONDITIONS: Outbreak). Returns the card played at
    once, or None."""
    g = ctx.game
    seat = ctx._seat(seat)
    if condition is not None and condition not in GRANT_CONDITIONS:
        raise EngineError(f"unknown grant condition {condition!r}")
    grant = Grant(kind, max_power=max_power, base=base, source=ctx.name(ctx.card),
                  zones=tuple(zones), condition=condition)
    if g.phase == "play" and g.turn_state.seat == seat and g._depth <= 1:
        g.turn_state.grants.append(grant)
        where = " from their discard pile" if grant.zones == ("discard",) else ""
        g.log(f"{g.pname(seat)} may play an extra {kind}{where} ({ctx.name(ctx.card)}).")
        return None
    return (yield from ctx._play_now(grant, seat, True, None))


@cython.locals(ctx=_Ctx)
def play_extra_now(ctx, kind=MINION, seat=None, max_power=None, base=None, optional=True,
                   cards=None, zones=("hand",), condition: str | None = None):
    """Play an extra card immediately: the player picks a legal play (`Game.legal_plays`)
    of a card from hand (or the `zones`, or among `cards`, e.g. a revealed deck top) that
    fits (and a base for a minion), or declines when `optional`. Returns the card played,
    or None. Cards of `cards` that lie in a deck were shown to the player (revealed or
    looked at): the question passes them as its `reveal`, so the chooser's view may name
    them."""
    grant = Grant(kind, max_power=max_power, base=base, source=ctx.name(ctx.card),
                  zones=tuple(zones), condition=condition)
    return (yield from ctx._play_now(grant, ctx._seat(seat), optional, cards))


@cython.locals(ctx=_Ctx)
def _play_now(ctx, grant: Grant, seat: int, optional: bool, cards):
    g = ctx.game
    if grant.base is not None and g.slot_or_none(grant.base) is None:
        return None
    if cards is None:
        cards = [c for z in grant.zones for c in g.container((z, seat))]
    plays = g.legal_plays(seat, grants=[grant], cards=list(cards))
    if not plays:
        return None
    options = []
    for p in plays:
        # A card from somewhere else than the player's hand says where it is: copies from two
        # decks (Mass Enchantment) must not look the same.
        name = g.name(p.card) + ctx._where_from(p.card, seat)
        if p.base is not None:
            options.append(Option(card_option_id("m", p.card, at=p.base),
                                  f"{name} on {g.base_name(p.base)}", card=p.card,
                                  base=p.base, play=p))
        else:
            options.append(Option(card_option_id("a", p.card), name, card=p.card, play=p))
    shown = list(dict.fromkeys([p.card for p in plays if g.loc[p.card][0] == "deck"]))
    chosen = yield from g.ask(seat, "extra", f"Play an extra {grant.kind} now?",
                              g._mark_alike(options), 0 if optional else 1, 1,
                              source=ctx.card, reveal=shown, intent="help")
    if not chosen:
        return None
    play = chosen[0].play
    if play.base is not None:
        yield from g.play_minion(seat, play.card, play.base, extra=True, as_kind=play.kind)
    else:
        yield from g.play_action(seat, play.card, extra=True)
        g.finish_action(play.card)
    return play.card


@cython.locals(ctx=_Ctx)
def can_play(ctx, cid: int, base: int | None = None, seat: int | None = None,
             kind: str | None = None) -> bool:
    """Whether `seat` (you) may play `cid` from where it is (onto `base`) now as an ability
    says (Hoverbot, Zombie Lord, a Special): a legal play of that one card (`legal_plays`),
    so no restriction (Block the Path, Overrun, Mark of Sleep) forbids it."""
    return ctx._ability_play(cid, base, ctx._seat(seat), kind) is not None


@cython.locals(ctx=_Ctx)
def playable_bases(ctx, cid: int, bases=None, seat: int | None = None) -> list[int]:
    """The bases (of `bases`, default all) `seat` (you) may play minion `cid` on now, as an
    ability says (`can_play`)."""
    seat = ctx._seat(seat)
    g = ctx.game
    grant = Grant(MINION, card=cid, zones=(g.loc[cid][0],), source=ctx.name(ctx.card))
    allowed = {p.base for p in g.legal_plays(seat, grants=[grant], cards=[cid])}
    return [u for u in (ctx.bases() if bases is None else bases) if u in allowed]


@cython.locals(ctx=_Ctx)
def _ability_play(ctx, cid: int, base, seat: int, kind=None):
    g = ctx.game
    kind = kind or g.defs[cid].kind
    grant = Grant(kind, base=base, card=cid, zones=(g.loc[cid][0],),
                  source=ctx.name(ctx.card))
    # Only its plays onto `base` are wanted (Bear Picnic asks this of every play elsewhere).
    for p in g.legal_plays(seat, grants=[grant], cards=[cid], kinds=(kind,), onto=base):
        if p.base == base:
            return p
    return None


@cython.locals(ctx=_Ctx)
def restrict(ctx, seat: int, kind: str | None = None, base: int | None = None,
             faction: str | None = None, until: str = "end_of_turn",
             next_turn: bool = False) -> Lasting:
    """A lasting restriction: `seat` cannot play cards (of `kind`: MINION or ACTION; onto
    `base`; of `faction`) `until` ..., or with `next_turn` during their next turn only (Mark
    of Sleep: `ctx.restrict(p, ACTION, next_turn=True)`). `Game.forbids` reads it."""
    data = {k: v for k, v in (("kind", kind), ("base", base), ("faction", faction))
            if v is not None}
    if next_turn:
        return ctx.lasting("cannot_play", seat, until="end_of_turn",
                            starts_next_turn_of=seat, data=data)
    return ctx.lasting("cannot_play", seat, until=until, data=data)


@cython.locals(ctx=_Ctx)
def _where_from(ctx, cid: int, seat: int) -> str:
    g = ctx.game
    zone = g.loc[cid]
    if zone == ("hand", seat):
        return ""
    whose = "your" if zone[1] == seat else f"{g.pname(zone[1])}'s"
    return {"deck": f" (from {whose} deck)", "discard": f" (from {whose} discard pile)"
            }.get(zone[0], "")


@cython.locals(ctx=_Ctx)
def play_minion(ctx, cid: int, base: int, seat: int | None = None):
    """Play a given minion on a given base as an extra play (not counted against the free
    play), if that is a legal play (`can_play`). Returns the minion, or None when it is not
    (Block the Path)."""
    seat = ctx._seat(seat)
    if ctx._ability_play(cid, base, seat, MINION) is None:
        why = ctx.game.play_forbidden(seat, cid, base, MINION)
        ctx.game.log(f"{why or ctx.name(cid) + ' cannot be played there'}.")
        return None
    yield from ctx.game.play_minion(seat, cid, base, extra=True)
    return cid


@cython.locals(ctx=_Ctx)
def attach(ctx, host: int, card: int | None = None):
    """Attach this action (`card`) to `host` (a minion's id or a base's uid, as its `attach`
    says) while it resolves: an action played through a Special that is played on a minion
    or a base (Dragon Lands). It stays in play, controlled by you. Returns True if it
    attached (a minion this ability may not affect cannot receive it)."""
    cid = ctx.card if card is None else card
    if ctx.game.defs[cid].attach == "base" and ctx.game.slot_or_none(host) is not None:
        yield from ctx.game.enter_base(cid, host, ctx.me)
    return ctx.game.attach(cid, ctx.me, host, by_card=ctx.card)


attach.pipeline_kind = "affect"


@cython.locals(ctx=_Ctx)
def after_resolving(ctx, to: str, card: int | None = None) -> None:
    """Where this resolving action goes when it has resolved, instead of its owner's discard
    pile (CR "Playing Actions" step 4): "deck_top" (Favor of Dionysus), "deck_bottom" or
    "hand". Announced as `placed` then."""
    cid = ctx.card if card is None else card
    if to not in ("deck_top", "deck_bottom", "hand"):
        raise EngineError(f"an action cannot go to {to!r} after resolving")
    if ctx.game.loc[cid][0] != "resolving":
        raise EngineError(f"{ctx.name(cid)} is not resolving")
    ctx.game.resolving_to[cid] = to


@cython.locals(ctx=_Ctx)
def count_as_action_play(ctx) -> None:
    """This card's play also counts as you playing an action for every ability that reacts
    to one (Argonaut: "trigger every ability that would trigger from you playing an
    action"): announced as `action_played` naming this card, data "as_minion" True. It is
    no action play of the turn (the play itself is recorded as what it used)."""
    g = ctx.game
    g.emit(Event("action_played", card=ctx.card, base=ctx.here, player=ctx.me,
                 data={"as_minion": True}, by_card=ctx.card, by_player=ctx.me))
