"""The scene most faction tests start from: seat 0 plays on bases none of which acts before it
scores (Jungle Oasis 12, The Mothership 20, Factory 436-1337 25), and seat 1 always keeps a card it
can play, so that when seat 0's turn ends the game stops at seat 1's Play Cards decision."""
from __future__ import annotations

from smashup.engine import Scenario

FILLER = "Ninja Acolyte"  # the card seat 1 holds and draws, so the game waits on its turn
QUIET_BASES = ("Jungle Oasis", "The Mothership", "Factory 436-1337")


def quiet_scene(players, bases=QUIET_BASES, deck=(), hand=()) -> Scenario:
    """`players` as Scenario takes them (seat 1 must have the Ninjas, for the filler); `deck`: seat 0's
    next draws, top first; `hand`: what seat 0 holds before the test adds its cards."""
    s = Scenario(players)
    for name in bases:
        s.base(name)
    s.hand(0, *hand)
    s.hand(1, FILLER)
    s.deck(0, *deck)
    s.deck(1, *[FILLER] * 4)
    s.base_deck("Rhodes Plaza Mall")
    return s


DECK_FILLER = "Beam Up"  # seat 0's draws in the base tests


def bases_scene(bases, players) -> Scenario:
    """The scene of the expansions' base tests: `bases` in play (index = position), seat 0 to
    play with six Beam Ups to draw, seat 1 holding and drawing the filler."""
    s = Scenario(players)
    for name in bases:
        s.base(name)
    s.hand(1, FILLER)
    s.deck(0, *[DECK_FILLER] * 6)
    s.deck(1, *[FILLER] * 6)
    s.base_deck("Rhodes Plaza Mall")
    return s
