"""Difficulty levels and a table's settings (issue 25): easy, normal and hard (the expert bot, registered
once the engine can re-deal a game from one seat's view; without it, no hard), stored per seat in the
table's config, with the bots' pace, the hard bots' thinking time and the hint button; tournament
tables keep people only and have no hints."""

from __future__ import annotations

import re
import time

import pytest
from django.test import Client

from smashup import botregistry
from smashup.botregistry import BOTS, expert_available, expert_bot
from smashup.play import bots, services
from smashup.play.models import Game

from .play_helpers import eager_bots, person_vs_bot
from .test_play_views import lobby_form

pytestmark = pytest.mark.django_db


class ExpertSpy:
    """The real expert bot, noting each call (its seat and the budget it was given)."""

    def __init__(self):
        self.calls = []

    def __call__(self, game, seat, rng, budget=None):
        self.calls.append((seat, budget))
        return expert_bot(game, seat, rng, budget)


@pytest.fixture
def expert(monkeypatch):
    if not expert_available():
        pytest.skip("the engine cannot re-deal a game yet (Game.determinize): no expert bot")
    spy = ExpertSpy()
    monkeypatch.setitem(BOTS, "expert", spy)
    return spy


@pytest.fixture
def no_expert(monkeypatch):
    """An engine without `Game.determinize`: the expert bot is not registered."""
    monkeypatch.delitem(BOTS, "expert", raising=False)


def options_of(html: str, name: str) -> list[str]:
    select = re.search(rf'<select[^>]* name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None, f"no select {name}"
    return re.findall(r'<option value="([^"]*)"', select.group(1))


def test_the_lobby_and_the_home_page_offer_easy_and_normal_but_no_hard_without_the_expert(client, no_expert):
    lobby = client.get("/play/").content.decode()
    assert options_of(lobby, "seat1_level") == ["easy", "normal"]
    assert options_of(lobby, "level") == ["easy", "normal"]
    home = client.get("/").content.decode()
    assert options_of(home, "level") == ["easy", "normal"]
    assert "Hard" not in home and ">Hard<" not in lobby
    assert 'name="think"' not in lobby  # no bot thinks: no thinking time to set


def test_hard_is_refused_while_there_is_no_expert(client, no_expert):
    for form in (lobby_form(seat1_level="hard"), {**lobby_form(), "bots": "2", "level": "hard"}):
        response = client.post("/play/", form)
        assert response.status_code == 200
        assert "Choose one of the levels offered." in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.django_db(transaction=True)  # the bots answer after each commit
def test_with_the_expert_registered_hard_is_offered_and_stored_per_seat(client, expert):
    lobby = client.get("/play/").content.decode()
    assert options_of(lobby, "seat1_level") == ["easy", "normal", "hard"]
    assert options_of(client.get("/").content.decode(), "level") == ["easy", "normal", "hard"]
    assert options_of(lobby, "think") == ["0.3", "0.5", "1", "2", "3", "5"]
    with eager_bots():
        response = client.post(
            "/play/",
            lobby_form(
                seat1_level="hard", seat2_kind="bot", seat2_level="easy", pace="slow", hints="on", think="0.3"
            ),
        )
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.config["table"] == {
        "pace": "slow",
        "hints": True,
        "bots": {"1": "expert", "2": "easy"},
        "think": 0.3,
    }
    # The engine's own entry names only the bots it knows; the seat row keeps ours.
    assert [p["bot"] for p in game.config["players"]] == [None, "heuristic", "heuristic"]
    assert [s.bot for s in game.seats.order_by("index")] == ["", "expert", "easy"]
    assert services.table_bot(game, 1) == "expert" and services.table_bot(game, 2) == "easy"
    with eager_bots():  # Ada plays on; the bots answer inline, the expert seat through the spy
        for _ in range(200):
            game.refresh_from_db()
            if expert.calls or not game.is_active:
                break
            assert game.pending_seat == 0
            with services.engine_game(game) as engine:  # the record replays with the settings in it
                first = engine.pending.options[0].id
            services.submit_choice(game.pk, 0, game.version, game.pending_decision, [first])
    assert expert.calls and all(seat == 1 for seat, _ in expert.calls)
    budget = expert.calls[0][1]
    assert budget.seconds == 0.3  # the table's thinking time
    # Its cancel check reads the row (at most once per poll interval, and the bot may have asked
    # within the last one): that decision has been answered since.
    time.sleep(bots.CANCEL_POLL_SECONDS)
    assert budget.cancelled()
    assert game.choices.filter(seat=1, by_bot=True).exists()


def test_play_against_bots_sets_every_bot_to_the_level_asked(client):
    form = {"bots": "3", "seat0_kind": "person", "seat1_kind": "bot", "seat2_kind": "none",
            "seat3_kind": "none", "base_sets": "factions", "specials": "fast", "your_name": "Ada",
            "level": "easy"}  # fmt: skip
    assert client.post("/play/", form).status_code == 302
    game = Game.objects.get()
    assert game.config["table"] == {
        "pace": "normal",
        "hints": True,
        "bots": {"1": "easy", "2": "easy", "3": "easy"},
    }
    assert [s.bot for s in game.seats.order_by("index")] == ["", "easy", "easy", "easy"]


def test_the_home_pages_one_tap_game_is_a_normal_game_against_two_bots(client):
    html = client.get("/").content.decode()
    form = re.search(
        r'<form method="post" action="/play/"[^>]*id="play-bots">(.*?)</form>', html, re.S
    ).group(1)
    data = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    data.pop("csrfmiddlewaretoken", None)
    data["level"] = re.search(r'<option value="([^"]+)" selected>', form).group(1)
    assert data["level"] == "normal"
    assert client.post("/play/", data).status_code == 302
    game = Game.objects.get()
    assert game.config["table"]["bots"] == {"1": "heuristic", "2": "heuristic"}
    assert game.config["table"]["hints"] is True


def test_a_table_without_settings_plays_as_before_and_has_no_hints():
    """Tournaments' app tables (people only) and commands make tables without saying anything."""
    game = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=3)
    assert game.config["table"] == {"pace": "normal", "hints": False, "bots": {}}
    assert not services.hints_on(game.config)


def test_the_table_settings_survive_the_start_and_a_bad_pace_is_refused():
    game = services.create_game(
        [services.SeatSpec("person"), services.SeatSpec("bot", bot="easy")], seed=4, pace="quick", hints=True
    )
    assert game.is_lobby
    services.claim_seat(game.pk, 0, guest_name="Ada")
    game.refresh_from_db()
    assert game.is_active and game.config["table"] == {"pace": "quick", "hints": True, "bots": {"1": "easy"}}
    before = Game.objects.count()
    with pytest.raises(services.PlayError, match="pace"):
        services.create_game([services.SeatSpec("person"), services.SeatSpec("bot")], pace="warp")
    with pytest.raises(services.PlayError, match="unknown bot 'grandmaster'"):
        services.create_game([services.SeatSpec("person"), services.SeatSpec("bot", bot="grandmaster")])
    for think in (0.1, 6.0, "1", True):
        with pytest.raises(services.PlayError, match="thinks 0.3 to 5 seconds"):
            services.create_game([services.SeatSpec("person"), services.SeatSpec("bot")], think=think)
    assert Game.objects.count() == before


def test_a_tables_thinking_time_is_kept_and_clamped_when_read():
    game = services.create_game([services.SeatSpec("person"), services.SeatSpec("bot")], seed=6, think=2.0)
    assert game.config["table"]["think"] == 2.0 and services.think_seconds(game.config) == 2.0
    assert services.think_seconds({"table": {"think": 9}}) == botregistry.THINK_SECONDS_RANGE[1]
    assert services.think_seconds({}) == botregistry.DEFAULT_THINK_SECONDS


def test_without_the_expert_the_lobby_stores_no_thinking_time(client, no_expert):
    assert client.post("/play/", lobby_form(think="3")).status_code == 302
    assert "think" not in Game.objects.get().config["table"]


def test_a_seat_whose_bot_is_gone_is_played_by_the_heuristic_bot(monkeypatch):
    monkeypatch.setitem(BOTS, "expert", expert_bot)
    game = person_vs_bot(seed=5)
    Game.objects.filter(pk=game.pk).update(config={**game.config, "table": {"bots": {"1": "expert"}}})
    game.refresh_from_db()
    monkeypatch.delitem(BOTS, "expert")  # a record made where the expert existed
    assert services.table_bot(game, 1) == "expert"
    from smashup.play.bots import _bot_of

    assert _bot_of(game, 1) is BOTS["heuristic"]


def test_the_game_page_carries_the_bots_pace_for_the_screen(settings, client):
    settings.PLAY_BOT_DELAY = 1.2
    for pace in ("slow", "normal", "instant"):
        assert Client().post("/play/", lobby_form(pace=pace)).status_code == 302
    assert Game.objects.count() == 3
    for game in Game.objects.all():
        html = Client().get(f"/play/g/{game.public_id}/").content.decode()
        pace = game.config["table"]["pace"]
        expected = {"slow": "2400", "normal": "1200", "instant": "0"}[pace]
        assert f'data-pace-ms="{expected}"' in html


def test_the_levels_name_bots_that_exist():
    assert [level.key for level in botregistry.offered_levels({"easy": 1, "heuristic": 1})] == [
        "easy",
        "normal",
    ]
    assert botregistry.level_bot("hard", {"easy": 1, "heuristic": 1}) is None
    assert botregistry.level_bot("hard", {"expert": 1}) == "expert"
    assert botregistry.engine_bot("expert") == "heuristic" and botregistry.engine_bot("random") == "random"
