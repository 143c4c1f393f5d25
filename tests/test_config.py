"""smashup.config: environment parsing, without Django settings."""

from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from smashup import config

BASE = Path("/srv/smashup")


def load(**env):
    return config.load_config(env, BASE)


# -- defaults -------------------------------------------------------------------------------------


def test_nothing_set_is_the_embedded_debug_setup():
    cfg = load()
    assert cfg.debug is True
    assert cfg.database["ENGINE"] == "django.db.backends.sqlite3"
    assert cfg.database["NAME"] == str(BASE / "var" / "db.sqlite3")
    assert cfg.redis_url is None
    assert cfg.secret_key == config.DEV_SECRET_KEY
    assert "localhost" in cfg.allowed_hosts
    assert cfg.var_dir == BASE / "var"


def test_empty_values_count_as_unset():
    assert load(DATABASE_URL="", REDIS_URL="  ", DEBUG="").debug is True


def test_var_dir_moves_the_default_sqlite_file(tmp_path):
    cfg = load(SMASHUP_VAR_DIR=str(tmp_path))
    assert cfg.var_dir == tmp_path
    assert cfg.database["NAME"] == str(tmp_path / "db.sqlite3")


def test_production_setup():
    cfg = load(
        DATABASE_URL="postgres://smash:p%40ss@db.internal:6543/smashup?sslmode=require",
        REDIS_URL="redis://cache:6379/2",
        SECRET_KEY="s" * 50,
        ALLOWED_HOSTS="table.example.org, localhost",
        CSRF_TRUSTED_ORIGINS="https://table.example.org",
    )
    assert cfg.debug is False  # DATABASE_URL set and DEBUG unset: production default
    assert cfg.database == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "smashup",
        "USER": "smash",
        "PASSWORD": "p@ss",
        "HOST": "db.internal",
        "PORT": "6543",
        "OPTIONS": {"sslmode": "require"},
        "CONN_MAX_AGE": config.DEFAULT_CONN_MAX_AGE,
        "CONN_HEALTH_CHECKS": True,
    }
    assert cfg.redis_url == "redis://cache:6379/2"
    assert cfg.allowed_hosts == ["table.example.org", "localhost"]
    assert cfg.csrf_trusted_origins == ["https://table.example.org"]


# -- individual parsers -----------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["1", "true", "True", "YES", "on", " t "])
def test_bool_true(value):
    assert config.parse_bool("DEBUG", value) is True


@pytest.mark.parametrize("value", ["0", "false", "FALSE", "no", "off"])
def test_bool_false(value):
    assert config.parse_bool("DEBUG", value) is False


@pytest.mark.parametrize("value", ["maybe", "2", "enabled", "truee"])
def test_bool_rejects_anything_else_loudly(value):
    with pytest.raises(ImproperlyConfigured, match=r"DEBUG=.* is not a boolean"):
        load(DEBUG=value)


def test_postgres_default_port_and_schemes():
    for scheme in ("postgres", "postgresql", "pgsql"):
        db = config.parse_database_url(f"{scheme}://postgres@127.0.0.1/smashup", BASE)
        assert (db["ENGINE"], db["PORT"], db["USER"], db["PASSWORD"]) == (
            "django.db.backends.postgresql",
            "5432",
            "postgres",
            "",
        )


def test_sqlite_absolute_relative_and_memory():
    assert config.parse_database_url("sqlite:////tmp/x.sqlite3", BASE)["NAME"] == "/tmp/x.sqlite3"
    assert config.parse_database_url("sqlite:///data/x.sqlite3", BASE)["NAME"] == str(BASE / "data/x.sqlite3")
    assert config.parse_database_url("sqlite:///:memory:", BASE)["NAME"] == ":memory:"


@pytest.mark.parametrize(
    "url, message",
    [
        ("mysql://root@localhost/smashup", "unsupported scheme 'mysql'"),
        ("mongodb://localhost/x", "unsupported scheme"),
        ("just-a-path.sqlite3", "is not a URL"),
        ("postgres://postgres@127.0.0.1:5432/", "names no database"),
        ("postgres://postgres@127.0.0.1:notaport/x", "invalid port"),
        ("postgres:///smashup", "names no host"),
        ("sqlite://", "names no SQLite file"),
        ("sqlite://host/file.db", "has no host"),
    ],
)
def test_bad_database_urls_fail_loudly(url, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        load(DATABASE_URL=url, DEBUG="true")


def test_database_error_does_not_leak_the_password():
    with pytest.raises(ImproperlyConfigured) as info:
        load(DATABASE_URL="postgres://u:hunter2@h:5432/", DEBUG="true")
    assert "hunter2" not in str(info.value)


@pytest.mark.parametrize(
    "url", ["redis://localhost:6379/0", "rediss://user:pw@cache.example:6380", "redis://r"]
)
def test_good_redis_urls(url):
    assert config.parse_redis_url(url) == url


@pytest.mark.parametrize(
    "url, message",
    [
        ("localhost:6379", "is not a Redis URL"),
        ("http://localhost:6379/0", "is not a Redis URL"),
        ("amqp://guest@localhost//", "is not a Redis URL"),
        ("redis://localhost:port/0", "invalid port"),
        ("redis://localhost:6379/zero", "must be a number"),
        ("redis:///0", "names no host"),
    ],
)
def test_bad_redis_urls_fail_loudly(url, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        load(REDIS_URL=url)


def test_debug_false_without_secret_key_fails_loudly():
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is not set and DEBUG is false"):
        load(DEBUG="false", ALLOWED_HOSTS="localhost")


def test_database_url_without_secret_key_fails_loudly():
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is not set"):
        load(DATABASE_URL="postgres://postgres@db/smashup", ALLOWED_HOSTS="localhost")


def test_debug_false_without_allowed_hosts_fails_loudly():
    with pytest.raises(ImproperlyConfigured, match="ALLOWED_HOSTS is not set"):
        load(DEBUG="false", SECRET_KEY="x" * 50)


@pytest.mark.parametrize("hosts", ["https://table.example.org", "a,,b", "table.example.org/x", "a b"])
def test_bad_allowed_hosts(hosts):
    with pytest.raises(ImproperlyConfigured, match="ALLOWED_HOSTS"):
        load(ALLOWED_HOSTS=hosts)


@pytest.mark.parametrize("hosts", ["*", "table.example.org,*"])
def test_any_host_is_refused_in_production(hosts):
    with pytest.raises(ImproperlyConfigured, match=r"allows any host \('\*'\) while DEBUG is false"):
        load(DEBUG="false", SECRET_KEY="x" * 50, ALLOWED_HOSTS=hosts)
    assert load(DEBUG="true", ALLOWED_HOSTS=hosts).allowed_hosts[-1] == "*"  # development only


HOSTS = ["table.example.org", ".club.example.net", "*"]  # "*" counts for nothing in production
TRUSTED = ["https://proxy.example.com", "https://*.cdn.example.com"]


@pytest.mark.parametrize(
    "origin, host, secure, allowed",
    [
        # The page's origin is the site the socket was opened on: scheme, host and port.
        ("https://table.example.org", "table.example.org", True, True),
        ("https://table.example.org:443", "table.example.org", True, True),
        ("http://table.example.org:8000", "table.example.org:8000", False, True),
        ("https://sub.club.example.net", "sub.club.example.net", True, True),  # ".club.example.net"
        ("https://club.example.net", "club.example.net", True, True),
        # An allowed host name is not enough: another port or scheme is another site.
        ("http://table.example.org:9999", "table.example.org:8000", False, False),
        ("http://table.example.org", "table.example.org:8000", False, False),
        ("http://table.example.org", "table.example.org", True, False),  # a plain-http page, an https site
        ("https://table.example.org", "table.example.org", False, False),
        ("https://table.example.org:8443", "table.example.org", True, False),
        ("https://sub.club.example.net", "club.example.net", True, False),  # another allowed host
        # The socket's own host must be allowed too.
        ("https://evil.example", "evil.example", True, False),
        ("https://table.example.org.evil.example", "table.example.org.evil.example", True, False),
        ("https://table.example.org", None, True, False),  # no Host header
        # Trusted origins (a proxy in front), whatever Host the socket carries: scheme and port too.
        ("https://proxy.example.com", "internal:8000", False, True),
        ("http://proxy.example.com", "internal:8000", False, False),
        ("https://proxy.example.com:8443", "internal:8000", False, False),
        ("https://a.cdn.example.com", "internal:8000", False, True),  # "https://*.cdn.example.com"
        ("https://cdn.example.com", "internal:8000", False, False),
        # Not an origin of a page.
        ("null", "table.example.org", False, False),
        ("", "table.example.org", False, False),
        (None, "table.example.org", False, False),
        ("ftp://table.example.org", "table.example.org", False, False),
        ("https://table.example.org:notaport", "table.example.org", True, False),
    ],
)
def test_origin_allowed(origin, host, secure, allowed):
    assert config.origin_allowed(origin, HOSTS, TRUSTED, debug=False, host=host, secure=secure) is allowed


def test_origin_allowed_in_development():
    assert config.origin_allowed("http://anything.example", ["*"], [], debug=True, host="anything.example")
    # Even with "*", the page must be the site the socket was opened on.
    assert not config.origin_allowed("http://anything.example", ["*"], [], debug=True, host="localhost:8000")
    assert not config.origin_allowed("http://localhost:9000", ["*"], [], debug=True, host="localhost:8000")
    assert not config.origin_allowed(
        "http://anything.example", ["localhost"], [], debug=True, host="anything.example"
    )
    # Django's default hosts in DEBUG.
    assert config.origin_allowed("http://localhost:8000", [], [], debug=True, host="localhost:8000")
    assert config.origin_allowed("http://[::1]:8000", ["[::1]"], [], debug=False, host="[::1]:8000")
    assert not config.origin_allowed("http://[::1]:8001", ["[::1]"], [], debug=False, host="[::1]:8000")
    assert not config.origin_allowed("http://localhost:8000", [], [], debug=False, host="localhost:8000")


def test_bad_csrf_origin():
    with pytest.raises(ImproperlyConfigured, match="CSRF_TRUSTED_ORIGINS"):
        load(CSRF_TRUSTED_ORIGINS="table.example.org")


def test_connection_age_from_the_environment():
    cfg = load(DATABASE_URL="postgres://db/smashup", DEBUG="true", DB_CONN_MAX_AGE="0")
    assert cfg.database["CONN_MAX_AGE"] == 0
    with pytest.raises(ImproperlyConfigured, match="DB_CONN_MAX_AGE"):
        load(DATABASE_URL="postgres://db/smashup", DEBUG="true", DB_CONN_MAX_AGE="soon")
    with pytest.raises(ImproperlyConfigured, match="DB_CONN_MAX_AGE"):
        load(DATABASE_URL="postgres://db/smashup", DEBUG="true", DB_CONN_MAX_AGE="-5")


def test_channel_layers():
    assert config.channel_layers(None)["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    layer = config.channel_layers("redis://r:6379/0", prefix="p")["default"]
    assert layer["BACKEND"] == "smashup.core.layers.RedisPubSubChannelLayer"
    # Every call gives up after REDIS_TIMEOUT (2 s by default): its sockets, and the call as a whole.
    host = {"address": "redis://r:6379/0", "socket_connect_timeout": 2.0, "socket_timeout": 2.0}
    assert layer["CONFIG"] == {"hosts": [host], "prefix": "p", "timeout": 2.0}
    assert config.channel_layers("redis://r:6379/0", timeout=0.5)["default"]["CONFIG"]["timeout"] == 0.5


def test_caches_are_shared_through_redis_when_there_is_one():
    assert config.caches(None)["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    cache = config.caches("redis://r:6379/0")["default"]
    assert cache["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert cache["LOCATION"] == "redis://r:6379/0"
    assert cache["OPTIONS"] == {"socket_connect_timeout": 1.0, "socket_timeout": 1.0}  # fails fast
    assert config.caches("redis://r:6379/0", timeout=4)["default"]["OPTIONS"]["socket_timeout"] == 2


def test_redis_timeout_is_read_and_checked():
    assert load().redis_timeout == 2.0
    assert load(REDIS_TIMEOUT="0.5").redis_timeout == 0.5
    for bad in ("0", "-1", "soon", "nan", "inf", "61"):
        with pytest.raises(ImproperlyConfigured, match="REDIS_TIMEOUT"):
            load(REDIS_TIMEOUT=bad)


def test_celery_gives_up_on_redis_after_the_timeout():
    assert config.celery_redis_settings(None) == {}
    celery = config.celery_redis_settings("redis://r:6379/0", 3.0)
    assert celery["CELERY_REDIS_SOCKET_TIMEOUT"] == celery["CELERY_REDIS_SOCKET_CONNECT_TIMEOUT"] == 3.0
    assert celery["CELERY_BROKER_CONNECTION_TIMEOUT"] == 3.0
    assert celery["CELERY_TASK_PUBLISH_RETRY_POLICY"]["max_retries"] == 1


def test_the_site_settings_bound_every_redis_call(settings):
    """settings.py with REDIS_URL: the broker's sockets, the worker's reconnects and beat's log."""
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["socket_timeout"] == settings.REDIS_TIMEOUT
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["socket_connect_timeout"] == settings.REDIS_TIMEOUT
    assert settings.CELERY_REDIS_SOCKET_TIMEOUT == settings.REDIS_TIMEOUT
    assert settings.CELERY_WORKER_CONSUMER == "smashup.core.broker:Consumer"
    assert settings.CELERY_BEAT_SCHEDULER == "smashup.core.broker:Scheduler"
    assert settings.BROKER_RETRY_SECONDS == 1.0


def test_settings_module_refuses_to_load_with_a_bad_value(tmp_path):
    """The real settings module, in a fresh interpreter, stops with the config error."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY")}
    env.update(DEBUG="maybe", DJANGO_SETTINGS_MODULE="smashup.settings", SMASHUP_VAR_DIR=str(tmp_path))
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=root, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DEBUG='maybe' is not a boolean" in result.stderr


def test_trusted_proxies_are_none_unless_named():
    assert load().trusted_proxies == []
    cfg = load(TRUSTED_PROXIES="10.0.0.5, 172.16.0.0/12,::1")
    assert cfg.trusted_proxies == ["10.0.0.5/32", "172.16.0.0/12", "::1/128"]
    for bad in ("10.0.0.300", "proxy.example.org", "10.0.0.5,,10.0.0.6"):
        with pytest.raises(ImproperlyConfigured, match="TRUSTED_PROXIES"):
            load(TRUSTED_PROXIES=bad)
