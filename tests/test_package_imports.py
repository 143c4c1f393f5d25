"""The top-level packages that hold pure Python must import without Django or Celery."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )


def test_smashup_and_bigbase_packages_do_not_import_django_or_celery():
    result = run_python(
        "import sys, smashup, bigbase, tournaments\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'celery', 'channels'))\n"
        "assert not bad, bad\n"
    )
    assert result.returncode == 0, result.stderr


def test_config_needs_no_django_settings():
    # smashup.config uses only django.core.exceptions, never the settings or app machinery.
    result = run_python(
        "import sys, smashup.config\n"
        "assert 'django.conf' not in sys.modules and 'django.apps' not in sys.modules\n"
    )
    assert result.returncode == 0, result.stderr
