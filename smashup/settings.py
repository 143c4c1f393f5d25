"""Django settings for the Smash Up server.

Every value that differs between machines comes from the environment, parsed by the plain functions in
``smashup.config`` (see there for the variables and their defaults). With nothing set you get the
embedded single-machine setup: SQLite under ``var/`` and DEBUG on; ``manage.py start`` adds an embedded
Redis.
"""

import os
from pathlib import Path

from smashup import config

BASE_DIR = Path(__file__).resolve().parent.parent

CONFIG = config.load_config(os.environ, BASE_DIR)
VAR_DIR = CONFIG.var_dir  # files of the embedded setup: SQLite, embedded Redis, beat schedule

DEBUG = CONFIG.debug
SECRET_KEY = CONFIG.secret_key
ALLOWED_HOSTS = CONFIG.allowed_hosts
CSRF_TRUSTED_ORIGINS = CONFIG.csrf_trusted_origins
REDIS_URL = CONFIG.redis_url
# Reverse proxies whose X-Forwarded-For names the client (the limits per address); none by default.
TRUSTED_PROXIES = CONFIG.trusted_proxies
# Seconds any Redis call may take before it counts as failed (REDIS_TIMEOUT; README "Staying up").
REDIS_TIMEOUT = CONFIG.redis_timeout

if CONFIG.database["ENGINE"].endswith("sqlite3") and CONFIG.database["NAME"] != ":memory:":
    Path(CONFIG.database["NAME"]).parent.mkdir(parents=True, exist_ok=True)
DATABASES = {"default": CONFIG.database}

INSTALLED_APPS = [
    "daphne",  # first: its runserver serves ASGI (websockets) in development
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "smashup.core",
    "smashup.play",
    "bigbase",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Bad input (a NUL byte or another control character, an over-long value, a malformed body, a
    # malformed number a view raises BadNumber for) is a 400 with its message, never a 500; bad
    # cookies are dropped before the session middleware reads them (smashup/core/inputs.py).
    "smashup.core.inputs.BadInputMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "smashup.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "smashup.wsgi.application"
ASGI_APPLICATION = "smashup.asgi.application"

CHANNEL_LAYERS = config.channel_layers(REDIS_URL, timeout=REDIS_TIMEOUT)

# The cache holds the WebSocket connection counts (smashup.core.limits), shared through Redis.
CACHES = config.caches(REDIS_URL, timeout=REDIS_TIMEOUT)

# Celery: the Redis from REDIS_URL is broker and result backend. Without REDIS_URL (a bare
# `manage.py shell` or `runserver`), tasks run inline so nothing needs a broker; `manage.py start`
# always provides one.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker that loses Redis reconnects for as long as it takes (Celery's default gives up after 100
# tries), through a Redis transport that survives the loss (smashup/core/broker.py: kombu 5.7 stops the
# worker otherwise).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Celery 6's default, said now so the worker does not warn on every reconnect: a task still running when
# the connection is lost is stopped (ours take milliseconds and are safe to run again).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
if REDIS_URL is not None:
    CELERY_BROKER_TRANSPORT = "smashup.core.broker:Transport"
    # Every Redis call of the broker and the result backend gives up after REDIS_TIMEOUT (issue 28).
    globals().update(config.celery_redis_settings(REDIS_URL, REDIS_TIMEOUT))
    if REDIS_URL.startswith("rediss://"):
        # Naming the transport skips kombu's own reading of the scheme: TLS, with the certificate checked.
        import ssl

        CELERY_BROKER_USE_SSL = {"ssl_cert_reqs": ssl.CERT_REQUIRED}
# No task is sent with an ETA further ahead than TASK_ETA_HORIZON seconds: a later moment (a long turn
# timer, a round clock's end) is reached by relay tasks (smashup/core/schedule.py). A message the worker
# holds unacknowledged returns to its queue after the visibility timeout, which must be longer than
# any ETA (else Redis hands the same waiting task out again and again; Celery's "Redis caveats"). It
# is only as long as that: after a worker is killed, what it held comes back in 10 minutes rather than
# Celery's default hour (and the beat sweeps act on anything due before then).
TASK_ETA_HORIZON = 300
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 2 * TASK_ETA_HORIZON,
    "socket_timeout": REDIS_TIMEOUT,
    "socket_connect_timeout": REDIS_TIMEOUT,
}
# The worker tries to reach a lost broker every BROKER_RETRY_SECONDS, however long it has been gone
# (Celery's own back-off grows to 30 s), and says so once per outage; beat likewise logs one line per
# outage, not a traceback per task it could not send (smashup/core/broker.py).
BROKER_RETRY_SECONDS = 1.0
CELERY_WORKER_CONSUMER = "smashup.core.broker:Consumer"
CELERY_BEAT_SCHEDULER = "smashup.core.broker:Scheduler"
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE: dict = {
    # Turn timers whose task was lost (a worker restart, a broker outage): fire every overdue one.
    "play-turn-timer-sweep": {
        "task": "smashup.play.timer_sweep",
        "schedule": 15.0,
        "options": {"expires": 14.0},
    },
    # Bot moves whose task was lost (a worker killed while holding it, a broker outage): play every
    # bot decision open for longer than its delay (smashup.play.services.sweep_bots).
    "play-bot-sweep": {
        "task": "smashup.play.bot_sweep",
        "schedule": 5.0,
        "options": {"expires": 4.0},
    },
    # Tournament round clocks and draft pick timers: apply every warning, "time is called" and pick
    # timeout that is due but whose task was lost (tournaments.tasks.sweep; harmless when nothing is).
    "tournaments-sweep": {
        "task": "tournaments.sweep",
        "schedule": 10.0,
        "options": {"expires": 9.0},
    },
}
# Celery queues (smashup/core/queues.py, README "Workers and queues"): each kind of work has a queue and
# a worker of its own (`start` runs them; launcher.site_workers), so a turn timer never waits behind a
# bot that thinks, and a table with people never waits behind tables of bots only. Unset (None):
# timers and bot-only tables go to PLAY_BOT_QUEUE, the rest to Celery's default queue ("celery").
PLAY_BOT_QUEUE = "bots"  # bot moves at tables with at least one person
PLAY_BOT_ONLY_QUEUE = "bots-only"  # bot moves at tables of bots only
PLAY_TIMER_QUEUE = "timers"  # turn timers running out
SWEEP_QUEUE = "sweeps"  # beat's sweeps (CELERY_BEAT_SCHEDULE)
TOURNAMENT_QUEUE = "tournaments"  # round clocks and pick timers
CELERY_TASK_ROUTES = ("smashup.core.queues.route",)
# The sending of players' notices by Web Push and e-mail (tournaments.delivery): None sends them on
# TOURNAMENT_QUEUE; a queue of their own keeps a slow push service or mail server from ever delaying
# a clock task behind them.
NOTICE_QUEUE = None

# Live play (smashup.play). A bot's move comes PLAY_BOT_DELAY seconds after the previous choice at a
# table's normal pace, its thinking time included (a table's pace scales it: instant 0, quick 0.5x,
# slow 2x; smashup.play.tables.PACES; 0 plays bots at once). Each WebSocket connection may send
# PLAY_WS_RATE = (messages, seconds) before it is refused. PLAY_GAME_CACHE_SIZE rebuilt games are kept
# per process.
PLAY_BOT_DELAY = 1.2
PLAY_WS_RATE = (40, 10.0)
PLAY_GAME_CACHE_SIZE = 256
# Live play's database work runs on PLAY_DB_THREADS threads of its own per process, and at most
# HEAVY_PAGES replay pages are made at once (waiting up to HEAVY_PAGES_WAIT s, then a 503), so a flood
# of other requests cannot slow the tables (smashup.core.threads; 0 turns either off).
PLAY_DB_THREADS = 2
HEAVY_PAGES = 1
HEAVY_PAGES_WAIT = 10.0
# A web process's GIL switch interval in seconds (None: Python's 0.005); README "Limits per client".
SERVER_SWITCH_INTERVAL = None

# Limits per client (smashup.core.limits, README "Limits"): RATE_LIMITS overrides any of
# limits.DEFAULT_RATES by name, as (count, seconds). RATE_LIMIT_SCALE multiplies every count
# (PLAY_WS_RATE's too): the one knob the load test and the browser tests raise.
RATE_LIMITS: dict = {}
RATE_LIMIT_SCALE = 1
# Sockets open at once (smashup.core.opensockets): SOCKET_LIMITS overrides any of
# opensockets.DEFAULT_LIMITS by name, as a count (scaled by RATE_LIMIT_SCALE too). A server process
# that dies stops counting after OPEN_SOCKETS_TTL seconds.
SOCKET_LIMITS: dict = {}
OPEN_SOCKETS_TTL = 30.0
# Turn timers (smashup.play.timers): the seconds per decision a table may choose (their tasks go to
# PLAY_TIMER_QUEUE).
PLAY_TURN_SECONDS_MIN = 10
PLAY_TURN_SECONDS_MAX = 3600

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# Sign-up and password reset mails: console without EMAIL_HOST, SMTP with it (config.email_settings).
globals().update(config.email_settings(os.environ))
# Web Push of tournament notices (tournaments.push): VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY (derived),
# VAPID_SUBJECT, WEB_PUSH_SERVICES (config.web_push_settings; no key: no Web Push).
globals().update(config.web_push_settings(os.environ))
# How long the e-mailed links of smashup/core/accounts.py work: a sign-up's link (the account is made
# when it is opened) and a login link (asked of browsers an account does not know while someone is
# guessing its password). A password reset link lasts Django's PASSWORD_RESET_TIMEOUT (3 days).
SIGNUP_LINK_SECONDS = 3 * 24 * 3600
LOGIN_LINK_SECONDS = 15 * 60

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# In DEBUG, WhiteNoise serves straight from the apps' static dirs (no collectstatic needed).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# A guest's seats live in their browser session (play.seats.remember_seat), and "my games" lists
# them: the session cookie outlives the browser (closing it must not lose a game) and lasts 60 days
# from the last seat taken.
SESSION_EXPIRE_AT_BROWSER_CLOSE = False
SESSION_COOKIE_AGE = 60 * 24 * 3600

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

if not DEBUG:
    SESSION_COOKIE_HTTPONLY = True
    CSRF_COOKIE_HTTPONLY = False  # htmx reads it to send X-CSRFToken
    X_FRAME_OPTIONS = "DENY"
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": "INFO"},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
