"""The hint button's plumbing (issue 25): asked over the socket, counted per seat, refused clearly
(nothing sent) off a casual table or for a decision that is not open, computed by a task on the bots'
queue from the seat's own view, kept for the seat and shown to that seat's connections only; a hint
for a decision answered meanwhile is dropped."""

from __future__ import annotations

import json
import time

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.test import Client

from smashup.botregistry import BOTS
from smashup.core import queues
from smashup.engine import expert
from smashup.play import hints, services, tasks
from smashup.play.models import Game

from .play_helpers import eager_bots, seated_client, snapshot, two_person_game
from .test_play_consumer import TIMEOUT, connect, link_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def asked(monkeypatch):
    """The hint tasks sent (none reaches a broker)."""
    sent = []
    monkeypatch.setattr(hints, "_send", lambda *args: sent.append(args))
    return sent


def casual(seed: int = 7, hints_on: bool = True) -> Game:
    return two_person_game(seed=seed, hints=hints_on)


def test_a_seat_asks_for_a_hint_on_its_open_decision_and_the_task_goes_to_the_bots_queue(asked):
    game = casual()
    seat = game.pending_seat
    assert hints.request(game.pk, seat, game.version, game.pending_decision) == game.version
    assert asked == [(game.pk, seat, game.version, game.undos)]
    assert tasks.hint.name == hints.HINT_TASK and queues.queue("bots")  # sent there (`hints._send`)


@pytest.mark.parametrize(
    ("who", "seq", "decision", "code"),
    [
        ("spectator", 0, None, "spectator"),
        ("other", 0, None, "stale"),
        ("seat", 1, None, "stale"),
        ("seat", 0, "d999", "stale"),
        ("seat", "x", None, "bad_request"),
        ("seat", 0, "", "bad_request"),
    ],
)
def test_a_hint_asked_wrongly_is_refused_and_sends_nothing(asked, who, seq, decision, code):
    game = casual()
    seat = {"spectator": None, "other": 1 - game.pending_seat, "seat": game.pending_seat}[who]
    before = snapshot(game)
    with pytest.raises(services.PlayError) as refused:
        hints.request(game.pk, seat, seq, game.pending_decision if decision is None else decision)
    assert refused.value.code == code and asked == [] and snapshot(game) == before


def test_no_hint_at_a_table_without_hints_such_as_a_tournaments(asked):
    game = casual(hints_on=False)
    with pytest.raises(services.PlayError) as refused:
        hints.request(game.pk, game.pending_seat, game.version, game.pending_decision)
    assert refused.value.code == "no_hints" and asked == []
    page = seated_client(game, game.pending_seat).get(f"/play/g/{game.public_id}/").content.decode()
    assert 'id="hint-button"' not in page


def test_the_hint_button_is_on_a_seat_holders_page_only():
    game = casual()
    seated = seated_client(game, 0).get(f"/play/g/{game.public_id}/").content.decode()
    assert 'id="hint-button"' in seated and 'id="hint"' in seated
    watching = Client().get(f"/play/g/{game.public_id}/").content.decode()
    assert 'id="hint-button"' not in watching


def test_hints_are_counted_per_seat(asked, settings):
    settings.RATE_LIMITS = {"hint_seat": (3, 60.0)}
    game = casual()
    seat = game.pending_seat
    for _ in range(3):
        hints.request(game.pk, seat, game.version, game.pending_decision)
    with pytest.raises(services.PlayError) as refused:
        hints.request(game.pk, seat, game.version, game.pending_decision)
    assert refused.value.code == "rate_limited" and "3 hints in 60 seconds" in refused.value.message
    assert len(asked) == 3


def test_the_task_keeps_the_hint_for_the_seat_and_pings_the_game(monkeypatch):
    pinged = []
    monkeypatch.setattr(hints, "_ping", lambda *args: pinged.append(args))
    game = casual()
    seat = game.pending_seat
    hint = tasks.hint(game.pk, seat, game.version, game.undos)
    assert hint is True and pinged == [(game.pk, game.version, game.undos)]
    kept = hints.stored(game.pk, seat, game.undos, game.version)
    with services.engine_game(game) as engine:
        ids = {o.id for o in engine.pending.options}
    assert kept["decision"] == game.pending_decision and set(kept["options"]) <= ids and kept["why"]
    assert hints.stored(game.pk, 1 - seat, game.undos, game.version) is None  # the other seat's: none


def test_a_hint_for_a_decision_answered_before_or_while_it_was_computed_is_dropped(monkeypatch):
    pinged = []
    monkeypatch.setattr(hints, "_ping", lambda *args: pinged.append(args))
    game = casual()
    seat, seq, undos = game.pending_seat, game.version, game.undos
    real = hints.hint_for

    def answered_meanwhile(engine, asking, *thinking):
        found = real(engine, asking, *thinking)
        services.call_time(game.pk)  # the round's clock, while the hint was being computed
        return found

    monkeypatch.setattr(hints, "hint_for", answered_meanwhile)
    assert tasks.hint(game.pk, seat, seq, undos) is False
    assert hints.stored(game.pk, seat, undos, seq) is None and pinged == []
    monkeypatch.setattr(hints, "hint_for", real)
    assert tasks.hint(game.pk, seat, seq, undos) is False  # asked for a version that is gone
    assert pinged == [] and cache.get(hints.key(game.pk, seat, undos, seq)) is None


def test_the_experts_hint_stops_thinking_when_the_decision_is_answered_meanwhile(monkeypatch):
    """The expert's search for a hint asks the row, as a bot's does (`bots.cancel_check`): a decision
    answered while it thinks drops the search at once, not at the end of the table's thinking time."""
    if hints.EXPERT not in BOTS:
        pytest.skip("the engine cannot re-deal a game yet (Game.determinize): no expert bot")
    pinged = []
    monkeypatch.setattr(hints, "_ping", lambda *args: pinged.append(args))
    game = casual()
    Game.objects.filter(pk=game.pk).update(
        config={**game.config, "table": {**game.config["table"], "think": 5.0}}
    )
    game.refresh_from_db()
    seat, seq, undos = game.pending_seat, game.version, game.undos
    real = expert.determinized
    dealt = []

    def answered_at_once(engine, asking, rng):
        if not dealt:
            services.call_time(game.pk)  # the round's clock, as the search begins
        dealt.append(asking)
        return real(engine, asking, rng)

    monkeypatch.setattr(expert, "determinized", answered_at_once)
    started = time.monotonic()
    assert tasks.hint(game.pk, seat, seq, undos) is False
    assert time.monotonic() - started < 4.0 and dealt
    assert hints.stored(game.pk, seat, undos, seq) is None and pinged == []


@pytest.mark.asyncio
async def test_the_hint_reaches_the_asking_seats_connections_and_no_one_elses():
    game = await database_sync_to_async(casual)()
    seat = game.pending_seat
    mine = await connect(game, token=await link_for(game, seat), fmt="json")
    also_mine = await connect(game, token=await link_for(game, seat))  # the seat's other device, HTML
    theirs = await connect(game, token=await link_for(game, 1 - seat), fmt="json")
    spectator = await connect(game, fmt="json")
    for comm in (mine, also_mine, theirs, spectator):
        await comm.receive_from(timeout=TIMEOUT)  # the state
    ask = {"type": "hint", "seq": game.version, "decision": game.pending_decision}
    await spectator.send_to(text_data=json.dumps(ask))
    assert json.loads(await spectator.receive_from(timeout=TIMEOUT))["code"] == "spectator"
    with eager_bots():  # the hint task runs inline, as a worker would
        await mine.send_to(text_data=json.dumps(ask))
        replies = [json.loads(await mine.receive_from(timeout=TIMEOUT)) for _ in range(2)]
    assert replies[0] == {"type": "hint", "state": "asked", "version": game.version}
    ready = replies[1]
    assert (
        ready["type"] == "hint" and ready["state"] == "ready" and ready["decision"] == game.pending_decision
    )
    assert ready["options"] and ready["labels"] and ready["why"]
    html = await also_mine.receive_from(timeout=TIMEOUT)
    assert 'id="hint"' in html and 'data-state="ready"' in html and 'hx-swap-oob="true"' in html
    assert await theirs.receive_nothing(timeout=0.5) and await spectator.receive_nothing(timeout=0.2)
    for comm in (mine, also_mine, theirs, spectator):
        await comm.disconnect()
