"""The Card Resolution Order: an ability resolves, then what reacts to what it did.

Rules implemented here: WWWT "Card Resolution Order" and the community page's ("Card Resolution
Order", steps 1 to 5): the card played resolves completely with anything it set off (steps 1-2),
and every event of that resolution is one batch (`resolve`); step 3, every reaction (a card in
play's or a base's `trigger`) to any event of the batch is gathered once and the current player
picks them one by one, each reaction's own events resolving as a child batch right after it
(`react_to_batch`, `run_reactions`); step 4, the Specials from hand that answer an event of the
batch (`Game.answer_window`, specials.py); step 5, the action is discarded (`after`). A card that
left play reacts with its "last words" (`leaves_play` triggers) unless it left cancelled.
"Infinite Loops" (the "Finite Abilities" resolution): one ability reacts at most TRIGGER_LIMIT
times in one chain. A record made before batches (`Game.resolution` 1) replays one event at a time.

Compiled, `game` is typed GameState (reactions.pxd); `_reactions_to` and `reaction_ctx` are C
functions.
"""
from __future__ import annotations

import cython

from .core import LEAVES_PLAY_KINDS, Event, MinionState, Option
from .effects import Ctx
from .protections import ability_active, base_active, cancelled_cards
from .registry import BaseDef, Trigger, _Declares
from .state import IN_PLAY_ZONES, BaseSlot, GameState

# Finite abilities (CR, "Infinite Loops", the "Finite Abilities" resolution): one ongoing ability may
# react at most this many times in one chain of events; a chain starts at each top-level play.
TRIGGER_LIMIT = 50


@cython.locals(game=GameState)
def _emit_gen(game, *events):
    for event in events:
        game.emit(event)
    return
    yield


@cython.locals(game=GameState)
def resolve(game, gen, after=None):
    """Run an ability to its end, then (at top level) the reactions it set off.

    Card Resolution Order (WWWT p.5, CR): finish the card played and anything it interrupted
    (steps 1-2); every event it caused is one batch (`react_to_batch`: step 3, the cards in
    play that react, in the order the current player picks; step 4, Specials from hand that
    answer it); then discard the action (`after`, step 5). Resolution version 1 (old
    records): one event at a time (`_legacy_process_events`).
    """
    game._depth += 1
    try:
        result = yield from gen
    finally:
        game._depth -= 1
    reactions = _top_level_reactions(game)
    if reactions is not None:
        yield from reactions
    if after is not None:
        after()
    return result


def _top_level_reactions(game):
    """When a top-level resolution ends (depth 0), the reactions to its batch, to run with
    `yield from`; None when there is nothing to run (most batches: no generator is made)."""
    if game._depth != 0:
        return None
    if game.resolution == 1:
        return _legacy_process_events(game) if game._events else None
    work = _batch_work(game, game._take_events())
    return _react(game, *work) if work is not None else None


@cython.locals(trig=Trigger, slot=BaseSlot, bdef=_Declares, ev=Event, table=dict)
def _reactions_to(game, event: Event) -> list[tuple]:
    """Every (card, trigger) in play or base that reacts to `event`; and, for an event that
    took a card out of play, that card's own `leaves_play` triggers (its "last words")."""
    if len(game.defs) != game._trigger_index_of:
        _index_triggers(game)
    ev = event
    kind = ev.kind
    table = game._trigger_index.get(kind)
    if table is None:
        return []  # no card or base of this game reacts to this kind of event
    found = []
    if kind in game._base_trigger_kinds:
        # Bases are read from their definitions each time: a mode may give a base in play
        # another base's abilities (Big Base's sides take the current base card's).
        for slot in list(game.bases):
            bdef = game.defs[slot.card]
            triggers = bdef.triggers
            if not triggers:
                continue
            active = None  # base_active, read only for a base with a trigger of this kind
            for trig in triggers:
                if trig.event != kind:
                    continue
                if active is None:
                    active = base_active(game, slot)
                if not active:
                    break
                if trig.applies(reaction_ctx(game, slot.card, trig, event), event):
                    found.append((slot.card, trig))
    cancelled = None  # read only once a card in play has a trigger of this kind
    for cid in game.reactive:
        triggers = table.get(cid)
        if triggers:
            if cancelled is None:
                cancelled = cancelled_cards(game)
            if cancelled and not ability_active(game, cid):
                continue
            for trig in triggers:
                if trig.applies(reaction_ctx(game, cid, trig, event), event):
                    found.append((cid, trig))
    gone = ev.card
    if (kind in LEAVES_PLAY_KINDS and gone is not None and gone not in game.reactive
            and gone not in game.left_cancelled):
        for trig in table.get(gone, ()):
            if trig.leaves_play and trig.applies(reaction_ctx(game, gone, trig, event), event):
                found.append((gone, trig))
    return found


def _index_triggers(game) -> None:
    """Every card's (and base's) triggers by kind of event, in their order: kind -> card ->
    triggers; the kinds some base of this game reacts to; whether one has a start of turn
    ability. Derived from the definitions
    once per game (again if cards are added): a kind missing from both is never looked for
    (most events of a game: nothing in it could react). A base in play always has the
    triggers of a base of this game (Big Base's sides copy the current base card's)."""
    index: dict[str, dict[int, tuple]] = {}
    base_kinds = set()
    turn_start_bases = False
    for cid, defn in enumerate(game.defs):
        if getattr(defn, "at_turn_start", None) is not None:
            turn_start_bases = True
        triggers = getattr(defn, "triggers", None)
        if not triggers:
            continue
        by_kind: dict[str, list] = {}
        for trig in triggers:
            by_kind.setdefault(trig.event, []).append(trig)
        for kind, found in by_kind.items():
            index.setdefault(kind, {})[cid] = tuple(found)
        if isinstance(defn, BaseDef):
            base_kinds.update(by_kind)
    game._trigger_index = index
    game._base_trigger_kinds = frozenset(base_kinds)
    game._turn_start_bases = turn_start_bases
    game._trigger_index_of = len(game.defs)


@cython.locals(t=Trigger, ev=Event)
def reaction_ctx(game, cid: int, trig, event: Event) -> Ctx:
    """The Ctx of a trigger: a base's is the base (you: the current player); a card that
    left play (a `leaves_play` trigger about itself) has its last controller and base."""
    zone = game.loc[cid]
    if zone[0] == "base":
        return Ctx(game, cid, game.current, zone[1])
    t, ev = trig, event
    if t.leaves_play and ev.card == cid and zone[0] not in IN_PLAY_ZONES:
        last = event.data.get("controller", event.player)
        return Ctx(game, cid, last if last is not None else game.owner[cid], event.base)
    ctrl = game.controller(cid)
    return Ctx(game, cid, ctrl if ctrl is not None else game.current)


@cython.locals(game=GameState, s=BaseSlot, state=MinionState)
def _cards_on(game, slot: BaseSlot):
    s = slot
    for m in s.minions:
        yield m
        state = game.minion_state[m]
        yield from state.attached
    yield from s.actions


@cython.locals(game=GameState)
def react_to_batch(game, batch: list[Event]):
    """The reactions to one batch of events (the events of one resolution), CR Card
    Resolution Order: step 3, every card in play (or base) that reacts to any event of the
    batch, gathered once and resolved in the order the current player picks, each
    reaction's own events resolving as a child batch right after it (`run_reactions`);
    step 4, Specials from hand that answer an event of the batch (`answer_window`)."""
    work = _batch_work(game, batch)
    if work is not None:
        yield from _react(game, *work)


@cython.locals(event=Event)
def _batch_work(game, batch: list[Event]) -> tuple | None:
    """What a batch sets off, for `_react`: (reactions, the mode's extras, the batch), or None
    when nothing can happen (no card reacts, no Special could answer an event of it)."""
    if not batch:
        return None
    if len(game.defs) != game._trigger_index_of:
        _index_triggers(game)
    reacted = game._trigger_index  # kinds some card or base of this game reacts to
    items = []
    for event in batch:
        if event.kind in reacted:
            found = _reactions_to(game, event)
            if found:
                items.extend([(cid, trig, event) for cid, trig in found])
    extra = game.batch_extras(batch)
    if items or extra:
        return items, extra, batch
    if game._window_cards_of != len(game.defs):
        game._index_specials()
    windows = game._window_cards
    for event in batch:
        if event.kind in windows:
            return items, extra, batch
    return None


@cython.locals(game=GameState)
def _react(game, items: list[tuple], extra: list[tuple], batch: list[Event]):
    if items or extra:
        yield from game.run_reactions(items, extra)
    yield from game.answer_window(batch)


@cython.locals(game=GameState)
def _run_child(game, gen, reaction=False):
    # A reaction (or a base's step ability) resolves; what it caused is its child batch.
    if game.resolution == 1:
        yield from _legacy_run_child(game, gen, reaction)
        return
    game._depth += 1
    try:
        yield from gen
    finally:
        game._depth -= 1
    work = _batch_work(game, game._take_events())
    if work is not None:
        yield from _react(game, *work)


# Resolution version 1 (records made before batches): each event's reactions in turn, a
# reaction resolving as a top-level resolution (which drains the shared queue of events).
def _legacy_process_events(game):
    while game._events:
        event = game._events.pop(0)
        yield from game.run_reactions(
            [(cid, trig, event) for cid, trig in _reactions_to(game, event)])


@cython.locals(game=GameState)
def _legacy_run_child(game, gen, reaction):
    if reaction:
        yield from resolve(game, gen)
        return
    game._depth += 1
    try:
        yield from gen
    finally:
        game._depth -= 1
    yield from _legacy_process_events(game)


@cython.locals(game=GameState)
def run_reactions(game, reactions: list[tuple], extra=()):
    """Resolve simultaneous reactions one by one in the order the current player picks.

    `reactions` are (card, trigger, event) triples; `extra` are (label, card,
    generator-factory) for a base's own ability in the same step (scoring, start of turn).
    Each one's own events resolve (as a child batch) before the next is picked.
    """
    pending = pending_items(reactions, extra)
    while pending:
        if len(pending) == 1:
            item = pending.pop()
        else:
            options = _reaction_options(game, pending)
            chosen = yield from game.ask(
                game.current, "order", "Several abilities happen now: pick the next one",
                options,
            )
            item = pending.pop(int(chosen[0].id))
        yield from run_item(game, item)


def pending_items(reactions, extra=()) -> list[tuple]:
    """`run_reactions`' list of what is to be ordered: ("t", card, trigger, event) for each
    reaction, ("x", label, card, generator-factory) for each extra (a base's own ability)."""
    pending = [("t", cid, trig, event) for cid, trig, event in reactions]
    pending += [("x", *e) for e in extra]
    return pending


def run_pending(game, pending: list):
    """`pending_items` resolved one by one in the order the current player picks (through
    `Game.run_reactions`, which a test may count)."""
    reactions = [(p[1], p[2], p[3]) for p in pending if p[0] == "t"]
    extra = [p[1:] for p in pending if p[0] == "x"]
    yield from game.run_reactions(reactions, extra)


@cython.locals(game=GameState)
def run_item(game, item):
    """Resolve one item of `pending_items` (its own events as a child batch): an extra at once;
    a reaction if its card still reacts, within the loop guard, after its yes/no if it is a
    "may"."""
    if item[0] == "x":
        _, label, cid, factory = item
        yield from _run_child(game, factory())
        return
    _, cid, trig, event = item
    if not _still_reacts(game, cid, trig, event):
        return
    key = (cid, trig.index)
    game._chain_counts[key] = game._chain_counts.get(key, 0) + 1
    if game._chain_counts[key] > TRIGGER_LIMIT:
        game.log(f"{game.name(cid)} has reacted {TRIGGER_LIMIT} times in a row and stops.")
        return
    ctx = reaction_ctx(game, cid, trig, event)
    if trig.optional_label is not None and game.loc[cid][0] != "base":
        use = yield from game.ask_yes_no(ctx.me, trig.optional_label, source=cid)
        if not use:
            return
    yield from _run_child(game, game.run_ability(trig.run, ctx, event), reaction=True)


@cython.locals(game=GameState)
def _reaction_options(game, pending) -> list[Option]:
    """The options of a reaction-order decision: one per pending reaction, its id its place
    in `pending`. A reaction is named by its card; when the reactions answer several events
    the event is named too; identical copies reacting alike (the same words, the same
    controller, the same host) are offered once (issue 9: never two identical options),
    since whichever goes first the outcome is the same."""
    if game.resolution == 1:
        return [Option(str(i), p[1] if p[0] == "x" else game.name(p[1]),
                       card=p[2] if p[0] == "x" else p[1]) for i, p in enumerate(pending)]
    several = len({id(p[3]) for p in pending if p[0] == "t"}) > 1
    options, seen = [], set()
    for i, p in enumerate(pending):
        if p[0] == "x":
            label, key = p[1], ("x", p[1], p[2])
            card = p[2]
        else:
            _, cid, trig, event = p
            label = game.name(cid)
            zone = game.loc[cid]
            if zone[0] == "attached":
                label += f" (on {game.name(zone[1])})"
            if several:
                label += f": {_event_words(game, event)}"
            key = (label, game.controller(cid), trig.index)
            # A card whose last words react after it went into a hand or a deck (Brownie
            # returned) is named, not pointed at: its id there is hidden from the chooser.
            card = cid if zone[0] not in ("hand", "deck") else None
        if key in seen:
            continue
        seen.add(key)
        options.append(Option(str(i), label, card=card))
    return options


@cython.locals(game=GameState)
def _event_words(game, event: Event) -> str:
    """A short description of an event for people ("after Invader is returned")."""
    verb = _EVENT_WORDS.get(event.kind, event.kind.replace("_", " "))
    if event.card is not None:
        text = f"after {game.name(event.card)} {verb}"
    else:
        text = verb
    slot = game.slot_or_none(event.base) if event.base is not None else None
    if slot is not None and slot.card != event.card:  # a base that came in is named once
        text += f" ({game.base_name(event.base)})"
    return text


def _still_reacts(game, cid, trig, event) -> bool:
    zone = game.loc[cid]
    if zone[0] == "base":
        slot = game.slot_or_none(zone[1])
        return (slot is not None and base_active(game, slot)
                and trig.applies(reaction_ctx(game, cid, trig, event), event))
    if zone[0] in IN_PLAY_ZONES:
        return (ability_active(game, cid)
                and trig.applies(reaction_ctx(game, cid, trig, event), event))
    # Its last words: a card that left play by this very event still reacts to it.
    return (trig.leaves_play and event.card == cid and cid not in game.left_cancelled
            and trig.applies(reaction_ctx(game, cid, trig, event), event))


# An event for people, in a reaction's option when it answers one of several events.
_EVENT_WORDS = {
    "minion_played": "is played", "action_played": "is played", "destroyed": "is destroyed",
    "returned": "is returned", "moved": "is moved", "placed": "is placed",
    "discarded": "is discarded", "transferred": "is transferred", "cancelled": "cancels a base",
    "base_entered": "comes into play",
    "attached": "is attached", "power_changed": "changes power",
    "counters_changed": "gets counters", "occupied": "takes a slot",
    "turn_start": "start of the turn",
    "turn_end": "end of the turn", "before_scoring": "before scoring",
    "when_scoring": "when scoring", "after_scoring": "after scoring",
}
