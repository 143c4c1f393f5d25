"""The heuristic bot plays to score bases: minions where they make a base score while it wins
there, no push of a base over for another player, no action played where it helps nobody, a
Special used only when it wins something, a faction named that is not its own."""
from __future__ import annotations

import random

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import Scenario
from smashup.engine.bots import heuristic_choice, names_a_faction
from smashup.engine.testing import base_uid, card, end_play

FACTIONS = [("Ninjas", "Dinosaurs"), ("Aliens", "Tricksters")]


def scenario() -> Scenario:
    s = Scenario(FACTIONS)
    for seat in (0, 1):
        s.deck(seat, "Scout", "Scout", "Scout", "Scout", "Scout", "Scout")
    s.base_deck("Temple of Goju", "The Mothership")
    return s


def bot(game, seed=0) -> list[str]:
    return heuristic_choice(game, random.Random(seed))


def test_a_minion_goes_where_it_makes_a_base_score_while_the_bot_wins_there():
    s = scenario()
    oasis = s.base("Jungle Oasis")  # breakpoint 12, VP 2/0/0
    s.base("Factory 436-1337")
    # 7 against 3 on Jungle Oasis (12): Shinobi's 3 makes it score, first place for the bot.
    s.minion(oasis, "Tiger Assassin", owner=0)
    s.minion(oasis, "Invader", owner=0)
    s.minion(oasis, "Invader", owner=1)
    s.hand(0, "Shinobi")
    game = s.build()
    for seed in range(5):
        choice = bot(game, seed)
        option = game.pending.option(choice[0])
        assert (option.card, option.base) == (card(game, "Shinobi"), base_uid(game, "Jungle Oasis"))


def test_a_minion_does_not_make_a_base_score_for_another_player():
    s = scenario()
    oasis = s.base("Jungle Oasis")
    s.base("Factory 436-1337")
    s.minion(oasis, "Supreme Overlord", owner=1)
    s.minion(oasis, "Supreme Overlord", owner=1)
    s.hand(0, "Shinobi")
    game = s.build()
    factory = base_uid(game, "Factory 436-1337")
    for seed in range(5):
        option = game.pending.option(bot(game, seed)[0])
        assert option.base == factory


def test_an_action_that_would_help_nobody_stays_in_hand():
    # Upgrade helps the minion it goes on: with only another player's minion in play it waits.
    s = scenario()
    oasis = s.base("Jungle Oasis")
    s.base("Factory 436-1337")
    s.minion(oasis, "Invader", owner=1)
    s.hand(0, "Upgrade")
    game = s.build()
    assert bot(game) == ["end"]
    # With a minion of its own in play, it is played, on that minion.
    s.minion(oasis, "Tiger Assassin", owner=0)
    game = s.build()
    upgrade = card(game, "Upgrade")
    choice = bot(game)
    assert game.pending.option(choice[0]).card == upgrade
    game.apply(0, game.pending.id, choice)
    assert game.pending.intent == "help"
    target = game.pending.option(bot(game)[0]).card
    assert target == card(game, "Tiger Assassin")


def ready_oasis(s, mine: list[str], theirs: list[str]) -> None:
    oasis = s.base("Jungle Oasis")
    s.base("Factory 436-1337")
    for name in mine:
        s.minion(oasis, name, owner=0)
    for name in theirs:
        s.minion(oasis, name, owner=1)


def test_a_special_is_used_when_it_wins_the_scoring_base():
    s = scenario()
    # 8 against 10 on Jungle Oasis (12): Shinobi's 3 makes it 11 against 10, first place.
    ready_oasis(s, ["Ninja Master", "Invader"], ["Supreme Overlord", "Supreme Overlord"])
    s.hand(0, "Shinobi")
    game = s.build()
    end_play(game)
    d = game.pending
    assert (d.seat, d.kind) == (0, "special")
    before = game.digest()
    choice = bot(game)
    assert game.digest() == before  # looking ahead changed nothing
    assert d.option(choice[0]).card == card(game, "Shinobi")


def test_a_special_that_wins_nothing_is_kept():
    # 0 against 10: Shinobi would only be second, and Jungle Oasis pays no second place.
    s = scenario()
    ready_oasis(s, [], ["Supreme Overlord", "Supreme Overlord", "Invader"])
    s.hand(0, "Shinobi", "Hidden Ninja")
    game = s.build()
    end_play(game)
    assert game.pending.kind == "special"
    assert bot(game) == ["pass"]


def test_a_special_that_would_bring_nothing_is_kept():
    # Hidden Ninja plays a minion from the hand: with none, it does nothing.
    s = scenario()
    ready_oasis(s, ["Ninja Master", "Invader"], ["Supreme Overlord", "Supreme Overlord"])
    s.hand(0, "Hidden Ninja", "Seeing Stars")
    game = s.build()
    end_play(game)
    assert game.pending.kind == "special"
    assert bot(game) == ["pass"]


def test_block_the_path_names_the_faction_of_the_player_who_leads_there():
    s = Scenario([("Tricksters", "Dinosaurs"), ("Aliens", "Ninjas")])
    oasis = s.base("Jungle Oasis")
    s.base("Factory 436-1337")
    s.minion(oasis, "Ninja Master", owner=1)
    s.minion(oasis, "King Rex", owner=0)
    s.hand(0, "Block the Path")
    game = s.build()
    game.apply(0, game.pending.id, [f"a{card(game, 'Block the Path')}"])
    game.apply(0, game.pending.id, [f"b{base_uid(game, 'Jungle Oasis')}"])
    d = game.pending
    assert (d.kind, d.intent) == ("choice", "harm") and names_a_faction(game, d)
    for seed in range(5):
        assert d.option(bot(game, seed)[0]).value == "Ninjas"


def test_a_special_in_play_is_used_when_it_wins_the_scoring_base():
    # Pirate King sails from the Factory to Jungle Oasis: 8 + 5 against 10, first place.
    s = Scenario([("Pirates", "Ninjas"), ("Aliens", "Tricksters")])
    for seat in (0, 1):
        s.deck(seat, "Scout", "Scout", "Scout", "Scout")
    s.base_deck("Temple of Goju", "The Mothership")
    ready_oasis(s, ["Ninja Master", "Invader"], ["Supreme Overlord", "Supreme Overlord"])
    s.minion(1, "Pirate King", owner=0)
    s.hand(0, "Scout")
    game = s.build()
    end_play(game)
    d = game.pending
    assert (d.seat, d.kind, d.source) == (0, "confirm", card(game, "Pirate King"))
    assert bot(game) == ["yes"]
