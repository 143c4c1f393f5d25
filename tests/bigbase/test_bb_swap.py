"""Cards with no effect in Big Base (registry flag `no_effect_in_big_base`) may be shown, discarded
and replaced at the start and after each draw, as a decision."""
import pytest
from bigbase_support import config, scenario

from smashup.engine import REGISTRY, ConfigError, Faction, invariants, new_game
from smashup.engine.registry import Registry
from smashup.engine.testing import assert_refused, choose, decline, end_play

# Every card flagged as doing nothing in Big Base, with its reason: a card module that flags one
# adds it here (the issue note lists them), and no minion is ever flagged (power always counts).
FLAGGED = {"Rampage": "breakpoint", "Favor of Zeus": "breakpoint", "Lost City": "replacement"}


def test_the_registry_flags_exactly_the_listed_cards_and_no_minion():
    flagged = {n: c.no_effect_in_big_base for n, c in REGISTRY.cards.items()
               if c.no_effect_in_big_base}
    assert flagged == FLAGGED
    assert not any(REGISTRY.card(n).is_minion for n in flagged)


def test_a_flag_must_name_a_known_reason():
    faction = Faction("Testers", set="test", registry=Registry())
    with pytest.raises(ConfigError, match="no_effect_in_big_base"):
        faction.action("Nothing", no_effect_in_big_base="everything")


def _round_end_with(hand, deck):
    s = scenario()
    s.hand(0, "Howl")
    s.deck(0, *deck)
    s.deck(1, "Zapbot", "Hoverbot")
    game = s.build()
    end_play(game)  # seat 1 has nothing: the round ends and everyone draws
    return game


def test_after_the_draw_a_useless_card_may_be_swapped():
    game = _round_end_with(["Howl"], ["Rampage", "King Rex", "Augmentation"])
    assert game.pending.seat == 0 and game.pending.kind == "swap"
    assert [o.label for o in game.pending.options] == ["Swap Rampage"]
    assert game.pending.min_count == 0
    assert invariants.check(game) == []
    choose(game, "Rampage")
    names = [game.name(c) for c in game.players[0].hand]
    assert names == ["Howl", "King Rex", "Augmentation"]
    assert [game.name(c) for c in game.players[0].discard] == ["Rampage"]
    assert any("shows Rampage" in t for t, to in game.log_lines if to is None)


def test_the_swap_may_be_declined_and_a_refused_choice_changes_nothing():
    game = _round_end_with(["Howl"], ["Rampage", "King Rex", "Augmentation"])
    king = next(c for c in game.players[0].hand if game.name(c) == "King Rex")
    assert_refused(game, [f"c{king}"])  # a minion is never useless
    decline(game)
    assert "Rampage" in [game.name(c) for c in game.players[0].hand]


def test_nothing_is_offered_when_a_faction_cares_about_breakpoints(monkeypatch):
    monkeypatch.setattr(REGISTRY.faction("Robots"), "cares_about_breakpoints", True)
    game = _round_end_with(["Howl"], ["Rampage", "King Rex", "Augmentation"])
    assert game.pending.kind != "swap"
    rampage = next(c for c in game.players[0].hand if game.name(c) == "Rampage")
    assert not game.no_effect(rampage)


def test_the_swap_is_offered_at_the_start_of_the_game():
    for seed in range(200):
        game = new_game(config(2, mulligan=False), seed)
        holders = [p.seat for p in game.players
                   if any(game.name(c) == "Rampage" for c in p.hand)]
        if holders:
            break
    assert game.pending.kind == "swap" and game.pending.seat == holders[0]
    assert game.turn == 0  # before the first turn


def test_the_rock_stars_care_about_breakpoints_so_rampage_is_kept_beside_them():
    # Their cards read a base's breakpoint (big venues), so changing one does something.
    assert REGISTRY.faction("Rock Stars").cares_about_breakpoints
    assert not any(f.cares_about_breakpoints for name, f in REGISTRY.factions.items()
                   if name != "Rock Stars")


def test_the_swap_is_offered_after_any_draw_once_the_card_that_drew_has_resolved():
    # Issue 24 (the Big Base rules: "after any time you draw cards"): Tech Center draws Rampage.
    s = scenario()
    s.minion("North", "King Rex", owner=0, slot=0)
    s.hand(0, "Tech Center", "Howl")
    s.deck(0, "Rampage", "King Rex")
    s.hand(1, "Zapbot")
    game = s.build()
    choose(game, "Play Tech Center")
    choose(game, "North")  # one minion of seat 0's there: one card drawn
    assert game.pending.seat == 0 and game.pending.kind == "swap"
    assert [o.label for o in game.pending.options] == ["Swap Rampage"]
    choose(game, "Rampage")
    # Its own draw is no new occasion: back to the Play Cards phase.
    assert game.pending.kind == "play" and game.pending.seat == 0
    assert [game.name(c) for c in game.players[0].hand] == ["Howl", "King Rex"]


def test_a_resolution_2_record_offered_the_swap_only_at_the_start_and_after_the_round_draw():
    s = scenario()
    s.minion("North", "King Rex", owner=0, slot=0)
    s.hand(0, "Tech Center", "Howl")
    s.deck(0, "Rampage", "King Rex")
    s.hand(1, "Zapbot")
    game = s.build()
    game.resolution = 2
    choose(game, "Play Tech Center")
    choose(game, "North")
    assert game.pending.kind == "play"
