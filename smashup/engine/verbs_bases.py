"""The vocabulary's verbs on bases: the base deck (look, reveal, discard, put back, search,
shuffle) and bases in play (one added, one swapped for another, one destroyed and replaced).

Rules implemented here: the community page's "Build the Base Deck" (the base deck and its
discard pile work as a player's deck: an empty base deck takes the shuffled base discard pile
first) and "Playing Bases" (a base that comes into play, takes another's place or is destroyed
announces `base_entered`; Idaho Smith, Terraforming, Burn It Down); a mode places bases its own
way (`Game.add_base`, `Game.swap_base`). Each is a method of `Ctx` (effects.py).

Compiled, `ctx` is typed `_Ctx` (context.pxd) by `@cython.locals`: its fields are read as C fields.
"""
from __future__ import annotations

import cython

from .context import _Ctx
from .core import counted


@cython.locals(ctx=_Ctx)
def refill_base_deck(ctx) -> bool:
    """An empty base deck takes the shuffled base discard pile (it works like a player's
    deck, CR "Build the Base Deck"). True if the base deck holds a base."""
    return ctx.game.refill_base_deck()


@cython.locals(ctx=_Ctx)
def look_at_bases(ctx, count: int, seat: int | None = None) -> list[int]:
    """`seat` (you) looks at the top `count` bases of the base deck (refilled from the base
    discard pile when empty). They stay there; returns them, the top one first. A question
    about them passes them as `reveal`."""
    g = ctx.game
    if not g.refill_base_deck():
        return []
    top = list(g.base_deck[:count])
    g.log(f"{g.pname(ctx._seat(seat))} looks at the top {counted(len(top), 'base')} of "
          f"the base deck.")
    if g.knowledge is not None:
        g.knowledge.shown(g, top, (ctx._seat(seat),))
    return top


@cython.locals(ctx=_Ctx)
def reveal_bases(ctx, count: int) -> list[int]:
    """Reveal the top `count` bases of the base deck to everyone (refilled from the base
    discard pile when empty). They stay there; returns them, the top one first."""
    g = ctx.game
    if not g.refill_base_deck():
        return []
    top = list(g.base_deck[:count])
    g.log(f"{g.pname(ctx.me)} reveals {', '.join([g.name(b) for b in top])} from the top of "
          f"the base deck.")
    g.disclose(top)
    return top


@cython.locals(ctx=_Ctx)
def discard_bases(ctx, bases) -> None:
    """Put bases from the base deck into the base discard pile (Lost City's other base)."""
    g = ctx.game
    for b in bases:
        g.move_card(b, ("base_discard",))
        g.log(f"{g.name(b)} goes to the base discard pile.")


@cython.locals(ctx=_Ctx)
def put_bases_on_deck(ctx, bases, bottom: bool = False) -> None:
    """Put bases from the base deck back on it in this order (`bases[0]` the top one; with
    `bottom`, `bases[-1]` the bottom one)."""
    g = ctx.game
    for b in (list(bases) if bottom else list(reversed(bases))):
        g.move_card(b, ("base_deck",), None if bottom else 0)


@cython.locals(ctx=_Ctx)
def search_base_deck(ctx, prompt: str, seat: int | None = None):
    """Search the base deck for any base: the searcher sees every base in it; an empty base
    deck takes the base discard pile first. Returns the base card, or None when there is no
    base to find. The caller puts it somewhere, then shuffles the base deck."""
    g = ctx.game
    if not g.refill_base_deck():
        return None
    names = {b: g.name(b) for b in g.base_deck}  # (a C method is no sort key when compiled)
    options = sorted(g.base_deck, key=names.__getitem__)
    chosen = yield from ctx.choose_cards(options, prompt, seat=seat, reveal=options)
    return chosen[0]


@cython.locals(ctx=_Ctx)
def top_base(ctx) -> int | None:
    """The top base of the base deck (refilled from the base discard pile when empty), not
    looked at: for an ability that takes it without showing it first (Burn It Down)."""
    return ctx.game.draw_base()


@cython.locals(ctx=_Ctx)
def base_discard_pile(ctx) -> list[int]:
    """The bases in the base discard pile (public)."""
    return list(ctx.game.base_discard)


@cython.locals(ctx=_Ctx)
def put_back_bases(ctx, bases, seat: int | None = None):
    """Put bases looked at (the top of the base deck) back on the top and/or the bottom of
    the base deck in any order the player picks (Glory Hound): which go on top, then the
    order of each end."""
    bases = list(bases)
    if not bases:
        return
    top = yield from ctx.choose_cards(
        bases, "Which of these bases go back on top of the base deck (the others go to the "
        "bottom)?", min_count=0, max_count=len(bases), seat=seat, reveal=bases)
    bottom = [b for b in bases if b not in top]
    top = yield from ctx.choose_order(
        [b for b in bases if b in top], "Which of them is on top of the base deck?",
        seat=seat, reveal=bases)
    bottom = yield from ctx.choose_order(
        bottom, "Which of them goes under the base deck first (the others below it)?",
        seat=seat, reveal=bases)
    ctx.put_bases_on_deck(top)
    ctx.put_bases_on_deck(bottom, bottom=True)
    ctx.game.log(f"{ctx.game.pname(ctx._seat(seat))} puts "
                  f"{counted(len(top), 'base')} back on top of the base deck and "
                  f"{counted(len(bottom), 'base')} at the bottom.")


@cython.locals(ctx=_Ctx)
def _bases_entered(ctx, uids, how: str, replaced: int | None) -> None:
    # One `base_entered` per base that has a new base card (Big Base: every side).
    for uid in uids:
        ctx.game.emit(ctx._event("base_entered", ctx.game.slot(uid).card, uid, None,
                                   {"how": how, "replaced": replaced}))


@cython.locals(ctx=_Ctx)
def swap_base(ctx, uid: int, new_base: int) -> list[int]:
    """Put `new_base` (from the base deck) in the place of base `uid`; everything on it
    stays and the old base goes to the base deck (Terraforming). Announced as
    `base_entered` (data "how": "swapped"; WWWT clarification: Crypt Looter answers a
    swap too). Returns the bases that have the new base card."""
    old = ctx.game.slot(uid).card
    uids = ctx.game.swap_base(uid, new_base)
    ctx._bases_entered(uids, "swapped", old)
    return uids


@cython.locals(ctx=_Ctx)
def add_base(ctx) -> list[int]:
    """Put the top base of the base deck into play as one more base (Idaho Smith); it is
    replaced as usual when it scores. Announced as `base_entered` ("how": "added").
    Returns the bases that have the new base card: the new one; none when no base is left
    anywhere; Big Base: every side (an added base replaces the base card instead, the Big
    Base rules)."""
    g = ctx.game
    new = g.draw_base()
    if new is None:
        return []
    uids = g.add_base(new)
    ctx._bases_entered(uids, "added", None)
    return uids


@cython.locals(ctx=_Ctx)
def destroy_base(ctx, uid: int, replacement: int, minion_actions: bool = False):
    """Destroy base `uid` with every action attached to it (with `minion_actions`, also
    those attached to its minions: Not in Kansas) and put `replacement` (a base from the
    base deck or the base discard pile) in its place; its minions stay in play on the new
    base (Burn It Down). The destroyed base goes to the base discard pile. Announced as
    `base_entered` ("how": "replaced"). Returns the bases that have the new base card
    (Big Base: every side; the sides stay, the base card changes)."""
    g = ctx.game
    slot = g.slot(uid)
    actions = list(slot.actions)
    if minion_actions:
        actions += [a for m in slot.minions for a in g.minion_state[m].attached]
    for a in actions:
        yield from ctx.destroy_action(a)
    old = slot.card
    g.log(f"{ctx.name(old)} is destroyed ({ctx.name(ctx.card)}).")
    uids = g.swap_base(uid, replacement, old_to=("base_discard",))
    ctx._bases_entered(uids, "replaced", old)
    return uids


@cython.locals(ctx=_Ctx)
def shuffle_base_deck(ctx) -> None:
    ctx.game.rng.shuffle(ctx.game.base_deck)
    if ctx.game.knowledge is not None:
        ctx.game.knowledge.shuffle(("base_deck",))
