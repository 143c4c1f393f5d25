"""Tables nobody can flood (issue 28, finding 1): tables of bots only are for staff, and the tables
waiting or in play are limited per browser session, account and address, at the defaults the README
documents (the test settings leave every limit at its default). A refusal changes nothing."""

from __future__ import annotations

import re
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.utils import timezone

from smashup.core import limits
from smashup.play import quotas, services
from smashup.play.models import Game, Seat

README = Path(__file__).resolve().parents[2] / "README.md"

BOTS_ONLY = {f"seat{i}_kind": "bot" for i in range(4)} | {"base_sets": "factions", "specials": "fast"}


def against_bots(name: str = "Ada") -> dict:
    """The lobby's "Play against bots": the visitor seated against one bot."""
    seats = {"seat0_kind": "person", "seat1_kind": "bot", "seat2_kind": "none", "seat3_kind": "none"}
    return {"bots": "1", "your_name": name, "base_sets": "factions", "specials": "fast", **seats}


def open_for_friends() -> dict:
    """A table of two person seats that its creator does not sit at (it waits in the lobby)."""
    return {"seat0_kind": "person", "seat1_kind": "person", "seat2_kind": "none", "seat3_kind": "none",
            "base_sets": "factions", "specials": "fast"}  # fmt: skip


def form_errors(response) -> str:
    return response.content.decode()


# ---------------------------------------------------------------------------------- the rules ----
RATES = {
    "live_tables_session": (3, 3600.0),
    "live_tables_account": (5, 3600.0),
    "live_tables_address": (10, 3600.0),
}


def test_the_rules_as_plain_functions():
    visitor = quotas.Creator(session="s1", address="203.0.113.5")
    member = quotas.Creator(user_id=7, session="s2", address="203.0.113.6")
    staff = quotas.Creator(user_id=1, staff=True, session="s3", address="203.0.113.5")
    assert quotas.refusal(visitor, bot_only=False, counts={}, rates=RATES) is None
    refused = quotas.refusal(visitor, bot_only=True, counts={}, rates=RATES)
    assert refused.status == 403 and "for staff" in refused.message and refused.retry_after is None
    assert quotas.refusal(staff, bot_only=True, counts={"live_tables_address": 99}, rates=RATES) is None
    for name, count in [("live_tables_session", 3), ("live_tables_address", 10)]:
        refused = quotas.refusal(visitor, bot_only=False, counts={name: count}, rates=RATES)
        assert refused.status == 429 and refused.retry_after == quotas.RETRY_AFTER_SECONDS
        assert f"already has {count} tables" in refused.message and "60 minutes" in refused.message
        assert quotas.refusal(visitor, bot_only=False, counts={name: count - 1}, rates=RATES) is None
    at_limit = quotas.refusal(member, bot_only=False, counts={"live_tables_account": 5}, rates=RATES)
    assert at_limit.status == 429 and "Your account" in at_limit.message
    # An account's count means nothing to a visitor without one.
    assert quotas.refusal(visitor, bot_only=False, counts={"live_tables_account": 50}, rates=RATES) is None
    assert quotas.start_refusal(visitor, people_seated=0).status == 403
    assert quotas.start_refusal(visitor, people_seated=1) is None
    assert quotas.start_refusal(staff, people_seated=0) is None


def test_the_defaults_are_the_ones_the_readme_documents():
    assert {name: limits.DEFAULT_RATES[name] for name in quotas.LIVE_LIMITS} == RATES
    text = README.read_text()
    for name, (count, _) in RATES.items():
        row = next(line for line in text.splitlines() if f"`{name}`" in line and line.startswith("|"))
        assert re.search(rf"\|\s*{count} per hour\b", row), row


def test_a_session_is_never_kept_in_the_clear():
    digest = quotas.session_digest("abcdef0123456789")
    assert digest and "abcdef0123456789" not in digest and len(digest) <= 64
    assert quotas.session_digest(None) == quotas.session_digest("") == ""


# ---------------------------------------------------------------------------------- the lobby ----
@pytest.mark.django_db
def test_a_visitor_cannot_set_up_a_table_of_bots_only():
    response = Client().post("/play/", BOTS_ONLY)
    assert response.status_code == 403
    assert "Tables played only by bots are for staff" in form_errors(response)
    assert not Game.objects.exists() and not Seat.objects.exists()


@pytest.mark.django_db
def test_a_member_who_is_not_staff_cannot_either_but_staff_can():
    member = get_user_model().objects.create_user("member", password="pw-member-1")
    client = Client()
    client.force_login(member)
    assert client.post("/play/", BOTS_ONLY).status_code == 403
    assert not Game.objects.exists()
    staff = get_user_model().objects.create_user("host", password="pw-host-1", is_staff=True)
    client.force_login(staff)
    response = client.post("/play/", BOTS_ONLY)
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.is_active and all(s.is_bot for s in game.seats.all()) and game.created_by == staff


@pytest.mark.django_db
def test_one_browser_keeps_at_most_three_live_tables_at_the_default():
    client = Client()
    for i in range(3):
        assert client.post("/play/", against_bots(f"Ada {i}")).status_code == 302
    before = (Game.objects.count(), Seat.objects.count())
    response = client.post("/play/", open_for_friends())
    assert response.status_code == 429 and response["Retry-After"] == str(quotas.RETRY_AFTER_SECONDS)
    assert "This browser already has 3 tables waiting for players or in play" in form_errors(response)
    assert (Game.objects.count(), Seat.objects.count()) == before
    assert 'id="form-errors"' in form_errors(response)  # the lobby again, the error on top


@pytest.mark.django_db
def test_new_sessions_from_one_address_get_ten_tables_and_another_address_more():
    for i in range(10):
        assert Client().post("/play/", against_bots(f"Visitor {i}")).status_code == 302
    response = Client().post("/play/", against_bots("Eleventh"))
    assert response.status_code == 429 and response.has_header("Retry-After")
    assert "Your address" in form_errors(response) and "already has 10 tables" in form_errors(response)
    assert Game.objects.count() == 10
    # Someone else, elsewhere, is not held back by that address.
    assert Client(REMOTE_ADDR="198.51.100.20").post("/play/", against_bots("Elsewhere")).status_code == 302
    assert set(Game.objects.values_list("created_address", flat=True)) == {"127.0.0.1", "198.51.100.20"}


@pytest.mark.django_db
def test_x_forwarded_for_counts_only_behind_a_trusted_proxy(settings):
    for i in range(10):
        client = Client(HTTP_X_FORWARDED_FOR=f"198.51.100.{i + 1}")  # written by the client itself
        assert client.post("/play/", against_bots()).status_code == 302
    assert Client(HTTP_X_FORWARDED_FOR="198.51.100.99").post("/play/", against_bots()).status_code == 429
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    assert Client(HTTP_X_FORWARDED_FOR="198.51.100.99").post("/play/", against_bots()).status_code == 302
    assert Game.objects.filter(created_address="198.51.100.99").count() == 1


@pytest.mark.django_db
def test_an_account_keeps_at_most_five_live_tables_wherever_it_logs_in():
    ada = get_user_model().objects.create_user("ada", password="pw-ada-1")
    for i in range(5):
        client = Client(REMOTE_ADDR=f"198.51.100.{i + 1}")
        client.force_login(ada)
        assert client.post("/play/", against_bots()).status_code == 302
    client = Client(REMOTE_ADDR="198.51.100.77")
    client.force_login(ada)
    response = client.post("/play/", against_bots())
    assert response.status_code == 429 and "Your account already has 5 tables" in form_errors(response)
    assert Game.objects.filter(created_by=ada).count() == 5


@pytest.mark.django_db
def test_a_table_stops_counting_when_it_ends_or_nothing_happens_in_it_for_an_hour():
    client = Client()
    for i in range(3):
        client.post("/play/", against_bots(f"Ada {i}"))
    assert client.post("/play/", against_bots()).status_code == 429
    first, second, _ = Game.objects.order_by("pk")
    services.end_game(first.pk)
    assert client.post("/play/", against_bots()).status_code == 302
    assert client.post("/play/", against_bots()).status_code == 429
    Game.objects.filter(pk=second.pk).update(updated_at=timezone.now() - timedelta(minutes=61))
    assert client.post("/play/", against_bots()).status_code == 302
    assert client.post("/play/", against_bots()).status_code == 429


@pytest.mark.django_db
def test_staff_have_no_live_table_limit():
    staff = get_user_model().objects.create_user("host", password="pw-host-1", is_staff=True)
    client = Client()
    client.force_login(staff)
    for _ in range(12):
        assert client.post("/play/", BOTS_ONLY).status_code == 302
    assert Game.objects.count() == 12


# ---------------------------------------------------------------------------------- start early --
@pytest.mark.django_db
def test_starting_early_with_nobody_seated_is_refused_and_changes_nothing():
    client = Client()
    assert client.post("/play/", open_for_friends()).status_code == 302
    game = Game.objects.get()
    before = [(s.kind, s.token, s.claimed) for s in game.seats.order_by("index")]
    response = client.post(f"/play/t/{game.public_id}/start/", follow=True)
    assert "a table played only by bots is for staff" in response.content.decode()
    game.refresh_from_db()
    assert game.is_lobby and [(s.kind, s.token, s.claimed) for s in game.seats.order_by("index")] == before
    # Once someone sits down, the free seat may become a bot.
    services.claim_seat(game.pk, 1, guest_name="Bea")
    assert client.post(f"/play/t/{game.public_id}/start/").status_code == 302
    game.refresh_from_db()
    assert game.is_active and [s.kind for s in game.seats.order_by("index")] == ["bot", "person"]


# ---------------------------------------------------------------------------------- in parallel --
@pytest.mark.django_db(transaction=True)
def test_parallel_requests_of_one_client_cannot_pass_the_same_count():
    """Six creations of one session at once: the count and the new row go under a lock per session,
    account and address, so exactly three are made."""
    assert connection.vendor == "postgresql"
    creator = quotas.Creator(session=quotas.session_digest("one-browser"), address="203.0.113.9")
    made, refused = [], []
    gate = threading.Barrier(6)

    def create(i: int) -> None:
        from django.db import connections

        try:
            gate.wait(30)
            made.append(
                services.create_game(
                    [services.SeatSpec("person"), services.SeatSpec("bot")], creator=creator
                ).pk
            )
        except quotas.TableRefused:
            refused.append(i)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=create, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert len(made) == 3 and len(refused) == 3, (made, refused)
    assert Game.objects.filter(created_session=creator.session).count() == 3
