"""Boards in the database (issue 11, step 1): the migration loads the project's default boards,
the admin checks an edit with the engine's own board check, and a game gets plain data."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from bigbase import boards
from bigbase.models import Board
from bigbase.rules import load_boards

pytestmark = pytest.mark.django_db


def test_the_migration_loads_the_boards_of_the_board_file():
    rows = {b.slug: b.board_data() for b in Board.objects.all()}
    assert rows == load_boards()


def test_the_lobby_offers_only_offered_boards():
    assert ("default", "Default board") in boards.offered_boards()
    Board.objects.filter(slug="plain").update(offered=False)
    assert "plain" not in dict(boards.offered_boards())
    with pytest.raises(boards.UnknownBoard):
        boards.board_config("plain")
    with pytest.raises(boards.UnknownBoard):
        boards.board_config("nowhere")


def test_an_edited_board_reaches_the_game_as_plain_data():
    row = Board.objects.get(slug="default")
    row.data["period_vp"]["1"] = [9, 7, 5, 3]
    row.data["sides"][0]["slots"][0] = {"ability": "on_occupation", "effect": {"draw": 3}}
    row.full_clean()
    row.save()
    data = boards.board_config("default")
    assert data["period_vp"]["1"] == [9, 7, 5, 3]
    assert data["sides"][0]["slots"][0] == {"ability": "on_occupation", "effect": {"draw": 3}}
    assert data["id"] == "default" and data["name"] == "Default board"


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d["period_vp"].pop("2"), "every period"),
        (lambda d: d["sides"][1]["slots"].append({}), "three slots"),
        (lambda d: d["sides"][2]["slots"].__setitem__(0, {"ability": "ongoing", "effect": {"draw": 1}}),
         "not an ongoing effect"),
        (lambda d: d.__setitem__("side_bonus_vp", -1), "side_bonus_vp"),
    ],
)
def test_a_bad_edit_is_refused_with_the_reason_and_nothing_changes(change, words):
    row = Board.objects.get(slug="default")
    before = Board.objects.get(slug="default").data
    change(row.data)
    with pytest.raises(ValidationError) as caught:
        row.full_clean()
    assert words in str(caught.value)
    assert Board.objects.get(slug="default").data == before


def test_the_admin_edits_a_board(client):
    admin = get_user_model().objects.create_superuser("org", "org@example.com", "pw")
    client.force_login(admin)
    row = Board.objects.get(slug="plain")
    page = client.get(f"/admin/bigbase/board/{row.pk}/change/")
    assert page.status_code == 200 and "period_vp" in page.content.decode()
    import json

    data = dict(row.data, side_bonus_vp=2)
    answer = client.post(f"/admin/bigbase/board/{row.pk}/change/",
                         {"slug": "plain", "name": "Plain", "offered": "on", "data": json.dumps(data)})
    assert answer.status_code == 302
    assert Board.objects.get(slug="plain").board_data()["side_bonus_vp"] == 2
    data["periods"] = 0
    refused = client.post(f"/admin/bigbase/board/{row.pk}/change/",
                          {"slug": "plain", "name": "Plain", "offered": "on", "data": json.dumps(data)})
    assert refused.status_code == 200 and "periods must be" in refused.content.decode()
    assert Board.objects.get(slug="plain").board_data()["periods"] == 3
