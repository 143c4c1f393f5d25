"""Plain data types of the engine: errors, decisions, events and the per-card state in play.

Nothing here knows the rules; `game.py` does. Everything is plain Python so that a decision can be
shown to a person, sent over a socket or stored as JSON without conversion.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import cython


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """'1 card', '2 cards': log lines and prompts read as sentences, never 'card(s)'."""
    return f"{count} {noun if count == 1 else (plural or noun + 's')}"


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalChoice(EngineError):
    """A choice was refused. The game is unchanged when this is raised."""


class ConfigError(EngineError):
    """A game configuration or scenario cannot be built."""


class ReplayMismatch(EngineError):
    """A replayed record drifted from the state hashes stored with it."""


MINION = "minion"
ACTION = "action"
BASE = "base"

# Every kind of event a card may react to (`trigger`), and every Special window a card may use
# (`special`). A declaration naming anything else is refused at once (`registry.py`), so a
# misspelt name cannot fail silently. Each event's fields are described in smashup/engine/README.md.
EVENT_KINDS = frozenset({
    "minion_played", "action_played", "destroyed", "returned", "moved", "placed", "discarded",
    "transferred", "cancelled", "attached", "power_changed", "counters_changed",
    "turn_start", "turn_end", "before_scoring", "when_scoring", "after_scoring",
    "occupied",  # Big Base: a card entered an empty slot (bigbase/rules; data "slot")
    "base_entered",  # a base came into play (data "how": dealt, added, replaced, swapped)
})
# Events a card that has just left play can still react to, as its "last words" (a trigger
# declared with `leaves_play=True`): the events that take a card out of play.
LEAVES_PLAY_KINDS = frozenset({"destroyed", "returned", "placed", "discarded"})
# Windows in which Specials are used: the scoring steps and the start of a turn. A Special may also
# answer an event (CR Card Resolution Order step 4: "cards in hand with a Special ability that can
# be activated because of" what happened): then its window is that event's kind.
SPECIAL_WINDOWS = frozenset({"before_scoring", "after_scoring", "turn_start"}) | EVENT_KINDS

# Option ids. An option about a card carries the card's id in its option id (a page may show the id
# without the option's "card" key), so every such id is made by `card_option_id` and the leak check
# of `invariants.py` reads card ids back with `CARD_OPTION_ID`: a new kind of option cannot hide a
# card from it. Prefixes: m minion (in play, or a minion played "m<card>@<base>"), a action,
# c card not in play, t talent, s Special ("s<card>:<n>").
CARD_OPTION_PREFIXES = "macts"
_CARD_OPTION_PREFIX_SET = frozenset(CARD_OPTION_PREFIXES)  # one letter each
CARD_OPTION_ID = re.compile(r"^([" + CARD_OPTION_PREFIXES + r"])(\d+)((?:[@:]\d+)*)$")
# Every other option id names no card: a base ("b3"), a player ("p1"), a labelled choice ("o2"), a
# position in a list of abilities to order ("0"), or a fixed word.
PLAIN_OPTION_ID = re.compile(r"^(?:[bpo]\d+|\d+|yes|no|pass|end)$")

# What a choice does to what is chosen, as the code that asks declares it (`Decision.intent`):
# "harm" (destroyed, returned, placed, moved away, weakened, discarded, a faction barred: aim it
# at other players' cards) or "help" (moved where it counts, made stronger, saved, taken into
# hand: aim it at your own). None: neither, or both equally (a base to swap, an order to pick).
# Bots read it there, never from card names (bots.py).
INTENTS = ("harm", "help")


def card_option_id(prefix: str, card: int, *, at: int | None = None, index: int | None = None) -> str:
    """The option id of an option about `card`: `prefix` one of CARD_OPTION_PREFIXES, `at` a base
    uid ("m12@3": card 12 onto base 3), `index` a number within the card ("s12:0": its first
    Special)."""
    if prefix not in _CARD_OPTION_PREFIX_SET:
        raise EngineError(f"unknown card option prefix {prefix!r}")
    # Each shape written at once: made for every play and target offered.
    if index is None:
        return f"{prefix}{card}" if at is None else f"{prefix}{card}@{at}"
    return f"{prefix}{card}:{index}" if at is None else f"{prefix}{card}@{at}:{index}"


def plain_option_id(index: int) -> str:
    """The option id of a labelled choice that names no card (`Ctx.choose_one`): "o<n>"."""
    return f"o{index}"


@dataclass
class _OptionFields:
    """Option's fields as a dataclass describes them: `Option` shares them (`dataclasses.fields`,
    `replace`, `asdict`, and the digest, which reads all but the "words": `game._fields_of`)."""

    id: str
    label: str = field(metadata={"words": True})  # for people; not state (the digest skips it)
    card: int | None = None  # card the option is about, if any (a hand card, a minion...)
    base: int | None = None  # base slot uid the option is about, if any
    value: Any = None  # engine-side payload; never shown to other seats
    # The id of the option shown in this one's place when this one is an identical copy's (the
    # same play with another copy of a card in hand): never shown (Decision.public), so no
    # decision shows two identical options, yet still accepted, so every record replays.
    alike: str | None = field(default=None, metadata={"words": True})
    # The legal play it makes (core.Play, `Game.legal_plays`), for a play of a card. Digest 3
    # reads it (`since`); `value` keeps the shape records hashed with digest 2 were made with.
    play: Any = field(default=None, metadata={"since": None})


class Option:
    """One thing a seat may pick. `id` is stable for the decision; `label` is for people.

    A label is a string, or `(function, *args)`: formatted by `function(*args)` when first read,
    since most are never read (a bot picks by id). Its words must not change before it is read:
    args that are fixed (names), or a function that refuses to read a board that changed since
    the question was asked (`effects.minion_label`). Otherwise the dataclass of
    `_OptionFields`: the same fields, init, repr and equality."""

    __slots__ = ("id", "_label", "card", "base", "value", "alike", "play")
    __dataclass_fields__ = _OptionFields.__dataclass_fields__
    __dataclass_params__ = _OptionFields.__dataclass_params__
    __match_args__ = ("id", "label", "card", "base", "value", "alike", "play")
    __hash__ = None  # as a dataclass with eq: mutable, so not hashable

    def __init__(self, id: str, label, card: int | None = None, base: int | None = None,
                 value: Any = None, alike: str | None = None, play: Any = None):
        self.id = id
        self._label = label
        self.card = card
        self.base = base
        self.value = value
        self.alike = alike
        self.play = play

    @property
    def label(self) -> str:
        label = self._label
        if type(label) is tuple:
            label = self._label = label[0](*label[1:])
        return label

    @label.setter
    def label(self, text: str) -> None:
        self._label = text

    def label_as_made(self):
        """The label as given (formatted or not): what a copy of this option keeps."""
        return self._label

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        # The label last, so that options that differ otherwise are told apart unformatted.
        return ((self.id, self.card, self.base, self.value, self.alike, self.play)
                == (other.id, other.card, other.base, other.value, other.alike, other.play)
                and self.label == other.label)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(id={self.id!r}, label={self.label!r}, "
                f"card={self.card!r}, base={self.base!r}, value={self.value!r}, "
                f"alike={self.alike!r}, play={self.play!r})")

    def public(self) -> dict:
        data = {"id": self.id, "label": self.label}
        if self.card is not None:
            data["card"] = self.card
        if self.base is not None:
            data["base"] = self.base
        return data


# The default of a field made by a factory (a new list or dict each time), as a dataclass's
# `__init__` tells it apart: an argument left out (None passed is kept, as there).
_MADE = object()

@dataclass
class _DecisionFields:
    """Decision's fields as a dataclass describes them (`dataclasses.fields`, the digest's
    reader, forks), as `Option` does `_OptionFields`'."""

    id: str
    seat: int
    kind: str
    prompt: str = field(metadata={"words": True})  # for people; not state (the digest skips it)
    options: list[Option] = field(default_factory=list)
    min_count: int = 1
    max_count: int = 1
    source: int | None = None  # card id that asks, if any
    reveal: list[int] = field(default_factory=list)  # hidden cards the deciding seat may see
    # Advice fixed by the code that asks, like the prompt, so not state (the digest skips it):
    # what the choice does to the card, base, player or faction chosen (INTENTS), and the card the
    # question is about when no option names it (the minion to move, the card to play on a base).
    intent: str | None = field(default=None, metadata={"words": True})
    subject: int | None = field(default=None, metadata={"words": True})


class Decision:
    """The one open question of a game.

    A choice is a list of option ids with `min_count <= len <= max_count` (no repeats). Declining is
    choosing nothing, which is legal exactly when `min_count == 0`.

    The dataclass of `_DecisionFields` (the same fields, init, repr and equality), written out
    so that compiled it is an extension type (core.pxd), as `Option`: every choice reads it
    (`Game.apply`, the bots). `options` is a property so that a lazy decision (`Decision.lazy`)
    lists its options only when they are read (`_options`, `_lazy`: its source)."""

    __slots__ = ("id", "seat", "kind", "prompt", "_options", "min_count", "max_count", "source",
                 "reveal", "intent", "subject", "_lazy")
    __dataclass_fields__ = _DecisionFields.__dataclass_fields__
    __dataclass_params__ = _DecisionFields.__dataclass_params__
    __match_args__ = _DecisionFields.__match_args__
    __hash__ = None

    def __init__(self, id: str, seat: int, kind: str, prompt: str, options=_MADE,
                 min_count: int = 1, max_count: int = 1, source: int | None = None,
                 reveal=_MADE, intent: str | None = None, subject: int | None = None):
        self.id = id
        self.seat = seat
        self.kind = kind
        self.prompt = prompt
        self._options = [] if options is _MADE else options
        self._lazy = None
        self.min_count = min_count
        self.max_count = max_count
        self.source = source
        self.reveal = [] if reveal is _MADE else reveal
        self.intent = intent
        self.subject = subject

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return _values(self) == _values(other)

    def __repr__(self) -> str:
        return _text(self)

    @property
    def options(self) -> list[Option]:
        options = self._options
        if options is None:
            options = self._options = self._lazy.options()
            self._lazy = None
        return options

    @options.setter
    def options(self, value) -> None:
        self._options = value
        self._lazy = None

    def _listed(self) -> list[Option]:
        # `options`, read without a property's lookup by name when listed already.
        options = self._options
        return options if options is not None else self.options

    @property
    def may_decline(self) -> bool:
        return self.min_count == 0

    @cython.locals(opt=Option)
    def option(self, option_id: str) -> Option | None:
        lazy = self._lazy
        if lazy is not None:
            # A question whose options are not listed yet (replay: `Game.lazy_options`) looks
            # the one option up: the same Option, or None, as the whole list would give.
            return lazy.find(option_id)
        for opt in self._listed():
            if opt.id == option_id:
                return opt
        return None

    def option_count(self) -> int:
        """`len(options)`, counted without listing them when a lazy decision's source can
        (`count()`: the main decision in live play)."""
        lazy = self._lazy
        if lazy is not None:
            count = getattr(lazy, "count", None)
            if count is not None:
                return count()
        return len(self._listed())

    @cython.locals(opt=Option)
    def option_id(self, index: int) -> str:
        """`options[index].id`, without listing them when a lazy decision's source can
        (`id_at(index)`): a bot's uniform pick by index (bots.py)."""
        lazy = self._lazy
        if lazy is not None:
            id_at = getattr(lazy, "id_at", None)
            if id_at is not None:
                return id_at(index)
        opt = self._listed()[index]
        return opt.id

    @classmethod
    def lazy(cls, source, *args, **kw) -> Decision:
        """A decision whose options `source` lists when they are first read (`source.options()`)
        and can look up one by one before that (`source.find(option_id)`): a replay checks each
        recorded choice without listing every option of the main decision. The state must not
        change before its options are read or it is answered (`answered`)."""
        decision = cls(*args, **kw)
        decision._options = None
        decision._lazy = source
        return decision

    def answered(self) -> None:
        """Its choice was made: options never listed cannot be listed any more (the board
        they depended on has changed)."""
        if self._lazy is not None:
            self._lazy = _Answered()

    def public(self) -> dict:
        return {
            "id": self.id,
            "seat": self.seat,
            "kind": self.kind,
            "prompt": self.prompt,
            "options": [o.public() for o in self.options if o.alike is None],
            "min": self.min_count,
            "max": self.max_count,
            "may_decline": self.may_decline,
            "source": self.source,
        }


class _Answered:
    """The source of a lazy decision answered before its options were listed."""

    def options(self):
        raise EngineError("this decision was answered before its options were listed")

    find = options


@dataclass
class _EventFields:
    """Event's fields as a dataclass describes them: `Event` shares them (`dataclasses.fields`,
    `replace`, the digest and forks read them), as `Option` does `_OptionFields`'."""

    kind: str
    card: int | None = None
    base: int | None = None  # slot uid where it happened (for a move: the destination)
    player: int | None = None  # whose card it was, or whose turn (see each kind)
    data: dict = field(default_factory=dict)
    by_card: int | None = None
    by_player: int | None = None


class Event:
    """Something that happened, for abilities that react to it ("after X...").

    `player` is whose card it was (its controller in play, its owner elsewhere) or whose turn it
    is, per kind (README). `by_card` and `by_player` name what caused it: the card whose ability
    did it and the player who controlled that ability (the destroyer, the mover...); the player
    who played a card for `minion_played`/`action_played`; None when the rules did it (a scored
    base's cards put away, the hand limit).

    The dataclass of `_EventFields` (the same fields, init, repr and equality), written out so
    that compiled it is an extension type (core.pxd): hundreds are made a game, and a dataclass's
    `__init__`, run as Python, cost four times as much to make one."""

    __slots__ = ("kind", "card", "base", "player", "data", "by_card", "by_player")
    __dataclass_fields__ = _EventFields.__dataclass_fields__
    __dataclass_params__ = _EventFields.__dataclass_params__
    __match_args__ = ("kind", "card", "base", "player", "data", "by_card", "by_player")
    __hash__ = None  # as a dataclass with eq: mutable, so not hashable

    def __init__(self, kind: str, card: int | None = None, base: int | None = None,
                 player: int | None = None, data: dict | None = None,
                 by_card: int | None = None, by_player: int | None = None):
        self.kind = kind
        self.card = card
        self.base = base
        self.player = player
        self.data = {} if data is None else data  # the dataclass's default_factory
        self.by_card = by_card
        self.by_player = by_player

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return ((self.kind, self.card, self.base, self.player, self.data, self.by_card,
                 self.by_player)
                == (other.kind, other.card, other.base, other.player, other.data, other.by_card,
                    other.by_player))

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(kind={self.kind!r}, card={self.card!r}, "
                f"base={self.base!r}, player={self.player!r}, data={self.data!r}, "
                f"by_card={self.by_card!r}, by_player={self.by_player!r})")


@dataclass
class _PlayFields:
    """Play's fields as a dataclass describes them (see `_EventFields`)."""

    seat: int
    card: int
    kind: str
    zone: str = "hand"
    base: int | None = None


# Treated as immutable (a value, as python-chess's Move), but not frozen: the main decision
# builds one per card and base at every question, and a frozen dataclass is much slower to build.
class Play:
    """One legal play (`Game.legal_plays`), as python-chess's `Move`; also what a play
    restriction sees (`CardDef.restriction`). `seat` plays `card` from `zone` ("hand", "discard",
    or "deck" for a card an ability shows: Hoverbot) with a play of kind `kind` (MINION or ACTION:
    a minion that may use an action play, `CardDef.playable_as`, says ACTION), onto base `base`
    (a minion's base; an action's base when it goes on one, else None).

    The dataclass of `_PlayFields` with `unsafe_hash` (the same fields, init, repr, equality and
    hash), written out so that compiled it is an extension type (core.pxd), as `Event`."""

    __slots__ = ("seat", "card", "kind", "zone", "base")
    __dataclass_fields__ = _PlayFields.__dataclass_fields__
    __dataclass_params__ = _PlayFields.__dataclass_params__
    __match_args__ = ("seat", "card", "kind", "zone", "base")

    def __init__(self, seat: int, card: int, kind: str, zone: str = "hand",
                 base: int | None = None):
        self.seat = seat
        self.card = card
        self.kind = kind
        self.zone = zone
        self.base = base

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return ((self.seat, self.card, self.kind, self.zone, self.base)
                == (other.seat, other.card, other.kind, other.zone, other.base))

    def __hash__(self) -> int:
        return hash((self.seat, self.card, self.kind, self.zone, self.base))

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(seat={self.seat!r}, card={self.card!r}, "
                f"kind={self.kind!r}, zone={self.zone!r}, base={self.base!r})")


# The name restrictions were written against; a Play has the same fields and `zone`.
PlayAttempt = Play


@dataclass(frozen=True)
class Affect:
    """An ability about to affect a card in play (WWWT "Affect"), as an "affect" replacement
    (Hideout) sees it: the card whose ability it is, the player controlling it (None: a base or
    the rules), the card it would affect and how ("destroy", "move", "return", "place", "power",
    "counters", "attach", "transfer", "cancel")."""

    source: int | None
    source_player: int | None
    target: int
    kind: str


@dataclass
class _MinionStateFields:
    """MinionState's fields as a dataclass describes them (see `_EventFields`)."""

    controller: int
    counters: int = 0
    attached: list[int] = field(default_factory=list)
    # Which entry into play this is (a game-wide serial, `Game.enter_play`). A minion that leaves
    # play and is played again is a new card in play (CR "Void Where Prohibited": effects end when
    # their card leaves play), so an ability that chose it earlier no longer finds it
    # (`Ctx.in_play_mark` / `Ctx.still_in_play`).
    entered: int = 0
    # What an ability remembers on this card while it is in play (`Ctx.remember`): plain data only.
    # It goes when the card leaves play, with this state.
    memory: dict = field(default_factory=dict)



class MinionState:
    """A minion in play: who controls it and what sits on it. Power is never stored.

    The dataclass of `_MinionStateFields`, written out so that compiled it is an extension type
    (core.pxd), as `Event`."""

    __slots__ = ("controller", "counters", "attached", "entered", "memory")
    __dataclass_fields__ = _MinionStateFields.__dataclass_fields__
    __dataclass_params__ = _MinionStateFields.__dataclass_params__
    __match_args__ = ("controller", "counters", "attached", "entered", "memory")
    __hash__ = None

    def __init__(self, controller: int, counters: int = 0, attached=_MADE, entered: int = 0,
                 memory=_MADE):
        self.controller = controller
        self.counters = counters
        self.attached = [] if attached is _MADE else attached
        self.entered = entered
        self.memory = {} if memory is _MADE else memory

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return ((self.controller, self.counters, self.attached, self.entered, self.memory)
                == (other.controller, other.counters, other.attached, other.entered,
                    other.memory))

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(controller={self.controller!r}, "
                f"counters={self.counters!r}, attached={self.attached!r}, "
                f"entered={self.entered!r}, memory={self.memory!r})")


def _values(obj) -> tuple:
    """A written-out dataclass's field values, in order (its equality)."""
    return tuple([getattr(obj, name) for name in obj.__match_args__])


def _text(obj) -> str:
    """A written-out dataclass's repr, as the dataclass writes it."""
    return (f"{obj.__class__.__qualname__}("
            + ", ".join([f"{name}={getattr(obj, name)!r}" for name in obj.__match_args__]) + ")")


@dataclass
class _BaseSlotFields:
    """BaseSlot's fields as a dataclass describes them (`dataclasses.fields`, the digest)."""

    uid: int
    card: int
    minions: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)


@dataclass
class _PlayerStateFields:
    """PlayerState's fields as a dataclass describes them (see `_BaseSlotFields`)."""

    seat: int
    name: str
    factions: list[str]
    bot: str | None = None
    deck: list[int] = field(default_factory=list)  # index 0 is the top
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    vp: int = 0
    mulliganed: bool = False


@dataclass(slots=True)
class ActionState:
    """An action attached to a base or a minion."""

    controller: int
    host_kind: str  # "base" or "minion"
    host: int  # slot uid for a base, card id for a minion
    memory: dict = field(default_factory=dict)  # see MinionState.memory (Block the Path's faction)


# Fields added after state digest version 2 was fixed carry `since` (their default): digest 2
# leaves them out, so records hashed with it still replay; digest 3 reads them (game._fields_of).
# The rules of resolution (`Game.resolution`, a record's "resolution"; state.RESOLUTION is a new
# game's). 1: one event at a time; 2: the rules' batches (CR Card Resolution Order); 3, issue 24's
# corners: a cancelled ability as if it did not exist for every kind of hook, a base's ability done
# by the player it names, protections "by cards other players control" told from "by other
# players", a minion played with an action play still a minion played, "the first time in a turn"
# counted per minion, a scoring step's base ability ordered among the Specials of cards in play
# (Me First!), Big Base scored as one scoring. A record of an earlier resolution replays as it was
# played: each change reads `game.resolution >= EXACT_CORNERS`.
EXACT_CORNERS = 3


def _since(default, **kw):
    return field(default=default, metadata={"since": default}, **kw)


# Fields added after records were hashed with digest 3 carry `unset` (their default, a plain
# value or a factory): every digest leaves them out while they hold it and digest 3 reads them
# otherwise (game._reader_of), so those records still replay and a field in use is state.
def _added(default=None, factory=None):
    if factory is not None:
        return field(default_factory=factory, metadata={"since": factory(), "unset": factory()})
    return field(default=default, metadata={"since": default, "unset": default})


@dataclass
class _GrantFields:
    """Grant's fields as a dataclass describes them (see `_EventFields`)."""

    kind: str  # MINION or ACTION: the kind of play (a `playable_as` minion may use ACTION)
    free: bool = False
    max_power: int | None = None  # printed power cap (checked in hand)
    base: int | None = None  # only onto this base slot
    source: str = ""  # what granted it, for the log
    # Where the card may come from: "hand" and/or "discard" (They Keep Coming: the discard pile
    # only).
    zones: tuple = ("hand",)
    # A named condition on the base the minion goes to (GRANT_CONDITIONS): Outbreak's
    # "a base where you have no minions", checked when the minion is played.
    condition: str | None = None
    card: int | None = _since(None)  # only this card (Tenacious Z's own play)
    # A play a card offers on each of your turns (`CardDef.grants_each_turn`): the card, and
    # whether it is used once per turn per card ("card") or per name across copies ("name").
    via: int | None = _since(None)
    once: str | None = _since(None)


class Grant:
    """Permission to play one card: the free minion/action of a turn, or an extra one.

    Extra plays carry their limits here so the play-legality generator (`Game.legal_plays`) lists
    exactly what is legal: the kind of play, the printed power cap, the one base, the zones its
    card may come from, the one card it is for, a named condition on the base (the fields of
    `_GrantFields`). The dataclass of those fields, written out so that compiled it is an
    extension type (core.pxd), as `Event`: two are made each turn and more by extra plays."""

    __slots__ = ("kind", "free", "max_power", "base", "source", "zones", "condition", "card",
                 "via", "once")
    __dataclass_fields__ = _GrantFields.__dataclass_fields__
    __dataclass_params__ = _GrantFields.__dataclass_params__
    __match_args__ = ("kind", "free", "max_power", "base", "source", "zones", "condition", "card",
                      "via", "once")
    __hash__ = None

    def __init__(self, kind: str, free: bool = False, max_power: int | None = None,
                 base: int | None = None, source: str = "", zones: tuple = ("hand",),
                 condition: str | None = None, card: int | None = None, via: int | None = None,
                 once: str | None = None):
        self.kind = kind
        self.free = free
        self.max_power = max_power
        self.base = base
        self.source = source
        self.zones = zones
        self.condition = condition
        self.card = card
        self.via = via
        self.once = once

    def _fields(self) -> tuple:
        return (self.kind, self.free, self.max_power, self.base, self.source, self.zones,
                self.condition, self.card, self.via, self.once)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(kind={self.kind!r}, free={self.free!r}, "
                f"max_power={self.max_power!r}, base={self.base!r}, source={self.source!r}, "
                f"zones={self.zones!r}, condition={self.condition!r}, card={self.card!r}, "
                f"via={self.via!r}, once={self.once!r})")

    @property
    def general(self) -> bool:
        """Any card of its kind onto any base: the turn's free play or a general extra one
        (Abduction's), not one for a base, a power, a condition or a card."""
        return (self.max_power is None and self.base is None and self.card is None
                and self.condition is None)

    def restrictiveness(self) -> int:
        # When several unused grants fit a play, the most restrictive one is used, so the player
        # keeps the widest permission (the rules let extra and free cards be played in any
        # order); `Game.legal_plays` moves earlier plays when that alone would lose a play.
        return ((0 if self.free else 1) + (self.max_power is not None) + (self.base is not None)
                + (self.condition is not None) + (self.zones != ("hand",))
                + (self.card is not None))


# Named conditions a grant may set on the base the minion goes to (`Grant.condition`), checked
# when the minion is played (plays.PlayFinder) and named by cards (`grant_extra(condition=...)`,
# `grants_each_turn(condition=...)`): (game, seat, base uid) -> whether the play is allowed.
GRANT_CONDITIONS = {
    # Outbreak: "on a base where you have no minions", checked when the minion is played.
    "no_minion_of_yours": lambda game, seat, uid: not any(
        game.minion_state[m].controller == seat for m in game.slot(uid).minions),
}


@dataclass(slots=True)
class Spent:
    """A play of this turn whose grant could have been another (`TurnState.spent`): `could` are
    the grants that fitted it when it was made. A later play may take its grant if this play
    moves to one of those (grant matching, plays.py), so no legal play is lost to which grant
    was used. Plays that only one grant fitted are not noted: they can never move."""

    play: int  # index in TurnState.plays
    grant: Grant
    could: list = field(default_factory=list)


# When a lasting effect ends (`Lasting.ends`), as plain data:
#   ("turn_end", None)   at the end of the current turn ("until the end of the turn")
#   ("turn_end", seat)   at the end of `seat`'s turn: this one if it is theirs, else their next
#                        ("until the end of your turn" played on another player's turn)
#   ("turn_start", seat) at the start of `seat`'s next turn ("until your next turn")
#   None                 only when its source leaves play (`with_source`) or an ability ends it
END_OF_TURN = ("turn_end", None)


@dataclass(slots=True)
class Lasting:
    """An effect that lasts: a power change, a cancelled base, a restriction... Plain data only
    (the state digest reads it), so a card that needs its own kind names it by a string and
    reads it back with `Ctx.lasting_effects`.

    It is active from `starts` (None: at once; ("turn_start", seat): from the start of that
    player's next turn, Mark of Sleep) until `ends`, only in the turns `during` allows (None:
    every turn; "others": turns of players other than `player`, Armor Stego; "own": `player`'s
    turns), and ends early when its `source` leaves play if `with_source`."""

    kind: str  # e.g. "power", "cancel_base", "cannot_play"
    target: int | None  # card id, slot uid or seat, per kind
    amount: int = 0
    player: int | None = None  # whose effect it is (the controller of its source)
    ends: tuple | None = END_OF_TURN
    source: int | None = None
    starts: tuple | None = None
    during: str | None = None
    with_source: bool = False
    data: dict = field(default_factory=dict)
    # `target` is a card (not a base uid or a seat): the effect ends when that card leaves play.
    on_card: bool = False

    @property
    def started(self) -> bool:
        return self.starts is None


@dataclass
class _PlayRecordFields:
    """PlayRecord's fields as a dataclass describes them (see `_EventFields`)."""

    seat: int
    card: int | None
    kind: str  # MINION or ACTION: what it was played as
    base: int | None = None  # the base a minion (or an action on a base or minion) went to
    phase: str = "play"  # the turn phase it was played in ("start", "play", "score", ...)
    extra: bool = False  # played as an extra (not the free play of the turn)
    special: bool = False  # played through a Special
    turn_seat: int | None = None  # whose turn it was
    # The card whose ability let it be played from where it was (Tenacious Z from the discard
    # pile, They're Coming To Get You), for "once per turn" (`Ctx.plays`).
    via: int | None = None
    zone: str = _since("hand")  # where it was played from ("hand", "discard", "deck")


class PlayRecord:
    """One card played this turn, for "the first minion you played this turn" and the like
    (`Ctx.plays`). `card` is None for plays a test scenario says were made before it starts.
    The dataclass of `_PlayRecordFields`, written out so that compiled it is an extension type
    (core.pxd), as `Event`."""

    __slots__ = ("seat", "card", "kind", "base", "phase", "extra", "special", "turn_seat", "via",
                 "zone")
    __dataclass_fields__ = _PlayRecordFields.__dataclass_fields__
    __dataclass_params__ = _PlayRecordFields.__dataclass_params__
    __match_args__ = ("seat", "card", "kind", "base", "phase", "extra", "special", "turn_seat",
                      "via", "zone")
    __hash__ = None

    def __init__(self, seat: int, card: int | None, kind: str, base: int | None = None,
                 phase: str = "play", extra: bool = False, special: bool = False,
                 turn_seat: int | None = None, via: int | None = None, zone: str = "hand"):
        self.seat = seat
        self.card = card
        self.kind = kind
        self.base = base
        self.phase = phase
        self.extra = extra
        self.special = special
        self.turn_seat = turn_seat
        self.via = via
        self.zone = zone

    def _fields(self) -> tuple:
        return (self.seat, self.card, self.kind, self.base, self.phase, self.extra, self.special,
                self.turn_seat, self.via, self.zone)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(seat={self.seat!r}, card={self.card!r}, "
                f"kind={self.kind!r}, base={self.base!r}, phase={self.phase!r}, "
                f"extra={self.extra!r}, special={self.special!r}, "
                f"turn_seat={self.turn_seat!r}, via={self.via!r}, zone={self.zone!r})")
