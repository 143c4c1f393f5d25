"""What `manage.py start` says of the compiled build (native.build_state, native.build_notice):
the quickstart runs the engine as plain Python until `compile_engine` has run, and says so."""
from __future__ import annotations

from smashup.engine import native

from .test_native import _fake_build

CORE, GAME = "smashup.engine.core", "smashup.engine.game"


def test_no_build_fresh_build_and_stale_build(tmp_path):
    modules = (CORE, GAME)
    native.source_path(GAME, tmp_path).parent.mkdir(parents=True)
    native.source_path(GAME, tmp_path).write_text("Y = 1\n")
    assert native.build_state(modules, tmp_path) == "none"
    _fake_build(tmp_path)  # core built, game not
    assert native.build_state(modules, tmp_path) == "stale"
    assert native.build_state((CORE,), tmp_path) == "compiled"
    native.source_path(CORE, tmp_path).write_text("X = 2\n")  # edited after the build
    assert native.build_state((CORE,), tmp_path) == "none"


def test_the_notice_names_the_command_only_when_it_would_help():
    assert native.build_notice("compiled", turned_off=False) is None
    assert native.build_notice("none", turned_off=True) is None  # SMASHUP_ENGINE=python
    for state in ("none", "stale"):
        assert "python manage.py compile_engine" in native.build_notice(state, turned_off=False)
    assert "changed since" in native.build_notice("stale", turned_off=False)
