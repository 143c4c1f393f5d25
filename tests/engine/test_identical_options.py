"""Identical copies never give identical options, in every question (issue 9; issue 24, mechanism
7): `ask` marks an option about a copy nobody can tell from an earlier option's card as that one's
(`Option.alike`: not shown, still accepted), a choice among such copies only is made without asking
(resolution 3), and the invariants, checked after every step of simulated games and card tests,
report any question that picks one option and shows two options reading the same."""

from __future__ import annotations

from smashup.engine import Ctx, Scenario
from smashup.engine.core import Decision, Option
from smashup.engine.invariants import check, identical_options
from smashup.engine.testing import card, labels

from .support import ALIENS_NINJAS, PIRATES_ROBOTS


def board(resolution=None):
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    home = s.base("The Homeworld")
    s.base("Jungle Oasis")
    for _ in range(2):
        s.minion(home, "Invader", owner=1)
    s.minion(home, "Collector", owner=1)
    s.hand(0, "Beam Up")
    s.hand(1, "Collector")
    game = s.build()
    if resolution is not None:
        game.resolution = resolution
    return game


def ask_about(game, cards):
    flow = Ctx(game, card(game, "Beam Up"), 0).choose_minion(cards, "Which minion?", optional=True)
    return flow, next(iter(flow))


def test_a_question_shows_identical_copies_once_and_accepts_either():
    game = board()
    invaders = [c for c in game.all_minions() if game.name(c) == "Invader"]
    flow, decision = ask_about(game, [*invaders, card(game, "Collector", "minion")])
    assert [o.alike for o in decision.options] == [None, decision.options[0].id, None]
    assert [o["label"] for o in decision.public()["options"]] == [
        "Invader (3, P1) on The Homeworld",
        "Collector (2, P1) on The Homeworld",
    ]
    assert decision.option(decision.options[1].id).card == invaders[1]  # an old record's id


def test_a_choice_among_identical_copies_only_is_made_without_asking():
    game = board()
    invaders = [c for c in game.all_minions() if game.name(c) == "Invader"]
    flow = Ctx(game, card(game, "Beam Up"), 0).choose_minion(invaders, "Which minion?")
    try:
        next(iter(flow))
    except StopIteration as done:
        assert done.value == invaders[0]
    else:
        raise AssertionError("a question was asked")
    # A record of resolution 2 asked it (its choice is in the record).
    game = board(resolution=2)
    flow = Ctx(game, card(game, "Beam Up"), 0).choose_minion(invaders, "Which minion?")
    decision = next(iter(flow))
    assert len(decision.public()["options"]) == 1 and len(decision.options) == 2


def test_the_invariants_report_two_options_that_read_the_same():
    game = board()
    pending = game.pending
    one, two = [c for c in game.all_minions() if game.name(c) == "Invader"]
    label = "Invader (3, P1) on The Homeworld"
    game.pending = Decision(
        "d99",
        0,
        "target",
        "Which?",
        [Option(f"m{one}", label, card=one), Option(f"m{two}", label, card=two)],
        1,
        1,
    )
    problems = identical_options(game)
    assert any("both read 'Invader (3, P1) on The Homeworld'" in p for p in problems)
    assert any("copies nobody can tell apart" in p for p in problems)
    assert problems and problems[0] in check(game)
    # Marked alike, the second is not shown: nothing to report.
    game.pending = Decision(
        "d99",
        0,
        "target",
        "Which?",
        [Option(f"m{one}", label, card=one), Option(f"m{two}", label, card=two, alike=f"m{one}")],
        1,
        1,
    )
    assert identical_options(game) == []
    # A question picking several may show both: each copy is a pick of its own.
    game.pending = Decision(
        "d99",
        0,
        "discard",
        "Discard two",
        [Option(f"c{one}", "Invader", card=one), Option(f"c{two}", "Invader", card=two)],
        2,
        2,
    )
    assert identical_options(game) == []
    game.pending = pending
    assert labels(game)
