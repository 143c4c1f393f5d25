"""Which app may import which (issue 14): `tournaments` depends on `smashup.play`, never the other way
round, and the Kickin' It Queensberry draft (`smashup.draft`), a rule both use, depends on neither
and on no framework. Checked on the source (every import statement, also inside functions), so a lazy
import cannot hide a circle."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imports_of(package: str) -> dict[str, set[str]]:
    """{file: the modules it imports} for every .py file under `package` (a dotted name)."""
    found = {}
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
        found[str(path.relative_to(ROOT))] = names
    return found


def offending(package: str, forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{path}: {name}"
        for path, names in imports_of(package).items()
        for name in sorted(names)
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    ]


# Commands that serve the whole site, run from the command line and never imported by play's own
# code: the load test drives event sockets too (its --flood sets up an event); compile_engine builds
# and reports the pairing's compiled modules beside the engine's (native.OTHER_MODULES).
WHOLE_SITE_TOOLS = (
    "smashup/play/management/commands/loadtest.py",
    "smashup/play/management/commands/compile_engine.py",
)


def test_play_never_imports_tournaments():
    found = offending("smashup.play", ("tournaments",))
    assert [f for f in found if not f.startswith(WHOLE_SITE_TOOLS)] == []


def test_the_draft_belongs_to_neither_app_and_needs_no_framework():
    assert offending("smashup.draft", ("tournaments", "smashup.play", "django", "channels", "celery")) == []


def test_the_engine_imports_no_app():
    assert offending("smashup.engine", ("tournaments", "smashup.play", "django")) == []


def test_the_checker_sees_imports_inside_functions(tmp_path, monkeypatch):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "m.py").write_text("def f():\n    from tournaments import draft\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    assert offending("pkg", ("tournaments",)) == ["pkg/m.py: tournaments", "pkg/m.py: tournaments.draft"]


SERVICE_ORDER = (
    "changes", "checkin", "entrants", "rating_store", "results", "rounds", "rematches", "knockout", "swaps",
    "lifecycle", "records", "leagues",
)  # fmt: skip
SERVICE_ORDER += ("judging", "importing", "manual")  # the organizer's desk and the judge (issue 27)


def test_the_tournament_services_import_only_the_modules_before_them():
    """tournaments/services is split by concern; each part imports only the parts listed before it,
    so there is no circle (the package's __init__ re-exports them all)."""
    imports = imports_of("tournaments.services")
    assert sorted(Path(p).stem for p in imports) == sorted(("__init__", *SERVICE_ORDER))
    for i, name in enumerate(SERVICE_ORDER):
        source = (ROOT / "tournaments/services" / f"{name}.py").read_text()
        tree = ast.parse(source)
        relative = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
        }
        later = relative & set(SERVICE_ORDER[i:])
        assert not later, f"services/{name}.py imports {sorted(later)}, which come after it"
