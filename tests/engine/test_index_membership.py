"""Which indexes of cards in play a definition joins (`hooks.indexes_wanted`, read by
`GameState._indexes_of` for every definition of every new game) is exactly what INDEXES's own
tests say: the fields written out for a card or a base, INDEXES's tests for anything else."""
from __future__ import annotations

from types import SimpleNamespace

import smashup.cards  # noqa: F401  (declares every card and base)
from smashup.engine import REGISTRY, Faction
from smashup.engine.hooks import INDEXES, indexes_wanted
from smashup.engine.registry import Registry, TurnGrant

from .support import registry_with_test_cards


def declared(defn) -> tuple:
    return tuple(bool(wanted(defn)) for _name, wanted, _bases_too in INDEXES)


def test_every_declared_card_and_base_joins_the_indexes_their_tests_name():
    definitions = [*REGISTRY.cards.values(), *REGISTRY.bases.values(),
                   *registry_with_test_cards().cards.values()]
    for defn in definitions:
        assert indexes_wanted(defn) == declared(defn), defn.name
    # Every index has members among them, and each test is answered both ways.
    for position, (name, _wanted, _bases_too) in enumerate(INDEXES):
        answers = {indexes_wanted(defn)[position] for defn in definitions}
        assert answers == {True, False}, name


def test_a_changed_definition_is_read_afresh():
    """Nothing is kept between calls: a definition given an ability joins its index at once
    (a play offered from the discard pile offers nothing in play). A card of its own, so that
    no shared definition is changed."""
    names = [name for name, _wanted, _bases_too in INDEXES]
    offering = names.index("play_offering")
    card = Faction("Indexed", set="testset", registry=Registry()).minion(
        "Plain", power=1, text="A plain minion.").card
    plain = indexes_wanted(card)
    assert not any(plain)
    card.turn_grants = [TurnGrant(kind="minion", zone="discard", applies=lambda ctx: True)]
    assert indexes_wanted(card) == plain == declared(card)
    card.turn_grants.append(TurnGrant(kind="minion", zone="play", applies=lambda ctx: True))
    assert indexes_wanted(card)[offering] and indexes_wanted(card) == declared(card)
    assert sum(indexes_wanted(card)) == 1


def test_other_definitions_are_asked_the_tests_of_INDEXES():
    bare = SimpleNamespace(kind="minion", triggers=[object()], talent=len)
    assert indexes_wanted(bare) == declared(bare)
    assert sum(indexes_wanted(bare)) == 2  # reactive and talented, nothing else (it reads locally)
