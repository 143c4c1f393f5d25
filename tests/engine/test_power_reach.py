"""Power is counted a base at a time and asks each modifier only about the minions it can change
(`modifier(to=...)`: "itself", "host", "here", or any minion). After every change power reads
(a minion moved, counters, a lasting change, a cancelled modifier, an action moved to another
host, a new turn) the cached powers and base totals are the fresh ones (`power_now` asks every
modifier about every minion, so a wrong reach shows as a stale power)."""
from __future__ import annotations

import pytest

from smashup.engine import ConfigError, Ctx, Faction, Scenario
from smashup.engine import powers as powers_module
from smashup.engine.registry import Registry
from smashup.engine.testing import base_uid, card

from .support import PIRATES_ROBOTS, registry_with_test_cards

ASKED: list[tuple[str, int]] = []  # (modifier's card, minion asked about)


def _registry() -> Registry:
    r = registry_with_test_cards()
    reach = Faction("Reachers", set="testset", registry=r)

    loner = reach.minion("Loner", power=2, text="Ongoing: +1 power for each minion here.")

    @loner.modifier(to="itself")
    def loner_counts(ctx, m):
        ASKED.append(("Loner", m))
        return len(ctx.minions(base=ctx.here)) if m == ctx.card else 0

    brace = reach.action("Brace", attach="minion", intent="help",
                         text="Play on a minion. Ongoing: it has +2 power.")

    @brace.modifier(to="host")
    def braced(ctx, m):
        ASKED.append(("Brace", m))
        return 2 if ctx.host_of(ctx.card) == m else 0

    banner = reach.minion("Banner", power=1, text="Ongoing: your minions here have +1 power.")

    @banner.modifier(to="here")
    def rally(ctx, m):
        ASKED.append(("Banner", m))
        return 1 if ctx.base_of(m) == ctx.here and ctx.controller(m) == ctx.me else 0

    crown = reach.minion("Crown", power=1, text="Ongoing: your other minions have +1 power.")

    @crown.modifier
    def reign(ctx, m):
        ASKED.append(("Crown", m))
        return 1 if m != ctx.card and ctx.controller(m) == ctx.me else 0

    warden = reach.minion("Warden", power=1, text=(
        "Ongoing: your other minions here are not affected by other players' cards."))

    @warden.protection("affect", from_="other_players")
    def ward(ctx, m):
        return m != ctx.card and ctx.base_of(m) == ctx.here and ctx.controller(m) == ctx.me

    return r


REG = _registry()


def board():
    """Seat 0: Loner, Banner and a Scout (with Brace) on The Homeworld, a Crown on Temple of
    Goju; seat 1: a Scout on each base."""
    s = Scenario([("Reachers", "Aliens"), PIRATES_ROBOTS])
    home = s.base("The Homeworld")
    temple = s.base("Temple of Goju")
    s.minion(home, "Loner", owner=0)
    s.minion(home, "Banner", owner=0)
    s.minion(home, "Scout", owner=0, attached=[("Brace", 0)])
    s.minion(home, "Scout", owner=1)
    s.minion(temple, "Crown", owner=0)
    s.minion(temple, "Scout", owner=1)
    s.deck(0, *["Scout"] * 4)
    s.deck(1, *["Scout"] * 4)
    return s.build(REG)


def cards(game):
    scouts = [card(game, "Scout", "minion", i) for i in range(3)]
    mine = next(s for s in scouts if game.controller(s) == 0)
    theirs = [s for s in scouts if game.controller(s) == 1]
    return (card(game, "Loner", "minion"), card(game, "Banner", "minion"), mine, theirs,
            card(game, "Crown", "minion"), card(game, "Brace", "attached"))


def fresh(game):
    """Every cached power and base total equals the one counted afresh."""
    for slot in game.bases:
        for m in slot.minions:
            assert game.power(m) == game.power_now(m), game.name(m)
        assert game.total_power(slot) == sum(game.power_now(m) for m in slot.minions)


@pytest.fixture(autouse=True)
def cached_reads(monkeypatch):
    # Read the cache as play does; `fresh` compares it with the count afresh.
    monkeypatch.setattr(powers_module, "VERIFY_POWERS", False)
    ASKED.clear()


def test_each_modifier_is_asked_only_about_the_minions_it_can_change():
    game = board()
    loner, banner, mine, theirs, crown, brace = cards(game)
    home, temple = base_uid(game, "The Homeworld"), base_uid(game, "Temple of Goju")
    scout = game.defs[mine].power
    # Loner: 4 minions here, Banner, Crown; Banner: itself, Crown; Scout: Brace, Banner, Crown.
    assert game.power(loner) == 2 + 4 + 1 + 1
    assert game.total_power(game.slot(home)) == 8 + (1 + 1 + 1) + (scout + 2 + 1 + 1) + scout
    assert game.total_power(game.slot(temple)) == 1 + scout
    asked = {}
    for who, m in ASKED:
        asked.setdefault(who, set()).add(m)
    assert asked["Loner"] == {loner}
    assert asked["Brace"] == {mine}
    assert asked["Banner"] == set(game.slot(home).minions)
    assert asked["Crown"] == set(game.all_minions())
    fresh(game)


def test_a_minion_moved_to_another_base_is_counted_afresh_on_both():
    game = board()
    loner, banner, mine, theirs, crown, brace = cards(game)
    temple = base_uid(game, "Temple of Goju")
    before = game.power(mine), game.power(loner)
    ctx = Ctx(game, crown, 0)
    assert ctx.at_once(ctx.move(mine, temple))
    # It leaves the Banner's base (and the Loner's count) with its Brace, and keeps the Crown's.
    assert game.power(mine) == before[0] - 1
    assert game.power(loner) == before[1] - 1
    assert game.total_power(game.slot(temple)) == 1 + game.defs[mine].power + game.power(mine)
    fresh(game)


def test_counters_a_lasting_change_and_its_end_are_counted_afresh():
    game = board()
    loner, banner, mine, theirs, crown, brace = cards(game)
    home = game.slot(base_uid(game, "The Homeworld"))
    total = game.total_power(home)
    ctx = Ctx(game, crown, 0)
    assert ctx.add_counters(theirs[0], 2)
    assert game.total_power(home) == total + 2
    assert ctx.add_power(loner, 3)
    assert game.power(loner) == 2 + 4 + 1 + 1 + 3
    assert game.total_power(home) == total + 5
    assert ctx.add_power(banner, -1)  # a second one, while the first is known
    assert game.power(banner) == 1 + 1 + 1 - 1
    assert game.total_power(home) == total + 4
    fresh(game)
    game._expire_at_turn_end(0)  # "until the end of the turn" ends
    assert game.power(loner) == 2 + 4 + 1 + 1
    assert game.power(banner) == 1 + 1 + 1
    assert game.total_power(home) == total + 2
    fresh(game)


def test_a_cancelled_modifier_and_a_moved_action_are_counted_afresh():
    game = board()
    loner, banner, mine, theirs, crown, brace = cards(game)
    home = game.slot(base_uid(game, "The Homeworld"))
    total = game.total_power(home)
    ctx = Ctx(game, theirs[0], 1)
    assert ctx.cancel_abilities(banner)  # its +1 to seat 0's minions here goes
    assert game.total_power(home) == total - 3
    fresh(game)
    assert ctx.at_once(ctx.transfer(brace, theirs[0]))  # the Brace's +2 follows it
    scout = game.defs[mine].power
    assert game.power(mine) == scout + 1
    assert game.power(theirs[0]) == scout + 2
    fresh(game)


def test_a_modifier_names_a_known_reach():
    with pytest.raises(ConfigError):
        REG.card("Loner").modifier(to="everywhere")


def test_the_protections_working_are_read_afresh_after_a_move_and_a_cancel():
    # `affects` lists the protections working once per version, like the modifiers.
    s = Scenario([("Reachers", "Aliens"), PIRATES_ROBOTS])
    home = s.base("The Homeworld")
    temple = s.base("Temple of Goju")
    s.minion(home, "Warden", owner=0)
    s.minion(home, "Scout", owner=0)
    s.minion(temple, "Scout", owner=0)
    s.minion(temple, "Scout", owner=1)
    game = s.build(REG)
    warden = card(game, "Warden", "minion")
    here, there, theirs = (card(game, "Scout", "minion", i) for i in range(3))
    if game.base_of(here) != game.base_of(warden):
        here, there = there, here
    theirs_ctx = Ctx(game, theirs, 1)
    assert not game.affects(theirs, 1, here)
    assert game.affects(theirs, 1, there)
    assert game.affects(warden, 0, here)  # its own player's cards still affect it
    assert Ctx(game, warden, 0).at_once(Ctx(game, warden, 0).move(warden, game.base_of(there)))
    assert game.affects(theirs, 1, here)
    assert not game.affects(theirs, 1, there)
    assert theirs_ctx.cancel_abilities(warden)
    assert game.affects(theirs, 1, there)
