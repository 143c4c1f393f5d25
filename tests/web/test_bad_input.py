"""Bad input is refused at one place (smashup/core/inputs.py, issue 28 finding 5): a NUL byte or
another control character, an over-long value, a malformed body, in a path, a query string, a form or
a JSON body, is a 400 with a message, and nothing changes. A bad cookie is dropped."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from smashup.core import inputs
from tournaments import services as events
from tournaments.models import Entrant

from .play_helpers import person_vs_bot
from .test_fuzz_inputs import forms_of


# ---------------------------------------------------------------------------------- pure parts ---
@pytest.mark.parametrize(
    "value, said",
    [
        ("a\x00b", "a NUL byte"),
        ("\x1b[31m", "a control character (U+001B)"),
        ("\x7f", "U+007F"),
        ("\x85", "U+0085"),
        ("\ud800", "lone UTF-16 surrogate"),
        ("x" * (inputs.MAX_VALUE + 1), "too long"),
    ],
)
def test_a_value_with_a_control_character_or_too_long_is_refused(value, said):
    with pytest.raises(inputs.BadInput, match="'name'") as refused:
        inputs.check_value("name", value, "form")
    assert said in refused.value.message


def test_text_with_tabs_and_line_breaks_is_fine_and_names_are_stricter():
    inputs.check_value("description", "Two lines,\r\nand a\ttab.", "form")
    inputs.check_value("name", "Zoë ² ٣ 🙂", "form")  # any other Unicode is text like any other
    with pytest.raises(inputs.BadInput, match="field name holds a control character"):
        inputs.check_name("a\nb", "form")
    with pytest.raises(inputs.BadInput, match="holds a NUL byte"):
        inputs.check_path("/play/g/\x00/")
    with pytest.raises(inputs.BadInput, match="too long"):
        inputs.check_path("/" + "x" * inputs.MAX_PATH)
    # A bad field name is not repeated in the message.
    with pytest.raises(inputs.BadInput) as refused:
        inputs.check_value("n\x00", "\x00", "form")
    assert "\x00" not in refused.value.message and "a field name" in refused.value.message


@pytest.mark.parametrize("value", ["/tournaments/1/", "/", ""])
def test_next_is_a_path_of_this_site(value):
    inputs.check_next(value)


@pytest.mark.parametrize("value", ["\u00b2", "manage", "https://evil.example/", "//evil.example/", "/\\evil"])
def test_next_that_is_not_a_path_of_this_site_is_refused(value):
    with pytest.raises(inputs.BadInput, match="'next' must be a page of this site"):
        inputs.check_next(value)


def test_json_is_read_within_bounds_and_its_strings_checked():
    assert inputs.read_json(b'{"a": ["b", 1]}') == {"a": ["b", 1]}
    for body, said in (
        (b"\xff", "not UTF-8"),
        (b"{nope", "not valid JSON"),
        (b"[" * 5000, "nested too deeply"),
    ):
        with pytest.raises(inputs.BadInput, match=said):
            inputs.read_json(body)
    for data in ({"seq": "\x00"}, {"a\x01": 1}, ["\ud800"], {"a": {"b": ["x" * (inputs.MAX_VALUE + 1)]}}):
        with pytest.raises(inputs.BadInput):
            inputs.check_json(data)


# ---------------------------------------------------------------------------------- the site -----
def _event_with_player():
    organizer = get_user_model().objects.create_user("org", password="pw-org-1")
    event = events.create_event(organizer, name="Friday Smash")
    entrant = events.register(event, "Ada", by=organizer, checked_in=False)
    return organizer, event, entrant


def _refused(response, *, htmx: bool = False) -> str:
    text = html.unescape(response.content.decode())
    assert response.status_code == 400, (response.status_code, text[:300])
    if htmx:
        assert response["Content-Type"].startswith("text/plain") and "<html" not in text
    return text


@pytest.mark.django_db
def test_the_nine_pages_that_answered_500_to_a_nul_byte_answer_400():
    """Issue 28 found these (game, table, replay, display and hot-seat pages, a player's private
    page, join, event sign-up, rename): each is now a 400 saying what was wrong, and nothing
    changed."""
    organizer, event, entrant = _event_with_player()
    game = person_vs_bot()
    client = Client()
    for url in (
        "/play/g/a%00b/",
        "/play/t/a%00b/",
        "/play/g/a%00b/replay/",
        "/play/g/a%00b/display/",
        "/play/g/a%00b/hotseat/",
        "/tournaments/p/a%00b/",
        "/play/join/?code=K7%00QF2",
    ):
        assert "holds a NUL byte" in _refused(client.get(url)), url
    signup = client.post(f"/tournaments/{event.pk}/signup/", {"name": "Bea\x00"})
    assert "The form field 'name' holds a NUL byte" in _refused(signup)
    organizer_client = Client()
    organizer_client.force_login(organizer)
    rename = organizer_client.post(
        f"/tournaments/{event.pk}/entrants/{entrant.pk}/rename/", {"name": "Ad\x00a"}, HTTP_HX_REQUEST="true"
    )
    assert "holds a NUL byte" in _refused(rename, htmx=True)
    assert list(Entrant.objects.values_list("name", flat=True)) == ["Ada"]  # nothing changed
    assert client.get(f"/play/g/{game.public_id}/").status_code == 200  # the page itself is fine


@pytest.mark.django_db
def test_a_unicode_round_number_on_the_pairings_api_is_a_400_in_json():
    _, event, _ = _event_with_player()
    response = Client().get(f"/tournaments/{event.pk}/api/pairings.json", {"round": "\u00b2"})
    assert response.status_code == 400 and response.json()["error"] == "round must be a round number"
    nul = Client().get(f"/tournaments/{event.pk}/api/pairings.json", {"round": "\x00"})
    assert nul.status_code == 400 and "holds a NUL byte" in nul.json()["error"]


@pytest.mark.django_db
def test_a_next_that_is_no_page_of_this_site_is_a_400_and_changes_nothing():
    """`redirect()` reads a `next` without a slash as a view name: `next=²` on an organizer's form
    was a 500 (NoReverseMatch) after the change was made."""
    organizer, event, entrant = _event_with_player()
    client = Client()
    client.force_login(organizer)
    url = f"/tournaments/{event.pk}/entrants/{entrant.pk}/checkin/"
    assert "'next' must be a page of this site" in _refused(client.post(url, {"next": "\u00b2"}))
    entrant.refresh_from_db()
    assert not entrant.checked_in
    back = client.post(url, {"next": f"/tournaments/{event.pk}/"})
    assert back.status_code == 302 and back["Location"] == f"/tournaments/{event.pk}/"


@pytest.mark.django_db
def test_over_long_and_malformed_requests_are_400s_with_a_message():
    client = Client()
    assert "query string is too long" in _refused(client.get("/", {"q": "x" * inputs.MAX_QUERY}))
    assert "address is too long" in _refused(client.get("/play/g/" + "x" * inputs.MAX_PATH + "/"))
    json_post = client.post("/play/", '{"name": "a\\u0000"}', content_type="application/json")
    assert "JSON field 'name' holds a NUL byte" in _refused(json_post)
    assert "not valid JSON" in _refused(client.post("/play/", "{nope", content_type="application/json"))
    broken = client.post("/play/", b"--x\r\nnothing", content_type="multipart/form-data")  # no boundary
    assert "form could not be read" in _refused(broken)
    with_keys = client.post("/play/", {f"f{i}": "1" for i in range(1200)})  # DATA_UPLOAD_MAX_NUMBER_FIELDS
    assert "too many fields" in _refused(with_keys)


@pytest.mark.django_db
def test_a_cookie_the_site_never_set_is_dropped_not_a_500():
    user = get_user_model().objects.create_user("ada", password="pw-ada-12345")
    client = Client()
    client.cookies["sessionid"] = "abcdefgh\x00ijklmnop"
    client.cookies["csrftoken"] = "\x01" * 32
    assert client.get("/").status_code == 200
    login = client.post("/accounts/login/", {"username": "ada", "password": "pw-ada-12345"})
    assert login.status_code == 302 and client.session["_auth_user_id"] == str(user.pk)


@pytest.mark.django_db
def test_a_change_the_admin_cannot_validate_is_a_409_and_nothing_is_saved():
    """Two entrant rows of one event given the same account: the constraint holds only for rows
    with an account, which Django's inline forms do not check, so the database refuses it."""
    organizer, event, entrant = _event_with_player()
    events.register(event, "Bea", by=organizer)
    player = get_user_model().objects.create_user("pat", password="pw-pat-1")
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-1")
    client = Client()
    client.force_login(admin)
    url = f"/admin/tournaments/event/{event.pk}/change/"
    form = max(forms_of(url, client.get(url).content.decode()), key=lambda f: len(f.fields))
    data = dict(form.fields)
    assert {"entrants-0-user", "entrants-1-user"} <= data.keys()
    data.update({"entrants-0-user": str(player.pk), "entrants-1-user": str(player.pk)})
    response = client.post(url, data)
    assert response.status_code == 409, response.content.decode()[:2000]
    assert "Nothing was saved" in response.content.decode()
    assert not Entrant.objects.filter(user=player).exists()
