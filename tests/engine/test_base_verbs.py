"""Bases as things cards change (audit piece L): add a base (`Ctx.add_base`: Idaho Smith), destroy
a base and replace it keeping its minions (`Ctx.destroy_base`: Burn It Down, Not in Kansas), look
at the top of the base deck and put it back on the top and/or bottom (`Ctx.look_at_bases`,
`Ctx.put_back_bases`: Glory Hound), and the `base_entered` event for every way a base arrives
(dealt after scoring, added, replacing, swapped), which a Special from hand may answer (Crypt
Looter). Test-only cards in a registry of their own; the Big Base behaviour is at the end."""
from __future__ import annotations

import smashup.cards  # noqa: F401  (declares the cards)
from bigbase.rules import BigBaseScenario, load_boards
from smashup.engine import Faction, Scenario
from smashup.engine.invariants import check
from smashup.engine.registry import Registry
from smashup.engine.testing import (
    assert_refused,
    card,
    choose,
    end_play,
    labels,
    play,
    record_events,
)

from .support import registry_with_test_cards


def _registry() -> Registry:
    r = registry_with_test_cards()
    t = Faction("Surveyors", set="testset", registry=r)

    @t.action("Expedition", text="Put the top base of the base deck into play as an extra base.")
    def expedition(ctx):
        ctx.add_base()

    @t.action("Demolition", text=(
        "Destroy a base and the actions on it; the top base of the base deck replaces it."))
    def demolition(ctx):
        uid = yield from ctx.choose_base(ctx.bases(), "Demolish which base?", intent="harm")
        new = ctx.top_base()
        if new is not None:
            yield from ctx.destroy_base(uid, new)

    @t.action("Flattening", text=(
        "Destroy a base and every action on it or on its minions; a base from the base discard "
        "pile replaces it."))
    def flattening(ctx):
        uid = yield from ctx.choose_base(ctx.bases(), "Flatten which base?", intent="harm")
        new = yield from ctx.choose_cards(ctx.base_discard_pile(), "Which base replaces it?")
        yield from ctx.destroy_base(uid, new[0], minion_actions=True)

    @t.action("Survey", text="Look at the top two bases and put them back on top and/or bottom.")
    def survey(ctx):
        yield from ctx.put_back_bases(ctx.look_at_bases(2))

    greeter = t.minion("Greeter", power=2, copies=2, text=(
        "Special: after a base comes into play, you may play this on it as an extra minion."))

    @greeter.special("base_entered", label="Play Greeter on the new base")
    def greeter_plays(ctx, event):
        yield from ctx.play_minion(ctx.card, event.base)

    t.action("Sign", attach="base", text="No ability.")
    t.action("Badge", attach="minion", text="No ability.")
    t.minion("Trekker", power=3, copies=4, text="No ability.")
    return r


REG = _registry()
PLAYERS = [("Surveyors", "Aliens"), ("Ninjas", "Robots")]


def scenario():
    s = Scenario(PLAYERS)
    s.base("Jungle Oasis")
    s.base("The Homeworld")
    s.hand(1, "Ninja Acolyte")
    s.deck(0, *["Trekker"] * 4)
    s.deck(1, *["Ninja Acolyte"] * 4)
    s.base_deck("Tar Pits", "Factory 436-1337", "The Central Brain")
    return s


def names(game, cards) -> list[str]:
    return [game.name(c) for c in cards]


def bases_in_play(game) -> list[str]:
    return [game.name(s.card) for s in game.bases]


def entered(events) -> list[tuple]:
    return [(e.data["how"], e.base, e.data["replaced"]) for e in events
            if e.kind == "base_entered"]


# ----------------------------------------------------------------- add a base -----------------
def test_an_added_base_comes_into_play_after_the_others_and_announces_itself():
    s = scenario()
    s.hand(0, "Expedition", "Trekker")
    game = s.build(REG)
    events = record_events(game)
    play(game, "Expedition")
    assert bases_in_play(game) == ["Jungle Oasis", "The Homeworld", "Tar Pits"]
    assert names(game, game.base_deck) == ["Factory 436-1337", "The Central Brain"]
    tar_pits = game.bases[2]
    assert game.loc[tar_pits.card] == ("base", tar_pits.uid)
    assert entered(events) == [("added", tar_pits.uid, None)]
    assert events[0].by_card == card(game, "Expedition") and events[0].by_player == 0
    assert check(game) == []


def test_an_added_base_takes_the_base_discard_pile_when_the_base_deck_is_empty():
    s = scenario()
    s.data["base_deck"] = []
    s.base_discard("Tar Pits")
    s.hand(0, "Expedition", "Trekker")
    game = s.build(REG)
    play(game, "Expedition")
    assert bases_in_play(game) == ["Jungle Oasis", "The Homeworld", "Tar Pits"]
    assert game.base_discard == [] and game.base_deck == []


def test_with_no_base_anywhere_nothing_is_added():
    s = scenario()
    s.data["base_deck"] = []
    s.hand(0, "Expedition", "Trekker")
    game = s.build(REG)
    events = record_events(game)
    play(game, "Expedition")
    assert bases_in_play(game) == ["Jungle Oasis", "The Homeworld"]
    assert entered(events) == []


# ----------------------------------------------------------------- destroy and replace --------
def test_a_destroyed_base_goes_to_the_base_discard_pile_its_minions_stay_on_the_replacement():
    s = scenario()
    s.minion(0, "Trekker", owner=0, attached=[("Badge", 1)])
    s.minion(0, "Invader", owner=1)
    s.base_action(0, "Sign", owner=1)
    s.hand(0, "Demolition", "Trekker")
    game = s.build(REG)
    oasis = game.bases[0].uid
    walker, invader = card(game, "Trekker", "minion"), card(game, "Invader", "minion")
    badge, sign = card(game, "Badge"), card(game, "Sign")
    events = record_events(game)
    play(game, "Demolition")
    choose(game, "Jungle Oasis")
    assert bases_in_play(game) == ["Tar Pits", "The Homeworld"]
    assert game.bases[0].uid == oasis  # the same place: the minions did not move
    assert game.slot(oasis).minions == [walker, invader]
    assert game.loc[sign] == ("discard", 1)  # destroyed with the base
    assert game.loc[badge] == ("attached", walker)  # actions on minions stay (Burn It Down)
    assert names(game, game.base_discard) == ["Jungle Oasis"]
    assert [(e.kind, e.card) for e in events if e.kind == "destroyed"] == [("destroyed", sign)]
    assert entered(events) == [("replaced", oasis, card(game, "Jungle Oasis"))]
    assert not [e for e in events if e.kind == "moved"]
    assert check(game) == []


def test_destroying_with_the_minions_actions_takes_those_too_and_a_base_from_the_discard():
    s = scenario()
    s.minion(0, "Trekker", owner=0, attached=[("Badge", 1)])
    s.base_action(0, "Sign", owner=1)
    s.base_discard("Temple of Goju")
    s.hand(0, "Flattening", "Trekker")
    game = s.build(REG)
    badge, sign = card(game, "Badge"), card(game, "Sign")
    play(game, "Flattening")
    choose(game, "Jungle Oasis")
    # The only base in the discard pile is taken without asking.
    assert bases_in_play(game) == ["Temple of Goju", "The Homeworld"]
    assert game.loc[badge] == ("discard", 1) and game.loc[sign] == ("discard", 1)
    assert names(game, game.base_discard) == ["Jungle Oasis"]
    assert names(game, game.base_deck) == ["Tar Pits", "Factory 436-1337", "The Central Brain"]


# ----------------------------------------------------------------- look and put back ----------
def test_bases_looked_at_go_back_on_top_and_bottom_in_the_order_chosen():
    s = scenario()
    s.hand(0, "Survey", "Trekker")
    game = s.build(REG)
    play(game, "Survey")
    d = game.pending
    assert d.min_count == 0 and d.max_count == 2
    assert sorted(o.label for o in d.options) == ["Factory 436-1337", "Tar Pits"]
    choose(game, "Tar Pits")
    assert names(game, game.base_deck) == ["Tar Pits", "The Central Brain", "Factory 436-1337"]


def test_both_bases_may_go_to_the_bottom_in_any_order():
    s = scenario()
    s.hand(0, "Survey", "Trekker")
    game = s.build(REG)
    play(game, "Survey")
    choose(game)  # none on top
    choose(game, "Factory 436-1337")  # the higher of the two at the bottom
    assert names(game, game.base_deck) == ["The Central Brain", "Factory 436-1337", "Tar Pits"]


def test_both_bases_may_go_on_top_in_any_order():
    s = scenario()
    s.hand(0, "Survey", "Trekker")
    game = s.build(REG)
    play(game, "Survey")
    choose(game, "Tar Pits", "Factory 436-1337")
    assert_refused(game, ["c999"])
    choose(game, "Factory 436-1337")
    assert names(game, game.base_deck) == ["Factory 436-1337", "Tar Pits", "The Central Brain"]


def test_only_the_looker_sees_the_bases():
    s = scenario()
    s.hand(0, "Survey", "Trekker")
    game = s.build(REG)
    play(game, "Survey")
    tar = card(game, "Tar Pits")
    assert f"c{tar}" not in str(game.view(1)) and "Tar Pits" not in str(game.view(1))
    assert check(game) == []


# ----------------------------------------------------------------- base_entered answered ------
def test_a_special_from_hand_answers_an_added_base():
    s = scenario()
    s.hand(0, "Expedition", "Greeter")
    game = s.build(REG)
    play(game, "Expedition")
    assert labels(game) == ["Play Greeter on the new base", "Pass"]
    choose(game, "Play Greeter on the new base")
    greeter = card(game, "Greeter")
    assert game.loc[greeter] == ("minion", game.bases[2].uid)
    assert game.turn_state.minions_played == 0  # an extra minion: the turn's own is left


def test_a_special_from_hand_may_pass_on_a_new_base():
    s = scenario()
    s.hand(0, "Expedition", "Greeter")
    game = s.build(REG)
    play(game, "Expedition")
    choose(game, "Pass")
    assert game.loc[card(game, "Greeter")] == ("hand", 0)


def test_a_swapped_base_is_announced_and_answered():
    s = scenario()
    s.minion(0, "Trekker", owner=0)
    s.hand(0, "Terraforming", "Greeter")
    s.turn(minions_played=1)
    game = s.build(REG)
    events = record_events(game)
    play(game, "Terraforming")
    choose(game, "Jungle Oasis")
    choose(game, "The Central Brain")
    oasis_uid = game.bases[0].uid
    assert entered(events) == [("swapped", oasis_uid, card(game, "Jungle Oasis"))]
    assert "Play Greeter on the new base" in labels(game)


def test_a_base_dealt_after_scoring_is_announced_and_answered_on_another_turn():
    s = scenario()
    for _ in range(4):
        s.minion(0, "Trekker", owner=1)
    s.hand(0, "Greeter", "Trekker")
    s.turn(current=1, minions_played=1)
    s.hand(1, "Sign")
    game = s.build(REG)
    events = record_events(game)
    # Seat 1 ends its turn: Jungle Oasis (12) scores and Tar Pits replaces it.
    end_play(game)
    assert bases_in_play(game) == ["Tar Pits", "The Homeworld"]
    new_uid = game.bases[0].uid
    assert [e for e in entered(events) if e[0] == "dealt"] == [
        ("dealt", new_uid, card(game, "Jungle Oasis"))]
    assert game.pending.seat == 0
    assert labels(game) == ["Play Greeter on the new base", "Pass"]
    choose(game, "Play Greeter on the new base")
    assert game.loc[card(game, "Greeter")] == ("minion", new_uid)


def test_nobody_is_asked_when_no_card_answers_a_new_base():
    s = scenario()
    s.hand(0, "Expedition", "Trekker")
    game = s.build(REG)
    play(game, "Expedition")
    assert game.pending.kind == "play"


# ----------------------------------------------------------------- Big Base -------------------
def big_scenario():
    board = load_boards()["plain"]
    s = BigBaseScenario(PLAYERS, base="Jungle Oasis", next_bases=["Tar Pits", "The Central Brain"],
                        board=board)
    s.hand(1, "Ninja Acolyte")
    s.deck(0, *["Trekker"] * 4)
    s.deck(1, *["Ninja Acolyte"] * 4)
    return s


def test_big_base_an_added_base_replaces_the_base_card_and_every_side_announces_it():
    s = big_scenario()
    s.hand(0, "Expedition", "Trekker")
    game = s.build(REG)
    sides = [slot.uid for slot in game.bases]
    events = record_events(game)
    play(game, "Expedition")
    assert game.name(game.base_card) == "Tar Pits"
    assert names(game, game.base_discard) == ["Jungle Oasis"]
    assert [slot.uid for slot in game.bases] == sides  # the sides stay
    assert entered(events) == [("added", uid, None) for uid in sides]
    assert check(game) == []


def test_big_base_a_destroyed_base_changes_the_base_card_and_destroys_that_sides_actions():
    s = big_scenario()
    s.minion("North", "Trekker", owner=0, slot=0)
    s.base_action("North", "Sign", owner=1, slot=1)
    s.base_action("East", "Sign", owner=1, slot=1)
    s.hand(0, "Demolition", "Trekker")
    game = s.build(REG)
    north, east = game.bases[0].uid, game.bases[1].uid
    signs = [a for a in range(len(game.defs)) if game.name(a) == "Sign"]
    events = record_events(game)
    play(game, "Demolition")
    choose(game, "North")
    assert game.name(game.base_card) == "Tar Pits"
    assert names(game, game.base_discard) == ["Jungle Oasis"]
    on_north = [a for a in signs if game.loc[a][0] == "discard"]
    assert len(on_north) == 1 and game.slot(east).actions  # East's Sign stays
    assert game.loc[card(game, "Trekker", "minion")] == ("minion", north)
    assert len(entered(events)) == 4
    assert check(game) == []


def test_big_base_a_special_answering_a_new_base_plays_on_the_side_it_answers():
    s = big_scenario()
    s.hand(0, "Expedition", "Greeter")
    game = s.build(REG)
    play(game, "Expedition")
    # One question per side, North first; passing North leaves the others.
    assert game.pending.prompt == "Use a Special now (after North comes into play)?"
    choose(game, "Pass")
    assert game.pending.prompt == "Use a Special now (after East comes into play)?"
    choose(game, "Play Greeter on the new base")
    choose(game, "East slot 2")
    greeter = card(game, "Greeter")
    assert game.loc[greeter] == ("minion", game.bases[1].uid)
