"""The Big Base rules are part of the engine: pure Python, no framework, deterministic; a scenario
built game replays from its record like any other."""
import ast
import subprocess
import sys
from pathlib import Path

from bigbase_support import scenario

from smashup.engine import replay
from smashup.engine.testing import end_play, play

RULES = Path(__file__).resolve().parents[2] / "bigbase" / "rules"
FRAMEWORKS = {"django", "channels", "celery", "daphne", "channels_redis"}


def test_no_rules_module_imports_a_framework():
    files = sorted(RULES.glob("*.py"))
    assert len(files) >= 4
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert not {n.split(".")[0] for n in names} & FRAMEWORKS, path


def test_playing_big_base_loads_no_framework():
    code = ("import sys\nfrom smashup.engine import new_game\n"
            "new_game({'mode': 'bigbase', 'players': [{'factions': ['Aliens', 'Ninjas']}, "
            "{'factions': ['Robots', 'Pirates']}]}, 1)\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FRAMEWORKS)!r}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]"


def test_a_scenario_game_replays_from_its_record():
    s = scenario()
    s.minion("North", "King Rex", owner=0, slot=0)
    s.hand(0, "Buccaneer", "Howl")
    s.deck(0, "Augmentation", "War Raptor").deck(1, "Zapbot", "Hoverbot")
    game = s.build()
    game.track_hashes = True
    play(game, "Buccaneer", base="East")
    game.apply(0, game.pending.id, ["o1"])
    end_play(game)
    again = replay(game.record())
    assert again.digest() == game.digest()
    assert again.holders == game.holders
