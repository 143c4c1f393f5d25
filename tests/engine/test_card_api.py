"""Card code reads the game only through `Ctx` (the issue's guardrail): no module of smashup/cards
touches the engine's internals, so those can change (Big Base, speed) without breaking 200 cards."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from smashup.engine import Ctx, new_game
from smashup.engine.core import Event
from smashup.engine.game import Game, Scoring

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "smashup" / "cards"


def internal_names() -> set[str]:
    """Names of the Game's attributes and methods that card code must not read (the Ctx, a
    Scoring and an Event offer what cards need, under those names)."""
    game = new_game({"players": [{"factions": ["Aliens", "Ninjas"]},
                                 {"factions": ["Pirates", "Robots"]}]}, 1)
    names = set(vars(game)) | {n for n in dir(Game) if not n.startswith("__")}
    allowed = {n for n in dir(Ctx) if not n.startswith("_")}
    allowed |= {n for n in dir(Scoring) if not n.startswith("_")} - {"slot"}
    allowed |= set(Event.__dataclass_fields__)
    return (names - allowed) | {"game"}


def internals_read(path: Path, forbidden: set[str]) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Attribute) and node.attr in forbidden:
            found.append(f"{path.name}:{node.lineno}: .{node.attr}")
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(
                "smashup.engine."):
            found.append(f"{path.name}:{node.lineno}: imports {node.module}")
    return found


def card_modules() -> list[Path]:
    files = sorted(p for p in CARDS.rglob("*.py"))
    assert len(files) >= 4
    return files


@pytest.mark.parametrize("path", card_modules(), ids=lambda p: p.name)
def test_card_modules_read_the_game_only_through_ctx(path):
    assert internals_read(path, internal_names()) == []


def test_the_scan_finds_internals(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from smashup.engine.game import Game\n"
        "def f(ctx, scoring):\n"
        "    ctx.game.loc[1]\n"
        "    g = ctx.game\n"
        "    g.action_state[2].host\n"
        "    scoring.slot.uid\n"
        "    ctx.host_of(2); ctx.here; scoring.base; ctx.power(1)\n")
    found = internals_read(sample, internal_names())
    assert sorted(f.split(": ", 1)[1] for f in found) == sorted([
        "imports smashup.engine.game", ".game", ".loc", ".game", ".action_state", ".slot"])
