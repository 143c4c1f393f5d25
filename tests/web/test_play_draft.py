"""The Kickin' It Queensberry faction draft at a live table (smashup.play.drafting over
tournaments.draft) on the real PostgreSQL and Redis: the order, refusals, bots, the start, the pages."""

from __future__ import annotations

import json
import random

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from smashup.asgi import application
from smashup.play import drafting, services
from smashup.play.models import Game
from tournaments import draft as kiq

from .play_helpers import SITE_HEADERS

TIMEOUT = 10


def draft_table(kinds: list[str], seed: int = 5) -> Game:
    return services.create_game([services.SeatSpec(k) for k in kinds], seed=seed, draft=True)


def expected_order(seed: int, players: int) -> list[int]:
    """The rulebook's order: a first picker drawn at random (from the seed), clockwise, then back."""
    first = random.Random(f"{seed}:table-draft:draft:first").choice(list(range(players)))
    clockwise = [(first + i) % players for i in range(players)]
    return clockwise + clockwise[::-1]


def state_of(game: Game) -> tuple:
    """What a refused pick must not change."""
    game.refresh_from_db()
    return (
        game.status,
        json.dumps(game.draft, sort_keys=True),
        [s.factions for s in game.seats.order_by("index")],
    )


def sit_all(game: Game) -> None:
    for seat in game.seats.filter(kind="person"):
        services.claim_seat(game.pk, seat.index, guest_name=f"P{seat.index}")


def implemented_factions() -> list[str]:
    return list(services.factions_available())


def assert_drafted(game: Game, pool) -> None:
    """Every seat ends with two different factions of the pool, and no copy is given twice."""
    copies = dict(pool)
    for seat in game.seats.all():
        assert len(seat.factions) == 2 and len(set(seat.factions)) == 2
        for faction in seat.factions:
            copies[faction] -= 1
    assert min(copies.values()) >= 0


def pick_for_current(game: Game, faction: str | None = None) -> str:
    game.refresh_from_db()
    state = drafting.state(game)
    faction = faction or kiq.legal_picks(state)[0]
    drafting.pick(game.pk, kiq.current_picker(state), faction, len(state.picks))
    return faction


# ---------------------------------------------------------------------------------- order --------
@pytest.mark.django_db
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_order_is_a_snake_from_a_seeded_random_first_picker(players):
    firsts = set()
    for seed in range(1, 13):
        game = draft_table(["person"] * players, seed=seed)
        assert game.is_lobby and game.draft is not None
        state = drafting.state(game)
        assert state.first_by == "random"
        order = [player for player, _ in kiq.turn_order(state)]
        assert order == expected_order(seed, players)
        assert order[:players] == order[players:][::-1]  # the last picks twice in a row, then back
        context = drafting.context(game, None)
        assert [s["seat"] for s in context["steps"]] == order and context["picker"] == order[0]
        firsts.add(order[0])
        # The same seed gives the same draft.
        again = draft_table(["person"] * players, seed=seed)
        assert drafting.state(again).first == state.first
    assert len(firsts) > 1  # random, not always seat 1


@pytest.mark.django_db
@pytest.mark.parametrize("players", [2, 3, 4])
def test_picks_follow_the_snake_and_the_game_starts_with_the_drafted_pairs(players):
    game = draft_table(["person"] * players, seed=21)
    sit_all(game)
    game.refresh_from_db()
    assert game.is_lobby  # every seat is taken, but the draft is not over
    order = expected_order(21, players)
    made = []
    for step, seat in enumerate(order):
        game.refresh_from_db()
        assert game.is_lobby and drafting.context(game, seat)["my_turn"]
        made.append((seat, pick_for_current(game)))
        game.refresh_from_db()
        assert drafting.picks_made(game) == step + 1
    game.refresh_from_db()
    assert game.is_active and game.started_at is not None
    drafted = {seat: [f for s, f in made if s == seat] for seat in range(players)}
    for seat in game.seats.order_by("index"):
        assert seat.factions == drafted[seat.index] and len(set(seat.factions)) == 2
    assert [p["factions"] for p in game.config["players"]] == [drafted[i] for i in range(players)]
    with services.engine_game(game) as engine:
        assert [p.factions for p in engine.players] == [drafted[i] for i in range(players)]
        assert engine.pending is not None
    # The draft stays on the row as its record.
    assert kiq.is_done(drafting.state(game)) and drafting.context(game, 0)["done"]


# ---------------------------------------------------------------------------------- refusals -----
@pytest.mark.django_db
def test_out_of_turn_and_illegal_picks_are_refused_and_change_nothing():
    game = draft_table(["person", "person", "person"], seed=9)
    sit_all(game)
    order = expected_order(9, 3)
    first, other = order[0], next(s for s in range(3) if s != order[0])
    before = state_of(game)

    def refused(seat, faction, expected, error, match):
        with pytest.raises(error, match=match):
            drafting.pick(game.pk, seat, faction, expected)
        assert state_of(game) == before

    refused(other, "Aliens", 0, services.NotYourDecision, f"It is P{first}'s pick, not yours")
    refused(None, "Aliens", 0, services.SpectatorChoice, "Spectators watch")
    refused(first, "Vikings", 0, services.IllegalMove, "cannot pick Vikings: 'Vikings' is not in the pool")
    refused(first, "", 0, services.BadRequest, "Say which faction")
    refused(first, ["Aliens"], 0, services.BadRequest, "Say which faction")
    refused(first, "Aliens", 3, services.StaleChoice, "The draft has moved on")

    drafting.pick(game.pk, first, "Aliens", 0)
    game.refresh_from_db()
    assert game.seats.get(index=first).factions == ["Aliens"]
    before = state_of(game)
    refused(first, "Ninjas", 1, services.NotYourDecision, "not yours")  # one pick each in turn
    refused(first, "Ninjas", 0, services.StaleChoice, "moved on")  # a second click on an old page
    # The snake comes back to the first picker: picking the same faction twice is refused.
    while len(drafting.state(game).picks) < 5:
        pick_for_current(game)
        game.refresh_from_db()
    assert kiq.current_picker(drafting.state(game)) == first
    before = state_of(game)
    refused(first, "Aliens", 5, services.IllegalMove, "already has Aliens")
    # Any faction still legal for them (which ones the others took depends on the pool's size).
    second = kiq.legal_picks(drafting.state(game))[0]
    assert second != "Aliens"
    drafting.pick(game.pk, first, second, 5)
    game.refresh_from_db()
    assert game.is_active
    with pytest.raises(services.PlayError, match="The draft is over") as info:
        drafting.pick(game.pk, first, second, 6)
    assert info.value.code == "draft_over"
    plain = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=2)
    with pytest.raises(services.PlayError, match="no faction draft"):
        drafting.pick(plain.pk, 0, "Aliens", 0)


@pytest.mark.django_db
def test_a_copy_can_run_out():
    """In a draft of several tables' players (not a table's), a faction is gone once every copy is
    taken."""
    state = kiq.new_draft([0, 1, 2], seed=1, pool={"Aliens": 1, "Ninjas": 3, "Wizards": 2}, first=0)
    state = kiq.apply_pick(state, 0, "Aliens")
    with pytest.raises(kiq.DraftError, match="every copy of Aliens is taken"):
        kiq.apply_pick(state, 1, "Aliens")


# ---------------------------------------------------------------------------------- bots ---------
@pytest.mark.django_db
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_table_of_bots_drafts_at_once_and_starts(players):
    game = draft_table(["bot"] * players, seed=players)
    game.refresh_from_db()
    assert game.is_active
    pool = drafting.state(game).pool
    # One copy of every implemented faction: each faction is in a game once.
    assert pool == tuple((faction, 1) for faction in implemented_factions())
    assert_drafted(game, pool)


@pytest.mark.django_db
def test_bots_pick_at_once_when_it_is_their_turn():
    for seed in range(30):  # a seed where a bot picks first and the person is in the middle
        if expected_order(seed, 3)[0] != 0:
            break
    game = draft_table(["person", "bot", "bot"], seed=seed)
    order = expected_order(seed, 3)
    game.refresh_from_db()
    state = drafting.state(game)
    # The bots before the person already picked: the draft waits for seat 1's person.
    assert kiq.current_picker(state) == 0 and len(state.picks) == order.index(0)
    assert drafting.context(game, None)["waiting_for_seat"]  # nobody sits there yet
    with pytest.raises(services.NotYourDecision):
        drafting.pick(game.pk, 1, "Aliens", len(state.picks))
    services.claim_seat(game.pk, 0, guest_name="Ada")
    while True:
        game.refresh_from_db()
        if not game.is_lobby:
            break
        assert kiq.current_picker(drafting.state(game)) == 0  # the bots never keep anyone waiting
        pick_for_current(game)
    assert game.is_active
    assert_drafted(game, drafting.state(game).pool)


@pytest.mark.django_db
def test_start_now_gives_free_seats_to_bots_that_draft_at_once():
    game = draft_table(["person", "person", "person"], seed=4)
    order = expected_order(4, 3)
    services.claim_seat(game.pk, order[0], guest_name="Ada")
    services.start_game(game.pk)
    game.refresh_from_db()
    state = drafting.state(game)
    assert kiq.current_picker(state) == order[0] and game.is_lobby
    pick_for_current(game)
    game.refresh_from_db()
    # Ada's picks are the only ones left to people: the bots went on to her second pick, then finished.
    assert kiq.current_picker(drafting.state(game)) == order[0]
    pick_for_current(game)
    game.refresh_from_db()
    assert game.is_active


# ---------------------------------------------------------------------------------- pages --------
def lobby_post(client, **extra):
    data = {
        "seat0_kind": "person",
        "seat1_kind": "person",
        "seat2_kind": "bot",
        "seat3_kind": "none",
        "base_sets": "factions",
        "specials": "fast",
        "sit": "on",
        "your_name": "Ada",
        "factions_mode": "draft",
        "seat0_faction0": "Aliens",  # ignored in a draft
    }
    data.update(extra)
    return client.post("/play/", data)


@pytest.mark.django_db
def test_the_lobby_offers_a_draft_and_the_table_page_runs_it(client):
    page = client.get("/play/").content.decode()
    assert 'value="draft"' in page and "Draft at the table" in page
    response = lobby_post(client)
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.is_lobby and game.draft is not None
    assert game.seats.get(index=0).factions != ["Aliens"]  # the per-seat choice was not used
    table = f"/play/t/{game.public_id}/"
    html = client.get(table).content.decode()
    assert "Faction draft" in html and 'ws-connect="/ws/games/' in html and "?watch=table" in html
    assert 'id="table-ping"' in html and "every 5s, refresh" in html
    bob = Client()
    bob.post(f"/play/t/{game.public_id}/sit/1/", {"name": "Bob"})
    game.refresh_from_db()
    clients = {0: client, 1: bob}
    for _ in range(6):
        game.refresh_from_db()
        if not game.is_lobby:
            break
        state = drafting.state(game)
        picker = kiq.current_picker(state)
        me, other = clients[picker], clients[1 - picker]
        mine = me.get(table).content.decode()
        assert "your pick" in mine and 'name="faction"' in mine
        theirs = other.get(table).content.decode()
        assert "is picking" in theirs and 'name="faction" value=' not in theirs
        # Out of turn through the page: refused, shown in the panel, nothing changes.
        before = state_of(game)
        response = other.post(
            f"/play/t/{game.public_id}/draft/",
            {"faction": "Aliens", "picks": len(state.picks)},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 403 and "not yours" in response.content.decode()
        assert state_of(game) == before
        faction = kiq.legal_picks(state)[0]
        response = me.post(
            f"/play/t/{game.public_id}/draft/",
            {"faction": faction, "picks": len(state.picks)},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code in (200, 204)
    game.refresh_from_db()
    assert game.is_active
    assert response.status_code == 204 and response["HX-Redirect"] == f"/play/g/{game.public_id}/"
    assert_drafted(game, drafting.state(game).pool)


@pytest.mark.django_db
def test_a_pick_without_htmx_redirects(client):
    lobby_post(client, seat1_kind="bot")
    game = Game.objects.get()
    state = drafting.state(game)
    assert game.is_lobby and kiq.current_picker(state) == 0  # the bots picked up to Ada's turn
    response = client.post(
        f"/play/t/{game.public_id}/draft/", {"faction": "Vikings", "picks": len(state.picks)}
    )
    assert response.status_code == 302 and response["Location"] == f"/play/t/{game.public_id}/"
    page = client.get(f"/play/t/{game.public_id}/").content.decode()
    assert "cannot pick Vikings" in page


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_table_page_socket_pings_on_every_pick():
    game = await database_sync_to_async(draft_table)(["person", "person"], 31)
    await database_sync_to_async(sit_all)(game)
    comm = WebsocketCommunicator(
        application, f"/ws/games/{game.public_id}/?watch=table", headers=SITE_HEADERS
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    first = await comm.receive_from(timeout=TIMEOUT)
    assert 'id="table-ping"' in first and 'hx-swap-oob="true"' in first
    await database_sync_to_async(pick_for_current)(game)
    text = await comm.receive_from(timeout=TIMEOUT)
    assert 'id="table-ping"' in text and 'data-n="1"' in text and "data-card" not in text
    await comm.disconnect()
