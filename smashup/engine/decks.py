"""Decks and bases dealt: drawing, an empty deck refilled, the base deck, bases put in play.

Rules implemented here: the community page's "Phase 4: Draw 2 Cards" and WWWT's (to draw, reveal,
search or look at a card with an empty deck, the discard pile is shuffled into a new deck:
`refill_deck`, which every draw, look, reveal and search goes through); "Build the Base Deck"
(the base deck and its discard pile work as a player's: `refill_base_deck`, `draw_base`); "Draw
the Bases" (one base per player plus one: `deal_bases`); a base that takes another's place
(Terraforming, a destroyed base replaced: `swap_base`) or comes in as an extra one (Idaho Smith:
`add_base`). A mode (Big Base) overrides `deal_bases`, `swap_base` and `add_base`.

The primitive under all of them is `GameState.move_card` (state.py). Compiled, `game` is typed
GameState (decks.pxd).
"""
from __future__ import annotations

import cython

from .core import ConfigError, counted
from .registry import BaseDef
from .state import GameState


@cython.locals(game=GameState)
def draw(game, seat: int, count: int) -> list[int]:
    """Draw cards; an empty deck takes the shuffled discard pile first (CR, Phase 4)."""
    drawn = []
    player = game.players[seat]
    deck, hand, loc = player.deck, player.hand, game.loc
    zone = ("hand", seat)
    for _ in range(count):
        if not deck and not refill_deck(game, seat):
            break
        # `move_card` from the top of the deck into the hand (pile to pile), inline.
        cid = deck.pop(0)
        hand.append(cid)
        loc[cid] = zone
        drawn.append(cid)
        if game.knowledge is not None:
            game.knowledge.drawn(game, seat, cid)
    if drawn:
        lines = game.log_lines
        lines.append((f"{player.name} draws {counted(len(drawn), 'card')}.", None))
        defs = game.defs
        lines.append((f"You draw {', '.join([defs[c].name for c in drawn])}.", (seat,)))
    return drawn


@cython.locals(game=GameState)
def refill_deck(game, seat: int, need: int = 1, from_bottom: bool = False) -> bool:
    """Make the deck hold `need` cards if it can; True if it holds at least one card.

    WWWT Phase 4: to draw, reveal, search for or look at a card with an empty deck, the discard
    pile is shuffled into a new deck. Cards are taken one at a time, so when an ability needs
    `need` cards from one end of the deck and it has fewer, those few count as taken and the
    shuffled discard pile becomes the new deck beyond them: under them when cards are taken
    from the top, above them when taken from the bottom (our reading: the same as drawing
    them one by one). Every draw, look, reveal and search (`draw`, `Ctx.look_at_top`,
    `Ctx.reveal_top`, `Ctx.search_deck`) comes through here."""
    player = game.players[seat]
    if len(player.deck) < need and player.discard:
        left = len(player.deck)
        pile = list(player.discard)
        game.rng.shuffle(pile)
        # What moving them one by one (`move_card`, pile to pile) does, at once.
        player.discard.clear()
        zone = ("deck", seat)
        loc = game.loc
        for cid in pile:
            loc[cid] = zone
        if from_bottom:
            player.deck[:0] = pile
        else:
            player.deck.extend(pile)
        if game.knowledge is not None:
            game.knowledge.refilled(game, pile)
        if not left:
            game.log(f"{game.pname(seat)} shuffles their discard pile into a new deck.")
        else:
            where = "above" if from_bottom else "under"
            game.log(f"{game.pname(seat)} shuffles their discard pile into a new deck {where} "
                     f"the {counted(left, 'card')} left.")
    return bool(player.deck)


@cython.locals(game=GameState)
def refill_base_deck(game) -> bool:
    """The base deck works like a player's deck (CR, "Build the Base Deck": "this deck and
    discard pile work the same"): an empty base deck takes the shuffled base discard pile
    before a base is drawn or the base deck is searched. True if it holds a base."""
    if not game.base_deck and game.base_discard:
        pile = list(game.base_discard)
        game.rng.shuffle(pile)
        for cid in pile:
            game.move_card(cid, ("base_deck",))
        if game.knowledge is not None:
            game.knowledge.shuffle(("base_deck",))
        game.log("The base discard pile is shuffled into a new base deck.")
    return bool(game.base_deck)


@cython.locals(game=GameState)
def draw_base(game) -> int | None:
    return game.base_deck[0] if refill_base_deck(game) else None


@cython.locals(game=GameState)
def deal_bases(game, bases: list[BaseDef]) -> None:
    """Setup: the base deck from these bases, shuffled, and one base per player plus one in
    play (CR "Setup")."""
    needed = len(game.players) + 1
    if len(bases) < needed:
        raise ConfigError(f"{len(game.players)} players need {needed} bases; "
                          f"the chosen sets have {len(bases)}")
    for bdef in bases:
        game.new_card(bdef, None, ("base_deck",))
    game.rng.shuffle(game.base_deck)
    for _ in range(needed):
        game.new_slot(game.base_deck[0])


@cython.locals(game=GameState)
def swap_base(game, uid: int, new_base: int, old_to: tuple = ("base_deck",)) -> list[int]:
    """Put `new_base` (from the base deck or the base discard pile) in the place of base
    `uid`; everything on it stays. The old base goes to `old_to`: the base deck
    (Terraforming's swap) or the base discard pile (a base destroyed and replaced: Burn It
    Down). Returns the bases in play that now have the new base card: [uid] (Big Base:
    every side)."""
    slot = game.slot(uid)
    old = slot.card
    game.move_card(new_base, ("base", uid))
    slot.card = new_base
    game.changed()
    game.move_card(old, old_to)
    game.log(f"{game.name(new_base)} takes the place of {game.name(old)}.")
    return [uid]


@cython.locals(game=GameState)
def add_base(game, new_base: int) -> list[int]:
    """Put `new_base` (from the base deck) into play as one more base, after the others
    (Idaho Smith: it is replaced as usual when it scores, so there stays one base more).
    Returns the bases that now have it: [its uid] (Big Base: every side)."""
    slot = game.new_slot(new_base)
    game.log(f"{game.base_name(slot.uid)} comes into play as an extra base.")
    return [slot.uid]
