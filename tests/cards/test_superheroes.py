"""Every card of the Superheroes (It's Your Fault!), played through the engine.

Each test builds a position with `Scenario`, plays the card with the testing helpers and checks the
exact effect. The rulings come from the catalog (smashup/cards/catalog/iyf.yaml, Superheroes) and the
IYF rulebook (Mind Lady's cancel outlasts her; "cancel": treated as if it did not exist; a "may" is
optional, anything else is mandatory).

Bases: Jungle Oasis (breakpoint 12), The Mothership (20) and Factory 436-1337 (25); none acts
before it scores. Seat 1 (Ninjas and Dinosaurs: destroyers and War Raptors) always keeps a card,
so the game stops at seat 1's Play Cards decision when seat 0's turn ends.
"""
from __future__ import annotations

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import ACTION, MINION, REGISTRY, Ctx, Scenario
from smashup.engine.testing import (
    assert_refused,
    card,
    choose,
    decline,
    end_play,
    find_cards,
    labels,
    play,
    where,
)
from smashup.engine.testing import log_texts as log

from .deep_scene import deep_game, deep_may_destroy_the_invader

PLAYERS = [("Superheroes", "Aliens"), ("Ninjas", "Dinosaurs")]
FILLER = "Augmentation"  # a card seat 1 holds so the game waits on its turn
DECK_FILLER = "Beam Up"  # seat 0's next draws
OASIS, SHIP, FACTORY = 0, 1, 2


def scenario(deck=None, current=0):
    s = Scenario(PLAYERS)
    for name in ("Jungle Oasis", "The Mothership", "Factory 436-1337"):
        s.base(name)
    s.hand(1, FILLER)
    s.deck(0, *(deck if deck is not None else [DECK_FILLER] * 4))
    s.deck(1, *[FILLER] * 4)
    s.base_deck("Rhodes Plaza Mall")
    s.turn(current=current)
    return s


def uid(game, index) -> int:
    return game.bases[index].uid


def talents(game) -> list[str]:
    return [label for label in labels(game) if "talent" in label]


def refuse(game, cid) -> None:
    """Choosing `cid` (written as the pending question writes its cards) is refused, nothing
    changes."""
    prefix = game.pending.options[0].id[0]
    assert_refused(game, [f"{prefix}{cid}"])


def on(game, name, zone="minion", index=0) -> int:
    return find_cards(game, name, zone)[index]


# ====================================================================== the deck =============


def test_the_superhero_deck_matches_the_catalog():
    expected = {
        "Awesome Guy": (MINION, 5, 1), "Captain Amazing": (MINION, 5, 1),
        "Mind Lady": (MINION, 5, 1), "The Burst": (MINION, 5, 1),
        "Mild Mannered Citizen": (MINION, 2, 5),
        "Expanded Power": (ACTION, 0, 1), "Golden Age": (ACTION, 0, 2),
        "Justice Friends": (ACTION, 0, 2), "My Only Weakness!": (ACTION, 0, 1),
        "Not Really Dead": (ACTION, 0, 2), "Radioactive Exposure": (ACTION, 0, 1),
        "Secret Base": (ACTION, 0, 1), "Sidekick": (ACTION, 0, 1),
    }
    faction = REGISTRY.faction("Superheroes")
    assert {c.name: (c.kind, c.power, c.copies) for c in faction.cards} == expected
    deck = faction.deck()
    assert len(deck) == 20 and sum(c.is_minion for c in deck) == 9
    assert all(c.text and c.set == "iyf" for c in faction.cards)
    assert {c.name for c in faction.cards if c.attach} == {
        "Expanded Power", "My Only Weakness!", "Secret Base"}


# ====================================================================== Awesome Guy ==========


def test_awesome_guy_keeps_other_players_cards_from_destroying_your_minions_there():
    s = scenario(current=1)
    s.minion(OASIS, "Awesome Guy", owner=0)
    s.minion(OASIS, "Mild Mannered Citizen", owner=0)
    s.minion(SHIP, "Mild Mannered Citizen", owner=0)
    s.minion(OASIS, "War Raptor", owner=1)
    s.hand(1, "Seeing Stars")
    game = s.build()
    here, there = find_cards(game, "Mild Mannered Citizen", "minion")
    if game.loc[here][1] != uid(game, OASIS):
        here, there = there, here
    play(game, "Seeing Stars")
    # Only the Citizen on another base and seat 1's own minion may be chosen.
    assert {o.card for o in game.pending.options} == {there, on(game, "War Raptor")}
    refuse(game, here)
    choose(game, there)
    assert game.loc[there] == ("discard", 0) and where(game, here) == "Jungle Oasis"


def test_awesome_guy_lets_you_destroy_your_own_minions_there():
    s = scenario(deck=["Captain Amazing", "Beam Up"])
    s.minion(OASIS, "Awesome Guy", owner=0)
    s.minion(OASIS, "Mild Mannered Citizen", owner=0)
    s.hand(0, "Radioactive Exposure")
    game = s.build()
    citizen = on(game, "Mild Mannered Citizen")
    play(game, "Radioactive Exposure")
    choose(game, citizen)
    assert game.loc[citizen] == ("discard", 0)


def test_awesome_guy_protects_itself_and_not_other_players_minions():
    s = scenario(current=1)
    s.minion(OASIS, "Awesome Guy", owner=0)
    s.minion(OASIS, "War Raptor", owner=1)
    s.hand(1, "Ninja Master")
    game = s.build()
    play(game, "Ninja Master", "Jungle Oasis")
    # Seat 1's own minions (the War Raptor, the Ninja Master itself) are all it may destroy.
    assert {o.card for o in game.pending.options} == {on(game, "War Raptor"),
                                                     on(game, "Ninja Master")}
    decline(game)
    assert where(game, on(game, "Awesome Guy")) == "Jungle Oasis"


# ====================================================================== Captain Amazing ======


def test_captain_amazing_gives_your_minions_there_one_power_until_the_end_of_the_turn():
    s = scenario()
    s.minion(FACTORY, "Captain Amazing", owner=0)
    s.minion(FACTORY, "Mild Mannered Citizen", owner=0)
    s.minion(FACTORY, "War Raptor", owner=1)
    s.minion(SHIP, "Mild Mannered Citizen", owner=0)
    s.hand(0, "Mild Mannered Citizen")
    game = s.build()
    captain = on(game, "Captain Amazing")
    here, there = find_cards(game, "Mild Mannered Citizen", "minion")
    if game.loc[here][1] != uid(game, FACTORY):
        here, there = there, here
    raptor = on(game, "War Raptor")
    choose(game, "Captain Amazing's talent")
    assert (game.power(captain), game.power(here), game.power(there), game.power(raptor)) == (
        6, 3, 2, 3)
    assert talents(game) == []  # once per turn
    # AEG: a minion played there after the talent gets nothing.
    play(game, "Mild Mannered Citizen", "Factory 436-1337")
    late = [m for m in find_cards(game, "Mild Mannered Citizen", "minion")
            if m not in (here, there)][0]
    assert game.power(late) == 2
    end_play(game)
    assert (game.power(captain), game.power(here)) == (5, 2)


# ====================================================================== Mind Lady ============


def mind_lady_game():
    s = scenario()
    s.minion(OASIS, "Mind Lady", owner=0)
    s.minion(SHIP, "War Raptor", owner=1)
    s.minion(SHIP, "Mild Mannered Citizen", owner=0)
    s.hand(0, "Beam Up")
    s.hand(1, "Seeing Stars")
    return s.build()


def test_mind_lady_cancels_another_players_minion_until_the_start_of_your_next_turn():
    game = mind_lady_game()
    raptor = on(game, "War Raptor")
    assert game.power(raptor) == 3
    choose(game, "Mind Lady's talent")
    # One minion of another player: chosen without asking.
    assert game.power(raptor) == 2 and not game.ability_active(raptor)
    assert game.view(None)["bases"][SHIP]["minions"][0]["cancelled"] is True
    end_play(game)
    assert game.current == 1 and game.power(raptor) == 2
    end_play(game)
    # Seat 0's next turn has started: the War Raptor is itself again.
    assert game.current == 0 and game.power(raptor) == 3


def test_mind_lady_s_cancel_lasts_even_when_she_leaves_play():
    game = mind_lady_game()
    raptor, lady = on(game, "War Raptor"), on(game, "Mind Lady")
    choose(game, "Mind Lady's talent")
    list(Ctx(game, raptor, 1).return_to_hand(lady))
    assert game.loc[lady] == ("hand", 0)
    assert not game.ability_active(raptor) and game.power(raptor) == 2


def test_mind_lady_chooses_only_other_players_minions():
    s = scenario()
    s.minion(OASIS, "Mind Lady", owner=0)
    s.minion(SHIP, "War Raptor", owner=1)
    s.minion(SHIP, "Armor Stego", owner=1)
    s.minion(SHIP, "Mild Mannered Citizen", owner=0)
    s.hand(0, "Beam Up")
    game = s.build()
    choose(game, "Mind Lady's talent")
    assert game.pending.intent == "harm"
    assert {o.card for o in game.pending.options} == {on(game, "War Raptor"),
                                                     on(game, "Armor Stego")}
    refuse(game, on(game, "Mild Mannered Citizen"))
    refuse(game, on(game, "Mind Lady"))
    choose(game, on(game, "Armor Stego"))
    assert not game.ability_active(on(game, "Armor Stego"))
    assert game.ability_active(on(game, "War Raptor"))


def test_mind_lady_has_no_talent_without_another_players_minion():
    s = scenario()
    s.minion(OASIS, "Mind Lady", owner=0)
    s.minion(SHIP, "Mild Mannered Citizen", owner=0)
    s.hand(0, "Beam Up")
    game = s.build()
    assert talents(game) == []


def test_mind_lady_cancels_a_talent_for_the_victims_own_turn():
    s = scenario()
    s.minion(OASIS, "Mind Lady", owner=0)
    s.minion(SHIP, "Armor Stego", owner=1)
    s.hand(0, "Beam Up")
    s.hand(1, "Seeing Stars")
    game = s.build()
    choose(game, "Mind Lady's talent")
    end_play(game)
    assert game.current == 1 and talents(game) == []


# ====================================================================== The Burst ============


def burst_game():
    s = scenario(current=1)
    s.minion(OASIS, "The Burst", owner=0)
    s.hand(1, "War Raptor")
    return s.build()


def test_the_burst_may_follow_a_minion_played_on_another_base():
    game = burst_game()
    burst = on(game, "The Burst")
    play(game, "War Raptor", "The Mothership")
    assert game.pending.seat == 0 and game.pending.kind == "confirm"
    choose(game, "yes")
    assert where(game, burst) == "The Mothership"


def test_the_burst_may_stay():
    game = burst_game()
    play(game, "War Raptor", "Factory 436-1337")
    decline_yes_no(game)
    assert where(game, on(game, "The Burst")) == "Jungle Oasis"


def test_the_burst_is_not_asked_about_a_minion_played_on_its_own_base():
    game = burst_game()
    play(game, "War Raptor", "Jungle Oasis")
    assert game.pending.seat == 1 and game.pending.kind == "play"


def decline_yes_no(game):
    assert game.pending.kind == "confirm"
    choose(game, "no")


# ====================================================================== Mild Mannered Citizen


def citizen_game(deck=("Beam Up", "Awesome Guy", "Mild Mannered Citizen", "Captain Amazing"),
                 base=OASIS):
    s = scenario(deck=list(deck), current=1)
    s.minion(base, "Mild Mannered Citizen", owner=0)
    s.hand(0, "Beam Up")
    return s


def test_the_citizen_at_the_start_of_your_turn_becomes_a_hero_from_your_deck():
    game = citizen_game().build()
    citizen = on(game, "Mild Mannered Citizen")
    end_play(game)  # seat 1's turn ends; seat 0's starts
    assert game.pending.seat == 0 and game.pending.kind == "confirm"
    choose(game, "yes")
    # The searcher sees the deck: only minions of power 5 or more are offered.
    assert sorted(labels(game)) == ["Awesome Guy", "Captain Amazing"]
    choose(game, "Captain Amazing")
    captain = on(game, "Captain Amazing")
    assert game.loc[citizen] == ("discard", 0)
    assert where(game, captain) == "Jungle Oasis"
    assert any("shuffles their deck" in t for t in log(game))
    # An extra minion: the turn's own minion play is still there.
    assert game.turn_state.plays[-1].extra
    assert any(o.card == card(game, "Beam Up", "hand") for o in game.pending.options)


def test_the_citizen_may_stay_a_citizen():
    game = citizen_game().build()
    citizen = on(game, "Mild Mannered Citizen")
    end_play(game)
    decline_yes_no(game)
    assert where(game, citizen) == "Jungle Oasis" and game.current == 0
    assert not find_cards(game, "Captain Amazing", "minion")


def test_the_citizen_is_not_asked_at_the_start_of_another_players_turn():
    s = scenario()
    s.minion(OASIS, "Mild Mannered Citizen", owner=0)
    s.hand(0, "Beam Up")
    game = s.build()
    end_play(game)
    assert game.current == 1 and game.pending.kind == "play"


def test_the_citizen_not_destroyed_finds_no_hero():
    # Tar Pits sends the first minion it would destroy each turn under its owner's deck instead:
    # "if you do" fails, so nothing is searched.
    s = scenario(deck=["Beam Up", "Awesome Guy"], current=1)
    s.data["bases"][OASIS]["name"] = "Tar Pits"
    s.minion(OASIS, "Mild Mannered Citizen", owner=0)
    s.hand(0, "Beam Up")
    game = s.build()
    citizen = on(game, "Mild Mannered Citizen")
    end_play(game)
    choose(game, "yes")
    assert game.loc[citizen] == ("deck", 0) and game.players[0].deck[-1] == citizen
    assert not find_cards(game, "Awesome Guy", "minion")
    assert not any("searches" in t for t in log(game))


def test_the_citizen_with_no_hero_in_the_deck_is_still_destroyed_and_shuffles():
    game = citizen_game(deck=("Beam Up", "Mild Mannered Citizen")).build()
    citizen = on(game, "Mild Mannered Citizen")
    end_play(game)
    choose(game, "yes")
    assert game.loc[citizen] == ("discard", 0)
    assert any("shuffles their deck" in t for t in log(game))


# ====================================================================== Expanded Power =======


def test_expanded_power_gives_one_power_and_stops_other_players_destroying_it():
    s = scenario()
    s.minion(OASIS, "Mild Mannered Citizen", owner=0)
    s.minion(OASIS, "Mild Mannered Citizen", owner=0, attached=[("Expanded Power", 0)])
    s.hand(0, "Expanded Power")
    s.hand(1, "Seeing Stars")
    game = s.build()
    bare, powered = find_cards(game, "Mild Mannered Citizen", "minion")
    if game.minion_state[bare].attached:
        bare, powered = powered, bare
    assert game.power(powered) == 3 and game.power(bare) == 2
    end_play(game)
    play(game, "Seeing Stars")
    # Only the bare Citizen may be destroyed (power 3 or less): Expanded Power keeps the other,
    # so the one target is taken without asking.
    assert game.loc[bare] == ("discard", 0) and where(game, powered) == "Jungle Oasis"


def test_expanded_power_is_played_on_any_minion_and_aims_to_help():
    s = scenario()
    s.minion(OASIS, "War Raptor", owner=1)
    s.minion(SHIP, "Mild Mannered Citizen", owner=0)
    s.hand(0, "Expanded Power")
    game = s.build()
    play(game, "Expanded Power")
    assert game.pending.intent == "help"
    assert {o.card for o in game.pending.options} == {on(game, "War Raptor"),
                                                     on(game, "Mild Mannered Citizen")}
    choose(game, on(game, "War Raptor"))
    assert game.power(on(game, "War Raptor")) == 4


def test_expanded_power_does_not_stop_its_own_controller():
    s = scenario(deck=["Captain Amazing"])
    s.minion(OASIS, "Mild Mannered Citizen", owner=0, attached=[("Expanded Power", 0)])
    s.hand(0, "Radioactive Exposure")
    game = s.build()
    citizen = on(game, "Mild Mannered Citizen")
    play(game, "Radioactive Exposure")
    assert game.loc[citizen] == ("discard", 0)
    assert game.loc[card(game, "Expanded Power")] == ("discard", 0)


# ====================================================================== Golden Age ===========


def test_golden_age_puts_up_to_three_minions_under_your_deck():
    s = scenario(deck=["Beam Up"])
    s.discard(0, "Mild Mannered Citizen", "Mild Mannered Citizen", "Awesome Guy", "The Burst",
              "Sidekick")
    s.hand(0, "Golden Age", "Invader")
    game = s.build()
    play(game, "Golden Age")
    # Actions are not offered; alike Citizens are one option.
    assert sorted(labels(game)) == ["Awesome Guy", "Mild Mannered Citizen", "The Burst"]
    choose(game, "Awesome Guy")
    choose(game, "Mild Mannered Citizen")
    choose(game, "The Burst")
    deck = [game.name(c) for c in game.players[0].deck]
    assert deck == ["Beam Up", "Awesome Guy", "Mild Mannered Citizen", "The Burst"]
    assert [game.name(c) for c in game.players[0].discard] == [
        "Mild Mannered Citizen", "Sidekick", "Golden Age"]


def test_golden_age_may_put_back_nothing():
    s = scenario(deck=["Beam Up"])
    s.discard(0, "Awesome Guy")
    s.hand(0, "Golden Age", "Invader")
    game = s.build()
    play(game, "Golden Age")
    decline(game)
    assert game.loc[card(game, "Awesome Guy")] == ("discard", 0)
    assert len(game.players[0].deck) == 1


# ====================================================================== Justice Friends ======


def test_justice_friends_gives_two_power_to_each_of_your_minions_of_power_five_or_more():
    s = scenario()
    s.minion(OASIS, "Awesome Guy", owner=0)
    s.minion(SHIP, "Mild Mannered Citizen", owner=0, attached=[("Expanded Power", 0)])
    s.minion(SHIP, "Mild Mannered Citizen", owner=0, counters=0)
    s.minion(FACTORY, "King Rex", owner=1)
    s.hand(0, "Justice Friends", "Mind Lady")
    game = s.build()
    play(game, "Justice Friends")
    assert game.power(on(game, "Awesome Guy")) == 7
    assert sorted(game.power(m) for m in find_cards(game, "Mild Mannered Citizen", "minion")) == [
        2, 3]
    assert game.power(on(game, "King Rex")) == 7  # not yours
    # AEG: a minion played afterwards gets nothing.
    play(game, "Mind Lady", "Factory 436-1337")
    assert game.power(on(game, "Mind Lady")) == 5
    end_play(game)
    assert game.power(on(game, "Awesome Guy")) == 5


# ====================================================================== My Only Weakness! ====


def test_my_only_weakness_cancels_the_abilities_of_its_host():
    s = scenario()
    s.minion(OASIS, "War Raptor", owner=1)
    s.minion(OASIS, "War Raptor", owner=1)
    s.minion(SHIP, "Mild Mannered Citizen", owner=0)
    s.hand(0, "My Only Weakness!")
    game = s.build()
    first, second = find_cards(game, "War Raptor", "minion")
    assert game.power(first) == game.power(second) == 4
    play(game, "My Only Weakness!")
    assert game.pending.intent == "harm"
    choose(game, first)
    # Its own bonus is gone; the other War Raptor still counts it (printed cards stay cards).
    assert (game.power(first), game.power(second)) == (2, 4)
    assert game.loc[card(game, "My Only Weakness!")] == ("attached", first)


def test_my_only_weakness_on_awesome_guy_lifts_his_protection():
    s = scenario(current=1)
    s.minion(OASIS, "Awesome Guy", owner=0, attached=[("My Only Weakness!", 1)])
    s.minion(OASIS, "Mild Mannered Citizen", owner=0)
    s.hand(1, "Seeing Stars")
    game = s.build()
    play(game, "Seeing Stars")  # the Citizen is its one target
    assert find_cards(game, "Mild Mannered Citizen", "discard")


def test_my_only_weakness_leaves_the_actions_on_its_host_working():
    # WWWT clarification (Cuddle, the same ability): the actions on the minion keep theirs.
    s = scenario()
    s.minion(OASIS, "Mild Mannered Citizen", owner=0, attached=[("Expanded Power", 0)])
    s.minion(SHIP, "Mild Mannered Citizen", owner=0)
    s.hand(0, "My Only Weakness!")
    game = s.build()
    powered = [m for m in find_cards(game, "Mild Mannered Citizen", "minion")
               if game.minion_state[m].attached][0]
    play(game, "My Only Weakness!")
    choose(game, powered)
    assert game.power(powered) == 3
    assert game.ability_active(card(game, "Expanded Power"))


def test_my_only_weakness_on_a_citizen_stops_its_start_of_turn_change():
    s = citizen_game()
    s.data["bases"][OASIS]["minions"][0]["attached"] = [["My Only Weakness!", 1, 1]]
    game = s.build()
    end_play(game)
    assert game.current == 0 and game.pending.kind == "play"


# ====================================================================== Not Really Dead ======


def test_not_really_dead_returns_up_to_two_small_minions_to_your_hand():
    s = scenario()
    s.discard(0, "Mild Mannered Citizen", "Mild Mannered Citizen", "Mild Mannered Citizen",
              "Awesome Guy", "Sidekick")
    s.hand(0, "Not Really Dead")
    game = s.build()
    play(game, "Not Really Dead")
    assert labels(game) == ["Mild Mannered Citizen"]  # power 2 or less, alike copies once
    choose(game, "Mild Mannered Citizen")
    choose(game, "Mild Mannered Citizen")
    assert len(find_cards(game, "Mild Mannered Citizen", "hand")) == 2
    assert len(find_cards(game, "Mild Mannered Citizen", "discard")) == 1


def test_not_really_dead_may_take_nothing():
    s = scenario()
    s.discard(0, "Mild Mannered Citizen")
    s.hand(0, "Not Really Dead")
    game = s.build()
    play(game, "Not Really Dead")
    decline(game)
    assert find_cards(game, "Mild Mannered Citizen", "discard")


# ====================================================================== Radioactive Exposure =


def test_radioactive_exposure_trades_a_minion_for_a_stronger_one_from_the_deck():
    s = scenario(deck=["Mild Mannered Citizen", "Invader", "Awesome Guy", "Collector"])
    s.minion(SHIP, "Mild Mannered Citizen", owner=0)
    s.minion(OASIS, "Awesome Guy", owner=0)
    s.minion(SHIP, "War Raptor", owner=1)
    s.hand(0, "Radioactive Exposure")
    game = s.build()
    citizen = [m for m in find_cards(game, "Mild Mannered Citizen", "minion")][0]
    play(game, "Radioactive Exposure")
    # Only your own minions; not another player's.
    assert {o.card for o in game.pending.options} == {citizen, on(game, "Awesome Guy")}
    refuse(game, on(game, "War Raptor"))
    choose(game, citizen)
    # Power more than 2: the Invader (3) and the Awesome Guy (5), not the Collector (2).
    assert sorted(labels(game)) == ["Awesome Guy", "Invader"]
    choose(game, "Invader")
    invader = on(game, "Invader")
    assert where(game, invader) == "The Mothership"
    assert game.players[0].vp == 1  # the Invader's own on-play ability happened
    assert any("shuffles their deck" in t for t in log(game))


def test_radioactive_exposure_compares_with_the_power_it_had_when_destroyed():
    s = scenario(deck=["Invader", "Awesome Guy"])
    s.minion(SHIP, "Mild Mannered Citizen", owner=0, attached=[("Expanded Power", 0)])
    s.hand(0, "Radioactive Exposure", "Collector")
    game = s.build()
    play(game, "Radioactive Exposure")  # the Citizen is its one target
    # It had 3 (Expanded Power): the Invader (3) is not more, so the Awesome Guy is the one
    # minion found and played.
    assert where(game, on(game, "Awesome Guy")) == "The Mothership"
    assert game.loc[card(game, "Invader")][0] == "deck"


def test_radioactive_exposure_without_a_minion_of_yours_does_nothing():
    s = scenario(deck=["Invader", "Awesome Guy"])
    s.minion(SHIP, "War Raptor", owner=1)
    s.hand(0, "Radioactive Exposure", "Collector")
    game = s.build()
    play(game, "Radioactive Exposure")
    assert game.loc[on(game, "War Raptor")][0] == "minion"
    assert [game.name(c) for c in game.players[0].deck] == ["Invader", "Awesome Guy"]


# ====================================================================== Secret Base ==========


def test_secret_base_keeps_your_small_minions_there_from_other_players():
    s = scenario(current=1)
    s.base_action(OASIS, "Secret Base", owner=0)
    s.minion(OASIS, "Mild Mannered Citizen", owner=0)
    s.minion(OASIS, "Invader", owner=0, attached=[("Expanded Power", 0)])  # 4: not covered
    s.minion(SHIP, "Mild Mannered Citizen", owner=0)
    s.hand(1, "Ninja Master")
    game = s.build()
    here = [m for m in find_cards(game, "Mild Mannered Citizen", "minion")
            if game.loc[m][1] == uid(game, OASIS)][0]
    play(game, "Ninja Master", "Jungle Oasis")
    # Ninja Master may not destroy the Citizen there (Secret Base) nor the Invader (4, but
    # Expanded Power): itself is all it may destroy.
    assert [o.card for o in game.pending.options] == [on(game, "Ninja Master")]
    refuse(game, here)
    decline(game)
    assert where(game, here) == "Jungle Oasis"


def test_secret_base_does_not_cover_a_minion_above_three_power():
    s = scenario(current=1)
    s.base_action(OASIS, "Secret Base", owner=0)
    s.minion(OASIS, "Mild Mannered Citizen", owner=0)
    s.minion(OASIS, "Supreme Overlord", owner=0)
    s.hand(1, "Ninja Master")
    game = s.build()
    play(game, "Ninja Master", "Jungle Oasis")
    assert {o.card for o in game.pending.options} == {on(game, "Supreme Overlord"),
                                                     on(game, "Ninja Master")}
    choose(game, on(game, "Supreme Overlord"))
    assert find_cards(game, "Supreme Overlord", "discard")


def test_secret_base_does_not_stop_you():
    s = scenario(deck=["Invader"])
    s.base_action(OASIS, "Secret Base", owner=0)
    s.minion(OASIS, "Mild Mannered Citizen", owner=0)
    s.hand(0, "Radioactive Exposure", "Collector")
    game = s.build()
    citizen = on(game, "Mild Mannered Citizen")
    play(game, "Radioactive Exposure")
    assert game.loc[citizen] == ("discard", 0)
    assert where(game, on(game, "Invader")) == "Jungle Oasis"


# ====================================================================== Sidekick =============


def test_sidekick_plays_a_small_minion_where_you_have_a_hero():
    s = scenario()
    s.minion(SHIP, "Awesome Guy", owner=0)
    s.minion(OASIS, "Mild Mannered Citizen", owner=0)
    s.minion(FACTORY, "King Rex", owner=1)
    s.hand(0, "Sidekick", "Mild Mannered Citizen", "Collector", "Invader")
    game = s.build()
    play(game, "Sidekick")
    # Only The Mothership (Awesome Guy, 5); only minions of power 2 or less.
    assert sorted(labels(game)) == ["Collector on The Mothership",
                                    "Mild Mannered Citizen on The Mothership"]
    choose(game, "Mild Mannered Citizen on The Mothership")
    assert sorted(where(game, m) for m in find_cards(game, "Mild Mannered Citizen", "minion")) == [
        "Jungle Oasis", "The Mothership"]
    # An extra minion: the turn's own minion play is left.
    assert any(o.card == card(game, "Invader", "hand") for o in game.pending.options)


def test_sidekick_without_a_hero_in_play_does_nothing():
    s = scenario()
    s.minion(OASIS, "Mild Mannered Citizen", owner=0)
    s.hand(0, "Sidekick", "Collector")
    game = s.build()
    play(game, "Sidekick")
    assert game.loc[card(game, "Collector")] == ("hand", 0)
    assert game.pending.kind == "play"


# ====================================================================== refused choices ======


def test_golden_age_refuses_an_action_from_the_discard_pile():
    s = scenario(deck=["Beam Up"])
    s.discard(0, "Awesome Guy", "Sidekick")
    s.hand(0, "Golden Age", "Invader")
    game = s.build()
    play(game, "Golden Age")
    refuse(game, card(game, "Sidekick"))
    choose(game, "Awesome Guy")
    assert game.players[0].deck[-1] == card(game, "Awesome Guy")


def test_not_really_dead_refuses_a_minion_of_more_than_two_power():
    s = scenario()
    s.discard(0, "Awesome Guy", "Mild Mannered Citizen")
    s.hand(0, "Not Really Dead", "Invader")
    game = s.build()
    play(game, "Not Really Dead")
    refuse(game, card(game, "Awesome Guy"))
    choose(game, "Mild Mannered Citizen")  # the only one: nothing else is asked
    assert game.loc[card(game, "Mild Mannered Citizen")] == ("hand", 0)
    assert game.loc[card(game, "Awesome Guy")] == ("discard", 0)


def test_sidekick_refuses_a_base_without_your_hero_and_a_bigger_minion():
    s = scenario()
    s.minion(SHIP, "Awesome Guy", owner=0)
    s.minion(OASIS, "Mild Mannered Citizen", owner=0)
    s.hand(0, "Sidekick", "Collector", "Mild Mannered Citizen", "Invader")
    game = s.build()
    play(game, "Sidekick")
    collector, invader = card(game, "Collector"), card(game, "Invader")
    assert game.pending.min_count == 1
    assert_refused(game, [f"m{collector}@{uid(game, OASIS)}"])
    assert_refused(game, [f"m{invader}@{uid(game, SHIP)}"])
    assert_refused(game, [])  # not a "may": a minion is played
    choose(game, "Collector on The Mothership")
    assert where(game, collector) == "The Mothership"


def test_my_only_weakness_cannot_go_on_a_minion_it_may_not_affect():
    # Smoke Bomb: not affected by other players' actions (having an ability cancelled, or an
    # action attached, is an affect).
    s = scenario()
    s.minion(OASIS, "War Raptor", owner=1, attached=[("Smoke Bomb", 1)])
    s.minion(OASIS, "Armor Stego", owner=1)
    s.minion(SHIP, "Mild Mannered Citizen", owner=0)
    s.hand(0, "My Only Weakness!")
    game = s.build()
    play(game, "My Only Weakness!")
    raptor = on(game, "War Raptor")
    assert raptor not in [o.card for o in game.pending.options]
    refuse(game, raptor)
    choose(game, on(game, "Armor Stego"))
    assert game.ability_active(raptor) and not game.ability_active(on(game, "Armor Stego"))


def test_mind_lady_cannot_cancel_a_minion_she_may_not_affect():
    s = scenario()
    s.minion(OASIS, "Mind Lady", owner=0)
    s.minion(SHIP, "War Raptor", owner=1)
    s.hand(0, "Beam Up")
    game = s.build()
    raptor = on(game, "War Raptor")
    # A test stand-in for a "not affected by Mind Lady" protection: what Hideout leaves behind.
    Ctx(game, raptor, 1).lasting("unaffected_by", on(game, "Mind Lady"),
                                 data={"cards": [raptor]}, until="source_leaves_play")
    assert game.talents_usable(0) == []


# ====================================================================== by cards / by players =
# Issue 24, mechanism 3: a protection "by cards other players control" does not stop a base's
# ability, even one a player performs (The Deep: "that player may destroy"); one "by other
# players" does. King Rex (7) played on The Deep: seat 0 may destroy seat 1's Invader (3) there.


def test_awesome_guy_does_not_stop_a_base_ability_a_player_performs():
    game = deep_game(PLAYERS, others=("Awesome Guy",))
    assert deep_may_destroy_the_invader(game)
    choose(game, card(game, "Invader"))
    assert game.loc[card(game, "Invader")] == ("discard", 1)


def test_expanded_power_and_secret_base_stop_another_player_performing_a_base_ability():
    assert not deep_may_destroy_the_invader(deep_game(PLAYERS, minion_attached=[("Expanded Power", 1)]))
    assert not deep_may_destroy_the_invader(deep_game(PLAYERS, base_actions=("Secret Base",)))


def test_secret_base_shelters_from_the_dojo_winner_who_is_another_player():
    # Issue 24, mechanism 2: Ninja Dojo's "the winner may destroy" is done by the winner, another
    # player than Secret Base's: its small minions there are not offered.
    s = Scenario(PLAYERS)
    s.base("Ninja Dojo")
    s.base("Jungle Oasis")
    for name in ("King Rex", "Supreme Overlord", "Invader", "Invader"):  # 18
        s.minion(0, name, owner=0)
    s.minion(1, "Collector", owner=1)
    s.minion(1, "Tiger Assassin", owner=1)
    s.base_action(1, "Secret Base", owner=1)
    s.hand(0, "Beam Up")
    s.hand(1, "Augmentation")
    s.deck(0, *["Beam Up"] * 4)
    s.deck(1, *["Augmentation"] * 4)
    s.base_deck("Rhodes Plaza Mall")
    game = s.build()
    end_play(game)
    offered = {game.name(o.card) for o in game.pending.options if o.card is not None}
    assert "Collector" not in offered and "Tiger Assassin" in offered
