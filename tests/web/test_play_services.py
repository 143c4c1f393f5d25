"""Live-play services on the real PostgreSQL (and Redis for the channel layer and Celery)."""

from __future__ import annotations

import asyncio
import random
import threading
import time
import uuid

import pytest
from celery.contrib.testing.worker import start_worker
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.db import connection, transaction

from smashup.celery import app as celery_app
from smashup.engine import replay
from smashup.engine.bots import heuristic_choice
from smashup.play import services
from smashup.play.models import Choice, Game, Seat

from .play_helpers import eager_bots, person_vs_bot, snapshot, two_person_game


def first_option(game: Game) -> tuple[int, str, list[str]]:
    with services.engine_game(game) as engine:
        d = engine.pending
        return d.seat, d.id, [o.id for o in d.options[: max(d.min_count, 1)]]


# ---------------------------------------------------------------------------------- creating -----
@pytest.mark.django_db
def test_create_game_makes_a_lobby_with_seats_and_random_factions():
    game = services.create_game(
        [services.SeatSpec("person", ["Aliens", None]), services.SeatSpec("person", [None, None])], seed=3
    )
    assert game.status == Game.Status.LOBBY and game.version == 0
    assert len(game.code) == 6 and game.public_id
    seats = list(game.seats.order_by("index"))
    assert [s.index for s in seats] == [0, 1]
    assert seats[0].factions[0] == "Aliens" and seats[0].factions[1] != "Aliens"
    for seat in seats:
        assert len(set(seat.factions)) == 2
        assert not seat.claimed and seat.token
    assert game.config["players"][0]["factions"] == seats[0].factions
    # Same seed, same draw.
    again = services.create_game(
        [services.SeatSpec("person", ["Aliens", None]), services.SeatSpec("person", [None, None])], seed=3
    )
    assert [s.factions for s in again.seats.order_by("index")] == [s.factions for s in seats]
    assert again.code != game.code


@pytest.mark.django_db
@pytest.mark.parametrize(
    "seats, kwargs, message",
    [
        ([services.SeatSpec("person")], {}, "2 to 4 seats"),
        ([services.SeatSpec("person")] * 5, {}, "2 to 4 seats"),
        ([services.SeatSpec("person", ["Aliens", "Aliens"]), services.SeatSpec("bot")], {}, "twice"),
        ([services.SeatSpec("person", ["Vikings", None]), services.SeatSpec("bot")], {}, "no faction"),
        ([services.SeatSpec("robot"), services.SeatSpec("bot")], {}, "person or a bot"),
        ([services.SeatSpec("person"), services.SeatSpec("bot")], {"specials": "sometimes"}, "Specials"),
        ([services.SeatSpec("person"), services.SeatSpec("bot")], {"base_sets": "mine"}, "Bases"),
    ],
)
def test_create_game_refuses_bad_tables(seats, kwargs, message):
    with pytest.raises(services.PlayError, match=message) as info:
        services.create_game(seats, **kwargs)
    assert info.value.code == "config"
    assert Game.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_an_all_bot_table_starts_at_once_and_bots_play_it_to_the_end():
    with eager_bots():
        game = services.create_game([services.SeatSpec("bot"), services.SeatSpec("bot")], seed=11)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winner is not None and game.finished_at is not None
    choices = list(game.choices.order_by("seq"))
    assert [c.seq for c in choices] == list(range(game.version)) and game.version > 20
    assert all(c.by_bot for c in choices)
    # The stored record replays to the same final state, hash by hash.
    engine = replay(
        {
            **game.record_head(),
            "choices": [c.as_record() for c in choices],
            "hashes": [c.state_hash for c in choices],
        }
    )
    assert engine.over and engine.winner == game.winner and engine.digest() == game.state_hash


# ---------------------------------------------------------------------------------- seats --------
@pytest.mark.django_db
def test_claiming_seats_and_the_last_claim_starts_the_game():
    ada = get_user_model().objects.create_user("ada", password="x")
    game = services.create_game(
        [
            services.SeatSpec("person", ["Aliens", "Ninjas"]),
            services.SeatSpec("person", ["Pirates", "Robots"]),
        ],
        seed=5,
        created_by=ada,
    )
    seat = services.claim_seat(game.pk, 0, user=ada)
    assert seat.claimed and seat.user == ada
    assert services.claim_seat(game.pk, 0, user=ada) == seat  # the same user again: fine
    game.refresh_from_db()
    assert game.status == Game.Status.LOBBY
    with pytest.raises(services.SeatError, match="already taken by ada"):
        services.claim_seat(game.pk, 0, guest_name="Eve")
    with pytest.raises(services.SeatError, match="Enter a name"):
        services.claim_seat(game.pk, 1, guest_name="   ")
    with pytest.raises(services.SeatError, match="no seat 3"):
        services.claim_seat(game.pk, 2, guest_name="Eve")
    services.claim_seat(game.pk, 1, guest_name="  Bob   the  Builder ")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.started_at is not None
    assert [p["name"] for p in game.config["players"]] == ["ada", "Bob the Builder"]
    assert game.pending_seat in (0, 1) and game.pending_decision and game.state_hash
    with pytest.raises(services.SeatError):
        services.claim_seat(game.pk, 1, guest_name="Eve")


@pytest.mark.django_db
def test_start_now_gives_free_seats_to_bots():
    game = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=5)
    services.claim_seat(game.pk, 0, guest_name="Ada")
    services.start_game(game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    seat = game.seats.get(index=1)
    assert seat.is_bot and game.config["players"][1]["bot"] == "heuristic"
    assert game.config["players"][0]["bot"] is None
    with pytest.raises(services.PlayError, match="already started"):
        services.start_game(game.pk)


@pytest.mark.django_db
def test_seat_links_are_signed_and_revocable():
    game = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=5)
    seat = game.seats.get(index=1)
    link = services.seat_link_token(seat)
    assert services.seat_from_link(link) == seat  # a free seat: the link offers it
    with pytest.raises(services.BadSeatLink, match="not valid"):
        services.seat_from_link(link[:-2] + ("AA" if not link.endswith("AA") else "BB"))
    with pytest.raises(services.BadSeatLink):
        services.seat_from_link("garbage")
    other = two_person_game(seed=8)
    with pytest.raises(services.BadSeatLink, match="another game"):
        services.seat_from_link(link, other.public_id)
    Seat.objects.filter(pk=seat.pk).update(token="new-token")
    with pytest.raises(services.BadSeatLink, match="no longer valid"):
        services.seat_from_link(link)


@pytest.mark.django_db
def test_taking_a_seat_ends_its_link_and_gives_the_taker_their_own():
    """The table's creator kept every seat's link: once a seat is taken, its link seats nobody (a
    new token), and only the taker's own resume link (and session, or account) opens it."""
    game = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=5)
    offered = game.seats.get(index=1)
    link, old_token = services.seat_link_token(offered), offered.token
    with pytest.raises(services.BadSeatLink, match="offers a seat"):  # it never plays on a socket
        services.resolve_seat(game, link=link)
    bob = services.claim_seat(game.pk, 1, guest_name="Bob", link_token=offered.token)
    assert bob.taken and bob.token != old_token
    for seat_link in (link, services.seat_link_token(bob)):  # even one signed with the new token
        with pytest.raises(services.BadSeatLink, match="taken this seat"):
            services.seat_from_link(seat_link)
    with pytest.raises(services.BadSeatLink, match="taken this seat"):
        services.claim_seat(game.pk, 1, guest_name="Eve", link_token=old_token)
    # Bob's own link: a resume link for his seat, which is refused as a seat link and vice versa.
    resume = services.resume_link_token(bob)
    assert services.seat_from_resume_link(resume) == bob
    assert services.resolve_seat(game, link=resume) == 1
    with pytest.raises(services.BadSeatLink, match="not valid"):
        services.seat_from_link(resume)
    with pytest.raises(services.BadSeatLink, match="not valid"):
        services.seat_from_resume_link(link)
    # A free seat has no resume link that works.
    with pytest.raises(services.BadSeatLink, match="no longer valid"):
        services.seat_from_resume_link(services.resume_link_token(game.seats.get(index=0)))
    # A session that remembered the seat before it was taken holds nothing now.
    stale = {game.public_id: {"1": old_token}}
    assert services.held_seats(game, session_seats=stale) == []
    session = {}
    services.remember_seat(session, bob)
    assert services.held_seats(game, session_seats=session["play_seats"]) == [1]
    # Sitting down from the table page (no link) ends the link too.
    ada_link = services.seat_link_token(game.seats.get(index=0))
    services.claim_seat(game.pk, 0, guest_name="Ada")
    with pytest.raises(services.BadSeatLink, match="taken this seat"):
        services.seat_from_link(ada_link)


@pytest.mark.django_db
def test_a_seat_reserved_for_a_named_guest_is_taken_once_by_its_link():
    """A tournament table: every seat reserved from the start; a guest's seat link is taken by the
    first who confirms it, then dead; an account's seat has no working link at all."""
    ada = get_user_model().objects.create_user("ada-account", password="x")
    game = services.create_game(
        [services.SeatSpec("person", name="Dora"), services.SeatSpec("person", name="Ada", user=ada)],
        seed=5,
    )
    game.refresh_from_db()
    assert game.is_active
    dora, adas = game.seats.get(index=0), game.seats.get(index=1)
    assert dora.claimed and not dora.taken and adas.taken
    with pytest.raises(services.BadSeatLink, match="taken this seat"):
        services.seat_from_link(services.seat_link_token(adas))
    link = services.seat_link_token(dora)
    assert services.seat_from_link(link) == dora
    taken = services.claim_seat(game.pk, 0, link_token=dora.token)
    assert taken.taken and taken.token != dora.token and taken.guest_name == "Dora"
    with pytest.raises(services.BadSeatLink, match="taken this seat"):
        services.seat_from_link(link)
    with pytest.raises(services.BadSeatLink, match="taken this seat"):
        services.claim_seat(game.pk, 0, link_token=dora.token)
    assert services.resolve_seat(game, link=services.resume_link_token(taken)) == 0


@pytest.mark.django_db
def test_a_seat_link_never_plays_a_bot_seat():
    """A link handed out for a person seat that the creator then gave to a bot (start now) stops
    working, and a link signed for a bot seat never worked."""
    game = services.create_game(
        [services.SeatSpec("person"), services.SeatSpec("person"), services.SeatSpec("bot")], seed=5
    )
    services.claim_seat(game.pk, 0, guest_name="Ada")
    free = game.seats.get(index=1)
    old_link, old_token = services.seat_link_token(free), free.token
    assert services.seat_from_link(old_link) == free  # still a person's seat: it offers it
    services.start_game(game.pk)
    game.refresh_from_db()
    free.refresh_from_db()
    assert free.is_bot and free.token != old_token  # the converted seat has a new secret
    for link in (old_link, services.seat_link_token(free), services.seat_link_token(game.seats.get(index=2))):
        with pytest.raises(services.BadSeatLink):
            services.seat_from_link(link)
    for seat in (free, game.seats.get(index=2)):
        with pytest.raises(services.BadSeatLink, match="played by a bot"):
            services.resolve_seat(game, link=services.resume_link_token(seat))
    # Even a link that carries the bot seat's current secret is refused as a bot's.
    with pytest.raises(services.BadSeatLink, match="played by a bot"):
        services.seat_from_link(services.seat_link_token(free))
    # The person seat's own link still works.
    assert services.resolve_seat(game, link=services.resume_link_token(game.seats.get(index=0))) == 0


@pytest.mark.django_db
def test_resolve_seat_from_user_and_session():
    ada = get_user_model().objects.create_user("ada", password="x")
    game = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=5)
    services.claim_seat(game.pk, 1, user=ada)
    bob = services.claim_seat(game.pk, 0, guest_name="Bob")
    game.refresh_from_db()
    assert services.resolve_seat(game, user=ada) == 1
    session = {}
    services.remember_seat(session, bob)
    assert services.resolve_seat(game, session_seats=session["play_seats"]) == 0
    assert services.resolve_seat(game, user=ada, session_seats=session["play_seats"]) == 0
    assert services.resolve_seat(game, user=ada, session_seats=session["play_seats"], wanted=1) == 1
    forged = {game.public_id: {"1": "guess"}}
    assert services.resolve_seat(game, session_seats=forged) is None  # a spectator
    assert services.resolve_seat(game) is None


# ---------------------------------------------------------------------------------- choices ------
@pytest.mark.django_db
def test_submit_choice_appends_and_bumps_the_version(django_capture_on_commit_callbacks):
    game = two_person_game()
    seat, decision, options = first_option(game)
    with django_capture_on_commit_callbacks(execute=True):
        outcome = services.submit_choice(game.pk, seat, 0, decision, options)
    game.refresh_from_db()
    assert outcome.version == game.version == 1
    choice = Choice.objects.get(game=game)
    assert (choice.seq, choice.seat, choice.decision, choice.options) == (0, seat, decision, options)
    assert not choice.by_bot
    assert choice.state_hash == game.state_hash
    # The record is the truth: a rebuild from it gives the same state.
    services.cache.clear()
    with services.engine_game(game) as engine:
        assert engine.digest() == game.state_hash and len(engine.choices) == 1
        assert engine.pending.id == game.pending_decision
    with pytest.raises(ValueError, match="append-only"):
        choice.save()


@pytest.mark.django_db
def test_htmx_form_values_are_accepted():
    game = two_person_game()
    seat, decision, options = first_option(game)
    # Form values arrive as strings, a single option as a string.
    services.submit_choice(game.pk, seat, "0", decision, options[0])
    game.refresh_from_db()
    assert game.version == 1


@pytest.mark.django_db
def test_refused_choices_change_nothing():
    game = two_person_game()
    seat, decision, options = first_option(game)
    other = 1 - seat
    before = snapshot(game)
    cases = [
        (dict(seat=seat, seq=1, decision=decision, options=options), services.StaleChoice, "moved on"),
        (
            dict(seat=seat, seq=0, decision="d999", options=options),
            services.StaleChoice,
            "already been answered",
        ),
        (dict(seat=other, seq=0, decision=decision, options=options), services.NotYourDecision, "not yours"),
        (dict(seat=None, seq=0, decision=decision, options=options), services.SpectatorChoice, "Spectators"),
        (dict(seat=seat, seq=0, decision=decision, options=["nope"]), services.IllegalMove, "not allowed"),
        (dict(seat=seat, seq=0, decision=decision, options=[]), services.IllegalMove, "not allowed"),
        (dict(seat=seat, seq=0, decision=decision, options=options * 2), services.IllegalMove, "twice"),
        (dict(seat=seat, seq="x", decision=decision, options=options), services.BadRequest, "seq"),
        (dict(seat=seat, seq=True, decision=decision, options=options), services.BadRequest, "seq"),
        (dict(seat=seat, seq=-1, decision=decision, options=options), services.BadRequest, "seq"),
        (dict(seat=seat, seq=0, decision=None, options=options), services.BadRequest, "decision"),
        (dict(seat=seat, seq=0, decision=decision, options=[1]), services.BadRequest, "options"),
        (dict(seat=seat, seq=0, decision=decision, options={"a": 1}), services.BadRequest, "options"),
        (dict(seat="0", seq=0, decision=decision, options=options), services.BadRequest, "seat"),
    ]
    for kwargs, error, message in cases:
        with pytest.raises(error, match=message):
            services.submit_choice(
                game.pk, kwargs["seat"], kwargs["seq"], kwargs["decision"], kwargs["options"]
            )
        assert snapshot(game) == before, kwargs
    with pytest.raises(services.GameNotFound):
        services.submit_choice(10**9, seat, 0, decision, options)
    # And the right choice still lands afterwards (the cached engine game was not spoiled).
    services.submit_choice(game.pk, seat, 0, decision, options)
    assert snapshot(game)[0] == 1


@pytest.mark.django_db
def test_choices_in_the_lobby_and_after_the_end_are_refused():
    lobby = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=5)
    with pytest.raises(services.NotStarted):
        services.submit_choice(lobby.pk, 0, 0, "d1", ["end"])
    game = two_person_game()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(services.GameOver):
        services.submit_choice(game.pk, game.pending_seat, 0, game.pending_decision, ["end"])


@pytest.mark.django_db
def test_a_record_that_drifted_is_reported_not_shown():
    game = two_person_game()
    seat, decision, options = first_option(game)
    services.submit_choice(game.pk, seat, 0, decision, options)
    game.refresh_from_db()
    Choice.objects.filter(game=game).update(state_hash="0" * 32)
    services.cache.clear()
    with pytest.raises(services.GameBroken, match="does not replay"):
        with services.engine_game(game):
            pass


def test_game_cache_hands_out_each_game_once_and_keeps_the_newest():
    cache = services.GameCache(size=2)
    cache.put(1, 3, "g3")
    assert cache.take(1, 2) is None  # stale version: a miss
    assert cache.take(1, 3) == "g3"
    assert cache.take(1, 3) is None  # taken: nobody else gets the same object
    cache.put(1, 4, "g4")
    cache.put(1, 3, "old")  # never replaces a newer version
    assert cache.take(1, 4) == "g4"
    for pk in (1, 2, 3):
        cache.put(pk, 0, pk)
    assert cache.take(1, 0) is None and cache.take(3, 0) == 3  # least recently used went first


def play_first_options(game: Game, count: int) -> None:
    for _ in range(count):
        game.refresh_from_db()
        seat, decision, options = first_option(game)
        services.submit_choice(game.pk, seat, game.version, decision, options)
    game.refresh_from_db()


@pytest.mark.django_db
def test_a_process_whose_game_is_behind_applies_only_the_choices_it_lacks():
    """Another server process applied the last choices: this one catches its cached game up from
    the stored choices (hash-checked) instead of replaying the whole record."""
    game = two_person_game()
    play_first_options(game, 2)
    behind = services.rebuild(game)  # this process's copy at version 2
    play_first_options(game, 3)  # ...while "another process" plays three more
    services.cache.clear()
    services.cache.put(game.pk, (0, 2), behind)
    caught_up = services.cache.catch_ups
    with services.engine_game(game) as engine:
        assert engine is behind  # the same object, brought forward
        assert len(engine.choices) == game.version == 5
        assert engine.digest() == game.state_hash
        assert engine.pending.id == game.pending_decision
    assert services.cache.catch_ups == caught_up + 1


@pytest.mark.django_db
def test_a_cached_game_that_cannot_be_caught_up_safely_is_rebuilt_from_the_record():
    game = two_person_game()
    play_first_options(game, 1)
    behind = services.rebuild(game)
    play_first_options(game, 2)
    caught_up = services.cache.catch_ups
    # A choice taken back since (the number of undos moved on): the record below changed.
    services.cache.clear()
    services.cache.put(game.pk, (0, 1), behind)
    Game.objects.filter(pk=game.pk).update(undos=1)
    game.refresh_from_db()
    with services.engine_game(game) as engine:
        assert engine is not behind and engine.digest() == game.state_hash
    # A stored hash that does not match what the choice gives: refused, and the rebuild says so.
    Game.objects.filter(pk=game.pk).update(undos=0)
    game.refresh_from_db()
    services.cache.clear()
    services.cache.put(game.pk, (0, 1), services.rebuild(game, version=1))
    Choice.objects.filter(game=game, seq=2).update(state_hash="0" * 32)
    with pytest.raises(services.GameBroken):
        with services.engine_game(game):
            pass
    assert services.cache.catch_ups == caught_up


def test_game_cache_takes_an_older_entry_only():
    cache = services.GameCache(size=2)
    cache.put(1, (0, 3), "g3")
    assert cache.take_older(1, (0, 3)) is None  # not older
    assert cache.take_older(1, (0, 2)) is None  # newer than the row: it stays
    assert cache.take_older(1, (0, 5)) == ((0, 3), "g3")
    assert cache.take(1, (0, 3)) is None  # taken


@pytest.mark.django_db
def test_the_written_lock_query_reads_the_row_exactly_as_the_orm_does(monkeypatch):
    game = two_person_game(seed=12, turn_seconds=45)
    Game.objects.filter(pk=game.pk).update(draft={"picks": [[0, "Aliens"]]})
    with transaction.atomic():
        raw = services._lock(game.pk)
        with monkeypatch.context() as patch:
            patch.setattr(connection, "vendor", "sqlite")
            orm = services._lock(game.pk)
    for field in Game._meta.concrete_fields:
        assert getattr(raw, field.attname) == getattr(orm, field.attname), field.name
    assert isinstance(raw.config, dict) and raw.draft == {"picks": [[0, "Aliens"]]}
    assert not raw._state.adding and raw._state.db == "default"
    with pytest.raises(services.GameNotFound):
        services._lock(game.pk + 10_000)


@pytest.mark.django_db
def test_a_choice_is_stored_in_one_statement_and_exactly_as_the_orm_would(monkeypatch):
    """On PostgreSQL the choice row and the game row are written by one statement; on another
    database (SQLite, the embedded default) by the ORM. Both store the same thing."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    stored = {}
    for path in ("postgresql", "orm"):
        game = two_person_game(seed=11)
        seat, decision, options = first_option(game)
        with monkeypatch.context() as patch:
            if path == "orm":
                patch.setattr(connection, "vendor", "sqlite")
            with CaptureQueriesContext(connection) as queries:
                services.submit_choice(game.pk, seat, 0, decision, options)
        writes = [
            q["sql"]
            for q in queries
            if not q["sql"].lstrip().upper().startswith(("SELECT", "SAVEPOINT", "RELEASE"))
        ]
        assert len(writes) == (1 if path == "postgresql" else 2), writes
        choice = Choice.objects.filter(game=game).values().get()
        row = Game.objects.filter(pk=game.pk).values(*services.CHOICE_FIELDS).get()
        assert row.pop("updated_at") >= choice.pop("created_at")
        for key in ("id", "game_id"):
            choice.pop(key)
        stored[path] = (choice, row)
    assert stored["postgresql"] == stored["orm"]
    assert stored["orm"][0]["options"] == options and stored["orm"][1]["version"] == 1


# ---------------------------------------------------------------------------------- after commit -
# The Pub/Sub layer unsubscribes a channel whose receive() is cancelled, so these tests keep one
# receive task running and look at whether it is done, rather than waiting with a timeout.


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_group_hears_of_a_choice_only_after_the_commit(redis_url):
    game = await database_sync_to_async(two_person_game)()
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(services.group_name(game.pk), channel)
    seat, decision, options = await database_sync_to_async(first_option)(game)
    heard = asyncio.ensure_future(layer.receive(channel))

    def choose_and_look_before_commit():
        with transaction.atomic():
            services.submit_choice(game.pk, seat, 0, decision, options)
            time.sleep(0.5)  # time enough for a premature ping to arrive
            return heard.done()

    assert await database_sync_to_async(choose_and_look_before_commit)() is False
    message = await asyncio.wait_for(asyncio.shield(heard), 5)
    row = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    # Only public facts of the row travel with the ping (the connections render their own views).
    assert message == {
        "type": "game.changed",
        "version": 1,
        "status": "active",
        "row": {
            "version": 1,
            "undos": 0,
            "status": "active",
            "pending_seat": row.pending_seat,
            "pending_decision": row.pending_decision,
            "winner": None,
            "deadline": None,
            "deadline_seq": None,
            "undo_seat": row.undo_seat,
        },
    }
    # A refused choice tells nobody.
    heard = asyncio.ensure_future(layer.receive(channel))
    with pytest.raises(services.StaleChoice):
        await database_sync_to_async(services.submit_choice)(game.pk, seat, 0, decision, options)
    done, _ = await asyncio.wait({heard}, timeout=0.5)
    assert not done
    heard.cancel()
    await layer.group_discard(services.group_name(game.pk), channel)


def _race(game_pk, seat, seq, decision, options) -> list:
    """Submit one choice per option from as many threads, released at the same moment."""
    barrier = threading.Barrier(len(options))
    results: list = []

    def submit(option):
        try:
            barrier.wait(5)
            results.append(services.submit_choice(game_pk, seat, seq, decision, [option]))
        except services.PlayError as exc:
            results.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(o,)) for o in options]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    return results


@pytest.mark.django_db(transaction=True)
def test_two_choices_at_the_same_moment_exactly_one_lands():
    game = two_person_game()
    rounds = 0
    while rounds < 4:
        with services.engine_game(game) as engine:
            seat, decision = engine.pending.seat, engine.pending.id
            options = [o.id for o in engine.pending.options if engine.pending.min_count <= 1][:3]
        seq = game.version
        if len(options) < 2:
            services.submit_choice(game.pk, seat, seq, decision, options[:1] or [])
            game.refresh_from_db()
            continue
        results = _race(game.pk, seat, seq, decision, options)
        landed = [r for r in results if isinstance(r, services.Outcome)]
        refused = [r for r in results if isinstance(r, services.PlayError)]
        assert len(landed) == 1 and len(refused) == len(options) - 1, results
        assert all(r.code == "stale" for r in refused), [r.message for r in refused]
        game.refresh_from_db()
        assert game.version == seq + 1 and game.choices.count() == game.version
        rounds += 1


# ---------------------------------------------------------------------------------- bots ---------
@pytest.mark.django_db(transaction=True)
def test_bot_moves_are_idempotent_and_answer_only_bot_decisions():
    game = person_vs_bot(seed=2)  # without a worker, the bot task waits in the queue
    game.refresh_from_db()
    # Play the person's decisions until the bot must decide.
    rng = random.Random(0)
    while game.pending_seat == 0:
        with services.engine_game(game) as engine:
            ids = heuristic_choice(engine, rng)
        services.submit_choice(game.pk, 0, game.version, game.pending_decision, ids)
        game.refresh_from_db()
    assert services.bot_move(game.pk, game.version + 1) is None  # not at that version
    seq = game.version
    outcome = services.bot_move(game.pk, seq)
    assert outcome is not None and outcome.version == seq + 1
    assert services.bot_move(game.pk, seq) is None  # a duplicate task does nothing
    assert Choice.objects.get(game=game, seq=seq).by_bot
    game.refresh_from_db()
    if game.pending_seat == 0:
        assert services.bot_move(game.pk, game.version) is None  # a person's decision: not the bot's
        # ...unless forced (a turn timer that ran out).
        assert services.bot_move(game.pk, game.version, force=True).version == game.version + 1


@pytest.mark.django_db(transaction=True)
def test_a_person_plays_a_bot_to_the_end_with_the_bot_task_inline():
    with eager_bots():
        game = person_vs_bot(seed=4)
        rng = random.Random(1)
        for _ in range(2000):
            game.refresh_from_db()
            if game.is_finished:
                break
            assert game.pending_seat == 0  # the bot has always answered by now
            with services.engine_game(game) as engine:
                ids = heuristic_choice(engine, rng)
            services.submit_choice(game.pk, 0, game.version, game.pending_decision, ids)
    assert game.is_finished and game.winner is not None
    assert game.choices.filter(by_bot=True).exists() and game.choices.filter(by_bot=False).exists()


@pytest.mark.django_db(transaction=True)
def test_bots_play_through_a_real_celery_worker(redis_url, settings):
    """The production path: each bot move is a Celery task on Redis with a countdown, one per (game, seq)."""
    settings.PLAY_BOT_QUEUE = queue = f"test-play-{uuid.uuid4().hex}"
    settings.PLAY_BOT_DELAY = 0.001
    assert celery_app.conf.task_always_eager is False
    with start_worker(celery_app, perform_ping_check=False, queues=[queue], shutdown_timeout=30, pool="solo"):
        game = services.create_game([services.SeatSpec("bot"), services.SeatSpec("bot")], seed=21)
        for _ in range(2400):  # up to 4 minutes on a busy machine
            game.refresh_from_db()
            if game.is_finished:
                break
            threading.Event().wait(0.1)
    assert game.is_finished, f"stopped at version {game.version}"
    assert game.choices.count() == game.version and game.winner is not None


@pytest.mark.django_db(transaction=True)
def test_kick_bots_reschedules_a_lost_bot_task(monkeypatch):
    game = person_vs_bot(seed=2)
    scheduled = []
    from smashup.play import commits

    monkeypatch.setattr(commits, "schedule_bot", lambda pk, seq, **how: scheduled.append((pk, seq, how)))
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(pending_seat=1)  # pretend the bot decides
    game.refresh_from_db()
    assert services.kick_bots(game) is False  # just changed: its task is surely still on its way
    from django.utils import timezone

    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timezone.timedelta(minutes=1))
    game.refresh_from_db()
    assert services.kick_bots(game) is True
    assert scheduled == [(game.pk, game.version, {"undos": game.undos, "bot_only": False})]


# ---------------------------------------------------------------------------------- each picks ---
def seat_state(game: Game) -> list[tuple]:
    """What a refused pick must leave as it was: each seat and the game's status."""
    game.refresh_from_db()
    seats = [(s.index, s.kind, s.claimed, s.guest_name, list(s.factions), s.token) for s in game.seats.all()]
    return [game.status, game.version, *seats]


def picking_table(seed: int = 5) -> Game:
    return services.create_game(
        [services.SeatSpec("person"), services.SeatSpec("person"), services.SeatSpec("bot")],
        seed=seed,
        player_picks=True,
        base_sets="all",
    )


@pytest.mark.django_db
def test_each_player_picks_their_factions_and_bots_get_random_ones_at_the_start():
    game = picking_table()
    assert game.player_picks and game.is_lobby
    assert [s.factions for s in game.seats.all()] == [[], [], []]  # nobody's yet, the bot's neither
    services.claim_seat(game.pk, 0, guest_name="Ada", factions=["Pirates", "Robots"])
    game.refresh_from_db()
    assert game.is_lobby and game.seats.get(index=0).factions == ["Pirates", "Robots"]
    # Ada changes her mind before the start (her browser session holds the seat).
    session: dict = {}
    services.remember_seat(session, game.seats.get(index=0))
    services.pick_factions(game.pk, 0, ["Aliens", "Ninjas"], session_seats=session["play_seats"])
    assert game.seats.get(index=0).factions == ["Aliens", "Ninjas"]
    # The last seat filled with its factions starts the game; the bot's are drawn then.
    services.claim_seat(game.pk, 1, guest_name="Bob", factions=["Pirates", "Robots"])
    game.refresh_from_db()
    assert game.is_active
    bot = game.seats.get(index=2).factions
    assert len(bot) == 2 and bot[0] != bot[1] and set(bot) <= set(services.factions_available())
    picked = [p["factions"] for p in game.config["players"]]
    assert picked == [["Aliens", "Ninjas"], ["Pirates", "Robots"], bot]
    with pytest.raises(services.FactionError, match="has started"):
        services.pick_factions(game.pk, 0, ["Pirates", "Robots"], session_seats=session["play_seats"])


@pytest.mark.django_db
def test_a_refused_pick_changes_nothing():
    game = picking_table()
    services.claim_seat(game.pk, 0, guest_name="Ada", factions=["Aliens", "Ninjas"])
    ada_session: dict = {}
    services.remember_seat(ada_session, game.seats.get(index=0))
    before = seat_state(game)
    held = ada_session["play_seats"]

    def claim(index, name, factions=None):
        return lambda: services.claim_seat(game.pk, index, guest_name=name, factions=factions)

    def pick(index, factions, seats=held):
        return lambda: services.pick_factions(game.pk, index, factions, session_seats=seats)

    cases = [
        (claim(1, "Bob", ["Aliens", "Aliens"]), "Aliens twice"),
        (claim(1, "Bob", ["Aliens", "Vikings"]), "no faction called 'Vikings'"),
        (claim(1, "Bob", ["Aliens"]), "Pick two"),
        (claim(1, "Bob", ["Aliens", ""]), "Pick two"),
        (claim(1, "Bob", "Aliens"), "Pick two"),
        (claim(1, "Bob"), "Pick your two factions"),
        (claim(1, "", ["Pirates", "Robots"]), "Enter a name"),
        # Each faction is in a game once: Ada holds Aliens and Ninjas. Picks are secret until the
        # start: the refusal says the faction is taken, never by which seat (issue 26).
        (claim(1, "Bob", ["Robots", "Ninjas"]), r"^Ninjas is already taken at this table: each faction"),
        (claim(1, "Bob", ["Aliens", "Ninjas"]), r"^Aliens is already taken at this table: each faction"),
        # Picking for another seat: one already taken, one held by nobody, a bot's.
        (claim(0, "Eve", ["Pirates", "Robots"]), "taken by Ada"),
        (pick(1, ["Pirates", "Robots"]), "your own seat"),
        (pick(0, ["Pirates", "Robots"], seats=None), "your own seat"),
        (pick(2, ["Pirates", "Robots"]), "a bot's"),
        (pick(0, ["Ninjas", "Ninjas"]), "Ninjas twice"),
        (pick(9, ["Pirates", "Robots"]), "no seat 10"),
    ]
    for call, message in cases:
        with pytest.raises(services.PlayError, match=message):
            call()
        assert seat_state(game) == before, message
    # A table whose factions were set with it takes no picks.
    other = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=4)
    fixed = seat_state(other)
    with pytest.raises(services.FactionError, match="set when it was created"):
        services.claim_seat(other.pk, 0, guest_name="Ada", factions=["Aliens", "Ninjas"])
    with pytest.raises(services.FactionError, match="not picked by the players"):
        services.pick_factions(other.pk, 0, ["Aliens", "Ninjas"])
    assert seat_state(other) == fixed


@pytest.mark.django_db
def test_starting_a_picking_table_early_gives_the_free_seats_random_factions():
    game = picking_table()
    services.claim_seat(game.pk, 0, guest_name="Ada", factions=["Aliens", "Ninjas"])
    services.start_game(game.pk)
    game.refresh_from_db()
    assert game.is_active
    for index in (1, 2):
        seat = game.seats.get(index=index)
        assert seat.is_bot and len(set(seat.factions)) == 2


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"draft": True, "player_picks": True}, "not both"),
        ({"player_picks": True, "factions": ["Aliens", None]}, "not set in advance"),
    ],
)
@pytest.mark.django_db
def test_a_picking_table_refuses_a_mixed_setup(kwargs, message):
    factions = kwargs.pop("factions", [None, None])
    with pytest.raises(services.PlayError, match=message):
        services.create_game([services.SeatSpec("person", factions), services.SeatSpec("person")], **kwargs)
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_the_row_keeps_the_order_of_reactions_its_game_was_played_with():
    """A new game plays with the current rules of resolution (engine resolution 3: batches of
    reactions and issue 24's corners) and says so in its record; a game stored before them keeps
    its own (migration play/0007 gives 1, play/0010 leaves 2 to the rows it finds) and replays as
    it was played, so its stored state hashes still match."""
    from smashup.engine.game import RESOLUTION

    game = services.create_game([services.SeatSpec("bot"), services.SeatSpec("bot")], seed=11)
    game.refresh_from_db()
    assert game.resolution == RESOLUTION == 3 and game.record_head()["resolution"] == 3
    with services.engine_game(game) as engine:
        assert engine.resolution == 3
    game.resolution = 1
    assert "resolution" not in game.record_head()
