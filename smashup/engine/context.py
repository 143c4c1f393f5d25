"""What an ability is given: `_Ctx`, the card whose ability it is, "you" and "here", and the
questions it may ask about the board.

An ability receives a `Ctx` (effects.py): `_Ctx` with the verbs of the verb modules attached.
`_Ctx` holds its fields and its questions, which read the game and change nothing: who, where,
when (`me`, `here`, `current_player`, `opponents`); card facts (`power`, `controller`,
`owner`, `zone`); the board (`minions`, `targets`, `can_affect`, `breakpoint`); filters for
`where=`; memory (`flag`, `remember`, `in_play_mark`); the turn's plays; `one_of_each`. Also here:
`Effect`, the generator a verb returns, watched so that a verb called without `yield from` is
noticed; the pipeline kind of each verb (`effect_kind`, PIPELINE_KINDS) and the words `until=`
takes (UNTIL); `board_label`, an option's label read from the board.

Rules implemented here: WWWT "Terms and Restrictions": "you" are the card's controller, "here"
its base; "affect" (`can_affect`: a protection or an "instead" may keep a verb from a card);
"control"; "Cancel" (a cancelled card's questions still answer, its abilities do not run).

Compiled, `_Ctx` is an extension type (context.pxd) whose fields are C fields and whose game is a
GameState (state.pxd).
"""
from __future__ import annotations

from functools import wraps

import cython

from .core import (
    ACTION,
    END_OF_TURN,
    EXACT_CORNERS,
    MINION,
    EngineError,
    MinionState,
)
from .registry import _Declares
from .state import BaseSlot


def board_label(game, version: int, describe, *args) -> str:
    """An option's label read from the board (`Option.label`: `(board_label, game, version,
    describe, *args)`), formatted when first read: `describe(*args)` reads the board as it was
    when the question was asked, as long as it has not changed since (`Game.label_version`).
    Readers read labels while their question is open; a label read later, after the board
    moved, would describe another board, so it is refused rather than made up."""
    if game.version != version:
        raise EngineError("an option's label was read after the board changed: read labels "
                          "while their question is open")
    return describe(*args)


# `until=` of the lasting verbs, by the words cards use (core.Lasting.ends).
UNTIL = {
    "end_of_turn": lambda ctx: END_OF_TURN,
    "end_of_your_turn": lambda ctx: ("turn_end", ctx.me),
    "start_of_your_next_turn": lambda ctx: ("turn_start", ctx.me),
    "source_leaves_play": lambda ctx: None,
}


def effect_kind(effect) -> str:
    """The pipeline kind of a verb (`ctx.destroy` -> "destroy"), a kind given by name, or
    "affect" for None: what a protection must allow for the verb to act on a card."""
    if effect is None:
        return "affect"
    if isinstance(effect, str):
        if effect not in PIPELINE_KINDS:
            raise EngineError(f"unknown effect kind {effect!r} (known: {', '.join(PIPELINE_KINDS)})")
        return effect
    kind = getattr(getattr(effect, "__func__", effect), "pipeline_kind", None)
    if kind is None:
        raise EngineError(f"{effect!r} is not a verb that acts on a card")
    return kind


# What each verb that acts on a card in play is for the pipeline (`Ctx._allowed`): protections
# typed "destroy"/"move" stop only their kind; "affect" ones stop every kind (WWWT "Affect":
# moved, returned, destroyed, placed, changed in power, an action attached). The last four are
# kinds of "affect" that no typed protection names on its own; an "affect" replacement (Hideout)
# is told which one it is.
PIPELINE_KINDS = ("affect", "destroy", "move", "return", "place", "power", "counters", "transfer",
                  "attach")
# What each kind does to the card it is aimed at, for the intent of a choice made with it
# (core.INTENTS): a card destroyed, returned to its hand or placed in a deck is lost to its
# controller's board. A move is read from whose minions may be chosen (`Ctx._move_intent`); the
# other kinds depend on the amount or the card: the code that asks declares them.
VERB_INTENT = {"destroy": "harm", "return": "harm", "place": "harm"}


def _acts_as(kind):
    def mark(fn):
        fn.pipeline_kind = kind
        return fn
    return mark


class Effect:
    """What a generator method of `Ctx` returns: the generator, wrapped so that dropping it
    unstarted (a verb called without `yield from`, which would do nothing) is noticed. CPython
    frees it at the end of the statement; the game then raises EngineError at its next step
    (`Game.check_dropped`), naming the card and the verb (words made only then: verbs are
    called thousands of times a game and almost never dropped). Compiled, an extension type
    (context.pxd)."""

    __slots__ = ("gen", "ctx", "verb", "started")

    def __init__(self, gen, ctx, verb: str):
        self.gen = gen
        self.ctx = ctx
        self.verb = verb
        self.started = False

    def __iter__(self):
        self.started = True
        return self.gen

    # Driven by hand (tests that run a verb step by step) it behaves as its generator.
    def __next__(self):
        self.started = True
        return next(self.gen)

    def send(self, value):
        self.started = True
        return self.gen.send(value)

    def __del__(self):
        if not self.started:
            game = self.ctx.game
            if game is not None:
                game.dropped_effects.append(
                    f"ctx.{self.verb}(...) in {game.defs[self.ctx.card].name}")


def _effect(fn):
    name = fn.__name__

    @wraps(fn)
    def verb(self, *args, **kwargs):
        return Effect(fn(self, *args, **kwargs), self, name)

    verb.is_effect = True
    if hasattr(fn, "pipeline_kind"):
        verb.pipeline_kind = fn.pipeline_kind
    return verb


class _Ctx:
    """What an ability sees and does: `Ctx` is this class with its generator methods wrapped
    (Effect). Kept apart so that, compiled, this one is an extension type (effects.pxd) whose
    methods read their fields without a lookup, while Ctx stays a Python class that takes the
    wrappers."""

    __slots__ = ("game", "card", "me", "_base", "applied", "actor")

    def __init__(self, game, card: int, me: int, base: int | None = None):
        self.game = game
        self.card = card
        self.me = me
        self._base = base
        # The player who performs a base's ability ("that player may move...": Tornado Alley),
        # set by `acting`; None: nobody does (the base itself).
        self.actor = None
        # The replacements ("instead") already applied in the chain of effects this ability
        # belongs to, as (card, index, target): each applies once to an event, and not again to
        # what it does instead (`Game.replace`). Not state: it lives as long as the ability runs.
        self.applied = frozenset()

    # ================================================================== who, where, when =======
    @property
    def here(self) -> int | None:
        """The base this card is on (a base: itself; an attached action: its host's base). For a
        card that is not in play (a resolving action, a card that just left play), the base it
        was played on or last was on."""
        zone = self.game.loc[self.card]
        kind = zone[0]
        if kind in ("minion", "base_action", "base"):
            return zone[1]
        if kind == "attached":
            return self.game.base_of(zone[1])
        return self._base

    @property
    def current_player(self) -> int:
        return self.game.current

    @property
    def is_my_turn(self) -> bool:
        return self.game.current == self.me

    @property
    def phase(self) -> str:
        """The current turn's phase: "start", "play", "score", "draw" or "end"."""
        return self.game.phase

    @property
    def turn(self) -> int:
        return self.game.turn

    @property
    def resolution(self) -> int:
        """The rules of resolution this game plays by (`Game.resolution`, core.EXACT_CORNERS):
        a card whose reading changed reads it, so a record replays as it was played."""
        return self.game.resolution

    def players(self) -> list[int]:
        return list(range(len(self.game.players)))

    def opponents(self, seat: int | None = None) -> list[int]:
        """The other players than `seat` (you), clockwise from the next one."""
        seat = self._seat(seat)
        n = len(self.game.players)
        return [(seat + i) % n for i in range(1, n)]

    def players_from_current(self) -> list[int]:
        """Every player, from the current player clockwise (WWWT: "if a single effect affects
        multiple players, the order starts with the current player and goes clockwise")."""
        return self.game.seats_from_current()

    def in_turn_order(self, seats) -> list[int]:
        """These players, from the current player clockwise (tied winners each use a base's
        ability in that order, WWWT Tie Fighter)."""
        wanted = set(seats)
        return [s for s in self.game.seats_from_current() if s in wanted]

    # ------------------------------------------------------------------ names and log ---------
    def name(self, cid: int) -> str:
        return self.game.name(cid)

    def base_name(self, uid: int) -> str:
        return self.game.base_name(uid)

    def player_name(self, seat: int) -> str:
        return self.game.pname(seat)

    def log(self, text: str, to: tuple | None = None) -> None:
        """A log line; `to` limits it to these seats (something only they may know)."""
        self.game.log(text, to)

    # ================================================================== card facts =============
    # A definition typed (`_Declares`, registry.pxd) is read as C fields when compiled.
    @cython.locals(d=_Declares)
    def is_minion(self, cid: int | None = None) -> bool:
        d = self.game.defs[self.card if cid is None else cid]
        return d.kind == MINION

    @cython.locals(d=_Declares)
    def is_action(self, cid: int | None = None) -> bool:
        d = self.game.defs[self.card if cid is None else cid]
        return d.kind == ACTION

    def attaches_to(self, cid: int) -> str | None:
        """What an action card is played on: "minion", "base", or None (Flank Attack looks for
        "an action that is played on a base")."""
        return self.game.defs[cid].attach

    @cython.locals(d=_Declares)
    def printed_power(self, cid: int) -> int:
        """The power printed on a minion card (0 for other cards)."""
        d = self.game.defs[cid]
        return d.power

    def power(self, m: int) -> int:
        """Current power: printed power out of play, with every modifier in play."""
        return self.game.power(m)

    @cython.locals(d=_Declares)
    def faction_of(self, cid: int) -> str:
        d = self.game.defs[cid]
        return d.faction

    def factions_in_game(self) -> list[str]:
        """Every faction some player plays in this game, in seat order."""
        seen = []
        for p in self.game.players:
            for f in p.factions:
                if f not in seen:
                    seen.append(f)
        return seen

    def controller(self, cid: int) -> int | None:
        return self.game.controller(cid)

    def owner(self, cid: int) -> int | None:
        return self.game.owner[cid]

    def in_play(self, cid: int) -> bool:
        return self.game.in_play(cid)

    def zone(self, cid: int) -> str:
        """Where a card is: "hand", "deck", "discard", "play" (a minion, or an action on a base
        or a minion), "base" (a base in play), "resolving", "base_deck" or "base_discard"."""
        kind = self.game.loc[cid][0]
        return "play" if kind in ("minion", "base_action", "attached") else kind

    def base_of(self, cid: int) -> int | None:
        """The base a card in play is on (an attached action: its host's base)."""
        zone = self.game.loc[cid]
        if zone[0] == "base":
            return zone[1]
        return self.game.base_of(cid)

    def host_of(self, action: int) -> int | None:
        """What an action in play is attached to: a minion's card id or a base's uid."""
        state = self.game.action_state.get(action)
        return state.host if state is not None else None

    @cython.locals(state=MinionState)
    def counters(self, m: int) -> int:
        """The +1 power counters on a minion in play."""
        state = self.game.minion_state.get(m)
        return state.counters if state is not None else 0

    # ================================================================== the board ==============
    @cython.locals(slot=BaseSlot)
    def bases(self, where=None) -> list[int]:
        found = []  # a loop, not a comprehension: its slots typed
        for slot in self.game.bases:
            if where is None or where(slot.uid):
                found.append(slot.uid)
        return found

    @cython.locals(slot=BaseSlot, state=MinionState)
    def minions(self, base: int | None = None, where=None, controller: int | None = None
                ) -> list[int]:
        """Minions in play (on `base` if given, controlled by `controller` if given) that pass
        `where`: for counting and reading ("for each of your minions here"). To choose what an
        ability does something to, use `targets`."""
        g = self.game
        slots = [g.slot(base)] if base is not None else g.bases
        found = []
        for slot in slots:
            for m in slot.minions:
                if controller is not None:
                    state = g.minion_state[m]
                    if state.controller != controller:
                        continue
                if where is not None and not where(m):
                    continue
                found.append(m)
        return found

    def controls(self, name: str, seat: int | None = None) -> bool:
        """Whether `seat` (you) controls a working minion named `name` in play ("while you
        control a Microbot Alpha", read for what that card's ability does): one whose abilities
        are cancelled is as if it did not exist (WWWT "Cancel"; from resolution 3, before which
        any such minion counted). `minions` asked one question, stopping at the first such
        minion (a power modifier may ask it for every minion in play: Microbot Fixer, of each
        minion counted). The answer reads only what moves the board's `version` (zones,
        controllers, cancels), so it is kept for that version (`_controls_known`)."""
        g = self.game
        seat = self._seat(seat)
        if g._turn_seen is not g.turn_state or g._seat_seen != g.current:
            g._note_turn()  # a new turn noted first (`label_version`): a cancel may last some turns
        at = g.version
        known = g._controls_known
        if known[0] != at:
            known = g._controls_known = (at, {})
        answers = known[1]
        found = answers.get((name, seat))
        if found is None:
            found = answers[name, seat] = self._controls_now(name, seat)
        return found

    @cython.locals(slot=BaseSlot, state=MinionState, d=_Declares)
    def _controls_now(self, name: str, seat) -> bool:
        g = self.game
        defs, states = g.defs, g.minion_state
        gate = g.resolution >= EXACT_CORNERS
        for slot in g.bases:
            for m in slot.minions:
                state = states[m]
                if state.controller != seat:
                    continue
                d = defs[m]
                if d.name == name and (not gate or g.ability_active(m)):
                    return True
        return False

    def targets(self, base: int | None = None, where=None, controller: int | None = None,
                effect=None) -> list[int]:
        """Minions as `minions`, without those this ability may not do `effect` to (a verb such
        as `ctx.destroy`, or its pipeline kind "destroy"; default any effect): a protection such
        as Smoke Bomb ("not affected") or Warbot ("cannot be destroyed") keeps a minion out. The
        minions it may choose to do something to. `choose_and` filters by its verb by itself."""
        affects = self.game.affects  # looked up once, asked of each minion
        me = self.source_player
        card = self.card
        kind = effect_kind(effect)
        return [m for m in self.minions(base, where, controller) if affects(card, me, m, kind)]

    def can_affect(self, target: int, kind="affect") -> bool:
        """Whether this ability may do `kind` to `target` (a verb or a pipeline kind: "affect",
        "destroy", "move", "return", "place"). The verbs check it themselves: a card needs this
        only to tell a player beforehand."""
        return self.game.affects(self.card, self.source_player, target, effect_kind(kind))

    def may_affect(self, target: int, how: str = "affect") -> bool:
        """`can_affect`, at the moment the ability does it (`how`: "power", "counters",
        "transfer"... for the card that may replace it): a card whose "affect" replacement
        applies (Hideout) happens instead, and then this does not (False)."""
        kind = how if how in PIPELINE_KINDS else "affect"
        return (self.can_affect(target, kind)
                and not self.game.affect_replaced(self.card, self.source_player, target, how))

    def unaffected_by(self, source: int, cards) -> None:
        """From now on card `source` does not affect `cards` (Hideout: "that action does not
        affect your minions"): for the rest of its resolution, or as long as it stays in play
        (ended when it is discarded after resolving, or leaves play)."""
        self.lasting("unaffected_by", source, data={"cards": sorted(cards)},
                     until="source_leaves_play", on_card=True)

    def at_once(self, effect):
        """Run a verb that asks no question right now, from a plain function (an "affect"
        replacement: Hideout destroys itself). Returns what the verb returns; raises EngineError
        if it would ask something."""
        gen = iter(effect)
        try:
            next(gen)
        except StopIteration as done:
            return done.value
        gen.close()
        raise EngineError(f"{self.name(self.card)}: a verb used at once asked a question")

    @property
    @cython.locals(d=_Declares)
    def source_player(self) -> int | None:
        """The player whose ability this is, for protections ("other players' cards") and the
        events it causes (`by_player`): the controller; for a base's ability nobody, unless a
        player performs it (`acting`)."""
        d = self.game.defs[self.card]
        return self.actor if d.kind == "base" else self.me

    def acting(self, seat: int) -> _Ctx:
        """This ability performed by player `seat`: a base's "that player may destroy/move..."
        (The Deep, Tornado Alley), or a card that makes another player do something ("each
        other player destroys one of their minions", Bear Hug). `seat` is "you", is asked the
        questions, and is the player who did it: protections read them (Converted Cave: "except
        by their controller") and so do the events' `by_player` (Imperial Dragon: who moved a
        minion; Shark Reef: who destroyed one)."""
        ctx = type(self)(self.game, self.card, seat, self._base)  # a Ctx, as this one
        ctx.applied = self.applied
        ctx.actor = seat
        return ctx

    def performed_by(self, seat: int) -> _Ctx:
        """A base's ability that says who does it ("the winner may destroy", "each player puts",
        "that player may move") done by that player (issue 24, mechanism 2: every ability's
        effects are done by a player): `acting(seat)`, so the protections "by other players"
        and the cards that ask who destroyed or moved a minion read them. A record of
        resolution 2 replays as it was played: the base did it for nobody, `seat` being asked."""
        if self.game.resolution >= EXACT_CORNERS:
            return self.acting(seat)
        ctx = type(self)(self.game, self.card, seat, self._base)  # a Ctx, as this one
        ctx.applied = self.applied
        return ctx

    def attached(self, m: int) -> list[int]:
        return list(self.game.minion_state[m].attached)

    def actions_on_base(self, uid: int) -> list[int]:
        return list(self.game.slot(uid).actions)

    def breakpoint(self, uid: int) -> int:
        """A base's breakpoint now (`Game.breakpoint`): its starting value (printed, or set by a
        card in play: Turn Up to 11), with the modifiers of cards in play and lasting changes
        (`change_breakpoint`), never below 0. Every card that reads a breakpoint reads this."""
        return self.game.breakpoint(self.game.slot(uid))

    def printed_breakpoint(self, uid: int) -> int:
        """The breakpoint printed on base `uid` (Turn Up to 11 compares it with 21)."""
        return self.game.base_def(self.game.slot(uid)).breakpoint

    def total_power(self, uid: int) -> int:
        """The total power of every minion on a base."""
        return self.game.total_power(self.game.slot(uid))

    def player_power(self, uid: int, seat: int) -> int:
        """A player's total power on a base."""
        return self.game.player_power(uid, seat)

    def hand(self, seat: int | None = None) -> list[int]:
        return list(self.game.players[self._seat(seat)].hand)

    def discard_pile(self, seat: int | None = None) -> list[int]:
        return list(self.game.players[self._seat(seat)].discard)

    def deck_size(self, seat: int | None = None) -> int:
        return len(self.game.players[self._seat(seat)].deck)

    # ------------------------------------------------------------------ filters for `where` ---
    def power_at_most(self, limit: int):
        """A `where` filter: current power `limit` or less."""
        game = self.game
        return lambda m: game.power(m) <= limit

    def printed_power_at_most(self, limit: int):
        """A `where` filter: printed power `limit` or less (Laseratops; The Homeworld checks the
        card in hand)."""
        defs = self.game.defs
        return lambda c: defs[c].power <= limit

    # ================================================================== memory =================
    def flag(self, key, seat: int | None = None):
        """Per-turn memory for "once per turn" abilities (cleared when a turn starts). Read
        while power is counted (a modifier: Ancient Temple's blessed minion), the flag is noted
        as one power reads (`_power_flags`), so that setting it counts power afresh."""
        g = self.game
        if g._counting:
            g._power_flags.add((key, seat))
        return g.turn_state.flags.get((key, seat))

    def set_flag(self, key, seat: int | None = None, value=True):
        """Note plain data for this turn. A modifier may read it (Ancient Temple's blessed
        minion): when power has read it (`flag`), power is counted afresh after it
        (`Game.changed`); a flag no power count ever read changes no power."""
        g = self.game
        g.turn_state.flags[(key, seat)] = value
        if (key, seat) in g._power_flags:
            g.changed()

    def remember(self, key: str, value, card: int | None = None) -> None:
        """Note plain data on a card in play (default this one): Block the Path's named faction.
        It is forgotten when the card leaves play. A modifier may read it, so power is counted
        afresh after it (`Game.changed`)."""
        self._memory(card)[key] = value
        self.game.changed()

    def recall(self, key: str, default=None, card: int | None = None):
        """What `remember` noted on a card in play, or `default` (also once it left play)."""
        state = self._state(self.card if card is None else card)
        return default if state is None else state.memory.get(key, default)

    def _state(self, cid):
        g = self.game
        return g.minion_state.get(cid) or g.action_state.get(cid)

    def _memory(self, card):
        cid = self.card if card is None else card
        state = self._state(cid)
        if state is None:
            raise EngineError(f"{self.name(cid)} is not in play: nothing can be remembered on it")
        return state.memory

    def in_play_mark(self, m: int) -> tuple[int, int]:
        """Remember minion `m` as the card in play it is now, for an ability that chooses it first
        and acts on it later (Disguise): see `still_in_play`."""
        return (m, self.game.minion_state[m].entered)

    def still_in_play(self, mark: tuple[int, int]) -> bool:
        """Whether a minion remembered with `in_play_mark` is still that card in play. One that
        left play since (returned, destroyed...) is not, even if it was played again: played
        again it is a new card in play (CR "Void Where Prohibited": effects end when their card
        leaves play; MinionState.entered). A move or a change of controller keeps it the same."""
        m, entered = mark
        state = self.game.minion_state.get(m)
        return state is not None and state.entered == entered

    # ================================================================== the turn's plays =======
    def plays(self, seat: int | None = None, kind: str | None = None, base: int | None = None,
              phase: str | None = None) -> list:
        """The cards played this turn (core.PlayRecord: seat, card, kind, base, phase, extra,
        special), oldest first, by anyone unless `seat` is given, of a kind, on a base, in a
        phase of the turn. `kind` is what the card is: a minion played with an action play
        (Argonaut) is a minion played, for "the first minion you played", "a minion you played
        here" and the like; it only did not use the minion play (issue 24; from resolution 3,
        before which the play's kind was read)."""
        game = self.game
        if kind is not None and game.resolution >= EXACT_CORNERS:
            defs = game.defs
            return [p for p in game.turn_state.plays
                    if (seat is None or p.seat == seat)
                    and (p.kind if p.card is None else defs[p.card].kind) == kind
                    and (base is None or p.base == base) and (phase is None or p.phase == phase)]
        return [p for p in game.turn_state.plays
                if (seat is None or p.seat == seat) and (kind is None or p.kind == kind)
                and (base is None or p.base == base) and (phase is None or p.phase == phase)]

    def first_minion_played(self, seat: int | None = None) -> int | None:
        """The first minion `seat` (you) played this turn, in any phase, or None (Microbot Fixer:
        "if this is the first minion you played this turn" is `first_minion_played() ==
        ctx.card`)."""
        found = self.plays(self._seat(seat), MINION)
        return found[0].card if found else None

    def played_minion_here(self, seat: int | None = None, base: int | None = None) -> bool:
        """Whether `seat` (you) played a minion on `base` (here) this turn (Hot Venue)."""
        return bool(self.plays(self._seat(seat), MINION, self.here if base is None else base))

    # ================================================================== for the verbs ==========
    def _seat(self, seat):
        return self.me if seat is None else seat

    def intent_of(self, action: int) -> str | None:
        """What an action played on a minion or base does to its host ("harm", "help", or None),
        as declared (`Faction.action(..., intent=)`): where to put it when moving it (Ripped
        Off)."""
        return self.game.defs[action].intent

    @cython.locals(d=_Declares)
    def one_of_each(self, cards) -> list[int]:
        """`cards` with the copies a player could not tell apart kept once (the first): identical
        copies must never give identical options (`Game.alike_key`: in play, the same name, base,
        controller, owner, power, counters and attached cards, and for an attached action a host
        alike; elsewhere the same name, zone and owner)."""
        cards = list(cards)
        # A key starts with the card's name: only cards sharing a name need theirs (a key reads
        # powers, hosts and cancels).
        defs = self.game.defs
        named: dict[str, int] = {}
        for c in cards:
            d = defs[c]
            name = d.name
            named[name] = named.get(name, 0) + 1
        if len(named) == len(cards):
            return cards
        key = self.game.alike_key
        seen, kept = set(), []
        for c in cards:
            d = defs[c]
            if named[d.name] == 1:
                kept.append(c)
                continue
            k = key(c)
            if k not in seen:
                seen.add(k)
                kept.append(c)
        return kept
