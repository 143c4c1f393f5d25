"""The vocabulary's verbs on a player's piles: draw, discard from the hand or the deck, reveal a
hand, look at or reveal a deck's top, search a deck and a discard pile, shuffle, place a card
in a hand, put cards on a deck, shuffle cards into a deck.

Rules implemented here: the community page's "Phase 4: Draw 2 Cards" and WWWT's (an empty deck
takes the shuffled discard pile first, for every draw, look, reveal and search:
`GameState.refill_deck`), WWWT "Terms" (discard, place, reveal: what everyone sees; look: what
one player sees, a private log line), and the searches' reveal and shuffle. Each is a method of
`Ctx` (effects.py).

Compiled, `ctx` is typed `_Ctx` (context.pxd) by `@cython.locals`: its fields are read as C fields.
"""
from __future__ import annotations

import cython

from .context import _acts_as, _Ctx
from .core import counted


@cython.locals(ctx=_Ctx)
def draw(ctx, seat: int, count: int) -> list[int]:
    return ctx.game.draw(seat, count)


@cython.locals(ctx=_Ctx)
def discard_from_hand(ctx, seat: int, cards) -> None:
    """`seat` discards these cards from their hand (chosen by the caller)."""
    g = ctx.game
    cards = list(cards)
    for c in cards:
        g.move_card(c, ("discard", seat))
        g.emit(ctx._event("discarded", c, None, seat, {"from": "hand"}))
    if cards:
        g.log(f"{g.pname(seat)} discards {', '.join([ctx.name(c) for c in cards])}.")


@cython.locals(ctx=_Ctx)
def discard_at_random(ctx, seat: int, count: int) -> list[int]:
    """`seat` discards `count` cards at random from their hand (Take the Shinies, Brownie),
    drawn with the game's seeded generator. Returns them."""
    hand = ctx.game.players[seat].hand
    cards = ctx.game.rng.sample(list(hand), min(count, len(hand))) if hand else []
    if cards:
        ctx.discard_from_hand(seat, cards)
    return cards


@cython.locals(ctx=_Ctx)
def reveal_hand_to(ctx, viewer: int, seat: int) -> None:
    g = ctx.game
    names = ", ".join([ctx.name(c) for c in g.players[seat].hand]) or "no cards"
    g.log(f"{g.pname(viewer)} looks at {g.pname(seat)}'s hand.")
    g.log(f"{g.pname(seat)}'s hand: {names}.", to=(viewer, seat))
    g.disclose(g.players[seat].hand, to=(viewer, seat))


# WWWT Phase 4: to draw, reveal, search for or look at a card with an empty deck, shuffle the
# discard pile into a new deck first. Every one of these goes through `Game.refill_deck`.
@cython.locals(ctx=_Ctx)
def _deck_end(ctx, seat: int, count: int, bottom: bool) -> list[int]:
    g = ctx.game
    if count <= 0:
        return []
    g.refill_deck(seat, count, from_bottom=bottom)
    deck = g.players[seat].deck
    return list(reversed(deck[-count:])) if bottom else list(deck[:count])


@cython.locals(ctx=_Ctx)
def _whose_deck(ctx, actor: int, seat: int, cards: list[int], bottom: bool) -> str:
    # "the top card of their deck", "the bottom 2 cards of P1's deck"
    end = "bottom" if bottom else "top"
    which = f"{end} card" if len(cards) == 1 else f"{end} {counted(len(cards), 'card')}"
    whose = "their" if actor == seat else f"{ctx.game.pname(seat)}'s"
    return f"the {which} of {whose} deck"


@cython.locals(ctx=_Ctx)
def look_at_top(ctx, seat: int, count: int, viewer: int | None = None,
                bottom: bool = False) -> list[int]:
    """`viewer` (default you) looks at the top `count` cards of `seat`'s deck (the bottom ones
    with `bottom`), shown to no one else (CR "Void Where Prohibited": "look" versus
    "reveal"). The cards stay where they are; returns them from that end inwards. The names
    go to the viewer's log only; a question about them passes them as `reveal`."""
    g = ctx.game
    viewer = ctx._seat(viewer)
    cards = ctx._deck_end(seat, count, bottom)
    if cards:
        g.log(f"{g.pname(viewer)} looks at {ctx._whose_deck(viewer, seat, cards, bottom)}.")
        g.log(f"You see {', '.join([ctx.name(c) for c in cards])}.", to=(viewer,))
        g.disclose(cards, to=(viewer,))
    return cards


@cython.locals(ctx=_Ctx)
def look_then_top_or_bottom(ctx, seat: int | None = None):
    """`seat` (you) looks at the top card of their deck, then leaves it on top or puts it on
    the bottom (Grandma's House, Granny, Grandma). The labels name no card: the other players
    see the question, not the card. Returns "top", "bottom", or None for an empty deck."""
    seat = ctx._seat(seat)
    seen = ctx.look_at_top(seat, 1, viewer=seat)
    if not seen:
        return None
    where = yield from ctx.choose_one(f"{ctx.name(ctx.card)}: where does the card you saw "
                                       "go?", [("top", "Leave it on top"),
                                               ("bottom", "Put it on the bottom")],
                                       seat=seat)
    if where == "bottom":
        ctx.put_on_deck(seen, bottom=True)
        ctx.log(f"{ctx.player_name(seat)} puts the top card of their deck on the bottom.")
    return where


@cython.locals(ctx=_Ctx)
def choose_deck_end(ctx, card: int, seat: int | None = None):
    """`seat` (you) picks where `card` goes on its owner's deck: returns "deck_top" or
    "deck_bottom" (a `Scoring.redirect` destination; `put_on_deck(..., bottom=...)`):
    Always Room at Granny's, Chicken Soup, Retirement Community."""
    return (yield from ctx.choose_one(
        f"Put {ctx.name(card)} on the top or the bottom of the deck?",
        [("deck_top", "On top"), ("deck_bottom", "On the bottom")], seat=seat,
        intent="help"))


@cython.locals(ctx=_Ctx)
def reveal_top(ctx, seat: int, count: int, bottom: bool = False) -> list[int]:
    """Reveal the top `count` cards of `seat`'s deck (the bottom ones with `bottom`) to
    everyone. The cards stay where they are; returns them from that end inwards."""
    g = ctx.game
    cards = ctx._deck_end(seat, count, bottom)
    if cards:
        g.log(f"{g.pname(ctx.me)} reveals {ctx._whose_deck(ctx.me, seat, cards, bottom)}: "
              f"{', '.join([ctx.name(c) for c in cards])}.")
        g.disclose(cards)
    return cards


@cython.locals(ctx=_Ctx)
def discard_from_deck(ctx, seat: int | None = None, count: int = 1) -> list[int]:
    """Discard the top `count` cards of `seat`'s (your) deck (a discard: `discarded`, data
    "from": "deck"); an empty deck takes the shuffled discard pile first. Returns them."""
    seat = ctx._seat(seat)
    cards = ctx._deck_end(seat, count, False)
    ctx.discard(cards)
    return cards


@cython.locals(ctx=_Ctx)
def discard(ctx, cards) -> None:
    """Put cards that are not in play (in a deck or a hand, e.g. one looked at: Walker) into
    their owners' discard piles, each a `discarded` event."""
    for c in list(cards):
        ctx._discard_card(c)


@cython.locals(ctx=_Ctx)
def _discard_card(ctx, cid: int) -> None:
    # A card that is not in play goes to its owner's discard pile (WWWT "Discard").
    g = ctx.game
    owner = g.owner[cid]
    src = g.loc[cid][0]
    g.move_card(cid, ("discard", owner))
    g.log(f"{ctx.name(cid)} goes to {g.pname(owner)}'s discard pile ({ctx.name(ctx.card)}).")
    g.emit(ctx._event("discarded", cid, None, owner, {"from": src}))


@cython.locals(ctx=_Ctx)
def search(ctx, prompt: str, where=None, zones=("deck",), min_count: int = 0,
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
    g = ctx.game
    seat = ctx._seat(seat)
    deck = []
    if "deck" in zones and g.refill_deck(seat):
        deck = sorted(g.players[seat].deck, key=lambda c: (g.name(c), c))  # not the order
    pile = list(g.players[seat].discard) if "discard" in zones else []
    if not deck and not pile:
        return []
    where_words = " and ".join(w for w, z in (("deck", deck), ("discard pile", pile)) if z)
    g.log(f"{g.pname(seat)} searches their {where_words} ({ctx.name(ctx.card)}).")
    candidates = [c for c in deck + pile if where is None or where(c)]
    if same_name:
        chosen = yield from ctx.choose_same_name(candidates, prompt, seat=seat, reveal=deck,
                                                  max_count=max_count,
                                                  say_where=bool(deck and pile),
                                                  intent=intent)
    else:
        max_count = 1 if max_count is None else max_count
        if max_count == 1:
            # One card taken: alike copies in one zone are one option (Scry: two Mystic
            # Studies in the deck). Taking several keeps every copy, to allow both.
            candidates = ctx.one_of_each(candidates)
        chosen = yield from ctx.choose_cards(candidates, prompt, min_count, max_count,
                                              seat=seat, reveal=deck,
                                              say_where=bool(deck and pile), intent=intent)
    if chosen:
        g.log(f"{g.pname(seat)} reveals {', '.join([ctx.name(c) for c in chosen])}.")
    for c in chosen:
        if to == "hand":
            ctx.place_in_hand(c, revealed=True)
        elif to == "discard" and g.loc[c][0] != "discard":
            ctx._discard_card(c)
    if deck and to is not None:
        ctx.shuffle_deck(seat)
    return chosen


@cython.locals(ctx=_Ctx)
def search_deck(ctx, prompt: str, where=None, min_count: int = 0, max_count: int = 1,
                to: str | None = "hand", seat: int | None = None):
    """`search` of the deck only."""
    return (yield from ctx.search(prompt, where, ("deck",), min_count, max_count, to, seat))


@cython.locals(ctx=_Ctx)
def shuffle_deck(ctx, seat: int | None = None) -> None:
    g = ctx.game
    seat = ctx._seat(seat)
    g.rng.shuffle(g.players[seat].deck)
    if g.knowledge is not None:
        g.knowledge.shuffle(("deck", seat))
    g.log(f"{g.pname(seat)} shuffles their deck.")


@cython.locals(ctx=_Ctx)
def place_in_hand(ctx, cid: int, revealed: bool = False) -> bool:
    """Place a card from a deck or a discard pile into its owner's hand: a "place" (WWWT
    "Place": e.g. from the discard pile to your hand), announced as `placed`. A card from a
    deck is named only to its owner unless it was `revealed` (found by a search, shown by
    `reveal_top`)."""
    g = ctx.game
    src = g.loc[cid][0]
    if src not in ("deck", "discard"):
        return False
    owner = g.owner[cid]
    if revealed and g.knowledge is not None:
        g.knowledge.shown(g, [cid], None)  # everyone sees where it goes
    g.move_card(cid, ("hand", owner))
    if src == "discard" or revealed:
        where = "discard pile" if src == "discard" else "deck"
        g.log(f"{ctx.name(cid)} goes from {g.pname(owner)}'s {where} into their hand "
              f"({ctx.name(ctx.card)}).")
    else:
        g.log(f"{g.pname(owner)} puts a card from their deck into their hand "
              f"({ctx.name(ctx.card)}).")
        g.log(f"You put {ctx.name(cid)} into your hand.", to=(owner,))
    g.emit(ctx._event("placed", cid, None, owner, {"to": "hand", "from": src}))
    return True


@cython.locals(ctx=_Ctx)
def put_on_deck(ctx, cards, bottom: bool = False) -> None:
    """Put cards that are not in play on their owners' decks: on top with `cards[0]` the top
    card, or under the deck with `cards[-1]` the bottom card. For cards looked at or revealed
    ("put them back in any order": pick the order with `choose_order`). A card that comes
    from a hand or a discard pile is placed (`placed`); one that never left its deck was only
    rearranged, which is no event (our reading: nothing relocated it). A resolving action is
    sent with `after_resolving` instead."""
    g = ctx.game
    order = list(cards) if bottom else list(reversed(cards))
    for c in order:
        src = g.loc[c][0]
        if src not in ("deck", "hand", "discard"):
            continue
        owner = g.owner[c]
        g.move_card(c, ("deck", owner), None if bottom else 0)
        if src != "deck":
            g.emit(ctx._event("placed", c, None, owner,
                               {"to": "deck_bottom" if bottom else "deck_top", "from": src}))


@_acts_as("place")
@cython.locals(ctx=_Ctx)
def shuffle_into_deck(ctx, cards):
    """Shuffle cards into their owners' decks (Lend a Hand, Microbot Reclaimer: from a discard
    pile; Dr Livingstone: a minion in play, which leaves play like any other). Each deck that
    got a card is shuffled once. A minion this ability may not affect stays. Each card is
    `placed` (data "to": "deck", "shuffled": True). Returns the cards that went."""
    g = ctx.game
    went, decks = [], []
    for c in list(cards):
        src = g.loc[c][0]
        if src == "minion":
            if not (yield from ctx._allowed("place", c)) or not g.is_minion_in_play(c):
                continue
            uid, ctrl = ctx._leave_play(c)
            g.move_card(c, ("deck", g.owner[c]))
            g.emit(ctx._event("placed", c, uid, ctrl,
                               {"to": "deck", "from": "play", "shuffled": True}))
        elif src in ("hand", "discard"):
            g.move_card(c, ("deck", g.owner[c]))
            g.emit(ctx._event("placed", c, None, g.owner[c],
                               {"to": "deck", "from": src, "shuffled": True}))
        else:
            continue
        went.append(c)
        if g.owner[c] not in decks:
            decks.append(g.owner[c])
    if went:
        g.log(f"{', '.join([ctx.name(c) for c in went])} "
              f"{'is' if len(went) == 1 else 'are'} shuffled into "
              f"{'its owner' if len(went) == 1 else 'their owners'}' deck "
              f"({ctx.name(ctx.card)}).")
    for seat in decks:
        ctx.shuffle_deck(seat)
    return went
    yield
