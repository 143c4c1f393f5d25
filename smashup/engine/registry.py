"""The definitions of cards and bases, and the registry that the card modules fill.

`CardDef` and `BaseDef` are what a card or a base is and what its abilities are (declare.py is how
a card module makes them); `Registry` holds every one by name.
Every ability and every predicate (`applies`, `usable`, `attach_filter`, a modifier, a
protection...) receives a `Ctx` (effects.py), never the game. An ability is a plain function, or a
generator when it `yield from`s an effect that may ask a question (README, "Writing a card").
Names of events and windows are checked here, when the card is declared: a misspelt one raises
ConfigError at import instead of never firing.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .core import (
    _MADE,
    ACTION,
    BASE,
    EVENT_KINDS,
    GRANT_CONDITIONS,
    LEAVES_PLAY_KINDS,
    MINION,
    SPECIAL_WINDOWS,
    ConfigError,
    _text,
    _values,
)

if TYPE_CHECKING:  # a Faction fills the registry (declare.py)
    from .declare import Faction

# What a protection keeps away from its targets (WWWT "Affect": moved, returned, destroyed,
# placed, changed in power or controller, an action attached, its ability cancelled).
PROTECTION_KINDS = ("affect", "destroy", "move")
# Whose doing a protection keeps away (issue 24, mechanism 3: a card's words say which):
# None, anyone's; "other_players_cards", the abilities of cards that players other than the
# protecting card's controller control ("by cards other players control": Awesome Guy, Too Cute,
# Tooth and Claw... and Guns, Don't Mess With My Babies!, and for actions Smoke Bomb and Wildlife
# Preserve), never a base's ability, even one a player performs (The Deep, Tornado Alley: a base
# is nobody's card); "other_players", what players other than the protecting card's controller
# do, a base's ability they perform included ("by other players": Expanded Power, Secret Base);
# "not_its_controller", anything but what the target's own controller does ("except by its
# controller", Converted Cave).
PROTECTION_FROM = (None, "other_players_cards", "other_players", "not_its_controller")
# What kind of card's abilities a protection covers: any card, only actions, only minions.
PROTECTION_ONLY = (None, "actions", "minions")
# Which minions a power modifier can change (`modifier(to=...)`): any; the card itself; the minion
# it is attached to; the minions on its base (a base's: on itself).
MODIFIER_REACH = (None, "itself", "host", "here")
# Events a card may replace ("instead of being destroyed": Tar Pits, Buccaneer, Warbot's kin), and
# "affect": anything an ability would do to a card in play ("if an action would affect your
# minions here, destroy this instead": Hideout). An "affect" replacement receives a core.Affect
# instead of a card and runs at once without asking anything (it happens inside plain verbs such
# as add_power): `Game.affect_replaced`.
REPLACEABLE = ("destroy", "move", "return", "place", "affect")
# Why a card may do nothing in Big Base mode (CardDef.no_effect_in_big_base); None: it does something.
# "replacement": it acts when a scored base is replaced, which Big Base never does (Lost City).
NO_EFFECT_REASONS = (None, "breakpoint", "replacement")


def _always(*_args) -> bool:
    return True


@dataclass(slots=True)
class Special:
    """A Special ability: usable in one window (a scoring step, the start of a turn, or after an
    event: CR step 4) from a zone."""

    window: str
    zone: str  # "hand", "play" or "discard"
    usable: Callable  # (ctx, window_ctx) -> bool; window_ctx: the Scoring, the Event or None
    run: Callable  # (ctx, window_ctx) -> None or generator
    label: str = ""


@dataclass
class _TriggerFields:
    """Trigger's fields as a dataclass describes them (`dataclasses.fields`)."""

    event: str
    applies: Callable  # (ctx, event) -> bool
    run: Callable  # (ctx, event) -> None or generator
    optional_label: str | None = None  # set when the controller may decline it
    # Also fires for the event that takes this very card out of play ("after this minion is
    # destroyed": Nukebot, Gremlin), with ctx.me its last controller and ctx.here its last base.
    leaves_play: bool = False
    index: int = 0  # its place among its card's triggers (a stable key, unlike id())


class Trigger:
    """An ongoing reaction of a card in play (or a base) to an event ("after X, Y").

    The dataclass of `_TriggerFields` (the same fields, init, repr and equality), written out so
    that compiled it is an extension type (registry.pxd), as core.py's `Event`: every event a
    game emits reads the triggers of the cards that may react to it, as C fields where typed."""

    __slots__ = ("event", "applies", "run", "optional_label", "leaves_play", "index")
    __dataclass_fields__ = _TriggerFields.__dataclass_fields__
    __dataclass_params__ = _TriggerFields.__dataclass_params__
    __match_args__ = ("event", "applies", "run", "optional_label", "leaves_play", "index")
    __hash__ = None

    def __init__(self, event: str, applies: Callable, run: Callable,
                 optional_label: str | None = None, leaves_play: bool = False, index: int = 0):
        self.event = event
        self.applies = applies
        self.run = run
        self.optional_label = optional_label
        self.leaves_play = leaves_play
        self.index = index

    def _fields(self) -> tuple:
        return (self.event, self.applies, self.run, self.optional_label, self.leaves_play,
                self.index)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(event={self.event!r}, applies={self.applies!r}, "
                f"run={self.run!r}, optional_label={self.optional_label!r}, "
                f"leaves_play={self.leaves_play!r}, index={self.index!r})")


@dataclass
class _ProtectionFields:
    """Protection's fields as a dataclass describes them (see `_TriggerFields`)."""

    kind: str
    covers: Callable  # (ctx, target) -> bool
    from_: str | None = None
    only: str | None = None
    local: bool = False  # see `protection(local=...)`


class Protection:
    """An ongoing protection of a card in play: `covers(ctx, target)` says which cards it protects
    from `kind` ("affect": not affected at all; "destroy": cannot be destroyed; "move": cannot be
    moved), coming from whose cards (`from_`) and of what kind (`only`).

    The dataclass of `_ProtectionFields`, written out so that compiled it is an extension type
    (registry.pxd), as `Trigger`: `affects` reads them for every power modifier and target."""

    __slots__ = ("kind", "covers", "from_", "only", "local")
    __dataclass_fields__ = _ProtectionFields.__dataclass_fields__
    __dataclass_params__ = _ProtectionFields.__dataclass_params__
    __match_args__ = ("kind", "covers", "from_", "only", "local")
    __hash__ = None

    def __init__(self, kind: str, covers: Callable, from_: str | None = None,
                 only: str | None = None, local: bool = False):
        self.kind = kind
        self.covers = covers
        self.from_ = from_
        self.only = only
        self.local = local

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return ((self.kind, self.covers, self.from_, self.only, self.local)
                == (other.kind, other.covers, other.from_, other.only, other.local))

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(kind={self.kind!r}, covers={self.covers!r}, "
                f"from_={self.from_!r}, only={self.only!r}, local={self.local!r})")


@dataclass(slots=True)
class Replacement:
    """"Instead": when `event` would happen to a card that `applies(ctx, target)` accepts, `run`
    (ctx, target) does something else and returns True (the event does not happen), or returns
    False (it happens after all). Each replacement applies at most once to one event."""

    event: str  # one of REPLACEABLE
    applies: Callable  # (ctx, target) -> bool
    run: Callable  # (ctx, target) -> bool, or a generator returning bool
    optional_label: str | None = None


@dataclass(slots=True)
class TurnGrant:
    """A play a card offers its player on each of their turns, in their Play Cards phase, while
    it lies in `zone` ("play": in play and theirs; "discard": in their discard pile), as a grant
    (`core.Grant`) the play-legality generator adds to the turn's: Tenacious Z played from the
    discard pile by its own Special. Used once per turn per card (`once="card"`) or per name
    across copies ("name"); the play's record names the card (`PlayRecord.via`)."""

    kind: str
    zone: str
    applies: Callable  # (ctx) -> bool: offered now at all
    max_power: int | None = None
    here: bool = False  # only onto this card's base
    this_card: bool = False  # only this card itself, from `zone`
    zones: tuple = ("hand",)  # where its card comes from (this_card: `zone`)
    condition: str | None = None  # a GRANT_CONDITIONS name
    once: str = "card"
    special: bool = False  # using it is using the card's Special (PlayRecord.special)


@dataclass(slots=True)
class PlaySource:
    """While its card is in play, its controller's grants that `applies(ctx, play, grant)`
    accepts may take their card from `zone` instead (They're Coming To Get You), once per turn
    if `once_per_turn` (the play's record names the card: `PlayRecord.via`)."""

    zone: str
    applies: Callable  # (ctx, play, grant) -> bool
    once_per_turn: bool = False


class _Declares:
    """What cards and bases have in common: the fields the rules read of either (a card's or a
    base's triggers, protections, power modifier...), and the decorators that fill them.

    Compiled it is an extension type (registry.pxd) whose fields are these slots, CardDef and
    BaseDef its subclasses: the rules read the definitions of the cards in play thousands of times
    a game, as C fields where typed (`cdef _Declares d`), whether a card or a base. BaseDef holds
    here, as plain values, what it has no field for but the rules may ask of any card (`power`,
    `copies`, `specials`, `play_sources`, `starting_breakpoint`, `breakpoint_modifier`)."""

    __slots__ = ("name", "kind", "is_minion", "is_action", "faction", "set", "text", "copies",
                 "power", "triggers", "specials", "power_modifier", "modifier_to",
                 "modifier_local", "starting_breakpoint", "breakpoint_modifier", "protections",
                 "replacements", "turn_grants", "play_sources")
    __hash__ = None  # as the dataclasses they were: equal by their fields, so unhashable

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return _values(self) == _values(other)

    def __repr__(self) -> str:
        return _text(self)

    def trigger(self, event: str, applies=None, optional: str | None = None,
                leaves_play: bool = False):
        """`@card.trigger("destroyed", applies=lambda ctx, e: ...)`: after `event`, run the
        function (ctx, event). `optional`: the controller is asked this yes/no question first.
        `leaves_play`: it also fires when the event is this card leaving play."""
        if event not in EVENT_KINDS:
            raise ConfigError(f"{self.name}: unknown event {event!r} "
                              f"(known: {', '.join(sorted(EVENT_KINDS))})")
        if leaves_play and event not in LEAVES_PLAY_KINDS:
            raise ConfigError(f"{self.name}: a {event!r} event never takes a card out of play")

        def deco(fn):
            self.triggers.append(Trigger(event, applies or _always, fn, optional, leaves_play,
                                         len(self.triggers)))
            return fn

        return deco

    def grants_each_turn(self, kind: str, zone: str = "play", applies=None,
                         max_power: int | None = None, here: bool = False,
                         this_card: bool = False, zones: tuple = ("hand",),
                         condition: str | None = None, once: str = "card",
                         special: bool = False):
        """Offer its player one extra play of `kind` in each of their Play Cards phases while
        this card is in `zone` and `applies(ctx)` (see TurnGrant). A base offers it to every
        player in their own Play Cards phase while its abilities work (Under the Bed), `here`
        meaning onto the base itself. `this_card` with zone
        "discard": the card itself is playable from the discard pile as an extra play (Tenacious
        Z: `once="name"`, `special=True`)."""
        if zone not in ("play", "discard"):
            raise ConfigError(f"{self.name}: a play offered each turn comes from play or the "
                              "discard pile")
        if once not in ("card", "name"):
            raise ConfigError(f"{self.name}: once is 'card' or 'name', not {once!r}")
        if condition is not None and condition not in GRANT_CONDITIONS:
            raise ConfigError(f"{self.name}: unknown grant condition {condition!r}")
        zones = (zone,) if this_card else tuple(zones)
        self.turn_grants.append(TurnGrant(kind, zone, applies or _always, max_power, here,
                                          this_card, zones, condition, once, special))
        return self

    def modifier(self, fn=None, *, to: str | None = None, local: bool = False):
        """`@card.modifier` over fn(ctx, minion) -> the power this card adds to that minion (may
        be negative) while this card is in play (a base: while its abilities work). `to` names
        the only minions it can change, as the card says, so that power asks it of those alone:
        "itself" (War Raptor), "host" (the minion it is attached to: Upgrade), "here" (the
        minions on its base; a base: on itself). None: any minion in play. The function still
        answers for any minion (a power's breakdown asks every modifier). `local`: what it adds
        to a minion reads only that minion, this card (not where it is, unless on that minion's
        base) and the cards on that minion's base, besides what `Game.changed` covers (
        controllers, lasting effects but power changes and counters elsewhere, flags) and cards not
        local themselves (whose every move recounts all powers), and not whose turn it is (a
        base's Ctx player): a card moved to or from another base changes nothing it adds, so the
        power cache keeps the other bases' powers (hooks.power_locality). War Raptor's count of
        the Raptors here is local, and so is Microbot Fixer (the minion's name, or a Microbot
        Alpha in play, which is not local); Alpha's count of every Microbot in play is not."""
        if to not in MODIFIER_REACH:
            raise ConfigError(f"{self.name}: a modifier is to one of {MODIFIER_REACH}, "
                              f"not {to!r}")

        def deco(f):
            self.power_modifier = f
            self.modifier_to = to
            self.modifier_local = local
            return f

        return deco if fn is None else deco(fn)

    def replacement(self, event: str, applies=None, optional: str | None = None):
        """`@card.replacement("destroy", applies=lambda ctx, target: ...)`: when `event` would
        happen to a card, the function (ctx, target) does something else instead and returns
        True, or returns False to let it happen. `optional`: the controller of this card may
        decline (a "you may ... instead")."""
        if event not in REPLACEABLE:
            raise ConfigError(f"{self.name}: cannot replace {event!r} "
                              f"(replaceable: {', '.join(REPLACEABLE)})")

        def deco(fn):
            self.replacements.append(Replacement(event, applies or _always, fn, optional))
            return fn

        return deco

    def protection(self, kind: str = "affect", from_: str | None = None, only: str | None = None,
                   local: bool = False):
        """`@card.protection("affect", from_="other_players", only="actions")` over fn(ctx, target)
        -> bool: which cards this card protects while it is in play (a base: while its abilities
        work, Converted Cave). See PROTECTION_*. `local`: it covers only minions on this card's
        base (its host, itself, the minions here) and reads only the target, this card and the
        cards on the target's base, not whose turn it is, so a card moved on another base changes
        nothing it covers (the power cache then keeps the other bases' powers, and a base's
        keeps them from turn to turn: hooks.power_locality, GameState._power_reads_turn)."""
        if kind not in PROTECTION_KINDS:
            raise ConfigError(f"{self.name}: unknown protection {kind!r}")
        if from_ not in PROTECTION_FROM or only not in PROTECTION_ONLY:
            raise ConfigError(f"{self.name}: a protection is from {PROTECTION_FROM} "
                              f"and only {PROTECTION_ONLY}")

        def deco(fn):
            self.protections.append(Protection(kind, fn, from_, only, local))
            return fn

        return deco


@dataclass
class _CardDefFields:
    """CardDef's fields as a dataclass describes them (`dataclasses.fields`: the cancel gate's
    test)."""

    name: str
    kind: str  # MINION or ACTION
    faction: str
    set: str
    copies: int = 1
    power: int = 0
    text: str = ""
    attach: str | None = None  # "minion" or "base" for actions that stay in play
    attach_filter: Callable | None = None  # (ctx, host) -> bool; ctx.me is the player playing it
    on_play: Callable | None = None  # (ctx) -> None or generator
    talent: Callable | None = None  # (ctx) -> None or generator
    talent_usable: Callable | None = None  # (ctx) -> bool
    triggers: list[Trigger] = field(default_factory=list)
    specials: list[Special] = field(default_factory=list)
    power_modifier: Callable | None = None  # (ctx, minion) -> int
    modifier_to: str | None = None  # which minions it can change (`modifier`: MODIFIER_REACH)
    modifier_local: bool = False  # it reads only its minion's base (`modifier`)
    # (ctx, base uid) -> the starting breakpoint this card gives that base, or None (Turn Up to 11)
    starting_breakpoint: Callable | None = None
    breakpoint_modifier: Callable | None = None  # (ctx, base uid) -> int added to its breakpoint
    # (ctx, scoring, seat) -> int added to the VP `seat` is awarded for its place (Great Wyrm)
    placement_vp_modifier: Callable | None = None
    # Scoring extensions a card asks for while a base scores (Scoring.claim_new_base,
    # Scoring.after_new_base): (ctx, scoring) -> the base card that replaces the scored base, and
    # (ctx, scoring, new base uid) once that base is in play (Lost City).
    new_base_picker: Callable | None = None
    new_base_follow_up: Callable | None = None
    protections: list[Protection] = field(default_factory=list)
    replacements: list[Replacement] = field(default_factory=list)
    restrictions: list[Callable] = field(default_factory=list)  # (ctx, core.Play) -> bool
    # Those of `restrictions` that only forbid plays onto this card's base (`restriction(here=)`)
    restrictions_here: list[Callable] = field(default_factory=list)
    # Those of `restrictions` that forbid nothing onto this card's base nor of no base, and answer
    # alike for every other base (`restriction(elsewhere=True)`: Bear Picnic)
    restrictions_elsewhere: list[Callable] = field(default_factory=list)
    cancels_base: bool = False  # an attached base action that cancels the base's abilities
    cancels_host: bool = False  # an action on a minion that cancels the minion's (Cuddle)
    # An action on a minion whose abilities are ones it gives the minion (Flighterizer's kind):
    # cancelling the minion cancels them too (WWWT clarification, Cuddle; Game.ability_active).
    host_ability: bool = False
    # Big Base mode (bigbase/rules): why this card does nothing there, or None. "breakpoint": it only
    # changes breakpoints, which Big Base scoring ignores, unless a faction in the game cares about
    # breakpoints (`Faction.cares_about_breakpoints`). A player may swap such cards (the Big Base
    # rules, "useless cards").
    no_effect_in_big_base: str | None = None
    is_special_only: bool = False  # an action playable only through its Special
    # What the play-legality generator reads besides the grants (Game.legal_plays):
    turn_grants: list[TurnGrant] = field(default_factory=list)  # plays offered each turn
    play_sources: list[PlaySource] = field(default_factory=list)  # zones a grant may widen to
    # Other kinds of play a minion may use besides its own (Argonaut: (ACTION,), a minion played
    # with an action play, onto a base).
    playable_as: tuple = ()
    # What playing it on a minion or base does to that host (core.INTENTS): "harm" (Poison) or
    # "help" (Upgrade); the question of where to play it carries it (Decision.intent).
    intent: str | None = None


class CardDef(_Declares):
    """A card's declaration: the dataclass of `_CardDefFields` (the same fields, init, repr and
    equality), written out so that compiled it is an extension type (registry.pxd), as Trigger."""

    __slots__ = ("attach", "attach_filter", "on_play", "talent", "talent_usable",
                 "placement_vp_modifier", "new_base_picker", "new_base_follow_up", "restrictions",
                 "restrictions_here", "restrictions_elsewhere", "cancels_base", "cancels_host",
                 "host_ability",
                 "no_effect_in_big_base", "is_special_only", "playable_as", "intent")
    __dataclass_fields__ = _CardDefFields.__dataclass_fields__
    __dataclass_params__ = _CardDefFields.__dataclass_params__
    __match_args__ = _CardDefFields.__match_args__

    def __init__(self, name: str, kind: str, faction: str, set: str, copies: int = 1,
                 power: int = 0, text: str = "", attach: str | None = None,
                 attach_filter: Callable | None = None, on_play: Callable | None = None,
                 talent: Callable | None = None, talent_usable: Callable | None = None,
                 triggers=_MADE, specials=_MADE, power_modifier: Callable | None = None,
                 modifier_to: str | None = None, modifier_local: bool = False,
                 starting_breakpoint: Callable | None = None,
                 breakpoint_modifier: Callable | None = None,
                 placement_vp_modifier: Callable | None = None,
                 new_base_picker: Callable | None = None,
                 new_base_follow_up: Callable | None = None, protections=_MADE,
                 replacements=_MADE, restrictions=_MADE, restrictions_here=_MADE,
                 restrictions_elsewhere=_MADE,
                 cancels_base: bool = False, cancels_host: bool = False,
                 host_ability: bool = False, no_effect_in_big_base: str | None = None,
                 is_special_only: bool = False, turn_grants=_MADE, play_sources=_MADE,
                 playable_as: tuple = (), intent: str | None = None):
        self.name = name
        self.kind = kind
        self.is_minion = kind == MINION  # a card's kind never changes once declared
        self.is_action = kind == ACTION
        self.faction = faction
        self.set = set
        self.copies = copies
        self.power = power
        self.text = text
        self.attach = attach
        self.attach_filter = attach_filter
        self.on_play = on_play
        self.talent = talent
        self.talent_usable = talent_usable
        self.triggers = [] if triggers is _MADE else triggers
        self.specials = [] if specials is _MADE else specials
        self.power_modifier = power_modifier
        self.modifier_to = modifier_to
        self.modifier_local = modifier_local
        self.starting_breakpoint = starting_breakpoint
        self.breakpoint_modifier = breakpoint_modifier
        self.placement_vp_modifier = placement_vp_modifier
        self.new_base_picker = new_base_picker
        self.new_base_follow_up = new_base_follow_up
        self.protections = [] if protections is _MADE else protections
        self.replacements = [] if replacements is _MADE else replacements
        self.restrictions = [] if restrictions is _MADE else restrictions
        self.restrictions_here = [] if restrictions_here is _MADE else restrictions_here
        self.restrictions_elsewhere = ([] if restrictions_elsewhere is _MADE
                                       else restrictions_elsewhere)
        self.cancels_base = cancels_base
        self.cancels_host = cancels_host
        self.host_ability = host_ability
        self.no_effect_in_big_base = no_effect_in_big_base
        self.is_special_only = is_special_only
        self.turn_grants = [] if turn_grants is _MADE else turn_grants
        self.play_sources = [] if play_sources is _MADE else play_sources
        self.playable_as = playable_as
        self.intent = intent
    # -- decorators used by card modules -------------------------------------------------------
    def on_played(self, fn):
        self.on_play = fn
        return fn

    def talent_ability(self, usable=None):
        def deco(fn):
            self.talent = fn
            self.talent_usable = usable
            return fn

        return deco

    def special(self, window: str, zone: str = "hand", usable=None, label: str = ""):
        """`@card.special("before_scoring", usable=lambda ctx, scoring: ...)`. `window`: a scoring
        step, "turn_start", or an event kind for a Special that answers that event (CR step 4).
        `zone`: where the card is when it is used ("hand", "play", "discard")."""
        if window not in SPECIAL_WINDOWS:
            raise ConfigError(f"{self.name}: unknown Special window {window!r} "
                              f"(known: {', '.join(sorted(SPECIAL_WINDOWS))})")
        if zone not in ("hand", "play", "discard"):
            raise ConfigError(f"{self.name}: a Special is used from the hand, play or the "
                              f"discard pile, not {zone!r}")

        def deco(fn):
            self.specials.append(Special(window, zone, usable or _always, fn, label or self.name))
            return fn

        return deco

    def play_source(self, zone: str, applies=None, once_per_turn: bool = False):
        """While this card is in play, its controller's grants that `applies(ctx, play, grant)`
        accepts may take their card from `zone` (They're Coming To Get You: the discard pile,
        onto this base, once per turn)."""
        if zone not in ("hand", "discard"):
            raise ConfigError(f"{self.name}: cards are played from the hand or the discard pile")
        self.play_sources.append(PlaySource(zone, applies or _always, once_per_turn))
        return self

    def restriction(self, fn=None, *, here: bool = False, elsewhere: bool = False):
        """`@card.restriction` over fn(ctx, play) -> bool: while this card is in play, the plays
        (core.Play: seat, card, kind, zone, base) it returns True for are not allowed (Block the
        Path). ctx.me is this card's controller, ctx.here its base. `here=True`: it forbids only
        plays onto its base, as the card says (Block the Path, Overrun), so the main decision
        asks it of those alone (`Game.play_barrier`). `elsewhere=True`: it forbids only plays onto
        other bases, and answers alike for each of them (Bear Picnic), so the main decision asks
        it once per card for all of them. `forbids` still asks it of every play, and tests
        compare the two."""
        if here and elsewhere:
            raise ConfigError(f"{self.name}: a restriction is for its own base or for the others")

        def deco(f):
            self.restrictions.append(f)
            if here:
                self.restrictions_here.append(f)
            if elsewhere:
                self.restrictions_elsewhere.append(f)
            return f

        return deco if fn is None else deco(fn)

    def sets_starting_breakpoint(self, fn):
        """`@card.sets_starting_breakpoint` over fn(ctx, uid) -> int or None: while this card is
        in play, base `uid` starts from that breakpoint instead of its printed one, and every
        other change applies from there (WWWT clarification, Turn Up to 11). None: no change."""
        self.starting_breakpoint = fn
        return fn

    def modifies_breakpoint(self, fn):
        """`@card.modifies_breakpoint` over fn(ctx, uid) -> the amount (negative lowers it) this
        card adds to base `uid`'s breakpoint while it is in play."""
        self.breakpoint_modifier = fn
        return fn

    def modifies_placement_vp(self, fn):
        """`@card.modifies_placement_vp` over fn(ctx, scoring, seat) -> the amount (negative
        lowers it) added to the VP `seat` is awarded for its place when a base scores, while this
        card is in play (Great Wyrm, Ruins: -1 to each other player on this base). Applied before
        the VP are given, never below 0; VP that abilities give are not placement VP."""
        self.placement_vp_modifier = fn
        return fn

    def picks_new_base(self, fn):
        """`@card.picks_new_base` over fn(ctx, scoring) -> a base card id (or None: the top of
        the base deck), a generator that may ask: when this card claimed the choice while the base
        scored (`scoring.claim_new_base(ctx.card, ctx.me)`: Lost City), step 9 replaces the base
        with what it returns. Base cards it looks at come from the base deck."""
        self.new_base_picker = fn
        return fn

    def on_new_base(self, fn):
        """`@card.on_new_base` over fn(ctx, scoring, uid): after `scoring.after_new_base(ctx.card,
        ctx.me)`, this runs once the base replacing the scored one (`uid`) is in play, whoever
        picked it (the WWWT clarification on Lost City)."""
        self.new_base_follow_up = fn
        return fn


@dataclass
class _BaseDefFields:
    """BaseDef's fields as a dataclass describes them (see `_CardDefFields`)."""

    name: str
    set: str
    breakpoint: int
    vp: tuple[int, int, int]
    faction: str = ""
    text: str = ""
    kind: str = BASE
    triggers: list[Trigger] = field(default_factory=list)
    replacements: list[Replacement] = field(default_factory=list)
    turn_grants: list[TurnGrant] = field(default_factory=list)  # plays offered each turn
    before_scoring: Callable | None = None  # (ctx, scoring) -> None or generator
    when_scoring: Callable | None = None  # (ctx, scoring)
    after_scoring: Callable | None = None  # (ctx, scoring)
    after_replaced: Callable | None = None  # (ctx, scoring, new base uid)
    replace_from: Callable | None = None  # (ctx, scoring) -> a base card id from the base deck
    power_modifier: Callable | None = None  # (ctx, minion) -> int; ctx.here is this base
    modifier_to: str | None = None  # which minions it can change (`modifier`: MODIFIER_REACH)
    modifier_local: bool = False  # it reads only its minion's base (`modifier`)
    at_turn_start: Callable | None = None  # (ctx, seat)
    protections: list[Protection] = field(default_factory=list)


class BaseDef(_Declares):
    """A base's declaration: the dataclass of `_BaseDefFields`, written out so that compiled it
    is an extension type (registry.pxd), as CardDef. What only a card has reads as none: no
    power, no Specials, no play sources, no breakpoint modifiers (`_Declares`)."""

    __slots__ = ("breakpoint", "vp", "before_scoring", "when_scoring", "after_scoring",
                 "after_replaced", "replace_from", "at_turn_start")
    __dataclass_fields__ = _BaseDefFields.__dataclass_fields__
    __dataclass_params__ = _BaseDefFields.__dataclass_params__
    __match_args__ = _BaseDefFields.__match_args__

    def __init__(self, name: str, set: str, breakpoint: int, vp: tuple[int, int, int],
                 faction: str = "", text: str = "", kind: str = BASE, triggers=_MADE,
                 replacements=_MADE, turn_grants=_MADE, before_scoring: Callable | None = None,
                 when_scoring: Callable | None = None, after_scoring: Callable | None = None,
                 after_replaced: Callable | None = None, replace_from: Callable | None = None,
                 power_modifier: Callable | None = None, modifier_to: str | None = None,
                 modifier_local: bool = False, at_turn_start: Callable | None = None,
                 protections=_MADE):
        self.name = name
        self.set = set
        self.breakpoint = breakpoint
        self.vp = vp
        self.faction = faction
        self.text = text
        self.kind = kind
        self.is_minion = False
        self.is_action = False
        self.triggers = [] if triggers is _MADE else triggers
        self.replacements = [] if replacements is _MADE else replacements
        self.turn_grants = [] if turn_grants is _MADE else turn_grants
        self.before_scoring = before_scoring
        self.when_scoring = when_scoring
        self.after_scoring = after_scoring
        self.after_replaced = after_replaced
        self.replace_from = replace_from
        self.power_modifier = power_modifier
        self.modifier_to = modifier_to
        self.modifier_local = modifier_local
        self.at_turn_start = at_turn_start
        self.protections = [] if protections is _MADE else protections
        self.power = 0
        self.copies = 1
        self.specials = ()
        self.play_sources = ()
        self.starting_breakpoint = None
        self.breakpoint_modifier = None

    _HOOKS = ("before_scoring", "when_scoring", "after_scoring", "after_replaced",
              "replace_from", "power_modifier", "at_turn_start")

    def hook(self, name: str):
        """Attach a scoring or turn hook: `@base.hook("after_scoring")`."""
        if name not in self._HOOKS:
            raise ConfigError(f"{self.name}: unknown base hook {name!r} "
                              f"(known: {', '.join(self._HOOKS)})")

        def deco(fn):
            setattr(self, name, fn)
            return fn

        return deco


# Every field of a card's and a base's definition, by what it is. WORKS_IN_PLAY: an ability of a
# card in play (or of a base in play), which works only while its abilities do (WWWT "Cancel": a
# cancelled ability is treated as if it did not exist): every read goes through the one gate,
# `protections.ability_active` (a base: `base_active`), and tests/engine/test_cancel_gate.py
# cancels a card or base with each of them and sees it do nothing. Any other value says why that
# field needs no gate. A field added to CardDef or BaseDef must be listed here (the test fails
# until it is, and until a hook that works in play has its cancelled case).
WORKS_IN_PLAY = "works in play"
CARD_FIELDS = {
    "talent": WORKS_IN_PLAY, "talent_usable": WORKS_IN_PLAY,
    "triggers": WORKS_IN_PLAY,  # and their last words (`left_cancelled`)
    "specials": WORKS_IN_PLAY,  # those used in play; one used from a hand or discard pile is not
    "power_modifier": WORKS_IN_PLAY, "starting_breakpoint": WORKS_IN_PLAY,
    "breakpoint_modifier": WORKS_IN_PLAY, "placement_vp_modifier": WORKS_IN_PLAY,
    "protections": WORKS_IN_PLAY, "replacements": WORKS_IN_PLAY,
    "restrictions": WORKS_IN_PLAY, "restrictions_here": WORKS_IN_PLAY,
    "restrictions_elsewhere": WORKS_IN_PLAY,
    "cancels_base": WORKS_IN_PLAY, "cancels_host": WORKS_IN_PLAY,
    "host_ability": WORKS_IN_PLAY,  # cancelled with its host minion's abilities
    "turn_grants": WORKS_IN_PLAY,  # those offered from play; one from a discard pile is not
    "play_sources": WORKS_IN_PLAY,
    "on_play": "resolves as the card is played, before anything in play can cancel it",
    "attach_filter": "read of a card in hand, where to play it",
    "playable_as": "read of a card in hand, how to play it",
    "new_base_picker": "the rest of a Special action's own resolution (Lost City), not in play",
    "new_base_follow_up": "the rest of a Special action's own resolution (Lost City), not in play",
    "name": "data", "kind": "data", "faction": "data", "set": "data", "copies": "data",
    "power": "data", "text": "data", "attach": "data", "intent": "data",
    "modifier_to": "a declaration of `power_modifier`", "modifier_local": "a declaration of "
    "`power_modifier`", "no_effect_in_big_base": "data", "is_special_only": "data",
}
BASE_FIELDS = {
    "triggers": WORKS_IN_PLAY, "replacements": WORKS_IN_PLAY, "turn_grants": WORKS_IN_PLAY,
    "before_scoring": WORKS_IN_PLAY, "when_scoring": WORKS_IN_PLAY,
    "after_scoring": WORKS_IN_PLAY,
    # Step 9 follows whether the base's abilities worked when it scored (`Scoring`).
    "after_replaced": WORKS_IN_PLAY, "replace_from": WORKS_IN_PLAY,
    "power_modifier": WORKS_IN_PLAY, "at_turn_start": WORKS_IN_PLAY,
    "protections": WORKS_IN_PLAY,
    "name": "data", "set": "data", "breakpoint": "data", "vp": "data", "faction": "data",
    "text": "data", "kind": "data",
    "modifier_to": "a declaration of `power_modifier`", "modifier_local": "a declaration of "
    "`power_modifier`",
}


class Registry:
    """Every card and base the engine knows, by name."""

    def __init__(self):
        self.cards: dict[str, CardDef] = {}
        self.bases: dict[str, BaseDef] = {}
        self.factions: dict[str, Faction] = {}

    def add_card(self, card: CardDef) -> CardDef:
        if card.name in self.cards:
            raise ConfigError(f"card {card.name!r} declared twice")
        self.cards[card.name] = card
        return card

    def add_base(self, base: BaseDef) -> BaseDef:
        if base.name in self.bases:
            raise ConfigError(f"base {base.name!r} declared twice")
        self.bases[base.name] = base
        return base

    def faction(self, name: str) -> Faction:
        try:
            return self.factions[name]
        except KeyError:
            known = ", ".join(sorted(self.factions)) or "none"
            raise ConfigError(f"unknown faction {name!r} (known: {known})") from None

    def base(self, name: str) -> BaseDef:
        try:
            return self.bases[name]
        except KeyError:
            raise ConfigError(f"unknown base {name!r}") from None

    def card(self, name: str) -> CardDef:
        try:
            return self.cards[name]
        except KeyError:
            raise ConfigError(f"unknown card {name!r}") from None

    def bases_of_sets(self, sets) -> list[BaseDef]:
        wanted = set(sets)
        return [b for b in self.bases.values() if b.set in wanted]


REGISTRY = Registry()
