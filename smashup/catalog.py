"""The card catalogs of the three boxes, beside the registry of implemented cards.

`smashup/cards/catalog/*.yaml` are the project's catalogs (every card and base of the Core Set, What
Were We Thinking? and It's Your Fault!, described in our own words, with rulings); they are kept equal
to the team's reference copy in `../shared/cards` (a test checks it where that folder exists). This
module reads them and compares them with `smashup.engine.REGISTRY`: the `cards` command lists every
card with whether it is implemented, and the catalog test fails on any mismatch of name, faction,
set, type, power, copies, breakpoint or VP. It reads files, so it lives outside the engine.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

CATALOG_DIR = Path(__file__).resolve().parent / "cards" / "catalog"
SETS = ("core", "wwwt", "iyf")


@dataclass(frozen=True)
class Entry:
    """One card or base as a catalog (or the registry) describes it."""

    set: str
    faction: str
    name: str
    type: str  # "minion", "action" or "base"
    power: int | None = None  # minions only
    copies: int | None = None  # cards only
    breakpoint: int | None = None  # bases only
    vp: tuple[int, int, int] | None = None  # bases only

    def comparable(self) -> tuple:
        return (self.set, self.faction, self.type, self.power, self.copies, self.breakpoint, self.vp)


@cache
def catalog() -> dict[str, Entry]:
    """Every card and base of the three boxes, by name (names are unique across the boxes)."""
    entries: dict[str, Entry] = {}
    for set_id in SETS:
        data = yaml.safe_load((CATALOG_DIR / f"{set_id}.yaml").read_text(encoding="utf-8"))
        for faction in data["factions"]:
            for card in faction["cards"]:
                _add(entries, Entry(set_id, faction["name"], card["name"], card["type"],
                                    card.get("power"), card["copies"]))
        for base in data["bases"]:
            _add(entries, Entry(set_id, base["faction"], base["name"], "base",
                                breakpoint=base["breakpoint"], vp=tuple(base["vp"])))
    return entries


def _add(entries: dict[str, Entry], entry: Entry) -> None:
    if entry.name in entries:
        raise ValueError(f"the catalogs name {entry.name!r} twice")
    entries[entry.name] = entry


def catalog_factions() -> dict[str, str]:
    """Faction name -> set id, in catalog order."""
    found: dict[str, str] = {}
    for entry in catalog().values():
        if entry.type != "base":
            found.setdefault(entry.faction, entry.set)
    return found


def registry_entries(registry) -> dict[str, Entry]:
    """The implemented cards and bases as the registry declares them."""
    entries = {}
    for card in registry.cards.values():
        entries[card.name] = Entry(card.set, card.faction, card.name, card.kind,
                                   card.power if card.is_minion else None, card.copies)
    for base in registry.bases.values():
        entries[base.name] = Entry(base.set, base.faction, base.name, "base",
                                   breakpoint=base.breakpoint, vp=tuple(base.vp))
    return entries


def mismatches(registry) -> list[str]:
    """Every way the registry disagrees with the catalogs (empty when they agree)."""
    known = catalog()
    problems = []
    for name, entry in sorted(registry_entries(registry).items()):
        expected = known.get(name)
        if expected is None:
            problems.append(f"{name!r} is implemented but is in no catalog")
            continue
        for field in ("set", "faction", "type", "power", "copies", "breakpoint", "vp"):
            have, want = getattr(entry, field), getattr(expected, field)
            if have != want:
                problems.append(f"{name!r}: {field} is {have!r} in the registry, {want!r} in the catalog")
    for faction in registry.factions.values():
        declared = {c.name for c in faction.cards}
        listed = {e.name for e in known.values() if e.type != "base" and e.faction == faction.name}
        for missing in sorted(listed - declared):
            problems.append(f"{faction.name} is offered but {missing!r} is not implemented")
    return problems


def listing(registry) -> list[dict]:
    """Every card and base of the catalogs, in catalog order, with whether it is implemented."""
    implemented = registry_entries(registry)
    rows = []
    for name, entry in catalog().items():
        row = {
            "name": name,
            "set": entry.set,
            "faction": entry.faction,
            "type": entry.type,
            "implemented": name in implemented,
        }
        if entry.type == "base":
            row.update(breakpoint=entry.breakpoint, vp=list(entry.vp))
        else:
            row.update(copies=entry.copies)
            if entry.type == "minion":
                row["power"] = entry.power
        rows.append(row)
    return rows


FACTIONS_FILE = Path(__file__).resolve().parent / "cards" / "factions.yaml"


@cache
def faction_descriptions() -> dict[str, str]:
    """One line per faction, in our own words (`smashup/cards/factions.yaml`): what it is like to
    play. Shown wherever factions are chosen; a test checks that every implemented faction has one."""
    data = yaml.safe_load(FACTIONS_FILE.read_text(encoding="utf-8"))
    return {str(name): str(text).strip() for name, text in data["factions"].items()}
