"""The effect vocabulary that card abilities are written in.

An ability receives a `Ctx`: the card whose ability it is, "you" (`ctx.me`, its controller) and
"here" (`ctx.here`, its base, or where it last was). Card code reads the game only through it:
queries are plain methods; effects that may ask a question, be prevented or replaced, or set off
reactions are generators used with `yield from` (a generator method called without `yield from`
raises EngineError instead of silently doing nothing: see `Effect`). The terms follow the
rulebooks' definitions (WWWT "Terms"): destroy, return, move, place, discard, transfer and play are
distinct events, each announced as its own `Event` naming the card and the player who caused it
(`by_card`, `by_player`), so that the cards that react to one do not react to another.

smashup/engine/README.md has the vocabulary as a table.
"""
from __future__ import annotations

import inspect
from functools import wraps

from .core import (
    ACTION,
    END_OF_TURN,
    MINION,
    EngineError,
    Event,
    Grant,
    Lasting,
    Option,
    card_option_id,
    counted,
    plain_option_id,
)


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
    called thousands of times a game and almost never dropped)."""

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
    def is_minion(self, cid: int | None = None) -> bool:
        return self.game.defs[self.card if cid is None else cid].kind == MINION

    def is_action(self, cid: int | None = None) -> bool:
        return self.game.defs[self.card if cid is None else cid].kind == ACTION

    def attaches_to(self, cid: int) -> str | None:
        """What an action card is played on: "minion", "base", or None (Flank Attack looks for
        "an action that is played on a base")."""
        return self.game.defs[cid].attach

    def printed_power(self, cid: int) -> int:
        """The power printed on a minion card (0 for other cards)."""
        return self.game.defs[cid].power

    def power(self, m: int) -> int:
        """Current power: printed power out of play, with every modifier in play."""
        return self.game.power(m)

    def faction_of(self, cid: int) -> str:
        return self.game.defs[cid].faction

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

    def counters(self, m: int) -> int:
        """The +1 power counters on a minion in play."""
        state = self.game.minion_state.get(m)
        return state.counters if state is not None else 0

    # ================================================================== the board ==============
    def bases(self, where=None) -> list[int]:
        return [s.uid for s in self.game.bases if where is None or where(s.uid)]

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
                if controller is not None and g.minion_state[m].controller != controller:
                    continue
                if where is not None and not where(m):
                    continue
                found.append(m)
        return found

    def controls(self, name: str, seat: int | None = None) -> bool:
        """Whether `seat` (you) controls a minion named `name` in play ("while you control a
        Microbot Alpha"): `minions` asked one question, stopping at the first such minion
        (a power modifier may ask it for every minion in play)."""
        g = self.game
        seat = self._seat(seat)
        defs, states = g.defs, g.minion_state
        for slot in g.bases:
            for m in slot.minions:
                if states[m].controller == seat and defs[m].name == name:
                    return True
        return False

    def targets(self, base: int | None = None, where=None, controller: int | None = None,
                effect=None) -> list[int]:
        """Minions as `minions`, without those this ability may not do `effect` to (a verb such
        as `ctx.destroy`, or its pipeline kind "destroy"; default any effect): a protection such
        as Smoke Bomb ("not affected") or Warbot ("cannot be destroyed") keeps a minion out. The
        minions it may choose to do something to. `choose_and` filters by its verb by itself."""
        game = self.game
        me = self.source_player
        kind = effect_kind(effect)
        return [m for m in self.minions(base, where, controller)
                if game.affects(self.card, me, m, kind)]

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
    def source_player(self) -> int | None:
        """The player whose ability this is, for protections ("other players' cards") and the
        events it causes (`by_player`): the controller; for a base's ability nobody, unless a
        player performs it (`acting`)."""
        return self.actor if self.game.defs[self.card].kind == "base" else self.me

    def acting(self, seat: int) -> Ctx:
        """This ability performed by player `seat`: a base's "that player may destroy/move..."
        (The Deep, Tornado Alley), or a card that makes another player do something ("each
        other player destroys one of their minions", Bear Hug). `seat` is "you", is asked the
        questions, and is the player who did it: protections read them (Converted Cave: "except
        by their controller") and so do the events' `by_player` (Imperial Dragon: who moved a
        minion; Shark Reef: who destroyed one)."""
        ctx = Ctx(self.game, self.card, seat, self._base)
        ctx.applied = self.applied
        ctx.actor = seat
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
        """Per-turn memory for "once per turn" abilities (cleared when a turn starts)."""
        return self.game.turn_state.flags.get((key, seat))

    def set_flag(self, key, seat: int | None = None, value=True):
        """Note plain data for this turn. A modifier may read it (Ancient Temple's blessed
        minion), so power is counted afresh after it (`Game.changed`)."""
        self.game.turn_state.flags[(key, seat)] = value
        self.game.changed()

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
        phase of the turn."""
        return [p for p in self.game.turn_state.plays
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

    # ================================================================== choose =================
    def _seat(self, seat):
        return self.me if seat is None else seat

    # Every question below takes `intent` (core.INTENTS): what the choice does to what is chosen,
    # "harm" or "help", declared where the choice is made (bots aim by it). The verbs' own
    # choosers (`choose_and`, `choose_and_move`) know it from the verb.
    def choose_minion(self, candidates, prompt, optional=False, seat=None, intent=None):
        """Pick one minion among `candidates`; None if there is none or the player declines."""
        g = self.game
        at, describe = g.label_version(), g.describe_minion
        options = [Option(card_option_id("m", m), (board_label, g, at, describe, m), card=m)
                   for m in candidates]
        chosen = yield from g.ask(self._seat(seat), "target", prompt, options,
                                  0 if optional else 1, 1, source=self.card, intent=intent)
        return chosen[0].card if chosen else None

    def choose_minions(self, candidates, prompt, min_count=0, max_count=None, seat=None,
                       intent=None):
        g = self.game
        at, describe = g.label_version(), g.describe_minion
        options = [Option(card_option_id("m", m), (board_label, g, at, describe, m), card=m)
                   for m in candidates]
        top = len(options) if max_count is None else max_count
        chosen = yield from g.ask(self._seat(seat), "targets", prompt, options, min_count, top,
                                  source=self.card, intent=intent)
        return [o.card for o in chosen]

    def choose_base(self, candidates, prompt, optional=False, seat=None, intent=None,
                    subject=None):
        """Pick a base. `subject`: the card that goes there (a minion moved or played), so the
        chooser can weigh each base for it."""
        g = self.game
        at, describe = g.label_version(), g.base_name
        options = [Option(f"b{u}", (board_label, g, at, describe, u), base=u) for u in candidates]
        chosen = yield from g.ask(self._seat(seat), "base", prompt, options,
                                  0 if optional else 1, 1, source=self.card, intent=intent,
                                  subject=subject)
        return chosen[0].base if chosen else None

    def choose_cards(self, candidates, prompt, min_count=1, max_count=1, seat=None, reveal=None,
                     say_where=False, intent=None):
        """Pick cards that are not in play (in a hand, a discard pile...). `reveal`: hidden cards
        the chooser may see while deciding (a deck searched, a hand looked at). `say_where`: each
        option says where its card lies when not in the chooser's hand (a search of a deck and
        a discard pile: the two zones' copies must not read the same)."""
        g = self.game
        chooser = self._seat(seat)
        options = [Option(card_option_id("c", c),
                          g.name(c) + (self._where_from(c, chooser) if say_where else ""), card=c)
                   for c in candidates]
        chosen = yield from g.ask(self._seat(seat), "cards", prompt, options, min_count,
                                  max_count, source=self.card, reveal=reveal, intent=intent)
        return [o.card for o in chosen]

    def choose_actions(self, candidates, prompt, min_count=1, max_count=1, seat=None,
                       intent=None):
        """Pick actions in play (on a minion or a base: Disenchant). Alike copies are offered
        once (`one_of_each`); each option says whose action it is and where it is. Returns the
        chosen actions (an empty list when declined or when there is none)."""
        g = self.game
        options = [Option(card_option_id("a", a), g.describe_action(a), card=a)
                   for a in self.one_of_each(candidates)]
        if not options:
            return []
        chosen = yield from g.ask(self._seat(seat), "actions", prompt, options,
                                  min(min_count, len(options)), min(max_count, len(options)),
                                  source=self.card, intent=intent)
        return [o.card for o in chosen]

    def choose_order(self, cards, prompt, seat=None, reveal=None):
        """Put cards in an order the player picks ("in any order"): one card at a time, the first
        picked first. Returns the ordered list; a single card needs no question."""
        remaining = list(cards)
        ordered = []
        while remaining:
            # Two copies a player cannot tell apart (in the same deck) are one option: either
            # one put next gives the same deck as far as anyone can see.
            picked = yield from self.choose_cards(self.one_of_each(remaining), prompt, 1, 1,
                                                  seat=seat, reveal=reveal)
            ordered.append(picked[0])
            remaining.remove(picked[0])
        return ordered

    def choose_player(self, candidates, prompt, optional=False, seat=None, intent=None):
        g = self.game
        options = [Option(f"p{p}", g.pname(p)) for p in candidates]
        chosen = yield from g.ask(self._seat(seat), "player", prompt, options,
                                  0 if optional else 1, 1, source=self.card, intent=intent)
        return int(chosen[0].id[1:]) if chosen else None

    def choose_one(self, prompt, choices, optional=False, seat=None, intent=None, kind="choice"):
        """One of several labelled choices: `choices` is [(key, label), ...] with keys of your
        own (any plain value); returns the chosen key, or None when declined (`optional`)."""
        choices = list(choices)
        options = [Option(plain_option_id(i), label, value=key)
                   for i, (key, label) in enumerate(choices)]
        chosen = yield from self.game.ask(self._seat(seat), kind, prompt, options,
                                          0 if optional else 1, 1, source=self.card,
                                          intent=intent)
        return chosen[0].value if chosen else None

    def name_faction(self, prompt="Name a faction", among=None, seat=None, intent=None):
        """Name a faction (Sea Dogs, Block the Path): one of `among`, by default every faction in
        this game. Returns its name. Each option's value is the faction's name; the question's
        kind stays "choice" (records hashed with digest 2 hold that kind: `bots.names_a_faction`
        tells it apart)."""
        names = list(among) if among is not None else self.factions_in_game()
        return (yield from self.choose_one(prompt, [(n, n) for n in names], seat=seat,
                                           intent=intent))

    def may(self, prompt, seat=None):
        """A "you may" with no target to pick: yes or no."""
        return (yield from self.game.ask_yes_no(self._seat(seat), prompt, source=self.card))

    def _able(self, effect, candidates) -> list[int]:
        # Candidates that are minions in play this ability may do `effect` to (others: as given).
        kind = effect_kind(effect)
        g = self.game
        me = self.source_player
        return [m for m in candidates
                if not g.is_minion_in_play(m) or g.affects(self.card, me, m, kind)]

    def choose_and(self, effect, candidates, prompt, optional=False, seat=None, intent=None):
        """Choose one minion among `candidates` and do `effect` to it (destroy, return_to_hand,
        place_on_deck_bottom...). Returns the minion, or None when there was none or the player
        declined a "may". Minions the effect could not act on (a protection: Warbot "cannot be
        destroyed" for `destroy`) are never offered. The choice's intent is the verb's
        (`VERB_INTENT`: destroy, return and place harm) unless given."""
        kind = effect_kind(effect)
        candidates = self._able(effect, candidates)
        if intent is None:
            intent = VERB_INTENT.get(kind) or self._move_intent(candidates, seat)
        target = yield from self.choose_minion(candidates, prompt, optional=optional, seat=seat,
                                               intent=intent)
        if target is not None:
            yield from effect(target)
        return target

    def _move_intent(self, candidates, seat) -> str:
        """A move of your own minions helps them (Way of Deception, Dinghy); a move that may take
        another player's minion away harms (Invasion, Shanghai)."""
        chooser = self._seat(seat)
        g = self.game
        return "help" if all(g.controller(m) == chooser for m in candidates) else "harm"

    def choose_and_move(self, candidates, prompt, to=None, optional=False, seat=None,
                        to_prompt="Move it to which base?", intent=None):
        """Choose a minion among `candidates`, then a base other than its own (among `to` if
        given), and move it there (Invasion, Way of Deception). Returns (minion, base), or None
        when nothing moved. Intent, unless given: "help" when every candidate is the chooser's
        own, else "harm"; the base question carries it too, with the minion as its subject."""
        candidates = self._able("move", candidates)
        if intent is None:
            intent = self._move_intent(candidates, seat)
        target = yield from self.choose_minion(candidates, prompt, optional=optional, seat=seat,
                                               intent=intent)
        if target is None:
            return None
        src = self.game.base_of(target)
        bases = [u for u in (self.bases() if to is None else to) if u != src]
        dest = yield from self.choose_base(bases, to_prompt, seat=seat, intent=intent,
                                           subject=target)
        if dest is None:
            return None
        moved = yield from self.move(target, dest)
        return (target, dest) if moved else None

    # ------------------------------------------------------------------ piles of alike cards --
    def choose_any_number(self, cards, prompt, seat=None, reveal=None, intent=None,
                          max_count: int | None = None):
        """Pick any number of `cards` (zero allowed: Lend a Hand, Microbot Reclaimer; "up to"
        `max_count`: Golden Age, Not Really Dead) one at a time, the copies a player cannot tell
        apart offered once each time (`one_of_each`), until the player stops. Returns the chosen
        cards in the order picked."""
        remaining, chosen = list(cards), []
        while remaining and (max_count is None or len(chosen) < max_count):
            picked = yield from self.choose_cards(
                self.one_of_each(remaining), f"{prompt} ({len(chosen)} chosen so far)", 0, 1,
                seat=seat, reveal=reveal, intent=intent)
            if not picked:
                break
            chosen.append(picked[0])
            remaining.remove(picked[0])
        return chosen

    def choose_same_name(self, cards, prompt, seat=None, reveal=None, max_count=None,
                         say_where=False, intent=None):
        """Pick any number of `cards` (at most `max_count` if given: Rock of Luuv) that all
        share one name (Mall Crawl, Not Enough Bullets): a name first (declining picks none),
        then how many of its copies when there are several. Returns the chosen cards."""
        g = self.game
        picked = yield from self.choose_cards(self.one_of_each(cards), prompt, 0, 1, seat=seat,
                                              reveal=reveal, say_where=say_where, intent=intent)
        if not picked:
            return []
        name = g.name(picked[0])
        same = [picked[0]] + [c for c in cards if c != picked[0] and g.name(c) == name]
        if max_count is not None:
            same = same[:max_count]
        if len(same) == 1:
            return same
        count = yield from self.choose_one(
            f"How many {name} cards?", [(n, f"{counted(n, name + ' card')}")
                                        for n in range(len(same), 0, -1)], seat=seat)
        return same[:count]

    def choose_play(self, cards, bases, prompt, optional=True, seat=None):
        """Pick a minion among `cards` (out of play: a discard pile...) and a base among `bases`
        in one question ("Walker on Jungle Oasis"), alike copies once. Returns (card, base uid),
        or None when the player declines or nothing fits; the caller plays it (`play_minion`)."""
        g = self.game
        seat = self._seat(seat)
        options = [Option(card_option_id("m", c, at=u), f"{g.name(c)} on {g.base_name(u)}",
                          card=c, base=u)
                   for c in self.one_of_each(cards) for u in self.playable_bases(c, bases, seat)]
        chosen = yield from g.ask(seat, "extra", prompt, options,
                                  0 if optional else 1, 1, source=self.card, intent="help")
        return (chosen[0].card, chosen[0].base) if chosen else None

    # ================================================================== numbers ================
    def gain_vp(self, seat: int, amount: int) -> None:
        g = self.game
        g.players[seat].vp += amount
        g.log(f"{g.pname(seat)} gains {amount} VP ({self.name(self.card)}).")

    @_acts_as("affect")
    def add_counters(self, m: int, count: int) -> bool:
        """Put `count` +1 power counters on a minion from the pool (a negative count removes that
        many to the pool): not a transfer (WWWT "Transfer"). A change of power, so a minion this
        ability may not affect keeps its counters. Announced as `counters_changed` (data
        "amount": the change). Returns True if the counters changed."""
        g = self.game
        state = g.minion_state.get(m)
        if state is None or count == 0 or not self.may_affect(m, "counters"):
            return False
        amount = max(count, -state.counters)
        if amount == 0:
            return False
        state.counters += amount
        self.game.changed()
        g.emit(self._event("counters_changed", m, g.base_of(m), state.controller,
                           {"amount": amount}))
        return True

    @_acts_as("affect")
    def add_power(self, m: int, amount: int, until: str = "end_of_turn", during: str | None = None,
                  with_source: bool = False) -> bool:
        """A minion gets `amount` power (may be negative) `until` "end_of_turn" (the current
        turn), "end_of_your_turn" (this turn if yours, else the end of your next turn:
        Augmentation, Howl), "start_of_your_next_turn" or "source_leaves_play"; only `during`
        "others" (other players' turns: Armor Stego) or "own" turns if given; ending early when
        this card leaves play if `with_source`. The minion must be affectable; it ends when the
        minion leaves play. Announced as `power_changed`. Returns True if it applied."""
        g = self.game
        if not g.is_minion_in_play(m) or not self.may_affect(m, "power"):
            return False
        self.lasting("power", m, amount=amount, until=until, during=during,
                     with_source=with_source, on_card=True)
        g.emit(self._event("power_changed", m, g.base_of(m), g.controller(m), {"amount": amount}))
        return True

    @_acts_as("affect")
    def power_until_end_of_turn(self, m: int, amount: int) -> bool:
        return self.add_power(m, amount)

    def lasting(self, kind: str, target=None, amount: int = 0, until: str = "end_of_turn",
                starts_next_turn_of: int | None = None, during: str | None = None,
                with_source: bool = False, data: dict | None = None,
                on_card: bool = False) -> Lasting:
        """Start a lasting effect of your own kind (plain data, read back with
        `lasting_effects`): e.g. Mark of Sleep's `lasting("cannot_play", seat,
        starts_next_turn_of=seat, data={"kind": "action"})` (during that player's next turn).
        `until` as in `add_power`, or a plain tuple (core.Lasting.ends). `on_card`: `target` is a
        card, and the effect ends when it leaves play."""
        ends = UNTIL[until](self) if isinstance(until, str) else until
        if starts_next_turn_of is not None and ends == ("turn_end", None):
            ends = ("turn_end", starts_next_turn_of)
        effect = Lasting(kind, target, amount, self.me, ends, self.card,
                         None if starts_next_turn_of is None
                         else ("turn_start", starts_next_turn_of),
                         during, with_source, dict(data or {}), on_card)
        self.game.lasting.append(effect)
        self.game._lasting_changed([effect])  # what power reads changed (Game.version)
        return effect

    def lasting_effects(self, kind: str, target=None, active_only: bool = True) -> list[Lasting]:
        """The lasting effects of `kind` (on `target` if given), only those in force now unless
        `active_only` is False."""
        g = self.game
        return [e for e in g.lasting if e.kind == kind and (target is None or e.target == target)
                and (not active_only or g.lasting_active(e))]

    @_acts_as("affect")
    def cancel_abilities(self, card: int, until: str = "start_of_your_next_turn") -> bool:
        """Cancel the abilities of a card in play (a minion: Mind Lady) `until` as in `add_power`:
        they are treated as if they did not exist (WWWT "Cancel"; `Game.ability_active`), even if
        this card leaves play meanwhile (IYF clarification, Mind Lady), and no longer once the
        cancelled card leaves play (played again it is a new card). The actions on it keep
        theirs. Having its ability cancelled is an affect (WWWT "Affect"): a protected card
        refuses it. Announced as `cancelled` (data "target") if its abilities were working.
        Returns True if it applied."""
        g = self.game
        if not g.in_play(card) or not self.may_affect(card, "cancel"):
            return False
        was_active = g.ability_active(card)
        self.lasting("cancel_abilities", card, until=until, on_card=True)
        g.log(f"{self.name(card)}'s abilities are cancelled ({self.name(self.card)}).")
        g.note_cancel(None, was_active, self.card, self.source_player, card=card)
        return True

    def abilities_cancelled(self, card: int) -> bool:
        """Whether the abilities of a card in play are cancelled now (Cuddle, Mind Lady)."""
        return not self.game.ability_active(card)

    def cancel_base_until_my_next_turn(self, uid: int) -> None:
        g = self.game
        was_active = g.base_active(g.slot(uid))
        g.lasting.append(Lasting("cancel_base", uid, 0, self.me, ("turn_start", self.me),
                                 self.card))
        g.changed()
        g.note_cancel(uid, was_active, self.card, self.me)

    # ================================================================== cards in hands ========
    def draw(self, seat: int, count: int) -> list[int]:
        return self.game.draw(seat, count)

    def discard_from_hand(self, seat: int, cards) -> None:
        """`seat` discards these cards from their hand (chosen by the caller)."""
        g = self.game
        cards = list(cards)
        for c in cards:
            g.move_card(c, ("discard", seat))
            g.emit(self._event("discarded", c, None, seat, {"from": "hand"}))
        if cards:
            g.log(f"{g.pname(seat)} discards {', '.join(self.name(c) for c in cards)}.")

    def discard_at_random(self, seat: int, count: int) -> list[int]:
        """`seat` discards `count` cards at random from their hand (Take the Shinies, Brownie),
        drawn with the game's seeded generator. Returns them."""
        hand = self.game.players[seat].hand
        cards = self.game.rng.sample(list(hand), min(count, len(hand))) if hand else []
        if cards:
            self.discard_from_hand(seat, cards)
        return cards

    def reveal_hand_to(self, viewer: int, seat: int) -> None:
        g = self.game
        names = ", ".join(self.name(c) for c in g.players[seat].hand) or "no cards"
        g.log(f"{g.pname(viewer)} looks at {g.pname(seat)}'s hand.")
        g.log(f"{g.pname(seat)}'s hand: {names}.", to=(viewer, seat))
        g.disclose(g.players[seat].hand, to=(viewer, seat))

    # ================================================================== decks ==================
    # WWWT Phase 4: to draw, reveal, search for or look at a card with an empty deck, shuffle the
    # discard pile into a new deck first. Every one of these goes through `Game.refill_deck`.
    def _deck_end(self, seat: int, count: int, bottom: bool) -> list[int]:
        g = self.game
        if count <= 0:
            return []
        g.refill_deck(seat, count, from_bottom=bottom)
        deck = g.players[seat].deck
        return list(reversed(deck[-count:])) if bottom else list(deck[:count])

    def _whose_deck(self, actor: int, seat: int, cards: list[int], bottom: bool) -> str:
        # "the top card of their deck", "the bottom 2 cards of P1's deck"
        end = "bottom" if bottom else "top"
        which = f"{end} card" if len(cards) == 1 else f"{end} {counted(len(cards), 'card')}"
        whose = "their" if actor == seat else f"{self.game.pname(seat)}'s"
        return f"the {which} of {whose} deck"

    def look_at_top(self, seat: int, count: int, viewer: int | None = None,
                    bottom: bool = False) -> list[int]:
        """`viewer` (default you) looks at the top `count` cards of `seat`'s deck (the bottom ones
        with `bottom`), shown to no one else (CR "Void Where Prohibited": "look" versus
        "reveal"). The cards stay where they are; returns them from that end inwards. The names
        go to the viewer's log only; a question about them passes them as `reveal`."""
        g = self.game
        viewer = self._seat(viewer)
        cards = self._deck_end(seat, count, bottom)
        if cards:
            g.log(f"{g.pname(viewer)} looks at {self._whose_deck(viewer, seat, cards, bottom)}.")
            g.log(f"You see {', '.join(self.name(c) for c in cards)}.", to=(viewer,))
            g.disclose(cards, to=(viewer,))
        return cards

    def look_then_top_or_bottom(self, seat: int | None = None):
        """`seat` (you) looks at the top card of their deck, then leaves it on top or puts it on
        the bottom (Grandma's House, Granny, Grandma). The labels name no card: the other players
        see the question, not the card. Returns "top", "bottom", or None for an empty deck."""
        seat = self._seat(seat)
        seen = self.look_at_top(seat, 1, viewer=seat)
        if not seen:
            return None
        where = yield from self.choose_one(f"{self.name(self.card)}: where does the card you saw "
                                           "go?", [("top", "Leave it on top"),
                                                   ("bottom", "Put it on the bottom")],
                                           seat=seat)
        if where == "bottom":
            self.put_on_deck(seen, bottom=True)
            self.log(f"{self.player_name(seat)} puts the top card of their deck on the bottom.")
        return where

    def choose_deck_end(self, card: int, seat: int | None = None):
        """`seat` (you) picks where `card` goes on its owner's deck: returns "deck_top" or
        "deck_bottom" (a `Scoring.redirect` destination; `put_on_deck(..., bottom=...)`):
        Always Room at Granny's, Chicken Soup, Retirement Community."""
        return (yield from self.choose_one(
            f"Put {self.name(card)} on the top or the bottom of the deck?",
            [("deck_top", "On top"), ("deck_bottom", "On the bottom")], seat=seat,
            intent="help"))

    def reveal_top(self, seat: int, count: int, bottom: bool = False) -> list[int]:
        """Reveal the top `count` cards of `seat`'s deck (the bottom ones with `bottom`) to
        everyone. The cards stay where they are; returns them from that end inwards."""
        g = self.game
        cards = self._deck_end(seat, count, bottom)
        if cards:
            g.log(f"{g.pname(self.me)} reveals {self._whose_deck(self.me, seat, cards, bottom)}: "
                  f"{', '.join(self.name(c) for c in cards)}.")
            g.disclose(cards)
        return cards

    def discard_from_deck(self, seat: int | None = None, count: int = 1) -> list[int]:
        """Discard the top `count` cards of `seat`'s (your) deck (a discard: `discarded`, data
        "from": "deck"); an empty deck takes the shuffled discard pile first. Returns them."""
        seat = self._seat(seat)
        cards = self._deck_end(seat, count, False)
        self.discard(cards)
        return cards

    def discard(self, cards) -> None:
        """Put cards that are not in play (in a deck or a hand, e.g. one looked at: Walker) into
        their owners' discard piles, each a `discarded` event."""
        for c in list(cards):
            self._discard_card(c)

    def _discard_card(self, cid: int) -> None:
        # A card that is not in play goes to its owner's discard pile (WWWT "Discard").
        g = self.game
        owner = g.owner[cid]
        src = g.loc[cid][0]
        g.move_card(cid, ("discard", owner))
        g.log(f"{self.name(cid)} goes to {g.pname(owner)}'s discard pile ({self.name(self.card)}).")
        g.emit(self._event("discarded", cid, None, owner, {"from": src}))

    def search(self, prompt: str, where=None, zones=("deck",), min_count: int = 0,
               max_count: int | None = None, to: str | None = "hand", seat: int | None = None,
               same_name: bool = False, intent: str | None = "help"):
        """Search your (`seat`'s) deck and/or discard pile (`zones`) for cards that pass `where`
        (up to `max_count`, by default one; with `same_name`: cards that share one name, by
        default any number of them, Mall Crawl; up to three, Rock of Luuv).
        The searcher sees the whole deck; the chosen cards are revealed to everyone and go `to`
        the "hand" (a place) or the "discard" pile; a searched deck is then shuffled (CR "Void
        Where Prohibited": a searched card is revealed, a searched deck shuffled). `intent`: a
        card found is one you want ("help") unless said otherwise. With
        `to=None` the chosen cards stay where they are for the ability to use (e.g. play one)
        and an ability that searched the deck must then call `shuffle_deck`. Returns the chosen
        cards; with nothing to search, nothing."""
        g = self.game
        seat = self._seat(seat)
        deck = []
        if "deck" in zones and g.refill_deck(seat):
            deck = sorted(g.players[seat].deck, key=lambda c: (g.name(c), c))  # not the order
        pile = list(g.players[seat].discard) if "discard" in zones else []
        if not deck and not pile:
            return []
        where_words = " and ".join(w for w, z in (("deck", deck), ("discard pile", pile)) if z)
        g.log(f"{g.pname(seat)} searches their {where_words} ({self.name(self.card)}).")
        candidates = [c for c in deck + pile if where is None or where(c)]
        if same_name:
            chosen = yield from self.choose_same_name(candidates, prompt, seat=seat, reveal=deck,
                                                      max_count=max_count,
                                                      say_where=bool(deck and pile),
                                                      intent=intent)
        else:
            max_count = 1 if max_count is None else max_count
            if max_count == 1:
                # One card taken: alike copies in one zone are one option (Scry: two Mystic
                # Studies in the deck). Taking several keeps every copy, to allow both.
                candidates = self.one_of_each(candidates)
            chosen = yield from self.choose_cards(candidates, prompt, min_count, max_count,
                                                  seat=seat, reveal=deck,
                                                  say_where=bool(deck and pile), intent=intent)
        if chosen:
            g.log(f"{g.pname(seat)} reveals {', '.join(self.name(c) for c in chosen)}.")
        for c in chosen:
            if to == "hand":
                self.place_in_hand(c, revealed=True)
            elif to == "discard" and g.loc[c][0] != "discard":
                self._discard_card(c)
        if deck and to is not None:
            self.shuffle_deck(seat)
        return chosen

    def search_deck(self, prompt: str, where=None, min_count: int = 0, max_count: int = 1,
                    to: str | None = "hand", seat: int | None = None):
        """`search` of the deck only."""
        return (yield from self.search(prompt, where, ("deck",), min_count, max_count, to, seat))

    def shuffle_deck(self, seat: int | None = None) -> None:
        g = self.game
        seat = self._seat(seat)
        g.rng.shuffle(g.players[seat].deck)
        g.log(f"{g.pname(seat)} shuffles their deck.")

    def place_in_hand(self, cid: int, revealed: bool = False) -> bool:
        """Place a card from a deck or a discard pile into its owner's hand: a "place" (WWWT
        "Place": e.g. from the discard pile to your hand), announced as `placed`. A card from a
        deck is named only to its owner unless it was `revealed` (found by a search, shown by
        `reveal_top`)."""
        g = self.game
        src = g.loc[cid][0]
        if src not in ("deck", "discard"):
            return False
        owner = g.owner[cid]
        g.move_card(cid, ("hand", owner))
        if src == "discard" or revealed:
            where = "discard pile" if src == "discard" else "deck"
            g.log(f"{self.name(cid)} goes from {g.pname(owner)}'s {where} into their hand "
                  f"({self.name(self.card)}).")
        else:
            g.log(f"{g.pname(owner)} puts a card from their deck into their hand "
                  f"({self.name(self.card)}).")
            g.log(f"You put {self.name(cid)} into your hand.", to=(owner,))
        g.emit(self._event("placed", cid, None, owner, {"to": "hand", "from": src}))
        return True

    def put_on_deck(self, cards, bottom: bool = False) -> None:
        """Put cards that are not in play on their owners' decks: on top with `cards[0]` the top
        card, or under the deck with `cards[-1]` the bottom card. For cards looked at or revealed
        ("put them back in any order": pick the order with `choose_order`). A card that comes
        from a hand or a discard pile is placed (`placed`); one that never left its deck was only
        rearranged, which is no event (our reading: nothing relocated it). A resolving action is
        sent with `after_resolving` instead."""
        g = self.game
        order = list(cards) if bottom else list(reversed(cards))
        for c in order:
            src = g.loc[c][0]
            if src not in ("deck", "hand", "discard"):
                continue
            owner = g.owner[c]
            g.move_card(c, ("deck", owner), None if bottom else 0)
            if src != "deck":
                g.emit(self._event("placed", c, None, owner,
                                   {"to": "deck_bottom" if bottom else "deck_top", "from": src}))

    @_acts_as("place")
    def shuffle_into_deck(self, cards):
        """Shuffle cards into their owners' decks (Lend a Hand, Microbot Reclaimer: from a discard
        pile; Dr Livingstone: a minion in play, which leaves play like any other). Each deck that
        got a card is shuffled once. A minion this ability may not affect stays. Each card is
        `placed` (data "to": "deck", "shuffled": True). Returns the cards that went."""
        g = self.game
        went, decks = [], []
        for c in list(cards):
            src = g.loc[c][0]
            if src == "minion":
                if not (yield from self._allowed("place", c)) or not g.is_minion_in_play(c):
                    continue
                uid, ctrl = self._leave_play(c)
                g.move_card(c, ("deck", g.owner[c]))
                g.emit(self._event("placed", c, uid, ctrl,
                                   {"to": "deck", "from": "play", "shuffled": True}))
            elif src in ("hand", "discard"):
                g.move_card(c, ("deck", g.owner[c]))
                g.emit(self._event("placed", c, None, g.owner[c],
                                   {"to": "deck", "from": src, "shuffled": True}))
            else:
                continue
            went.append(c)
            if g.owner[c] not in decks:
                decks.append(g.owner[c])
        if went:
            g.log(f"{', '.join(self.name(c) for c in went)} "
                  f"{'is' if len(went) == 1 else 'are'} shuffled into "
                  f"{'its owner' if len(went) == 1 else 'their owners'}' deck "
                  f"({self.name(self.card)}).")
        for seat in decks:
            self.shuffle_deck(seat)
        return went
        yield

    # ------------------------------------------------------------------ the base deck ---------
    def refill_base_deck(self) -> bool:
        """An empty base deck takes the shuffled base discard pile (it works like a player's
        deck, CR "Build the Base Deck"). True if the base deck holds a base."""
        return self.game.refill_base_deck()

    def look_at_bases(self, count: int, seat: int | None = None) -> list[int]:
        """`seat` (you) looks at the top `count` bases of the base deck (refilled from the base
        discard pile when empty). They stay there; returns them, the top one first. A question
        about them passes them as `reveal`."""
        g = self.game
        if not g.refill_base_deck():
            return []
        top = list(g.base_deck[:count])
        g.log(f"{g.pname(self._seat(seat))} looks at the top {counted(len(top), 'base')} of "
              f"the base deck.")
        return top

    def reveal_bases(self, count: int) -> list[int]:
        """Reveal the top `count` bases of the base deck to everyone (refilled from the base
        discard pile when empty). They stay there; returns them, the top one first."""
        g = self.game
        if not g.refill_base_deck():
            return []
        top = list(g.base_deck[:count])
        g.log(f"{g.pname(self.me)} reveals {', '.join(g.name(b) for b in top)} from the top of "
              f"the base deck.")
        g.disclose(top)
        return top

    def discard_bases(self, bases) -> None:
        """Put bases from the base deck into the base discard pile (Lost City's other base)."""
        g = self.game
        for b in bases:
            g.move_card(b, ("base_discard",))
            g.log(f"{g.name(b)} goes to the base discard pile.")

    def put_bases_on_deck(self, bases, bottom: bool = False) -> None:
        """Put bases from the base deck back on it in this order (`bases[0]` the top one; with
        `bottom`, `bases[-1]` the bottom one)."""
        g = self.game
        for b in (list(bases) if bottom else list(reversed(bases))):
            g.move_card(b, ("base_deck",), None if bottom else 0)

    def search_base_deck(self, prompt: str, seat: int | None = None):
        """Search the base deck for any base: the searcher sees every base in it; an empty base
        deck takes the base discard pile first. Returns the base card, or None when there is no
        base to find. The caller puts it somewhere, then shuffles the base deck."""
        g = self.game
        if not g.refill_base_deck():
            return None
        options = sorted(g.base_deck, key=g.name)
        chosen = yield from self.choose_cards(options, prompt, seat=seat, reveal=options)
        return chosen[0]

    def top_base(self) -> int | None:
        """The top base of the base deck (refilled from the base discard pile when empty), not
        looked at: for an ability that takes it without showing it first (Burn It Down)."""
        return self.game.draw_base()

    def base_discard_pile(self) -> list[int]:
        """The bases in the base discard pile (public)."""
        return list(self.game.base_discard)

    def put_back_bases(self, bases, seat: int | None = None):
        """Put bases looked at (the top of the base deck) back on the top and/or the bottom of
        the base deck in any order the player picks (Glory Hound): which go on top, then the
        order of each end."""
        bases = list(bases)
        if not bases:
            return
        top = yield from self.choose_cards(
            bases, "Which of these bases go back on top of the base deck (the others go to the "
            "bottom)?", min_count=0, max_count=len(bases), seat=seat, reveal=bases)
        bottom = [b for b in bases if b not in top]
        top = yield from self.choose_order(
            [b for b in bases if b in top], "Which of them is on top of the base deck?",
            seat=seat, reveal=bases)
        bottom = yield from self.choose_order(
            bottom, "Which of them goes under the base deck first (the others below it)?",
            seat=seat, reveal=bases)
        self.put_bases_on_deck(top)
        self.put_bases_on_deck(bottom, bottom=True)
        self.game.log(f"{self.game.pname(self._seat(seat))} puts "
                      f"{counted(len(top), 'base')} back on top of the base deck and "
                      f"{counted(len(bottom), 'base')} at the bottom.")

    def _bases_entered(self, uids, how: str, replaced: int | None) -> None:
        # One `base_entered` per base that has a new base card (Big Base: every side).
        for uid in uids:
            self.game.emit(self._event("base_entered", self.game.slot(uid).card, uid, None,
                                       {"how": how, "replaced": replaced}))

    def swap_base(self, uid: int, new_base: int) -> list[int]:
        """Put `new_base` (from the base deck) in the place of base `uid`; everything on it
        stays and the old base goes to the base deck (Terraforming). Announced as
        `base_entered` (data "how": "swapped"; WWWT clarification: Crypt Looter answers a
        swap too). Returns the bases that have the new base card."""
        old = self.game.slot(uid).card
        uids = self.game.swap_base(uid, new_base)
        self._bases_entered(uids, "swapped", old)
        return uids

    def add_base(self) -> list[int]:
        """Put the top base of the base deck into play as one more base (Idaho Smith); it is
        replaced as usual when it scores. Announced as `base_entered` ("how": "added").
        Returns the bases that have the new base card: the new one; none when no base is left
        anywhere; Big Base: every side (an added base replaces the base card instead, the Big
        Base rules)."""
        g = self.game
        new = g.draw_base()
        if new is None:
            return []
        uids = g.add_base(new)
        self._bases_entered(uids, "added", None)
        return uids

    def destroy_base(self, uid: int, replacement: int, minion_actions: bool = False):
        """Destroy base `uid` with every action attached to it (with `minion_actions`, also
        those attached to its minions: Not in Kansas) and put `replacement` (a base from the
        base deck or the base discard pile) in its place; its minions stay in play on the new
        base (Burn It Down). The destroyed base goes to the base discard pile. Announced as
        `base_entered` ("how": "replaced"). Returns the bases that have the new base card
        (Big Base: every side; the sides stay, the base card changes)."""
        g = self.game
        slot = g.slot(uid)
        actions = list(slot.actions)
        if minion_actions:
            actions += [a for m in slot.minions for a in g.minion_state[m].attached]
        for a in actions:
            yield from self.destroy_action(a)
        old = slot.card
        g.log(f"{self.name(old)} is destroyed ({self.name(self.card)}).")
        uids = g.swap_base(uid, replacement, old_to=("base_discard",))
        self._bases_entered(uids, "replaced", old)
        return uids

    def shuffle_base_deck(self) -> None:
        self.game.rng.shuffle(self.game.base_deck)

    # ================================================================== plays ==================
    def grant_extra(self, kind: str, seat: int | None = None, max_power=None, base=None,
                    zones=("hand",), condition: str | None = None):
        """An extra minion/action play. In the owner's Play Cards phase it is banked for the
        phase; at any other time it must be used at once or is lost (CR, "extra"). `zones`:
        where the card may come from ("hand", "discard": They Keep Coming); `condition`: a named
        condition on the base (plays.GRANT_CONDITIONS: Outbreak). Returns the card played at
        once, or None."""
        g = self.game
        seat = self._seat(seat)
        if condition is not None:
            # Imported here (plays imports this module), and only when needed: an import
            # statement costs more than the rest of a plain grant.
            from .plays import GRANT_CONDITIONS

            if condition not in GRANT_CONDITIONS:
                raise EngineError(f"unknown grant condition {condition!r}")
        grant = Grant(kind, max_power=max_power, base=base, source=self.name(self.card),
                      zones=tuple(zones), condition=condition)
        if g.phase == "play" and g.turn_state.seat == seat and g._depth <= 1:
            g.turn_state.grants.append(grant)
            where = " from their discard pile" if grant.zones == ("discard",) else ""
            g.log(f"{g.pname(seat)} may play an extra {kind}{where} ({self.name(self.card)}).")
            return None
        return (yield from self._play_now(grant, seat, True, None))

    def play_extra_now(self, kind=MINION, seat=None, max_power=None, base=None, optional=True,
                       cards=None, zones=("hand",), condition: str | None = None):
        """Play an extra card immediately: the player picks a legal play (`Game.legal_plays`)
        of a card from hand (or the `zones`, or among `cards`, e.g. a revealed deck top) that
        fits (and a base for a minion), or declines when `optional`. Returns the card played,
        or None. Cards of `cards` that lie in a deck were shown to the player (revealed or
        looked at): the question passes them as its `reveal`, so the chooser's view may name
        them."""
        grant = Grant(kind, max_power=max_power, base=base, source=self.name(self.card),
                      zones=tuple(zones), condition=condition)
        return (yield from self._play_now(grant, self._seat(seat), optional, cards))

    def _play_now(self, grant: Grant, seat: int, optional: bool, cards):
        g = self.game
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
            name = g.name(p.card) + self._where_from(p.card, seat)
            if p.base is not None:
                options.append(Option(card_option_id("m", p.card, at=p.base),
                                      f"{name} on {g.base_name(p.base)}", card=p.card,
                                      base=p.base, play=p))
            else:
                options.append(Option(card_option_id("a", p.card), name, card=p.card, play=p))
        shown = list(dict.fromkeys(p.card for p in plays if g.loc[p.card][0] == "deck"))
        chosen = yield from g.ask(seat, "extra", f"Play an extra {grant.kind} now?",
                                  g._mark_alike(options), 0 if optional else 1, 1,
                                  source=self.card, reveal=shown, intent="help")
        if not chosen:
            return None
        play = chosen[0].play
        if play.base is not None:
            yield from g.play_minion(seat, play.card, play.base, extra=True, as_kind=play.kind)
        else:
            yield from g.play_action(seat, play.card, extra=True)
            g.finish_action(play.card)
        return play.card

    def can_play(self, cid: int, base: int | None = None, seat: int | None = None,
                 kind: str | None = None) -> bool:
        """Whether `seat` (you) may play `cid` from where it is (onto `base`) now as an ability
        says (Hoverbot, Zombie Lord, a Special): a legal play of that one card (`legal_plays`),
        so no restriction (Block the Path, Overrun, Mark of Sleep) forbids it."""
        return self._ability_play(cid, base, self._seat(seat), kind) is not None

    def playable_bases(self, cid: int, bases=None, seat: int | None = None) -> list[int]:
        """The bases (of `bases`, default all) `seat` (you) may play minion `cid` on now, as an
        ability says (`can_play`)."""
        seat = self._seat(seat)
        g = self.game
        grant = Grant(MINION, card=cid, zones=(g.loc[cid][0],), source=self.name(self.card))
        allowed = {p.base for p in g.legal_plays(seat, grants=[grant], cards=[cid])}
        return [u for u in (self.bases() if bases is None else bases) if u in allowed]

    def _ability_play(self, cid: int, base, seat: int, kind=None):
        g = self.game
        kind = kind or g.defs[cid].kind
        grant = Grant(kind, base=base, card=cid, zones=(g.loc[cid][0],),
                      source=self.name(self.card))
        # Only its plays onto `base` are wanted (Bear Picnic asks this of every play elsewhere).
        for p in g.legal_plays(seat, grants=[grant], cards=[cid], kinds=(kind,), onto=base):
            if p.base == base:
                return p
        return None

    def restrict(self, seat: int, kind: str | None = None, base: int | None = None,
                 faction: str | None = None, until: str = "end_of_turn",
                 next_turn: bool = False) -> Lasting:
        """A lasting restriction: `seat` cannot play cards (of `kind`: MINION or ACTION; onto
        `base`; of `faction`) `until` ..., or with `next_turn` during their next turn only (Mark
        of Sleep: `ctx.restrict(p, ACTION, next_turn=True)`). `Game.forbids` reads it."""
        data = {k: v for k, v in (("kind", kind), ("base", base), ("faction", faction))
                if v is not None}
        if next_turn:
            return self.lasting("cannot_play", seat, until="end_of_turn",
                                starts_next_turn_of=seat, data=data)
        return self.lasting("cannot_play", seat, until=until, data=data)

    def _where_from(self, cid: int, seat: int) -> str:
        g = self.game
        zone = g.loc[cid]
        if zone == ("hand", seat):
            return ""
        whose = "your" if zone[1] == seat else f"{g.pname(zone[1])}'s"
        return {"deck": f" (from {whose} deck)", "discard": f" (from {whose} discard pile)"
                }.get(zone[0], "")

    def play_minion(self, cid: int, base: int, seat: int | None = None):
        """Play a given minion on a given base as an extra play (not counted against the free
        play), if that is a legal play (`can_play`). Returns the minion, or None when it is not
        (Block the Path)."""
        seat = self._seat(seat)
        if self._ability_play(cid, base, seat, MINION) is None:
            why = self.game.play_forbidden(seat, cid, base, MINION)
            self.game.log(f"{why or self.name(cid) + ' cannot be played there'}.")
            return None
        yield from self.game.play_minion(seat, cid, base, extra=True)
        return cid

    def attach(self, host: int, card: int | None = None):
        """Attach this action (`card`) to `host` (a minion's id or a base's uid, as its `attach`
        says) while it resolves: an action played through a Special that is played on a minion
        or a base (Dragon Lands). It stays in play, controlled by you. Returns True if it
        attached (a minion this ability may not affect cannot receive it)."""
        cid = self.card if card is None else card
        if self.game.defs[cid].attach == "base" and self.game.slot_or_none(host) is not None:
            yield from self.game.enter_base(cid, host, self.me)
        return self.game.attach(cid, self.me, host, by_card=self.card)

    attach.pipeline_kind = "affect"

    def after_resolving(self, to: str, card: int | None = None) -> None:
        """Where this resolving action goes when it has resolved, instead of its owner's discard
        pile (CR "Playing Actions" step 4): "deck_top" (Favor of Dionysus), "deck_bottom" or
        "hand". Announced as `placed` then."""
        cid = self.card if card is None else card
        if to not in ("deck_top", "deck_bottom", "hand"):
            raise EngineError(f"an action cannot go to {to!r} after resolving")
        if self.game.loc[cid][0] != "resolving":
            raise EngineError(f"{self.name(cid)} is not resolving")
        self.game.resolving_to[cid] = to

    def count_as_action_play(self) -> None:
        """This card's play also counts as you playing an action for every ability that reacts
        to one (Argonaut: "trigger every ability that would trigger from you playing an
        action"): announced as `action_played` naming this card, data "as_minion" True. It is
        no action play of the turn (the play itself is recorded as what it used)."""
        g = self.game
        g.emit(Event("action_played", card=self.card, base=self.here, player=self.me,
                     data={"as_minion": True}, by_card=self.card, by_player=self.me))

    # ================================================================== cards in play ==========
    def _event(self, kind, card, base, player, data=None) -> Event:
        return Event(kind, card=card, base=base, player=player, data=data or {},
                     by_card=self.card, by_player=self.source_player)

    def _leave_play(self, m: int) -> tuple[int, int]:
        """Take a minion out of play: its attached actions go to their owners' discard piles
        (WWWT "Return": attachments are discarded). Returns (base, controller) it had."""
        g = self.game
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
                         data={"from": "play"}, by_card=self.card, by_player=self.source_player))
        return uid, ctrl

    def _allowed(self, kind: str, target: int):
        """The first steps of the effect pipeline for `kind` ("destroy", "move", "return",
        "place") done to `target`: protections, then replacements ("instead"). True: go on."""
        g = self.game
        if not g.affects(self.card, self.source_player, target, kind):
            return False
        if g.affect_replaced(self.card, self.source_player, target, kind):
            return False
        replaced = yield from g.replace(kind, target, self)
        return not replaced

    @_acts_as("destroy")
    def destroy(self, m: int):
        """Destroy a minion: it goes to its owner's discard pile (`destroyed`). Returns True if
        it happened: a protection ("cannot be destroyed", "not affected") or a replacement
        ("instead", Tar Pits) may stop it."""
        g = self.game
        if not g.is_minion_in_play(m):
            return False
        if not (yield from self._allowed("destroy", m)) or not g.is_minion_in_play(m):
            return False
        uid, ctrl = self._leave_play(m)
        g.move_card(m, ("discard", g.owner[m]))
        g.log(f"{self.name(m)} is destroyed ({self.name(self.card)}).")
        g.emit(self._event("destroyed", m, uid, ctrl))
        return True

    def destroy_action(self, a: int):
        """Destroy an action in play (attached to a base or a minion)."""
        g = self.game
        if not g.in_play(a):
            return False
        uid = g.base_of(a)
        ctrl = g.controller(a)
        g.move_card(a, ("discard", g.owner[a]))
        g.log(f"{self.name(a)} is destroyed ({self.name(self.card)}).")
        g.emit(self._event("destroyed", a, uid, ctrl))
        return True
        yield

    def discard_from_play(self, a: int):
        """Discard an action in play (not a destroy: Wildlife Preserve): it goes to its owner's
        discard pile, announced as `discarded` (data "from": "play")."""
        g = self.game
        if not g.in_play(a) or g.is_minion_in_play(a):
            return False
        uid = g.base_of(a)
        ctrl = g.controller(a)
        g.move_card(a, ("discard", g.owner[a]))
        g.log(f"{self.name(a)} is discarded ({self.name(self.card)}).")
        g.emit(self._event("discarded", a, uid, ctrl, {"from": "play"}))
        return True
        yield

    @_acts_as("return")
    def return_to_hand(self, m: int):
        """Return a minion to its owner's hand (`returned`)."""
        g = self.game
        if not g.is_minion_in_play(m):
            return False
        if not (yield from self._allowed("return", m)) or not g.is_minion_in_play(m):
            return False
        uid, ctrl = self._leave_play(m)
        g.move_card(m, ("hand", g.owner[m]))
        g.log(f"{self.name(m)} returns to {g.pname(g.owner[m])}'s hand ({self.name(self.card)}).")
        g.emit(self._event("returned", m, uid, ctrl))
        return True

    @_acts_as("move")
    def move(self, m: int, to_base: int):
        """Move a minion, with what is attached to it, to another base (`moved`; the event's base
        is the destination, data "from" the origin). Not a play."""
        g = self.game
        if not g.is_minion_in_play(m):
            return False
        src = g.base_of(m)
        if src == to_base or g.slot_or_none(to_base) is None:
            return False
        if not (yield from self._allowed("move", m)):
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
        g.log(f"{self.name(m)} moves from {g.base_name(src)} to {g.base_name(to_base)} "
              f"({self.name(self.card)}).")
        g.emit(self._event("moved", m, to_base, state.controller, {"from": src}))
        return True

    @_acts_as("place")
    def place_on_deck_bottom(self, m: int):
        """Place a minion on the bottom of its owner's deck (a "place", not a destroy)."""
        g = self.game
        if not g.is_minion_in_play(m):
            return False
        if not (yield from self._allowed("place", m)) or not g.is_minion_in_play(m):
            return False
        uid, ctrl = self._leave_play(m)
        g.move_card(m, ("deck", g.owner[m]))
        g.log(f"{self.name(m)} goes to the bottom of {g.pname(g.owner[m])}'s deck "
              f"({self.name(self.card)}).")
        g.emit(self._event("placed", m, uid, ctrl, {"to": "deck_bottom", "from": "play"}))
        return True

    def transfer(self, card: int, to: int, counters: int | None = None):
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
        g = self.game
        if counters is not None:
            if (counters <= 0 or card == to or not g.is_minion_in_play(card)
                    or not g.is_minion_in_play(to)
                    or not (self.may_affect(card, "transfer")
                            and self.may_affect(to, "transfer"))):
                return False
            moved = min(counters, g.minion_state[card].counters)
            if moved == 0:
                return False
            g.minion_state[card].counters -= moved
            g.minion_state[to].counters += moved
            g.changed()
            g.log(f"{counted(moved, 'power counter')} go from {self.name(card)} to "
                  f"{self.name(to)} ({self.name(self.card)}).")
            g.emit(self._event("transferred", to, g.base_of(to), g.controller(to),
                               {"from": card, "counters": moved}))
            return True
        state = g.action_state.get(card)
        if state is None or state.host == to:
            return False
        if state.host_kind == "minion":
            if not g.is_minion_in_play(to) or not self.may_affect(to, "transfer"):
                return False
            was_active = g.ability_active(to)
            g.move_card(card, ("attached", to))
            where = self.name(to)
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
        g.log(f"{self.name(card)} is transferred to {where} ({self.name(self.card)}).")
        g.emit(self._event("transferred", card, g.base_of(card), state.controller,
                           {"from": source, "to": to}))
        if state.host_kind == "base":
            g.note_cancel(to, was_active, card, state.controller)
        elif g.defs[card].cancels_host:
            g.note_cancel(None, was_active, card, state.controller, card=to)
        return True
        yield

    # ================================================================== Dinosaurs (fb) =======
    def change_breakpoint(self, uid: int, amount: int, until: str = "end_of_turn") -> bool:
        """Base `uid`'s breakpoint changes by `amount` (negative lowers it: Rampage) `until` as in
        `add_power`. The change belongs to that base card: it ends if the base leaves play (a
        base swapped into its place is another base). The breakpoint never goes below 0
        (`breakpoint`). Returns True if it applied."""
        g = self.game
        slot = g.slot_or_none(uid)
        if slot is None or amount == 0:
            return False
        self.lasting("breakpoint", slot.card, amount=amount, until=until, on_card=True)
        g.log(f"{g.base_name(uid)}'s breakpoint is now {g.breakpoint(slot)} "
              f"({self.name(self.card)}).")
        return True

    # ================================================================== Pirates, Tornados ======
    def move_your_minions(self, limit: int | None = None, prompt="Move one of your minions?"):
        """Move up to `limit` (None: any number) of your minions, each to a base other than its
        own, one at a time until you stop (Dinghy, Full Sail, Whirlwinds). A minion moved once
        is not offered again; alike copies on one base are one option. Returns the moved."""
        moved = []
        while limit is None or len(moved) < limit:
            mine = self.one_of_each(self.targets(controller=self.me, effect="move",
                                                 where=lambda m: m not in moved))
            count = f" ({len(moved)} moved so far)" if moved else ""
            done = yield from self.choose_and_move(mine, f"{prompt}{count}", optional=True)
            if done is None:
                return moved
            moved.append(done[0])
        return moved

    def intent_of(self, action: int) -> str | None:
        """What an action played on a minion or base does to its host ("harm", "help", or None),
        as declared (`Faction.action(..., intent=)`): where to put it when moving it (Ripped
        Off)."""
        return self.game.defs[action].intent

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
            name = defs[c].name
            named[name] = named.get(name, 0) + 1
        if len(named) == len(cards):
            return cards
        key = self.game.alike_key
        seen, kept = set(), []
        for c in cards:
            if named[defs[c].name] == 1:
                kept.append(c)
                continue
            k = key(c)
            if k not in seen:
                seen.add(k)
                kept.append(c)
        return kept


class Ctx(_Ctx):
    """What an ability sees and does (see `_Ctx`), each verb and question wrapped below."""

    __slots__ = ()


# Every generator method of _Ctx (a verb or a question) is wrapped on Ctx so that calling it without
# `yield from` cannot pass unnoticed (Effect). No upkeep: a new generator method is wrapped too.
# Found by the generator flag of its code, which a function compiled by Cython (native.py, with
# binding) carries as a Python function does.
for _name, _fn in list(vars(_Ctx).items()):
    if getattr(getattr(_fn, "__code__", None), "co_flags", 0) & inspect.CO_GENERATOR:
        setattr(Ctx, _name, _effect(_fn))
del _name, _fn
