"""Notices that reach a player away from their page: Web Push (tournaments.push) and e-mail
(tournaments.mailing), for the same moments the page alerts (tournaments.notices): table paired,
pick up, clock low, time called, result to confirm, a place off the waitlist.

After every change of an event (services.notify, after the commit) ``queue_delivery`` sends one
Celery task, ``tournaments.deliver_notices``, on ``NOTICE_QUEUE`` (by default the tournament queue),
unless no player of the event has turned on push or e-mail (one query). Nothing is sent in the
request, nor in a clock task: the clock commits its change, then this task runs on its own.

The task (``deliver``) works out each such player's notices now, from the database, exactly as
their page does, and sends the ones whose key (the moment) it has not sent them before: a
``NoticeSent`` row per (player, key), written before anything is sent (all of a run's in one
statement, marked with the run's claim), so that two tasks racing (two changes in a row) never send
a moment twice. A moment that is over by the time the task runs (the
pick made, the result confirmed) is not sent at all. What a player's page showed when they turned
push or e-mail on counts as sent (``mark_seen``). A lost task (the broker down) loses nothing that
is still current: the event's next change sends it.

Push messages go out in parallel, a few subscriptions at a time, each subscription's in order (each
push service's answer awaited at most ``push.SEND_TIMEOUT``); a subscription whose push service says
it is gone is deleted; the mails of one task share one SMTP connection.
"""

from __future__ import annotations

import logging
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from smashup import draft as kiq

from . import clock as clocks
from . import drafting, mailing, push
from .models import Bye, Draft, Entrant, Event, NoticeEmail, NoticeSent, PushSubscription, RoundClock, Seat
from .notices import Notice, player_notices

logger = logging.getLogger(__name__)

PUSH_THREADS = 8
# How long a push service keeps a message for a phone it cannot reach (RFC 8030 TTL, seconds): a
# clock warning is worth little ten minutes on, a place off the waitlist for a day.
TTL = {"paired": 3600, "pick": 600, "clock": 600, "called": 1800, "confirm": 3600, "place": 86400}
# A newer message of a kind replaces an older one the push service still holds (RFC 8030 Topic):
# the five-minute warning replaces the ten-minute one, time called replaces both.
TOPIC = {"paired": "paired", "pick": "pick", "clock": "clock", "called": "clock", "confirm": "confirm",
         "place": "place"}  # fmt: skip


def kind(key: str) -> str:
    return key.split(":", 1)[0]


# ---------------------------------------------------------------------------------- what is due ----
def current_notices(event: Event, entrants: list[Entrant]) -> dict[int, list[Notice]]:
    """Each entrant's notices now, as their page (views.me_page) works them out, for many players in
    a few queries."""
    out: dict[int, list[Notice]] = {e.pk: [] for e in entrants}
    if not entrants:
        return out
    ids = list(out)
    rnd = event.rounds_set.order_by("-number").first()
    round_finished = rnd is None or rnd.is_finished or event.is_finished
    clock = None
    if not round_finished:
        clock = RoundClock.objects.filter(round=rnd).first()
    seats: dict[int, Seat] = {}
    byes: dict[int, int] = {}
    drafts: dict[int, Draft] = {}
    if rnd is not None:
        for seat in Seat.objects.filter(round=rnd, entrant_id__in=ids).select_related("table__reported_by"):
            seats[seat.entrant_id] = seat
        byes = dict(Bye.objects.filter(round=rnd, entrant_id__in=ids).values_list("entrant_id", "changes"))
        tables = {s.table_id for s in seats.values()}
        drafts = {d.table_id: d for d in Draft.objects.filter(table_id__in=tables, status=Draft.Status.OPEN)}
    pickers = {table_pk: kiq.current_picker(drafting.state_of(d)) for table_pk, d in drafts.items()}
    warned = clocks.warning_given(clock)
    for entrant in entrants:
        seat = seats.get(entrant.pk)
        table = seat.table if seat is not None else None
        draft = drafts.get(table.pk) if table is not None else None
        out[entrant.pk] = player_notices(
            event_name=event.name,
            round_number=rnd.number if rnd is not None else None,
            round_label=rnd.label if rnd is not None else "",
            round_finished=round_finished,
            table_pk=table.pk if table is not None else None,
            table_number=table.number if table is not None else None,
            seat=seat.position + 1 if seat is not None else None,
            bye=entrant.pk in byes,
            table_state=table.state if table is not None else "",
            result_version=table.result_version if table is not None else 0,
            reported_by=table.reported_by.name if table is not None and table.reported_by_id else "",
            reported_by_me=table is not None and table.reported_by_id == entrant.pk,
            confirmed=seat is not None and seat.confirmed,
            draft_turn=draft.version if draft is not None and pickers[table.pk] == entrant.pk else None,
            clock_status=clock.status if clock is not None else "",
            warned=warned,
            promoted=entrant.promoted_at.isoformat() if entrant.promoted_at and not entrant.dropped else "",
            changes=seat.changes if seat is not None else byes.get(entrant.pk, 0),
        )
    return out


def mark_seen(entrant: Entrant) -> None:
    """The notices the player's page shows now count as sent: turning push or e-mail on does not
    send what they are looking at."""
    event = Event.objects.get(pk=entrant.event_id)
    entrant = Entrant.objects.get(pk=entrant.pk)
    keys = [n.key for n in current_notices(event, [entrant])[entrant.pk]]
    NoticeSent.objects.bulk_create(
        [NoticeSent(entrant=entrant, key=key) for key in keys], ignore_conflicts=True
    )


def _claim(wanted: list[tuple[int, str]]) -> set[tuple[int, str]]:
    """Write that these (player, key) moments go out now; returns those this run wrote (a row
    another run wrote first is left to it). Two statements however many."""
    if not wanted:
        return set()
    claim = uuid.uuid4().hex
    NoticeSent.objects.bulk_create(
        [NoticeSent(entrant_id=entrant_id, key=key, claim=claim) for entrant_id, key in wanted],
        ignore_conflicts=True,
        batch_size=500,
    )
    players = {entrant_id for entrant_id, _ in wanted}  # by the players' index, not a scan of all
    mine = NoticeSent.objects.filter(entrant_id__in=players, claim=claim)
    return set(mine.values_list("entrant_id", "key"))


# ---------------------------------------------------------------------------------- sending -------
@dataclass
class Outcome:
    notices: int = 0
    pushed: int = 0
    gone: int = 0
    failed: int = 0
    mailed: int = 0

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def deliver(event_id: int) -> dict:
    """Send every player of the event with push or e-mail turned on the notices they have not had.
    Returns counts (for the log and the tests)."""
    outcome = Outcome()
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return outcome.as_dict()
    subscriptions: dict[int, list[PushSubscription]] = {}
    if push.enabled():
        for sub in PushSubscription.objects.filter(entrant__event=event):
            subscriptions.setdefault(sub.entrant_id, []).append(sub)
    mails = {
        row.entrant_id: row
        for row in NoticeEmail.objects.filter(entrant__event=event, confirmed_at__isnull=False)
    }
    ids = set(subscriptions) | set(mails)
    if not ids:
        return outcome.as_dict()
    entrants = list(Entrant.objects.filter(pk__in=ids))
    due = current_notices(event, entrants)
    sent = set(NoticeSent.objects.filter(entrant_id__in=ids).values_list("entrant_id", "key"))
    page = reverse("tournaments:me", args=[event.pk])
    pushes: list[tuple[PushSubscription, Notice]] = []
    messages = []
    claimed = _claim([(e.pk, n.key) for e in entrants for n in due[e.pk] if (e.pk, n.key) not in sent])
    for entrant in entrants:
        fresh = [n for n in due[entrant.pk] if (entrant.pk, n.key) in claimed]
        if not fresh:
            continue
        outcome.notices += len(fresh)
        # Least urgent first, so that the most urgent is the newest notification on the phone.
        pushes += [(sub, n) for n in reversed(fresh) for sub in subscriptions.get(entrant.pk, [])]
        if entrant.pk in mails:
            mails[entrant.pk].entrant = entrant
            entrant.event = event
            messages.append(mailing.notice_mail(mails[entrant.pk], fresh))
    _push_all(pushes, page, outcome)
    outcome.mailed = mailing.send_all(messages)
    if outcome.notices:
        logger.info("notices of event %s: %s", event_id, outcome.as_dict())
    return outcome.as_dict()


def _push_all(pushes: list[tuple[PushSubscription, Notice]], page: str, outcome: Outcome) -> None:
    """Each subscription's messages in order (one thread each, a few at once), so a phone gets a
    moment's notices in the order they were meant."""
    if not pushes:
        return
    by_subscription: dict[int, list[tuple[PushSubscription, Notice]]] = {}
    for sub, notice in pushes:
        by_subscription.setdefault(sub.pk, []).append((sub, notice))

    def one(items):
        results = []
        for sub, notice in items:
            keys = push.Keys(sub.endpoint, sub.p256dh, sub.auth)
            k = kind(notice.key)
            message = push.payload(notice, page)
            result = push.send(keys, message, ttl=TTL.get(k, 3600), topic=TOPIC.get(k, ""))
            results.append((sub, result))
            if result is push.Result.GONE:
                break  # nothing more to this one
        return results

    groups = list(by_subscription.values())
    with ThreadPoolExecutor(max_workers=min(PUSH_THREADS, len(groups)), thread_name_prefix="push") as pool:
        results = [item for found in pool.map(one, groups) for item in found]
    gone, sent = set(), set()
    for sub, result in results:
        if result is push.Result.SENT:
            outcome.pushed += 1
            sent.add(sub.pk)
        elif result is push.Result.GONE:
            gone.add(sub.pk)
        else:
            outcome.failed += 1
    if gone:
        outcome.gone = PushSubscription.objects.filter(pk__in=gone).delete()[0]
    if sent - gone:
        PushSubscription.objects.filter(pk__in=sent - gone).update(last_sent_at=timezone.now())


# ---------------------------------------------------------------------------------- the hook ------
def has_channels(event_id: int) -> bool:
    """Whether any player of the event has push (while the site sends it) or confirmed e-mail on
    (one query)."""
    wanted = Q(notice_email__confirmed_at__isnull=False)
    if push.enabled():
        wanted |= Q(push_subscriptions__isnull=False)
    return Entrant.objects.filter(event_id=event_id).filter(wanted).exists()


def queue_delivery(event_id: int) -> bool:
    """After an event's change is committed: send the delivery task, unless nobody would get
    anything. Never raises (the change is committed whatever happens here)."""
    from smashup.core.schedule import send_at

    from .tasks import deliver_notices

    try:
        if not has_channels(event_id):
            return False
        queue = getattr(settings, "NOTICE_QUEUE", None) or getattr(settings, "TOURNAMENT_QUEUE", None)
        return send_at(deliver_notices, (event_id,), timezone.now(), **({"queue": queue} if queue else {}))
    except Exception:  # noqa: BLE001 - broker down: the next change of the event sends what is due
        logger.exception("could not send the notices task of event %s", event_id)
        return False
