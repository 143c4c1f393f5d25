"""The vocabulary's verbs on cards in play and numbers: VP, power counters, power changes and
other lasting effects, cancelled abilities, breakpoint changes; destroy, return, move, place on a
deck, transfer, discard an action from play; move your minions one at a time.

Rules implemented here: WWWT "Terms and Restrictions": destroy, return, move, place, discard and
transfer are distinct events (each announced as its own `Event`, naming `by_card` and
`by_player`); "affect" (every verb on a card in play first asks the protections and the
"instead" replacements, `_allowed`: the one path under every effect); power counters and "until
the end of the turn" (core.Lasting); "Cancel"; a card leaving play leaves with what is attached
to it, and its last words do not fire when it left cancelled (`_leave_play`). Each is a method of
`Ctx` (effects.py).

Compiled, `ctx` is typed `_Ctx` (context.pxd) by `@cython.locals`: its fields are read as C fields.
"""
from __future__ import annotations

import cython

from .context import UNTIL, _acts_as, _Ctx
from .core import EXACT_CORNERS, Event, Lasting, counted


@cython.locals(ctx=_Ctx)
def gain_vp(ctx, seat: int, amount: int) -> None:
    g = ctx.game
    g.players[seat].vp += amount
    g.log(f"{g.pname(seat)} gains {amount} VP ({ctx.name(ctx.card)}).")


@_acts_as("affect")
@cython.locals(ctx=_Ctx)
def add_counters(ctx, m: int, count: int) -> bool:
    """Put `count` +1 power counters on a minion from the pool (a negative count removes that
    many to the pool): not a transfer (WWWT "Transfer"). A change of power, so a minion this
    ability may not affect keeps its counters. Announced as `counters_changed` (data
    "amount": the change). Returns True if the counters changed."""
    g = ctx.game
    state = g.minion_state.get(m)
    if state is None or count == 0 or not ctx.may_affect(m, "counters"):
        return False
    amount = max(count, -state.counters)
    if amount == 0:
        return False
    state.counters += amount
    g._powers_changed_on([g.base_of(m)])  # its power alone: the bases here counted afresh
    g.emit(ctx._event("counters_changed", m, g.base_of(m), state.controller,
                       {"amount": amount}))
    return True


@_acts_as("affect")
@cython.locals(ctx=_Ctx)
def add_power(ctx, m: int, amount: int, until: str = "end_of_turn", during: str | None = None,
              with_source: bool = False) -> bool:
    """A minion gets `amount` power (may be negative) `until` "end_of_turn" (the current
    turn), "end_of_your_turn" (this turn if yours, else the end of your next turn:
    Augmentation, Howl), "start_of_your_next_turn" or "source_leaves_play"; only `during`
    "others" (other players' turns: Armor Stego) or "own" turns if given; ending early when
    this card leaves play if `with_source`. The minion must be affectable; it ends when the
    minion leaves play. Announced as `power_changed`. Returns True if it applied."""
    g = ctx.game
    if not g.is_minion_in_play(m) or not ctx.may_affect(m, "power"):
        return False
    ctx.lasting("power", m, amount=amount, until=until, during=during,
                 with_source=with_source, on_card=True)
    g.emit(ctx._event("power_changed", m, g.base_of(m), g.controller(m), {"amount": amount}))
    return True


@_acts_as("affect")
@cython.locals(ctx=_Ctx)
def power_until_end_of_turn(ctx, m: int, amount: int) -> bool:
    return ctx.add_power(m, amount)


@cython.locals(ctx=_Ctx)
def lasting(ctx, kind: str, target=None, amount: int = 0, until: str = "end_of_turn",
            starts_next_turn_of: int | None = None, during: str | None = None,
            with_source: bool = False, data: dict | None = None,
            on_card: bool = False) -> Lasting:
    """Start a lasting effect of your own kind (plain data, read back with
    `lasting_effects`): e.g. Mark of Sleep's `lasting("cannot_play", seat,
    starts_next_turn_of=seat, data={"kind": "action"})` (during that player's next turn).
    `until` as in `add_power`, or a plain tuple (core.Lasting.ends). `on_card`: `target` is a
    card, and the effect ends when it leaves play."""
    ends = UNTIL[until](ctx) if isinstance(until, str) else until
    if starts_next_turn_of is not None and ends == ("turn_end", None):
        ends = ("turn_end", starts_next_turn_of)
    effect = Lasting(kind, target, amount, ctx.me, ends, ctx.card,
                     None if starts_next_turn_of is None
                     else ("turn_start", starts_next_turn_of),
                     during, with_source, dict(data or {}), on_card)
    ctx.game.lasting.append(effect)
    ctx.game._lasting_changed([effect])  # what power reads changed (Game.version)
    return effect


@cython.locals(ctx=_Ctx)
def lasting_effects(ctx, kind: str, target=None, active_only: bool = True) -> list[Lasting]:
    """The lasting effects of `kind` (on `target` if given), only those in force now unless
    `active_only` is False."""
    g = ctx.game
    return [e for e in g.lasting if e.kind == kind and (target is None or e.target == target)
            and (not active_only or g.lasting_active(e))]


@_acts_as("affect")
@cython.locals(ctx=_Ctx)
def cancel_abilities(ctx, card: int, until: str = "start_of_your_next_turn") -> bool:
    """Cancel the abilities of a card in play (a minion: Mind Lady) `until` as in `add_power`:
    they are treated as if they did not exist (WWWT "Cancel"; `Game.ability_active`), even if
    this card leaves play meanwhile (IYF clarification, Mind Lady), and no longer once the
    cancelled card leaves play (played again it is a new card). The actions on it keep
    theirs. Having its ability cancelled is an affect (WWWT "Affect"): a protected card
    refuses it. Announced as `cancelled` (data "target") if its abilities were working.
    Returns True if it applied."""
    g = ctx.game
    if not g.in_play(card) or not ctx.may_affect(card, "cancel"):
        return False
    was_active = g.ability_active(card)
    ctx.lasting("cancel_abilities", card, until=until, on_card=True)
    g.log(f"{ctx.name(card)}'s abilities are cancelled ({ctx.name(ctx.card)}).")
    g.note_cancel(None, was_active, ctx.card, ctx.source_player, card=card)
    return True


@cython.locals(ctx=_Ctx)
def abilities_cancelled(ctx, card: int) -> bool:
    """Whether the abilities of a card in play are cancelled now (Cuddle, Mind Lady)."""
    return not ctx.game.ability_active(card)


@cython.locals(ctx=_Ctx)
def cancel_base_until_my_next_turn(ctx, uid: int) -> None:
    g = ctx.game
    was_active = g.base_active(g.slot(uid))
    g.lasting.append(Lasting("cancel_base", uid, 0, ctx.me, ("turn_start", ctx.me),
                             ctx.card))
    g.changed()
    g.note_cancel(uid, was_active, ctx.card, ctx.me)


@cython.locals(ctx=_Ctx)
def _event(ctx, kind, card, base, player, data=None) -> Event:
    return Event(kind, card=card, base=base, player=player, data=data or {},
                 by_card=ctx.card, by_player=ctx.source_player)


@cython.locals(ctx=_Ctx)
def _leave_play(ctx, m: int) -> tuple[int, int]:
    """Take a minion out of play: its attached actions go to their owners' discard piles
    (WWWT "Return": attachments are discarded). Returns (base, controller) it had."""
    g = ctx.game
    uid = g.base_of(m)
    ctrl = g.minion_state[m].controller
    if g.cancelled_cards():
        # A minion leaving play with its abilities cancelled has no last words (its
        # leaves-play triggers), even though the Cuddle on it goes first.
        for c in (m, *g.minion_state[m].attached):
            if not g.ability_active(c):
                g.left_cancelled[c] = None
    for a in list(g.minion_state[m].attached):
        g.move_card(a, ("discard", g.owner[a]))
        g.emit(Event("discarded", card=a, base=uid, player=g.owner[a],
                     data={"from": "play"}, by_card=ctx.card, by_player=ctx.source_player))
    return uid, ctrl


@cython.locals(ctx=_Ctx)
def _allowed(ctx, kind: str, target: int):
    """The first steps of the effect pipeline for `kind` ("destroy", "move", "return",
    "place") done to `target`: protections, then replacements ("instead"). True: go on."""
    g = ctx.game
    if not g.affects(ctx.card, ctx.source_player, target, kind):
        return False
    if g.affect_replaced(ctx.card, ctx.source_player, target, kind):
        return False
    replaced = yield from g.replace(kind, target, ctx)
    return not replaced


@_acts_as("destroy")
@cython.locals(ctx=_Ctx)
def destroy(ctx, m: int):
    """Destroy a minion: it goes to its owner's discard pile (`destroyed`). Returns True if
    it happened: a protection ("cannot be destroyed", "not affected") or a replacement
    ("instead", Tar Pits) may stop it."""
    g = ctx.game
    if not g.is_minion_in_play(m):
        return False
    if not (yield from ctx._allowed("destroy", m)) or not g.is_minion_in_play(m):
        return False
    uid, ctrl = ctx._leave_play(m)
    g.move_card(m, ("discard", g.owner[m]))
    g.log(f"{ctx.name(m)} is destroyed ({ctx.name(ctx.card)}).")
    g.emit(ctx._event("destroyed", m, uid, ctrl))
    return True


@cython.locals(ctx=_Ctx)
def destroy_action(ctx, a: int):
    """Destroy an action in play (attached to a base or a minion)."""
    g = ctx.game
    if not g.in_play(a):
        return False
    uid = g.base_of(a)
    ctrl = g.controller(a)
    g.move_card(a, ("discard", g.owner[a]))
    g.log(f"{ctx.name(a)} is destroyed ({ctx.name(ctx.card)}).")
    g.emit(ctx._event("destroyed", a, uid, ctrl))
    return True
    yield


@cython.locals(ctx=_Ctx)
def discard_from_play(ctx, a: int):
    """Discard an action in play (not a destroy: Wildlife Preserve): it goes to its owner's
    discard pile, announced as `discarded` (data "from": "play")."""
    g = ctx.game
    if not g.in_play(a) or g.is_minion_in_play(a):
        return False
    uid = g.base_of(a)
    ctrl = g.controller(a)
    g.move_card(a, ("discard", g.owner[a]))
    g.log(f"{ctx.name(a)} is discarded ({ctx.name(ctx.card)}).")
    g.emit(ctx._event("discarded", a, uid, ctrl, {"from": "play"}))
    return True
    yield


@_acts_as("return")
@cython.locals(ctx=_Ctx)
def return_to_hand(ctx, m: int):
    """Return a minion to its owner's hand (`returned`)."""
    g = ctx.game
    if not g.is_minion_in_play(m):
        return False
    if not (yield from ctx._allowed("return", m)) or not g.is_minion_in_play(m):
        return False
    uid, ctrl = ctx._leave_play(m)
    g.move_card(m, ("hand", g.owner[m]))
    g.log(f"{ctx.name(m)} returns to {g.pname(g.owner[m])}'s hand ({ctx.name(ctx.card)}).")
    g.emit(ctx._event("returned", m, uid, ctrl))
    return True


@_acts_as("move")
@cython.locals(ctx=_Ctx)
def move(ctx, m: int, to_base: int):
    """Move a minion, with what is attached to it, to another base (`moved`; the event's base
    is the destination, data "from" the origin). Not a play."""
    g = ctx.game
    if not g.is_minion_in_play(m):
        return False
    src = g.base_of(m)
    if src == to_base or g.slot_or_none(to_base) is None:
        return False
    if not (yield from ctx._allowed("move", m)):
        return False
    src = g.base_of(m)
    if src is None or src == to_base or g.slot_or_none(to_base) is None:
        return False
    state = g.minion_state[m]
    yield from g.enter_base(m, to_base, state.controller)
    g.slot(src).minions.remove(m)
    g.slot(to_base).minions.append(m)
    g.loc[m] = ("minion", to_base)
    # What power reads changed on both bases only (`Game._board_moved`), its actions with it.
    g._board_moved(m, ("minion", src))
    g._board_moved(m, ("minion", to_base))
    for a in g.minion_state[m].attached:
        g._board_moved(a, ("minion", to_base))
    g.log(f"{ctx.name(m)} moves from {g.base_name(src)} to {g.base_name(to_base)} "
          f"({ctx.name(ctx.card)}).")
    data = {"from": src}
    if g.resolution >= EXACT_CORNERS:
        # "The first time in a turn" a minion moves belongs to the minion, whoever watches it
        # (issue 24: a Guide that arrives after a minion's first move does not see its second
        # as a first): each minion in play counts its moves of the turn (a turn flag), and
        # the event says which move this is (data "move_of_turn", 1 for the first).
        key = (("moves", m, state.entered), None)
        flags = g.turn_state.flags
        flags[key] = data["move_of_turn"] = flags.get(key, 0) + 1
    g.emit(ctx._event("moved", m, to_base, state.controller, data))
    return True


@_acts_as("place")
@cython.locals(ctx=_Ctx)
def place_on_deck_bottom(ctx, m: int):
    """Place a minion on the bottom of its owner's deck (a "place", not a destroy)."""
    g = ctx.game
    if not g.is_minion_in_play(m):
        return False
    if not (yield from ctx._allowed("place", m)) or not g.is_minion_in_play(m):
        return False
    uid, ctrl = ctx._leave_play(m)
    g.move_card(m, ("deck", g.owner[m]))
    g.log(f"{ctx.name(m)} goes to the bottom of {g.pname(g.owner[m])}'s deck "
          f"({ctx.name(ctx.card)}).")
    g.emit(ctx._event("placed", m, uid, ctrl, {"to": "deck_bottom", "from": "play"}))
    return True


@cython.locals(ctx=_Ctx)
def transfer(ctx, card: int, to: int, counters: int | None = None):
    """Transfer (WWWT "Transfer": relocate actions or power counters from one card to another;
    counters added from or removed to the pool are not transferred). Not a play, a move, a
    destroy or a discard: announced as its own event, `transferred`.

    - `counters` None: `card` is an attached action and goes onto `to`, a new host of the same
      kind: a minion (card id) for an action on a minion, a base (slot uid) for an action on
      a base (Ripped Off reads the same way). It keeps its controller. A minion that this
      ability may not affect (Smoke Bomb) cannot receive it ("has an action attached" is an
      affect, WWWT "Affect"). An action that cancels a base cancels the new one (`cancelled`).
    - `counters` n: up to n power counters go from minion `card` to minion `to` (both change
      power: both must be affectable). Only as many as `card` has.

    Returns True if something was transferred."""
    g = ctx.game
    if counters is not None:
        if (counters <= 0 or card == to or not g.is_minion_in_play(card)
                or not g.is_minion_in_play(to)
                or not (ctx.may_affect(card, "transfer")
                        and ctx.may_affect(to, "transfer"))):
            return False
        moved = min(counters, g.minion_state[card].counters)
        if moved == 0:
            return False
        g.minion_state[card].counters -= moved
        g.minion_state[to].counters += moved
        g._powers_changed_on([g.base_of(card), g.base_of(to)])  # their powers alone
        g.log(f"{counted(moved, 'power counter')} go from {ctx.name(card)} to "
              f"{ctx.name(to)} ({ctx.name(ctx.card)}).")
        g.emit(ctx._event("transferred", to, g.base_of(to), g.controller(to),
                           {"from": card, "counters": moved}))
        return True
    state = g.action_state.get(card)
    if state is None or state.host == to:
        return False
    if state.host_kind == "minion":
        if not g.is_minion_in_play(to) or not ctx.may_affect(to, "transfer"):
            return False
        was_active = g.ability_active(to)
        g.move_card(card, ("attached", to))
        where = ctx.name(to)
    else:
        if g.slot_or_none(to) is None:
            return False
        yield from g.enter_base(card, to, state.controller)
        was_active = g.base_active(g.slot(to))
        g.move_card(card, ("base_action", to))
        where = g.base_name(to)
    source = state.host
    state.host = to
    g.changed()
    g.log(f"{ctx.name(card)} is transferred to {where} ({ctx.name(ctx.card)}).")
    g.emit(ctx._event("transferred", card, g.base_of(card), state.controller,
                       {"from": source, "to": to}))
    if state.host_kind == "base":
        g.note_cancel(to, was_active, card, state.controller)
    elif g.defs[card].cancels_host:
        g.note_cancel(None, was_active, card, state.controller, card=to)
    return True
    yield


@cython.locals(ctx=_Ctx)
def change_breakpoint(ctx, uid: int, amount: int, until: str = "end_of_turn") -> bool:
    """Base `uid`'s breakpoint changes by `amount` (negative lowers it: Rampage) `until` as in
    `add_power`. The change belongs to that base card: it ends if the base leaves play (a
    base swapped into its place is another base). The breakpoint never goes below 0
    (`breakpoint`). Returns True if it applied."""
    g = ctx.game
    slot = g.slot_or_none(uid)
    if slot is None or amount == 0:
        return False
    ctx.lasting("breakpoint", slot.card, amount=amount, until=until, on_card=True)
    g.log(f"{g.base_name(uid)}'s breakpoint is now {g.breakpoint(slot)} "
          f"({ctx.name(ctx.card)}).")
    return True


@cython.locals(ctx=_Ctx)
def move_your_minions(ctx, limit: int | None = None, prompt="Move one of your minions?"):
    """Move up to `limit` (None: any number) of your minions, each to a base other than its
    own, one at a time until you stop (Dinghy, Full Sail, Whirlwinds). A minion moved once
    is not offered again; alike copies on one base are one option. Returns the moved."""
    moved = []
    while limit is None or len(moved) < limit:
        mine = ctx.one_of_each(ctx.targets(controller=ctx.me, effect="move",
                                             where=lambda m: m not in moved))
        count = f" ({len(moved)} moved so far)" if moved else ""
        done = yield from ctx.choose_and_move(mine, f"{prompt}{count}", optional=True)
        if done is None:
            return moved
        moved.append(done[0])
    return moved
