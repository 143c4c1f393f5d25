"""Card and base declarations, and the registry that the card modules fill.

A card module declares each card with one call and attaches its ability functions with decorators,
so a module reads like the cards themselves:

    aliens = Faction("Aliens", set="core")

    @aliens.minion("Invader", power=3, copies=2, text="On play: gain 1 VP.")
    def invader(ctx):
        ctx.gain_vp(ctx.me, 1)
        yield from ()

Ability functions are generators: they `yield from` effects that may ask a question or set off
reactions, and plain effects are simple calls.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .core import ACTION, BASE, MINION, ConfigError


@dataclass
class Special:
    """A Special ability: usable at one kind of window (e.g. "before_scoring") from a zone."""

    window: str
    zone: str  # "hand" or "play"
    usable: Callable  # (game, seat, card_id, window_ctx) -> bool
    run: Callable  # (ctx, window_ctx) -> generator
    label: str = ""


@dataclass
class Trigger:
    """An ongoing reaction of a card in play (or a base) to an event."""

    event: str
    applies: Callable  # (game, card_id, event) -> bool
    run: Callable  # (ctx, event) -> generator
    optional_label: str | None = None  # set when the controller may decline it


@dataclass
class CardDef:
    name: str
    kind: str  # MINION or ACTION
    faction: str
    set: str
    copies: int = 1
    power: int = 0
    text: str = ""
    attach: str | None = None  # "minion" or "base" for actions that stay in play
    attach_filter: Callable | None = None  # (game, player, host) -> bool
    on_play: Callable | None = None  # (ctx) -> generator
    talent: Callable | None = None  # (ctx) -> generator
    talent_usable: Callable | None = None  # (game, card_id) -> bool
    triggers: list[Trigger] = field(default_factory=list)
    specials: list[Special] = field(default_factory=list)
    power_modifier: Callable | None = None  # (game, this_card, minion) -> int
    protects: Callable | None = None  # (game, this_card, target, source_card, source_player) -> bool
    cancels_base: bool = False  # an attached base action that cancels the base's abilities
    is_special_only: bool = False  # an action playable only through its Special

    @property
    def is_minion(self) -> bool:
        return self.kind == MINION

    @property
    def is_action(self) -> bool:
        return self.kind == ACTION

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

    def trigger(self, event: str, applies=None, optional: str | None = None):
        def deco(fn):
            self.triggers.append(Trigger(event, applies or (lambda g, c, e: True), fn, optional))
            return fn

        return deco

    def special(self, window: str, zone: str = "hand", usable=None, label: str = ""):
        def deco(fn):
            self.specials.append(
                Special(window, zone, usable or (lambda g, s, c, w: True), fn, label or self.name)
            )
            return fn

        return deco

    def modifier(self, fn):
        self.power_modifier = fn
        return fn

    def protection(self, fn):
        self.protects = fn
        return fn


@dataclass
class BaseDef:
    name: str
    set: str
    breakpoint: int
    vp: tuple[int, int, int]
    faction: str = ""
    text: str = ""
    kind: str = BASE
    triggers: list[Trigger] = field(default_factory=list)
    before_scoring: Callable | None = None  # (ctx, scoring) -> generator
    when_scoring: Callable | None = None  # (ctx, scoring) -> generator
    after_scoring: Callable | None = None  # (ctx, scoring) -> generator
    after_replaced: Callable | None = None  # (ctx, scoring, new_slot) -> generator
    replace_from: Callable | None = None  # (ctx, scoring) -> generator returning a base card id
    power_modifier: Callable | None = None  # (game, slot, minion) -> int
    would_destroy: Callable | None = None  # (ctx, minion) -> generator returning True if replaced
    at_turn_start: Callable | None = None  # (ctx, seat) -> generator
    is_minion = False
    is_action = False
    power = 0

    def trigger(self, event: str, applies=None, optional: str | None = None):
        def deco(fn):
            self.triggers.append(Trigger(event, applies or (lambda g, c, e: True), fn, optional))
            return fn

        return deco

    def hook(self, name: str):
        """Attach a scoring or turn hook: `@base.hook("after_scoring")`."""
        if not hasattr(self, name):
            raise ConfigError(f"{self.name}: unknown base hook {name!r}")

        def deco(fn):
            setattr(self, name, fn)
            return fn

        return deco


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


class Faction:
    """A faction's deck of 20 cards, declared card by card in its module."""

    def __init__(self, name: str, set: str, registry: Registry = REGISTRY):
        self.name = name
        self.set = set
        self.cards: list[CardDef] = []
        self.registry = registry
        registry.factions[name] = self

    def _declare(self, card: CardDef) -> CardDef:
        self.cards.append(card)
        return self.registry.add_card(card)

    def minion(self, name: str, power: int, copies: int = 1, text: str = ""):
        """Declare a minion. Used bare it returns the card; used as a decorator it sets on-play."""
        card = self._declare(CardDef(name, MINION, self.name, self.set, copies, power, text))
        return _DeclaredCard(card)

    def action(
        self,
        name: str,
        copies: int = 1,
        text: str = "",
        attach: str | None = None,
        attach_filter=None,
        special_only: bool = False,
    ):
        card = self._declare(
            CardDef(name, ACTION, self.name, self.set, copies, 0, text, attach, attach_filter)
        )
        card.is_special_only = special_only
        return _DeclaredCard(card)

    def deck(self) -> list[CardDef]:
        out = []
        for card in self.cards:
            out.extend([card] * card.copies)
        return out


class _DeclaredCard:
    """What `Faction.minion/action` return: call it on a function to make that the on-play
    ability, or use `.card` (and the CardDef decorators) for cards without one."""

    def __init__(self, card: CardDef):
        self.card = card

    def __call__(self, fn):
        self.card.on_play = fn
        return self.card

    def __getattr__(self, item):
        return getattr(self.card, item)


def base(name, set, breakpoint, vp, faction="", text="", registry: Registry = REGISTRY) -> BaseDef:
    """Declare a base."""
    return registry.add_base(BaseDef(name, set, breakpoint, tuple(vp), faction, text))
