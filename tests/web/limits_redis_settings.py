"""Settings of the two web servers that tests/web/test_limits_redis.py starts: the test settings, on
the test process's own database, with the limits' counts in the real Redis (the production cache
settings, under a key prefix of the test's own) and 127.0.0.1 trusted as a proxy, so each request's
X-Forwarded-For names its client."""

import os

from smashup import config
from smashup.settings_test import *  # noqa: F403
from smashup.settings_test import DATABASES, REDIS_URL

DATABASES = {"default": {**DATABASES["default"], "NAME": os.environ["LIMITS_TEST_DB"]}}
CACHES = config.caches(REDIS_URL)
CACHES["default"]["KEY_PREFIX"] = os.environ["LIMITS_TEST_PREFIX"]
CHANNEL_LAYERS = config.channel_layers(REDIS_URL, prefix=os.environ["LIMITS_TEST_PREFIX"])
TRUSTED_PROXIES = ["127.0.0.1"]
ALLOWED_HOSTS = ["127.0.0.1"]
