"""Root test configuration.

Tests that use the database run on the real PostgreSQL, and tests that use Redis (channel layer,
Celery) on the real Redis; see smashup/settings_test.py for the URLs and how to change them. When one
of them is unreachable, those tests FAIL with a message that says which server and how to start it.
They are never skipped: a green run must mean the server code really ran against real services.
"""

from __future__ import annotations

import pytest

START_HINT = {
    "postgres": "start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    "redis": (
        "start it with: redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save '' "
        "--appendonly no"
    ),
}


def _check_postgres(db: dict) -> str | None:
    """None if the server answers, else an error text."""
    import psycopg

    try:
        with psycopg.connect(
            host=db["HOST"],
            port=db["PORT"],
            user=db["USER"] or None,
            password=db["PASSWORD"] or None,
            dbname="postgres",
            connect_timeout=5,
        ):
            return None
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {exc}"


@pytest.fixture(scope="session")
def _require_database():
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.postgresql":
        error = _check_postgres(db)
        if error:
            pytest.fail(
                f"PostgreSQL is not reachable at {db['HOST']}:{db['PORT']} "
                f"as {db['USER'] or '(default user)'} ({error}). Tests that use the database need it; "
                f"set TEST_DATABASE_URL to another server or {START_HINT['postgres']}",
                pytrace=False,
            )


@pytest.fixture(scope="session")
def django_db_setup(_require_database, django_db_setup, django_db_blocker):
    """pytest-django's test database setup, after a reachability check with a clear failure message.
    At the end, before pytest-django drops the database, sessions still open on it are ended: a
    thread that ran a database call outside a test's own (an executor thread of a library, say)
    keeps its connection until the process exits, and PostgreSQL refuses to drop a database in use
    ("being accessed by other users", seen at the end of CI runs): that worker's database was left
    behind."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The real Redis of the test settings; fails the test (never skips) when it does not answer."""
    import redis
    from django.conf import settings

    url = settings.REDIS_URL
    error = None
    try:
        client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:  # noqa: BLE001
        error = f"{type(exc).__name__}: {exc}"
    if error:
        pytest.fail(
            f"Redis is not reachable at {url} ({error}). Tests of the channel layer "
            f"and Celery need it; set TEST_REDIS_URL to another server or {START_HINT['redis']}",
            pytrace=False,
        )
    return url


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The limits per client count in the cache (``smashup.core.limits``; per process in the tests,
    see settings_test.CACHES), and the sockets open at once in the process (``opensockets``): every
    test starts with none, so tests never count each other's connections, logins or sign-ups."""
    from django.core.cache import cache

    from smashup.core import limits, opensockets

    cache.clear()
    opensockets.counts().reset()  # the sockets open at once, counted in this process
    limits.resume_cache()  # a test that broke the cache leaves no pause behind
    yield
    cache.clear()
    opensockets.counts().reset()
    limits.resume_cache()


@pytest.fixture(autouse=True)
def _close_live_play_threads():
    """Live play's own threads (smashup.core.threads) keep a database connection each between calls:
    after a test they close them, so the test database can be dropped at the end (it was "still in
    use by 2 other connections")."""
    yield
    from smashup.core import threads

    threads.close_live_play()
