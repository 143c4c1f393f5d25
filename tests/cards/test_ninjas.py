"""The Ninjas faction (Core Set), card by card, played through the engine.

Each test builds a position with `Scenario`, plays the card with the testing helpers and checks the
exact effect: zones, power, VP, who is asked what, and that refused input changes nothing. The card
reference is shared/cards/core.yaml (Ninjas); the rules are shared/rules (CR = the community page).
"""
from __future__ import annotations

import pytest

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import ACTION, MINION, REGISTRY, Scenario, replay
from smashup.engine.invariants import check
from smashup.engine.testing import (
    assert_refused,
    base_uid,
    card,
    choose,
    decline,
    end_play,
    find_cards,
    labels,
    play,
)
from smashup.engine.testing import log_texts as log
from tests.engine.support import TEST_REGISTRY

NINJAS_VS_ALIENS = [("Ninjas", "Aliens"), ("Pirates", "Robots")]


# ---------------------------------------------------------------------------------------- helpers
def scenario(factions=NINJAS_VS_ALIENS, specials="fast", filler=True) -> Scenario:
    """A two-player position. `filler` gives each deck cards to draw, so the draw phase never
    reshuffles a discard pile that a test wants to inspect."""
    s = Scenario(factions, specials=specials)
    if filler:
        for seat in range(len(factions)):
            s.deck(seat, "Scout", "Scout", "Scout", "Scout", "Scout", "Scout")
    return s


def option_cards(game) -> set[int]:
    return {o.card for o in game.pending.options if o.card is not None}


def option_bases(game) -> set[int]:
    return {o.base for o in game.pending.options if o.base is not None}


def use_talent(game, cid):
    choose(game, f"t{cid}")


def sound(game):
    assert check(game) == []


# ------------------------------------------------------------------------------------ the deck
def test_the_ninja_deck_matches_the_catalog():
    # shared/cards/core.yaml, Ninjas: name, type, power, copies.
    expected = {
        "Ninja Master": (MINION, 5, 1), "Tiger Assassin": (MINION, 4, 2),
        "Shinobi": (MINION, 3, 3), "Ninja Acolyte": (MINION, 2, 4),
        "Assassination": (ACTION, 0, 1), "Disguise": (ACTION, 0, 1),
        "Hidden Ninja": (ACTION, 0, 1), "Infiltrate": (ACTION, 0, 2), "Poison": (ACTION, 0, 1),
        "Seeing Stars": (ACTION, 0, 2), "Smoke Bomb": (ACTION, 0, 1),
        "Way of Deception": (ACTION, 0, 1),
    }
    ninjas = REGISTRY.faction("Ninjas")
    assert {c.name: (c.kind, c.power, c.copies) for c in ninjas.cards} == expected
    assert len(ninjas.deck()) == 20
    assert {c.name: c.attach for c in ninjas.cards if c.attach} == {
        "Assassination": "minion", "Infiltrate": "base", "Poison": "minion",
        "Smoke Bomb": "minion"}
    assert [c.name for c in ninjas.cards if c.is_special_only] == ["Hidden Ninja"]


# ----------------------------------------------------------------------------------- Ninja Master
def test_ninja_master_destroys_any_minion_on_its_base():
    s = scenario()
    goju = s.base("Temple of Goju")
    ship = s.base("The Mothership")
    s.minion(goju, "Supreme Overlord", owner=1)
    s.minion(goju, "Invader", owner=1)
    s.minion(goju, "Tiger Assassin", owner=0)
    s.minion(ship, "Scout", owner=1)
    s.hand(0, "Ninja Master")
    game = s.build()
    overlord, invader = card(game, "Supreme Overlord"), card(game, "Invader")
    tiger, scout = card(game, "Tiger Assassin"), card(game, "Scout", "minion")
    master = card(game, "Ninja Master")

    play(game, "Ninja Master", base="Temple of Goju")

    d = game.pending
    assert (d.seat, d.kind, d.min_count, d.max_count) == (0, "target", 0, 1)
    # Any power, any controller, on its own base only (itself included); not the other base.
    assert option_cards(game) == {overlord, invader, tiger, master}
    assert scout not in option_cards(game)
    choose(game, overlord)
    assert game.loc[overlord] == ("discard", 1)
    assert overlord not in game.minion_state
    assert "Supreme Overlord is destroyed (Ninja Master)." in log(game)
    assert game.loc[master] == ("minion", base_uid(game, "Temple of Goju"))
    assert game.pending.kind == "play"
    sound(game)


def test_ninja_master_may_destroy_nothing():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Supreme Overlord", owner=1)
    s.hand(0, "Ninja Master", "Invader")
    game = s.build()
    overlord = card(game, "Supreme Overlord")

    play(game, "Ninja Master", base="Temple of Goju")
    decline(game)

    assert game.loc[overlord] == ("minion", base_uid(game, "Temple of Goju"))
    assert not any("destroyed" in line for line in log(game))
    assert game.players[1].discard == []
    assert game.pending.kind == "play"


def test_ninja_master_can_destroy_itself():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Invader", owner=1)
    s.hand(0, "Ninja Master", "Way of Deception")
    game = s.build()
    master = card(game, "Ninja Master")
    play(game, "Ninja Master", base="Temple of Goju")
    choose(game, master)
    assert game.loc[master] == ("discard", 0)


# --------------------------------------------------------------------------------- Tiger Assassin
def test_tiger_assassin_only_current_power_3_or_less_on_its_base():
    s = scenario()
    goju = s.base("Temple of Goju")
    ship = s.base("The Mothership")
    s.minion(goju, "Invader", owner=1)  # 3: yes
    s.minion(goju, "Collector", owner=1, counters=2)  # printed 2, now 4: no
    s.minion(goju, "Supreme Overlord", owner=1, attached=[("Poison", 0)])  # printed 5, now 1: yes
    s.minion(goju, "Ninja Acolyte", owner=0)  # own minion of power 2: yes (any controller)
    s.minion(ship, "Scout", owner=1)  # 3, but on another base: no
    s.hand(0, "Tiger Assassin")
    game = s.build()
    invader, collector = card(game, "Invader"), card(game, "Collector")
    overlord, acolyte = card(game, "Supreme Overlord"), card(game, "Ninja Acolyte")
    poison = card(game, "Poison")

    play(game, "Tiger Assassin", base="Temple of Goju")

    assert game.pending.kind == "target" and game.pending.min_count == 0
    assert option_cards(game) == {invader, overlord, acolyte}
    choose(game, overlord)
    assert game.loc[overlord] == ("discard", 1)
    # What was attached to it goes to its own owner's discard pile.
    assert game.loc[poison] == ("discard", 0)
    assert game.loc[collector][0] == "minion"
    assert "Supreme Overlord is destroyed (Tiger Assassin)." in log(game)
    sound(game)


def test_tiger_assassin_may_decline():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Invader", owner=1)
    s.hand(0, "Tiger Assassin", "Way of Deception")
    game = s.build()
    invader = card(game, "Invader")
    play(game, "Tiger Assassin", base="Temple of Goju")
    decline(game)
    assert game.loc[invader][0] == "minion"
    assert game.pending.kind == "play"


def test_tiger_assassin_asks_nothing_without_a_target():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Supreme Overlord", owner=1)
    s.hand(0, "Tiger Assassin", "Way of Deception")
    game = s.build()
    play(game, "Tiger Assassin", base="Temple of Goju")
    assert game.pending.kind == "play"
    assert game.loc[card(game, "Supreme Overlord")][0] == "minion"
    assert not any("destroyed" in line for line in log(game))


# ---------------------------------------------------------------------------------------- Shinobi
def dojo_at_breakpoint(s: Scenario) -> int:
    """Ninja Dojo (breakpoint 18, VP 2/3/2) at exactly 18: seat 1 has 10 power, seat 0 has 8.
    Without help seat 1 wins; 3 more power for seat 0 turns it around."""
    dojo = s.base("Ninja Dojo")
    s.minion(dojo, "Supreme Overlord", owner=1)
    s.minion(dojo, "Supreme Overlord", owner=1)
    s.minion(dojo, "Ninja Master", owner=0)
    s.minion(dojo, "Invader", owner=0)
    return dojo


def test_shinobi_is_played_before_scoring_and_its_power_counts():
    s = scenario()
    dojo_at_breakpoint(s)
    s.base("The Mothership")
    s.hand(0, "Shinobi")
    s.base_deck("Temple of Goju")
    game = s.build()
    shinobi = card(game, "Shinobi")
    dojo = base_uid(game, "Ninja Dojo")

    end_play(game)

    d = game.pending
    assert (d.seat, d.kind) == (0, "special")
    assert labels(game) == ["Play Shinobi on the scoring base", "Pass"]
    choose(game, shinobi)

    assert game.loc[shinobi] == ("minion", dojo)
    assert game.minion_state[shinobi].controller == 0
    assert "P0 plays Shinobi on Ninja Dojo." in log(game)
    # Its 3 power counted: 11 against 10, so seat 0 is first (2 VP) and seat 1 second (3 VP).
    assert game.scoring_stack[-1].powers == {0: 11, 1: 10}
    assert [p.vp for p in game.players] == [2, 3]
    # Outside the normal minion play: the turn's free minion is still there, nothing counted.
    assert any(g.kind == MINION and g.free for g in game.turn_state.grants)
    assert game.turn_state.minions_played == 0
    # Ninja Dojo's winner now may destroy a minion; then the base's cards are discarded.
    assert (game.pending.seat, game.pending.kind) == (0, "target")
    decline(game)
    assert game.loc[shinobi] == ("discard", 0)
    sound(game)


def test_without_shinobi_the_same_base_scores_the_other_way():
    s = scenario()
    dojo_at_breakpoint(s)
    s.base("The Mothership")
    s.hand(0, "Shinobi")
    s.base_deck("Temple of Goju")
    game = s.build()
    end_play(game)
    choose(game, "pass")
    assert [p.vp for p in game.players] == [3, 2]
    assert game.loc[card(game, "Shinobi")] == ("hand", 0)


def test_two_shinobis_in_hand_give_one_option_and_the_other_copy_is_still_accepted():
    # Issue 9: identical copies never give identical options; the second copy's id stays
    # accepted (Option.alike), so a record that chose it replays.
    s = scenario()
    dojo_at_breakpoint(s)
    s.base("The Mothership")
    s.hand(0, "Shinobi", "Shinobi")
    s.base_deck("Temple of Goju")
    game = s.build()
    first, second = find_cards(game, "Shinobi", "hand")[:2]
    end_play(game)
    assert labels(game) == ["Play Shinobi on the scoring base", "Pass"]
    assert [o["id"] for o in game.pending.public()["options"]] == [f"s{first}:0", "pass"]
    choose(game, f"s{second}:0")
    assert game.loc[second] == ("minion", base_uid(game, "Ninja Dojo"))
    assert game.loc[first] == ("hand", 0)


def test_only_one_shinobi_per_scoring_base_for_all_players():
    s = scenario()
    dojo_at_breakpoint(s)
    s.base("The Mothership")
    s.hand(0, "Shinobi", "Shinobi")
    s.hand(1, "Shinobi")
    s.base_deck("Temple of Goju")
    game = s.build()
    first, second = find_cards(game, "Shinobi", "hand")[:2]
    theirs = [c for c in find_cards(game, "Shinobi") if game.owner[c] == 1][0]

    end_play(game)
    assert game.pending.kind == "special"
    assert option_cards(game) == {first, second}
    choose(game, first)

    # Fast mode: nobody holds a Special usable for this base any more, so nobody is asked again.
    assert game.pending.kind == "target"  # Ninja Dojo's after-scoring ability
    assert game.loc[second] == ("hand", 0)
    assert game.loc[theirs] == ("hand", 1)
    assert [p.vp for p in game.players] == [2, 3]


def test_shinobi_may_be_used_again_when_a_second_base_scores():
    s = scenario()
    dojo_at_breakpoint(s)
    goju = s.base("Temple of Goju")  # the same 10 against 8 at breakpoint 18
    s.minion(goju, "Supreme Overlord", owner=1)
    s.minion(goju, "Supreme Overlord", owner=1)
    s.minion(goju, "Tiger Assassin", owner=0)
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.hand(0, "Shinobi", "Shinobi")
    s.base_deck("The Homeworld", "The Mothership")
    game = s.build()
    first, second = find_cards(game, "Shinobi", "hand")

    end_play(game)
    assert game.pending.kind == "score"  # two bases are ready: the current player picks
    choose(game, "Ninja Dojo")
    choose(game, first)
    decline(game)  # Ninja Dojo's destroy
    # Temple of Goju scores next; a fresh scoring base, so a Shinobi may be played again.
    assert (game.pending.seat, game.pending.kind) == (0, "special")
    assert option_cards(game) == {second}
    choose(game, second)
    assert "P0 plays Shinobi on Temple of Goju." in log(game)
    assert [p.vp for p in game.players] == [4, 6]
    sound(game)


def test_shinobi_on_another_players_turn():
    s = scenario()
    dojo = s.base("Ninja Dojo")
    s.base("The Mothership")
    s.minion(dojo, "Ninja Master", owner=0)
    s.minion(dojo, "Tiger Assassin", owner=0)  # seat 0: 9
    s.minion(dojo, "Supreme Overlord", owner=1)
    s.minion(dojo, "Collector", owner=1)  # seat 1: 7
    s.hand(1, "Invader")
    s.hand(0, "Shinobi")
    s.base_deck("Temple of Goju")
    s.turn(current=1)
    game = s.build()
    shinobi = card(game, "Shinobi")

    play(game, "Invader", base="Ninja Dojo")  # seat 1: 10, total 19; nothing else to play
    d = game.pending
    assert (d.seat, d.kind) == (0, "special")  # seat 1 holds no Special: not asked in fast mode
    choose(game, shinobi)
    assert game.minion_state[shinobi].controller == 0
    # Seat 1's Play Cards phase counted only its own Invader.
    assert game.turn_state.seat == 1 and game.turn_state.minions_played == 1
    assert game.scoring_stack[-1].powers == {0: 12, 1: 10}
    assert [p.vp for p in game.players] == [2, 1 + 3]  # the Invader gave seat 1 one VP
    assert (game.pending.seat, game.pending.kind) == (0, "target")  # the winner's Dojo ability


def test_shinobi_on_the_homeworld_gives_an_immediate_extra_minion():
    s = scenario()
    home = s.base("The Homeworld")  # breakpoint 23
    s.base("The Mothership")
    for _ in range(3):
        s.minion(home, "Supreme Overlord", owner=1)  # 15
    s.minion(home, "Ninja Master", owner=0)
    s.minion(home, "Invader", owner=0)  # 8
    s.hand(0, "Shinobi", "Ninja Acolyte", "Tiger Assassin")
    s.base_deck("Temple of Goju")
    game = s.build()
    acolyte, tiger = card(game, "Ninja Acolyte"), card(game, "Tiger Assassin")
    home_uid = base_uid(game, "The Homeworld")

    end_play(game)
    choose(game, card(game, "Shinobi"))
    # Not in the Play Cards phase: the base's extra minion must be played now or is lost.
    d = game.pending
    assert (d.seat, d.kind, d.min_count) == (0, "extra", 0)
    assert option_cards(game) == {acolyte}  # power 2 or less only
    choose(game, f"m{acolyte}@{home_uid}")
    assert [p.vp for p in game.players] == [2, 4]  # 13 against 15: second place on 4/2/1
    assert game.loc[acolyte] == ("discard", 0)  # it was on the scored base
    assert game.loc[tiger] == ("hand", 0)


# ---------------------------------------------------------------------------------- Ninja Acolyte
def test_acolyte_talent_returns_it_then_an_extra_minion_goes_on_the_same_base_at_once():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.minion(goju, "Invader", owner=1)
    s.hand(0, "Tiger Assassin")
    game = s.build()
    acolyte, tiger, invader = card(game, "Ninja Acolyte"), card(game, "Tiger Assassin"), card(
        game, "Invader")
    goju_uid = base_uid(game, "Temple of Goju")

    use_talent(game, acolyte)

    assert game.loc[acolyte] == ("hand", 0)
    d = game.pending
    assert (d.seat, d.kind, d.min_count) == (0, "extra", 1)
    # Only this base; the Acolyte itself is back in hand and may be the extra minion.
    assert option_bases(game) == {goju_uid}
    assert option_cards(game) == {tiger, acolyte}
    assert_refused(game, [])  # "both parts happen": the extra minion is not optional
    choose(game, f"m{tiger}@{goju_uid}")
    assert game.loc[tiger] == ("minion", goju_uid)
    choose(game, invader)  # Tiger Assassin's own on-play ability
    assert game.loc[invader] == ("discard", 1)
    # The extra play did not use the free minion play, but it was a minion played this turn.
    assert game.turn_state.minions_played == 1
    assert f"m{acolyte}@{goju_uid}" in [o.id for o in game.pending.options]
    sound(game)


def test_acolyte_may_be_its_own_extra_minion_and_then_has_no_talent_left():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.hand(0, "Invader")
    game = s.build()
    first, other = find_cards(game, "Ninja Acolyte")
    goju_uid = base_uid(game, "Temple of Goju")
    # Alike copies give one option (Game.alike_key): the other is offered once this one is used.
    assert [o.id for o in game.pending.options if o.id.startswith("t")] == [f"t{first}"]
    assert f"t{other}" not in {o.id for o in game.pending.options}

    use_talent(game, first)
    choose(game, f"m{first}@{goju_uid}")

    assert game.loc[first] == ("minion", goju_uid)
    assert "P0 plays Ninja Acolyte on Temple of Goju." in log(game)
    # A minion has now been played this turn: neither Acolyte offers its talent.
    assert not [o for o in game.pending.options if o.id.startswith("t")]


def test_acolyte_talent_not_offered_after_a_minion_was_played_this_turn():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.hand(0, "Invader", "Way of Deception")
    game = s.build()
    acolyte = card(game, "Ninja Acolyte")
    assert f"t{acolyte}" in [o.id for o in game.pending.options]
    play(game, "Invader", base="The Mothership")
    assert game.turn_state.minions_played == 1
    assert f"t{acolyte}" not in [o.id for o in game.pending.options]
    assert_refused(game, [f"t{acolyte}"])


def test_acolyte_talent_not_offered_when_the_scenario_says_a_minion_was_played():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.hand(0, "Way of Deception")
    s.turn(minions_played=1)
    game = s.build()
    assert not [o for o in game.pending.options if o.id.startswith("t")]


def test_acolyte_talent_still_offered_after_a_minion_played_at_the_start_of_the_turn():
    # The catalog's AEG ruling: "not played a minion this turn" means in the Play Cards phase; a
    # minion played at the start of the turn does not count. The test-only Early Riser plays one
    # then (tests/engine/support.py).
    s = Scenario([("Ninjas", "Testers"), ("Aliens", "Robots")])
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Early Riser", owner=0)
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.hand(0, "Invader", "Tiger Assassin")
    for seat in range(2):
        s.deck(seat, *["Scout"] * 4)
    s.turn(current=0, phase="start")
    game = s.build(TEST_REGISTRY)
    invader, tiger, acolyte = card(game, "Invader"), card(game, "Tiger Assassin"), card(
        game, "Ninja Acolyte")
    ship, goju_uid = base_uid(game, "The Mothership"), base_uid(game, "Temple of Goju")

    d = game.pending
    assert (d.seat, d.kind, game.phase) == (0, "extra", "start")
    choose(game, f"m{invader}@{ship}")
    assert game.loc[invader] == ("minion", ship)
    assert game.players[0].vp == 1  # it was played: its on-play ability happened
    assert game.phase == "play" and game.turn_state.minions_played == 0
    assert f"t{acolyte}" in [o.id for o in game.pending.options]
    use_talent(game, acolyte)
    choose(game, f"m{tiger}@{goju_uid}")
    decline(game)  # Tiger Assassin's optional destroy
    assert game.loc[acolyte] == ("hand", 0) and game.loc[tiger] == ("minion", goju_uid)
    assert game.turn_state.minions_played == 1
    sound(game)


def test_acolyte_talent_only_on_its_controllers_turn():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.minion(goju, "Ninja Acolyte", owner=1)
    s.hand(1, "Invader")
    s.turn(current=1)
    game = s.build()
    ours, theirs = sorted(find_cards(game, "Ninja Acolyte"), key=lambda c: game.owner[c])
    talents = {o.id for o in game.pending.options if o.id.startswith("t")}
    assert talents == {f"t{theirs}"}
    assert_refused(game, [f"t{ours}"])


# ---------------------------------------------------------------------------------- Assassination
def test_assassination_destroys_its_host_at_the_end_of_the_turn():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Supreme Overlord", owner=1)
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.hand(0, "Assassination")
    s.hand(1, "Collector")  # so that seat 1's turn stops at its first decision
    game = s.build()
    overlord, acolyte = card(game, "Supreme Overlord"), card(game, "Ninja Acolyte")
    assassination = card(game, "Assassination")

    play(game, "Assassination")
    assert game.pending.kind == "target"
    assert option_cards(game) == {overlord, acolyte}  # any minion, any controller
    choose(game, overlord)
    assert game.loc[assassination] == ("attached", overlord)
    assert game.action_state[assassination].controller == 0
    assert game.power(overlord) == 5
    assert game.loc[overlord][0] == "minion"  # not yet: only at the end of the turn

    end_play(game)  # no scoring, draw 2, end of turn

    assert game.loc[overlord] == ("discard", 1)  # the owner's discard pile
    assert game.loc[assassination] == ("discard", 0)
    assert "Supreme Overlord is destroyed (Assassination)." in log(game)
    assert log(game).index("Supreme Overlord is destroyed (Assassination).") < log(game).index(
        "Turn 2: P1.")
    assert (game.pending.seat, game.pending.kind) == (1, "play")
    sound(game)


def test_assassination_is_discarded_with_a_host_that_left_play_and_does_nothing():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Ninja Acolyte", owner=0, attached=[("Assassination", 0)])
    s.hand(0, "Invader")
    s.hand(1, "Collector")
    game = s.build()
    acolyte, assassination = card(game, "Ninja Acolyte"), card(game, "Assassination")
    goju_uid = base_uid(game, "Temple of Goju")

    use_talent(game, acolyte)  # back to hand: its attached action is discarded
    assert game.loc[assassination] == ("discard", 0)
    choose(game, f"m{acolyte}@{goju_uid}")  # the same card comes back: a new minion in play
    end_play(game)

    assert game.loc[acolyte] == ("minion", goju_uid)
    assert not any("destroyed" in line for line in log(game))


# ---------------------------------------------------------------------------------------- Disguise
def test_disguise_plays_the_new_minions_first_then_returns_the_chosen_ones():
    s = scenario()
    goju = s.base("Temple of Goju")
    ship = s.base("The Mothership")
    s.minion(goju, "Tiger Assassin", owner=0)
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.minion(goju, "Invader", owner=1)
    s.minion(ship, "Shinobi", owner=0)
    s.hand(0, "Disguise", "Ninja Master", "Collector")
    game = s.build()
    tiger, acolyte, invader = card(game, "Tiger Assassin"), card(game, "Ninja Acolyte"), card(
        game, "Invader")
    master, collector = card(game, "Ninja Master"), card(game, "Collector")
    goju_uid = base_uid(game, "Temple of Goju")

    play(game, "Disguise")
    # Only bases where seat 0 has a minion.
    assert game.pending.kind == "base"
    assert option_bases(game) == {goju_uid, base_uid(game, "The Mothership")}
    choose(game, "Temple of Goju")
    d = game.pending
    assert (d.kind, d.min_count, d.max_count) == ("targets", 1, 2)
    assert option_cards(game) == {tiger, acolyte}  # own minions on that base only
    choose(game, tiger, acolyte)
    # The new minions come in first, onto that base only, and may not be declined.
    d = game.pending
    assert (d.kind, d.min_count) == ("extra", 1)
    assert option_bases(game) == {goju_uid}
    assert option_cards(game) == {master, collector}
    assert game.loc[tiger][0] == "minion"  # still in play while the new ones come in
    choose(game, f"m{master}@{goju_uid}")
    choose(game, invader)  # Ninja Master's on-play ability resolves as usual
    # The second extra minion can only be the Collector: played without asking. Its own
    # on-play ability then asks (the chosen Acolyte is still in play and may be picked).
    assert game.loc[collector] == ("minion", goju_uid)
    assert option_cards(game) == {acolyte, collector}
    decline(game)

    assert game.loc[master] == ("minion", goju_uid)
    assert game.loc[collector] == ("minion", goju_uid)
    assert game.loc[tiger] == ("hand", 0)
    assert game.loc[acolyte] == ("hand", 0)
    assert game.loc[invader] == ("discard", 1)
    assert game.loc[card(game, "Disguise")] == ("discard", 0)
    # Extra minions: the free minion play is still available.
    assert any(g.kind == MINION and g.free for g in game.turn_state.grants)
    sound(game)


def test_disguise_swaps_at_most_as_many_minions_as_the_hand_holds():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Tiger Assassin", owner=0)
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.hand(0, "Disguise", "Ninja Master")
    game = s.build()
    tiger, acolyte = card(game, "Tiger Assassin"), card(game, "Ninja Acolyte")
    play(game, "Disguise")  # one base with own minions: chosen without asking
    assert game.pending.max_count == 1
    assert_refused(game, [f"m{tiger}", f"m{acolyte}"])
    choose(game, acolyte)  # the single extra minion is forced: played without asking
    decline(game)  # Ninja Master may destroy
    assert game.loc[acolyte] == ("hand", 0)
    assert game.loc[card(game, "Ninja Master")][0] == "minion"
    assert game.loc[tiger][0] == "minion"


def test_disguise_does_not_return_a_chosen_minion_that_left_and_was_played_again():
    # The first extra minion (Supreme Overlord) returns a chosen minion (the Acolyte) to hand, and
    # the second extra is that Acolyte again: played again, it is a new card in play, not the one
    # chosen, so Disguise leaves it (CR "Void Where Prohibited": effects end when their card leaves
    # play). The other chosen minion still goes back.
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Tiger Assassin", owner=0)
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.hand(0, "Disguise", "Supreme Overlord", "Collector")
    game = s.build()
    tiger, acolyte = card(game, "Tiger Assassin"), card(game, "Ninja Acolyte")
    overlord, collector = card(game, "Supreme Overlord"), card(game, "Collector")
    goju_uid = base_uid(game, "Temple of Goju")

    play(game, "Disguise")  # the one base with seat 0's minions
    choose(game, tiger, acolyte)
    choose(game, f"m{overlord}@{goju_uid}")
    choose(game, acolyte)  # the Overlord returns the chosen Acolyte
    assert game.loc[acolyte] == ("hand", 0)
    assert option_cards(game) == {collector, acolyte}
    choose(game, f"m{acolyte}@{goju_uid}")  # the second extra: the Acolyte, played again

    assert game.loc[acolyte] == ("minion", goju_uid)  # a new card: it stays
    assert game.loc[tiger] == ("hand", 0)  # still the chosen one: returned
    assert game.loc[overlord] == ("minion", goju_uid)
    assert game.loc[collector] == ("hand", 0)
    assert log(game).count("Ninja Acolyte returns to P0's hand (Disguise).") == 0
    sound(game)


@pytest.mark.parametrize("missing", ["minion in hand", "minion in play"])
def test_disguise_does_nothing_when_either_part_is_impossible(missing):
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Invader", owner=1)
    if missing == "minion in hand":
        s.minion(goju, "Tiger Assassin", owner=0)
        s.hand(0, "Disguise", "Way of Deception")
    else:
        s.hand(0, "Disguise", "Ninja Master")
    s.hand(1, "Collector")  # the game stops at seat 1's first decision
    game = s.build()
    minions_before = {c: game.loc[c] for c in game.all_minions()}
    hand_before = [c for c in game.players[0].hand if game.name(c) != "Disguise"]

    play(game, "Disguise")
    if missing == "minion in play":
        end_play(game)

    assert (game.pending.seat, game.pending.kind) == (1, "play")
    assert [c[0] for c in game.choices] == [0] * len(game.choices)  # seat 0 was asked nothing else
    assert len(game.choices) == (1 if missing == "minion in hand" else 2)
    assert {c: game.loc[c] for c in game.all_minions()} == minions_before
    drawn = find_cards(game, "Scout", "hand")
    assert game.players[0].hand == hand_before + drawn and len(drawn) == 2
    assert game.loc[card(game, "Disguise")] == ("discard", 0)


# ------------------------------------------------------------------------------------ Hidden Ninja
def test_hidden_ninja_is_never_a_normal_play():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Invader", owner=1)
    s.hand(0, "Hidden Ninja", "Ninja Acolyte")
    game = s.build()
    hidden = card(game, "Hidden Ninja")
    assert hidden not in option_cards(game)
    assert_refused(game, [f"a{hidden}"])
    play(game, "Ninja Acolyte", base="Temple of Goju")
    # Still not playable, with the free action unused and nothing else to do: the phase ends.
    assert game.loc[hidden] == ("hand", 0)


def test_hidden_ninja_before_scoring_plays_an_extra_minion_on_the_scoring_base():
    s = scenario()
    dojo_at_breakpoint(s)
    s.base("The Mothership")
    s.hand(0, "Hidden Ninja", "Tiger Assassin", "Ninja Acolyte")
    s.base_deck("Temple of Goju")
    game = s.build()
    hidden, tiger, acolyte = card(game, "Hidden Ninja"), card(game, "Tiger Assassin"), card(
        game, "Ninja Acolyte")
    dojo = base_uid(game, "Ninja Dojo")

    end_play(game)
    assert (game.pending.seat, game.pending.kind) == (0, "special")
    choose(game, hidden)
    assert "P0 plays Hidden Ninja." in log(game)
    d = game.pending
    assert (d.kind, d.min_count) == ("extra", 0)
    assert option_bases(game) == {dojo}
    assert option_cards(game) == {tiger, acolyte}
    choose(game, f"m{tiger}@{dojo}")
    decline(game)  # Tiger Assassin's optional destroy

    assert game.loc[hidden] == ("discard", 0)
    assert game.scoring_stack[-1].powers == {0: 12, 1: 10}
    assert [p.vp for p in game.players] == [2, 3]
    assert game.turn_state.minions_played == 0
    assert game.pending.kind == "target"  # Ninja Dojo's winner
    sound(game)


def test_hidden_ninja_extra_minion_may_be_declined():
    s = scenario()
    dojo_at_breakpoint(s)
    s.base("The Mothership")
    s.hand(0, "Hidden Ninja", "Tiger Assassin")
    s.base_deck("Temple of Goju")
    game = s.build()
    end_play(game)
    choose(game, card(game, "Hidden Ninja"))
    decline(game)
    assert game.loc[card(game, "Hidden Ninja")] == ("discard", 0)
    assert game.loc[card(game, "Tiger Assassin")] == ("hand", 0)
    assert [p.vp for p in game.players] == [3, 2]


def test_hidden_ninja_on_another_players_turn():
    s = scenario()
    dojo_at_breakpoint(s)
    s.base("The Mothership")
    s.hand(0, "Hidden Ninja", "Tiger Assassin")
    s.hand(1, "Collector")
    s.base_deck("Temple of Goju")
    s.turn(current=1)
    game = s.build()
    play(game, "Collector", base="The Mothership")
    assert (game.pending.seat, game.pending.kind) == (1, "target")  # Collector's may
    decline(game)
    # Seat 1 ends (nothing left to play); Ninja Dojo scores; seat 0 holds Hidden Ninja.
    assert (game.pending.seat, game.pending.kind) == (0, "special")
    choose(game, card(game, "Hidden Ninja"))
    choose(game, f"m{card(game, 'Tiger Assassin')}@{base_uid(game, 'Ninja Dojo')}")
    decline(game)
    assert [p.vp for p in game.players] == [2, 3]


# -------------------------------------------------------------------------------------- Infiltrate
def test_infiltrate_attaches_to_a_base_and_may_destroy_another_action_there():
    s = scenario()
    home = s.base("The Homeworld")
    s.base("The Mothership")
    s.base_action(home, "Jammed Signal", owner=1)
    s.base_action(home, "Infiltrate", owner=0)
    s.hand(0, "Infiltrate", "Invader")
    game = s.build()
    mine = card(game, "Infiltrate", "hand")
    old = card(game, "Infiltrate", "base_action")
    jammed = card(game, "Jammed Signal")
    home_uid = base_uid(game, "The Homeworld")

    play(game, "Infiltrate")
    assert game.pending.kind == "target"  # which base
    choose(game, "The Homeworld")
    assert game.loc[mine] == ("base_action", home_uid)
    d = game.pending
    assert (d.kind, d.min_count, d.max_count) == ("cards", 0, 1)
    assert option_cards(game) == {jammed, old}  # another action on this base, not itself
    choose(game, jammed)

    assert game.loc[jammed] == ("discard", 1)
    assert "Jammed Signal is destroyed (Infiltrate)." in log(game)
    assert game.slot(home_uid).actions == [old, mine]
    assert game.action_state[mine].controller == 0
    assert game.base_active(game.slot(home_uid))  # the Homeworld works again
    # Its talent may be used the turn it is played; the older Infiltrate's too (both seat 0's),
    # offered as one option since the two are alike (Game.alike_key), the other one after it.
    talents = [o.id for o in game.pending.options if o.id.startswith("t")]
    assert talents in ([f"t{mine}"], [f"t{old}"])
    choose(game, talents[0])
    assert [o.id for o in game.pending.options if o.id.startswith("t")] == (
        [f"t{old}"] if talents == [f"t{mine}"] else [f"t{mine}"])
    sound(game)


def test_infiltrate_talent_only_for_its_controller_on_their_turn():
    s = scenario()
    home = s.base("The Homeworld")
    s.base("The Mothership")
    s.base_action(home, "Infiltrate", owner=0)
    s.hand(1, "Invader", "Way of Deception")
    s.turn(current=1)
    game = s.build()
    infiltrate = card(game, "Infiltrate")
    assert game.pending.seat == 1
    assert not [o for o in game.pending.options if o.id.startswith("t")]
    assert_refused(game, [f"t{infiltrate}"])


def test_infiltrate_may_destroy_nothing():
    s = scenario()
    home = s.base("The Homeworld")
    s.base("The Mothership")
    s.base_action(home, "Jammed Signal", owner=1)
    s.hand(0, "Infiltrate", "Invader")
    game = s.build()
    jammed = card(game, "Jammed Signal")
    play(game, "Infiltrate")
    choose(game, "The Homeworld")
    decline(game)
    assert game.loc[jammed] == ("base_action", base_uid(game, "The Homeworld"))
    assert game.pending.kind == "play"


def test_infiltrate_on_a_base_without_other_actions_asks_nothing_more():
    s = scenario()
    s.base("The Homeworld")
    ship = s.base("The Mothership")
    s.base_action(ship, "Jammed Signal", owner=1)
    s.hand(0, "Infiltrate", "Invader")
    game = s.build()
    play(game, "Infiltrate")
    choose(game, "The Homeworld")
    assert game.pending.kind == "play"
    assert game.loc[card(game, "Jammed Signal")][0] == "base_action"


def minion_grants(game):
    return [(g.free, g.max_power) for g in game.turn_state.grants if g.kind == MINION]


def test_infiltrate_talent_cancels_the_base_until_the_start_of_your_next_turn():
    s = scenario(filler=False)
    home = s.base("The Homeworld")
    s.base("The Mothership")
    s.base_action(home, "Infiltrate", owner=0)
    # An action stays in each hand, so that the Play Cards phase waits for its "end".
    s.hand(0, "Invader", "Collector", "Ninja Acolyte", "Way of Deception")
    s.hand(1, "Invader", "Collector", "Way of Deception")
    s.deck(0, "Shinobi", "Shinobi")
    s.deck(1, "Shinobi", "Shinobi")
    game = s.build()
    infiltrate = card(game, "Infiltrate")
    slot = game.slot(base_uid(game, "The Homeworld"))

    use_talent(game, infiltrate)
    assert game.loc[infiltrate] == ("discard", 0)
    assert not game.base_active(slot)
    assert "The Homeworld's ability is cancelled until P0's next turn." in log(game)
    play(game, "Invader", base="The Homeworld")
    assert minion_grants(game) == []  # no extra minion from the cancelled base
    end_play(game)

    # Seat 1's turn: still cancelled for everyone.
    assert (game.pending.seat, game.turn_state.seat) == (1, 1)
    assert not game.base_active(slot)
    play(game, "Invader", base="The Homeworld")
    assert minion_grants(game) == []
    end_play(game)

    # Seat 0's next turn: the cancel ended as it began.
    assert (game.pending.seat, game.turn_state.seat) == (0, 0)
    assert game.base_active(slot)
    play(game, "Ninja Acolyte", base="The Homeworld")
    assert minion_grants(game) == [(False, 2)]  # the Homeworld's extra minion
    play(game, "Collector", base="The Mothership")  # through that extra play
    decline(game)  # Collector's optional return
    collector = [c for c in find_cards(game, "Collector") if game.owner[c] == 0][0]
    assert game.loc[collector] == ("minion", base_uid(game, "The Mothership"))
    assert minion_grants(game) == []
    sound(game)


@pytest.mark.parametrize("cancel", [True, False])
def test_infiltrate_cancel_holds_when_the_base_scores_on_another_players_turn(cancel):
    s = scenario()
    dojo = s.base("Ninja Dojo")
    ship = s.base("The Mothership")
    s.base_action(dojo, "Infiltrate", owner=0)
    s.minion(dojo, "Supreme Overlord", owner=1)
    s.minion(dojo, "Supreme Overlord", owner=1)
    s.minion(dojo, "Collector", owner=1)
    s.minion(dojo, "Invader", owner=0)  # 15 in all
    s.minion(ship, "Ninja Master", owner=0)
    s.hand(0, "Way of Deception")
    s.hand(1, "Supreme Overlord")
    s.base_deck("Temple of Goju")
    game = s.build()
    infiltrate, master = card(game, "Infiltrate"), card(game, "Ninja Master")

    if cancel:
        use_talent(game, card(game, "Infiltrate"))
    end_play(game)
    # Seat 1 brings Ninja Dojo to 20 and wins it.
    play(game, "Supreme Overlord", base="Ninja Dojo")
    decline(game)  # the Overlord's optional return; nothing left to play, so scoring follows
    if cancel:
        # Ninja Dojo's "the winner may destroy a minion" does not happen.
        assert (game.pending.seat, game.pending.kind) == (0, "play")
        assert game.loc[master][0] == "minion"
        assert game.loc[infiltrate] == ("discard", 0)
        # The cancel was on that base: the base that replaced it works.
        assert game.base_active(game.slot(base_uid(game, "Temple of Goju")))
    else:
        assert (game.pending.seat, game.pending.kind) == (1, "target")
        assert master in option_cards(game)
    assert [p.vp for p in game.players] == [3, 2]


# ------------------------------------------------------------------------------------------ Poison
@pytest.mark.parametrize("host, printed, poisoned", [
    ("Supreme Overlord", 5, 1),
    ("Invader", 3, 0),  # -4 from 3: power never goes below 0
])
def test_poison_gives_minus_four_never_below_zero(host, printed, poisoned):
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, host, owner=1)
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.hand(0, "Poison", "Invader" if host != "Invader" else "Scout")
    game = s.build()
    target, acolyte = card(game, host, "minion"), card(game, "Ninja Acolyte")
    poison = card(game, "Poison")
    goju_uid = base_uid(game, "Temple of Goju")
    assert game.power(target) == printed

    play(game, "Poison")
    assert option_cards(game) == {target, acolyte}  # any minion
    choose(game, target)

    assert game.loc[poison] == ("attached", target)
    assert game.power(target) == poisoned
    assert game.player_power(goju_uid, 1) == poisoned
    assert game.view(0)["bases"][0]["minions"][0]["power"] == poisoned
    assert game.pending.kind == "play"  # nothing attached to destroy: not asked
    sound(game)


def poisoned_overlord_scenario():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Supreme Overlord", owner=1,
             attached=[("Assassination", 0), ("Poison", 1)])
    s.hand(0, "Poison", "Invader")
    return s.build()


def test_poison_destroys_any_number_of_the_actions_on_its_host():
    game = poisoned_overlord_scenario()
    overlord = card(game, "Supreme Overlord")
    assassination = card(game, "Assassination")
    old, new = card(game, "Poison", "attached"), card(game, "Poison", "hand")
    assert game.power(overlord) == 1

    play(game, "Poison")  # the only minion: attached without asking
    d = game.pending
    assert (d.kind, d.min_count, d.max_count) == ("cards", 0, 2)
    assert option_cards(game) == {assassination, old}  # not the new Poison itself
    choose(game, assassination, old)

    assert game.loc[assassination] == ("discard", 0)  # each to its owner's discard pile
    assert game.loc[old] == ("discard", 1)
    assert game.minion_state[overlord].attached == [new]
    assert game.power(overlord) == 1
    assert "Assassination is destroyed (Poison)." in log(game)
    assert "Poison is destroyed (Poison)." in log(game)
    sound(game)


def test_poison_may_destroy_no_action():
    game = poisoned_overlord_scenario()
    overlord = card(game, "Supreme Overlord")
    play(game, "Poison")
    decline(game)
    assert len(game.minion_state[overlord].attached) == 3
    assert game.power(overlord) == 0  # 5 - 4 - 4, never below 0


def test_poison_may_destroy_one_of_them():
    game = poisoned_overlord_scenario()
    overlord, old = card(game, "Supreme Overlord"), card(game, "Poison", "attached")
    play(game, "Poison")
    choose(game, old)
    assert game.loc[old] == ("discard", 1)
    assert game.loc[card(game, "Assassination")] == ("attached", overlord)


# ------------------------------------------------------------------------------------ Seeing Stars
def test_seeing_stars_destroys_a_minion_of_power_3_or_less_on_any_base():
    s = scenario()
    goju = s.base("Temple of Goju")
    ship = s.base("The Mothership")
    s.minion(goju, "Invader", owner=1)  # 3: yes
    s.minion(goju, "Supreme Overlord", owner=1)  # 5: no
    s.minion(goju, "Collector", owner=1, counters=2)  # 4 now: no
    s.minion(ship, "Scout", owner=1)  # 3 on another base: yes
    s.minion(ship, "Ninja Acolyte", owner=0)  # own 2: yes
    s.minion(ship, "Ninja Master", owner=1, attached=[("Poison", 0)])  # 1 now: yes
    s.hand(0, "Seeing Stars", "Invader")
    game = s.build()
    invader, scout = card(game, "Invader", "minion"), card(game, "Scout", "minion")
    acolyte, master = card(game, "Ninja Acolyte"), card(game, "Ninja Master")

    play(game, "Seeing Stars")
    d = game.pending
    assert (d.kind, d.min_count) == ("target", 1)
    assert option_cards(game) == {invader, scout, acolyte, master}
    assert_refused(game, [])  # not a "may"
    choose(game, scout)

    assert game.loc[scout] == ("discard", 1)
    assert "Scout is destroyed (Seeing Stars)." in log(game)
    assert game.loc[card(game, "Seeing Stars")] == ("discard", 0)
    sound(game)


def test_seeing_stars_must_destroy_your_own_minion_if_it_is_the_only_one():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Supreme Overlord", owner=1)
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.hand(0, "Seeing Stars", "Invader")
    game = s.build()
    acolyte = card(game, "Ninja Acolyte")
    play(game, "Seeing Stars")
    assert game.pending.kind == "play"  # one legal target and no choice: done without asking
    assert game.loc[acolyte] == ("discard", 0)
    assert "Ninja Acolyte is destroyed (Seeing Stars)." in log(game)


def test_seeing_stars_without_a_target_does_nothing():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Supreme Overlord", owner=1)
    s.hand(0, "Seeing Stars", "Invader")
    game = s.build()
    play(game, "Seeing Stars")
    assert game.loc[card(game, "Supreme Overlord")][0] == "minion"
    assert game.loc[card(game, "Seeing Stars")] == ("discard", 0)
    assert game.pending.kind == "play"


# -------------------------------------------------------------------------------------- Smoke Bomb
def test_smoke_bomb_goes_only_on_your_own_minion():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Shinobi", owner=0)
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.minion(goju, "Invader", owner=1)
    s.hand(0, "Smoke Bomb", "Invader")
    game = s.build()
    shinobi, acolyte = card(game, "Shinobi"), card(game, "Ninja Acolyte")
    bomb = card(game, "Smoke Bomb")

    play(game, "Smoke Bomb")
    assert option_cards(game) == {shinobi, acolyte}
    assert_refused(game, [f"m{card(game, 'Invader', 'minion')}"])
    choose(game, shinobi)
    assert game.loc[bomb] == ("attached", shinobi)
    assert game.action_state[bomb].controller == 0
    sound(game)


def test_smoke_bomb_is_not_a_play_without_a_minion_of_yours():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Invader", owner=1)
    s.hand(0, "Smoke Bomb", "Invader")
    game = s.build()
    bomb = card(game, "Smoke Bomb")
    assert bomb not in option_cards(game)
    assert_refused(game, [f"a{bomb}"])


def smoke_bombed_shinobi(current=1, hand=()):
    """Seat 0's Shinobi under a Smoke Bomb, an unprotected Acolyte of seat 0 and seat 1's Invader,
    all on Temple of Goju."""
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Shinobi", owner=0, attached=[("Smoke Bomb", 0)])
    s.minion(goju, "Ninja Acolyte", owner=0)
    s.minion(goju, "Invader", owner=1)
    s.hand(current, *hand)
    s.turn(current=current)
    return s.build()


@pytest.mark.parametrize("action", ["Seeing Stars", "Poison", "Assassination"])
def test_smoke_bomb_host_cannot_be_targeted_by_another_players_action(action):
    game = smoke_bombed_shinobi(current=1, hand=(action, "Collector"))
    shinobi, acolyte = card(game, "Shinobi"), card(game, "Ninja Acolyte")
    invader = card(game, "Invader", "minion")

    play(game, action)

    assert game.pending.seat == 1 and game.pending.kind == "target"
    assert option_cards(game) == {acolyte, invader}
    assert_refused(game, [f"m{shinobi}"])
    choose(game, acolyte)
    assert game.minion_state[shinobi].attached == [card(game, "Smoke Bomb")]


@pytest.mark.parametrize("action", ["Beam Up", "Disintegrator", "Invasion", "Abduction"])
def test_smoke_bomb_host_cannot_be_targeted_by_another_factions_actions(action):
    game = smoke_bombed_shinobi(current=1, hand=(action, "Collector"))
    shinobi, acolyte = card(game, "Shinobi"), card(game, "Ninja Acolyte")
    invader = card(game, "Invader", "minion")
    play(game, action)
    assert game.pending.kind == "target"
    assert option_cards(game) == {acolyte, invader}
    assert_refused(game, [f"m{shinobi}"])


def test_smoke_bomb_host_stays_when_another_player_clears_its_base():
    game = smoke_bombed_shinobi(current=1, hand=("Crop Circles", "Collector"))
    shinobi, acolyte = card(game, "Shinobi"), card(game, "Ninja Acolyte")
    invader = card(game, "Invader", "minion")
    play(game, "Crop Circles")
    choose(game, "Temple of Goju")
    assert game.loc[shinobi] == ("minion", base_uid(game, "Temple of Goju"))
    assert game.loc[acolyte] == ("hand", 0)
    assert game.loc[invader] == ("hand", 1)


def test_another_players_seeing_stars_finds_nothing_when_only_the_smoke_bombed_minion_fits():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Shinobi", owner=0, attached=[("Smoke Bomb", 0)])
    s.minion(goju, "Supreme Overlord", owner=1)
    s.hand(1, "Seeing Stars", "Collector")
    s.turn(current=1)
    game = s.build()
    play(game, "Seeing Stars")
    assert (game.pending.seat, game.pending.kind) == (1, "play")
    assert game.loc[card(game, "Shinobi")][0] == "minion"
    assert game.loc[card(game, "Seeing Stars")] == ("discard", 1)


def test_smoke_bomb_stops_an_earlier_poison_of_another_player():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Ninja Master", owner=0, attached=[("Poison", 1)])
    s.hand(0, "Smoke Bomb", "Invader")
    game = s.build()
    master, poison = card(game, "Ninja Master"), card(game, "Poison")
    assert game.power(master) == 1

    play(game, "Smoke Bomb")

    assert game.power(master) == 5  # the Poison stays attached but no longer affects it
    assert game.loc[poison] == ("attached", master)
    assert game.player_power(base_uid(game, "Temple of Goju"), 0) == 5


def test_smoke_bomb_does_not_stop_your_own_poison():
    game = smoke_bombed_shinobi(current=0, hand=("Poison", "Invader"))
    shinobi, bomb = card(game, "Shinobi"), card(game, "Smoke Bomb")
    play(game, "Poison")
    assert shinobi in option_cards(game)
    choose(game, shinobi)
    assert game.power(shinobi) == 0
    # Poison may even destroy the Smoke Bomb under it.
    assert option_cards(game) == {bomb}
    choose(game, bomb)
    assert game.loc[bomb] == ("discard", 0)


def test_smoke_bomb_stops_an_earlier_assassination_of_another_player():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Shinobi", owner=0, attached=[("Assassination", 1)])
    s.hand(0, "Smoke Bomb", "Invader")
    s.hand(1, "Collector")
    game = s.build()
    shinobi, assassination = card(game, "Shinobi"), card(game, "Assassination")

    play(game, "Smoke Bomb")
    end_play(game)

    assert (game.pending.seat, game.pending.kind) == (1, "play")
    assert game.loc[shinobi][0] == "minion"
    assert game.loc[assassination] == ("attached", shinobi)
    assert not any("destroyed" in line for line in log(game))


def test_smoke_bomb_does_not_stop_minion_abilities():
    game = smoke_bombed_shinobi(current=1, hand=("Ninja Master", "Way of Deception"))
    shinobi, bomb = card(game, "Shinobi"), card(game, "Smoke Bomb")
    play(game, "Ninja Master", base="Temple of Goju")
    assert shinobi in option_cards(game)
    choose(game, shinobi)
    assert game.loc[shinobi] == ("discard", 0)
    assert game.loc[bomb] == ("discard", 0)


def test_smoke_bomb_does_not_stop_your_own_actions():
    game = smoke_bombed_shinobi(current=0, hand=("Seeing Stars", "Invader"))
    shinobi = card(game, "Shinobi")
    play(game, "Seeing Stars")
    assert shinobi in option_cards(game)
    choose(game, shinobi)
    assert game.loc[shinobi] == ("discard", 0)


def test_smoke_bomb_does_not_stop_a_base_ability():
    s = scenario()
    dojo_at_breakpoint(s)
    ship = s.base("The Mothership")
    s.minion(ship, "Shinobi", owner=0, attached=[("Smoke Bomb", 0)])
    s.hand(1, "Collector")
    s.turn(current=1)
    s.base_deck("Temple of Goju")
    game = s.build()
    shinobi = card(game, "Shinobi")
    play(game, "Collector", base="Ninja Dojo")  # 20 on Ninja Dojo: seat 1 wins
    decline(game)  # Collector's optional return
    assert (game.pending.seat, game.pending.kind) == (1, "target")
    assert shinobi in option_cards(game)
    choose(game, shinobi)
    assert game.loc[shinobi] == ("discard", 0)

def test_your_own_assassination_still_destroys_your_smoke_bombed_minion():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Shinobi", owner=0, attached=[("Smoke Bomb", 0)])
    s.hand(0, "Assassination", "Invader")
    s.hand(1, "Collector")
    game = s.build()
    shinobi = card(game, "Shinobi")
    play(game, "Assassination")  # the only minion: attached without asking
    assert game.loc[card(game, "Assassination")] == ("attached", shinobi)
    end_play(game)
    assert game.loc[shinobi] == ("discard", 0)


# -------------------------------------------------------------------------------- Way of Deception
def test_way_of_deception_moves_your_minion_with_what_is_attached():
    s = scenario()
    goju = s.base("Temple of Goju")
    ship = s.base("The Mothership")
    s.base("Ninja Dojo")
    s.minion(goju, "Ninja Master", owner=0, attached=[("Poison", 1), ("Assassination", 1)])
    s.minion(ship, "Ninja Acolyte", owner=0)
    s.minion(goju, "Invader", owner=1)
    s.hand(0, "Way of Deception", "Collector")
    game = s.build()
    master, acolyte = card(game, "Ninja Master"), card(game, "Ninja Acolyte")
    poison, assassination = card(game, "Poison"), card(game, "Assassination")
    goju_uid, ship_uid, dojo_uid = (base_uid(game, n) for n in
                                    ("Temple of Goju", "The Mothership", "Ninja Dojo"))

    play(game, "Way of Deception")
    assert option_cards(game) == {master, acolyte}  # own minions only, on any base
    choose(game, master)
    assert game.pending.kind == "base"
    assert option_bases(game) == {ship_uid, dojo_uid}  # another base
    choose(game, "Ninja Dojo")

    assert game.loc[master] == ("minion", dojo_uid)
    assert master not in game.slot(goju_uid).minions
    assert game.minion_state[master].attached == [poison, assassination]
    assert game.loc[poison] == ("attached", master)
    assert game.power(master) == 1
    assert game.player_power(dojo_uid, 0) == 1 and game.player_power(goju_uid, 0) == 0
    assert "Ninja Master moves from Temple of Goju to Ninja Dojo (Way of Deception)." in log(game)
    # A move is not a play: no on-play ability, and the free minion play is untouched.
    assert game.pending.kind == "play"
    assert game.turn_state.minions_played == 0
    sound(game)


def test_way_of_deception_with_your_only_minion_asks_only_where():
    s = scenario()
    goju = s.base("Temple of Goju")
    s.base("The Mothership")
    s.minion(goju, "Shinobi", owner=0)
    s.minion(goju, "Invader", owner=1)
    s.hand(0, "Way of Deception", "Collector")
    game = s.build()
    play(game, "Way of Deception")
    # One minion of seat 0's and one other base: both forced, nothing asked.
    assert game.pending.kind == "play"
    assert game.loc[card(game, "Shinobi")] == ("minion", base_uid(game, "The Mothership"))
    assert game.loc[card(game, "Invader", "minion")] == ("minion", base_uid(game, "Temple of Goju"))


# ------------------------------------------------------------------- Special windows: ask and fast
def window_questions(game) -> list[tuple[int, list[str]]]:
    """Answer "Pass" to every Special question from now on; return (seat, labels) of each."""
    asked = []
    while game.pending is not None and game.pending.kind == "special":
        asked.append((game.pending.seat, labels(game)))
        choose(game, "pass")
    return asked


def quiet_dojo(specials, hands=None, deck=None):
    s = scenario(specials=specials)
    dojo_at_breakpoint(s)
    s.base("The Mothership")
    for seat, cards in (hands or {}).items():
        s.hand(seat, *cards)
    if deck:
        s.deck(0, *deck)
    s.hand(0, "Way of Deception")
    s.base_deck("Temple of Goju")
    return s.build()


def test_ask_mode_asks_every_player_even_without_a_special():
    # A Shinobi exists in this game (in a deck), but nobody holds a Special.
    game = quiet_dojo("ask", deck=["Shinobi"])
    assert game.config["specials"] == "ask"
    end_play(game)
    assert window_questions(game) == [(0, ["Pass"]), (1, ["Pass"])]
    assert (game.pending.seat, game.pending.kind) == (1, "target")  # Dojo's winner: seat 1
    assert [p.vp for p in game.players] == [3, 2]


def test_fast_mode_asks_nobody_without_a_special():
    game = quiet_dojo("fast", deck=["Shinobi"])
    end_play(game)
    assert game.pending.kind == "target"
    assert len(game.choices) == 1  # only the "end": nobody was asked about a Special
    assert [p.vp for p in game.players] == [3, 2]


def test_fast_mode_asks_only_the_players_holding_a_special():
    game = quiet_dojo("fast", hands={1: ["Shinobi"]})
    end_play(game)
    assert window_questions(game) == [(1, ["Play Shinobi on the scoring base", "Pass"])]
    assert game.pending.kind == "target"


def test_ask_mode_after_a_special_everyone_is_asked_again_until_all_pass_in_a_row():
    s = scenario([("Ninjas", "Aliens"), ("Pirates", "Robots"), ("Wizards", "Zombies")],
                 specials="ask")
    dojo_at_breakpoint(s)
    s.base("The Mothership")
    s.base("Temple of Goju")
    s.hand(1, "Hidden Ninja", "Shinobi", "Ninja Acolyte")
    s.hand(0, "Way of Deception")
    s.base_deck("The Homeworld")
    game = s.build()
    hidden, shinobi = card(game, "Hidden Ninja"), card(game, "Shinobi")
    acolyte = card(game, "Ninja Acolyte")
    dojo = base_uid(game, "Ninja Dojo")

    end_play(game)
    assert (game.pending.seat, labels(game)) == (0, ["Pass"])
    choose(game, "pass")
    assert game.pending.seat == 1
    assert option_cards(game) == {hidden, shinobi}
    choose(game, hidden)
    choose(game, f"m{acolyte}@{dojo}")
    # Seat 1 used a Special: a new round of passes is needed, seat 1 included.
    assert (game.pending.seat, labels(game)) == (2, ["Pass"])
    choose(game, "pass")
    assert (game.pending.seat, labels(game)) == (0, ["Pass"])
    choose(game, "pass")
    assert game.pending.seat == 1
    assert option_cards(game) == {shinobi}  # Hidden Ninja is gone; Shinobi is still usable
    assert (game.player_power(dojo, 0), game.player_power(dojo, 1)) == (8, 12)
    choose(game, "pass")
    # Three passes in a row: the window closes and the base scores.
    assert game.pending.kind != "special"
    assert [p.vp for p in game.players] == [3, 2, 0]
    assert game.loc[shinobi] == ("hand", 1)
    assert game.loc[hidden] == ("discard", 1)
    # The record rebuilds the same game, window questions included.
    again = replay(game.record())
    assert again.digest() == game.digest() and again.log_lines == game.log_lines


def test_ask_mode_a_second_shinobi_is_offered_only_pass():
    game = quiet_dojo("ask", hands={0: ["Shinobi", "Shinobi"]})
    first, second = find_cards(game, "Shinobi", "hand")
    end_play(game)
    assert (game.pending.seat, option_cards(game)) == (0, {first, second})
    choose(game, first)
    assert window_questions(game) == [(1, ["Pass"]), (0, ["Pass"])]
    assert game.loc[second] == ("hand", 0)
    assert [p.vp for p in game.players] == [2, 3]
