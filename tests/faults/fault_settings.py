"""Settings of the server processes the fault tests start (daphne, the Celery workers, Celery beat).

The test settings (real PostgreSQL), pointed at the test process's own test database and at a Redis
server of the test's own (tests/faults/redis_server.py), which the tests stop and start again: the
channel layer, the broker, the result backend AND the cache all use it, as in production. Sweeps,
catch-up and page timers run at test speed; the values come from the environment fault_stack.py
gives the processes.
"""

import os

from smashup import config
from smashup import settings as production
from smashup.settings_test import *  # noqa: F403
from smashup.settings_test import CELERY_BEAT_SCHEDULE, DATABASES

DATABASES = {"default": {**DATABASES["default"], "NAME": os.environ["FAULT_TEST_DB"]}}
REDIS_URL = os.environ["FAULT_REDIS_URL"]
CHANNEL_LAYERS = config.channel_layers(REDIS_URL, prefix="smashup-fault")
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = REDIS_URL
CACHES = config.caches(REDIS_URL)  # production's: the connection counts live in Redis too
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
# The production queues, each read by its own worker as `start` runs them (fault_stack.py).
PLAY_BOT_QUEUE = production.PLAY_BOT_QUEUE
PLAY_BOT_ONLY_QUEUE = production.PLAY_BOT_ONLY_QUEUE
PLAY_TIMER_QUEUE = production.PLAY_TIMER_QUEUE
SWEEP_QUEUE = production.SWEEP_QUEUE
TOURNAMENT_QUEUE = production.TOURNAMENT_QUEUE

PLAY_BOT_DELAY = float(os.environ.get("FAULT_BOT_DELAY", "0.2"))
PLAY_WS_RATE = (1000, 10.0)  # a test clicks faster than people do
RATE_LIMIT_SCALE = 100  # every client is 127.0.0.1: no limit per address may trip
PLAY_TURN_SECONDS_MIN = 1

# Beat's sweeps every second (production: 5 to 15 s).
CELERY_BEAT_SCHEDULE = {
    name: {**entry, "schedule": 1.0, "options": {"expires": 5.0}}
    for name, entry in CELERY_BEAT_SCHEDULE.items()
}
LIVE_CHECK_SECONDS = float(os.environ.get("FAULT_LIVE_CHECK_SECONDS", "10"))
LIVE_PAGE_QUIET_SECONDS = float(os.environ.get("FAULT_PAGE_QUIET_SECONDS", "30"))
