"""A base's breakpoint is derived like power (WWWT "Starting": the printed value before other
abilities modify it): the starting value (printed, or what a card in play sets: Turn Up to 11),
then the modifiers of cards in play, then lasting "breakpoint" changes (`Ctx.change_breakpoint`,
Rampage), never below 0 (WWWT: "base breakpoint is never reduced below zero"). Scoring readiness,
the views, the bots and cards (`Ctx.breakpoint`) all read it; a change ends at its deadline or
when its base leaves play, a modifier or a new start when its card leaves play. Tested with
test-only cards in a registry of their own."""
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

    # A new starting breakpoint (the shape of Turn Up to 11, with another number).
    stage = quakers.action("Grand Stage", attach="base", text=(
        "Play on a base. Ongoing: if its printed breakpoint is below 20, it starts at 20."))

    @stage.sets_starting_breakpoint
    def grand_stage_start(ctx, uid):
        return 20 if uid == ctx.here and ctx.printed_breakpoint(uid) < 20 else None

    # A modifier of a card in play: counted while it is in play, gone when it leaves.
    digger = quakers.minion("Sinkhole Digger", power=2, text=(
        "Ongoing: this minion's base has a breakpoint 3 lower."))

    @digger.modifies_breakpoint
    def digger_sinks(ctx, uid):
        return -3 if uid == ctx.here else 0
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



def test_a_card_in_play_sets_a_new_start_and_the_other_changes_count_from_it():
    s = table()
    s.hand(0, "Grand Stage", "Tremor", "Invader")
    game = s.build(REG)
    play(game, "Tremor")
    choose(game, "Jungle Oasis")
    assert breakpoints(game)["Jungle Oasis"] == 2
    play(game, "Grand Stage")
    choose(game, "Jungle Oasis")
    # WWWT clarification on Turn Up to 11: the other changes apply from the new start.
    assert breakpoints(game) == {"Tar Pits": 16, "Jungle Oasis": 10}
    assert viewed(game) == breakpoints(game)
    assert Ctx(game, game.bases[1].card, 0).printed_breakpoint(base_uid(game, "Jungle Oasis")) == 12


def test_a_new_start_never_lowers_a_base_printed_above_it():
    s = Scenario([("Quakers", "Aliens"), PIRATES_ROBOTS])
    s.base("Rhodes Plaza Mall")
    s.base("Jungle Oasis")
    s.base_action(0, "Grand Stage", owner=0)
    s.hand(0, "Invader")
    s.hand(1, "Collector")
    assert breakpoints(s.build(REG)) == {"Rhodes Plaza Mall": 24, "Jungle Oasis": 12}


def test_a_modifier_counts_while_its_card_is_in_play():
    s = table()
    s.minion(1, "Sinkhole Digger", owner=0)  # Jungle Oasis: 12 - 3
    s.hand(0, "Beam Up", "Invader")
    game = s.build(REG)
    assert breakpoints(game) == {"Tar Pits": 16, "Jungle Oasis": 9}
    assert viewed(game) == breakpoints(game)
    play(game, "Beam Up")  # the only minion in play: returned without a question
    assert game.loc[game.players[0].hand[-1]] == ("hand", 0)
    assert game.name(game.players[0].hand[-1]) == "Sinkhole Digger"
    assert breakpoints(game) == {"Tar Pits": 16, "Jungle Oasis": 12}


def test_start_modifiers_and_changes_add_up_and_never_go_below_zero():
    s = table()
    s.base_action(1, "Grand Stage", owner=0)
    s.minion(1, "Sinkhole Digger", owner=0)
    s.hand(0, "Chasm", "Invader")
    game = s.build(REG)
    assert breakpoints(game)["Jungle Oasis"] == 17  # starts at 20, 3 lower
    play(game, "Chasm")
    choose(game, "Jungle Oasis")
    assert breakpoints(game)["Jungle Oasis"] == 0
    assert viewed(game)["Jungle Oasis"] == 0


def test_scoring_reads_the_derived_breakpoint():
    # 14 power on Tar Pits: not ready at 16, ready at 13 (a Digger there), not ready at 20 + the
    # Digger's -3 = 17 once a Grand Stage is played there.
    s = table()
    s.minion(0, "Supreme Overlord", owner=0)
    s.minion(0, "Supreme Overlord", owner=1)
    s.minion(0, "Sinkhole Digger", owner=0)
    s.minion(0, "Invader", owner=0)  # 5 + 5 + 2 + 3 = 15
    s.hand(0, "Grand Stage", "Invader")
    game = s.build(REG)
    assert game.ready_bases() == [game.bases[0]]
    play(game, "Grand Stage")
    choose(game, "Tar Pits")
    assert breakpoints(game)["Tar Pits"] == 17
    assert game.ready_bases() == []
    end_play(game)
    assert game.players[0].vp == 0 and game.players[1].vp == 0
    assert [game.name(slot.card) for slot in game.bases] == ["Tar Pits", "Jungle Oasis"]


def test_the_heuristic_bot_aims_at_a_base_by_its_current_breakpoint():
    from smashup.engine.bots import _play_value

    s = table()
    s.minion(1, "Supreme Overlord", owner=0)  # 5 on Jungle Oasis (12)
    s.minion(0, "Supreme Overlord", owner=0)  # 5 on Tar Pits (16)
    s.hand(0, "Invader", "Tremor")
    game = s.build(REG)
    invader = next(c for c in game.players[0].hand if game.name(c) == "Invader")
    pits = base_uid(game, "Tar Pits")
    before = _play_value(game, 0, _minion_option(invader, pits))
    play(game, "Tremor")
    choose(game, "Tar Pits")  # 6: the Invader would make it score, won by seat 0
    after = _play_value(game, 0, _minion_option(invader, pits))
    assert after > before + 1  # a base it can win now, not one far from scoring


def _minion_option(cid, uid):
    from smashup.engine.core import Option
    return Option(f"m{cid}@{uid}", "", card=cid, base=uid, value=("minion", cid, uid))
