"""Faults on the real stack (issue 12): Redis stopped while the site runs, and the worker killed.

daphne, a Celery worker and Celery beat run as ``manage.py start`` runs them (fault_stack.py), on the
test database and on a Redis of the tests' own (redis_server.py), which is stopped for a while and
started again EMPTY (no persistence: every queued task, ETA task and subscription is gone, the harder
case). What must hold afterwards: the worker and beat are still running and working, every open page
catches up by itself once Redis is back, bot games go on to their end, a round clock calls time
once, and nothing anyone chose is lost.

The catch-up times are printed (pytest -s); the README's figures come from them. The tests wait for
states with generous timeouts and assert no time: the machine they run on may be busy.
"""

from __future__ import annotations

import random
import time

import pytest

from smashup.play import services
from smashup.play.models import Choice, Game
from tests.browser.conftest import LAPTOP, PHONE
from tests.browser.pages import GamePage, set_up_against_bots
from tests.browser.test_play import public_id

# The stack commits to the test database from other processes: each test runs "transactional" (the
# tables are emptied after it), and the database is set up even for a test that never touches it.
pytestmark = pytest.mark.django_db(transaction=True)

OUTAGE = 10.0  # seconds Redis is down at least in the page tests
WAIT = 60.0  # seconds a test waits for a state before it gives up (generous: the machine may be busy)
WAIT_MS = int(WAIT * 1000)
CLOCK = 15  # seconds on the round clock that runs out during an outage


def wait_for(what: str, check, timeout: float, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:g}s waiting for {what}")
        time.sleep(interval)


def in_thread(fn):
    """`fn()` (database reads) in a thread of its own, whose connection is closed after: the test's
    thread runs Playwright's event loop, where Django refuses database calls."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    def run():
        try:
            return fn()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def stored_game(pk: int) -> Game:
    return in_thread(lambda: Game.objects.get(pk=pk))


def assert_nothing_lost(row: Game) -> None:
    """The record (the choices not taken back) rebuilds to the stored state, hash by hash."""

    def rebuild():
        with services.engine_game(row) as engine:
            return len(engine.choices), Choice.objects.filter(game=row, undone_at__isnull=True).count()

    assert in_thread(rebuild) == (row.version, row.version)


def worker_log(stack, name: str = "worker") -> str:
    return stack.process(name).log.read_text(errors="replace")


# ------------------------------------------------------------------------------ the worker ------
def test_the_worker_survives_redis_outages_while_it_holds_eta_tasks(fault_stack, own_redis):
    """kombu 5.7 stopped the worker on every outage while it held unacknowledged messages (an ETA task
    is one until its moment): "Unrecoverable error: AttributeError: 'NoneType' object has no
    attribute 'hostname'". Two outages in a row: the worker keeps running and runs new tasks after
    each."""
    from celery import Celery

    # Not the current app: shared tasks in this process must stay bound to the site's app.
    client = Celery("fault-test-client", broker=own_redis.url, backend=own_redis.url, set_as_current=False)
    client.conf.broker_connection_retry_on_startup = True

    def received() -> int:
        return sum(
            "Task smashup.ping[" in line and line.endswith("received")
            for line in worker_log(fault_stack).splitlines()
        )

    for outage in (1, 2):
        before = received()
        for _ in range(3):
            client.send_task("smashup.ping", args=["later"], countdown=60)
        wait_for("the worker to hold the ETA tasks", lambda n=before + 3: received() >= n, WAIT)
        own_redis.stop()
        # Redis stays down until the worker has said what it left to the visibility timeout: kombu
        # tries to hand the held tasks back at once or after a pause of its own (5 s seen), and a
        # try after Redis is back succeeds without passing through smashup.core.broker's fallback.
        wait_for(
            "the worker to leave the held tasks to the visibility timeout",
            lambda n=outage: worker_log(fault_stack).count("Could not hand") >= n,
            WAIT,
        )
        own_redis.start()
        answer = client.send_task("smashup.ping", args=[f"after outage {outage}"]).get(timeout=30)
        assert answer == f"after outage {outage}"
        assert fault_stack.dead() == [], fault_stack.logs()
    client.close()
    log = worker_log(fault_stack)
    assert "Unrecoverable error" not in log
    assert log.count("Could not hand") >= 2  # smashup.core.broker said what it left to the visibility timeout


# ------------------------------------------------------------------------------ a game page -----
# Every message a page's sockets send is kept in window.__sent (and the sockets in window.__sockets).
RECORD_SENDS_JS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__sent = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.__sockets.push(this); }
    send(data) { window.__sent.push(String(data)); return super.send(data); }
  };
})();
"""


def open_page(browser, url: str, name: str, viewport: dict):
    context = browser.new_context(viewport=viewport)
    context.add_init_script(RECORD_SENDS_JS)
    page = context.new_page()
    response = page.goto(url)
    assert response is not None and response.status == 200, f"{name}: {response and response.status}"
    return context, GamePage(page, name)


def test_a_redis_outage_during_a_game_against_a_bot(fault_stack, own_redis, browser):
    """Ada plays a bot, a spectator watches. Redis stops for 10 s: both pages say their live updates
    are reconnecting; Ada's choices made meanwhile are stored and both pages show them (the server
    reads the database while its pings are lost); a page opened during the outage loads and says
    "reconnecting" (no HTTP 500, no dead socket). Redis comes back empty: the bot, whose task could
    not be sent, answers through beat's sweep, and every page shows the stored game within 10 s,
    live again. Then time is called and the game is played to its end, every page following live."""
    rng = random.Random(12)
    ada_context = browser.new_context(viewport=LAPTOP)
    ada_context.add_init_script(RECORD_SENDS_JS)
    ada_page = ada_context.new_page()
    set_up_against_bots(ada_page, fault_stack.base_url, "Ada")
    ada = GamePage(ada_page, "Ada")
    ada.wait_live()
    url = f"{fault_stack.base_url}/play/g/{public_id(ada_page.url)}/"
    row = in_thread(lambda: Game.objects.get(public_id=public_id(ada_page.url)))
    spectator_context, spectator = open_page(browser, url, "spectator", PHONE)
    spectator.wait_live()
    ada.wait_mine_or_over()
    pages = [ada, spectator]

    # ---- Redis goes away ------------------------------------------------------------------
    own_redis.stop()
    down_at = time.monotonic()
    for page in pages:
        page.wait_state("reconnecting", timeout=WAIT_MS)
    said = ada.page.inner_text("#ws-state")
    assert "Reconnecting" in said, said

    # Ada answers until the bot must move; each answer is stored and shown on both pages.
    chosen = []
    while True:
        row = stored_game(row.pk)
        if row.pending_seat != 0 or row.status != Game.Status.ACTIVE:
            break
        assert len(chosen) < 30, "the bot never came"
        version = row.version
        chosen.append((version, ada.decide(rng)))
        for page in pages:
            page.wait_version(version + 1, timeout=WAIT_MS)
        assert ada.error() is None, ada.error()
    assert chosen, "Ada should have answered during the outage"
    assert row.pending_seat == 1 and row.status == Game.Status.ACTIVE
    waiting_at = row.version  # the bot's decision: its task could not be sent
    seqs = [v for v, _ in chosen]
    seats = in_thread(
        lambda: list(Choice.objects.filter(game=row, seq__in=seqs).values_list("seat", flat=True))
    )
    assert seats == [0] * len(chosen), "every choice made during the outage is stored, as Ada's"

    # A page opened during the outage: served, its socket opens and says it is reconnecting.
    late_context, late = open_page(browser, url, "late spectator", PHONE)
    late.wait_state("reconnecting", timeout=WAIT_MS)
    assert late.version == waiting_at
    pages.append(late)
    for page in pages:
        assert page.status()["version"] == str(waiting_at), page.name

    # ---- Redis comes back (empty) ---------------------------------------------------------
    time.sleep(max(0.0, down_at + OUTAGE - time.monotonic()))
    own_redis.start()
    up_at = time.monotonic()
    target = wait_for(
        "the bot to answer (beat's sweep)",
        lambda: (lambda r: r.version if r.version > waiting_at and r.pending_seat != 1 else None)(
            stored_game(row.pk)
        ),
        WAIT,
    )
    bot_at = time.monotonic() - up_at
    caught = {}
    for page in pages:
        page.wait_version(target, timeout=WAIT_MS)
        caught[page.name] = round(time.monotonic() - up_at, 2)
    for page in pages:
        page.wait_state("open", timeout=WAIT_MS)
    live_at = round(time.monotonic() - up_at, 2)
    print(
        f"\nafter Redis came back: the bot answered at {bot_at:.2f}s; pages showed it at {caught}; "
        f"all live again at {live_at}s"
    )
    assert fault_stack.dead() == [], fault_stack.logs()

    # Quiet pages asked ({"type": "check"}) and were answered: their sockets are the first ones.
    for page in pages:
        page.page.wait_for_function(
            "() => window.__sent.some(s => JSON.parse(s).type === 'check')", timeout=WAIT_MS
        )
        assert page.page.evaluate("() => window.__sockets.length") == 1, f"{page.name} reconnected"

    # ---- live again: time is called and the game is played to its end ----------------------
    fault_stack.python(f"from smashup.play import services; services.call_time({row.pk})")
    for _ in range(200):
        status = ada.wait_mine_or_over()
        if status["status"] == "finished":
            break
        ada.play_one(rng)
    else:
        pytest.fail("the game did not end after time was called")
    row = stored_game(row.pk)
    assert row.status == Game.Status.FINISHED
    for page in pages:
        page.wait_version(row.version, timeout=WAIT_MS)
        assert page.status()["status"] == "finished", page.name
    assert_nothing_lost(row)
    for context in (ada_context, spectator_context, late_context):
        context.close()


# ------------------------------------------------------------------------------ raw sockets ------
class Listener:
    """A real WebSocket client (the `websockets` package) that keeps every JSON message it gets, with
    the time it came, from a thread of its own."""

    def __init__(self, url: str, origin: str):
        import threading

        from websockets.sync.client import connect

        self.messages: list[tuple[float, dict]] = []
        self.connection = connect(url, origin=origin, open_timeout=10)
        self.socket = self.connection.__enter__()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        import json

        from websockets.exceptions import ConnectionClosed

        try:
            for text in self.socket:
                self.messages.append((time.monotonic(), json.loads(text)))
        except ConnectionClosed:
            pass

    def wait(self, what: str, check, timeout: float, after: float = 0.0) -> tuple[float, dict]:
        """The first message since `after` (a time.monotonic) for which check(message) is true."""
        return wait_for(
            what,
            lambda: next(((t, m) for t, m in list(self.messages) if t >= after and check(m)), None),
            timeout,
        )

    def close(self) -> None:
        self.connection.__exit__(None, None, None)
        self.thread.join(5)


def ws_url(stack, path: str) -> str:
    return stack.base_url.replace("http://", "ws://") + path


# ------------------------------------------------------------------------------ a round clock ----
def test_a_redis_outage_while_a_round_clock_runs_out(fault_stack, own_redis, browser):
    """The round's clock runs out while Redis is down; the worker held its ETA tasks (warning and
    end). The event page (Chromium) and a socket opened during the outage are kept up to date from
    the database: the warning and "time is called" reach them before Redis is back (it stays down
    until they have), and time is called once. When Redis is back both say live again, and a change
    made then (the organizer adds a minute) reaches them."""
    from django.contrib.auth import get_user_model

    from tournaments import services as events
    from tournaments.models import AuditEntry, Event, RoundClock

    def set_up():
        org = get_user_model().objects.create_user(username="org", password="pw-org")
        event = events.create_event(org, name="Outage cup", draft_mode=Event.DraftMode.NONE)
        for i in range(4):
            events.register(event, f"P{i}", by=org)
        rnd = events.generate_round(event, org)
        RoundClock.objects.filter(round=rnd).update(remaining=CLOCK, duration=CLOCK, warnings=[3])
        return event.pk, RoundClock.objects.get(round=rnd).pk

    event_id, clock_id = in_thread(set_up)
    # The organizer, logged in on the event's dashboard.
    organizer_context = browser.new_context(viewport=LAPTOP)
    organizer = organizer_context.new_page()
    organizer.goto(f"{fault_stack.base_url}/accounts/login/?next=/tournaments/{event_id}/manage/")
    organizer.fill("#id_username", "org")
    organizer.fill("#id_password", "pw-org")
    with organizer.expect_navigation():
        organizer.get_by_role("button", name="Log in").click()
    organizer.wait_for_url(f"**/tournaments/{event_id}/manage/")
    context = browser.new_context(viewport=LAPTOP)
    context.add_init_script(RECORD_SENDS_JS)
    page = context.new_page()
    assert page.goto(f"{fault_stack.base_url}/tournaments/{event_id}/").status == 200
    page.wait_for_function("() => window.__sockets.length && window.__sockets[0].readyState === 1")
    clock_js = "() => document.querySelector('.t-clock[data-clock]').dataset.status"
    assert page.evaluate(clock_js) == "ready"

    clicked_at = time.monotonic()
    with organizer.expect_navigation():
        organizer.get_by_role("button", name="Start the clock").click()
    ends_at = clicked_at + CLOCK  # the clock's deadline: CLOCK s after the server got the click, no earlier
    wait_for(
        "the worker to hold the clock's tasks", lambda: worker_log(fault_stack).count("clock_tick") >= 2, WAIT
    )
    page.wait_for_function(f"() => ({clock_js})() === 'running'", timeout=WAIT_MS)

    # ---- Redis goes away before the warning and the end -------------------------------------
    own_redis.stop()
    clock = in_thread(lambda: RoundClock.objects.get(pk=clock_id))
    assert clock.status == RoundClock.Status.RUNNING and not clock.fired, "the clock ran out too soon"
    during = Listener(ws_url(fault_stack, f"/ws/events/{event_id}/"), fault_stack.base_url)
    during.wait("its state", lambda m: m["type"] == "state" and m["clock"]["status"] == "running", WAIT)
    during.wait("'reconnecting'", lambda m: m == {"type": "live", "state": "reconnecting"}, WAIT)

    page.wait_for_function(f"() => ({clock_js})() === 'called'", timeout=WAIT_MS)
    called_after = time.monotonic() - ends_at  # at most this long after the deadline
    during.wait("time called", lambda m: m["type"] == "changed" and m["clock"]["status"] == "called", WAIT)

    # ---- Redis comes back (empty) ------------------------------------------------------------
    own_redis.start()
    up_at = time.monotonic()
    live_at, _ = during.wait("'live' again", lambda m: m == {"type": "live", "state": "live"}, WAIT, up_at)
    # The organizer adds a minute on the dashboard: the event page and the socket show it, live.
    organizer.fill("#extend-minutes", "1")
    changed_at = time.monotonic()
    with organizer.expect_navigation():
        organizer.get_by_role("button", name="+ minutes", exact=True).click()
    page.wait_for_function(f"() => ({clock_js})() === 'running'", timeout=WAIT_MS)
    shown_at = time.monotonic()
    during.wait(
        "the extension",
        lambda m: m["type"] == "changed" and m["clock"]["status"] == "running",
        WAIT,
        changed_at,
    )
    print(
        f"\nround clock: time called on the page within {called_after:.2f}s of the deadline (Redis down); "
        f"socket live again {live_at - up_at:.2f}s after Redis came back; the organizer's change "
        f"shown {shown_at - changed_at:.2f}s after it"
    )

    def log():
        messages = list(AuditEntry.objects.filter(event_id=event_id).values_list("message", flat=True))
        return sum(m.endswith("time is called.") for m in messages), sum(
            m.endswith("0:03 left.") for m in messages
        )

    assert in_thread(log) == (1, 1), "time is called once, the warning given once"
    assert in_thread(lambda: RoundClock.objects.get(pk=clock_id).status) == RoundClock.Status.RUNNING
    assert fault_stack.dead() == [], fault_stack.logs()
    during.close()
    context.close()
    organizer_context.close()


# ------------------------------------------------------------------------------ a killed worker --
def test_a_worker_killed_mid_game_and_the_bot_game_still_finishes(fault_stack, transactional_db):
    """Two bots play; a spectator's socket watches. The worker is killed outright (SIGKILL) in the
    middle of the game, holding the next bot move, and started again a second later (as `start` does
    after its back-off). Beat's bot sweep finds the game waiting and the game plays on to its end;
    the spectator sees every move and the end; the record is whole."""
    out = fault_stack.python(
        "from smashup.play import services\n"
        "g = services.create_game([services.SeatSpec('bot'), services.SeatSpec('bot')], end_after_bases=2)\n"
        "print(g.pk, g.public_id)\n"
    )
    pk, public = out.split()
    spectator = Listener(ws_url(fault_stack, f"/ws/games/{public}/?format=json"), fault_stack.base_url)
    spectator.wait("the game", lambda m: m["type"] == "state", WAIT)
    wait_for("a few bot moves", lambda: stored_game(int(pk)).version >= 8, WAIT)
    fault_stack.kill("bot-only worker")  # the worker that plays tables of bots only
    killed_at = time.monotonic()
    stalled = stored_game(int(pk))
    assert stalled.status == Game.Status.ACTIVE, "the game should still be on when the worker dies"
    time.sleep(1)
    fault_stack.start_again("bot-only worker")
    finished = wait_for(
        "the game to finish",
        lambda: (lambda r: r if r.status == Game.Status.FINISHED else None)(stored_game(int(pk))),
        120,
    )
    ended_at = time.monotonic()
    # Every move after `stalled` (read once the worker was dead) was made after the kill.
    resumed = [t for t, m in spectator.messages if m["type"] == "state" and m["version"] > stalled.version]
    assert resumed, f"the spectator saw no move after version {stalled.version}"
    seen_end = spectator.wait("the end", lambda m: m["type"] == "state" and m["status"] == "finished", WAIT)[
        0
    ]
    print(
        f"\nkilled worker: the bots moved again {resumed[0] - killed_at:.2f}s after the kill; the game "
        f"ended {ended_at - killed_at:.1f}s after it ({finished.version} choices); the spectator saw "
        f"the end {max(0.0, seen_end - ended_at):.2f}s after"
    )
    assert_nothing_lost(finished)
    versions = [m["version"] for _, m in spectator.messages if m["type"] == "state"]
    assert versions == sorted(versions) and versions[-1] == finished.version
    assert fault_stack.dead() == [], fault_stack.logs()
    # The new worker ran the tasks of the earlier one's run (beat's, and none left over) quietly.
    restarted_log = worker_log(fault_stack, "bot-only worker").split("bots-only@")[-1]
    assert "ERROR" not in restarted_log and "Traceback" not in restarted_log, restarted_log[-3000:]
    spectator.close()
