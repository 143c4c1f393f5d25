"""The round clock (a row with a deadline, moved by organizers, fired by Celery tasks that check the row)
and the event WebSocket that tells pages about it, on PostgreSQL and Redis.

Time is moved by moving the row's deadline, not by sleeping; one test runs the real path end to end
(a Celery worker on Redis fires the ETA tasks)."""

from __future__ import annotations

import asyncio
import datetime
import json
import threading
import uuid

import pytest
from celery.contrib.testing.worker import start_worker
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from smashup.asgi import application
from smashup.celery import app as celery_app
from tests.tournaments.people import user
from tournaments import clock, drafting, services, tasks
from tournaments.models import AuditEntry, Draft, Event, RoundClock

SITE_HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
TIMEOUT = 10


def running_round(players: int = 4, **fields) -> tuple[Event, RoundClock]:
    org = user("org")
    fields.setdefault("draft_mode", Event.DraftMode.NONE)
    event = services.create_event(org, name="Clock", date=datetime.date(2026, 5, 1), **fields)
    for i in range(players):
        services.register(event, f"P{i}", by=org)
    rnd = services.generate_round(event, org)
    return event, RoundClock.objects.select_related("round").get(round=rnd)


@pytest.fixture
def scheduled(monkeypatch):
    """Record the Celery tasks the clock schedules instead of sending them."""
    calls = []
    monkeypatch.setattr(
        clock, "schedule", lambda pk, version, moments: calls.append((pk, version, list(moments)))
    )
    return calls


def move_deadline(c: RoundClock, seconds_from_now: float) -> None:
    RoundClock.objects.filter(pk=c.pk).update(
        deadline=timezone.now() + datetime.timedelta(seconds=seconds_from_now)
    )


def fresh(c: RoundClock) -> RoundClock:
    return RoundClock.objects.select_related("round").get(pk=c.pk)


# ---------------------------------------------------------------------------------- organizer ----
@pytest.mark.django_db(transaction=True)
def test_start_sets_the_deadline_and_schedules_a_task_per_moment_after_the_commit(scheduled):
    event, c = running_round(round_minutes=30, warning_minutes=[10, 5])
    before = timezone.now()
    c = clock.start(c, event.organizer)
    assert c.status == "running" and c.version == 1
    assert (
        before + datetime.timedelta(minutes=30)
        <= c.deadline
        <= timezone.now() + datetime.timedelta(minutes=30)
    )
    assert c.round.status == "playing"
    ((pk, version, moments),) = scheduled
    assert (pk, version) == (c.pk, 1)
    assert moments == [
        c.deadline - datetime.timedelta(minutes=10),
        c.deadline - datetime.timedelta(minutes=5),
        c.deadline,
    ]
    with pytest.raises(services.Conflict):
        clock.start(c, event.organizer)


@pytest.mark.django_db
def test_pause_resume_and_extend_move_the_deadline(scheduled, django_capture_on_commit_callbacks):
    event, c = running_round()
    org = event.organizer
    clock.start(c, org)
    move_deadline(c, 1200)  # 20 minutes left
    c = clock.pause(c, org)
    assert c.status == "paused" and c.deadline is None and 1199 <= c.remaining <= 1200 and c.version == 2
    c = clock.extend(c, 300, org)  # paused: the time left grows
    assert 1499 <= c.remaining <= 1500 and c.duration == 55 * 60 and c.version == 3
    c = clock.resume(c, org)
    left = (c.deadline - timezone.now()).total_seconds()
    assert c.status == "running" and 1490 <= left <= 1500 and c.version == 4
    deadline = c.deadline
    c = clock.extend(c, 120, org)  # running: the deadline moves
    assert c.deadline == deadline + datetime.timedelta(seconds=120) and c.version == 5
    with pytest.raises(services.Invalid):
        clock.extend(c, 0, org)
    with pytest.raises(services.Conflict):
        clock.resume(c, org)
    messages = list(AuditEntry.objects.filter(event=event, action="clock").values_list("message", flat=True))
    for text in ("started the clock (50 minutes)", "paused the clock at", "extended the clock by 5 minutes",
                 "resumed the clock at 25 minutes", "extended the clock by 2 minutes"):  # fmt: skip
        assert any(text in m for m in messages), (text, messages)
    with django_capture_on_commit_callbacks(execute=True):
        clock.call_time(c, org)
    c = fresh(c)
    assert c.status == "called" and c.remaining == 0


@pytest.mark.django_db
def test_extending_after_time_was_called_runs_the_clock_again_and_rearms_the_warnings(scheduled):
    event, c = running_round(warning_minutes=[10])
    org = event.organizer
    clock.start(c, org)
    move_deadline(c, -1)
    assert clock.advance(c.pk) == ["warn:600", "call"]
    c = clock.extend(fresh(c), 15 * 60, org)
    assert c.status == "running" and c.fired == [] and c.called_at is None
    assert 899 <= (c.deadline - timezone.now()).total_seconds() <= 900


# ---------------------------------------------------------------------------------- tasks --------
@pytest.mark.django_db
def test_a_stale_task_does_nothing(scheduled):
    event, c = running_round()
    org = event.organizer
    clock.start(c, org)
    old_version = fresh(c).version
    clock.pause(c, org)
    clock.resume(c, org)
    move_deadline(c, -5)  # overdue, but the task is for an earlier version of the clock
    audit = AuditEntry.objects.count()
    assert tasks.clock_tick(c.pk, old_version) == []
    assert fresh(c).status == "running" and AuditEntry.objects.count() == audit
    # The task for the current version does apply.
    assert tasks.clock_tick(c.pk, fresh(c).version) == ["warn:600", "call"]
    assert fresh(c).status == "called"


@pytest.mark.django_db
def test_a_paused_clock_ignores_its_tasks(scheduled):
    event, c = running_round()
    clock.start(c, event.organizer)
    version = fresh(c).version
    move_deadline(c, -5)
    clock.pause(c, event.organizer)
    assert clock.advance(c.pk, version) == [] and clock.advance(c.pk) == []
    assert fresh(c).status == "paused"


@pytest.mark.django_db
def test_running_a_task_twice_applies_once(scheduled):
    event, c = running_round(warning_minutes=[10, 5])
    clock.start(c, event.organizer)
    version = fresh(c).version
    move_deadline(c, 550)  # the 10-minute warning is due, the 5-minute one is not
    assert clock.advance(c.pk, version) == ["warn:600"]
    assert clock.advance(c.pk, version) == []
    assert fresh(c).fired == [600] and fresh(c).version == version  # later tasks still apply
    assert AuditEntry.objects.filter(action="clock", message__contains="10 minutes left").count() == 1
    move_deadline(c, 0.2)  # a task may run a moment early
    assert clock.advance(c.pk, version) == ["warn:300", "call"]
    assert clock.advance(c.pk, version) == []
    assert AuditEntry.objects.filter(action="clock", message__endswith="time is called.").count() == 1
    c = fresh(c)
    assert c.status == "called" and c.called_at is not None and c.fired == [600, 300]


@pytest.mark.django_db
def test_an_early_task_does_nothing_yet(scheduled):
    event, c = running_round()
    clock.start(c, event.organizer)
    assert clock.advance(c.pk, fresh(c).version) == []  # 50 minutes left: nothing is due
    assert fresh(c).fired == [] and fresh(c).status == "running"


@pytest.mark.django_db
def test_the_sweep_catches_a_missed_event(scheduled):
    event, c = running_round()
    clock.start(c, event.organizer)  # its tasks were "lost": `scheduled` only recorded them
    other_event, other = running_round(players=3)
    clock.start(other, other_event.organizer)
    assert clock.sweep() == 0  # nothing due anywhere
    move_deadline(c, -30)
    assert tasks.sweep() == {"clocks": 1, "drafts": 0, "in_app": {"recorded": 0, "time_called": 0}}
    assert fresh(c).status == "called" and fresh(other).status == "running"
    assert clock.sweep() == 0  # and only once


@pytest.mark.django_db
def test_the_sweep_takes_a_pick_when_the_draft_timer_ran_out(monkeypatch):
    monkeypatch.setattr(drafting, "schedule_timeout", lambda *args: None)
    event, c = running_round(players=3, draft_mode=Event.DraftMode.TABLE, pick_seconds=20)
    draft = c.round.tables.get().draft
    drafting.pick_for_current(draft.pk, event.organizer)
    assert drafting.sweep() == 0
    Draft.objects.filter(pk=draft.pk).update(deadline=timezone.now() - datetime.timedelta(seconds=1))
    assert drafting.sweep() == 1 and Draft.objects.get(pk=draft.pk).version == 2
    assert drafting.sweep() == 0


def test_the_beat_schedule_runs_the_sweep():
    from django.conf import settings

    entry = settings.CELERY_BEAT_SCHEDULE["tournaments-sweep"]
    assert entry["task"] == "tournaments.sweep" and entry["schedule"] <= 15
    assert "tournaments.sweep" in celery_app.tasks and "tournaments.clock_tick" in celery_app.tasks


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_fires_the_warning_and_calls_time(redis_url, settings):
    """The production path: ETA tasks on Redis, run by a Celery worker, checking the row."""
    settings.TOURNAMENT_QUEUE = queue = f"test-tournaments-{uuid.uuid4().hex}"
    assert celery_app.conf.task_always_eager is False
    event, c = running_round()
    RoundClock.objects.filter(pk=c.pk).update(remaining=2.0, warnings=[1])
    with start_worker(celery_app, perform_ping_check=False, queues=[queue], shutdown_timeout=30, pool="solo"):
        clock.start(c, event.organizer)
        for _ in range(300):
            if fresh(c).status == "called":
                break
            threading.Event().wait(0.1)
    c = fresh(c)
    assert c.status == "called" and c.fired == [1]
    messages = list(AuditEntry.objects.filter(event=event, action="clock").values_list("message", flat=True))
    assert messages[:2] == ["Round 1: time is called.", "Round 1: 0:01 left."]


# ---------------------------------------------------------------------------------- the socket ---
async def _connect(event_id: int) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"/ws/events/{event_id}/", headers=SITE_HEADERS)
    connected, code = await comm.connect(timeout=TIMEOUT)
    assert connected, code
    return comm


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_pages_hear_of_clock_changes_over_the_event_socket(redis_url, monkeypatch):
    monkeypatch.setattr(clock, "schedule", lambda *args: None)
    event, c = await database_sync_to_async(running_round)()
    comm = await _connect(event.pk)
    hello = json.loads(await comm.receive_from(TIMEOUT))
    assert (
        hello["type"] == "state"
        and hello["clock"]["status"] == "ready"
        and hello["clock"]["deadline"] is None
    )
    await database_sync_to_async(clock.start)(c, event.organizer)
    message = json.loads(await comm.receive_from(TIMEOUT))
    c = await database_sync_to_async(fresh)(c)
    assert message["type"] == "changed" and message["version"] > hello["version"]
    assert message["clock"]["status"] == "running" and message["clock"]["deadline"] == c.deadline.isoformat()
    await database_sync_to_async(clock.pause)(c, event.organizer)
    message = json.loads(await comm.receive_from(TIMEOUT))
    assert message["clock"]["status"] == "paused" and message["clock"]["deadline"] is None
    assert 2990 < message["clock"]["remaining"] <= 3000
    await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_unknown_event_socket_is_closed(redis_url):
    comm = WebsocketCommunicator(application, "/ws/events/999999/", headers=SITE_HEADERS)
    connected, code = await comm.connect(timeout=TIMEOUT)
    assert not connected and code == 4404


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_nothing_changes_through_the_event_socket(redis_url):
    """The socket is read-only: whatever a client sends, nothing in the event changes."""
    event, c = await database_sync_to_async(running_round)()

    def state():
        return (
            list(Event.objects.filter(pk=event.pk).values()),
            list(RoundClock.objects.filter(pk=c.pk).values()),
            AuditEntry.objects.count(),
        )

    before = await database_sync_to_async(state)()
    comm = await _connect(event.pk)
    await comm.receive_from(TIMEOUT)
    for text in ('{"type": "clock", "action": "start"}', '{"type": "result"}', "not json", "{}"):
        await comm.send_to(text_data=text)
        reply = json.loads(await comm.receive_from(TIMEOUT))
        assert reply["type"] == "error" and reply["code"] == "read_only"
    await asyncio.sleep(0.2)
    assert await database_sync_to_async(state)() == before
    await comm.disconnect()


@pytest.mark.django_db
def test_a_page_never_shows_a_running_clock_past_its_deadline(client, scheduled):
    """Without beat (e.g. `runserver`), the first page or poll after the deadline calls time."""
    event, c = running_round()
    clock.start(c, event.organizer)
    move_deadline(c, -3)
    state = client.get(f"/tournaments/{event.pk}/live.json").json()
    assert state["clock"]["status"] == "called" and fresh(c).status == "called"
    assert AuditEntry.objects.filter(action="clock", message__endswith="time is called.").count() == 1


# ---------------------------------------------------------------------------------- over ---------
@pytest.mark.django_db
def test_a_finished_round_stops_its_clock_and_refuses_to_start_it_again(scheduled, client):
    event, c = running_round()
    org = event.organizer
    clock.start(c, org)
    move_deadline(c, -1)  # time is due, but the round finishes first
    for table in c.round.tables.all():
        services.set_result(table, {s.entrant_id: 5 for s in table.seats.all()}, by=org)
    c.refresh_from_db()
    assert c.status == RoundClock.Status.PAUSED and c.deadline is None
    assert clock.advance(c.pk) == [] and clock.advance(c.pk, c.version) == []
    before = (c.status, c.version, AuditEntry.objects.filter(event=event).count())
    for action in (
        lambda: clock.resume(c, org),
        lambda: clock.call_time(c, org),
        lambda: clock.extend(c, 60, org),
    ):
        with pytest.raises(services.Conflict, match="is in: its clock stays stopped"):
            action()
    c.refresh_from_db()
    assert (c.status, c.version, AuditEntry.objects.filter(event=event).count()) == before
    html = client.get(f"/tournaments/{event.pk}/standings/").content.decode()
    assert "t-clock-time" not in html and "Time is called" not in html


@pytest.mark.django_db
def test_time_called_banners_go_once_every_result_is_in_and_the_finished_event_refuses_the_clock(
    scheduled, client
):
    event, c = running_round()
    org = event.organizer
    clock.start(c, org)
    clock.call_time(c, org)
    assert "Time is called" in client.get(f"/tournaments/{event.pk}/standings/").content.decode()
    for table in c.round.tables.all():
        services.set_result(table, {s.entrant_id: 5 for s in table.seats.all()}, by=org)
    for path in ("standings/", "projector/", ""):
        assert "Time is called" not in client.get(f"/tournaments/{event.pk}/{path}").content.decode(), path
    services.finish_event(event, org)
    event.refresh_from_db()
    with pytest.raises(services.Conflict, match="The event is over"):
        clock.start(c, org)
    assert client.get(f"/tournaments/{event.pk}/live.json").json()["clock"] == {"status": "none"}
