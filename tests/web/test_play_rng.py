"""Live play's randomness (issue 12): every new table gets a 256-bit secret from the OS and the keyed
generator (smashup/engine/rng.py), every random draw of a table comes from a keyed stream of it, no
page, fragment or socket message shows the secret while the game runs (the replay page of a finished
game does), and games stored before (version 1, an int seed) still rebuild and replay as played."""

from __future__ import annotations

import asyncio
import datetime
import json
import random
import secrets
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from smashup.asgi import application
from smashup.engine import new_game
from smashup.engine import rng as engine_rng
from smashup.engine.bots import BOTS
from smashup.engine.rng import KeyedRandom
from smashup.play import drafting, services
from smashup.play.models import Choice, Game
from tournaments import draft as kiq

from .play_helpers import SITE_HEADERS, eager_bots

SECRET = "5ec12e75ec12e75ec12e75ec12e75ec12e75ec12e75ec12e75ec12e75ec12e75"
FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "rng_v1_game.json").read_text())["games"][0]
TIMEOUT = 10


def forms_of(secret: str) -> list[str]:
    """Ways a page could show the secret or a key made from it: the hex, each half, the number,
    and the engine stream's key."""
    key = engine_rng.stream_key(secret, engine_rng.GAME_STREAM).hex()
    return [secret, secret[:32], secret[32:], str(int(secret, 16)), key[:32]]


def assert_no_secret(text: str, secret: str, where: str) -> None:
    for form in forms_of(secret):
        assert form not in text, f"{where} shows the game's secret seed"


def lobby_form(**overrides) -> dict:
    data = {
        "seat0_kind": "person", "seat0_faction0": "", "seat0_faction1": "",
        "seat1_kind": "bot", "seat1_faction0": "", "seat1_faction1": "",
        "seat2_kind": "none", "seat2_faction0": "", "seat2_faction1": "",
        "seat3_kind": "none", "seat3_faction0": "", "seat3_faction1": "",
        "base_sets": "factions", "specials": "fast", "sit": "on", "your_name": "Ada",
    }
    data.update(overrides)
    return data


# ---------------------------------------------------------------------------------- new tables ---
@pytest.mark.django_db
def test_a_new_table_gets_a_256_bit_secret_drawn_by_the_os(client, monkeypatch):
    client.post("/play/", lobby_form())
    first = Game.objects.get()
    assert first.rng_version == engine_rng.KEYED and first.seed is None
    assert len(first.secret_seed) == 64 and int(first.secret_seed, 16) >= 0
    with services.engine_game(first) as engine:
        assert isinstance(engine.rng, KeyedRandom) and engine.seed == first.secret_seed
    # Every secret is new, and it comes from the `secrets` module (the OS's generator).
    drawn = []

    def token_hex(nbytes):
        drawn.append(nbytes)
        return SECRET

    monkeypatch.setattr(secrets, "token_hex", token_hex)
    Client().post("/play/", lobby_form())
    second = Game.objects.exclude(pk=first.pk).get()
    assert drawn == [32] and second.secret_seed == SECRET and second.secret_seed != first.secret_seed


@pytest.mark.django_db(transaction=True)
def test_a_table_draws_its_factions_and_its_bots_moves_from_keyed_streams():
    with eager_bots():
        seats = [services.SeatSpec("bot", [None, None]), services.SeatSpec("bot", [None, "Aliens"], "random")]
        row = services.create_game(seats, seed=SECRET)
    row.refresh_from_db()
    assert row.rng_version == 2 and row.secret_seed == SECRET and row.is_finished
    specs = [services.SeatSpec("bot", [None, None]), services.SeatSpec("bot", [None, "Aliens"])]
    pool = services.factions_available()
    expected = services.draw_factions(specs, KeyedRandom(SECRET, "lobby:factions"), pool)
    assert [s.factions for s in row.seats.order_by("index")] == expected
    # Each bot move is the bot's answer with the keyed stream "bot:<seq>" of the game's secret.
    game = new_game(row.config, SECRET)
    for choice in row.choices.in_record().order_by("seq")[:40]:
        kind = row.config["players"][choice.seat]["bot"]
        assert choice.options == BOTS[kind](game, KeyedRandom(SECRET, f"bot:{choice.seq}"))
        game.apply(choice.seat, choice.decision, choice.options)


@pytest.mark.django_db(transaction=True)
def test_bots_draw_their_factions_from_a_keyed_stream_when_each_player_picks():
    seats = [services.SeatSpec("person"), services.SeatSpec("bot")]
    row = services.create_game(seats, seed=SECRET, player_picks=True)
    services.claim_seat(row.pk, 0, guest_name="Ada", factions=["Pirates", "Robots"])
    row.refresh_from_db()
    assert row.is_active
    specs = [services.SeatSpec("person", ["Pirates", "Robots"]), services.SeatSpec("bot", [None, None])]
    pool = services.factions_available()
    expected = services.draw_factions(specs, KeyedRandom(SECRET, "lobby:bot-factions"), pool)
    assert row.seats.get(index=1).factions == expected[1]


@pytest.mark.django_db
def test_undo_works_on_a_keyed_game():
    """The undo rule compares the generator's states (play/undo.py): a version 2 game's choice that
    shuffles nothing can be taken back, and the game is as it was."""
    # Factions fixed, and a minion without an ability played: one that reveals a card (a Wizard)
    # would rightly make the choice final, whatever factions the lobby happens to deal.
    seats = [services.SeatSpec("person", ["Aliens", "Dinosaurs"]),
             services.SeatSpec("person", ["Ninjas", "Robots"])]
    row = services.create_game(seats, seed=SECRET)
    for index in (0, 1):
        services.claim_seat(row.pk, index, guest_name=f"P{index}")
    row.refresh_from_db()
    seat, start_hash = row.pending_seat, row.state_hash
    with services.engine_game(row) as engine:
        minions = [o for o in engine.pending.options if o.id.startswith("m")]
        plain = [o for o in minions if engine.defs[o.card].on_play is None]
        minion = (plain or minions)[0].id
    services.submit_choice(row.pk, seat, 0, row.pending_decision, [minion])
    row.refresh_from_db()
    assert row.version == 1 and row.undo_seat == seat
    services.undo_choice(row.pk, seat, 1)
    row.refresh_from_db()
    assert row.version == 0 and row.state_hash == start_hash


@pytest.mark.django_db
def test_a_table_draft_draws_from_keyed_streams_and_keeps_no_secret():
    seats = [services.SeatSpec("person"), services.SeatSpec("bot"), services.SeatSpec("bot")]
    row = services.create_game(seats, seed=SECRET, draft=True)
    state = drafting.state(row)
    assert state.first == KeyedRandom(SECRET, "table-draft:first").choice([0, 1, 2])
    assert state.first_by == "random"
    assert_no_secret(json.dumps(row.draft), SECRET, "the draft state")
    # The bots picked from their streams until it was the person's turn.
    replayed = kiq.new_draft([0, 1, 2], seed=state.seed, pool=[f for f, _ in state.pool],
                             copies=state.pool[0][1], first=state.first)
    for n, made in enumerate(state.picks):
        assert made.player != 0
        legal = kiq.legal_picks(replayed)
        assert made.faction == KeyedRandom(SECRET, f"table-draft:pick:{n}").choice(legal)
        replayed = kiq.apply_pick(replayed, made.player, made.faction)


@pytest.mark.django_db(transaction=True)
def test_a_tournament_table_played_in_the_app_gets_the_keyed_generator():
    from tournaments import in_app
    from tournaments import services as events
    from tournaments.models import Event, Seat

    org = get_user_model().objects.create_user("org", password="pw-org-123")
    event = events.create_event(org, name="Keyed", date=datetime.date(2026, 5, 1), table_size=2,
                                draft_mode=Event.DraftMode.NONE)
    entrants = [events.register(event, f"P{i}", by=org) for i in range(2)]
    for entrant, pair in zip(entrants, (["Aliens", "Ninjas"], ["Pirates", "Robots"]), strict=True):
        events.set_factions(entrant, pair, org)
    table = Seat.objects.filter(round=events.generate_round(event, org)).first().table
    game = in_app.start_table(table, org)
    assert game.rng_version == 2 and len(game.secret_seed) == 64 and game.seed is None


# ---------------------------------------------------------------------------------- never shown --
async def receive_all(comm: WebsocketCommunicator, log: list, quiet: float = 0.4) -> None:
    while not await comm.receive_nothing(timeout=quiet):
        log.append(await comm.receive_from(timeout=TIMEOUT))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_no_page_fragment_or_socket_message_shows_the_seed_while_the_game_runs():
    """A table made in the lobby (a person and a bot): the table page, the game page of the seat and of
    a spectator, the HTTP choice, the replay page (refused), and the socket's messages in both formats
    carry no form of the secret; the replay page of the finished game shows it."""

    def setup():
        client = Client()
        client.post("/play/", lobby_form(seat1_kind="person", turn_seconds=""))
        row = Game.objects.get()
        pages = {
            "table page (creator)": client.get(f"/play/t/{row.public_id}/"),
            "seats fragment": client.get(f"/play/t/{row.public_id}/seats/"),
        }
        Client().post(f"/play/t/{row.public_id}/sit/1/", {"name": "Bob"})
        row.refresh_from_db()
        pages["game page (seat)"] = client.get(f"/play/g/{row.public_id}/")
        pages["game page (spectator)"] = Client().get(f"/play/g/{row.public_id}/")
        pages["replay while playing"] = client.get(f"/play/g/{row.public_id}/replay/", {"as": 0})
        return row, client, pages

    row, client, pages = await database_sync_to_async(setup)()
    assert row.is_active and row.rng_version == 2
    for where, response in pages.items():
        assert response.status_code in (200, 204, 409), where
        assert_no_secret(response.content.decode(), row.secret_seed, where)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    messages: list[str] = []
    comms = []
    for fmt in (None, "json"):
        for headers in ([*SITE_HEADERS, (b"cookie", cookie.encode())], SITE_HEADERS):
            path = f"/ws/games/{row.public_id}/" + (f"?format={fmt}" if fmt else "")
            comm = WebsocketCommunicator(application, path, headers=headers)
            assert (await comm.connect(timeout=TIMEOUT))[0]
            comms.append(comm)
            await receive_all(comm, messages)

    def play_some():
        for _ in range(12):
            row.refresh_from_db()
            if not row.is_active:
                break
            services.bot_move(row.pk, row.version, force=True)
        row.refresh_from_db()
        return client.post(f"/play/g/{row.public_id}/choice/", {"seq": row.version, "decision": "nope"})

    refused = await database_sync_to_async(play_some)()
    assert_no_secret(refused.content.decode(), row.secret_seed, "a refused HTTP choice")
    await asyncio.sleep(0.2)
    for comm in comms:
        await receive_all(comm, messages)
        await comm.disconnect()
    assert len(messages) > 8
    for text in messages:
        assert_no_secret(text, row.secret_seed, "a socket message")

    def finish():
        for _ in range(20_000):
            row.refresh_from_db()
            if not row.is_active:
                break
            services.bot_move(row.pk, row.version, force=True)
        row.refresh_from_db()
        return client.get(f"/play/g/{row.public_id}/replay/").content.decode()

    replay_page = await database_sync_to_async(finish)()
    assert row.is_finished
    assert row.secret_seed in replay_page and "generator version 2" in replay_page


def test_the_admin_lists_games_without_their_secret():
    """The secret is in no admin page: the admin lists games (issue 28) but names neither seed
    anywhere (columns, fields, search, filters), lists no choices and no seat tokens; the pages
    themselves are checked in test_play_admin.py."""
    from smashup.play.admin import SeatInline
    from smashup.play.models import Choice, Seat

    game_admin = admin.site._registry[Game]
    named = [
        *game_admin.list_display,
        *game_admin.fields,
        *game_admin.readonly_fields,
        *game_admin.search_fields,
        *[f for f in game_admin.list_filter if isinstance(f, str)],
    ]
    assert not {"secret_seed", "seed", "draft", "state_hash", "config"} & set(named), named
    assert not admin.site.is_registered(Choice) and not admin.site.is_registered(Seat)
    assert "token" not in SeatInline.fields and "factions" not in SeatInline.fields
    assert Game._meta.get_field("secret_seed").editable is False


# ---------------------------------------------------------------------------------- old games ----
def insert_fixture_game() -> Game:
    """The finished game of the fixture, stored as live play stored it before the keyed generator."""
    row = Game.objects.create(
        code="OLDRNG", config=FIXTURE["config"], rng_version=1, seed=FIXTURE["seed"], secret_seed="",
        resolution=2, status=Game.Status.FINISHED, version=FIXTURE["version"],
        state_hash=FIXTURE["state_hash"], winner=FIXTURE["winner"],
    )
    Choice.objects.bulk_create(
        Choice(game=row, seq=seq, seat=seat, decision=decision, options=options, state_hash=h, by_bot=by_bot)
        for seq, seat, decision, options, h, by_bot in FIXTURE["choices"]
    )
    return row


@pytest.mark.django_db
def test_a_game_stored_before_the_keyed_generator_rebuilds_and_replays_as_played(client):
    row = insert_fixture_game()
    services.cache.clear()
    game = services.rebuild(row)  # every stored state hash checked
    assert type(game.rng) is random.Random and game.rng_version == 1 and game.seed == FIXTURE["seed"]
    assert game.digest() == FIXTURE["state_hash"] and game.winner == FIXTURE["winner"]
    assert "rng" not in game.record()
    page = client.get(f"/play/g/{row.public_id}/replay/", {"step": 100, "as": 1})
    assert page.status_code == 200 and "Choice 100:" in page.content.decode()
    assert f"<code>{FIXTURE['seed']}</code> (generator version 1)" in client.get(
        f"/play/g/{row.public_id}/replay/"
    ).content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_stored_games_on_version_1():
    executor = MigrationExecutor(connection)
    before, after = [("play", "0005_seat_taken")], [("play", "0006_game_secret_seed")]
    executor.migrate(before)
    try:
        old_game = executor.loader.project_state(before).apps.get_model("play", "Game")
        old = old_game.objects.create(public_id="old-rng-row", code="OLD123", config=FIXTURE["config"],
                                      seed=FIXTURE["seed"])
        executor = MigrationExecutor(connection)
        executor.migrate(after)
        new_game_model = executor.loader.project_state(after).apps.get_model("play", "Game")
        migrated = new_game_model.objects.get(pk=old.pk)
        assert (migrated.rng_version, migrated.seed, migrated.secret_seed) == (1, FIXTURE["seed"], "")
        fresh = new_game_model.objects.create(public_id="new-rng-row", code="NEW123", config={})
        assert fresh.rng_version == 2 and len(fresh.secret_seed) == 64 and fresh.seed is None
    finally:
        MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
