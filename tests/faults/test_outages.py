"""Faults on the real stack (issue 12): Redis stopped while the site runs, and the worker killed.

daphne, a Celery worker and Celery beat run as ``manage.py start`` runs them (fault_stack.py), on the
test database and on a Redis of the tests' own (redis_server.py), which is stopped for a while and
started again EMPTY (no persistence: every queued task, ETA task and subscription is gone, the harder
case). What must hold afterwards: the worker and beat are still running and working, every open page
catches up by itself within 10 seconds of Redis coming back, bot games go on to their end, a round
clock calls time once, and nothing anyone chose is lost.

The catch-up times are printed (pytest -s); the README's figures come from them.
"""

from __future__ import annotations

import time

import pytest

# The stack commits to the test database from other processes: each test runs "transactional" (the
# tables are emptied after it), and the database is set up even for a test that never touches it.
pytestmark = pytest.mark.django_db(transaction=True)

OUTAGE = 10.0  # seconds Redis is down in the page tests
CATCH_UP = 10.0  # seconds after Redis is back within which every page must show the stored state


def wait_for(what: str, check, timeout: float, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:g}s waiting for {what}")
        time.sleep(interval)


def worker_log(stack) -> str:
    return stack.process("worker").log.read_text(errors="replace")


# ------------------------------------------------------------------------------ the worker ------
def test_the_worker_survives_redis_outages_while_it_holds_eta_tasks(fault_stack, own_redis):
    """kombu 5.7 stopped the worker on every outage while it held unacknowledged messages (an ETA task
    is one until its moment): "Unrecoverable error: AttributeError: 'NoneType' object has no
    attribute 'hostname'". Two outages in a row: the worker keeps running and runs new tasks after
    each."""
    for outage in (1, 2):
        fault_stack.python(
            "from smashup.core.tasks import ping\n"
            "for i in range(3): ping.apply_async(['later'], countdown=60)\n"
        )
        wait_for(
            "the worker to hold the ETA tasks",
            lambda: worker_log(fault_stack).count("received") >= 3 * outage,
            15,
        )
        own_redis.stop()
        time.sleep(5)
        own_redis.start()
        answer = fault_stack.python(
            "from smashup.core.tasks import ping\n"
            f"print(ping.delay('after outage {outage}').get(timeout=30))\n",
            timeout=60,
        )
        assert answer.strip() == f"after outage {outage}"
        assert fault_stack.dead() == [], fault_stack.logs()
    log = worker_log(fault_stack)
    assert "Unrecoverable error" not in log
    assert log.count("Could not hand") >= 2  # smashup.core.broker said what it left to the visibility timeout
