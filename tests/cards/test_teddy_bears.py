"""Every card of the Teddy Bears (What Were We Thinking?), played through the engine.

Each test builds a position with `Scenario`, plays the card with the testing helpers and checks the
exact effect: zones, power, counters, cards drawn, what is offered and what is refused. The rulings
come from the catalog (smashup/cards/catalog/wwwt.yaml, Teddy Bears) and the WWWT rulebook's
clarifications (Bear Picnic, Group Hug, Lovey Bear, Snuggly Bear; a "may" is optional, anything else
is mandatory).

Bases: Jungle Oasis (breakpoint 12), The Mothership (20) and Factory 436-1337 (25); none acts
before it scores. Seat 1 always keeps a card it can play, so that when seat 0's turn ends the game
stops at seat 1's Play Cards decision.
"""
from __future__ import annotations

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import ACTION, MINION, REGISTRY
from smashup.engine.core import Play
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
    record_events,
    where,
)

from .deep_scene import deep_game, deep_may_destroy_the_invader
from .quiet_scene import FILLER, QUIET_BASES, quiet_scene

PLAYERS = [("Teddy Bears", "Dinosaurs"), ("Ninjas", "Aliens")]
DECK_FILLER = "Howl"  # seat 0's next draws
OASIS, SHIP, FACTORY = 0, 1, 2


def scenario(bases=QUIET_BASES, deck=None):
    return quiet_scene(PLAYERS, bases, deck if deck is not None else [DECK_FILLER] * 4)


def counters(game, cid) -> int:
    return game.minion_state[cid].counters


# ====================================================================== the deck =============


def test_the_teddy_bear_deck_matches_the_catalog():
    expected = {
        "Sir Squeezes": (MINION, 5, 1), "Fun Bear": (MINION, 2, 2),
        "Lovey Bear": (MINION, 3, 3), "Snuggly Bear": (MINION, 1, 4),
        "Bear Picnic": (ACTION, 0, 1), "Care Package": (ACTION, 0, 2), "Cuddle": (ACTION, 0, 2),
        "Group Hug": (ACTION, 0, 1), "Love Overload": (ACTION, 0, 1),
        "Square Deal": (ACTION, 0, 1), "Tea Party": (ACTION, 0, 1), "Too Cute": (ACTION, 0, 1),
    }
    faction = REGISTRY.faction("Teddy Bears")
    assert {c.name: (c.kind, c.power, c.copies) for c in faction.cards} == expected
    deck = faction.deck()
    assert len(deck) == 20 and sum(c.is_minion for c in deck) == 10
    assert sum(c.power for c in deck) == 22  # catalog note: unusually low total power
    assert all(c.text and c.set == "wwwt" for c in faction.cards)
    assert {c.name for c in faction.cards if c.attach == "base"} == {
        "Bear Picnic", "Tea Party", "Too Cute"}
    assert {c.name for c in faction.cards if c.attach == "minion"} == {"Cuddle"}


# ====================================================================== Sir Squeezes =========


def test_sir_squeezes_brings_minions_here_within_a_combined_power_of_five():
    s = scenario()
    s.hand(0, "Sir Squeezes", "Lovey Bear", "Fun Bear", "Snuggly Bear", "King Rex", "Howl")
    game = s.build()
    play(game, "Sir Squeezes", base="The Mothership")
    # Power 3 or less, only here: King Rex (7) is not offered, nor another base.
    assert sorted(labels(game)) == ["Fun Bear on The Mothership", "Lovey Bear on The Mothership",
                                    "Snuggly Bear on The Mothership"]
    assert_refused(game, [f"m{card(game, 'King Rex')}@{base_uid(game, 'The Mothership')}"])
    assert_refused(game, [f"m{card(game, 'Lovey Bear')}@{base_uid(game, 'Jungle Oasis')}"])
    choose(game, "Lovey Bear on The Mothership")
    # 2 of the budget left: Lovey Bear's 3 fits no more.
    assert sorted(labels(game)) == ["Fun Bear on The Mothership", "Snuggly Bear on The Mothership"]
    choose(game, "Fun Bear on The Mothership")
    # 5 used up: nothing more is asked (Snuggly Bear's 1 would exceed it).
    assert game.pending.kind != "extra"
    assert [where(game, card(game, n)) for n in ("Sir Squeezes", "Lovey Bear", "Fun Bear")] == [
        "The Mothership"] * 3
    assert game.loc[card(game, "Snuggly Bear")] == ("hand", 0)


def test_sir_squeezes_brings_at_most_three_minions():
    s = scenario()
    s.hand(0, "Sir Squeezes", "Snuggly Bear", "Snuggly Bear", "Snuggly Bear", "Snuggly Bear")
    game = s.build()
    play(game, "Sir Squeezes", base="Jungle Oasis")
    for _ in range(3):
        choose(game, "Snuggly Bear on Jungle Oasis")
    # Three extra minions: the fourth Snuggly Bear stays (its own Special may still follow
    # the turn's first minion, Sir Squeezes).
    assert len(find_cards(game, "Snuggly Bear", "minion")) == 3
    assert game.pending.kind != "extra"
    assert len(find_cards(game, "Snuggly Bear", "hand")) == 1


def test_sir_squeezes_may_bring_none_and_the_extras_are_not_the_turns_minion():
    s = scenario()
    s.hand(0, "Sir Squeezes", "Fun Bear", "Howl")
    game = s.build()
    play(game, "Sir Squeezes", base="Jungle Oasis")
    decline(game)
    assert game.loc[card(game, "Fun Bear")] == ("hand", 0)
    assert labels(game) == ["Play Howl", "End the Play Cards phase"]

    s = scenario()
    s.hand(0, "Sir Squeezes", "Fun Bear", "Lovey Bear")
    game = s.build()
    play(game, "Sir Squeezes", base="Jungle Oasis")
    choose(game, "Fun Bear on Jungle Oasis")
    decline(game)
    # The extras were extras: the turn's minion was Sir Squeezes, none is left.
    assert not any("Lovey Bear" in label for label in labels(game))


# ====================================================================== Fun Bear =============


def fun_bear_game(hand1=(FILLER,)):
    s = scenario()
    s.minion(SHIP, "Fun Bear", owner=0)
    s.minion(OASIS, "Invader", owner=1)
    s.hand(0, "Howl")
    s.hand(1, *hand1)
    return s


def test_fun_bear_may_take_a_counter_after_another_player_plays_a_minion_here():
    s = fun_bear_game(hand1=("Tiger Assassin",))
    s.turn(current=1)
    game = s.build()
    bear = card(game, "Fun Bear")
    events = record_events(game)
    play(game, "Tiger Assassin", base="The Mothership")
    # The Tiger Assassin's own "may" first (its ability), then Fun Bear's question to seat 0.
    while game.pending.seat == 1 and game.pending.kind != "confirm":
        decline(game)
    assert game.pending.seat == 0 and game.pending.kind == "confirm"
    choose(game, "yes")
    assert counters(game, bear) == 1 and game.power(bear) == 3
    assert any(e.kind == "counters_changed" and e.card == bear for e in events)


def test_fun_bear_may_decline_and_ignores_plays_elsewhere_and_its_controllers_own():
    s = fun_bear_game(hand1=("Tiger Assassin",))
    s.turn(current=1)
    game = s.build()
    play(game, "Tiger Assassin", base="The Mothership")
    while game.pending.seat == 1 and game.pending.kind != "confirm":
        decline(game)
    choose(game, "no")
    assert counters(game, card(game, "Fun Bear")) == 0

    s = fun_bear_game(hand1=("Tiger Assassin",))
    s.turn(current=1)
    game = s.build()
    play(game, "Tiger Assassin", base="Jungle Oasis")
    while game.pending.seat == 1 and game.pending.kind != "play":
        decline(game)
    assert counters(game, card(game, "Fun Bear")) == 0

    s = fun_bear_game()
    s.hand(0, "Lovey Bear")
    game = s.build()
    play(game, "Lovey Bear", base="The Mothership")  # Fun Bear's own player: not "another"
    assert game.pending.kind == "play"
    assert counters(game, card(game, "Fun Bear")) == 0


def test_fun_bear_counts_a_minion_another_player_moves_here_but_not_one_you_move():
    s = fun_bear_game(hand1=("Invasion",))  # Aliens: move a minion to another base
    s.turn(current=1)
    game = s.build()
    bear = card(game, "Fun Bear")
    play(game, "Invasion")
    choose(game, card(game, "Invader"))
    choose(game, "The Mothership")
    assert game.pending.seat == 0 and game.pending.kind == "confirm"
    choose(game, "yes")
    assert counters(game, bear) == 1

    s = fun_bear_game()
    s.hand(0, "Full Sail")  # moving your own minion there: you are not "another player"
    s.minion(OASIS, "Lovey Bear", owner=0)
    game = s.build()
    play(game, "Full Sail")
    choose(game, card(game, "Lovey Bear"))
    choose(game, "The Mothership")
    decline(game)
    assert game.pending.kind == "play" and counters(game, card(game, "Fun Bear")) == 0


# ====================================================================== Lovey Bear ===========


def test_lovey_bear_starts_at_the_highest_printed_power_of_other_players_minions_here():
    s = scenario()
    s.minion(FACTORY, "Lovey Bear", owner=0, counters=1)
    s.minion(FACTORY, "King Rex", owner=1)  # printed 7
    s.minion(FACTORY, "Invader", owner=1)
    s.minion(FACTORY, "Sir Squeezes", owner=0)  # yours: does not count
    s.minion(OASIS, "Lovey Bear", owner=0)
    s.minion(OASIS, "Ninja Acolyte", owner=1)  # 2 < 3: nothing changes
    s.hand(0, "Howl")
    game = s.build()
    on_factory, on_oasis = find_cards(game, "Lovey Bear", "minion")
    if where(game, on_factory) != "Factory 436-1337":
        on_factory, on_oasis = on_oasis, on_factory
    # 7, then its counter on top.
    assert game.power(on_factory) == 8
    assert game.power(on_oasis) == 3


def test_lovey_bear_reads_printed_power_and_modifiers_count_on_top():
    s = scenario()
    s.minion(FACTORY, "Lovey Bear", owner=0)
    s.minion(FACTORY, "Invader", owner=1, attached=[("Poison", 0)])  # printed 3, now 0
    s.minion(FACTORY, "Tiger Assassin", owner=1)  # printed 4
    s.hand(0, "Howl", "Fun Bear")
    game = s.build()
    bear = card(game, "Lovey Bear")
    assert game.power(bear) == 4
    play(game, "Howl")  # your minions +1 until the end of the turn
    assert game.power(bear) == 5


def test_lovey_bear_follows_the_minions_here_as_they_come_and_go():
    s = scenario()
    s.minion(FACTORY, "Lovey Bear", owner=0)
    s.minion(OASIS, "King Rex", owner=1)
    s.turn(current=1)
    s.hand(1, "Invasion", "Tiger Assassin")
    game = s.build()
    bear = card(game, "Lovey Bear")
    assert game.power(bear) == 3
    play(game, "Invasion")  # seat 1 moves King Rex over to the bear
    choose(game, card(game, "King Rex"))
    choose(game, "Factory 436-1337")
    assert game.power(bear) == 7


# ====================================================================== Snuggly Bear =========


def test_snuggly_bears_follow_your_first_minion_onto_its_base():
    s = scenario()
    s.hand(0, "War Raptor", "Snuggly Bear", "Snuggly Bear", "Howl")
    game = s.build()
    play(game, "War Raptor", base="The Mothership")
    assert game.pending.kind == "special" and game.pending.seat == 0
    assert labels(game) == ["Play Snuggly Bear on the same base as an extra minion", "Pass"]
    choose(game, "Play Snuggly Bear")
    # WWWT clarification: several Snuggly Bears may follow the same first minion.
    assert labels(game) == ["Play Snuggly Bear on the same base as an extra minion", "Pass"]
    choose(game, "Play Snuggly Bear")
    assert [where(game, c) for c in find_cards(game, "Snuggly Bear")] == ["The Mothership"] * 2
    # Extras: the turn's minion was War Raptor; the action play is still there.
    assert labels(game) == ["Play Howl", "End the Play Cards phase"]


def test_snuggly_bear_may_pass_and_answers_only_the_first_minion():
    s = scenario()
    s.hand(0, "War Raptor", "Snuggly Bear", "Snuggly Bear", "Care Package")
    game = s.build()
    play(game, "War Raptor", base="The Mothership")
    choose(game, "Pass")
    assert len(find_cards(game, "Snuggly Bear", "hand")) == 2
    play(game, "Care Package")  # an extra minion: the second minion of the turn
    play(game, "Snuggly Bear", base="Jungle Oasis")
    # The second minion is not the first: the other Snuggly Bear has nothing to answer.
    assert game.pending.kind != "special"
    assert len(find_cards(game, "Snuggly Bear", "hand")) == 1


def test_snuggly_bear_does_not_answer_another_players_minion():
    s = scenario()
    s.turn(current=1)
    s.hand(1, "Invader")
    s.hand(0, "Snuggly Bear")
    game = s.build()
    play(game, "Invader", base="The Mothership")
    # Seat 1's turn ended with no question to seat 0 on the way.
    assert game.pending.seat == 0 and game.pending.kind == "play"
    assert game.loc[card(game, "Snuggly Bear")] == ("hand", 0)


def test_snuggly_bear_is_not_offered_where_it_could_not_be_played():
    s = scenario()
    s.base_action(SHIP, "Block the Path", owner=1)
    s.hand(0, "War Raptor", "Snuggly Bear", "Howl")
    game = s.build()
    # Block the Path remembers the faction it names: the Teddy Bears.
    game.action_state[card(game, "Block the Path")].memory["faction"] = "Teddy Bears"
    play(game, "War Raptor", base="The Mothership")
    assert game.pending.kind == "play"
    assert game.loc[card(game, "Snuggly Bear")] == ("hand", 0)


def play_as_action(game, name, base_name):
    """Play a minion from the hand with the action play (Argonaut's Special)."""
    cid = next(c for c in game.players[game.pending.seat].hand if game.name(c) == name)
    uid = base_uid(game, base_name)
    [opt] = [o for o in game.pending.options
             if o.card == cid and o.base == uid and "as an action" in o.label]
    game.apply(game.pending.seat, game.pending.id, [opt.id])


def test_snuggly_bear_follows_a_first_minion_played_as_an_action():
    # Issue 24, mechanism 4: an Argonaut played with the action play is still a minion played,
    # the turn's first one: Snuggly Bear may follow it.
    s = scenario()
    s.hand(0, "Argonaut", "Snuggly Bear", "Howl")
    game = s.build()
    play_as_action(game, "Argonaut", "The Mothership")
    assert game.pending.kind == "special" and game.pending.seat == 0
    assert "Play Snuggly Bear on the same base as an extra minion" in labels(game)
    choose(game, "Play Snuggly Bear")
    assert game.loc[card(game, "Snuggly Bear")] == ("minion", base_uid(game, "The Mothership"))

# ====================================================================== Bear Picnic ==========


def picnic_game(hand1=("Ninja Acolyte", "Collector", "Tiger Assassin")):
    s = scenario()
    s.base_action(SHIP, "Bear Picnic", owner=0)
    s.hand(0, "Howl")
    s.turn(current=1)
    for name in hand1:
        s.hand(1, name)
    return s


def minion_plays(game):
    return sorted(label for label in labels(game) if " on " in label)


def test_bear_picnic_keeps_other_players_small_minions_on_its_base():
    game = picnic_game().build()
    # Collector (2) and Ninja Acolyte (2): only here; Tiger Assassin (4): anywhere.
    plays = minion_plays(game)
    assert "Play Collector on The Mothership" in plays
    assert "Play Ninja Acolyte on The Mothership" in plays
    assert not any(p.startswith("Play Collector") and "Mothership" not in p for p in plays)
    assert "Play Tiger Assassin on Jungle Oasis" in plays
    acolyte = card(game, "Ninja Acolyte", "hand")
    assert_refused(game, [f"m{acolyte}@{base_uid(game, 'Jungle Oasis')}"])
    play(game, "Ninja Acolyte", base="The Mothership")
    assert where(game, acolyte) == "The Mothership"


def test_bear_picnic_does_not_bind_its_own_player():
    s = scenario()
    s.base_action(SHIP, "Bear Picnic", owner=0)
    s.hand(0, "Snuggly Bear", "Howl")
    game = s.build()
    play(game, "Snuggly Bear", base="Jungle Oasis")
    assert where(game, card(game, "Snuggly Bear")) == "Jungle Oasis"


def bases_for(game, seat, name) -> list[str]:
    """Where `seat` may play its card `name` now, read from the play-legality generator."""
    return sorted({game.base_name(p.base) for p in game.legal_plays(seat)
                   if game.name(p.card) == name and p.base is not None})


def test_bear_picnic_lets_them_go_elsewhere_when_they_cannot_be_played_on_its_base():
    s = picnic_game()
    s.base_action(SHIP, "Block the Path", owner=0)
    game = s.build()
    # Block the Path names a faction when played: here the Ninjas.
    game.action_state[card(game, "Block the Path")].memory["faction"] = "Ninjas"
    game.changed()
    # The Acolyte (a Ninja) may not go to the Mothership, so the Picnic does not hold it; the
    # Collector (an Alien) still could, so it must.
    assert bases_for(game, 1, "Ninja Acolyte") == ["Factory 436-1337", "Jungle Oasis"]
    assert bases_for(game, 1, "Collector") == ["The Mothership"]


def test_bear_picnic_does_not_stop_a_minion_owned_by_someone_else():
    # Rulebook: it does not stop the play of other players' minions (Trade). Seat 1 holds a
    # minion seat 0 owns: it may go anywhere; its own Collector may not.
    game = picnic_game().build()
    assert bases_for(game, 1, "Ninja Acolyte") == ["The Mothership"]
    game.owner[card(game, "Ninja Acolyte", "hand")] = 0
    assert bases_for(game, 1, "Ninja Acolyte") == [
        "Factory 436-1337", "Jungle Oasis", "The Mothership"]
    assert bases_for(game, 1, "Collector") == ["The Mothership"]


def picnic_disagreements(game, seat):
    """The plays of `seat`'s hand (as a minion, onto every base and none) where the main
    decision's barrier, which asks Bear Picnic once per card for every other base
    (`restriction(elsewhere=True)`), answers otherwise than `forbids`, which asks it of each
    play; and the plays it forbids."""
    barrier = game.play_barriers(seat)
    wrong, forbidden = [], []
    for cid in game.players[seat].hand:
        for uid in [s.uid for s in game.bases] + [None]:
            p = Play(seat, cid, MINION, "hand", uid)
            says = barrier is not None and barrier[0](p)
            if bool(says) != bool(game.forbids(p)):
                wrong.append(p)
            if says:
                forbidden.append(p)
    return wrong, forbidden


def test_bear_picnic_is_asked_once_per_card_and_answers_as_forbids_for_every_base():
    s = picnic_game()
    s.base_action(SHIP, "Block the Path", owner=0)
    game = s.build()
    assert game.defs[card(game, "Bear Picnic")].restrictions_elsewhere
    game.action_state[card(game, "Block the Path")].memory["faction"] = "Ninjas"
    game.changed()
    wrong, forbidden = picnic_disagreements(game, 1)
    assert wrong == []
    # The Collector is held on the Mothership: its plays elsewhere are barred; the Acolyte (which
    # Block the Path keeps off the Mothership) is free to go elsewhere.
    collector, acolyte = card(game, "Collector", "hand"), card(game, "Ninja Acolyte", "hand")
    names = {p.card: {game.base_name(q.base) for q in forbidden if q.card == p.card}
             for p in forbidden}
    assert names[collector] == {"Jungle Oasis", "Factory 436-1337"}
    assert names[acolyte] == {"The Mothership"}
    assert game.play_barriers(1)[1] is None  # every base may be barred, not only its own


def test_bear_picnic_answers_afresh_in_the_next_question():
    # An answer is kept for one question only: once the Collector may not go to the Mothership
    # any more, the next question lets it go anywhere.
    s = picnic_game()
    s.base_action(SHIP, "Block the Path", owner=0)
    game = s.build()
    path = game.action_state[card(game, "Block the Path")]
    path.memory["faction"] = "Ninjas"
    game.changed()
    assert bases_for(game, 1, "Collector") == ["The Mothership"]
    assert picnic_disagreements(game, 1)[0] == []
    path.memory["faction"] = "Aliens"
    game.changed()
    assert bases_for(game, 1, "Collector") == ["Factory 436-1337", "Jungle Oasis"]
    assert bases_for(game, 1, "Ninja Acolyte") == ["The Mothership"]
    assert picnic_disagreements(game, 1)[0] == []


# ====================================================================== Care Package =========


def test_care_package_draws_a_card_and_grants_an_extra_minion():
    s = scenario(deck=["Lovey Bear", "Howl"])
    s.hand(0, "Care Package", "Fun Bear")
    game = s.build()
    play(game, "Care Package")
    assert hand_names(game) == ["Fun Bear", "Lovey Bear"]
    play(game, "Fun Bear", base="Jungle Oasis")
    play(game, "Lovey Bear", base="Jungle Oasis")
    assert len(find_cards(game, "Fun Bear", "minion") + find_cards(game, "Lovey Bear",
                                                                     "minion")) == 2


def test_care_package_with_an_empty_deck_still_grants_the_minion():
    s = scenario(deck=[])
    s.hand(0, "Care Package", "Fun Bear", "Lovey Bear")
    game = s.build()
    play(game, "Care Package")
    play(game, "Fun Bear", base="Jungle Oasis")
    play(game, "Lovey Bear", base="Jungle Oasis")
    assert game.loc[card(game, "Lovey Bear")][0] == "minion"


# ====================================================================== Cuddle ===============


def test_cuddle_cancels_the_abilities_of_the_minion_it_is_on():
    s = scenario()
    s.minion(OASIS, "Warbot", owner=1)  # cannot be destroyed
    s.minion(OASIS, "Warbot", owner=1)
    s.minion(SHIP, "War Raptor", owner=1)
    s.minion(SHIP, "War Raptor", owner=1)
    s.hand(0, "Cuddle", "Sir Squeezes")
    game = s.build()
    raptors = find_cards(game, "War Raptor", "minion")
    assert [game.power(m) for m in raptors] == [4, 4]
    play(game, "Cuddle")
    # Any minion; alike copies once; never a base.
    assert sorted(labels(game)) == ["War Raptor (4, P1) on The Mothership",
                                    "Warbot (4, P1) on Jungle Oasis"]
    assert_refused(game, [f"b{base_uid(game, 'Jungle Oasis')}"])
    assert game.pending.intent == "harm"
    choose(game, raptors[0])
    # Its pack bonus is gone; the other raptor still counts it as a War Raptor.
    assert [game.power(m) for m in raptors] == [2, 4]
    assert game.loc[card(game, "Cuddle")] == ("attached", raptors[0])


def test_a_cuddled_minion_loses_its_protection_until_cuddle_leaves():
    s = scenario()
    s.minion(OASIS, "Warbot", owner=1, counters=3)  # 7, cannot be destroyed
    s.minion(OASIS, "Invader", owner=1)  # 3
    s.minion(OASIS, "Fun Bear", owner=0)  # 2
    s.hand(0, "Cuddle", "Love Overload", "Sir Squeezes")
    game = s.build()
    warbot = card(game, "Warbot")
    play(game, "Cuddle")
    choose(game, warbot)
    events = record_events(game)
    end_play(game)
    choose(game, "Play Love Overload")
    # Cuddled, it has no "cannot be destroyed": the strongest on the Oasis, it is destroyed.
    assert [e.card for e in events if e.kind == "destroyed"] == [warbot]
    assert game.players[1].vp == 2  # the Invader still won the Oasis


def test_cuddle_ends_when_it_leaves_play():
    s = scenario()
    s.minion(SHIP, "Warbot", owner=1, attached=[("Cuddle", 0)])
    s.hand(0, "Disenchant", "Fun Bear")
    game = s.build()
    warbot, cuddle = card(game, "Warbot"), card(game, "Cuddle")
    assert game.affects(None, 0, warbot, "destroy")  # cuddled: it has no protection
    play(game, "Disenchant")  # the one action in play: taken without a question
    assert game.loc[cuddle] == ("discard", 0)
    assert not game.affects(None, 0, warbot, "destroy")  # its own ability is back


def test_cuddle_does_not_cancel_the_actions_on_the_minion():
    # WWWT clarification: the abilities of actions on the minion keep working (Poison's -4).
    s = scenario()
    s.minion(SHIP, "King Rex", owner=1, attached=[("Poison", 0)])
    s.hand(0, "Cuddle", "Fun Bear")
    game = s.build()
    rex = card(game, "King Rex")
    assert game.power(rex) == 3
    play(game, "Cuddle")  # the one minion in play: taken without a question
    assert game.loc[card(game, "Cuddle")] == ("attached", rex)
    assert game.power(rex) == 3


def test_a_cuddled_fun_bear_takes_no_counter():
    s = scenario()
    s.minion(SHIP, "Fun Bear", owner=0, attached=[("Cuddle", 1)])
    s.hand(0, "Howl")
    s.turn(current=1)
    s.hand(1, "Invader")
    game = s.build()
    play(game, "Invader", base="The Mothership")  # uncuddled, it would ask (tests above)
    assert game.pending.kind != "confirm"
    assert counters(game, card(game, "Fun Bear")) == 0


# ====================================================================== Group Hug ============


def test_group_hug_counts_the_other_minions_on_the_base_once():
    s = scenario()
    s.minion(FACTORY, "Fun Bear", owner=0)
    s.minion(FACTORY, "Invader", owner=1)
    s.minion(FACTORY, "King Rex", owner=1)
    s.minion(FACTORY, "Snuggly Bear", owner=0)
    s.minion(OASIS, "Lovey Bear", owner=0)
    s.hand(0, "Group Hug", "Sir Squeezes", "Fun Bear")
    game = s.build()
    bear = card(game, "Fun Bear", "minion")
    play(game, "Group Hug")
    # Only your minions; another player's are refused.
    assert_refused(game, [f"m{card(game, 'Invader')}"])
    choose(game, bear)
    assert game.power(bear) == 2 + 3
    # WWWT clarification: counted once; a minion arriving later adds nothing.
    play(game, "Sir Squeezes", base="Factory 436-1337")
    assert game.pending.kind == "extra"
    assert game.power(bear) == 5
    decline(game)
    assert game.current == 1 and game.power(bear) == 2  # until the end of the turn


def test_group_hug_on_a_lonely_minion_gives_nothing_and_with_no_minion_does_nothing():
    s = scenario()
    s.minion(OASIS, "Fun Bear", owner=0)
    s.minion(OASIS, "Lovey Bear", owner=0)
    s.minion(SHIP, "Invader", owner=1)
    s.hand(0, "Group Hug", "Snuggly Bear")
    game = s.build()
    play(game, "Group Hug")
    choose(game, card(game, "Fun Bear"))
    assert game.power(card(game, "Fun Bear")) == 3

    s = scenario()
    s.minion(OASIS, "Invader", owner=1)
    s.hand(0, "Group Hug", "Snuggly Bear")
    game = s.build()
    play(game, "Group Hug")
    assert game.pending.kind == "play" and find_cards(game, "Group Hug", "discard")
    assert game.power(card(game, "Invader")) == 3


# ====================================================================== Love Overload ========


def overload_game():
    s = scenario()
    s.minion(OASIS, "King Rex", owner=1)  # 7
    s.minion(OASIS, "Tiger Assassin", owner=1, counters=3)  # 7
    s.minion(OASIS, "Lovey Bear", owner=0)  # starts at King Rex's printed 7
    s.minion(OASIS, "Fun Bear", owner=0)
    s.hand(0, "Love Overload", "Howl")
    return s


def test_love_overload_destroys_every_minion_tied_for_highest_before_scoring_yours_too():
    s = overload_game()
    game = s.build()
    rex, tiger, lovey = (card(game, n) for n in ("King Rex", "Tiger Assassin", "Lovey Bear"))
    assert [game.power(m) for m in (rex, tiger, lovey)] == [7, 7, 7]
    # Not playable as a normal action.
    assert "Play Love Overload" not in labels(game)
    end_play(game)
    assert game.pending.kind == "special"
    assert labels(game) == ["Play Love Overload: destroy the strongest minions on the scoring "
                            "base", "Pass"]
    choose(game, "Play Love Overload")
    for m in (rex, tiger, lovey):
        assert game.loc[m][0] == "discard"
    # Only Fun Bear was left: seat 0 won the Oasis (rulebook: it scores even below breakpoint).
    assert game.players[0].vp == 2
    assert find_cards(game, "Love Overload", "discard")


def test_love_overload_may_be_kept_and_leaves_a_protected_minion():
    game = overload_game().build()
    end_play(game)
    choose(game, "Pass")
    assert game.loc[card(game, "Love Overload")] == ("hand", 0)

    s = scenario()
    s.minion(OASIS, "Warbot", owner=1, counters=2)  # 6, cannot be destroyed
    s.minion(OASIS, "Invader", owner=1)
    s.minion(OASIS, "Sir Squeezes", owner=0)  # 5
    s.hand(0, "Love Overload", "Howl")
    game = s.build()
    events = record_events(game)
    end_play(game)
    choose(game, "Play Love Overload")
    # The strongest (Warbot) cannot be destroyed; the next strongest is not taken instead.
    assert not [e for e in events if e.kind == "destroyed"]
    assert game.players[1].vp == 2  # Warbot's side won the Oasis


# ====================================================================== Square Deal ==========


def test_square_deal_draws_until_another_player_has_fewer_cards():
    s = scenario(deck=["Lovey Bear", "Fun Bear", "Howl", "Howl", "Howl"])
    s.hand(1, FILLER, FILLER)  # three cards
    s.hand(0, "Square Deal")
    game = s.build()
    play(game, "Square Deal")
    # 0 cards, then 1, 2, 3, 4: seat 1 has 3 < 4.
    assert hand_names(game) == ["Fun Bear", "Howl", "Howl", "Lovey Bear"]


def test_square_deal_draws_nothing_when_another_player_already_has_fewer():
    s = scenario(deck=["Lovey Bear", "Howl"])
    s.hand(0, "Square Deal", "Howl", "Howl", "Fun Bear")
    game = s.build()
    play(game, "Square Deal")
    assert hand_names(game) == ["Fun Bear", "Howl", "Howl"]


def test_square_deal_stops_when_nothing_is_left_to_draw():
    s = scenario(deck=["Lovey Bear"])
    s.hand(1, FILLER, FILLER, FILLER)  # four cards
    s.hand(0, "Square Deal", "Fun Bear")
    game = s.build()
    play(game, "Square Deal")
    # One card drawn; no deck and no discard pile left (Square Deal is still resolving).
    assert hand_names(game) == ["Fun Bear", "Lovey Bear"]
    assert game.players[0].deck == [] and game.pending.kind == "play"


# ====================================================================== Tea Party ============


def test_tea_party_draws_once_a_turn_with_two_minions_one_yours():
    s = scenario(deck=["Lovey Bear", "Howl"])
    s.base_action(OASIS, "Tea Party", owner=0)
    s.minion(OASIS, "Fun Bear", owner=0)
    s.minion(OASIS, "Invader", owner=1)
    s.hand(0, "Howl")
    game = s.build()
    choose(game, "Tea Party's talent")
    assert hand_names(game) == ["Howl", "Lovey Bear"]
    assert not any("Tea Party" in label for label in labels(game))


def test_tea_party_needs_two_minions_and_one_of_yours():
    for mine, theirs in ((1, 0), (0, 2)):
        s = scenario()
        s.base_action(OASIS, "Tea Party", owner=0)
        for _ in range(mine):
            s.minion(OASIS, "Fun Bear", owner=0)
        for _ in range(theirs):
            s.minion(OASIS, "Invader", owner=1)
        s.hand(0, "Howl")
        game = s.build()
        assert not any("Tea Party" in label for label in labels(game))


def test_tea_party_is_played_on_a_base():
    s = scenario(deck=["Lovey Bear"])
    s.minion(SHIP, "Fun Bear", owner=0)
    s.minion(SHIP, "Snuggly Bear", owner=0)
    s.hand(0, "Tea Party", "Howl")
    game = s.build()
    play(game, "Tea Party")
    choose(game, "The Mothership")
    # The talent may be used on the turn it is played.
    choose(game, "Tea Party's talent")
    assert "Lovey Bear" in hand_names(game)


# ====================================================================== Too Cute =============


def test_too_cute_keeps_your_minions_here_from_other_players_destroying_them():
    s = scenario()
    s.base_action(OASIS, "Too Cute", owner=0)
    s.minion(OASIS, "Snuggly Bear", owner=0)
    s.minion(OASIS, "Snuggly Bear", owner=0)
    s.minion(OASIS, "Ninja Acolyte", owner=1)
    s.minion(SHIP, "Snuggly Bear", owner=0)
    s.turn(current=1)
    s.hand(1, "Tiger Assassin", "Tiger Assassin")
    game = s.build()
    play(game, "Tiger Assassin", base="Jungle Oasis")
    # Only seat 1's own Acolyte may be destroyed: both bears here are protected.
    assert [game.name(o.card) for o in game.pending.options if o.card] == ["Ninja Acolyte"]
    assert_refused(game, [f"m{card(game, 'Snuggly Bear', 'minion')}"])
    decline(game)
    assert [where(game, c) for c in find_cards(game, "Snuggly Bear")].count("Jungle Oasis") == 2


def test_too_cute_does_not_protect_from_your_own_cards_or_elsewhere():
    s = scenario()
    s.base_action(OASIS, "Too Cute", owner=0)
    s.minion(OASIS, "King Rex", owner=0)
    s.minion(OASIS, "Invader", owner=1)
    s.minion(OASIS, "Invader", owner=1)
    s.hand(0, "Love Overload", "Howl")
    game = s.build()
    end_play(game)
    choose(game, "Play Love Overload")
    assert game.loc[card(game, "King Rex")][0] == "discard"


# ====================================================================== by cards / by players =
# Issue 24, mechanism 3: a protection "by cards other players control" does not stop a base's
# ability, even one a player performs (The Deep: "that player may destroy"); one "by other
# players" does. King Rex (7) played on The Deep: seat 0 may destroy seat 1's Invader (3) there.


def test_too_cute_does_not_stop_a_base_ability_a_player_performs():
    assert deep_may_destroy_the_invader(deep_game(PLAYERS, base_actions=("Too Cute",)))
