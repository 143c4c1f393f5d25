"""No import circle inside the engine: the rule modules form layers (state at the bottom, game.py
at the top, the card vocabulary below the rules that make a Ctx), so any module can be read,
imported and compiled on its own, and a reader follows the imports down, never around."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The engine and the Big Base mode's rules: the modules whose imports must form no circle.
PACKAGES = {"smashup.engine": ROOT / "smashup" / "engine", "bigbase.rules": ROOT / "bigbase" / "rules"}


def _module_name(package: str, path: Path) -> str:
    return package if path.stem == "__init__" else f"{package}.{path.stem}"


def _imports(package: str, path: Path, modules: set[str]) -> set[str]:
    """The modules a file imports anywhere (inside functions too, but not under `if
    TYPE_CHECKING:`), by full name, and those its .pxd cimports (compiled, a cimport imports the
    module when this one loads). `from . import x` imports the module x, not its package."""
    tree = ast.parse(path.read_text(), filename=str(path))
    checking = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            checking.update(id(n) for n in ast.walk(node))
    here = package
    found = set()
    for node in ast.walk(tree):
        if id(node) in checking:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.rsplit(".", node.level - 1)[0] if node.level > 1 else here
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                found.add(sub if sub in modules else module)
    pxd = path.with_suffix(".pxd")
    if pxd.is_file():
        found.update(re.findall(r"^from ([\w.]+) cimport ", pxd.read_text(), re.MULTILINE))
    return found


def import_graph() -> dict[str, set[str]]:
    """module -> the engine modules it imports (only names that are modules of PACKAGES)."""
    files = {_module_name(p, f): (p, f) for p, folder in PACKAGES.items()
             for f in sorted(folder.glob("*.py"))}
    return {name: {m for m in _imports(package, path, set(files)) if m in files and m != name}
            for name, (package, path) in files.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of two modules or more (Tarjan): each holds an import circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_scan_sees_the_engine():
    graph = import_graph()
    assert {"smashup.engine.state", "smashup.engine.game", "bigbase.rules.game"} <= set(graph)
    assert "smashup.engine.state" in graph["smashup.engine.powers"]  # a .py import
    assert "smashup.engine.protections" in graph["smashup.engine.game"]
    # a function-level import counts (bots looks ahead with a replay)
    assert "smashup.engine.setup" in graph["smashup.engine.bots"]


def test_no_import_circle_inside_the_engine():
    assert circles(import_graph()) == []


def test_a_circle_is_found():
    """The check itself: a graph with a circle (effects <-> plays, as before the split) fails."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"x": {"y"}, "y": set()}) == []
