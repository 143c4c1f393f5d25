"""How a card module declares its faction's cards and its bases.

A card module declares each card with one call and attaches its ability functions with decorators,
so a module reads like the cards themselves:

    aliens = Faction("Aliens", set="core")

    @aliens.minion("Invader", power=3, copies=2, text="On play: gain 1 VP.")
    def invader(ctx):
        ctx.gain_vp(ctx.me, 1)

The declarations land in a `Registry` (registry.py), where the definitions and the checks made on
them live. A faction is 20 cards (CR "Setup": each player shuffles two factions into a deck of 40).
"""
from __future__ import annotations

from .core import ACTION, INTENTS, MINION, ConfigError
from .registry import NO_EFFECT_REASONS, REGISTRY, BaseDef, CardDef, Registry


class Faction:
    """A faction's deck of 20 cards, declared card by card in its module."""

    def __init__(self, name: str, set: str, registry: Registry = REGISTRY,
                 cares_about_breakpoints: bool = False):
        self.name = name
        self.set = set
        # Big Base mode: cards of this faction read or need breakpoints, so breakpoint cards keep
        # their effect there (each side's breakpoint is the current base card's).
        self.cares_about_breakpoints = cares_about_breakpoints
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
        cancels_base: bool = False,
        no_effect_in_big_base: str | None = None,
        intent: str | None = None,
        cancels_host: bool = False,
        host_ability: bool = False,
    ):
        """Declare an action. `attach`: "minion" or "base" for an action played on one (it stays
        in play); `attach_filter(ctx, host)`: which hosts it may be played on; `cancels_base`:
        attached to a base, that base's abilities are cancelled (Jammed Signal); `cancels_host`:
        attached to a minion, that minion's abilities are cancelled, not those of the other actions
        on it (Cuddle, My Only Weakness!); `host_ability`: its abilities are abilities it gives
        the minion it is on, cancelled with the minion's (Flighterizer's kind);
        `special_only`: playable only through its Special (Hidden Ninja); `intent`: what it
        does to the minion or base it is played on, "harm" or "help" (core.INTENTS)."""
        if attach not in (None, "minion", "base"):
            raise ConfigError(f"{name}: attach is 'minion' or 'base', not {attach!r}")
        if intent is not None and (intent not in INTENTS or attach is None):
            raise ConfigError(f"{name}: intent is one of {INTENTS}, for an action played on a "
                              f"minion or a base, not {intent!r}")
        if cancels_base and attach != "base":
            raise ConfigError(f"{name}: only an action played on a base can cancel it")
        if (cancels_host or host_ability) and attach != "minion":
            raise ConfigError(f"{name}: only an action played on a minion cancels it or gives "
                              "it abilities")
        card = self._declare(
            CardDef(name, ACTION, self.name, self.set, copies, 0, text, attach, attach_filter)
        )
        card.is_special_only = special_only
        card.cancels_base = cancels_base
        card.cancels_host = cancels_host
        card.host_ability = host_ability
        if no_effect_in_big_base not in NO_EFFECT_REASONS:
            raise ConfigError(f"{name}: no_effect_in_big_base is one of {NO_EFFECT_REASONS}")
        card.no_effect_in_big_base = no_effect_in_big_base
        card.intent = intent
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
