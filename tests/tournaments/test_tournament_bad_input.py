"""Bad input to tournaments (issue 27): names, numbers and results, through the services and the
pages, on the database of the test settings (PostgreSQL) and on SQLite (the embedded setup's:
`test_the_bad_input_suite_passes_on_sqlite` runs this module again on it). Each bad value gets a
clear answer and changes nothing; names are compared as people read them."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from django.test import Client

from tests.tournaments import people
from tests.tournaments.people import user
from tournaments import services
from tournaments.models import AuditEntry, Entrant, Event, Seat, Table

pytestmark = pytest.mark.django_db


def new_event(players: int = 4, **fields) -> Event:
    return people.new_event(players, player_name="P{}", **({"name": "Bad input"} | fields))


def snapshot(event: Event) -> tuple:
    return (
        list(Entrant.objects.filter(event=event).order_by("pk").values()),
        list(Table.objects.filter(round__event=event).order_by("pk").values()),
        list(Seat.objects.filter(round__event=event).order_by("pk").values()),
        AuditEntry.objects.filter(event=event).count(),
    )


def org_client() -> Client:
    c = Client()
    c.force_login(user("org"))
    return c


# ---------------------------------------------------------------------------------- names --------
CONTROL_AND_INVISIBLE = [
    "A\x00da",  # NUL: a 500 on PostgreSQL before
    "Ada\x07",
    "A\u200bda",  # zero-width space
    "A\u200dda",  # zero-width joiner
    "\u202eAda",  # right-to-left override
    "Ada\ufeff",  # byte order mark
    "Ad\u00ada",  # soft hyphen
    "Ada\ufe0f",  # variation selector
    "\u3164",  # Hangul filler: a blank that is a letter
    "Ada\ue000",  # private use
]


@pytest.mark.parametrize(
    "name",
    CONTROL_AND_INVISIBLE,
    ids=[f"U+{ord(c):04X}" for c in "\x00\x07\u200b\u200d\u202e\ufeff\u00ad\ufe0f\u3164\ue000"],
)
def test_a_name_with_a_control_or_invisible_character_is_refused_everywhere(name, client):
    event = new_event()
    before = snapshot(event)
    with pytest.raises(services.Invalid, match="cannot hold"):
        services.register(event, name)
    with pytest.raises(services.Invalid, match="cannot hold"):
        services.register(event, name, by=user("org"))
    with pytest.raises(services.Invalid, match="cannot hold"):
        services.rename(Entrant.objects.get(event=event, name="P1"), name, user("org"))
    # Through the pages: a C0/C1 control character never reaches a view (smashup/core/inputs.py
    # answers 400 naming the field); the invisible ones reach the form, which refuses them.
    control = any(unicodedata.category(c) == "Cc" for c in name)
    refused_by = (400, "The form field &#x27;name&#x27; holds") if control else (200, "cannot hold")
    client_posts = [
        (client, f"/tournaments/{event.pk}/signup/"),
        (org_client(), f"/tournaments/{event.pk}/entrants/add/"),
        (None, None),
    ]
    org = client_posts[1][0]
    p1 = Entrant.objects.get(event=event, name="P1")
    client_posts[2] = (org, f"/tournaments/{event.pk}/entrants/{p1.pk}/rename/")
    for who, url in client_posts:
        response = who.post(url, {"name": name}, follow=True)
        assert (response.status_code, refused_by[1] in response.content.decode()) == (refused_by[0], True)
    assert snapshot(event) == before


LOOK_ALIKES = [
    ("Ada", "ada"),
    ("Ada", "\u0410da"),  # Cyrillic capital A
    ("Ada", "\uff21\uff24\uff21"),  # full-width letters
    ("Ada", "\U0001d400\U0001d41d\U0001d41a"),  # mathematical bold
    ("Émile", "émile"),  # SQLite's case-insensitive match is ASCII only
    ("Émile", "E\u0301mile"),  # the same letter, decomposed
    ("Kate", "K\u0430t\u0435"),  # Cyrillic a and e
    ("Olga", "\u039flga"),  # Greek capital omicron
]


@pytest.mark.parametrize("first, second", LOOK_ALIKES)
def test_look_alike_names_cannot_coexist_in_an_event(first, second):
    event = new_event(players=0)
    services.register(event, first)
    before = snapshot(event)
    with pytest.raises(services.Conflict, match="already signed up"):
        services.register(event, second)
    with pytest.raises(services.Conflict, match="already signed up"):
        services.register(event, second, by=user("org"))
    other = services.register(event, "Zed", by=user("org"))
    with pytest.raises(services.Conflict, match="already signed up"):
        services.rename(other, second, user("org"))
    assert Entrant.objects.filter(event=event).count() == 2
    assert snapshot(event)[0][0] == before[0][0]


def test_names_that_only_look_different_to_a_machine_are_kept_apart_and_real_names_pass():
    event = new_event(players=0)
    for name in ("Ian", "lan", "Emile", "Émile", "Дима", "Dima", "李雷", "Zoë", "O'Brien-Smith"):
        services.register(event, name, by=user("org"))
    assert Entrant.objects.filter(event=event).count() == 9
    # Stored composed (NFC) and with its spaces collapsed.
    assert services.register(event, "  Ana   Mari\u0301a ", by=user("org")).name == "Ana María"
    # Renaming a player to their own name in another case is not a clash with themselves.
    ian = Entrant.objects.get(event=event, name="Ian")
    assert services.rename(ian, "IAN", user("org")).name == "IAN"


def test_a_look_alike_sign_up_through_the_page_says_which_name_it_looks_like(client):
    event = new_event(players=0)
    services.register(event, "Kate")
    response = client.post(f"/tournaments/{event.pk}/signup/", {"name": "K\u0430t\u0435"}, follow=True)
    assert "as Kate, which looks the same" in response.content.decode()
    assert Entrant.objects.filter(event=event).count() == 1


# ---------------------------------------------------------------------------------- numbers ------
@pytest.mark.parametrize("value", ["\u00b2", "\u0663", "+1", "1_0", "-1", "1.0", "x", "9" * 12, "1e3"])
def test_the_pairings_api_answers_a_malformed_round_number_with_400(value, client):
    event = new_event()
    services.generate_round(event, user("org"))
    response = client.get(f"/tournaments/{event.pk}/api/pairings.json", {"round": value})
    assert response.status_code == 400 and response.json()["error"] == "round must be a round number"
    assert client.get(f"/tournaments/{event.pk}/api/pairings.json", {"round": "1"}).status_code == 200
    assert client.get(f"/tournaments/{event.pk}/api/pairings.json", {"round": "2"}).status_code == 404


# ---------------------------------------------------------------------------------- results ------
BAD_VP = ["\u0663", "\u00b2", "+5", "1_0", "-1", "1.5", "1e3", "x", "1000", "9" * 12]


def _vp_post(table: Table, value: str) -> dict:
    seats = list(table.seats.order_by("position"))
    return {f"vp_{s.entrant_id}": (value if i == 0 else "7") for i, s in enumerate(seats)}


@pytest.mark.parametrize("value", BAD_VP)
def test_a_malformed_vp_is_refused_by_the_organizer_and_the_player_and_changes_nothing(value):
    event = new_event()
    table = services.generate_round(event, user("org")).tables.get()
    before = snapshot(event)
    response = org_client().post(f"/tournaments/{event.pk}/tables/{table.pk}/result/", _vp_post(table, value))
    assert response.status_code in (302, 400)
    player = Client()
    player.post(f"/tournaments/p/{table.seats.first().entrant.token}/")
    response = player.post(f"/tournaments/{event.pk}/tables/{table.pk}/report/", _vp_post(table, value))
    assert response.status_code in (302, 400)
    for vps in ({s.entrant_id: value for s in table.seats.all()},):
        with pytest.raises(services.Invalid, match="whole number"):
            services.set_result(table, vps, by=user("org"))
    assert snapshot(event) == before


def test_an_implausible_result_is_shown_back_before_it_is_saved():
    event = new_event()
    table = services.generate_round(event, user("org")).tables.get()
    seats = list(table.seats.select_related("entrant").order_by("position"))
    post = {f"vp_{s.entrant_id}": str(v) for s, v in zip(seats, (150, 12, 9, 14), strict=True)}
    before = snapshot(event)
    org = org_client()
    page = org.post(f"/tournaments/{event.pk}/tables/{table.pk}/result/", post)
    html = page.content.decode()
    assert page.status_code == 409 and "150 VP: a game rarely gives more than 40" in html
    assert 'name="unusual_ok" value="1"' in html and "Save these VP" in html
    assert snapshot(event) == before
    # A player's report too.
    player = Client()
    player.post(f"/tournaments/p/{seats[1].entrant.token}/")
    page = player.post(f"/tournaments/{event.pk}/tables/{table.pk}/report/", post)
    assert page.status_code == 409 and "Send these VP" in page.content.decode()
    assert snapshot(event) == before
    with pytest.raises(services.Unusual) as refused:
        services.set_result(
            table, {s.entrant_id: v for s, v in zip(seats, (35, 5, 4, 3), strict=True)}, user("org")
        )
    assert "30 more than anyone else" in refused.value.warnings[0]
    assert snapshot(event) == before
    # Confirmed: saved as typed.
    org.post(f"/tournaments/{event.pk}/tables/{table.pk}/result/", {**post, "unusual_ok": "1"})
    table.refresh_from_db()
    assert table.is_confirmed and table.seats.get(entrant=seats[0].entrant).vp == 150
    # A plausible result needs no second look.
    other = new_event()
    t2 = services.generate_round(other, user("org")).tables.get()
    services.set_result(t2, {s.entrant_id: 15 - s.position for s in t2.seats.all()}, by=user("org"))


# ---------------------------------------------------------------------------------- manual control
@pytest.mark.parametrize("value", ["\u00b2", "\u0663", "+1", "-1", "1.0", "x", "9" * 12, "0", ""])
def test_a_malformed_table_to_pair_again_is_refused_and_changes_nothing(value):
    event = new_event(8)
    rnd = services.generate_round(event, user("org"))
    before = snapshot(event)
    org = org_client()
    preview = org.get(f"/tournaments/{event.pk}/rounds/1/repair/", {"table": value})
    assert preview.status_code in (200, 400)
    assert value == "" or "t-warning" in preview.content.decode()
    assert org.post(f"/tournaments/{event.pk}/rounds/1/repair/", {"table": value}).status_code == 302
    with pytest.raises((services.TournamentError, TypeError, ValueError)):
        services.repair_table(rnd, value, user("org"))
    assert snapshot(event) == before


@pytest.mark.parametrize(
    "field, value",
    [
        ("short_tables", "lenient"),
        ("short_tables", ""),
        ("short_tables", None),
        ("avoid_clubs", "yes"),
        ("avoid_clubs", 2),
    ],
)
def test_bad_pairing_settings_are_refused_and_change_nothing(field, value):
    event = new_event()
    before = (snapshot(event), Event.objects.filter(pk=event.pk).values(field).get())
    with pytest.raises(services.Invalid):
        services.update_event(event, user("org"), **{field: value})
    assert (snapshot(event), Event.objects.filter(pk=event.pk).values(field).get()) == before
    page = org_client().post(
        f"/tournaments/{event.pk}/edit/",
        {"name": "Bad input", "date": "2026-05-01", "table_size": "4", "top_cut": "0", "round_minutes": "50",
         "warnings": "10", "draft_mode": "none", "scoring": "normalised", "layout": "even",
         "mode": "standard", "end_rule": "x", "faction_copies": "1", "bans_per_player": "0",
         "tiebreaker_1": "sos", "short_tables": "sometimes"},
    )  # fmt: skip
    assert page.status_code == 200 and "Select a valid choice" in page.content.decode()
    assert Event.objects.get(pk=event.pk).short_tables == "strict"


def test_the_bad_input_suite_passes_on_sqlite(tmp_path):
    """This module again, in a process of its own on SQLite (the embedded setup's database): names,
    numbers and results behave the same there (SQLite stored a NUL, and matched only ASCII case)."""
    root = Path(__file__).resolve().parents[2]
    env = {
        **os.environ,
        "TEST_DATABASE_URL": f"sqlite:///{tmp_path / 'bad-input.sqlite3'}",
    }
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n0", __file__, "-k", "not on_sqlite"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout
