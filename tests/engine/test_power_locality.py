"""A change on one base recounts only that base's powers when nothing on the board reads beyond a
minion's base (modifiers and "affect" protections declared `local`; Game._new_power_version), and
every base when something does (a modifier not declared local, one asked about every minion
arriving, a lasting change other than power). Each test reads the cache as play
does and compares it with the count afresh (`power_now`)."""
from __future__ import annotations

import pytest

from smashup.engine import Ctx, EngineError, Faction, Scenario
from smashup.engine import powers as powers_module
from smashup.engine.testing import base_uid, card, choose, end_play, play

from .support import registry_with_test_cards


def _registry():
    r = registry_with_test_cards()
    watch = Faction("Watchers", set="testset", registry=r)
    lookout = watch.minion("Lookout", power=1, text=(
        "Ongoing: +1 power for each minion on the other bases."))

    @lookout.modifier(to="itself")  # not `local`: it reads the other bases
    def lookout_counts(ctx, m):
        if m != ctx.card:
            return 0
        return sum(1 for other in ctx.minions() if ctx.base_of(other) != ctx.here)

    watch.minion("Sentry", power=2, copies=4, text="A plain minion.")
    return r


REG = _registry()
BASES = ("Jungle Oasis", "Factory 436-1337", "The Mothership")


def fresh(game):
    """Every cached power and base total is the one counted afresh."""
    for slot in game.bases:
        for m in slot.minions:
            assert game.power(m) == game.power_now(m), game.name(m)
        assert game.total_power(slot) == sum(game.power_now(m) for m in slot.minions)


def spy(game) -> list[int]:
    """The bases counted from now on (`_count_base`), in order."""
    calls: list[int] = []
    real = game._count_base
    game._count_base = lambda slot: calls.append(slot.uid) or real(slot)
    return calls


def count_all(game) -> None:
    for slot in game.bases:
        game.total_power(slot)


@pytest.fixture(autouse=True)
def cached_reads(monkeypatch):
    monkeypatch.setattr(powers_module, "VERIFY_POWERS", False)  # `fresh` compares instead


def board(factions=("Dinosaurs", "Robots"), others=("Watchers", "Aliens"), **cards):
    """Seat 0 and 1 with a War Raptor each on the first base and a Sentry on the second;
    `cards`: name -> base index for more of seat 0's minions; seat 0's hand holds two Sentries,
    a War Raptor, Microbot Archive and an action (so that a turn goes on after a minion), seat
    1's a Sentry."""
    s = Scenario([factions, others])
    for name in BASES:
        s.base(name)
    s.minion(0, "War Raptor", owner=0)
    s.minion(0, "War Raptor", owner=1)
    s.minion(1, "Sentry", owner=1)
    for name, index in cards.items():
        s.minion(index, name.replace("_", " "), owner=0)
    s.hand(0, "Sentry", "Sentry", "War Raptor", "Microbot Archive", "Augmentation")
    s.hand(1, "Sentry")
    s.deck(0, *["Sentry"] * 4)
    s.deck(1, *["Sentry"] * 4)
    s.base_deck("Tar Pits")
    return s.build(REG)


def test_a_minion_played_on_one_base_leaves_the_others_counted():
    game = board()
    count_all(game)
    calls = spy(game)
    play(game, "War Raptor", base="Jungle Oasis")
    jungle = base_uid(game, "Jungle Oasis")
    # The Raptors there grow; the other bases were not counted again.
    assert game.total_power(game.slot(jungle)) == 3 * (2 + 3)
    count_all(game)
    assert set(calls) == {jungle}
    fresh(game)


def test_a_minion_moved_between_bases_recounts_both_and_not_the_third():
    game = board()
    jungle, factory, mothership = (base_uid(game, n) for n in BASES)
    raptor = card(game, "War Raptor", "minion")
    count_all(game)
    calls = spy(game)
    assert Ctx(game, raptor, 0).at_once(Ctx(game, raptor, 0).move(raptor, factory))
    count_all(game)
    assert sorted(calls) == sorted([jungle, factory])
    assert game.power(raptor) == 3  # alone with no other Raptor
    assert mothership not in calls
    fresh(game)


def test_a_modifier_not_declared_local_makes_every_base_count_afresh():
    game = board(Lookout=2)  # seat 0's Lookout on The Mothership
    lookout = card(game, "Lookout", "minion")
    assert game.power(lookout) == 1 + 3
    count_all(game)
    calls = spy(game)
    play(game, "Sentry", base="Jungle Oasis")  # on another base: the Lookout sees it
    assert game.power(lookout) == 1 + 4
    assert base_uid(game, "The Mothership") in calls
    fresh(game)


def test_microbot_alpha_counts_a_microbot_played_on_another_base():
    # Microbot Alpha's count of every Microbot in play is not local.
    game = board(Microbot_Alpha=2)
    alpha = card(game, "Microbot Alpha", "minion")
    before = game.power(alpha)
    count_all(game)
    play(game, "Microbot Archive", base="Jungle Oasis")
    assert game.power(alpha) == before + 1
    fresh(game)


def test_a_modifier_of_every_minion_arriving_recounts_every_base():
    # Microbot Fixer is local (it reads the minion asked about) but asked about every minion:
    # its arrival changes the Microbots on every base.
    s = Scenario([("Dinosaurs", "Robots"), ("Watchers", "Aliens")])
    for name in BASES:
        s.base(name)
    s.minion(1, "Microbot Archive", owner=0)
    s.minion(2, "Sentry", owner=1)
    s.hand(0, "Microbot Fixer", "Augmentation")
    s.deck(0, *["Sentry"] * 4)
    s.deck(1, *["Sentry"] * 4)
    game = s.build(REG)
    archive = card(game, "Microbot Archive", "minion")
    assert game.power(archive) == 1
    count_all(game)
    play(game, "Microbot Fixer", base="Jungle Oasis")
    assert game.power(archive) == 2
    fresh(game)


def test_a_power_change_recounts_its_base_alone_until_it_ends():
    game = board()
    jungle = base_uid(game, "Jungle Oasis")
    raptor = card(game, "War Raptor", "minion")
    count_all(game)
    calls = spy(game)
    assert Ctx(game, raptor, 0).add_power(raptor, 3)
    count_all(game)
    assert calls == [jungle]
    assert game.power(raptor) == 4 + 3
    fresh(game)
    game._expire_at_turn_end(0)
    assert game.power(raptor) == 4
    fresh(game)


def test_a_power_in_force_only_in_other_turns_is_recounted_when_the_turn_changes():
    # Armor Stego's kind: +2 during other players' turns; the new turn recounts its base.
    game = board(Armor_Stego=1)
    stego = card(game, "Armor Stego", "minion")
    assert Ctx(game, stego, 0).add_power(stego, 2, until="start_of_your_next_turn",
                                         during="others")
    assert game.power(stego) == 3
    count_all(game)
    end_play(game)
    assert game.current == 1
    assert game.power(stego) == 5
    fresh(game)


def test_a_lasting_change_other_than_power_recounts_every_base():
    # Cancelling a base's abilities is read by every minion's modifiers: nothing is kept.
    game = board()
    count_all(game)
    calls = spy(game)
    raptor = card(game, "War Raptor", "minion")
    Ctx(game, raptor, 0).lasting("cancel_base", base_uid(game, "The Mothership"))
    count_all(game)
    assert sorted(calls) == sorted(s.uid for s in game.bases)


def test_a_stale_total_is_caught(monkeypatch):
    game = board()
    factory = game.slot(base_uid(game, "Factory 436-1337"))
    total = game.total_power(factory)
    game.minion_state[factory.minions[0]].counters += 1  # bypasses the verbs (and `changed`)
    assert game.total_power(factory) == total  # stale, as the cache cannot know
    monkeypatch.setattr(powers_module, "VERIFY_POWERS", True)
    with pytest.raises(EngineError, match="stale"):
        game.total_power(factory)


def test_the_lists_of_what_works_follow_a_local_change():
    # A local change keeps the modifiers, protections and cancelled cards listed
    # (Game._working_kept) unless it moved such a card or touched a base a "here" modifier
    # reaches: a minion played on The Central Brain gets its +1, a second Smoke Bomb protects.
    s = Scenario([("Ninjas", "Robots"), ("Watchers", "Aliens")])
    s.base("The Central Brain")
    s.base("Jungle Oasis")
    s.minion(0, "Sentry", owner=1)
    s.minion(1, "Sentry", owner=1)
    s.minion(1, "Microbot Archive", owner=0)
    s.minion(1, "Shinobi", owner=0, attached=[("Smoke Bomb", 0)])  # a protection listed
    s.hand(0, "Microbot Archive", "Smoke Bomb")
    s.hand(1, "Invasion")
    s.deck(0, *["Sentry"] * 4)
    s.deck(1, *["Sentry"] * 4)
    game = s.build(REG)
    brain = base_uid(game, "The Central Brain")
    invasion = card(game, "Invasion", "hand")
    mine = card(game, "Microbot Archive", "minion")
    count_all(game)
    assert game.affects(invasion, 1, mine)
    play(game, "Microbot Archive", base="The Central Brain")
    arrived = next(m for m in game.slot(brain).minions if game.name(m) == "Microbot Archive")
    assert game.power(arrived) == 1 + 1
    fresh(game)
    assert game.affects(invasion, 1, mine)  # listed at this version
    play(game, "Smoke Bomb")
    choose(game, mine)
    assert not game.affects(invasion, 1, mine)
    fresh(game)


def test_counters_put_on_a_minion_recount_its_base_alone():
    # A counter changes its minion's power only: no local modifier reads another base's.
    game = board()
    jungle = base_uid(game, "Jungle Oasis")
    raptor = card(game, "War Raptor", "minion")
    count_all(game)
    calls = spy(game)
    assert Ctx(game, raptor, 0).add_counters(raptor, 2)
    count_all(game)
    assert calls == [jungle]
    assert game.power(raptor) == 4 + 2
    fresh(game)


def test_a_reader_of_every_base_changing_only_itself_recounts_its_own_base_too():
    # The Lookout reads every base but changes only itself (`to="itself"`): a Sentry played on
    # the Jungle recounts the Jungle and the Lookout's base, not the third one.
    game = board(Lookout=2)
    jungle, factory, mothership = (base_uid(game, n) for n in BASES)
    lookout = card(game, "Lookout", "minion")
    count_all(game)
    calls = spy(game)
    play(game, "Sentry", base="Jungle Oasis")
    count_all(game)
    assert set(calls) == {jungle, mothership}
    assert game.power(lookout) == 1 + 4
    fresh(game)


def test_a_turn_flag_moves_the_version_only_once_a_power_count_read_it():
    # Ancient Temple's modifier reads its flag: setting it counts afresh; a flag no count ever
    # read (a trigger's "once per turn") keeps every power known.
    s = Scenario([("Dinosaurs", "Robots"), ("Watchers", "Aliens")])
    s.base("Ancient Temple")
    s.base("Jungle Oasis")
    s.minion(0, "War Raptor", owner=0)
    s.minion(1, "Sentry", owner=1)
    s.deck(0, *["Sentry"] * 4)
    s.deck(1, *["Sentry"] * 4)
    game = s.build(REG)
    temple = base_uid(game, "Ancient Temple")
    raptor = card(game, "War Raptor", "minion")
    ctx = Ctx(game, raptor, 0)
    count_all(game)
    before = game.power(raptor)
    version = game.version
    ctx.set_flag("a trigger's note", 0)
    assert game.version == version
    ctx.set_flag(("ancient_temple", temple), value=None)  # blessed at its turn's start
    assert game.version > version
    assert game.power(raptor) == before - 5
    fresh(game)


def test_fixers_bonus_follows_the_alpha_that_makes_a_minion_a_microbot():
    # Whether a seat controls a working Microbot Alpha is kept per board version
    # (`Ctx.controls`): the Alpha destroyed, the Fixer no longer tunes the War Raptor.
    game = board(Microbot_Alpha=2, Microbot_Fixer=1)
    raptor = next(m for m in game.slot(base_uid(game, "Jungle Oasis")).minions
                  if game.minion_state[m].controller == 0)
    alpha = card(game, "Microbot Alpha", "minion")
    tuned = game.power(raptor)
    ctx = Ctx(game, alpha, 1)
    assert ctx.at_once(ctx.destroy(alpha))
    assert game.power(raptor) == tuned - 1
    fresh(game)



def test_a_new_base_in_play_is_counted_alone():
    # A base card reaching only its own place (its minions move on their own): the others kept.
    game = board()
    count_all(game)
    calls = spy(game)
    new = game.new_slot(game.draw_base())
    count_all(game)
    assert calls == [new.uid]
    fresh(game)


def test_a_breakpoint_change_counts_nothing_afresh_until_a_power_count_reads_one():
    # No modifier reads a breakpoint: Rampage's change keeps every power known. Once a count
    # has read one, such a change counts everything afresh.
    game = board()
    jungle = base_uid(game, "Jungle Oasis")
    raptor = card(game, "War Raptor", "minion")
    count_all(game)
    calls = spy(game)
    assert Ctx(game, raptor, 0).change_breakpoint(jungle, -5)
    count_all(game)
    assert calls == []
    game._counting += 1  # as a modifier reading a breakpoint would
    game.breakpoint(game.slot(jungle))
    game._counting -= 1
    assert Ctx(game, raptor, 0).change_breakpoint(jungle, -1)
    count_all(game)
    assert sorted(calls) == sorted(s.uid for s in game.bases)
    fresh(game)
