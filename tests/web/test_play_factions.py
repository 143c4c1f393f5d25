"""Each faction is in a game once (issue 9, section 3) at a live table: the lobby's picks, random
factions, each player's own pick and the table draft never give one table a faction twice; the base
deck comes from the factions' sets or, as an option, from every base the app has. Forged input gets
a clear error and changes nothing."""

from __future__ import annotations

import random

import pytest

from smashup.engine import REGISTRY
from smashup.play import drafting, services
from smashup.play.forms import NewGameForm
from smashup.play.models import Game, Seat
from smashup.play.tables import SeatSpec, draw_factions
from tournaments import draft as kiq

from .test_play_views import lobby_form

CORE = services.factions_available()


def all_factions(game: Game) -> list[str]:
    return [f for p in game.config["players"] for f in p["factions"]]


# ---------------------------------------------------------------------------------- no database --
def test_the_lobby_offers_every_implemented_faction():
    core = {f for f, fac in REGISTRY.factions.items() if fac.set == "core"}
    assert len(core) == 8 and core <= set(CORE) and set(CORE) == set(REGISTRY.factions)
    choices = [value for value, _ in NewGameForm().fields["seat0_faction0"].choices]
    assert choices == ["", *CORE]


def test_random_factions_never_repeat_at_a_table():
    for seed in range(200):
        specs = [SeatSpec("person", ["Aliens", None]), *[SeatSpec("bot") for _ in range(3)]]
        pairs = draw_factions(specs, random.Random(seed), CORE)
        dealt = [f for pair in pairs for f in pair]
        assert len(dealt) == 8 and len(set(dealt)) == 8 and pairs[0][0] == "Aliens"


@pytest.mark.parametrize(
    "specs, message",
    [
        ([SeatSpec("person", ["Aliens", "Ninjas"]), SeatSpec("bot", ["Robots", "Aliens"])],
         "Seat 1 and seat 2 both have Aliens; each faction is in a game once."),
        ([SeatSpec("person", ["Aliens", None]), SeatSpec("bot", [None, "Aliens"])], "both have Aliens"),
        ([SeatSpec("person", ["Aliens", "Martians"]), SeatSpec("bot")], "no faction called 'Martians'"),
    ],
)
def test_a_faction_at_two_seats_or_an_unknown_one_is_refused(specs, message):
    with pytest.raises(services.PlayError, match=message):
        draw_factions(specs, random.Random(1), CORE)


def test_too_few_factions_for_the_seats_is_a_clear_error():
    with pytest.raises(services.PlayError, match="3 seats need 6 different factions; there are 4"):
        draw_factions([SeatSpec("bot") for _ in range(3)], random.Random(1), CORE[:4])


def test_a_forged_lobby_form_with_a_faction_at_two_seats_is_refused():
    form = NewGameForm(lobby_form(seat1_kind="person", seat1_faction0="Robots", seat1_faction1="Ninjas"))
    assert not form.is_valid()
    assert form.errors["seat1_faction1"] == ["Seat 1 already has Ninjas: each faction is in a game once."]


# ---------------------------------------------------------------------------------- tables -------
@pytest.mark.django_db
def test_the_lobby_refuses_a_forged_faction_twice_or_an_unknown_one_and_creates_nothing(client):
    for overrides, message in [
        ({"seat1_kind": "person", "seat1_faction0": "Aliens"}, "Seat 1 already has Aliens"),
        ({"seat1_faction1": "Ninjas"}, "Seat 1 already has Ninjas"),
        ({"seat1_faction0": "Martians"}, "Select a valid choice"),
        ({"seat0_faction1": "Aliens"}, "Pick two different factions"),
    ]:
        response = client.post("/play/", lobby_form(**overrides))
        assert response.status_code == 200 and message in response.content.decode(), overrides
    assert not Game.objects.exists() and not Seat.objects.exists()


@pytest.mark.django_db
def test_the_service_refuses_a_faction_at_two_seats_and_creates_nothing():
    with pytest.raises(services.PlayError, match="both have Ninjas"):
        services.create_game(
            [SeatSpec("person", ["Aliens", "Ninjas"]), SeatSpec("bot", ["Ninjas", "Robots"])], seed=3
        )
    assert not Game.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("players", [2, 3, 4])
def test_any_mix_of_the_eight_core_factions_plays_from_the_lobby(client, players):
    """Seat 1 picks, the other seats are bots on random: every table holds 2 x players different
    factions and starts."""
    mixes = [("Dinosaurs", "Zombies"), ("Tricksters", "Wizards"), ("Pirates", "Robots")]
    for first, second in mixes:
        Game.objects.all().delete()
        kinds = {f"seat{i}_kind": "bot" if i < players else "none" for i in range(1, 4)}
        client.post("/play/", lobby_form(seat0_faction0=first, seat0_faction1=second, **kinds))
        game = Game.objects.get()
        assert game.is_active
        dealt = all_factions(game)
        assert dealt[:2] == [first, second] and len(dealt) == len(set(dealt)) == 2 * players


@pytest.mark.django_db
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_table_draft_never_gives_one_table_a_faction_twice(players):
    for seed in range(4):
        game = services.create_game([SeatSpec("bot") for _ in range(players)], seed=seed, draft=True)
        game.refresh_from_db()
        assert game.is_active
        dealt = all_factions(game)
        assert len(dealt) == len(set(dealt)) == 2 * players
        state = drafting.state(game)
        assert state.one_table and state.pool == tuple((f, 1) for f in CORE)
        Game.objects.all().delete()


@pytest.mark.django_db
def test_a_pick_of_a_faction_another_seat_drafted_is_refused_and_changes_nothing():
    game = services.create_game([SeatSpec("person"), SeatSpec("person")], seed=11, draft=True)
    for i in range(2):
        services.claim_seat(game.pk, i, guest_name=f"P{i}")
    game.refresh_from_db()
    state = drafting.state(game)
    first = kiq.current_picker(state)
    drafting.pick(game.pk, first, "Aliens", 0)
    game.refresh_from_db()
    before = (game.draft, [s.factions for s in game.seats.order_by("index")])
    with pytest.raises(services.PlayError, match="Aliens is already at this table"):
        drafting.pick(game.pk, 1 - first, "Aliens", 1)
    game.refresh_from_db()
    assert (game.draft, [s.factions for s in game.seats.order_by("index")]) == before


# ---------------------------------------------------------------------------------- bases --------
def base_sets_in(game: Game) -> tuple[set[str], int]:
    with services.engine_game(game) as engine:
        cards = list(engine.base_deck) + [slot.card for slot in engine.bases]
        return {engine.defs[c].set for c in cards}, len(cards)


@pytest.mark.django_db
@pytest.mark.parametrize("choice", ["factions", "all"])
def test_the_base_deck_option_is_stored_with_the_table_and_used_by_the_game(client, choice):
    response = client.post("/play/", lobby_form(base_sets=choice))
    game = Game.objects.get()
    every_set = sorted({b.set for b in REGISTRY.bases.values()})
    assert response.status_code == 302 and game.config["base_sets"] in (choice, every_set)
    sets, count = base_sets_in(game)
    # The factions are drawn at random: their sets (Core, and What Were We Thinking? with the Rock
    # Stars) decide the bases.
    in_play = sorted({REGISTRY.faction(f).set for p in game.config["players"] for f in p["factions"]})
    expected = REGISTRY.bases_of_sets(in_play) if choice == "factions" else list(REGISTRY.bases.values())
    assert sets == {b.set for b in expected} and count == len(expected)


@pytest.mark.django_db
def test_a_forged_base_deck_option_is_refused(client):
    response = client.post("/play/", lobby_form(base_sets="mine"))
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert not Game.objects.exists()
    html = client.get("/play/").content.decode()
    assert "Every base the app has, shuffled together" in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    "choice, text", [("all", "every base the app has"), ("factions", "from the sets of the factions")]
)
def test_the_table_page_says_where_the_bases_come_from(client, choice, text):
    client.post("/play/", lobby_form(seat1_kind="person", base_sets=choice))
    game = Game.objects.get()
    assert game.is_lobby and (game.config["base_sets"] == "factions") == (choice == "factions")
    assert f"Bases: {text}" in client.get(f"/play/t/{game.public_id}/").content.decode()
