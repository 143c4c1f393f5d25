"""Plays from the discard pile and named grant conditions, with test-only cards: a grant that
allows the discard pile (They Keep Coming), a minion with its own discard play (Tenacious Z), a card
in play that lets a play from hand come from the pile (They're Coming To Get You), a grant with a
condition on the base (Outbreak)."""
from __future__ import annotations

from smashup.engine import MINION, Faction, Scenario, base
from smashup.engine.registry import Registry
from smashup.engine.testing import assert_refused, card, choose


def registry() -> Registry:
    r = Registry()
    risers = Faction("Risers", set="testset", registry=r)
    Faction("Others", set="testset", registry=r)
    Faction("Spares", set="testset", registry=r)  # the second seat's pair: each faction is in a game once
    Faction("Extras", set="testset", registry=r)
    risers.minion("Grunt", power=3, copies=10)
    risers.minion("Small", power=1, copies=5)
    riser = risers.minion("Riser", power=2, copies=5).card
    # Its own extra play from the discard pile, once per turn across copies (Tenacious Z).
    riser.grants_each_turn(MINION, zone="discard", this_card=True, once="name")

    @risers.action("Recall", copies=5)
    def recall(ctx):
        yield from ctx.grant_extra(MINION, zones=("discard",))

    @risers.action("Spread", copies=5)
    def spread(ctx):
        yield from ctx.grant_extra(MINION, condition="no_minion_of_yours")

    gate = risers.action("Gate", attach="base", copies=5).card

    # A play from hand may take a discard-pile minion onto its base, once per turn.
    gate.play_source("discard", applies=lambda ctx, play, grant: play.base == ctx.here,
                     once_per_turn=True)

    for name in ("Plain A", "Plain B", "Plain C"):
        base(name, "testset", 99, (1, 0, 0), registry=r)
    return r


R = registry()


def scenario():
    s = Scenario([("Risers", "Others"), ("Spares", "Extras")])
    for name in ("Plain A", "Plain B", "Plain C"):
        s.base(name)
    s.deck(0, *["Grunt"] * 4)
    s.deck(1, *["Grunt"] * 4)
    s.hand(1, "Grunt")
    return s


def discard_labels(game):
    return sorted(o.label for o in game.pending.options if "discard pile" in o.label)


def uid(game, name):
    return next(s.uid for s in game.bases if game.name(s.card) == name)


def test_a_grant_from_the_discard_pile_offers_its_minions_and_not_the_hand():
    s = scenario()
    s.hand(0, "Recall", "Small")
    s.discard(0, "Grunt", "Grunt")
    s.turn(minions_played=1)
    game = s.build(R)
    assert discard_labels(game) == []
    choose(game, "Play Recall")
    assert discard_labels(game) == [f"Play Grunt from your discard pile on Plain {x}"
                                    for x in "ABC"]  # alike copies once
    small = card(game, "Small")
    assert_refused(game, [f"m{small}@{uid(game, 'Plain A')}"])
    grunts = [c for c in game.players[0].discard if game.name(c) == "Grunt"]
    assert_refused(game, [f"m{grunts[1]}@{uid(game, 'Plain A')}"])
    choose(game, f"m{grunts[0]}@{uid(game, 'Plain B')}")
    assert game.loc[grunts[0]] == ("minion", uid(game, "Plain B"))
    assert game.current == 1  # the extra was used: nothing left to play


def test_a_minion_with_its_own_discard_play_is_an_extra_noted_with_via():
    s = scenario()
    s.hand(0, "Small")
    s.discard(0, "Riser", "Riser")
    game = s.build(R)
    risers = [c for c in game.players[0].discard]
    choose(game, f"m{risers[0]}@{uid(game, 'Plain A')}")
    record = game.turn_state.plays[-1]
    assert (record.extra, record.special, record.via) == (True, True, risers[0])
    assert discard_labels(game) == []  # its usable() says once per turn
    choose(game, "Play Small on Plain A")  # the free minion is left


def test_a_card_in_play_lets_a_play_from_hand_come_from_the_pile_onto_its_base():
    s = scenario()
    s.base_action(1, "Gate", owner=0)
    s.hand(0, "Small", "Recall")
    s.discard(0, "Grunt")
    game = s.build(R)
    assert discard_labels(game) == ["Play Grunt from your discard pile on Plain B"]
    grunt = card(game, "Grunt", "discard")
    assert_refused(game, [f"m{grunt}@{uid(game, 'Plain A')}"])
    choose(game, f"m{grunt}@{uid(game, 'Plain B')}")
    record = game.turn_state.plays[-1]
    assert (record.extra, record.via) == (False, card(game, "Gate"))
    # The free minion play went: the Small in hand is not offered any more.
    assert not any(o.label.startswith("Play Small") for o in game.pending.options)


def test_a_grant_condition_is_read_when_the_minion_is_played():
    s = scenario()
    s.minion(0, "Grunt", owner=0)
    s.minion(1, "Grunt", owner=1)
    s.hand(0, "Spread", "Small", "Grunt")
    s.turn(minions_played=1)
    game = s.build(R)
    choose(game, "Play Spread")
    assert sorted(o.label for o in game.pending.options if o.label.startswith("Play Small")) == [
        "Play Small on Plain B", "Play Small on Plain C"]
    small = card(game, "Small", "hand")
    assert_refused(game, [f"m{small}@{uid(game, 'Plain A')}"])
    choose(game, f"m{small}@{uid(game, 'Plain C')}")
    assert game.loc[small] == ("minion", uid(game, "Plain C"))
