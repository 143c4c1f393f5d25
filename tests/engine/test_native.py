"""The compiled build of the engine (native.py): loaded only while fresh, and it plays the same."""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from smashup.engine import native
from smashup.engine.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]


def _fake_build(root: Path, source: str = "X = 1\n", built_from: str | None = None,
                suffix: str = native.SUFFIX, module: str = "smashup.engine.core") -> Path:
    """A build of one module in a copy of the packages' layout at `root` (smashup/, bigbase/)."""
    native.source_path(module, root).parent.mkdir(parents=True, exist_ok=True)
    native.source_path(module, root).write_text(source)
    native_dir = root.joinpath(*native.NATIVE_PATH)
    native_dir.mkdir(parents=True)
    (native_dir / f"{module}{suffix}").write_bytes(b"not really a binary")
    digest = native.source_hash(module, root) if built_from is None else built_from
    (native_dir / native.MANIFEST).write_text(json.dumps({module: {"source": digest,
                                                                    "file": f"{module}{suffix}"}}))
    return native_dir


def test_a_fresh_build_is_found(tmp_path):
    native_dir = _fake_build(tmp_path)
    built = native_dir / f"smashup.engine.core{native.SUFFIX}"
    assert native.fresh_binary("smashup.engine.core", tmp_path) == built
    spec = native.CompiledFinder(tmp_path).find_spec("smashup.engine.core")
    assert spec is not None and spec.origin == str(native_dir / f"smashup.engine.core{native.SUFFIX}")


def test_a_card_module_is_served_too(tmp_path):
    native_dir = _fake_build(tmp_path, module="smashup.cards.aliens")
    spec = native.CompiledFinder(tmp_path).find_spec("smashup.cards.aliens")
    assert spec is not None and spec.origin == str(native_dir / f"smashup.cards.aliens{native.SUFFIX}")
    (tmp_path / "smashup" / "cards" / "aliens.py").write_text("X = 2\n")  # edited after the build
    assert native.CompiledFinder(tmp_path).find_spec("smashup.cards.aliens") is None


def test_every_card_module_and_effects_are_compiled():
    modules = native.compiled_modules()
    assert "smashup.engine.effects" in modules and "smashup.engine.game" in modules
    cards = {p.stem for p in (native.ROOT_DIR / "smashup" / "cards").glob("*.py")} - {"__init__"}
    assert cards and {f"smashup.cards.{c}" for c in cards} <= set(modules)
    # Big Base's rules too (issue 23: they ran as Python, and Big Base gained little compiled)
    assert {"bigbase.rules.game", "bigbase.rules.board"} <= set(modules)


def test_an_edited_module_runs_as_python_not_as_its_stale_build(tmp_path):
    _fake_build(tmp_path)
    (tmp_path / "smashup" / "engine" / "core.py").write_text("X = 2\n")  # edited after the build
    assert native.fresh_binary("smashup.engine.core", tmp_path) is None
    assert native.CompiledFinder(tmp_path).find_spec("smashup.engine.core") is None


def test_a_pxd_written_or_edited_after_the_build_makes_it_stale(tmp_path):
    _fake_build(tmp_path)
    assert native.fresh_binary("smashup.engine.core", tmp_path) is not None
    (tmp_path / "smashup" / "engine" / "core.pxd").write_text("cdef class X:\n    cdef public object a\n")
    assert native.fresh_binary("smashup.engine.core", tmp_path) is None


def test_editing_a_module_whose_types_a_build_uses_makes_that_build_stale_too(tmp_path):
    """effects.pxd cimports Game from game.pxd: the compiled effects holds the compiled Game's
    layout, so once game.py is edited (and runs as Python until the next build) effects must run
    as Python too; compiled against a Python Game it would fail to load."""
    native_dir = _fake_build(tmp_path, module="smashup.engine.game")
    (tmp_path / "smashup" / "engine" / "effects.py").write_text("Y = 1\n")
    (tmp_path / "smashup" / "engine" / "effects.pxd").write_text(
        "from smashup.engine.game cimport Game\ncdef class _Ctx:\n    cdef public Game game\n")
    assert native.cimported("smashup.engine.effects", tmp_path) == ["smashup.engine.game"]
    (native_dir / f"smashup.engine.effects{native.SUFFIX}").write_bytes(b"not really a binary")
    manifest = json.loads((native_dir / native.MANIFEST).read_text())
    manifest["smashup.engine.effects"] = {"source": native.source_hash("smashup.engine.effects", tmp_path),
                                  "file": f"smashup.engine.effects{native.SUFFIX}"}
    (native_dir / native.MANIFEST).write_text(json.dumps(manifest))
    assert native.fresh_binary("smashup.engine.effects", tmp_path) is not None
    (tmp_path / "smashup" / "engine" / "game.py").write_text("X = 2\n")  # edited after the build
    assert native.fresh_binary("smashup.engine.game", tmp_path) is None
    assert native.fresh_binary("smashup.engine.effects", tmp_path) is None


def test_the_finder_reads_each_source_once(tmp_path, monkeypatch):
    """A module's hash covers the modules its .pxd cimports (the rule modules cimport state and
    each other), so the finder keeps each module's hash once it is read: hashing them again for
    every module that cimports them was most of the engine's import time."""
    native_dir = _fake_build(tmp_path, module="smashup.engine.state")
    for name in ("smashup.engine.powers", "smashup.engine.scoring"):
        native.source_path(name, tmp_path).write_text("Y = 1\n")
    native.source_path("smashup.engine.powers", tmp_path).with_suffix(".pxd").write_text(
        "from smashup.engine.state cimport GameState\n")
    native.source_path("smashup.engine.scoring", tmp_path).with_suffix(".pxd").write_text(
        "from smashup.engine.state cimport GameState\nfrom smashup.engine.powers cimport power\n")
    manifest = json.loads((native_dir / native.MANIFEST).read_text())
    for name in ("smashup.engine.powers", "smashup.engine.scoring"):
        (native_dir / f"{name}{native.SUFFIX}").write_bytes(b"not really a binary")
        manifest[name] = {"source": native.source_hash(name, tmp_path), "file": f"{name}{native.SUFFIX}"}
    (native_dir / native.MANIFEST).write_text(json.dumps(manifest))
    hashed = []  # `cimported` is read once per module hashed
    cimported = native.cimported
    monkeypatch.setattr(native, "cimported", lambda m, root=native.ROOT_DIR: (
        hashed.append(m), cimported(m, root))[1])
    finder = native.CompiledFinder(tmp_path)
    for name in ("state", "powers", "scoring"):
        assert finder.find_spec(f"smashup.engine.{name}") is not None
    assert sorted(hashed) == ["smashup.engine.powers", "smashup.engine.scoring", "smashup.engine.state"]


def test_a_build_for_another_python_or_a_missing_file_is_ignored(tmp_path):
    native_dir = _fake_build(tmp_path, suffix=".cpython-39-x86_64-linux-gnu.so"
                             if native.SUFFIX != ".cpython-39-x86_64-linux-gnu.so" else ".abi3.so")
    assert native.fresh_binary("smashup.engine.core", tmp_path) is None
    for f in native_dir.glob("smashup.engine.core*"):
        f.unlink()
    assert native.fresh_binary("smashup.engine.core", tmp_path) is None


def test_the_finder_serves_only_built_modules(tmp_path):
    _fake_build(tmp_path)
    finder = native.CompiledFinder(tmp_path)
    assert finder.find_spec("smashup.engine.game") is None  # not in this build
    assert finder.find_spec("smashup.cards.core") is None  # another module of that name
    assert finder.find_spec("core") is None
    assert finder.find_spec("other.engine.core") is None


def test_no_build_means_no_finder(tmp_path, monkeypatch):
    assert native.CompiledFinder(tmp_path).manifest == {}
    monkeypatch.setenv("SMASHUP_ENGINE", "python")
    assert native.disabled()


def test_the_engine_plays_the_same_games_compiled_or_not():
    """Seeded games give the same digest in this process (compiled when a build is fresh) and in a
    pure-Python one (SMASHUP_ENGINE=python)."""
    here = simulate(6, [2, 3, 4], seed=11, check=False)
    code = ("import json; from smashup.engine import native; "
            "from smashup.engine.simulate import simulate; "
            "r = simulate(6, [2, 3, 4], seed=11, check=False); "
            "print(json.dumps([r['digest'], native.engine_build()]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "SMASHUP_ENGINE": "python"}, check=True)
    digest, build = json.loads(out.stdout)
    assert build == "python"
    assert digest == here["digest"]


@pytest.mark.skipif(not os.environ.get("SMASHUP_REQUIRE_COMPILED_ENGINE"),
                    reason="CI (.ci/run) compiles the engine and sets SMASHUP_REQUIRE_COMPILED_ENGINE")
def test_ci_runs_the_compiled_engine():
    import smashup.cards  # noqa: F401
    import smashup.engine.bots  # noqa: F401

    assert native.engine_build() == "compiled", native.status()


def test_compiled_abilities_and_verbs_run_as_generators_do():
    """A card module and effects.py compiled (CI) make the compiler's own generators: the engine
    still runs an ability's generator to its end (decisions._drives), and the guardrail still wraps every
    generator verb of Ctx (effects.Effect)."""
    from collections.abc import Generator

    from smashup.cards import aliens
    from smashup.engine import decisions
    from smashup.engine.effects import Ctx

    ability = aliens.supreme_overlord.on_play(None)  # a generator: its body runs only when driven
    assert decisions._drives(ability)
    assert not decisions._drives(None) and not decisions._drives(True)

    class Foreign(Generator):  # a generator of neither Python's nor this build's type
        def send(self, value):
            raise StopIteration

        def throw(self, *args):
            raise StopIteration

    assert decisions._drives(Foreign())
    assert Ctx.choose_and.is_effect and Ctx.destroy.is_effect


def _assigned_on_self(node) -> set[str]:
    """The attributes a method (or a whole class) assigns as `self.x = ...`."""
    found = set()
    for n in ast.walk(node):
        targets = n.targets if isinstance(n, ast.Assign) else (
            [n.target] if isinstance(n, (ast.AugAssign, ast.AnnAssign)) else [])
        for target in targets:
            for e in ast.walk(target):
                if (isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name)
                        and e.value.id == "self" and isinstance(e.ctx, ast.Store)):
                    found.add(e.attr)
    return found


def _attributes_of(module, name: str, source: Path) -> set[str]:
    """A class's attributes: its __slots__, or else what its `__init__` assigns, which must be
    everything it ever assigns (compiled, an attribute first set later would exist from the start,
    as None, and Python and compiled games would hash differently)."""
    cls = getattr(module, name)
    if "__slots__" in vars(cls):
        return set(cls.__slots__)
    tree = ast.parse(source.read_text())
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    init = next((n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"),
                None)
    if init is None:  # it has no fields of its own (Game: GameState's; see the test below)
        return set()
    assert _assigned_on_self(node) == _assigned_on_self(init), (
        name, "sets attributes outside __init__", _assigned_on_self(node) - _assigned_on_self(init))
    return _assigned_on_self(init)


def test_each_extension_type_declares_exactly_the_attributes_of_its_class():
    """A class that a .pxd makes an extension type when compiled keeps its attributes in the C
    fields declared there: one in __slots__ but not declared would be refused only when compiled,
    one Game sets but not declared would live in its dict."""
    import importlib
    import re

    pxds = sorted(native.ROOT_DIR.glob("*/*/*.pxd"))  # a rule module's types only its functions
    private_field = r"\s+cdef [^()]*?(?<!\w)((?!__)\w+)\s*$"  # not __dict__, __weakref__
    assert any("cdef class" in pxd.read_text() for pxd in pxds)
    for pxd in pxds:
        name = ".".join(pxd.relative_to(native.ROOT_DIR).with_suffix("").parts)
        module = importlib.import_module(name)
        declared: dict[str, set[str]] = {}
        for line in pxd.read_text().splitlines():
            if found := re.match(r"cdef class (\w+)", line):
                cls = declared.setdefault(found.group(1), set())
            elif found := re.match(r"\s+cdef public \w+ (.+)", line):
                cls |= {name.strip() for name in found.group(1).split(",")}
            elif found := re.match(private_field, line):
                cls.add(found.group(1))  # a typed C field, not public (the pairing's Pricer)
        for name, fields in declared.items():
            assert fields == _attributes_of(module, name, pxd.with_suffix(".py")), (pxd.name, name)
    # The digest reads the compiled GameState's fields from this list (Game.state_fields).
    from smashup.engine.state import GAME_FIELDS

    assert sorted(GAME_FIELDS) == sorted(set(GAME_FIELDS)) == sorted(
        _attributes_of(importlib.import_module("smashup.engine.state"), "GameState",
                       native.ENGINE_DIR / "state.py"))


def _assigned_on(node, names: tuple[str, ...]) -> set[str]:
    """The attributes code assigns as `<name>.x = ...` for each of `names` ("self", "game")."""
    found = set()
    for n in ast.walk(node):
        targets = n.targets if isinstance(n, ast.Assign) else (
            [n.target] if isinstance(n, (ast.AugAssign, ast.AnnAssign)) else [])
        for target in targets:
            for e in ast.walk(target):
                if (isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name)
                        and e.value.id in names and isinstance(e.ctx, ast.Store)):
                    found.add(e.attr)
    return found


def test_a_c_function_imported_is_cimported_too():
    """A rule module's hot functions are C functions (`cpdef` in its .pxd, taking a typed
    GameState) that the other modules call directly: a module that imports one must cimport it in
    its own .pxd too, or compiled it calls it as Python, by name, at many times the cost."""
    import re

    c_functions = {pxd.stem: set(re.findall(r"^cpdef (\w+)\(", pxd.read_text(), re.MULTILINE))
                   for pxd in native.ENGINE_DIR.glob("*.pxd")}
    assert "power" in c_functions["powers"] and "ability_active" in c_functions["protections"]
    missing = []
    for path in sorted(native.ENGINE_DIR.glob("*.py")):
        pxd = path.with_suffix(".pxd")
        text = pxd.read_text() if pxd.is_file() else ""
        cimported = {(m, name.strip().split(" as ")[0])
                     for m, names in re.findall(r"^from smashup\.engine\.(\w+) cimport (.+)$", text,
                                                re.MULTILINE)
                     for name in names.split(",")}
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module in c_functions:
                missing += [f"{path.name}: {node.module}.{a.name}" for a in node.names
                            if a.name in c_functions[node.module]
                            and (node.module, a.name) not in cimported]
    assert missing == []


def test_the_rules_set_only_the_fields_of_game_state():
    """Game adds no field of its own, and the rule modules (their functions take the game as
    `game`) set only GameState's fields: an attribute first set by a rule would live in the
    instance's dict, absent until then, and compiled and pure games would hash differently."""
    from smashup.engine.state import GAME_FIELDS

    tree = ast.parse((native.ENGINE_DIR / "game.py").read_text())
    game = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game")
    assert _assigned_on(game, ("self",)) <= set(GAME_FIELDS)
    for module in native.ENGINE_MODULES:  # testing.py, a test tool, records `emit` by hand
        path = native.ENGINE_DIR / f"{module}.py"
        assert _assigned_on(ast.parse(path.read_text()), ("game",)) <= set(GAME_FIELDS), path.name


@pytest.mark.parametrize("engine", ["", "python"])
def test_any_engine_module_may_be_imported_first(engine):
    """Compiled, a module whose pxd cimports another's type (every rule module types its `game`
    as state.GameState) loads that one first: importing any module first, in a fresh
    interpreter, works, compiled or not."""
    for module in native.ENGINE_MODULES:
        code = (f"import smashup.engine.{module}; from smashup.engine import native; "
                "print(native.engine_build())")
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                             text=True, env={**os.environ, "SMASHUP_ENGINE": engine})
        assert out.returncode == 0, (module, out.stderr[-2000:])
        if engine == "python":
            assert out.stdout.split()[-1] == "python"


def test_a_compiled_game_still_takes_other_attributes_and_hashes_its_fields():
    """A Game keeps attributes it does not declare in its dict (a subclass's, a test's), and its
    digest covers its declared fields however it runs."""
    from smashup.engine import new_game
    from smashup.engine.game import GAME_FIELDS, NOT_STATE

    game = new_game({"players": [{"factions": ["Aliens", "Ninjas"]},
                                 {"factions": ["Pirates", "Robots"]}]}, 5)
    game.seen_by_a_test = [1]
    assert game.seen_by_a_test == [1] and "seen_by_a_test" in game.state_fields()
    assert set(GAME_FIELDS) - NOT_STATE <= set(game.state_fields()) | {
        name for name in GAME_FIELDS if callable(getattr(game, name))}
    before = game.digest()
    game.bases_scored += 1
    assert game.digest() != before


def _typed_game_fields() -> dict[str, type]:
    """The Game fields state.pxd declares as a dict or a list (the rest are objects)."""
    import re

    typed = {}
    in_game_state = False  # state.pxd declares BaseSlot and PlayerState too
    for line in (native.ENGINE_DIR / "state.pxd").read_text().splitlines():
        if found := re.match(r"cdef class (\w+)", line):
            in_game_state = found.group(1) == "GameState"
        elif in_game_state and (found := re.match(r"\s+cdef public (dict|list) (.+)", line)):
            kind = dict if found.group(1) == "dict" else list
            typed |= {name.strip(): kind for name in found.group(2).split(",")}
    return typed


@pytest.mark.parametrize("mode", ["standard", "bigbase"])
def test_game_fields_declared_dict_or_list_only_ever_hold_one(mode):
    """Compiled, a field state.pxd declares a dict or a list takes exactly that type or None, and
    anything else raises TypeError: games over every faction keep to it after every choice, so
    pure Python (where nothing would refuse) finds a wrong assignment before a build does."""
    from smashup.engine.bots import BOTS
    from smashup.engine.setup import new_game
    from smashup.engine.simulate import bot_streams, factions_of_sets, tables

    typed = _typed_game_fields()
    assert {"defs", "bases", "minion_state", "_play_rows"} <= set(typed)
    for config, seed in tables(6, [2, 3, 4], 3, "random", factions_of_sets(), mode=mode):
        game = new_game(config, seed)
        rngs = bot_streams(seed, len(game.players))
        while game.pending is not None:
            for name, kind in typed.items():
                value = getattr(game, name)
                assert value is None or type(value) is kind, (name, type(value))
            seat = game.pending.seat
            game.apply(seat, game.pending.id, BOTS["random"](game, rngs[seat]))
