"""The modules of live play are layered: no import circle among them (services.py split, issue 13).

Every import counts, also one inside a function: a function-level import is how a circle hides, and
the tasks module (which imports the bots and the timers) must stay on top, with the modules below
looking its tasks up by name."""

from __future__ import annotations

import ast
from pathlib import Path

import smashup.play

PACKAGE = "smashup.play"
ROOT = Path(smashup.play.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The modules of the package that `path` imports, wherever the import statement stands."""
    own = _module_name(path)
    package = own if path.name == "__init__.py" else own.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(name for name in names if name in modules and name != own)
    return found


def import_graph() -> dict[str, set[str]]:
    paths = [p for p in ROOT.rglob("*.py") if "migrations" not in p.parts]
    modules = {_module_name(p) for p in paths}
    return {_module_name(p): _imports(p, modules) for p in paths}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of `graph` (as a path that ends where it starts), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_find_cycle_finds_a_circle_and_passes_a_layering():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_relative_and_function_level_imports():
    graph = import_graph()
    assert "smashup.play.bots" in graph["smashup.play.tasks"]  # `from . import bots`
    assert "smashup.play.undoing" in graph["smashup.play.render"]  # inside a function


def test_live_play_modules_import_no_circle():
    graph = import_graph()
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def test_nothing_below_the_web_layer_imports_services_or_tasks():
    """`services` only gathers names for views, consumers, tournaments and tests; `tasks` is on top."""
    graph = import_graph()
    for module, imported in graph.items():
        if module.rsplit(".", 1)[-1] in ("services", "views", "consumers", "apps", "loadtest", "tasks"):
            continue
        if ".management." in module:
            continue
        assert "smashup.play.services" not in imported, module
        assert "smashup.play.tasks" not in imported, module
