"""`Ctx.one_of_each`: identical copies must never give identical options, so a choice keeps one of
the copies a player could not tell apart, and every copy that differs in something the player can
see (base, controller, owner, power, counters, attached cards; zone and owner out of play)."""
from __future__ import annotations

from smashup.engine import Ctx, Scenario
from smashup.engine.testing import card, labels, play

from .support import ALIENS_NINJAS, PIRATES_ROBOTS


def test_alike_copies_are_kept_once_and_different_ones_all_kept():
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    pits = s.base("Tar Pits")
    oasis = s.base("Jungle Oasis")
    s.minion(pits, "Invader", owner=1)
    s.minion(pits, "Invader", owner=1)  # alike the first
    s.minion(pits, "Invader", owner=1, counters=1)  # more power
    s.minion(pits, "Invader", owner=0, controller=1)  # another owner
    s.minion(pits, "Invader", owner=1, attached=[("Poison", 0)])  # something attached
    s.minion(oasis, "Invader", owner=1)  # another base
    s.minion(pits, "Invader", owner=0)  # another controller
    s.hand(0, "Scout", "Scout", "Invader")
    s.discard(0, "Scout")
    game = s.build()
    ctx = Ctx(game, card(game, "Scout", "hand"), 0)
    invaders = [c for c in card_ids(game, "Invader") if game.loc[c][0] == "minion"]
    kept = ctx.one_of_each(invaders)
    assert kept == [invaders[0]] + invaders[2:]
    scouts = card_ids(game, "Scout")
    hand = ctx.hand()
    assert ctx.one_of_each(hand) == [hand[0], hand[2]]
    assert ctx.one_of_each(scouts) == [scouts[0], scouts[2]]  # one in hand, one in the pile
    assert ctx.one_of_each([]) == []


def card_ids(game, name) -> list[int]:
    return [c for c, d in enumerate(game.defs) if d.name == name]


def test_an_action_played_on_a_minion_offers_alike_hosts_once_and_still_accepts_either():
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    oasis = s.base("Jungle Oasis")
    s.minion(oasis, "Invader", owner=1)
    s.minion(oasis, "Invader", owner=1)  # alike the first
    s.minion(oasis, "Invader", owner=1, counters=1)  # more power: told apart
    s.hand(0, "Poison", "Scout")
    s.hand(1, "Invader")
    game = s.build()
    play(game, "Poison")
    first, second, third = [c for c in card_ids(game, "Invader") if game.loc[c][0] == "minion"]
    assert labels(game) == ["Invader (3, P1) on Jungle Oasis",
                            "Invader (4, 1 counter, P1) on Jungle Oasis"]
    assert [o.alike for o in game.pending.options] == [None, f"m{first}", None]
    # The copy not shown is still accepted (records made before replay).
    game.apply(0, game.pending.id, [f"m{second}"])
    assert game.loc[card(game, "Poison")] == ("attached", second)
