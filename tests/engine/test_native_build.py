"""The profile-guided build (native.build): it compiles, trains on the counting build, compiles
again, and falls back to the plain build when any step of that fails. Run on a one-module package
of its own (the real build takes minutes; CI makes it with `compile_engine`), with the same C
compiler and Cython as the real one."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from smashup import training
from smashup.engine import native

HOT = '''
def total(n):
    found = 0
    for i in range(n):
        if i % 3:
            found += i
    return found
'''

# Loads the package's build through the engine's own finder, from the folder it runs in.
LOAD = ("import sys; from pathlib import Path; from smashup.engine.native import CompiledFinder; "
        "sys.meta_path.insert(0, CompiledFinder(Path.cwd())); import toy.hot as hot; ")


def _package(root: Path) -> tuple[str, ...]:
    (root / "toy").mkdir()
    (root / "toy" / "__init__.py").write_text("")
    (root / "toy" / "hot.py").write_text(HOT)
    return ("toy.hot",)


def _run(root: Path, code: str) -> str:
    found = subprocess.run([sys.executable, "-c", LOAD + code], cwd=root, check=True,
                           capture_output=True, text=True,
                           env={"PYTHONPATH": str(Path(native.ROOT_DIR))})
    return found.stdout.strip()


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    # The training runs from the package's folder, whose smashup/engine/_native (the build) would
    # otherwise be found as the smashup package there: the project's is put first.
    monkeypatch.setenv("PYTHONPATH", str(native.ROOT_DIR))
    return tmp_path, _package(tmp_path)


def test_the_training_runs_on_the_counting_build_and_the_result_loads(sandbox):
    root, modules = sandbox
    marker = root / "trained.txt"
    training = LOAD + (f"assert hot.__file__.endswith({native.SUFFIX!r}); "
                       f"open({str(marker)!r}, 'w').write(str(hot.total(20000)))")
    how = native.build(jobs=1, modules=modules, root=root, training=training)
    assert how == "profile-guided"
    assert marker.read_text() == str(sum(i for i in range(20000) if i % 3))
    assert _run(root, "print(hot.__file__.endswith('.so'), hot.total(10))") == "True 27"
    manifest = native.read_manifest(root.joinpath(*native.NATIVE_PATH))
    assert manifest["toy.hot"]["source"] == native.source_hash("toy.hot", root)


def test_a_failed_training_leaves_the_plain_build(sandbox):
    root, modules = sandbox
    how = native.build(jobs=1, modules=modules, root=root, training="raise SystemExit(3)")
    assert how.startswith("plain (the profile-guided build failed: RuntimeError: the training run "
                           "stopped (3)")
    assert _run(root, "print(hot.__file__.endswith('.so'), hot.total(10))") == "True 27"


def test_the_real_training_refuses_a_build_it_does_not_count(monkeypatch):
    # Training pure Python would count nothing: the build would be profile-guided in name only.
    monkeypatch.setattr(native, "status", lambda modules: {"smashup.engine.game": "python"})
    with pytest.raises(RuntimeError, match="smashup.engine.game"):
        training.train()
