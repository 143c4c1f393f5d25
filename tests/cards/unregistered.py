"""A faction module that waits on one card (an engine piece another helper builds) is not
registered in smashup/cards/__init__.py, yet its tests import it, and an import declares it in
REGISTRY for the whole test session. `withdraw` takes it out again and puts it back only while its
own module's tests run, so the catalog check and every list of factions elsewhere see only the
registered factions. Remove the call when the faction is registered."""
from __future__ import annotations

import pytest

from smashup.engine import REGISTRY


def withdraw(name: str):
    """Take faction `name` and its cards out of REGISTRY; returns an autouse fixture that declares
    them again for each test of the module that assigns it to a name."""
    faction = REGISTRY.factions.pop(name)
    cards = {c.name: REGISTRY.cards.pop(c.name) for c in faction.cards}

    @pytest.fixture(autouse=True)
    def declared_for_this_module():
        REGISTRY.factions[name] = faction
        REGISTRY.cards.update(cards)
        try:
            yield
        finally:
            del REGISTRY.factions[name]
            for card_name in cards:
                del REGISTRY.cards[card_name]

    return declared_for_this_module
