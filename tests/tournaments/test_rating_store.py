"""The stored ratings follow the results: rated when a round's results are all confirmed (after the
commit), never before; a failed refresh is caught up on by the next reader; `rerate --check`."""

from __future__ import annotations

import datetime
import io
import json
import logging

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tournaments import ratings, services
from tournaments.models import Event
from tournaments.rating_models import PlayerRating, RatingChange, RatingState
from tournaments.services import rating_store

pytestmark = pytest.mark.django_db


def small_event(players: int = 8, accounts: int = 6):
    User = get_user_model()
    org = User.objects.create_user("org")
    event = services.create_event(
        org, name="Cup", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE, rounds=3
    )
    entrants = []
    for i in range(players):
        user = User.objects.create_user(f"acct{i}") if i < accounts else None
        entrants.append(services.register(event, f"P{i}", user=user, by=org, checked_in=True))
    return org, event, entrants


def results(table):
    return {s.entrant_id: 15 - 3 * s.position for s in table.seats.all()}


def test_a_round_is_rated_after_the_commit_of_its_last_result_and_not_before(
    django_capture_on_commit_callbacks,
):
    org, event, _ = small_event()
    rnd = services.generate_round(event, by=org)
    first, second = rnd.tables.order_by("number")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.set_result(first, results(first), by=org)
    assert callbacks  # the hook asked for a refresh after the commit
    assert not RatingChange.objects.exists()  # half a round is not final
    with django_capture_on_commit_callbacks(execute=False) as pending:
        services.set_result(second, results(second), by=org)
    assert not RatingChange.objects.exists()  # nothing before the commit
    for callback in pending:
        callback()
    assert RatingChange.objects.count() == 8
    assert PlayerRating.objects.count() == 6  # the two guests are rated in the event, no profile
    winner = PlayerRating.objects.order_by("-rating").first()
    assert winner.rating > 0 and winner.games == 1


def test_a_failed_refresh_is_logged_the_result_stands_and_the_next_reader_catches_up(
    django_capture_on_commit_callbacks, monkeypatch, caplog, client
):
    org, event, entrants = small_event()
    rnd = services.generate_round(event, by=org)

    def broken():
        raise RuntimeError("the rating store is down")

    monkeypatch.setattr(rating_store, "refresh", broken)
    with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
        for table in rnd.tables.all():
            services.set_result(table, results(table), by=org)
    assert "ratings: refresh after a result failed" in caplog.text
    rnd.refresh_from_db()
    assert rnd.is_finished and not RatingChange.objects.exists()
    user = entrants[0].user
    page = client.get(f"/tournaments/players/{user.pk}/")  # still broken: the stored ratings (none)
    assert page.status_code == 200 and "Not rated yet" in page.content.decode()
    assert "refresh before reading failed" in caplog.text
    monkeypatch.undo()
    assert client.get(f"/tournaments/players/{user.pk}/").status_code == 200  # reading refreshes
    assert RatingChange.objects.count() == 8


def test_another_model_rates_everything_again_and_rerate_check_compares(capsys):
    org, event, _ = small_event()
    for _ in range(2):
        rnd = services.generate_round(event, by=org)
        for table in rnd.tables.all():
            services.set_result(table, results(table), by=org)
    assert rating_store.refresh().rounds_rated == 2
    RatingState.objects.update(model="an older model")
    again = rating_store.refresh()
    assert again.rerated_from == rating_store.BEGINNING and again.rounds_rated == 2
    assert RatingState.objects.get().model == ratings.MODEL_NAME
    out = io.StringIO()
    call_command("rerate", "--check", stdout=out)
    assert json.loads(out.getvalue())["same"] is True
    snapshot = rating_store.snapshot()
    PlayerRating.objects.filter(pk=PlayerRating.objects.first().pk).update(mu=99.0)
    with pytest.raises(CommandError, match="differ"):
        call_command("rerate", "--check", stdout=io.StringIO())
    assert PlayerRating.objects.filter(mu=99.0).count() == 1  # --check changed nothing
    call_command("rerate", "--all", stdout=io.StringIO())
    assert rating_store.snapshot() == snapshot


def test_a_no_show_is_left_out_and_a_table_left_with_one_player_is_not_rated():
    org, event, _ = small_event(players=4, accounts=4)
    event.refresh_from_db()
    rnd = services.generate_round(event, by=org)
    table = rnd.tables.get()
    seats = list(table.seats.order_by("position"))
    for seat in seats[1:]:
        if seat is not seats[-1]:
            services.mark_no_show(table, seat.entrant_id, org, keep=True)
    services.set_result(table, {s.entrant_id: (10 if s.position == 0 else 0) for s in seats}, by=org)
    rating_store.refresh()
    rated = set(RatingChange.objects.values_list("entrant_id", flat=True))
    assert rated == {seats[0].entrant_id, seats[-1].entrant_id}


def test_a_profile_shows_no_place_before_a_round_is_over_and_a_place_so_far_during_the_event(client):
    org, event, entrants = small_event()
    user = entrants[0].user
    page = client.get(f"/tournaments/players/{user.pk}/").content.decode()
    assert "Cup" in page and "of 8" not in page and "Not rated yet" in page  # no place yet
    rnd = services.generate_round(event, by=org)
    for table in rnd.tables.all():
        services.set_result(table, results(table), by=org)
    page = client.get(f"/tournaments/players/{user.pk}/").content.decode()
    assert ", so far" in page and "rated game" in page
    assert client.get(f"/tournaments/players/{org.pk}/").status_code == 404
    assert client.get("/tournaments/players/999999/").status_code == 404
