"""docker-compose.yml and docker/Dockerfile: no Docker engine here, so check the files' structure and
that the environment they give the app passes the app's own configuration checks."""

import re
from pathlib import Path

import pytest
import yaml

from smashup import config

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
APP_SERVICES = ("migrate", "web", "worker", "bots", "bots-only", "beat")


def interpolate(value: str, env: dict) -> str:
    """Compose's ${VAR}, ${VAR:-default} and ${VAR:?error} substitution, enough for this file."""

    def sub(match):
        name, op, arg = match.group(1), match.group(2), match.group(3)
        if env.get(name):
            return env[name]
        if op == ":-":
            return arg
        if op == ":?":
            raise ValueError(f"{name}: {arg}")
        return ""

    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", sub, value)


def command_of(service: str) -> str:
    command = SERVICES[service]["command"]
    return " ".join(command) if isinstance(command, list) else command


def test_services_present():
    assert {"postgres", "redis", *APP_SERVICES} <= set(SERVICES)


def test_postgres_and_redis_images_volumes_healthchecks():
    pg, redis = SERVICES["postgres"], SERVICES["redis"]
    assert pg["image"].startswith("postgres:16")
    assert any("pg_isready" in part for part in pg["healthcheck"]["test"])
    assert any(v.endswith(":/var/lib/postgresql/data") for v in pg["volumes"])
    assert redis["image"].startswith("redis:7")
    assert redis["healthcheck"]["test"][-2:] == ["redis-cli", "ping"]
    assert any(v.endswith(":/data") for v in redis["volumes"])
    declared = set(COMPOSE["volumes"])
    for service in SERVICES.values():
        for volume in service.get("volumes", []):
            name = volume.split(":")[0]
            if not name.startswith((".", "/")):
                assert name in declared, volume


def test_app_services_share_one_image_and_environment():
    for name in APP_SERVICES:
        service = SERVICES[name]
        assert service["build"]["dockerfile"] == "docker/Dockerfile", name
        env = service["environment"]
        assert env["DATABASE_URL"].startswith("postgres://") and "@postgres:5432/" in env["DATABASE_URL"]
        assert env["REDIS_URL"] == "redis://redis:6379/0"
        assert env["DEBUG"] == "false"
        assert "SECRET_KEY" in env and "ALLOWED_HOSTS" in env
        for dependency in ("postgres", "redis"):
            assert service["depends_on"][dependency]["condition"] == "service_healthy", name
    assert (ROOT / "docker" / "Dockerfile").is_file()


def test_processes_and_ordering():
    assert command_of("migrate") == "python manage.py migrate --noinput"
    assert command_of("web").startswith("daphne ") and "smashup.asgi:application" in command_of("web")
    assert "-A smashup.celery worker" in command_of("worker")
    assert "-A smashup.celery beat" in command_of("beat")
    for name in ("web", "worker", "bots", "bots-only", "beat"):
        assert SERVICES[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_the_workers_read_the_queues_of_the_settings_each_its_own():
    """Issue 28: the quick work, the people's bots and the bots-only tables on workers of their own,
    with the queue names of the settings (README "Workers and queues")."""
    from smashup import settings as production

    def queues_of(service: str) -> set[str]:
        found = re.search(r"--queues=(\S+)", command_of(service))
        return set(found.group(1).split(","))

    assert queues_of("worker") == {
        "celery",
        production.PLAY_TIMER_QUEUE,
        production.SWEEP_QUEUE,
        production.TOURNAMENT_QUEUE,
    }
    assert queues_of("bots") == {production.PLAY_BOT_QUEUE}
    assert queues_of("bots-only") == {production.PLAY_BOT_ONLY_QUEUE}
    nodes = set()
    for service in ("worker", "bots", "bots-only"):
        node = re.search(r"--hostname=(\S+)@%h", command_of(service)).group(1)
        assert f"-d {node}@$$HOSTNAME" in " ".join(SERVICES[service]["healthcheck"]["test"])
        nodes.add(node)
    assert len(nodes) == 3
    assert command_of("bots-only").startswith("nice -n 10 celery")
    assert SERVICES["migrate"]["restart"] == "no"


def test_web_healthcheck_hits_healthz_and_port_is_published():
    web = SERVICES["web"]
    assert any("/healthz" in part for part in web["healthcheck"]["test"])
    assert any(port.endswith(":8000") for port in web["ports"])


def test_compose_environment_passes_the_app_config_checks():
    env = {
        key: interpolate(str(value), {"SECRET_KEY": "k" * 50})
        for key, value in SERVICES["web"]["environment"].items()
    }
    cfg = config.load_config(env, ROOT)
    assert cfg.debug is False
    assert cfg.database["HOST"] == "postgres" and cfg.database["NAME"] == "smashup"
    assert cfg.redis_url == "redis://redis:6379/0"
    assert "localhost" in cfg.allowed_hosts and "127.0.0.1" in cfg.allowed_hosts  # the healthcheck's host


def test_compose_refuses_to_start_without_a_secret_key():
    with pytest.raises(ValueError, match="SECRET_KEY"):
        interpolate(SERVICES["web"]["environment"]["SECRET_KEY"], {})


def test_dockerfile_installs_the_project_and_collects_static():
    text = (ROOT / "docker" / "Dockerfile").read_text()
    assert text.startswith("#") and "FROM python:3.11-slim" in text
    assert "pip install -e ." in text
    assert "collectstatic --noinput" in text
    copied = "pyproject.toml README.md manage.py smashup tournaments bigbase templates static".split()
    for path in copied:
        assert path in text, path
