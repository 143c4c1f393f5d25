"""What every Django process does once its apps are ready (smashup.core.apps)."""
import os
import subprocess
import sys
from pathlib import Path

from smashup.core.apps import YOUNG_GENERATION_THRESHOLD

ROOT = Path(__file__).resolve().parents[1]


def test_a_django_process_freezes_what_start_up_made_out_of_the_cycle_collector():
    """Start-up objects (Django, the apps, the card registry) are moved out of the collector's
    generations, so its full collections walk only what games made since; and it walks the young
    generation less often (smashup/core/apps.py)."""
    code = ("import gc; import django; django.setup(); "
            "from smashup.engine.registry import REGISTRY; "
            "tracked = {id(o) for o in gc.get_objects()}; "
            "print(gc.get_freeze_count(), id(REGISTRY) in tracked, len(REGISTRY.factions), "
            "gc.get_threshold()[0])")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "DJANGO_SETTINGS_MODULE": "smashup.settings"},
                         check=True)
    frozen, registry_tracked, factions, young = out.stdout.split()
    assert int(frozen) > 10_000
    assert registry_tracked == "False"
    assert int(factions) == 17  # the registry was built before the freeze
    # The young generation is walked less often than Python's default (every 700 objects).
    assert int(young) == YOUNG_GENERATION_THRESHOLD > 700


def test_commands_run_with_debug_off_before_collectstatic(tmp_path):
    """With DEBUG off, static URLs come from collectstatic's manifest, which a fresh checkout does not
    have until `start` has run collectstatic: nothing may ask for one while the URLconf loads (the
    favicon's redirect did, and `start`, `loadtest` and `check` all failed)."""
    empty = tmp_path / "no-collectstatic-yet"
    empty.mkdir()
    (tmp_path / "debug_off_settings.py").write_text(
        f"from smashup.settings import *  # noqa\nSTATIC_ROOT = {str(empty)!r}\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DEBUG")}
    env.update(
        DJANGO_SETTINGS_MODULE="debug_off_settings",
        PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]),
        DEBUG="false",
        SECRET_KEY="a-test-key-for-debug-off-0123456789-abcdefghijklmnopqrstuvwxyz",
        ALLOWED_HOSTS="localhost",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        SMASHUP_VAR_DIR=str(tmp_path / "var"),
        # A deployment sends its mail somewhere (else check warns, smashup.W001); nothing connects
        # to it during `check`.
        EMAIL_HOST="mail.example.invalid",
    )
    out = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "no issues" in out.stdout
    assert not any(empty.iterdir())  # it ran without collectstatic
