"""Bots at a pace people can follow, and a search that is cancelled (issue 25).

A bot thinks outside the row lock as soon as its decision opens (`bots.think`); its move is played at
the table's pace after the move before it, thinking time included (`Thought.due`), at once when that
moment has passed, else by a delivery task sent for it. A thought whose decision was answered
elsewhere meanwhile (time called, the game ended by staff) is dropped: no choice, no row, no task.
The moments are compared as computed (the row's time plus the pace), never measured on the clock."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from smashup.botregistry import BOTS, Budget, Cancelled, heuristic_bot
from smashup.play import bots, commits, services, tasks
from smashup.play.models import Choice, Game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sent(monkeypatch):
    """The tasks the code under test sends (nothing reaches a broker): bot tasks and deliveries."""
    calls = {"bot": [], "delivery": []}
    monkeypatch.setattr(commits, "schedule_bot", lambda *args, **kw: calls["bot"].append((args, kw)) or True)
    monkeypatch.setattr(bots, "schedule_delivery", lambda *args: calls["delivery"].append(args) or True)
    return calls


def bot_waits(pace: str = "normal", bot: str = "heuristic", **kwargs) -> Game:
    """A person-vs-bot table (pace `pace`) left at the bot's decision."""
    game = services.create_game(
        [
            services.SeatSpec("person", ["Aliens", "Ninjas"]),
            services.SeatSpec("bot", ["Pirates", "Robots"], bot=bot),
        ],
        seed=7,
        pace=pace,
        **kwargs,
    )
    services.claim_seat(game.pk, 0, guest_name="Ada")
    game.refresh_from_db()
    while game.pending_seat != 1:
        with services.engine_game(game) as engine:
            first = engine.pending.options[0].id
        services.submit_choice(game.pk, 0, game.version, game.pending_decision, [first])
        game.refresh_from_db()
    return game


def opened_ago(game: Game, seconds: float) -> Game:
    """As if the bot's decision had opened `seconds` ago (what its thinking and queueing took)."""
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(seconds=seconds))
    game.refresh_from_db()
    return game


def test_the_pace_is_a_multiple_of_the_bot_delay(settings):
    settings.PLAY_BOT_DELAY = 1.2
    seconds = {
        name: services.pace_seconds({"table": {"pace": name}})
        for name in ("instant", "quick", "normal", "slow")
    }
    assert seconds == {"instant": 0.0, "quick": 0.6, "normal": 1.2, "slow": 2.4}
    assert services.pace_seconds({}) == 1.2 and services.pace_seconds({"table": {"pace": "warp"}}) == 1.2
    assert commits.bot_overdue_after() == timedelta(seconds=2.4 + commits.BOT_LATE_SECONDS)


def test_a_bots_move_comes_at_the_pace_after_the_move_before_it_its_thinking_included(settings, sent):
    settings.PLAY_BOT_DELAY = 1.2
    game = opened_ago(bot_waits("normal"), 0.8)  # it took 0.8 s to think: 0.4 s left to wait
    seq, choices = game.version, game.choices.count()
    assert services.run_bots(game.pk, seq) == 0
    (delivery,) = sent["delivery"]
    game_id, at, undos, choice, due, bot_only = delivery
    assert (game_id, at, undos, bot_only) == (game.pk, seq, game.undos, False)
    assert due == game.updated_at + timedelta(seconds=1.2)
    assert game.choices.count() == choices  # nothing played before its moment
    # The delivery task, at its moment, plays exactly what the bot chose.
    assert tasks.deliver_bot(game_id, at, undos, *choice) == seq + 1
    played = Choice.objects.get(game=game, seq=seq)
    assert played.by_bot and played.seat == 1 and played.options == choice[2]
    assert tasks.deliver_bot(game_id, at, undos, *choice) is None  # a copy of it does nothing
    assert game.choices.count() == choices + 1


def test_a_bot_that_thought_longer_than_the_pace_plays_at_once(settings, sent):
    settings.PLAY_BOT_DELAY = 1.2
    game = opened_ago(bot_waits("slow"), 3.0)  # past its 2.4 s: due already
    seq = game.version
    assert services.run_bots(game.pk, seq) == 1
    assert sent["delivery"] == []
    assert Choice.objects.get(game=game, seq=seq).by_bot


def test_at_the_instant_pace_the_bot_plays_as_soon_as_it_has_chosen(settings, sent):
    settings.PLAY_BOT_DELAY = 1.2
    game = bot_waits("instant")
    seq = game.version
    assert services.run_bots(game.pk, seq) >= 1 and sent["delivery"] == []
    game.refresh_from_db()
    assert game.version > seq and (game.pending_seat == 0 or not game.is_active)


def test_a_delivery_whose_decision_was_answered_elsewhere_does_nothing(settings, sent):
    settings.PLAY_BOT_DELAY = 1.2
    game = opened_ago(bot_waits("normal"), 0.0)
    seq = game.version
    services.run_bots(game.pk, seq)
    (delivery,) = sent["delivery"]
    services.call_time(game.pk)  # the round's clock: the version moves on, the decision stays open
    game.refresh_from_db()
    rows = game.choices.count()
    assert tasks.deliver_bot(*delivery[:3], *delivery[3]) is None
    assert game.choices.count() == rows and not game.choices.filter(seq=seq, by_bot=True).exists()
    # Another undo count at the same version (a decision taken back and asked again) is another one.
    game.refresh_from_db()
    seat, decision, options = delivery[3]
    assert bots.deliver(game.pk, game.version, game.undos + 1, seat, game.pending_decision, options) is None
    assert game.choices.count() == rows


class SlowSearch:
    """A test double of a searching bot: it thinks for as long as its budget allows, here until its
    decision is answered elsewhere (it ignores the clock so that a slow machine cannot end it
    first), checking the cancel flag through `Budget.stop` every few iterations as the expert will.
    If it is never cancelled it gives up after a long while and answers, and the test fails."""

    def __init__(self):
        self.started = threading.Event()
        self.iterations = 0
        self.cancelled = False

    def __call__(self, game, seat, rng, budget):
        budget.seconds = None  # the table's thinking time would end it; this one waits to be cancelled
        budget.check_every = 4
        self.started.set()
        try:
            while not budget.stop(self.iterations) and self.iterations < 12_000:
                self.iterations += 1
                threading.Event().wait(0.005)  # one "iteration" of the search
        except Cancelled:
            self.cancelled = True
            raise
        return heuristic_bot(game, seat, rng)


def stop_by_time_call(game):
    services.call_time(game.pk)


def stop_by_staff(game):
    services.end_game(game.pk)


@pytest.mark.parametrize("stop", [stop_by_time_call, stop_by_staff], ids=["time called", "ended by staff"])
def test_a_search_whose_decision_is_answered_elsewhere_stops_and_leaves_nothing_behind(
    monkeypatch, sent, stop
):
    search = SlowSearch()
    monkeypatch.setitem(BOTS, "slowpoke", search)
    game = bot_waits("instant", bot="slowpoke")
    seq = game.version
    before = list(game.choices.values_list("pk", flat=True))
    result = {}

    def worker():
        try:
            result["moves"] = services.run_bots(game.pk, seq)
        finally:
            connection.close()

    thread = threading.Thread(target=worker)
    thread.start()
    assert search.started.wait(60), "the bot never started thinking"
    stop(game)
    thread.join(120)
    assert not thread.is_alive()
    assert search.cancelled and result["moves"] == 0
    assert sent["delivery"] == []
    new = Choice.objects.filter(game=game).exclude(pk__in=before)
    assert not new.filter(by_bot=True).exists()  # no choice of the bot, no row
    assert [c.seat for c in new] in ([None], [])  # only the time call's own entry, if any


def test_the_budget_checks_the_cancel_flag_every_few_iterations():
    asked = []

    def cancelled():
        asked.append(1)
        return len(asked) >= 3

    budget = Budget(iterations=100, cancelled=cancelled, check_every=10)
    stopped_at = None
    try:
        for i in range(1000):
            if budget.stop(i):
                stopped_at = i
                break
    except Cancelled:
        stopped_at = ("cancelled", i)
    assert stopped_at == ("cancelled", 20) and len(asked) == 3  # asked at 0, 10 and 20 only
    assert Budget(iterations=5).stop(5) and not Budget(iterations=5).stop(4)
    assert Budget(seconds=0.0).stop(1) and not Budget(seconds=0.0).stop(0)  # one iteration at least


def test_the_cancel_check_reads_the_row_at_most_so_often(django_assert_num_queries, sent):
    game = bot_waits("normal")
    seldom = bots.cancel_check(game.pk, game.version, game.undos, every=3600)
    with django_assert_num_queries(1):
        assert [seldom() for _ in range(5)] == [False] * 5
    often = bots.cancel_check(game.pk, game.version, game.undos, every=0)
    with django_assert_num_queries(2):
        assert not often() and not often()
    gone = bots.cancel_check(game.pk, game.version + 1, game.undos, every=0)
    assert gone()
