"""Ctx.move_your_minions (Dinghy, Full Sail, Whirlwinds) and Ctx.intent_of (Ripped Off): the
vocabulary for moving your own minions one at a time and for reading where a moved attached
action means to land."""
import smashup.cards  # noqa: F401
from smashup.engine import Scenario
from smashup.engine.effects import Ctx
from smashup.engine.testing import card, choose, decline, play


def test_move_your_minions_stops_at_its_limit_and_never_offers_a_moved_minion_again():
    s = Scenario([("Pirates", "Ninjas"), ("Aliens", "Robots")])
    for name in ("Jungle Oasis", "The Mothership", "Factory 436-1337"):
        s.base(name)
    s.minion(0, "First Mate", owner=0)
    s.minion(0, "Saucy Wench", owner=0)
    s.minion(1, "Pirate King", owner=0)
    s.minion(1, "Invader", owner=1)
    s.hand(0, "Dinghy", "Buccaneer")
    s.hand(1, "Invader")
    game = s.build()
    play(game, "Dinghy")  # limit 2
    assert sorted(game.name(o.card) for o in game.pending.options) == [
        "First Mate", "Pirate King", "Saucy Wench"]
    choose(game, card(game, "First Mate", "minion"))
    choose(game, "Factory 436-1337")
    assert "(1 moved so far)" in game.pending.prompt
    assert sorted(game.name(o.card) for o in game.pending.options) == ["Pirate King",
                                                                       "Saucy Wench"]
    choose(game, card(game, "Pirate King", "minion"))
    choose(game, "Jungle Oasis")
    # Two moved: no third question.
    assert game.pending.kind == "play"


def test_move_your_minions_may_stop_at_once():
    s = Scenario([("Pirates", "Ninjas"), ("Aliens", "Robots")])
    for name in ("Jungle Oasis", "The Mothership"):
        s.base(name)
    s.minion(0, "First Mate", owner=0)
    s.hand(0, "Full Sail", "Buccaneer")
    s.hand(1, "Invader")
    game = s.build()
    play(game, "Full Sail")
    decline(game)
    assert game.loc[card(game, "First Mate", "minion")][0] == "minion"
    assert game.pending.kind == "play"


def test_intent_of_reads_what_an_action_does_to_its_host():
    s = Scenario([("Ninjas", "Tricksters"), ("Aliens", "Robots")])
    s.base("Jungle Oasis")
    s.hand(0, "Poison", "Enshrouding Mist", "Disenchant")
    game = s.build()
    ctx = Ctx(game, card(game, "Poison"), 0)
    assert [ctx.intent_of(card(game, n)) for n in ("Poison", "Enshrouding Mist",
                                                   "Disenchant")] == ["harm", "help", None]
