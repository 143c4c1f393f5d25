"""The rules and help page, its links from other pages, each faction's one line (issue 26, finding 7)
and the home page that says what works (finding 1)."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.test import Client
from django.utils.html import escape

from smashup.catalog import faction_descriptions
from smashup.core.help import TERMS, UnknownTerm
from smashup.play import services
from smashup.play.tables import factions_available


def ids_of(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def test_every_faction_has_one_line_and_every_line_a_faction():
    lines = faction_descriptions()
    assert sorted(lines) == factions_available()  # all 17, no stray name
    for name, text in lines.items():
        assert text and "\n" not in text and len(text) <= 120, name
        assert text.endswith("."), name


@pytest.mark.django_db
def test_the_help_page_has_every_term_and_every_faction():
    html = Client().get("/help/").content.decode()
    assert set(TERMS) <= ids_of(html), sorted(set(TERMS) - ids_of(html))
    for name, text in faction_descriptions().items():
        assert name in html and escape(text) in html, name
    # The Big Base numbers come from the default board's data, not from the page's words.
    assert "VP for 1st, 2nd, 3rd and 4th" in html and "<td>4</td><td>3</td><td>2</td><td>1</td>" in html
    assert "On occupation: draw 1 card" in html


def test_a_help_link_points_at_its_term_and_an_unknown_term_is_an_error():
    rendered = Template(
        '{% load help %}{% help_link "side-bonus" %}|{% help_link "periods" "period" %}'
    ).render(Context())
    assert 'href="/help/#side-bonus"' in rendered and 'aria-label="What is the side bonus?' in rendered
    assert '<a class="help-term" href="/help/#periods"' in rendered and ">period</a>" in rendered
    assert 'target="_blank" rel="noopener"' in rendered
    with pytest.raises(UnknownTerm):
        Template('{% load help %}{% help_link "no-such-term" %}').render(Context())


def help_targets(html: str) -> set[str]:
    return set(re.findall(r'href="/help/#([a-z-]+)"', html))


@pytest.mark.django_db
def test_the_pages_where_terms_appear_link_to_them():
    lobby = Client().get("/play/").content.decode()
    assert {"big-base", "me-first", "undo", "factions", "hot-seat"} <= help_targets(lobby)
    home = Client().get("/").content.decode()
    assert "big-base" in help_targets(home)
    assert 'href="/help/"' in home  # the header's link, on every page


@pytest.mark.django_db
def test_factions_are_described_wherever_they_are_chosen():
    lines = faction_descriptions()
    lobby = Client().get("/play/").content.decode()
    for name, text in lines.items():
        assert f'data-blurb="{escape(text)}"' in lobby, name
    assert 'id="faction-guide"' in lobby
    # A table where each player picks: the sit form's selects carry each faction's line.
    game = services.create_game(
        [services.SeatSpec("person"), services.SeatSpec("person")], seed=5, player_picks=True
    )
    table = Client().get(f"/play/t/{game.public_id}/").content.decode()
    assert table.count(f'data-blurb="{lines["Robots"]}"') == 4  # two seats, two selects each
    assert 'id="sit-faction0-1"' in table and 'id="sit-faction1-1-blurb"' in table
    # The draft at the table: each faction of the pool with its line.
    drafted = services.create_game(
        [services.SeatSpec("person"), services.SeatSpec("bot")], seed=5, draft=True
    )
    pool = Client().get(f"/play/t/{drafted.public_id}/").content.decode()
    assert escape(lines["Zombies"]) in pool and escape(lines["Tornados"]) in pool


@pytest.mark.django_db
def test_the_home_page_says_what_works_and_leads_with_bots():
    html = Client().get("/").content.decode()
    assert "Coming next" not in html and "Aliens and the Ninjas" not in html
    assert "All 17 factions" in html and "Big Base" in html and "Tournaments" in html
    first_form = html.index('<form method="post" action="/play/"')
    assert first_form < html.index("Set up a table") and 'name="bots" value="2"' in html


@pytest.mark.django_db
def test_play_against_bots_is_one_tap_from_the_home_page():
    client = Client()
    home = client.get("/").content.decode()
    form = home[home.index('<form method="post" action="/play/"') :]
    form = form[: form.index("</form>")]
    fields = dict(re.findall(r'name="([a-z0-9_]+)" value="([^"]*)"', form))
    response = client.post("/play/", fields)  # what the button sends, as it is
    assert response.status_code == 302 and response["Location"].startswith("/play/g/")
    game = services.get_game(response["Location"].split("/")[3])
    assert game.is_active and [s.kind for s in game.seats.all()] == ["person", "bot", "bot"]
    assert game.seats.get(index=0).display_name == "Player"
