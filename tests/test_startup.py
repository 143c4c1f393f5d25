"""What every Django process does once its apps are ready (smashup.core.apps)."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_django_process_freezes_what_start_up_made_out_of_the_cycle_collector():
    """Start-up objects (Django, the apps, the card registry) are moved out of the collector's
    generations, so its full collections walk only what games made since."""
    code = ("import gc; import django; django.setup(); "
            "from smashup.engine.registry import REGISTRY; "
            "tracked = {id(o) for o in gc.get_objects()}; "
            "print(gc.get_freeze_count(), id(REGISTRY) in tracked, len(REGISTRY.factions))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "DJANGO_SETTINGS_MODULE": "smashup.settings"},
                         check=True)
    frozen, registry_tracked, factions = out.stdout.split()
    assert int(frozen) > 10_000
    assert registry_tracked == "False"
    assert int(factions) == 17  # the registry was built before the freeze
