"""Settings of the server processes that the browser tests start (daphne and a Celery worker).

The test settings (real PostgreSQL and Redis), pointed at the test process's own test database and
channel-layer prefix, with a bot queue of their own; the values come from the environment that
``tests/browser/stack.py`` gives the processes.
"""

import os

from smashup import config
from smashup.settings_test import *  # noqa: F403
from smashup.settings_test import DATABASES, REDIS_URL

DATABASES = {"default": {**DATABASES["default"], "NAME": os.environ["BROWSER_TEST_DB"]}}
CHANNEL_LAYERS = config.channel_layers(REDIS_URL, prefix=os.environ["BROWSER_TEST_PREFIX"])
PLAY_BOT_QUEUE = os.environ["BROWSER_TEST_QUEUE"]
# One cache for the stack's processes, as in production (Redis): what a worker keeps for the pages
# (a hint) must be there for the web server. A prefix of its own; the test process keeps its own cache.
CACHES = config.caches(REDIS_URL)
CACHES["default"]["KEY_PREFIX"] = os.environ["BROWSER_TEST_PREFIX"]
PLAY_BOT_DELAY = float(os.environ.get("BROWSER_TEST_BOT_DELAY", "0"))
PLAY_WS_RATE = (1000, 10.0)  # a test clicks faster than people do
# Every page and socket of every test comes from 127.0.0.1: no limit per client may trip.
RATE_LIMIT_SCALE = 100
if os.environ.get("BROWSER_TEST_PRODUCTION_LIMITS"):
    # A test that must see the game at a person's pace: the bots' delay and the message limit of the
    # real settings, not the fast ones above.
    from smashup import settings as production

    PLAY_BOT_DELAY = production.PLAY_BOT_DELAY
    PLAY_WS_RATE = production.PLAY_WS_RATE
    RATE_LIMIT_SCALE = production.RATE_LIMIT_SCALE
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
