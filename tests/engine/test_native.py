"""The compiled build of the engine (native.py): loaded only while fresh, and it plays the same."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from smashup.engine import native
from smashup.engine.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]


def _fake_build(tmp_path: Path, source: str = "X = 1\n", built_from: str | None = None,
                suffix: str = native.SUFFIX) -> Path:
    (tmp_path / "core.py").write_text(source)
    native_dir = tmp_path / "_native"
    native_dir.mkdir()
    (native_dir / f"core{suffix}").write_bytes(b"not really a binary")
    digest = native.source_hash("core", tmp_path) if built_from is None else built_from
    (native_dir / native.MANIFEST).write_text(json.dumps({"core": {"source": digest,
                                                                    "file": f"core{suffix}"}}))
    return native_dir


def test_a_fresh_build_is_found(tmp_path):
    native_dir = _fake_build(tmp_path)
    assert native.fresh_binary("core", tmp_path) == native_dir / f"core{native.SUFFIX}"
    spec = native.CompiledFinder(tmp_path).find_spec("smashup.engine.core")
    assert spec is not None and spec.origin == str(native_dir / f"core{native.SUFFIX}")


def test_an_edited_module_runs_as_python_not_as_its_stale_build(tmp_path):
    _fake_build(tmp_path)
    (tmp_path / "core.py").write_text("X = 2\n")  # edited after the build
    assert native.fresh_binary("core", tmp_path) is None
    assert native.CompiledFinder(tmp_path).find_spec("smashup.engine.core") is None


def test_a_build_for_another_python_or_a_missing_file_is_ignored(tmp_path):
    native_dir = _fake_build(tmp_path, suffix=".cpython-39-x86_64-linux-gnu.so"
                             if native.SUFFIX != ".cpython-39-x86_64-linux-gnu.so" else ".abi3.so")
    assert native.fresh_binary("core", tmp_path) is None
    for f in native_dir.glob("core*"):
        f.unlink()
    assert native.fresh_binary("core", tmp_path) is None


def test_the_finder_serves_only_built_engine_modules(tmp_path):
    _fake_build(tmp_path)
    finder = native.CompiledFinder(tmp_path)
    assert finder.find_spec("smashup.engine.game") is None  # not in this build
    assert finder.find_spec("smashup.cards.core") is None  # not the engine
    assert finder.find_spec("core") is None


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
    import smashup.engine.bots  # noqa: F401

    assert native.engine_build() == "compiled", native.status()
