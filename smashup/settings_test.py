"""Settings for the test suite: the REAL PostgreSQL and Redis of the development and CI machines.

``TEST_DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/smashup``; pytest-django creates
and drops ``test_smashup``, one per xdist worker) and ``TEST_REDIS_URL`` (default
``redis://127.0.0.1:6379/1``) choose them. When either is unreachable the tests that need it fail with
a message saying so (see tests/conftest.py); they are never skipped.
"""

import os

from smashup import config
from smashup.settings import *  # noqa: F403
from smashup.settings import BASE_DIR, STORAGES

DEFAULT_TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/smashup"
DEFAULT_TEST_REDIS_URL = "redis://127.0.0.1:6379/1"

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL") or DEFAULT_TEST_DATABASE_URL
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL") or DEFAULT_TEST_REDIS_URL

DEBUG = False
SECRET_KEY = "tests-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]

DATABASES = {"default": config.parse_database_url(TEST_DATABASE_URL, BASE_DIR)}
# Connections that outlive a test would keep the test database from being dropped at the end.
DATABASES["default"]["CONN_MAX_AGE"] = 0

REDIS_URL = config.parse_redis_url(TEST_REDIS_URL)
# A prefix of its own per test process, so parallel runs sharing one Redis never see each other's groups.
CHANNEL_LAYERS = config.channel_layers(REDIS_URL, prefix=f"smashup-test-{os.getpid()}")
CELERY_BROKER_URL = REDIS_URL
CELERY_BROKER_TRANSPORT = "smashup.core.broker:Transport"  # as settings.py does with a REDIS_URL
globals().update(config.celery_redis_settings(REDIS_URL, REDIS_TIMEOUT))  # noqa: F405 - from settings
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_ALWAYS_EAGER = False
# Per process: the web tests clear the cache before each test, and clearing a Redis cache would flush
# the database that the channel layer and Celery of the other test worker use.
CACHES = config.caches(None)

PLAY_BOT_DELAY = 0  # bots answer at once in tests
# One queue for every live-play task (PLAY_BOT_QUEUE, which a test may point at a queue of its own with
# one worker on it), and Celery's default for the rest, as before issue 28. The production layout has
# tests of its own (tests/web/test_queues.py) and runs in the fault tests (tests/faults).
PLAY_BOT_ONLY_QUEUE = PLAY_TIMER_QUEUE = SWEEP_QUEUE = TOURNAMENT_QUEUE = None

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Serve static files from the apps' static dirs; no collectstatic in tests.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
