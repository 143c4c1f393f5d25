"""Fixtures of the browser tests: the real stack (daphne + Celery worker on the test PostgreSQL and
Redis, see stack.py) and Debian's Chromium driven by Playwright's sync API.

Chromium must be at /usr/bin/chromium (``apt-get install chromium``; ``.ci/run`` installs it). When
it is missing the tests FAIL with that message; they are never skipped. Playwright cannot download a
browser here, so it always launches that executable.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .stack import start_stack

CHROMIUM = os.environ.get("SMASHUP_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
SCREENSHOTS = Path(os.environ.get("SMASHUP_SCREENSHOTS", Path(__file__).resolve().parent / "screenshots"))
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(
            f"Chromium is not installed at {CHROMIUM}. The browser tests drive Debian's Chromium through "
            "Playwright; install it with: apt-get update && apt-get install -y chromium "
            "(bash .ci/run does this), or set SMASHUP_CHROMIUM to another Chromium executable.",
            pytrace=False,
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.fail("The playwright package is missing: pip install -e '.[dev]'.", pytrace=False)
    return CHROMIUM


@pytest.fixture(scope="module")
def stack(request, django_db_setup, django_db_blocker, redis_url, tmp_path_factory, chromium_path):
    """daphne + a Celery worker serving the test database of this test process, for one module.
    Torn down before pytest-django drops the database (this fixture depends on its setup). A module
    may set STACK_OPTIONS (keyword arguments of start_stack, e.g. production_limits=True)."""
    from django.db import connection

    db_name = connection.settings_dict["NAME"]
    options = getattr(request.module, "STACK_OPTIONS", {})
    running = start_stack(db_name, tmp_path_factory.mktemp("browser-stack"), **options)
    yield running
    running.stop()


@pytest.fixture
def browser(transactional_db, stack, chromium_path):
    """A Chromium browser for one test. It depends on `transactional_db` so that it is closed (and
    Playwright's event loop gone) before the database is flushed, which Django refuses to do while an
    event loop runs in this thread."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing browser test shows the tail of the server logs."""
    report = yield
    if report.failed and call.when == "call":
        running = item.funcargs.get("stack")
        if running is not None:
            report.sections.append(("server logs", running.logs()))
    return report
