"""What each seat knows of the hidden cards: for `Game.determinize`, which deals again only what a
seat cannot know, and `Game.observation`.

Hidden are the cards in a deck (its order and, but for what was shown, which card lies where),
in the base deck, and in another player's hand (CR "Setup": hands hidden, decks face down).
What a seat knows of such a card is where it is, at one of two levels:

- its **place**: the hand it is in, or its position in a deck (which the seat follows as cards
  are taken from or put on either end: it sees how many). Learnt when the seat saw the card go
  there (from a public zone: a card returned to a hand, put on a deck from the discard pile;
  or it was the one moving it, or holding the hand), when the card was shown to it (`shown`:
  a revealed or looked-at deck top, a hand looked at), and kept while it can follow the card.
- its **pile** only: the card is somewhere in that deck (a deck shuffled after the seat knew a
  card's place; cards shuffled in from a discard pile; a deck shown to a searcher).

A seat loses track when it cannot follow: a card it does not know leaves a hand (put on a deck
without being shown) and it cannot tell which one it was, so what it knew of that hand's cards
is forgotten (`lost`); a card it does not know leaves a deck (drawn by another player), and
what it knew only by pile of that deck is forgotten; a shuffle turns every place known in that
deck into its pile (`shuffled`). Forgetting never makes a seat know more than it saw, so the
deals of `determinize` stay consistent with what it saw (they may be a little wider).

The bookkeeping is by ticks (one per event noted): a seat's entry for a card is the tick it
learnt its place (positive) or its pile (negative), valid while no later `lost` or `shuffled`
undoes it. Each hook is called only while a game tracks knowledge (`GameState.knowledge`):
`moved` from `move_card`, `drawn` from `draw`, `refilled` and `shuffled` where piles are shuffled,
`shown` from `disclose` and from a card revealed as it moves (a search's find), `seen_in_pile`
from a question's `reveal`.
"""
from __future__ import annotations

# Zones whose cards are hidden from some seat (besides the Big Base board's face-up base card,
# `public_deck_cards`): decks and the base deck (from everyone), hands (from the other seats).
HIDDEN = frozenset({"deck", "hand", "base_deck"})
_PILES = frozenset({"deck", "base_deck"})
# What a seat knows of a card (`where`):
PLACE = 2  # where it is: its hand, or its position in its deck
PILE = 1  # only the deck it is in


class Knowledge:
    """Per seat, the hidden cards whose place or pile it knows (see the module's docstring)."""

    __slots__ = ("tick", "known", "lost", "shuffled")

    def __init__(self):
        self.tick = 0
        self.known: dict[int, dict[int, int]] = {}  # seat -> card -> tick (negative: pile only)
        self.lost: dict[int, dict[tuple, int]] = {}  # seat -> zone -> tick it lost track there
        self.shuffled: dict[tuple, int] = {}  # zone -> tick of its last shuffle

    def copy(self) -> Knowledge:
        new = Knowledge.__new__(Knowledge)
        new.tick = self.tick
        new.known = {seat: dict(cards) for seat, cards in self.known.items()}
        new.lost = {seat: dict(zones) for seat, zones in self.lost.items()}
        new.shuffled = dict(self.shuffled)
        return new

    def _seat(self, seat: int) -> dict:
        known = self.known.get(seat)
        if known is None:
            known = self.known[seat] = {}
            self.lost[seat] = {}
        return known

    def where(self, seat: int, cid: int, zone: tuple) -> int | None:
        """What `seat` knows of card `cid`, which lies in hidden `zone`: PLACE, PILE or None."""
        known = self.known.get(seat)
        if known is None:
            return None
        tick = known.get(cid)
        if tick is None:
            return None
        lost = self.lost[seat].get(zone, 0)
        if zone[0] not in _PILES:  # a hand: known until a card it could not follow left it
            return PLACE if abs(tick) > lost else None
        shuffled = self.shuffled.get(zone, 0)
        if tick > shuffled:
            return PLACE
        # Known by pile since then, until a card it could not follow left the deck.
        return PILE if lost < max(abs(tick), shuffled) else None

    # ------------------------------------------------------------------ the hooks -------------
    def moved(self, game, cid: int, old: tuple, new: tuple, index: int | None) -> None:
        """`move_card` is about to move `cid` from `old` to `new` (at `index`)."""
        hidden_from, hidden_to = old[0] in HIDDEN, new[0] in HIDDEN
        if not hidden_from and not hidden_to:
            return
        self.tick += 1
        tick = self.tick
        seats = range(len(game.players))
        if not hidden_from:  # seen by everyone going where it goes
            for seat in seats:
                self._seat(seat)[cid] = tick
            return
        pile = old[0] in _PILES
        if pile:
            cards = game.container(old)
            if cards[0] != cid and cards[-1] != cid:
                # From the middle of a deck (a search's find): nobody follows the places below
                # it any more.
                self.shuffled[old] = tick
        if not hidden_to:  # seen by everyone: what the others knew stays true
            return
        self._hidden_move(game, cid, old, new, tick, seats)

    def _hidden_move(self, game, cid, old, new, tick, seats) -> None:
        # From a hidden zone to a hidden zone: the seats that knew its place follow it, so does
        # whoever holds the hand it leaves or enters; the others lose track of it (and of the
        # zone it left: they cannot tell which card went), unless it stays in its deck.
        holders = {z[1] for z in (old, new) if z[0] == "hand"}
        for seat in seats:
            known = self._seat(seat)
            if seat in holders or self.where(seat, cid, old) == PLACE:
                known[cid] = tick
            elif old != new:
                known.pop(cid, None)
                self.lost[seat][old] = tick

    def drawn(self, game, seat: int, cid: int) -> None:
        """`cid` went from the top of `seat`'s deck into their hand."""
        self.tick += 1
        self._hidden_move(game, cid, ("deck", seat), ("hand", seat), self.tick,
                          range(len(game.players)))

    def refilled(self, game, cards) -> None:
        """These cards were shuffled from a discard pile into a deck: everyone knows their pile."""
        self.tick += 1
        tick = -self.tick
        for seat in range(len(game.players)):
            known = self._seat(seat)
            for cid in cards:
                known[cid] = tick

    def shuffle(self, zone: tuple) -> None:
        """The deck `zone` was shuffled: places known in it become piles."""
        self.tick += 1
        self.shuffled[zone] = self.tick

    def shown(self, game, cards, to: tuple | None) -> None:
        """These cards were shown, where they lie, to the seats `to` (None: everyone)."""
        self.tick += 1
        tick = self.tick
        for seat in (range(len(game.players)) if to is None else to):
            known = self._seat(seat)
            for cid in cards:
                known[cid] = tick

    def seen_in_pile(self, game, seat: int, cards) -> None:
        """A question showed these cards to `seat` (its `reveal`: a searched deck, in no
        order): it knows their pile, or still their place."""
        self.tick += 1
        tick = -self.tick
        known = self._seat(seat)
        loc = game.loc
        for cid in cards:
            zone = loc[cid]
            if zone is not None and zone[0] in HIDDEN and self.where(seat, cid, zone) != PLACE:
                known[cid] = tick

    # ------------------------------------------------------------------ reading ---------------
    def public(self, seats: int) -> Knowledge:
        """What every seat knows alike (what a determinized game may keep of the others'
        knowledge: what they saw privately would be the real game's secret)."""
        new = Knowledge.__new__(Knowledge)
        new.tick = self.tick
        new.shuffled = dict(self.shuffled)
        new.known, new.lost = {}, {}
        everyone = [self.known.get(seat, {}) for seat in range(seats)]
        common = {cid: tick for cid, tick in everyone[0].items()
                  if all(other.get(cid) == tick for other in everyone[1:])} if everyone else {}
        for seat in range(seats):
            new.known[seat] = dict(common)
            new.lost[seat] = dict(self.lost.get(seat, {}))
        return new
