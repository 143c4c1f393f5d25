"""A base's breakpoint is derived like power (WWWT "Starting": the printed value before other
abilities modify it): printed + lasting "breakpoint" changes (`Ctx.change_breakpoint`, Rampage),
never below 0 (WWWT: "base breakpoint is never reduced below zero"). Scoring readiness, the views
and cards (`Ctx.breakpoint`) all read it; a change ends at its deadline or when its base leaves
play. Tested with test-only actions in a registry of their own."""
from __future__ import annotations

from smashup.engine import ACTION, Ctx, Faction, Scenario
from smashup.engine.registry import Registry
from smashup.engine.testing import assert_refused, base_uid, choose, end_play, play

from .support import PIRATES_ROBOTS, build_test_registry


def quake_registry() -> Registry:
    r = build_test_registry()
    quakers = Faction("Quakers", set="quakeset", registry=r)

    def lower_by(amount):
        def tremor(ctx):
            uid = yield from ctx.choose_base(ctx.bases(), "Lower which base's breakpoint?")
            ctx.change_breakpoint(uid, -amount)
            yield from ctx.grant_extra(ACTION)
        return tremor

    quakers.action("Tremor", text=(
        "A base's breakpoint is 10 lower this turn. You may play an extra action."))(lower_by(10))
    quakers.action("Chasm", text=(
        "A base's breakpoint is 30 lower this turn. You may play an extra action."))(lower_by(30))
    return r


REG = quake_registry()


def table() -> Scenario:
    """Seat 0 to play on Tar Pits (16) and Jungle Oasis (12); the Mall (24) is next in the base
    deck. Decks to draw from and a card for seat 1, so the game stops at seat 1's turn."""
    s = Scenario([("Quakers", "Aliens"), PIRATES_ROBOTS])
    s.base("Tar Pits")
    s.base("Jungle Oasis")
    s.base_deck("Rhodes Plaza Mall")
    for seat in range(2):
        s.deck(seat, *["Tiger Assassin"] * 4)
    s.hand(1, "Collector")
    return s


def breakpoints(game) -> dict[str, int]:
    return {game.name(slot.card): game.breakpoint(slot) for slot in game.bases}


def viewed(game) -> dict[str, int]:
    return {b["name"]: b["breakpoint"] for b in game.view(None)["bases"]}


def test_a_lowered_breakpoint_is_read_everywhere_and_returns_at_the_end_of_the_turn():
    s = table()
    s.minion(0, "Invader", owner=1)  # 3 on Tar Pits: 16 - 10 = 6 is still out of reach
    s.hand(0, "Tremor", "Invader")
    game = s.build(REG)
    pits = base_uid(game, "Tar Pits")
    play(game, "Tremor")
    choose(game, "Tar Pits")
    assert breakpoints(game) == {"Tar Pits": 6, "Jungle Oasis": 12}
    assert viewed(game) == breakpoints(game)
    assert Ctx(game, game.bases[0].card, 0).breakpoint(pits) == 6
    assert "Tar Pits's breakpoint is now 6 (Tremor)." in [t for t, _ in game.log_lines]
    end_play(game)
    assert (game.current, game.phase) == (1, "play")
    assert breakpoints(game) == {"Tar Pits": 16, "Jungle Oasis": 12}
    assert game.lasting == []


def test_a_lowered_breakpoint_makes_a_base_ready_to_score():
    s = table()
    s.minion(0, "Invader", owner=0)
    s.minion(0, "Supreme Overlord", owner=0)  # 8 on Tar Pits
    s.hand(0, "Tremor", "Invader")
    game = s.build(REG)
    play(game, "Tremor")
    choose(game, "Tar Pits")
    assert game.ready_bases() == [game.bases[0]]
    end_play(game)
    # Scored (4 VP to seat 0) and replaced by the Mall, whose breakpoint is its printed one.
    assert game.players[0].vp == 4
    assert breakpoints(game) == {"Rhodes Plaza Mall": 24, "Jungle Oasis": 12}
    assert game.lasting == []


def test_changes_add_up_and_never_go_below_zero():
    s = table()
    s.hand(0, "Tremor", "Chasm", "Invader")
    game = s.build(REG)
    play(game, "Tremor")
    choose(game, "Jungle Oasis")
    assert breakpoints(game)["Jungle Oasis"] == 2
    play(game, "Chasm")
    choose(game, "Jungle Oasis")
    assert breakpoints(game)["Jungle Oasis"] == 0
    assert viewed(game)["Jungle Oasis"] == 0


def test_a_change_ends_when_its_base_leaves_play():
    s = table()
    s.hand(0, "Tremor", "Terraforming")
    s.base_deck("The Central Brain")
    game = s.build(REG)
    play(game, "Tremor")
    choose(game, "Tar Pits")
    assert breakpoints(game)["Tar Pits"] == 6
    play(game, "Terraforming")
    choose(game, "Tar Pits")
    choose(game, "The Central Brain")
    # The Central Brain took its slot: its own printed breakpoint, and the change is gone.
    assert breakpoints(game) == {"The Central Brain": 19, "Jungle Oasis": 12}
    assert game.lasting == []


def test_choosing_no_base_is_refused_and_changes_nothing():
    s = table()
    s.hand(0, "Tremor", "Invader")
    game = s.build(REG)
    play(game, "Tremor")
    assert_refused(game, [])
    assert_refused(game, ["b99"])
    assert breakpoints(game) == {"Tar Pits": 16, "Jungle Oasis": 12}

