"""What the game screen is given (issue 13): power breakdowns that add up, identical options once,
the word a card in hand gets per decision, and the lobby's one button and pick-mode fix."""

from __future__ import annotations

import random

import pytest

import smashup.cards  # noqa: F401  (fills the registry)
from smashup.engine import new_game
from smashup.engine.bots import BOTS
from smashup.engine.simulate import bot_streams, game_config
from smashup.play import render
from smashup.play.models import Game
from smashup.play.tables import factions_available


def test_power_breakdowns_add_up_to_the_engines_power_through_whole_games():
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        config = game_config(rng, 4, factions_available(), "heuristic")
        game = new_game(config, seed)
        streams = bot_streams(seed, 4)
        while game.pending is not None and len(game.choices) < 3000:
            for slot in game.bases:
                parts = render.breakpoint_parts(game, slot.uid)
                assert max(0, sum(p["amount"] for p in parts)) == game.breakpoint(slot), parts
                for cid in slot.minions:
                    parts = render.power_parts(game, cid)
                    assert parts[0]["label"] == "printed"
                    assert max(0, sum(p["amount"] for p in parts)) == game.power(cid), parts
                    checked += 1
            seat = game.pending.seat
            game.apply(seat, game.pending.id, BOTS["heuristic"](game, streams[seat]))
    assert checked > 1000  # many minions, modifiers among them, were looked at


def test_breakdown_text_reads_as_a_sum():
    parts = [{"label": "printed", "amount": 3}, {"label": "power counters", "amount": 1},
             {"label": "Some Base", "amount": -2}]  # fmt: skip
    assert render.breakdown_text(parts) == "3 printed + 1 power counters − 2 Some Base"


def _view(hand, minions):
    return {
        "hand": hand,
        "bases": [{"uid": 7, "id": 100, "name": "The Base", "minions": minions, "actions": []}],
        "players": [],
        "base_discard": [],
    }


def _pending(options, kind="play", most=1):
    return {"id": "d1", "kind": kind, "prompt": "?", "min": 1, "max": most, "may_decline": False,
            "options": options}  # fmt: skip


def _labels(decision):
    return [o["label"] for g in decision["groups"] for o in g["options"]]


def test_alike_minions_make_one_option_that_any_of_them_maps_to():
    acolyte = {"name": "Ninja Acolyte", "type": "minion", "power": 2, "printed": 2, "controller": 3}
    minions = [dict(acolyte, id=i, attached=[]) for i in (11, 12, 13)]
    label = "Ninja Acolyte (2, Bot 4) on The Base"
    options = [{"id": f"o{i}", "label": label, "card": i} for i in (11, 12, 13)]
    decision = render._decision(_pending(options), _view([], minions), {}, {3: "Bot 4"}, {7: "The Base"})
    assert _labels(decision) == ["Ninja Acolyte (2, Bot 4) on The Base"]
    (group,) = decision["groups"]
    assert group["copies"] == 3 and group["options"][0]["cards"] == "11 12 13"
    assert group["options"][0]["id"] == "o11"  # the first one's: the server still checks it


def test_alike_minions_on_different_bases_or_of_different_power_stay_apart():
    a = {"id": 11, "name": "Scout", "type": "minion", "power": 3, "printed": 3, "controller": 1}
    a["attached"] = []
    b = dict(a, id=12, power=4)
    options = [{"id": "o1", "label": "Scout", "card": 11}, {"id": "o2", "label": "Scout", "card": 12}]
    decision = render._decision(_pending(options), _view([], [a, b]), {}, {}, {7: "The Base"})
    assert len(decision["groups"]) == 2


def test_a_choice_of_several_keeps_copies_apart_but_never_reads_the_same():
    hand = [{"id": i, "name": "Howl", "type": "action"} for i in (1, 2)]
    options = [{"id": f"c{i}", "label": "Howl", "card": i} for i in (1, 2)]
    decision = render._decision(_pending(options, "discard", 2), _view(hand, []), {}, {}, {})
    labels = _labels(decision)
    assert len(labels) == 2 and len(set(labels)) == 2


@pytest.mark.parametrize("kind, word", [("play", "can be played"), ("discard", "to discard")])
def test_cards_in_hand_say_what_the_decision_offers_them_for(kind, word):
    assert render.OPTION_WORDS[kind] == word


# ---------------------------------------------------------------------------------- lobby ------
@pytest.mark.django_db
def test_play_against_bots_starts_a_game_in_one_post_with_defaults(client):
    form = {"seat0_kind": "person", "seat1_kind": "bot", "seat2_kind": "none", "seat3_kind": "none",
            "base_sets": "factions", "specials": "fast", "your_name": "", "bots": "3"}  # fmt: skip
    response = client.post("/play/", form)
    row = Game.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/play/g/{row.public_id}/")
    assert row.is_active and row.seats.count() == 4
    assert [s.kind for s in row.seats.order_by("index")] == ["person", "bot", "bot", "bot"]
    assert row.seats.get(index=0).guest_name == "Player"
    assert all(len(s.factions) == 2 for s in row.seats.all())


@pytest.mark.django_db
def test_play_against_bots_refuses_a_bad_count_and_sets_up_nothing(client):
    form = {"seat0_kind": "person", "seat1_kind": "bot", "seat2_kind": "none", "seat3_kind": "none",
            "base_sets": "factions", "specials": "fast", "bots": "9"}  # fmt: skip
    response = client.post("/play/", form)
    assert response.status_code == 200 and Game.objects.count() == 0
    assert b'id="quick-errors"' in response.content


@pytest.mark.django_db
def test_the_lobby_marks_the_creators_own_row_and_shows_errors_on_top(client):
    page = client.get("/play/").content.decode()
    assert page.count("my-row") == 1 and 'id="play-bots"' in page
    response = client.post("/play/", {"seat0_kind": "bot", "seat1_kind": "bot", "seat2_kind": "none",
                                      "seat3_kind": "none", "base_sets": "factions", "specials": "fast",
                                      "sit": "on"})  # fmt: skip
    text = response.content.decode()
    errors = text.index('id="form-errors"')  # at the top of the form, before its first field
    assert text.index('class="lobby-form"') < errors < text.index('id="id_seat0_kind"')
    assert Game.objects.count() == 0


def test_favicon_is_drawn_and_found(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")


@pytest.mark.django_db
def test_a_friend_at_the_table_page_sees_the_seats_first_and_the_creator_the_invitation(client):
    from django.test import Client

    form = {"seat0_kind": "person", "seat1_kind": "person", "seat2_kind": "none", "seat3_kind": "none",
            "base_sets": "factions", "specials": "fast", "sit": "on", "your_name": "Ada"}  # fmt: skip
    client.post("/play/", form)
    row = Game.objects.get()
    assert "seats-first" not in client.get(f"/play/t/{row.public_id}/").content.decode()
    friend = Client().get(f"/play/join/?code={row.code}", follow=True).content.decode()
    assert 'class="table-grid seats-first"' in friend and "Sit here" in friend


def test_a_changed_breakpoint_shows_its_parts_and_adds_up():
    from django.template.loader import render_to_string

    from smashup.engine import Scenario
    from smashup.engine.testing import play

    s = Scenario([("Dinosaurs", "Aliens"), ("Ninjas", "Robots")])
    s.base("Tar Pits")
    s.base("Jungle Oasis")
    s.minion(0, "King Rex", owner=0)
    s.hand(0, "Rampage", "Invader")
    s.hand(1, "Ninja Acolyte")
    game = s.build()
    pits = game.bases[0].uid
    assert render.breakpoint_parts(game, pits) == [{"label": "printed", "amount": 16}]
    play(game, "Rampage")  # King Rex is the only minion: chosen without a question
    parts = render.breakpoint_parts(game, pits)
    assert parts == [{"label": "printed", "amount": 16}, {"label": "Rampage", "amount": -7}]
    assert max(0, sum(p["amount"] for p in parts)) == game.breakpoint(game.bases[0]) == 9
    base = {"uid": pits, "id": 1, "name": "Tar Pits", "total": 7, "breakpoint": 9, "vp": [4, 3, 2],
            "breakpoint_change": -7, "breakpoint_why": render.breakdown_text(parts),
            "powers": [], "minions": [], "actions": []}  # fmt: skip
    html = render_to_string("play/_bases.html", {"bases": [base]})
    assert 'class="base-breakpoint lowered" title="breakpoint: 16 printed − 7 Rampage">9<' in html
    unchanged = dict(base, breakpoint=16, breakpoint_change=0, breakpoint_why="16 printed")
    html = render_to_string("play/_bases.html", {"bases": [unchanged]})
    assert '<span class="base-breakpoint">16</span>' in html and "16 printed" not in html


def test_a_minion_whose_abilities_are_cancelled_says_so():
    from django.template.loader import render_to_string

    from smashup.engine import Scenario
    from smashup.engine.testing import card, play

    s = Scenario([("Superheroes", "Aliens"), ("Dinosaurs", "Robots")])
    s.base("Jungle Oasis")
    s.minion(0, "War Raptor", owner=1)
    s.minion(0, "War Raptor", owner=1)
    s.hand(0, "My Only Weakness!", "Invader")
    s.hand(1, "Howl")
    game = s.build()
    # Two identical War Raptors are one option: the Weakness goes on one without a question.
    play(game, "My Only Weakness!")
    weak = game.action_state[card(game, "My Only Weakness!")].host
    view = game.view(0)["bases"][0]
    assert [m.get("cancelled", False) for m in view["minions"]] == [
        m == weak for m in game.bases[0].minions]
    minions = [render._card(m, game.card_texts(), {0: "P0", 1: "P1"}) for m in view["minions"]]
    base = {"uid": view["uid"], "id": view["id"], "name": "Jungle Oasis", "total": 5,
            "breakpoint": 12, "vp": [2, 0, 0], "breakpoint_change": 0, "breakpoint_why": "",
            "powers": [], "minions": minions, "actions": []}  # fmt: skip
    base["columns"] = render.base_columns(minions, base["powers"], 0)  # the minions under the base
    html = render_to_string("play/_bases.html", {"bases": [base]})
    # One War Raptor is cancelled (power 2: its own bonus gone), the other is not.
    assert html.count("abilities cancelled") == 1 and game.power(weak) == 2


def test_every_copy_of_a_card_in_hand_can_be_tapped():
    """The engine offers the plays of one copy of alike cards in hand; a tap on any copy picks them
    (issue 26: the other copies looked unplayable, and a tap did nothing)."""
    from smashup.engine import Scenario

    s = Scenario([("Tricksters", "Aliens"), ("Ninjas", "Robots")], names=["Ada", "Bob"])
    s.base("The Homeworld")
    s.base("Jungle Oasis")
    s.hand(0, "Gnome", "Gnome", "Gnome", "Invader")
    game = s.build()
    row = Game(public_id="copies", code="COPY", version=0, status=Game.Status.ACTIVE, config={})
    context = render.board_context(row, game, 0)
    gnomes = [c["id"] for c in context["hand"] if c["name"] == "Gnome"]
    assert all(c["is_option"] for c in context["hand"])
    [group] = [g for g in context["decision"]["groups"] if g["title"] == "Gnome"]
    assert group["copies"] == 3 and sorted(group["cards"]) == sorted(gnomes)
    assert {o["cards"] for o in group["options"]} == {" ".join(str(c) for c in group["cards"])}
