"""Every card of the Robots (Core Set), played through the engine.

Each test builds a position with `Scenario`, plays the card with the testing helpers and checks the
exact effect: the zone every card ends in, power, cards drawn and the events announced. The rulings
come from the catalog (smashup/cards/catalog/core.yaml, Robots: AEG's notes) and the rulebooks
("after this minion is destroyed" fires only for a destruction, not a return, a place or the
discard after scoring; a "may" is optional, anything else is mandatory).

Seat 1 always keeps a card it can play, so that when seat 0's turn ends the game stops at seat 1's
Play Cards decision.
"""
from __future__ import annotations

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
    labels,
    play,
    record_events,
)
from smashup.engine.testing import log_texts as log

from .quiet_scene import FILLER, quiet_scene

PLAYERS = [("Robots", "Dinosaurs"), ("Ninjas", "Aliens")]
DECK = ("Howl", "Upgrade", "Augmentation", "Rampage")  # seat 0's deck, top first
OASIS, FACTORY, SHIP = 0, 1, 2  # bases without an ability that interferes


def scenario(bases=("Jungle Oasis", "Factory 436-1337", "The Mothership"), deck=DECK):
    return quiet_scene(PLAYERS, bases, deck)


def kinds_for(events, cid) -> list[str]:
    return [e.kind for e in events if e.card == cid]


def option_cards(game) -> set[int]:
    return {o.card for o in game.pending.options if o.card is not None}


def hand_names(game, seat) -> list[str]:
    return [game.name(c) for c in game.players[seat].hand]


def at(game, seat, kind) -> bool:
    return game.pending is not None and (game.pending.seat, game.pending.kind) == (seat, kind)


def minion_plays(game) -> list[str]:
    return sorted({o.label for o in game.pending.options if o.id.startswith("m")})


# ====================================================================== the deck =============


def test_the_robot_deck_matches_the_catalog():
    expected = {
        "Nukebot": (MINION, 5, 1), "Warbot": (MINION, 4, 2), "Hoverbot": (MINION, 3, 3),
        "Zapbot": (MINION, 2, 4), "Microbot Alpha": (MINION, 1, 1),
        "Microbot Archive": (MINION, 1, 1), "Microbot Fixer": (MINION, 1, 2),
        "Microbot Guard": (MINION, 1, 2), "Microbot Reclaimer": (MINION, 1, 2),
        "Tech Center": (ACTION, 0, 2),
    }
    robots = REGISTRY.faction("Robots")
    assert {c.name: (c.kind, c.power, c.copies) for c in robots.cards} == expected
    deck = robots.deck()
    assert len(deck) == 20
    # The core-set exception: 18 minions and 2 actions (catalog).
    assert sum(c.is_minion for c in deck) == 18
    assert all(c.text for c in robots.cards)
    assert not any(c.attach for c in robots.cards)


# ====================================================================== Nukebot ==============


def nukebot_game(**kw):
    s = scenario(**kw)
    s.minion(OASIS, "Nukebot", owner=1)
    s.minion(OASIS, "Invader", owner=1)  # its controller's: spared
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(OASIS, "Zapbot", owner=0)
    s.minion(OASIS, "Warbot", owner=0)  # cannot be destroyed
    s.minion(FACTORY, "War Raptor", owner=0)  # another base: spared
    s.hand(0, "Natural Selection", "Microbot Guard")
    return s.build()


def test_nukebot_destroyed_destroys_every_minion_other_players_control_on_its_base():
    game = nukebot_game()
    nukebot, rex, zapbot = card(game, "Nukebot"), card(game, "King Rex"), card(game, "Zapbot")
    play(game, "Natural Selection")
    choose(game, rex)
    events = record_events(game)
    choose(game, nukebot)
    assert game.loc[nukebot] == ("discard", 1)
    assert game.loc[rex] == ("discard", 0) and game.loc[zapbot] == ("discard", 0)
    assert game.loc[card(game, "Warbot")][0] == "minion"
    assert game.loc[card(game, "Invader")][0] == "minion"
    assert game.loc[card(game, "War Raptor")][0] == "minion"
    destroyed = [e for e in events if e.kind == "destroyed"]
    assert [e.card for e in destroyed] == [nukebot, rex, zapbot]
    # Its last words: done by Nukebot, for its last controller (seat 1).
    assert [(e.by_card, e.by_player) for e in destroyed[1:]] == [(nukebot, 1)] * 2
    assert "King Rex is destroyed (Nukebot)." in log(game)


def test_nukebot_returned_to_hand_does_nothing():
    s = scenario()
    s.minion(OASIS, "Nukebot", owner=1)
    s.minion(OASIS, "King Rex", owner=0)
    s.hand(0, "Beam Up", "Microbot Guard")
    game = s.build()
    nukebot, rex = card(game, "Nukebot"), card(game, "King Rex")
    play(game, "Beam Up")
    choose(game, nukebot)
    assert game.loc[nukebot] == ("hand", 1)
    assert game.loc[rex][0] == "minion"


def test_nukebot_sent_to_the_deck_by_tar_pits_was_not_destroyed():
    s = scenario(bases=("Tar Pits", "Factory 436-1337"))
    s.minion(0, "Nukebot", owner=1)
    s.minion(0, "King Rex", owner=0)
    s.hand(0, "Natural Selection", "Microbot Guard")
    game = s.build()
    nukebot, rex = card(game, "Nukebot"), card(game, "King Rex")
    play(game, "Natural Selection")  # the Rex is the only hunter, the Nukebot its only prey
    assert game.players[1].deck[-1] == nukebot
    assert game.loc[rex][0] == "minion"


def test_nukebot_discarded_when_its_base_scores_does_nothing():
    s = scenario()
    s.minion(OASIS, "Nukebot", owner=1)
    s.minion(OASIS, "King Rex", owner=0)  # 12 on Jungle Oasis (12): it scores
    s.minion(FACTORY, "Zapbot", owner=0)
    s.hand(0, "Microbot Guard")
    game = s.build()
    events = record_events(game)
    end_play(game)
    assert game.loc[card(game, "Nukebot")] == ("discard", 1)
    assert game.loc[card(game, "Zapbot")][0] == "minion"
    assert "destroyed" not in [e.kind for e in events]


# ====================================================================== Warbot ===============


def test_warbot_cannot_be_destroyed_so_it_is_never_offered_to_destroy():
    # Issue 9: a choice offers only minions the effect could act on (the pipeline's protections).
    s = scenario()
    s.minion(OASIS, "Warbot", owner=1)
    s.hand(0, "Ninja Master", "Tech Center")
    game = s.build()
    warbot = card(game, "Warbot")
    events = record_events(game)
    play(game, "Ninja Master", base="Jungle Oasis")
    assert warbot not in [o.card for o in game.pending.options]  # only Ninja Master itself
    assert game.loc[warbot][0] == "minion"
    assert "destroyed" not in [e.kind for e in events]


def test_warbot_cannot_be_destroyed_on_tar_pits_and_is_not_sent_away():
    # The protection comes first: nothing "would be destroyed", so Tar Pits replaces nothing.
    s = scenario(bases=("Tar Pits", "Factory 436-1337"))
    s.minion(0, "Warbot", owner=1)
    s.hand(0, "Ninja Master", "Tech Center")
    game = s.build()
    warbot = card(game, "Warbot")
    play(game, "Ninja Master", base="Tar Pits")
    assert warbot not in [o.card for o in game.pending.options]
    assert game.loc[warbot] == ("minion", base_uid(game, "Tar Pits"))


def test_warbot_can_be_returned():
    s = scenario()
    s.minion(OASIS, "Warbot", owner=1)
    s.hand(0, "Beam Up", "Tech Center")
    game = s.build()
    warbot = card(game, "Warbot")
    play(game, "Beam Up")  # the only minion
    assert game.loc[warbot] == ("hand", 1)


def test_warbot_can_be_moved():
    s = scenario()
    s.minion(OASIS, "Warbot", owner=0)
    s.hand(0, "Way of Deception", "Tech Center")
    game = s.build()
    warbot = card(game, "Warbot")
    play(game, "Way of Deception")  # the only minion of yours
    choose(game, "Factory 436-1337")
    assert game.loc[warbot] == ("minion", base_uid(game, "Factory 436-1337"))


# ====================================================================== Hoverbot =============


def test_hoverbot_may_play_a_revealed_minion_from_the_top_of_the_deck_as_an_extra():
    s = scenario(deck=("Zapbot", "Howl"))
    s.hand(0, "Hoverbot", "Tech Center")
    game = s.build()
    zapbot = card(game, "Zapbot")
    play(game, "Hoverbot", base="Jungle Oasis")
    assert "P0 reveals the top card of their deck: Zapbot." in log(game)
    d = game.pending
    assert (d.kind, d.min_count) == ("base", 0)
    assert labels(game) == ["Jungle Oasis", "Factory 436-1337", "The Mothership"]
    assert_refused(game, ["b99"])
    events = record_events(game)
    choose(game, "Factory 436-1337")
    assert game.loc[zapbot] == ("minion", base_uid(game, "Factory 436-1337"))
    assert kinds_for(events, zapbot) == ["minion_played"]
    assert [(game.name(p.card), p.extra) for p in game.turn_state.plays] == [
        ("Hoverbot", False), ("Zapbot", True)]
    # The Zapbot's own on-play ability happened: an extra minion of power 2 or less is banked.
    assert "P0 may play an extra minion (Zapbot)." in log(game)


def test_hoverbot_does_not_offer_a_base_where_block_the_path_stops_the_revealed_minion():
    s = Scenario([("Robots", "Tricksters"), ("Ninjas", "Aliens")])
    for name in ("Jungle Oasis", "Factory 436-1337", "The Mothership"):
        s.base(name)
    s.hand(1, FILLER)
    s.deck(0, "Zapbot", "Howl")
    s.deck(1, *[FILLER] * 4)
    s.hand(0, "Block the Path", "Hoverbot", "Tech Center")
    game = s.build()
    choose(game, "Play Block the Path")
    choose(game, "Factory 436-1337")
    choose(game, "Robots")
    play(game, "Hoverbot", base="Jungle Oasis")
    assert labels(game) == ["Jungle Oasis", "The Mothership"]
    factory = base_uid(game, "Factory 436-1337")
    assert_refused(game, [f"b{factory}"])
    choose(game, "The Mothership")
    assert game.loc[card(game, "Zapbot")] == ("minion", base_uid(game, "The Mothership"))


def test_hoverbot_declined_leaves_the_minion_on_top():
    s = scenario(deck=("Zapbot", "Howl"))
    s.hand(0, "Hoverbot", "Tech Center")
    game = s.build()
    zapbot = card(game, "Zapbot")
    play(game, "Hoverbot", base="Jungle Oasis")
    decline(game)
    assert game.players[0].deck[0] == zapbot
    assert at(game, 0, "play")


def test_hoverbot_revealing_an_action_asks_nothing_and_leaves_it_on_top():
    s = scenario(deck=("Howl", "Zapbot"))
    s.hand(0, "Hoverbot", "Tech Center")
    game = s.build()
    howl = card(game, "Howl")
    events = record_events(game)
    play(game, "Hoverbot", base="Jungle Oasis")
    assert at(game, 0, "play")
    assert game.players[0].deck[0] == howl
    assert [e.kind for e in events] == ["minion_played"]


# ====================================================================== Zapbot ===============


def test_zapbot_grants_an_extra_minion_of_power_2_or_less():
    s = scenario()
    s.hand(0, "Zapbot", "Hoverbot", "Microbot Guard", "Tech Center")
    game = s.build()
    play(game, "Zapbot", base="Jungle Oasis")
    plays = minion_plays(game)
    assert any("Microbot Guard" in p for p in plays)
    assert not any("Hoverbot" in p for p in plays)
    hoverbot = card(game, "Hoverbot")
    assert_refused(game, [f"m{hoverbot}@{base_uid(game, 'Jungle Oasis')}"])
    play(game, "Microbot Guard", base="The Mothership")
    assert game.turn_state.plays[-1].extra


# ====================================================================== Microbot Alpha =======


def test_microbot_alpha_gets_1_power_for_each_of_your_other_minions_in_play():
    s = scenario()
    s.minion(OASIS, "Microbot Alpha", owner=0)
    s.minion(OASIS, "Microbot Guard", owner=0)
    s.minion(FACTORY, "Warbot", owner=0)  # counts as a Microbot with the Alpha in play
    s.minion(OASIS, "Microbot Guard", owner=1)  # another player's: no
    s.hand(0, "Microbot Alpha", "Tech Center")
    game = s.build()
    alpha = card(game, "Microbot Alpha", "minion")
    assert game.power(alpha) == 3
    assert game.power(card(game, "Microbot Alpha", "hand")) == 1  # only in play (AEG)
    assert game.power(card(game, "Warbot")) == 4


def test_a_fixer_tunes_your_other_minions_only_while_you_control_an_alpha():
    s = scenario()
    s.minion(OASIS, "Microbot Fixer", owner=0)
    s.minion(FACTORY, "Warbot", owner=0)
    s.minion(OASIS, "Microbot Alpha", owner=1)  # another player's Alpha: not yours
    game = s.build()
    assert game.power(card(game, "Warbot")) == 4
    s2 = scenario()
    s2.minion(OASIS, "Microbot Fixer", owner=0)
    s2.minion(FACTORY, "Warbot", owner=0)
    s2.minion(OASIS, "Microbot Alpha", owner=0)
    game = s2.build()
    warbot, alpha = card(game, "Warbot"), card(game, "Microbot Alpha")
    assert game.power(warbot) == 5
    # The Alpha leaves play: the Warbot is no Microbot any more, at once.
    game.move_card(alpha, ("discard", 0))
    assert game.power(warbot) == 4


def test_a_cancelled_alpha_makes_no_microbots():
    # WWWT "Cancel": a Microbot Alpha under Cuddle is as if its ability did not exist: a Fixer
    # tunes only Microbot cards and an Archive draws only for them.
    s = scenario()
    s.minion(OASIS, "Microbot Fixer", owner=0)
    s.minion(FACTORY, "Warbot", owner=0)
    s.minion(OASIS, "Microbot Alpha", owner=0, attached=[("Cuddle", 1)])
    s.minion(OASIS, "Microbot Guard", owner=0)
    game = s.build()
    warbot, alpha, guard = card(game, "Warbot"), card(game, "Microbot Alpha"), card(game, "Microbot Guard")
    assert not game.ability_active(alpha)
    assert game.power(warbot) == 4  # no Microbot: the Fixer's +1 does not reach it
    assert game.power(guard) == 2  # a Microbot card: tuned
    assert game.power(alpha) == 2  # its own name makes it a Microbot; its bonus is cancelled
    s = scenario()
    s.minion(OASIS, "Microbot Archive", owner=0)
    s.minion(OASIS, "Zapbot", owner=0)
    s.minion(FACTORY, "Microbot Alpha", owner=0, attached=[("Cuddle", 1)])
    s.hand(0, "Laseratops", "Tech Center")
    game = s.build()
    play(game, "Laseratops", base="Jungle Oasis")
    choose(game, card(game, "Zapbot"))
    assert hand_names(game, 0) == ["Tech Center"]  # a Zapbot is no Microbot: no draw


# ====================================================================== Microbot Archive =====


def archive_game(*minions, alpha=False):
    s = scenario()
    s.minion(OASIS, "Microbot Archive", owner=0)
    for name, owner in minions:
        s.minion(OASIS, name, owner=owner)
    if alpha:
        s.minion(FACTORY, "Microbot Alpha", owner=0)
    s.hand(0, "Laseratops", "Tech Center")
    return s.build()


def test_microbot_archive_draws_when_one_of_your_microbots_is_destroyed():
    game = archive_game(("Microbot Guard", 0), ("Microbot Guard", 1))
    mine, theirs = find_cards(game, "Microbot Guard")
    play(game, "Laseratops", base="Jungle Oasis")
    choose(game, mine)
    assert hand_names(game, 0) == ["Tech Center", "Howl"]


def test_microbot_archive_draws_when_it_is_destroyed_itself():
    game = archive_game(("Microbot Guard", 1))
    archive = card(game, "Microbot Archive")
    play(game, "Laseratops", base="Jungle Oasis")
    choose(game, archive)
    assert game.loc[archive] == ("discard", 0)
    assert hand_names(game, 0) == ["Tech Center", "Howl"]


def test_microbot_archive_ignores_other_players_microbots_and_your_other_minions():
    game = archive_game(("Microbot Guard", 1), ("Zapbot", 0))
    theirs, zapbot = card(game, "Microbot Guard"), card(game, "Zapbot")
    play(game, "Laseratops", base="Jungle Oasis")
    choose(game, theirs)
    assert hand_names(game, 0) == ["Tech Center"]
    game = archive_game(("Microbot Guard", 1), ("Zapbot", 0))
    zapbot = card(game, "Zapbot")
    play(game, "Laseratops", base="Jungle Oasis")
    choose(game, zapbot)
    assert hand_names(game, 0) == ["Tech Center"]


def test_microbot_archive_with_the_alpha_draws_for_any_of_your_minions():
    game = archive_game(("Zapbot", 0), alpha=True)
    zapbot = card(game, "Zapbot")
    play(game, "Laseratops", base="Jungle Oasis")
    choose(game, zapbot)
    assert hand_names(game, 0) == ["Tech Center", "Howl"]


def test_microbot_archive_does_not_draw_for_a_microbot_returned_to_hand():
    s = scenario()
    s.minion(OASIS, "Microbot Archive", owner=0)
    s.minion(OASIS, "Microbot Guard", owner=0)
    s.hand(0, "Beam Up", "Tech Center")
    game = s.build()
    guard = card(game, "Microbot Guard")
    play(game, "Beam Up")
    choose(game, guard)
    assert hand_names(game, 0) == ["Tech Center", "Microbot Guard"]


# ====================================================================== Microbot Fixer =======


def test_microbot_fixer_played_first_grants_an_extra_minion():
    s = scenario()
    s.hand(0, "Microbot Fixer", "Warbot", "Tech Center")
    game = s.build()
    play(game, "Microbot Fixer", base="Jungle Oasis")
    assert "P0 may play an extra minion (Microbot Fixer)." in log(game)
    play(game, "Warbot", base="Jungle Oasis")
    assert game.turn_state.plays[-1].extra


def test_microbot_fixer_played_second_grants_nothing():
    s = scenario()
    s.hand(0, "Zapbot", "Microbot Fixer", "Warbot", "Tech Center")
    game = s.build()
    play(game, "Zapbot", base="Jungle Oasis")
    play(game, "Microbot Fixer", base="Jungle Oasis")  # Zapbot's extra
    assert "P0 may play an extra minion (Microbot Fixer)." not in log(game)
    assert minion_plays(game) == []


def test_microbot_fixer_returned_and_played_again_is_not_the_first_minion_any_more():
    s = scenario()
    s.hand(0, "Microbot Fixer", "Beam Up", "Zapbot")
    game = s.build()
    fixer = card(game, "Microbot Fixer")
    play(game, "Microbot Fixer", base="Jungle Oasis")  # first: an extra minion is banked
    play(game, "Beam Up")  # the Fixer is the only minion: back to hand
    assert game.loc[fixer] == ("hand", 0)
    play(game, "Microbot Fixer", base="Jungle Oasis")  # the extra; now the second minion played
    assert log(game).count("P0 may play an extra minion (Microbot Fixer).") == 1
    assert at(game, 1, "play")  # no extra left for the Zapbot: the turn went on


def test_microbot_fixers_give_each_of_your_microbots_1_power_each():
    s = scenario()
    s.minion(OASIS, "Microbot Fixer", owner=0)
    s.minion(OASIS, "Microbot Guard", owner=0)
    s.minion(OASIS, "Zapbot", owner=0)  # not a Microbot without the Alpha
    s.minion(OASIS, "Microbot Guard", owner=1)  # another player's
    s.hand(0, "Microbot Fixer", "Microbot Alpha", "Tech Center")
    game = s.build()
    fixer = card(game, "Microbot Fixer", "minion")
    mine, theirs = find_cards(game, "Microbot Guard")
    zapbot = card(game, "Zapbot")
    assert [game.power(m) for m in (fixer, mine, zapbot, theirs)] == [2, 2, 2, 1]
    play(game, "Microbot Fixer", base="Factory 436-1337")  # first minion: an extra follows
    second = card(game, "Microbot Fixer", "minion", 1)
    assert [game.power(m) for m in (fixer, second, mine, zapbot, theirs)] == [3, 3, 3, 2, 1]
    play(game, "Microbot Alpha", base="Factory 436-1337")
    # With the Alpha every minion of yours is a Microbot: the Zapbot gets +2 too.
    assert game.power(zapbot) == 4
    assert game.power(theirs) == 1



def play_as_action(game, name, base_name):
    """Play a minion from the hand with the action play (Argonaut's Special)."""
    cid = next(c for c in game.players[game.pending.seat].hand if game.name(c) == name)
    uid = base_uid(game, base_name)
    [opt] = [o for o in game.pending.options
             if o.card == cid and o.base == uid and "as an action" in o.label]
    game.apply(game.pending.seat, game.pending.id, [opt.id])


def test_microbot_fixer_after_a_minion_played_as_an_action_is_not_the_first():
    # Issue 24, mechanism 4: an Argonaut played with the action play is the turn's first minion.
    s = scenario()
    s.hand(0, "Argonaut", "Microbot Fixer", "Microbot Reclaimer", "Tech Center")
    game = s.build()
    play_as_action(game, "Argonaut", "Jungle Oasis")
    play(game, "Microbot Fixer", base="Jungle Oasis")
    assert "P0 may play an extra minion (Microbot Fixer)." not in log(game)
    # No extra: the minion play is spent, so the turn went on without the Reclaimer.
    assert at(game, 1, "play") and game.loc[card(game, "Microbot Reclaimer")] == ("hand", 0)

# ====================================================================== Microbot Guard =======


def test_microbot_guard_destroys_a_minion_weaker_than_your_minion_count_here():
    s = scenario()
    s.minion(OASIS, "Zapbot", owner=0)
    s.minion(OASIS, "Warbot", owner=0)
    s.minion(OASIS, "Collector", owner=1)  # 2 < 3
    s.minion(OASIS, "Collector", owner=1)  # alike
    s.minion(OASIS, "Invader", owner=1)  # 3: no
    s.minion(FACTORY, "Collector", owner=1)  # elsewhere: no
    s.hand(0, "Microbot Guard", "Tech Center")
    game = s.build()
    here, _, elsewhere = find_cards(game, "Collector")
    zapbot = card(game, "Zapbot")
    play(game, "Microbot Guard", base="Jungle Oasis")
    guard = card(game, "Microbot Guard", "minion")
    d = game.pending
    assert (d.kind, d.min_count) == ("target", 1)  # mandatory
    assert "less than 3" in d.prompt
    assert option_cards(game) == {here, zapbot, guard}
    assert len(set(labels(game))) == 3
    assert_refused(game, [f"m{card(game, 'Invader')}"])
    assert_refused(game, [f"m{elsewhere}"])
    assert_refused(game, [])
    events = record_events(game)
    choose(game, here)
    assert game.loc[here] == ("discard", 1)
    assert kinds_for(events, here) == ["destroyed"]


def test_microbot_guard_must_destroy_itself_when_it_is_the_only_choice():
    s = scenario()
    s.minion(OASIS, "Warbot", owner=0)
    s.minion(OASIS, "Invader", owner=1)
    s.hand(0, "Microbot Guard", "Tech Center")
    game = s.build()
    play(game, "Microbot Guard", base="Jungle Oasis")
    guard = card(game, "Microbot Guard")
    assert game.loc[guard] == ("discard", 0)


def test_microbot_guard_with_nothing_weak_enough_asks_nothing():
    s = scenario()
    s.minion(OASIS, "Invader", owner=1)
    s.hand(0, "Microbot Guard", "Tech Center")
    game = s.build()
    events = record_events(game)
    play(game, "Microbot Guard", base="Jungle Oasis")  # 1 minion: power less than 1
    assert at(game, 0, "play")
    assert [e.kind for e in events] == ["minion_played"]


# ====================================================================== Microbot Reclaimer ===


def reclaimer_game(**kw):
    s = scenario()
    s.discard(0, "Microbot Guard", "Microbot Guard", "Microbot Alpha", "Zapbot")
    s.minion(FACTORY, "Microbot Alpha", owner=0)  # makes minions in play Microbots, not in the pile
    s.hand(0, "Microbot Reclaimer", "Warbot")
    if kw.get("second"):
        s.hand(0, "Zapbot")
    else:
        s.hand(0, "Tech Center")
    return s.build()


def test_microbot_reclaimer_grants_an_extra_and_shuffles_chosen_microbots_into_the_deck():
    game = reclaimer_game()
    guards = find_cards(game, "Microbot Guard")
    alpha = card(game, "Microbot Alpha", "discard")
    play(game, "Microbot Reclaimer", base="Jungle Oasis")
    assert "P0 may play an extra minion (Microbot Reclaimer)." in log(game)
    d = game.pending
    assert (d.kind, d.min_count, d.max_count) == ("cards", 0, 1)
    # Alike copies are one option; the Zapbot is no Microbot in the discard pile (AEG).
    assert option_cards(game) == {guards[0], alpha}
    assert sorted(labels(game)) == ["Microbot Alpha", "Microbot Guard"]
    assert_refused(game, [f"c{card(game, 'Zapbot', 'discard')}"])
    assert_refused(game, [f"c{guards[1]}"])  # the alike copy is not offered twice
    choose(game, guards[0])
    assert option_cards(game) == {guards[1], alpha}
    assert "1 chosen so far" in game.pending.prompt
    choose(game, guards[1])
    assert option_cards(game) == {alpha}
    events = record_events(game)
    decline(game)
    assert [game.loc[g] for g in guards] == [("deck", 0)] * 2
    assert game.loc[alpha] == ("discard", 0)
    assert [(e.kind, e.data.get("shuffled")) for e in events if e.card in guards] == [
        ("placed", True)] * 2
    assert len(game.players[0].deck) == len(DECK) + 2
    play(game, "Warbot", base="Jungle Oasis")  # the extra minion
    assert game.turn_state.plays[-1].extra


def test_microbot_reclaimer_may_shuffle_nothing():
    game = reclaimer_game()
    play(game, "Microbot Reclaimer", base="Jungle Oasis")
    decline(game)
    assert len(game.players[0].discard) == 4
    assert at(game, 0, "play")
    assert [o.label for o in game.pending.options if o.id.startswith("m")][0].startswith(
        "Play Warbot")


def test_microbot_reclaimer_played_second_grants_no_extra():
    game = reclaimer_game(second=True)
    play(game, "Zapbot", base="Jungle Oasis")
    play(game, "Microbot Reclaimer", base="Jungle Oasis")  # the Zapbot's extra
    assert "P0 may play an extra minion (Microbot Reclaimer)." not in log(game)
    decline(game)
    assert not at(game, 0, "play")  # nothing left to play: the turn went on


# ====================================================================== Tech Center ==========


def test_tech_center_draws_a_card_for_each_of_your_minions_on_the_chosen_base():
    s = scenario()
    s.minion(OASIS, "Zapbot", owner=0)
    s.minion(OASIS, "Warbot", owner=0)
    s.minion(OASIS, "Invader", owner=1)
    s.minion(FACTORY, "Hoverbot", owner=0)
    s.hand(0, "Tech Center", "Zapbot")
    game = s.build()
    play(game, "Tech Center")
    assert labels(game) == ["Jungle Oasis", "Factory 436-1337", "The Mothership"]
    assert_refused(game, [])
    choose(game, "Jungle Oasis")
    assert hand_names(game, 0) == ["Zapbot", "Howl", "Upgrade"]


def test_tech_center_on_a_base_without_your_minions_draws_nothing():
    s = scenario()
    s.minion(OASIS, "Invader", owner=1)
    s.hand(0, "Tech Center", "Zapbot")
    game = s.build()
    play(game, "Tech Center")
    choose(game, "The Mothership")
    assert hand_names(game, 0) == ["Zapbot"]
