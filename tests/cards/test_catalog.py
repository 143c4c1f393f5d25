"""The registry against the catalogs of the three boxes (smashup/catalog.py), and `manage.py cards`."""
import json
import os
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

import smashup.cards  # noqa: F401
from smashup.catalog import CATALOG_DIR, SETS, catalog, catalog_factions, listing, mismatches
from smashup.engine import REGISTRY
from smashup.engine.declare import Faction, base
from smashup.engine.registry import Registry


def shared_cards_dir() -> Path | None:
    """The team's reference catalogs: `SMASHUP_SHARED_DIR`/cards, else the first `shared/cards` in a
    folder above the repository (a checkout sits beside `shared/` on the team's machines, a git
    worktree one level deeper)."""
    if os.environ.get("SMASHUP_SHARED_DIR"):
        return Path(os.environ["SMASHUP_SHARED_DIR"]) / "cards"
    for folder in Path(__file__).resolve().parents[2:]:
        if (folder / "shared" / "cards").is_dir():
            return folder / "shared" / "cards"
    return None


def test_every_implemented_card_and_base_matches_the_catalogs():
    assert mismatches(REGISTRY) == []


def test_the_catalogs_hold_the_three_boxes():
    entries = catalog()
    cards = [e for e in entries.values() if e.type != "base"]
    bases = [e for e in entries.values() if e.type == "base"]
    assert len(catalog_factions()) == 17
    assert len(cards) == 206 and len(bases) == 34
    for faction in catalog_factions():
        assert sum(e.copies for e in cards if e.faction == faction) == 20, faction


def test_the_project_copy_of_the_catalogs_is_the_team_reference():
    # The reference sits beside the repository on the team's machines. Elsewhere this says so in
    # the run's summary instead of passing without comparing anything.
    shared = shared_cards_dir()
    if shared is None:
        pytest.skip("the team's shared/cards catalogs are not beside this checkout (SMASHUP_SHARED_DIR)")
    for set_id in SETS:
        assert (CATALOG_DIR / f"{set_id}.yaml").read_text() == (shared / f"{set_id}.yaml").read_text()


def test_a_wrong_number_or_a_missing_card_is_reported():
    registry = Registry()
    aliens = Faction("Aliens", set="core", registry=registry)
    aliens.minion("Invader", power=4, copies=2)  # the catalog says power 3
    aliens.minion("Martian", power=1)  # in no catalog
    base("The Homeworld", "core", 22, (4, 2, 1), faction="Aliens", registry=registry)
    problems = mismatches(registry)
    assert "'Invader': power is 4 in the registry, 3 in the catalog" in problems
    assert "'Martian' is implemented but is in no catalog" in problems
    assert "'The Homeworld': breakpoint is 22 in the registry, 23 in the catalog" in problems
    assert "Aliens is offered but 'Supreme Overlord' is not implemented" in problems


def test_the_cards_command_lists_every_card_with_what_is_implemented():
    out = StringIO()
    call_command("cards", "--json", stdout=out)
    rows = json.loads(out.getvalue())
    assert len(rows) == 240
    by_name = {r["name"]: r for r in rows}
    for name in REGISTRY.cards:
        assert by_name[name]["implemented"] is True
    for name in REGISTRY.bases:
        assert by_name[name]["implemented"] is True
    assert by_name["Invader"] == {"name": "Invader", "set": "core", "faction": "Aliens",
                                  "type": "minion", "implemented": True, "copies": 2, "power": 3}
    assert by_name["Tar Pits"]["breakpoint"] == 16 and by_name["Tar Pits"]["vp"] == [4, 3, 2]
    assert sum(r["implemented"] for r in rows) == len(REGISTRY.cards) + len(REGISTRY.bases)
    assert rows == listing(REGISTRY)


def test_the_cards_table_ends_with_a_count():
    out = StringIO()
    call_command("cards", "--missing", stdout=out)
    lines = out.getvalue().splitlines()
    assert all(line.startswith("no ") for line in lines[:-1])
    assert lines[-1].endswith("of 240 implemented")
