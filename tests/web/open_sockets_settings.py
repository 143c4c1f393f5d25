"""Settings of the two server processes of tests/web/test_open_sockets_servers.py: the test settings
(real PostgreSQL and Redis) on the test process's own test database, with Redis as the cache as in
production (the counts of the sockets open at once are shared there), a cache prefix and a channel
layer prefix of their own, every limit at its default, and a short life for a process's counts so
that a killed process stops counting soon."""

import os

from smashup import config
from smashup.settings_test import *  # noqa: F403
from smashup.settings_test import DATABASES, REDIS_URL

DATABASES = {"default": {**DATABASES["default"], "NAME": os.environ["OPEN_SOCKETS_TEST_DB"]}}
CHANNEL_LAYERS = config.channel_layers(REDIS_URL, prefix=os.environ["OPEN_SOCKETS_TEST_PREFIX"])
CACHES = config.caches(REDIS_URL)
CACHES["default"]["KEY_PREFIX"] = os.environ["OPEN_SOCKETS_TEST_PREFIX"]
OPEN_SOCKETS_TTL = 3.0
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
