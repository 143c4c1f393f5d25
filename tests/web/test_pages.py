"""Home page, login, health endpoint: rendered by the real stack against PostgreSQL and Redis."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

pytestmark = pytest.mark.django_db


def test_tests_run_on_postgresql():
    assert connection.vendor == "postgresql"


def test_home_page_renders_with_htmx(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>Smash Up table</title>" in html
    assert '<meta name="viewport"' in html
    assert '<script src="/static/django_htmx/htmx-2.min.js"' in html
    assert '<script src="/static/django_htmx/ext/hx-ws-2.min.js"' in html
    assert 'href="/static/css/site.css"' in html
    assert 'href="/accounts/login/"' in html
    assert client.head("/").status_code == 200


def test_static_assets_are_served(client):
    for path in (
        "/static/django_htmx/htmx-2.min.js",
        "/static/django_htmx/ext/hx-ws-2.min.js",
        "/static/css/site.css",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert len(body) > 100, path


def test_login_page_and_login(client):
    response = client.get("/accounts/login/")
    assert response.status_code == 200
    assert 'name="username"' in response.content.decode()

    get_user_model().objects.create_user("ada", password="correct horse battery")
    response = client.post("/accounts/login/", {"username": "ada", "password": "correct horse battery"})
    assert response.status_code == 302 and response.headers["Location"] == "/"
    home = client.get("/").content.decode()
    assert "ada" in home and "Log out" in home


def test_login_with_a_wrong_password_shows_an_error(client):
    get_user_model().objects.create_user("ada", password="correct horse battery")
    response = client.post("/accounts/login/", {"username": "ada", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def staff_client(client):
    staff = get_user_model().objects.create_user("staff", password="pw-staff", is_staff=True)
    client.force_login(staff)
    return client


def test_healthz_says_only_ok_to_the_public(client, redis_url):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok" and response["Content-Type"].startswith("text/plain")
    assert response.headers["Cache-Control"].startswith("max-age=0")
    # A logged-in player who is not staff is the public too.
    get_user_model().objects.create_user("ada", password="pw-ada")
    client.login(username="ada", password="pw-ada")
    assert client.get("/healthz").content == b"ok"


def test_healthz_shows_staff_what_it_checked(client, redis_url):
    response = staff_client(client).get("/healthz")
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "ok"
    assert data["database"] == {"ok": True, "vendor": "postgresql", "ms": data["database"]["ms"]}
    assert data["redis"]["ok"] is True
    assert data["channel_layer"]["ok"] is True
    assert data["channel_layer"]["backend"] == "RedisPubSubChannelLayer"
    # No worker runs for these tests: said, within the Redis timeout, and not counted as a failure.
    assert data["worker"] == {"ok": False, "error": "no worker answered within 2s"}
    assert response.headers["Cache-Control"].startswith("max-age=0")


def test_healthz_reports_a_dead_redis_as_503_failing(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert (response.status_code, response.content) == (503, b"failing")
    response = staff_client(client).get("/healthz")
    assert response.status_code == 503
    data = response.json()
    assert data["status"] == "fail"
    assert data["redis"]["ok"] is False and "Error" in data["redis"]["error"]
    assert data["database"]["ok"] is True
