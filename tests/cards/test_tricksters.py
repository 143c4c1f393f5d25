"""Every card of the Tricksters (Core Set, the 2012 list), played through the engine.

Each test builds a position with `Scenario`, plays the card with the testing helpers and checks the
exact effect: zones, power, VP, hands, who is asked what, and that refused input changes nothing.
The rulings come from the catalog (shared/cards/core.yaml, Tricksters) and the rulebooks (WWWT
"Affect": moved, returned, destroyed, placed, changed in power, an action attached...).

Seat 0 plays Tricksters and Aliens, seat 1 Ninjas and Robots. Both decks hold filler cards so that
a draw never reshuffles a discard pile a test inspects; the bases have no ability that interferes.
"""
from __future__ import annotations

import pytest

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import ACTION, MINION, REGISTRY, Scenario
from smashup.engine.testing import (
    assert_refused,
    base_uid,
    card,
    choose,
    decline,
    end_play,
    find_cards,
    hand_names,
    labels,
    play,
)
from smashup.engine.testing import log_texts as log

PLAYERS = [("Tricksters", "Aliens"), ("Ninjas", "Robots")]
FACTORY, LIBRARY, SHIP = 0, 1, 2  # breakpoints 25, 22, 20; abilities only when they score
FILLER = "Tech Center"


def scenario(players=PLAYERS, current=0):
    s = Scenario(players)
    for name in ("Factory 436-1337", "The Great Library", "The Mothership"):
        s.base(name)
    for seat in range(len(players)):
        s.deck(seat, *[FILLER] * 6)
    s.turn(current=current)
    return s


def option_cards(game) -> set[int]:
    return {o.card for o in game.pending.options if o.card is not None}


def discard_names(game, seat) -> list[str]:
    return sorted(game.name(c) for c in game.players[seat].discard)


# ------------------------------------------------------------------------------------ the deck
def test_the_trickster_deck_matches_the_catalog():
    expected = {
        "Leprechaun": (MINION, 5, 1), "Brownie": (MINION, 4, 2), "Gnome": (MINION, 3, 3),
        "Gremlin": (MINION, 2, 4), "Block the Path": (ACTION, 0, 1), "Disenchant": (ACTION, 0, 2),
        "Enshrouding Mist": (ACTION, 0, 2), "Flame Trap": (ACTION, 0, 1), "Hideout": (ACTION, 0, 1),
        "Mark of Sleep": (ACTION, 0, 1), "Pay the Piper": (ACTION, 0, 1),
        "Take the Shinies": (ACTION, 0, 1),
    }
    tricksters = REGISTRY.faction("Tricksters")
    assert {c.name: (c.kind, c.power, c.copies) for c in tricksters.cards} == expected
    assert len(tricksters.deck()) == 20
    assert {c.name: c.attach for c in tricksters.cards if c.attach} == {
        "Block the Path": "base", "Enshrouding Mist": "base", "Flame Trap": "base",
        "Hideout": "base", "Pay the Piper": "base"}


# ---------------------------------------------------------------------------------- Leprechaun
def test_leprechaun_lets_a_weaker_minion_played_here_resolve_then_destroys_it():
    s = scenario(players=[("Tricksters", "Aliens"), ("Pirates", "Robots")], current=1)
    s.minion(FACTORY, "Leprechaun", owner=0)
    s.hand(1, "Invader", "Collector")
    game = s.build()
    invader = card(game, "Invader")
    play(game, "Invader", base="Factory 436-1337")
    # Its own ability resolved first (1 VP), then the Leprechaun destroyed it.
    assert game.players[1].vp == 1
    assert game.loc[invader] == ("discard", 1)
    assert "Invader is destroyed (Leprechaun)." in log(game)
    assert game.pending.kind == "play" and game.pending.seat == 1


def test_leprechaun_spares_equal_power_its_controllers_minions_and_other_bases():
    s = scenario(players=[("Tricksters", "Aliens"), ("Pirates", "Robots")], current=1)
    s.minion(FACTORY, "Leprechaun", owner=0)
    s.hand(1, "Supreme Overlord", "Invader", "Collector")
    game = s.build()
    overlord = card(game, "Supreme Overlord")
    play(game, "Supreme Overlord", base="Factory 436-1337")
    decline(game)  # its "may return a minion"
    assert game.loc[overlord][0] == "minion"  # 5 is not less than 5
    # Seat 0 plays its own weaker minion there; another player's Leprechaun is elsewhere.
    s2 = scenario()
    s2.minion(FACTORY, "Leprechaun", owner=0)
    s2.minion(LIBRARY, "Leprechaun", owner=1, controller=1)  # another player's, elsewhere
    s2.hand(0, "Invader", "Collector")
    game = s2.build()
    mine = card(game, "Invader")
    play(game, "Invader", base="Factory 436-1337")
    assert game.loc[mine][0] == "minion"


def test_leprechaun_cannot_destroy_a_minion_that_cannot_be_destroyed():
    s = scenario(current=1)
    s.minion(FACTORY, "Leprechaun", owner=0)
    s.hand(1, "Warbot", "Tech Center")
    game = s.build()
    warbot = card(game, "Warbot")
    play(game, "Warbot", base="Factory 436-1337")
    assert game.loc[warbot][0] == "minion"
    assert not any("destroyed" in line for line in log(game))


def test_leprechaun_reads_powers_as_the_minion_entered_play():
    # The 2012 card: the comparison is made as the minion is played, before its ability (the
    # reworked reprint compares afterwards). Here the played Supreme Overlord's ability returns
    # the Leprechaun itself: it is no longer in play to react.
    s = scenario(players=[("Tricksters", "Aliens"), ("Pirates", "Robots")], current=1)
    s.minion(FACTORY, "Leprechaun", owner=0)
    s.minion(FACTORY, "Collector", owner=1)
    s.hand(1, "Supreme Overlord", "Invader")
    game = s.build()
    leprechaun, overlord = card(game, "Leprechaun"), card(game, "Supreme Overlord")
    play(game, "Supreme Overlord", base="Factory 436-1337")
    choose(game, leprechaun)
    assert game.loc[leprechaun] == ("hand", 0)
    assert game.loc[overlord][0] == "minion"


def test_leprechaun_compares_powers_as_played_even_after_a_boost_that_resolves_first():
    # The ruling above, where it decides the outcome: Lake Minnetonka gives the played minion +1
    # after it is played. The current player orders that boost before the Leprechaun; the Tiger
    # Assassin then has 5, as much as the Leprechaun, but it entered with 4 and is destroyed. A
    # comparison made when the Leprechaun reacts (or after the minion's own ability, the rework)
    # would spare it.
    s = Scenario([("Tricksters", "Aliens"), ("Ninjas", "Robots")])
    for name in ("Lake Minnetonka", "The Great Library", "The Mothership"):
        s.base(name)
    for seat in range(2):
        s.deck(seat, *[FILLER] * 6)
    s.turn(current=1)
    s.minion(0, "Leprechaun", owner=0)
    s.hand(1, "Tiger Assassin", "Zapbot", "Tech Center")
    game = s.build()
    tiger = card(game, "Tiger Assassin")
    play(game, "Tiger Assassin", base="Lake Minnetonka")
    assert labels(game) == ["Lake Minnetonka", "Leprechaun"]
    choose(game, "Lake Minnetonka")  # the Leprechaun's reaction, the one left, follows by itself
    assert game.loc[tiger] == ("discard", 1)
    assert "Tiger Assassin is destroyed (Leprechaun)." in log(game)


# ------------------------------------------------------------------------------------- Brownie
def test_brownie_makes_a_player_whose_card_destroyed_it_discard_two_at_random():
    s = scenario(current=1)
    s.minion(FACTORY, "Brownie", owner=0)
    s.hand(1, "Ninja Master", "Zapbot", "Warbot", "Hoverbot")
    game = s.build()
    brownie = card(game, "Brownie")
    play(game, "Ninja Master", base="Factory 436-1337")
    choose(game, brownie)
    assert game.loc[brownie] == ("discard", 0)
    # Its last words: the destroyer discards two of the three cards left, at random.
    assert len(game.players[1].discard) == 2
    assert set(discard_names(game, 1)) <= {"Zapbot", "Warbot", "Hoverbot"}
    assert sum(line.startswith("P1 discards") for line in log(game)) == 1


@pytest.mark.parametrize("action, power_after", [("Poison", 0), ("Way of Deception", None)])
def test_brownie_answers_an_action_attached_to_it_or_a_move_once(action, power_after):
    s = scenario(current=1)
    s.minion(FACTORY, "Brownie", owner=0, controller=1 if action == "Way of Deception" else 0)
    s.hand(1, action, "Zapbot", "Warbot", "Hoverbot")
    game = s.build()
    brownie = card(game, "Brownie")
    choose(game, f"Play {action}")
    if action == "Way of Deception":
        # Seat 1 controls this Brownie: moving its own minion is not "another player".
        choose(game, "The Great Library")
        assert game.loc[brownie] == ("minion", base_uid(game, "The Great Library"))
        assert len(game.players[1].hand) == 3
        return
    assert game.power(brownie) == power_after
    # Poison's attaching and its -4 are one card played: two cards discarded, once.
    assert len(game.players[1].discard) == 2
    assert set(discard_names(game, 1)) <= {"Zapbot", "Warbot", "Hoverbot"}


def test_brownie_ignores_its_controllers_own_cards_and_minions_played_earlier():
    s = scenario()
    s.minion(FACTORY, "Brownie", owner=0)
    s.hand(0, "Beam Up", "Invader")
    s.hand(1, "Zapbot", "Warbot")
    game = s.build()
    brownie = card(game, "Brownie")
    choose(game, "Play Beam Up")  # the only minion: chosen at once
    assert game.loc[brownie] == ("hand", 0)
    assert len(game.players[1].hand) == 2 and not game.players[1].discard


def test_brownie_punishes_each_card_played_and_takes_what_there_is():
    s = scenario(players=[("Tricksters", "Aliens"), ("Dinosaurs", "Pirates")], current=1)
    s.minion(FACTORY, "Brownie", owner=0)
    s.hand(1, "Augmentation", "Invasion", "Invader")
    game = s.build()
    brownie = card(game, "Brownie")
    choose(game, "Play Augmentation")  # +4 power: an affect (the only minion: chosen at once)
    # Invasion and Invader: both gone at random (all there was).
    assert discard_names(game, 1) == ["Augmentation", "Invader", "Invasion"]
    assert game.loc[brownie][0] == "minion"


# --------------------------------------------------------------------------------------- Gnome
def test_gnome_may_destroy_a_minion_here_weaker_than_the_count_of_your_minions_here():
    s = scenario()
    s.minion(FACTORY, "Gremlin", owner=0)
    s.minion(FACTORY, "Microbot Guard", owner=1)
    s.minion(FACTORY, "Microbot Guard", owner=1)  # alike: one option
    s.minion(FACTORY, "Zapbot", owner=1)  # power 2: not less than 2
    s.minion(FACTORY, "Warbot", owner=1)  # cannot be destroyed anyway
    s.minion(LIBRARY, "Microbot Guard", owner=1)  # another base
    s.hand(0, "Gnome", "Invader")
    game = s.build()
    guards = find_cards(game, "Microbot Guard")
    play(game, "Gnome", base="Factory 436-1337")
    d = game.pending
    assert (d.seat, d.kind, d.min_count, d.max_count) == (0, "target", 0, 1)
    # Two of your minions here (the Gnome counted): power less than 2.
    assert option_cards(game) == {guards[0]}
    assert_refused(game, [f"m{guards[1]}"])
    assert_refused(game, [f"m{card(game, 'Zapbot')}"])
    choose(game, guards[0])
    assert game.loc[guards[0]] == ("discard", 1)
    assert game.loc[guards[1]][0] == "minion"


def test_gnome_may_decline_and_asks_nothing_without_a_target():
    s = scenario()
    s.minion(FACTORY, "Microbot Guard", owner=1)
    s.hand(0, "Gnome", "Gnome", "Invader")
    game = s.build()
    guard = card(game, "Microbot Guard")
    play(game, "Gnome", base="Factory 436-1337")  # one minion of yours here: power < 1
    assert game.pending.kind == "play"  # power 1 is not less than 1: no question
    assert game.loc[guard][0] == "minion"


def test_gnome_declined():
    s = scenario()
    s.minion(FACTORY, "Gremlin", owner=0)
    s.minion(FACTORY, "Microbot Guard", owner=1)
    s.hand(0, "Gnome", "Invader")
    game = s.build()
    play(game, "Gnome", base="Factory 436-1337")
    decline(game)
    assert game.loc[card(game, "Microbot Guard")][0] == "minion"
    assert game.pending.kind == "play"


# ------------------------------------------------------------------------------------- Gremlin
def test_gremlin_destroyed_draws_you_a_card_and_each_other_player_discards_one():
    s = scenario(players=[("Tricksters", "Aliens"), ("Ninjas", "Robots"), ("Pirates", "Wizards")],
                 current=1)
    for name in ("Jungle Oasis", "Tar Pits"):
        s.base(name)
    s.minion(FACTORY, "Gremlin", owner=0)
    s.hand(0, "Invader")
    s.hand(1, "Seeing Stars", "Zapbot", "Warbot")
    s.hand(2, "Scout", "Collector")
    game = s.build()
    gremlin = card(game, "Gremlin")
    choose(game, "Play Seeing Stars")  # the only target: chosen at once
    assert game.loc[gremlin] == ("discard", 0)
    assert len(game.players[0].hand) == 2  # drew one
    assert len(game.players[1].hand) == 1 and len(game.players[1].discard) == 2  # + the action
    assert len(game.players[2].hand) == 1 and len(game.players[2].discard) == 1


def test_gremlin_returned_does_nothing():
    # Returned to its owner's hand: no draw, no discard.
    s = scenario(players=[("Tricksters", "Aliens"), ("Pirates", "Robots")], current=1)
    s.minion(FACTORY, "Gremlin", owner=0)
    s.hand(1, "Beam Up", "Zapbot")
    game = s.build()
    gremlin = card(game, "Gremlin")
    choose(game, "Play Beam Up")  # the only minion: chosen at once
    assert game.loc[gremlin] == ("hand", 0)
    assert hand_names(game, 0) == ["Gremlin"]
    assert discard_names(game, 1) == ["Beam Up"]


def test_gremlin_put_away_when_its_base_scores_is_not_destroyed():
    s = scenario()
    s.minion(SHIP, "Gremlin", owner=0)
    s.minion(SHIP, "King Rex", owner=1)
    s.minion(SHIP, "King Rex", owner=1)
    s.minion(SHIP, "King Rex", owner=1)
    s.hand(1, "Zapbot")
    s.base_deck("Jungle Oasis")
    game = s.build()
    gremlin = card(game, "Gremlin")
    hand0 = len(game.players[0].hand)
    end_play(game)  # The Mothership (20) scores: 21 power
    assert game.loc[gremlin] == ("discard", 0)
    # Nobody discards from hand: seat 1's pile holds only its King Rexes from the base.
    assert discard_names(game, 1) == ["King Rex"] * 3
    assert len(game.players[0].hand) >= hand0


# ----------------------------------------------------------------------------------- Disenchant
def test_disenchant_destroys_an_action_on_a_minion_or_a_base_anyones():
    s = scenario()
    s.minion(FACTORY, "Gremlin", owner=0, attached=[("Poison", 1)])
    s.minion(FACTORY, "Microbot Guard", owner=1)
    s.base_action(LIBRARY, "Infiltrate", owner=1)
    s.base_action(LIBRARY, "Enshrouding Mist", owner=0)
    s.hand(0, "Disenchant", "Invader")
    game = s.build()
    poison, infiltrate = card(game, "Poison"), card(game, "Infiltrate")
    mist = card(game, "Enshrouding Mist")
    gremlin = card(game, "Gremlin")
    assert game.power(gremlin) == 0
    choose(game, "Play Disenchant")
    d = game.pending
    assert (d.seat, d.kind, d.min_count, d.max_count) == (0, "actions", 1, 1)
    assert option_cards(game) == {poison, infiltrate, mist}
    assert "Poison (P1) on Gremlin (0, P0) on Factory 436-1337" in labels(game)
    assert_refused(game, [f"a{card(game, 'Disenchant')}"])
    choose(game, poison)
    assert game.loc[poison] == ("discard", 1)
    assert "Poison is destroyed (Disenchant)." in log(game)
    assert game.power(gremlin) == 2
    assert game.loc[card(game, "Disenchant")] == ("discard", 0)


def test_disenchant_with_no_action_in_play_does_nothing():
    s = scenario()
    s.hand(0, "Disenchant", "Invader")
    game = s.build()
    choose(game, "Play Disenchant")
    assert game.pending.kind == "play"
    assert game.loc[card(game, "Disenchant")] == ("discard", 0)


# ----------------------------------------------------------------------------- Enshrouding Mist
def test_enshrouding_mist_gives_one_extra_minion_on_its_base_each_of_your_turns():
    s = scenario()
    s.hand(0, "Enshrouding Mist", "Gremlin", "Gremlin", "Gnome")
    s.hand(1, "Zapbot")
    game = s.build()
    mist = card(game, "Enshrouding Mist")
    choose(game, "Play Enshrouding Mist")
    choose(game, "The Great Library")
    # Usable the turn it is played.
    assert "Use Enshrouding Mist's talent" in labels(game)
    play(game, "Gremlin", base="Factory 436-1337")  # the free minion
    choose(game, f"t{mist}")
    assert "Use Enshrouding Mist's talent" not in labels(game)  # once per turn
    gremlin = find_cards(game, "Gremlin", "hand")[0]
    # The extra is on the Mist's base only.
    bases = {o.base for o in game.pending.options if o.card == gremlin}
    assert bases == {base_uid(game, "The Great Library")}
    assert_refused(game, [f"m{gremlin}@{base_uid(game, 'Factory 436-1337')}"])
    play(game, "Gremlin", base="The Great Library")
    # Nothing else playable (the Gnome has no grant): seat 1's turn, where it is not theirs to use.
    assert game.pending.seat == 1
    assert not [lbl for lbl in labels(game) if "talent" in lbl]
    end_play(game)
    assert game.pending.seat == 0 and "Use Enshrouding Mist's talent" in labels(game)


# ----------------------------------------------------------------------------------- Flame Trap
def test_flame_trap_lets_the_minion_resolve_then_destroys_it_and_itself():
    s = scenario(players=[("Tricksters", "Aliens"), ("Pirates", "Robots")], current=1)
    s.base_action(FACTORY, "Flame Trap", owner=0)
    s.hand(1, "Invader", "Collector", "Zapbot")
    game = s.build()
    trap, invader = card(game, "Flame Trap"), card(game, "Invader")
    play(game, "Invader", base="Factory 436-1337")
    assert game.players[1].vp == 1
    assert game.loc[invader] == ("discard", 1)
    assert game.loc[trap] == ("discard", 0)
    # Gone: the next minion there is safe.
    play(game, "Zapbot", base="Factory 436-1337")
    assert game.loc[card(game, "Zapbot")][0] == "minion"


def test_flame_trap_spares_its_controllers_minions_and_burns_even_against_a_warbot():
    s = scenario()
    s.base_action(FACTORY, "Flame Trap", owner=0)
    s.hand(0, "Gremlin", "Invader")
    game = s.build()
    play(game, "Gremlin", base="Factory 436-1337")
    assert game.loc[card(game, "Flame Trap")][0] == "base_action"
    s2 = scenario(current=1)
    s2.base_action(FACTORY, "Flame Trap", owner=0)
    s2.hand(1, "Warbot", "Zapbot")
    game = s2.build()
    play(game, "Warbot", base="Factory 436-1337")
    assert game.loc[card(game, "Warbot")][0] == "minion"
    assert game.loc[card(game, "Flame Trap")] == ("discard", 0)


# -------------------------------------------------------------------------------------- Hideout
def test_hideout_is_destroyed_instead_of_your_minion_being_affected_by_another_players_action():
    s = scenario(current=1)
    s.base_action(FACTORY, "Hideout", owner=0)
    s.minion(FACTORY, "Gremlin", owner=0)
    s.minion(FACTORY, "Gnome", owner=0)
    s.hand(1, "Seeing Stars", "Zapbot")
    game = s.build()
    hideout, gremlin = card(game, "Hideout"), card(game, "Gremlin")
    choose(game, "Play Seeing Stars")
    assert option_cards(game) >= {gremlin}  # it may be chosen...
    choose(game, gremlin)
    # ...and the Hideout goes instead.
    assert game.loc[hideout] == ("discard", 0)
    assert game.loc[gremlin][0] == "minion"
    assert any("Hideout is destroyed instead" in line for line in log(game))
    # No Gremlin draw: nothing was destroyed but the Hideout.
    assert len(game.players[0].hand) == 0


def test_hideout_keeps_the_whole_action_off_your_minions_there_but_not_other_players():
    s = scenario(players=[("Tricksters", "Aliens"), ("Pirates", "Robots")], current=1)
    s.base_action(FACTORY, "Hideout", owner=0)
    s.minion(FACTORY, "Gremlin", owner=0)
    s.minion(FACTORY, "Gnome", owner=0)
    s.minion(FACTORY, "Zapbot", owner=1)
    s.hand(1, "Crop Circles", "Invader")
    game = s.build()
    choose(game, "Play Crop Circles")
    if game.pending.kind == "base":
        choose(game, "Factory 436-1337")
    assert game.loc[card(game, "Hideout")] == ("discard", 0)
    assert game.loc[card(game, "Gremlin")][0] == "minion"
    assert game.loc[card(game, "Gnome")][0] == "minion"
    assert game.loc[card(game, "Zapbot")] == ("hand", 1)


def test_hideout_stops_an_action_attached_to_your_minion():
    s = scenario(current=1)
    s.base_action(FACTORY, "Hideout", owner=0)
    s.minion(FACTORY, "Brownie", owner=0)
    s.hand(1, "Poison", "Zapbot", "Warbot")
    game = s.build()
    brownie, poison = card(game, "Brownie"), card(game, "Poison")
    choose(game, "Play Poison")
    assert game.loc[poison] == ("discard", 1)
    assert game.minion_state[brownie].attached == []
    assert game.power(brownie) == 4
    assert game.loc[card(game, "Hideout")] == ("discard", 0)
    # The Poison never affected the Brownie: no discard for seat 1.
    assert len(game.players[1].hand) == 2


def test_hideout_ignores_minions_abilities_and_its_controllers_own_actions():
    s = scenario(current=1)
    s.base_action(FACTORY, "Hideout", owner=0)
    s.minion(FACTORY, "Gremlin", owner=0)
    s.hand(1, "Ninja Master", "Zapbot")
    game = s.build()
    gremlin = card(game, "Gremlin")
    play(game, "Ninja Master", base="Factory 436-1337")
    choose(game, gremlin)
    assert game.loc[gremlin] == ("discard", 0)
    assert game.loc[card(game, "Hideout")][0] == "base_action"
    s2 = scenario()
    s2.base_action(FACTORY, "Hideout", owner=0)
    s2.minion(FACTORY, "Gremlin", owner=0)
    s2.hand(0, "Beam Up", "Invader")
    game = s2.build()
    choose(game, "Play Beam Up")
    assert game.loc[card(game, "Gremlin")] == ("hand", 0)
    assert game.loc[card(game, "Hideout")][0] == "base_action"


# --------------------------------------------------------------------------------- Pay the Piper
def test_pay_the_piper_makes_a_player_who_plays_a_minion_here_discard_a_card_of_their_choice():
    s = scenario(current=1)
    s.base_action(FACTORY, "Pay the Piper", owner=0)
    s.hand(1, "Zapbot", "Warbot", "Warbot", "Hoverbot")
    game = s.build()
    warbots = find_cards(game, "Warbot")
    play(game, "Zapbot", base="Factory 436-1337")  # its extra minion is banked for the phase
    d = game.pending
    assert (d.seat, d.kind, d.min_count, d.max_count) == (1, "cards", 1, 1)
    # Alike copies once.
    assert option_cards(game) == {warbots[0], card(game, "Hoverbot")}
    assert_refused(game, [])
    choose(game, "Hoverbot")
    assert discard_names(game, 1) == ["Hoverbot"]
    assert game.loc[card(game, "Pay the Piper")][0] == "base_action"  # it stays


def test_pay_the_piper_spares_its_controller_and_an_empty_hand():
    s = scenario()
    s.base_action(FACTORY, "Pay the Piper", owner=0)
    s.hand(0, "Gremlin", "Invader")
    game = s.build()
    play(game, "Gremlin", base="Factory 436-1337")
    assert not game.players[0].discard
    s2 = scenario(current=1)
    s2.base_action(FACTORY, "Pay the Piper", owner=0)
    s2.hand(1, "Warbot")
    game = s2.build()
    play(game, "Warbot", base="Factory 436-1337")
    assert not game.players[1].discard


# ------------------------------------------------------------------------------ Take the Shinies
def test_take_the_shinies_makes_each_other_player_discard_two_at_random():
    s = scenario(players=[("Tricksters", "Aliens"), ("Ninjas", "Robots"), ("Pirates", "Wizards")])
    for name in ("Jungle Oasis", "Tar Pits"):
        s.base(name)
    s.hand(0, "Take the Shinies", "Invader")
    s.hand(1, "Zapbot", "Warbot", "Hoverbot")
    s.hand(2, "Scout")
    game = s.build()
    choose(game, "Play Take the Shinies")
    assert len(game.players[1].hand) == 1 and len(game.players[1].discard) == 2
    assert game.players[2].hand == [] and discard_names(game, 2) == ["Scout"]
    assert hand_names(game, 0) == ["Invader"]


def test_take_the_shinies_is_random_from_the_seed():
    picks = set()
    for seed in range(6):
        s = scenario()
        s.data["seed"] = seed
        s.hand(0, "Take the Shinies", "Invader")
        s.hand(1, "Zapbot", "Warbot", "Hoverbot", "Ninja Master")
        game = s.build()
        choose(game, "Play Take the Shinies")
        picks.add(tuple(discard_names(game, 1)))
    assert len(picks) > 1


def test_hideout_against_an_action_already_in_play_for_as_long_as_it_stays():
    s = scenario(current=1)
    s.base_action(FACTORY, "Hideout", owner=0)
    s.minion(FACTORY, "Gremlin", owner=0, attached=[("Assassination", 1)])
    s.hand(0, "Invader")
    s.hand(1, "Zapbot")
    game = s.build()
    gremlin, assassination = card(game, "Gremlin"), card(game, "Assassination")
    end_play(game)  # seat 1's turn ends: the Assassination would destroy the Gremlin
    assert game.loc[card(game, "Hideout")] == ("discard", 0)
    assert game.loc[gremlin][0] == "minion"
    assert game.loc[assassination] == ("attached", gremlin)
    # The next turn's end: the Assassination still leaves the Gremlin alone.
    assert game.pending.seat == 0
    end_play(game)
    assert game.loc[gremlin][0] == "minion"


# ------------------------------------------------------------------------ traps on one base
def test_leprechaun_and_flame_trap_both_react_in_the_order_the_current_player_picks():
    s = scenario(players=[("Tricksters", "Aliens"), ("Pirates", "Robots")], current=1)
    s.minion(FACTORY, "Leprechaun", owner=0)
    s.base_action(FACTORY, "Flame Trap", owner=0)
    s.hand(1, "Collector", "Zapbot")
    game = s.build()
    collector, trap = card(game, "Collector"), card(game, "Flame Trap")
    play(game, "Collector", base="Factory 436-1337")
    decline(game)  # the Collector's own "may return"
    d = game.pending
    assert (d.seat, d.kind) == (1, "order")  # the current player orders the two reactions
    choose(game, "Leprechaun")
    assert game.loc[collector] == ("discard", 1)
    assert game.loc[trap] == ("discard", 0)  # the trap burns although its minion is gone


def test_a_minion_that_left_play_during_its_own_ability_is_not_hunted_down():
    # Supreme Overlord returns itself to its owner's hand: no longer in play, nothing to destroy;
    # the Flame Trap still burns (mandatory).
    s = scenario(players=[("Tricksters", "Aliens"), ("Pirates", "Robots")], current=1)
    s.base_action(FACTORY, "Flame Trap", owner=0)
    s.hand(1, "Supreme Overlord", "Zapbot")
    game = s.build()
    overlord = card(game, "Supreme Overlord")
    play(game, "Supreme Overlord", base="Factory 436-1337")
    choose(game, overlord)
    assert game.loc[overlord] == ("hand", 1)
    assert game.loc[card(game, "Flame Trap")] == ("discard", 0)
    assert not any("Supreme Overlord is destroyed" in line for line in log(game))


# -------------------------------------------------------------------------------- Block the Path
def test_block_the_path_names_a_faction_of_this_game_and_remembers_it_on_the_card():
    s = scenario()
    s.hand(0, "Block the Path", "Invader")
    game = s.build()
    btp = card(game, "Block the Path")
    choose(game, "Play Block the Path")
    choose(game, "The Great Library")
    d = game.pending
    assert (d.seat, d.kind) == (0, "choice")
    # Every faction of this game, the player's own included.
    assert sorted(labels(game)) == ["Aliens", "Ninjas", "Robots", "Tricksters"]
    assert_refused(game, ["o9"])
    choose(game, "Robots")
    assert game.loc[btp] == ("base_action", base_uid(game, "The Great Library"))
    assert game.action_state[btp].memory == {"faction": "Robots"}
    assert "P0 names Robots: its minions cannot be played on The Great Library." in log(game)


# --------------------------------------------------------------------------------- Mark of Sleep
def test_mark_of_sleep_marks_the_chosen_players_next_turn():
    s = scenario()
    s.hand(0, "Mark of Sleep", "Invader")
    game = s.build()
    choose(game, "Play Mark of Sleep")
    d = game.pending
    assert (d.seat, d.kind, d.min_count) == (0, "player", 1)
    assert labels(game) == ["P0", "P1"]  # any player, you included
    choose(game, "P1")
    [mark] = [e for e in game.lasting if e.kind == "cannot_play"]
    assert (mark.target, mark.data, mark.starts, mark.ends) == (
        1, {"kind": ACTION}, ("turn_start", 1), ("turn_end", 1))
    assert "P1 cannot play actions during their next turn." in log(game)
    assert game.loc[card(game, "Mark of Sleep")] == ("discard", 0)


def block(game, base, faction):
    """The current player plays Block the Path from hand on `base`, naming `faction`."""
    choose(game, "Play Block the Path")
    choose(game, base)
    choose(game, faction)


def minion_plays(game) -> set[tuple[int, int]]:
    return {(o.card, o.base) for o in game.pending.options if o.base is not None}


def test_block_the_path_stops_minions_of_the_named_faction_here_for_everyone():
    s = scenario()
    s.hand(0, "Block the Path")
    s.hand(1, "Zapbot", "Ninja Master", "Tech Center")
    game = s.build()
    block(game, "The Great Library", "Robots")
    # Seat 0 has nothing else to play: seat 1's turn.
    assert game.pending.seat == 1
    zapbot, master = card(game, "Zapbot"), card(game, "Ninja Master")
    library = base_uid(game, "The Great Library")
    assert (zapbot, library) not in minion_plays(game)
    assert (zapbot, base_uid(game, "Factory 436-1337")) in minion_plays(game)
    assert (master, library) in minion_plays(game)  # another faction
    assert_refused(game, [f"m{zapbot}@{library}"])


def test_block_the_path_binds_its_own_player_and_ends_when_it_is_destroyed():
    s = scenario()
    s.hand(0, "Block the Path", "Gremlin", "Invader")
    game = s.build()
    gremlin, invader = card(game, "Gremlin"), card(game, "Invader")
    block(game, "The Great Library", "Tricksters")
    library = base_uid(game, "The Great Library")
    assert (gremlin, library) not in minion_plays(game) and (invader, library) in minion_plays(game)
    assert (gremlin, base_uid(game, "Factory 436-1337")) in minion_plays(game)
    assert_refused(game, [f"m{gremlin}@{library}"])
    # Destroyed, the path is open again.
    s2 = scenario(current=1)
    s2.hand(1, "Block the Path")
    s2.hand(0, "Disenchant", "Gremlin")
    game = s2.build()
    block(game, "The Great Library", "Tricksters")
    assert game.pending.seat == 0
    gremlin, library = card(game, "Gremlin"), base_uid(game, "The Great Library")
    assert (gremlin, library) not in minion_plays(game)
    choose(game, "Play Disenchant")  # the only action in play: destroyed at once
    assert (gremlin, library) in minion_plays(game)


def test_block_the_path_also_stops_specials_but_not_a_move():
    s = scenario()
    s.hand(0, "Block the Path")
    s.minion(SHIP, "King Rex", owner=1)
    s.minion(SHIP, "King Rex", owner=1)
    s.minion(SHIP, "Laseratops", owner=1)  # 18 of The Mothership's 20
    s.minion(FACTORY, "Ninja Acolyte", owner=1)
    s.hand(1, "Shinobi", "Way of Deception", "Zapbot")
    game = s.build()
    block(game, "The Mothership", "Ninjas")
    assert game.pending.seat == 1
    acolyte, ship = card(game, "Ninja Acolyte"), base_uid(game, "The Mothership")
    choose(game, "Play Way of Deception")  # a move is not a play: allowed
    choose(game, acolyte)
    choose(game, ship)
    assert game.loc[acolyte] == ("minion", ship)
    end_play(game)
    # The Mothership scores: Shinobi's Special (play it there) is not offered, so nobody is
    # asked about it.
    assert "The Mothership scores." in log(game)
    assert not any("Shinobi" in lbl for lbl in labels(game))
    assert game.loc[card(game, "Shinobi")] == ("hand", 1)


def test_mark_of_sleep_forbids_actions_during_that_players_next_turn_only():
    s = scenario()
    s.hand(0, "Mark of Sleep", "Invader")
    s.hand(1, "Seeing Stars", "Zapbot")
    game = s.build()
    choose(game, "Play Mark of Sleep")
    choose(game, "P1")
    # Still seat 0's turn: the mark has not started. Seat 0 has nothing left: seat 1's turn.
    play(game, "Invader", base="Factory 436-1337")
    assert game.pending.seat == 1
    stars = card(game, "Seeing Stars")
    assert stars not in option_cards(game)
    assert_refused(game, [f"a{stars}"])
    play(game, "Zapbot", base="Factory 436-1337")  # minions are fine
    # Nothing else seat 1 may play: its turn ended by itself. Then its next turn: actions again.
    assert game.pending.seat == 0
    end_play(game)
    assert game.pending.seat == 1 and stars in option_cards(game)
    assert not [e for e in game.lasting if e.kind == "cannot_play"]


def test_mark_of_sleep_on_yourself_is_your_next_turn_not_this_one():
    s = scenario()
    s.hand(0, "Mark of Sleep", "Disenchant", "Invader", "Take the Shinies")
    s.hand(1, "Zapbot")
    game = s.build()
    choose(game, "Play Mark of Sleep")
    choose(game, "P0")
    assert game.turn_state.grants == [g for g in game.turn_state.grants if g.kind == MINION]
    end_play(game)
    end_play(game)  # seat 1
    assert game.pending.seat == 0
    assert not [o for o in game.pending.options if o.id.startswith("a")]
