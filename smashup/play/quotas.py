"""Who may set up another table (issue 28, "Bot tables can be flooded").

Every table with bots costs the server work for as long as it plays, and the bots of a table of bots
only play on with nobody waiting for them: 160 of those from one address once took every person's bot
moves from 0.6 s to 10 s. So:

- **Tables of bots only are for staff** (``User.is_staff``): in the lobby, and when a table's creator
  starts it early with no person seated (its free seats would all become bots). Nobody else needs one
  to play, they cost the most (the bots never wait for anyone, and the coming expert bot thinks for
  seconds a move), and a limit of "one per visitor" would be walked around by anyone with a few
  addresses. Staff can show one (a demo) or test with them; their moves go to a worker of their own
  that never delays a person's bot (smashup/core/queues.py).
- **Live tables per browser session, account and address**: a table counts while it waits in the
  lobby or is in play AND something happened in it (set up, started, a move) within the limit's
  window; a game that nobody plays any more stops counting then, so an abandoned table does not
  block its creator for ever. The defaults (``smashup.core.limits.DEFAULT_RATES``, as (count,
  seconds), overridden by ``RATE_LIMITS`` and scaled by ``RATE_LIMIT_SCALE`` like every limit):
  ``live_tables_session`` 3, ``live_tables_account`` 5, ``live_tables_address`` 10, each over an
  hour. A new session costs one page load, so the address is always counted too (read as the other
  limits read it: ``X-Forwarded-For`` only from ``TRUSTED_PROXIES``). Staff have no such limit.

The rules are plain functions over plain data (``refusal``, ``start_refusal``); ``check`` reads the
counts from the database. ``seats.create_game`` and ``seats.start_game`` apply them under a lock per
session, account and address (PostgreSQL advisory locks), so parallel requests cannot all pass the
same count. A refusal changes nothing: no table, no seat.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection
from django.utils import timezone

from smashup.core import limits

from .errors import PlayError
from .models import Game

LIVE_LIMITS = ("live_tables_session", "live_tables_account", "live_tables_address")
RETRY_AFTER_SECONDS = 60  # a table frees its place when its game ends: look again in a minute

BOTS_ONLY = (
    "Tables played only by bots are for staff. Make at least one seat a person: you, or someone you "
    "invite with the table's code."
)
START_BOTS_ONLY = (
    "Nobody has sat down at this table yet, and a table played only by bots is for staff. Sit down "
    "yourself, or wait for someone to take a seat."
)


class TableRefused(PlayError):
    """A new table (or an early start) that the limits refuse: `status` is the HTTP status to answer
    with (403: not allowed at all, 429: too many for now, with `retry_after` seconds)."""

    code = "limited"

    def __init__(self, message: str, *, status: int = 429, retry_after: int | None = None):
        super().__init__(message, "limited" if status == 429 else "forbidden")
        self.status = status
        self.retry_after = retry_after


@dataclass(frozen=True)
class Creator:
    """Who asks for a table, as plain data: the account (if any, and whether it is staff), a digest
    of the browser session's key ("" without a session) and the address ("" when unknown)."""

    user_id: int | None = None
    staff: bool = False
    session: str = ""
    address: str = ""


def session_digest(key: str | None) -> str:
    """What a table keeps of its creator's session key: a digest, never the key itself."""
    if not key:
        return ""
    return hashlib.sha256(f"smashup.play.table-creator:{key}".encode()).hexdigest()[:40]


def creator_of(request) -> Creator:
    """The `Creator` of an HTTP request. A browser without a session yet gets one, so that the
    tables it sets up count for it (the lobby keeps the tables it made in the session anyway)."""
    user = getattr(request, "user", None)
    authenticated = user is not None and user.is_authenticated
    session = getattr(request, "session", None)
    key = None
    if session is not None:
        if not session.session_key:
            session.save()
        key = session.session_key
    return Creator(
        user_id=user.pk if authenticated else None,
        staff=bool(authenticated and user.is_staff),
        session=session_digest(key),
        address=limits.request_address(request) or "",
    )


# ---------------------------------------------------------------------------------- the rules ----
def refusal(
    creator: Creator, *, bot_only: bool, counts: dict[str, int], rates: dict[str, tuple[int, float]]
) -> TableRefused | None:
    """Whether `creator` may set up one more table (`bot_only`: every seat a bot), given how many
    live tables it has already per limit (`counts`, by the names of LIVE_LIMITS) and the limits
    (`rates`: name -> (count, seconds)). None: allowed."""
    if creator.staff:
        return None
    if bot_only:
        return TableRefused(BOTS_ONLY, status=403)
    for name, (who, text) in {
        "live_tables_session": (creator.session, "This browser"),
        "live_tables_account": (creator.user_id, "Your account"),
        "live_tables_address": (creator.address, "Your address (everyone on your network counts together)"),
    }.items():
        limit, seconds = rates[name]
        if who and counts.get(name, 0) >= limit:
            return TableRefused(
                f"{text} already has {limit} table{'s' if limit != 1 else ''} waiting for players or in "
                f"play, the most allowed. Finish or leave one first: a table stops counting when its game "
                f"is over or nothing has happened in it for {limits.wait_text(seconds)}.",
                retry_after=RETRY_AFTER_SECONDS,
            )
    return None


def start_refusal(creator: Creator, *, people_seated: int) -> TableRefused | None:
    """Whether `creator` may start a table early, its free seats becoming bots, with
    `people_seated` people at it: never into a table of bots only, unless staff."""
    if creator.staff or people_seated > 0:
        return None
    return TableRefused(START_BOTS_ONLY, status=403)


# ---------------------------------------------------------------------------------- counting -----
def live_tables(now: datetime | None = None, window: float = 3600.0):
    """The tables that count as live: in the lobby or in play, with something done in them within
    `window` seconds."""
    since = (now or timezone.now()) - timedelta(seconds=window)
    return Game.objects.filter(status__in=(Game.Status.LOBBY, Game.Status.ACTIVE), updated_at__gte=since)


def live_counts(creator: Creator, now: datetime | None = None) -> dict[str, int]:
    """How many live tables `creator` has per limit (each over its own window)."""
    who = {
        "live_tables_session": ("created_session", creator.session),
        "live_tables_account": ("created_by_id", creator.user_id),
        "live_tables_address": ("created_address", creator.address),
    }
    counts = {}
    for name, (column, value) in who.items():
        if value:
            counts[name] = live_tables(now, limits.rate(name)[1]).filter(**{column: value}).count()
    return counts


def check(creator: Creator, *, bot_only: bool, now: datetime | None = None) -> None:
    """Raise TableRefused when `creator` may not set up one more table (see `refusal`)."""
    if creator.staff:
        return
    counts = {} if bot_only else live_counts(creator, now)
    refused = refusal(
        creator, bot_only=bot_only, counts=counts, rates={n: limits.rate(n) for n in LIVE_LIMITS}
    )
    if refused is not None:
        raise refused


def lock(creator: Creator) -> None:
    """Inside a transaction: hold the creator's session, account and address until it ends, so two
    requests of one client count one after the other (PostgreSQL advisory locks; elsewhere, such as
    the development SQLite, nothing: its writes are one at a time anyway)."""
    if creator.staff or connection.vendor != "postgresql":
        return
    keys = sorted(
        _lock_key(kind, value)
        for kind, value in (
            ("session", creator.session),
            ("user", creator.user_id),
            ("address", creator.address),
        )
        if value
    )
    with connection.cursor() as cursor:
        for key in keys:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def _lock_key(kind: str, value) -> int:
    digest = hashlib.blake2b(f"smashup.play.live-tables:{kind}:{value}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)
