"""The engine is pure Python (DESIGN.md section 3): no module of smashup/engine or smashup/cards
imports Django, Channels or Celery, and importing the engine does not load Django."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE = [ROOT / "smashup" / "engine", ROOT / "smashup" / "cards"]
FRAMEWORKS = {"django", "channels", "celery", "daphne", "channels_redis"}


def pure_modules() -> list[Path]:
    files = sorted(p for folder in PURE for p in folder.rglob("*.py"))
    assert len(files) >= 10  # the scan really found the engine
    return files


def imported_roots(path: Path) -> set[str]:
    """Top-level package names imported anywhere in a file (also inside functions), including
    `importlib.import_module("...")` and `__import__("...")` with a literal name."""
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                roots.add(node.args[0].value.split(".")[0])
    return roots


@pytest.mark.parametrize("path", pure_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_engine_or_card_module_imports_a_framework(path):
    assert not imported_roots(path) & FRAMEWORKS


def test_the_scan_would_see_a_framework_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from django.conf import settings\n"
                      "import importlib\nimportlib.import_module('celery.app')\n")
    assert imported_roots(sample) & FRAMEWORKS == {"django", "celery"}


def test_importing_the_engine_loads_no_framework():
    code = (
        "import sys, smashup.engine, smashup.cards, smashup.engine.bots, "
        "smashup.engine.invariants, smashup.engine.testing\n"
        "from smashup.engine import new_game\n"
        "new_game({'players': [{'factions': ['Aliens', 'Ninjas']}, "
        "{'factions': ['Pirates', 'Robots']}]}, 1)\n"
        f"loaded = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FRAMEWORKS)!r})\n"
        "print(','.join(loaded))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
