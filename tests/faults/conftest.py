"""Fixtures of the fault tests: a Redis of their own, the real stack on it, and Chromium.

Like the browser tests (tests/browser/conftest.py), these FAIL when PostgreSQL, the redis-server
binary or Chromium are missing; they are never skipped.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import CHROMIUM_ARGS, chromium_path  # noqa: F401 - a fixture, used below

from .fault_stack import start_fault_stack
from .proxy import RedisProxy
from .redis_server import RedisServer

# Fast page timers for the tests: a page that heard nothing for 4 s asks.
STACK_ENV = {"FAULT_PAGE_QUIET_SECONDS": "4", "FAULT_BOT_DELAY": "0.05"}


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory):
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def redis_proxy(own_redis):
    """The stack reaches `own_redis` only through this proxy, which a test may cut or stall
    (proxy.py)."""
    proxy = RedisProxy(own_redis.port)
    proxy.start()
    yield proxy
    proxy.stop()


@pytest.fixture
def redis_network(redis_proxy):
    """The proxy, for a test that cuts or stalls it: healed again after the test, however it ended."""
    yield redis_proxy
    redis_proxy.heal()


@pytest.fixture(scope="module")
def fault_stack(django_db_setup, django_db_blocker, own_redis, redis_proxy, tmp_path_factory):
    """daphne + worker + beat on the test database and `own_redis` (through `redis_proxy`), for one
    module. Torn down before pytest-django drops the database."""
    from django.db import connection

    running = start_fault_stack(
        connection.settings_dict["NAME"], redis_proxy.url, tmp_path_factory.mktemp("fault-stack"), **STACK_ENV
    )
    yield running
    # A failed test may have left Redis stopped or the network cut: let the stack stop cleanly.
    redis_proxy.heal()
    if not own_redis.answers():
        own_redis.start()
    running.stop()


@pytest.fixture
def browser(transactional_db, fault_stack, chromium_path):  # noqa: F811
    """Chromium. While it runs, read the database through `in_thread` (Playwright's sync API runs an
    event loop in this thread, where Django refuses database calls)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing fault test shows the tail of the server logs."""
    report = yield
    if report.failed and call.when == "call":
        running = item.funcargs.get("fault_stack")
        if running is not None:
            report.sections.append(("server logs", running.logs(80)))
    return report
