"""Taking back a choice (services.undo_choice, the undo rule in smashup.play.undo, the WebSocket's
"undo" message, the POST fallback and the Undo button) on the real PostgreSQL and Redis.

Seed 7 of `two_person_game` (Ada: Aliens + Ninjas, Bob: Pirates + Robots) starts with Ada's Play
Cards phase; Playing Scout (m5@...) and then Terraforming (a19) show and shuffle nothing; choosing
the base Terraforming replaces shows the base deck to Ada; choosing the new base shuffles the base
deck; ending the phase draws cards.
"""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from smashup.asgi import application
from smashup.engine import new_game, replay
from smashup.engine.bots import heuristic_choice
from smashup.play import bots, render, services, timers, undo
from smashup.play.models import Choice, Game

from .play_helpers import SITE_HEADERS, error_code, seated_client, snapshot, status_attrs, two_person_game

ADA, BOB = 0, 1
TIMEOUT = 10


@pytest.fixture(autouse=True)
def _fast_clients(settings):
    settings.PLAY_WS_RATE = (100_000, 1.0)


def play(game: Game, seat: int, option: str) -> Game:
    game.refresh_from_db()
    services.submit_choice(game.pk, seat, game.version, game.pending_decision, [option])
    game.refresh_from_db()
    return game


def options_of(game: Game) -> dict[str, str]:
    game.refresh_from_db()
    with services.engine_game(game) as engine:
        return {o.id: o.label for o in engine.pending.options}


def page_log(game: Game, seat) -> list[str]:
    game.refresh_from_db()
    with services.engine_game(game) as engine:
        return [line["text"] for line in render.board_context(game, engine, seat)["log"]]


def full_snapshot(game: Game) -> tuple:
    """`snapshot` plus what an undo changes besides (undone marks, the undo count and seat)."""
    base = snapshot(game)
    undone = tuple(game.choices.filter(undone_at__isnull=False).values_list("pk", flat=True))
    return base + (game.undos, game.undo_seat, game.deadline, game.deadline_seq, undone)


@pytest.fixture
def game(db) -> Game:
    game = two_person_game(seed=7)
    assert game.pending_seat == ADA and "m5@1" in options_of(game)
    return game


# ---------------------------------------------------------------------------------- allowed ------
@pytest.mark.django_db
def test_a_player_takes_back_their_last_choice(game):
    start_hash, start_decision = game.state_hash, game.pending_decision
    game = play(game, ADA, "m5@1")  # Scout on the first base
    choice = Choice.objects.get(game=game, seq=0)
    assert choice.undoable and choice.undo_block == "" and game.undo_seat == ADA
    assert services.may_undo(game, ADA) and not services.may_undo(game, BOB)

    outcome = services.undo_choice(game.pk, ADA, 1)
    assert outcome.version == 0
    game.refresh_from_db()
    assert game.version == 0 and game.undos == 1 and game.undo_seat is None
    assert game.state_hash == start_hash and game.pending_decision == start_decision
    assert game.pending_seat == ADA and game.is_active
    # The choice stays in the table for the audit, marked as taken back; the record no longer has it.
    choice.refresh_from_db()
    assert choice.undone_at is not None
    assert game.choices.count() == 1 and game.choices.in_record().count() == 0

    # Ada plays something else: a new row with the same seq; the record is the rows not taken back.
    game = play(game, ADA, "m5@2")
    assert game.version == 1 and game.choices.count() == 2
    record = [c.as_record() for c in game.choices.in_record().order_by("seq")]
    assert record == [[ADA, start_decision, ["m5@2"]]]
    engine = replay({**game.record_head(), "choices": record})
    assert engine.digest() == game.state_hash
    services.cache.clear()  # and a cold rebuild from the database agrees
    with services.engine_game(game) as rebuilt:
        assert rebuilt.digest() == game.state_hash and len(rebuilt.choices) == 1

    # Everyone's log says that a choice was taken back (not which one).
    for viewer in (ADA, BOB, None):
        log = page_log(game, viewer)
        assert "Ada took back their last choice." in log
    assert not any("Scout on Mushroom" in line for line in page_log(game, BOB))


@pytest.mark.django_db
def test_a_player_may_take_back_several_choices_in_a_row(game):
    start_hash = game.state_hash
    game = play(game, ADA, "m5@1")
    after_scout = game.state_hash
    game = play(game, ADA, "a19")  # Terraforming: asks which base to replace, shows nothing yet
    assert game.undo_seat == ADA
    services.undo_choice(game.pk, ADA, 2)
    game.refresh_from_db()
    assert game.version == 1 and game.state_hash == after_scout and game.undo_seat == ADA
    services.undo_choice(game.pk, ADA, 1)
    game.refresh_from_db()
    assert game.version == 0 and game.state_hash == start_hash and game.undos == 2
    with pytest.raises(services.UndoRefused, match="no choice to take back yet"):
        services.undo_choice(game.pk, ADA, 0)


@pytest.mark.django_db
def test_a_choice_reuses_the_undo_snapshot_its_previous_choice_left(monkeypatch):
    """The snapshot after a committed choice is the next choice's "before": one snapshot a choice,
    and the same rulings as when every snapshot is taken afresh."""
    from django.test import TestCase

    from smashup.play import undo as undo_rule

    taken = []
    real = undo_rule.snapshot
    monkeypatch.setattr(undo_rule, "snapshot", lambda engine: taken.append(1) or real(engine))
    rulings = {}
    for reuse in (True, False):
        game = two_person_game(seed=7)
        counts = []
        for option in ("m5@1", "a19", "b1"):  # Scout; Terraforming; pick a base (shows the deck)
            if not reuse:
                services.undo_snapshots.clear()
            taken.clear()
            with TestCase.captureOnCommitCallbacks(execute=True):
                game = play(game, ADA, option)
            counts.append(len(taken))
        rulings[reuse] = list(game.choices.order_by("seq").values_list("undoable", "undo_block"))
        assert counts == ([2, 1, 1] if reuse else [2, 2, 2])
    assert rulings[True] == rulings[False]
    assert rulings[True][0] == (True, "") and "drawn or revealed" in rulings[True][2][1]


# ---------------------------------------------------------------------------------- refused ------
def refused(game: Game, seat, seq, code: str, match: str) -> None:
    before = full_snapshot(game)
    with pytest.raises(services.PlayError, match=match) as info:
        services.undo_choice(game.pk, seat, seq)
    assert info.value.code == code, info.value.message
    assert full_snapshot(game) == before


@pytest.mark.django_db
def test_only_the_seat_that_chose_may_take_it_back(game):
    game = play(game, ADA, "m5@1")
    refused(game, BOB, 1, "cannot_undo", "The last choice was Ada's; you can only take back your own")
    refused(game, None, 1, "spectator", "Spectators watch")


@pytest.mark.django_db
def test_nothing_can_be_taken_back_once_someone_else_has_chosen():
    # Seed 1: Bob holds an action besides his minions, so his play leaves him in his phase.
    game = two_person_game(seed=1)
    game = play(game, ADA, "end")  # Ada ends her phase (and draws); Bob's turn
    assert game.pending_seat == BOB
    # A minion whose play does nothing more (no draw, reveal or shuffle that would block the undo).
    plain = tuple(f"Play {name} on" for name in ("Buccaneer", "Nukebot", "Warbot", "First Mate"))
    bob_plays = next(o for o, text in options_of(game).items() if text.startswith(plain))
    game = play(game, BOB, bob_plays)
    assert game.undo_seat == BOB
    refused(game, ADA, game.version, "cannot_undo", "The last choice was Bob's")


@pytest.mark.django_db
def test_a_choice_that_drew_a_card_cannot_be_taken_back(game):
    game = play(game, ADA, "end")
    choice = Choice.objects.get(game=game, seq=0)
    assert not choice.undoable and "drawn or revealed" in choice.undo_block
    assert game.undo_seat is None and not services.may_undo(game, ADA)
    refused(game, ADA, 1, "cannot_undo", "cannot be taken back: a hidden card was drawn or revealed")


@pytest.mark.django_db
def test_a_choice_that_showed_hidden_cards_or_shuffled_cannot_be_taken_back(game):
    game = play(game, ADA, "a19")  # Terraforming
    game = play(game, ADA, "b1")  # replace the first base: Ada now sees the whole base deck
    refused(game, ADA, game.version, "cannot_undo", "a hidden card was drawn or revealed")
    new_base = next(iter(options_of(game)))
    game = play(game, ADA, new_base)  # the new base comes in, the base deck is shuffled
    assert "shuffled" in Choice.objects.get(game=game, seq=2).undo_block
    refused(game, ADA, game.version, "cannot_undo", "cards were shuffled")


@pytest.mark.django_db(transaction=True)
def test_a_choice_the_bot_made_when_time_ran_out_cannot_be_taken_back():
    game = two_person_game(seed=7, turn_seconds=30)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    game.refresh_from_db()
    seat = game.pending_seat
    assert bots.fire_timer(game.pk, game.version, game.deadline.isoformat()) is not None
    game.refresh_from_db()
    if game.pending_seat == seat:  # same seat still deciding: the last choice is "theirs" but the bot's
        refused(game, seat, game.version, "cannot_undo", "the time ran out and the bot chose for you")
    else:
        refused(game, seat, game.version, "cannot_undo", "the time ran out|The last choice")


@pytest.mark.django_db
def test_stale_malformed_and_out_of_place_undos_are_refused(game):
    refused(game, ADA, 0, "cannot_undo", "no choice to take back yet")
    game = play(game, ADA, "m5@1")
    refused(game, ADA, 0, "stale", "The game has moved on")
    refused(game, ADA, 2, "stale", "The game has moved on")
    refused(game, ADA, "one", "bad_request", "'seq' must be")
    refused(game, ADA, -1, "bad_request", "'seq' must be")
    refused(game, ADA, True, "bad_request", "'seq' must be")
    refused(game, "0", 1, "bad_request", "'seat' must be")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    refused(game, ADA, 1, "game_over", "The game is over")
    lobby = services.create_game([services.SeatSpec("person"), services.SeatSpec("person")], seed=3)
    refused(lobby, ADA, 0, "not_started", "has not started")


@pytest.mark.django_db
def test_an_undo_is_checked_again_on_the_rebuilt_game(game, monkeypatch):
    """The stored verdict is only the hint for the button: the service replays and checks again."""
    game = play(game, ADA, "m5@1")
    monkeypatch.setattr(undo, "block_reason", lambda before, after, seat, **kw: "checked again")
    refused(game, ADA, 1, "cannot_undo", "checked again")


# ---------------------------------------------------------------------------------- the rule -----
def test_the_rule_on_engine_games():
    config = {
        "players": [
            {"name": "Ada", "factions": ["Aliens", "Ninjas"]},
            {"name": "Bob", "factions": ["Pirates", "Robots"]},
        ]
    }
    engine = new_game(config, 7)
    seat = engine.pending.seat
    before = undo.snapshot(engine)
    assert undo.block_reason(before, engine, seat) == ""
    engine.rng.random()  # anything random (a shuffle) since: refused
    assert "shuffled" in undo.block_reason(before, engine, seat)

    engine = new_game(config, 7)
    before = undo.snapshot(engine)
    engine.log("Bob's hand: ...", to=(seat,))  # a private line: someone was told something
    assert "hidden" in undo.block_reason(before, engine, seat)

    # A card of the other player's hand comes into view: refused; one of my own hand: allowed.
    engine = new_game(config, 7)
    before = undo.snapshot(engine)
    other = engine.players[1 - seat].hand[0]
    engine.move_card(other, ("discard", 1 - seat))
    assert "revealed" in undo.block_reason(before, engine, seat)
    engine = new_game(config, 7)
    before = undo.snapshot(engine)
    engine.move_card(engine.players[seat].hand[0], ("discard", seat))
    assert undo.block_reason(before, engine, seat) == ""
    # ...and a card from my deck is refused (a draw).
    engine = new_game(config, 7)
    before = undo.snapshot(engine)
    engine.move_card(engine.players[seat].deck[0], ("hand", seat))
    assert "drawn" in undo.block_reason(before, engine, seat)


def test_a_card_leaving_another_hand_or_a_deck_blocks_even_when_the_chooser_knew_it():
    """The chooser having seen a card (Probe showed them the hand, they looked at their deck's top)
    does not make it theirs to show: it leaves a hidden zone, so the choice cannot be taken back."""
    import dataclasses

    config = {
        "players": [
            {"name": "Ada", "factions": ["Aliens", "Ninjas"]},
            {"name": "Bob", "factions": ["Pirates", "Robots"]},
        ]
    }
    engine = new_game(config, 7)
    seat = engine.pending.seat
    theirs, top = engine.players[1 - seat].hand[0], engine.players[seat].deck[0]
    seen = undo.snapshot(engine)
    knew = dataclasses.replace(seen, known={**seen.known, seat: seen.known[seat] | {theirs, top}})
    engine.move_card(theirs, ("discard", 1 - seat))
    assert "another player's hand was revealed" in undo.block_reason(knew, engine, seat)
    engine = new_game(config, 7)
    engine.move_card(top, ("hand", seat))
    assert "drawn or revealed" in undo.block_reason(knew, engine, seat)
    # A decision that shows its seat cards nobody else sees, or offers another hand's cards.
    engine = new_game(config, 7)
    engine.pending.reveal = [theirs]
    assert "shown to you alone" in undo.block_reason(undo.snapshot(engine), engine, seat)
    engine = new_game(config, 7)
    engine.pending.options[0].card = theirs
    assert "hidden hand or deck" in undo.block_reason(undo.snapshot(engine), engine, seat)


def test_a_deck_top_revealed_to_the_table_blocks_the_undo():
    """Hoverbot reveals the top of its player's deck to everyone; when it is an action nothing is
    asked, nothing moves and no private line is written. Taken back and played again, it would show
    the table the next card every time: a disclosure blocks the undo."""
    from smashup.engine import Scenario
    from smashup.engine.testing import play

    def scenario():
        s = Scenario([("Robots", "Aliens"), ("Ninjas", "Dinosaurs")])
        s.base("The Homeworld")
        s.base("Tar Pits")
        s.hand(0, "Hoverbot", "Invader", "Abduction")  # an action keeps the Play Cards phase open
        s.deck(0, "Beam Up", "Scout")
        return s.build()

    engine = scenario()
    before = undo.snapshot(engine)
    play(engine, "Hoverbot", base="Tar Pits")
    assert engine.players[0].deck[:1] == [c for c in engine.players[0].deck if engine.name(c) == "Beam Up"]
    assert engine.pending.seat == 0 and engine.pending.kind == "play"  # nothing was asked
    assert undo.block_reason(before, engine, 0) == "a hidden card was revealed"
    # Playing Invader from the same position reveals nothing: still undoable.
    engine = scenario()
    before = undo.snapshot(engine)
    play(engine, "Invader", base="Tar Pits")
    assert undo.block_reason(before, engine, 0) == ""


def is_probes_pick(decision, engine, peeked) -> bool:
    """Probe is resolving: its player picks which minion of the hand they look at is discarded."""
    pending = engine.pending
    return (
        pending is not None
        and pending.kind == "cards"
        and pending.source is not None
        and engine.defs[pending.source].name == "Probe"
        and len(pending.options) >= 2
    )


@pytest.mark.django_db
def test_probe_then_undo_cannot_show_a_hand_to_the_table_one_card_at_a_time():
    """The audit's case: Bob plays Probe on Ada, picks Invader from her hand (it goes to her discard
    pile, in everyone's view), takes it back and picks again: each round trip would show the table
    another of Ada's minions. The pick is made among cards shown to Bob alone, and it moves a card
    out of Ada's hidden hand: never undoable."""
    game = two_person_game(seed=10)  # with these bots, a Probe the old rule let be taken back
    _, engine = drive_until(game, random.Random(3), is_probes_pick)
    decision = engine.pending
    prober, victim = decision.seat, 1 - decision.seat
    assert set(decision.reveal) == set(engine.players[victim].hand)  # Bob sees Ada's hand
    picked = decision.options[0]
    assert picked.card in engine.players[victim].hand
    assert picked.card not in undo.snapshot(engine).known[None]  # hidden from the table
    game.refresh_from_db()
    services.submit_choice(game.pk, prober, game.version, decision.id, [picked.id])
    game.refresh_from_db()
    choice = Choice.objects.get(game=game, seq=game.version - 1, undone_at__isnull=True)
    with services.engine_game(game) as after:
        assert picked.card in after.players[victim].discard  # the table sees it now
    assert not choice.undoable and "shown to you alone" in choice.undo_block
    assert game.undo_seat is None and not services.may_undo(game, prober)
    refused(game, prober, game.version, "cannot_undo", "cannot be taken back: it was chosen among cards")


# ---------------------------------------------------------------------------------- Specials ---
TWO = {
    "players": [
        {"name": "Ada", "factions": ["Aliens", "Ninjas"]},
        {"name": "Bob", "factions": ["Pirates", "Robots"]},
    ],
    "base_sets": "factions",
}


def test_the_snapshot_knows_exactly_the_cards_each_view_shows():
    """The snapshot reads the public part of the views once; it must still be each viewer's view."""
    from smashup.engine.invariants import card_ids_in

    rng = random.Random(3)
    for seed in range(3):
        pairs = [["Aliens", "Ninjas"], ["Pirates", "Robots"], ["Wizards", "Zombies"]]
        game = new_game({"players": [{"factions": pair} for pair in pairs], "base_sets": "all"}, seed)
        for _ in range(120):
            if game.pending is None:
                break
            known = undo.snapshot(game).known
            for viewer in (None, 0, 1, 2):
                assert known[viewer] == card_ids_in(game.view(viewer))
            d = game.pending
            game.apply(d.seat, d.id, heuristic_choice(game, rng))


@pytest.mark.parametrize("specials", ["fast", "ask"])
def test_no_choice_that_hands_the_game_to_another_player_or_peeks_at_their_specials_is_undoable(specials):
    """Whole games (the seeds the audit reproduced the leak with): every choice after which another
    player decides, or during which a "fast" Special window looked at another player's hand, is
    refused; the test counts that both cases (and undoable choices) really came up."""
    handed_to_window = peeked_and_back = undoable = 0
    for seed in (2, 4, 5, 7):
        engine = new_game({**TWO, "specials": specials}, seed)
        rng = random.Random(1)
        while engine.pending is not None:
            decision = engine.pending
            ids = heuristic_choice(engine, rng)
            before = undo.snapshot(engine)
            with undo.watching_specials(engine) as peeked:
                engine.apply(decision.seat, decision.id, ids)
            block = undo.block_reason(before, engine, decision.seat, peeked=peeked)
            after = engine.pending
            if after is not None and after.seat != decision.seat:
                assert block, (seed, len(engine.choices))
                handed_to_window += after.kind == "special"
            elif specials == "fast" and peeked - {decision.seat}:
                assert block, (seed, len(engine.choices))
                peeked_and_back += 1
            undoable += not block
    assert handed_to_window > 0 and undoable > 100
    if specials == "fast":
        assert peeked_and_back > 0


def drive_until(game: Game, rng: random.Random, stop) -> tuple:
    """Play `game` (both seats people) with the heuristic through `services.submit_choice`, keeping an
    engine copy in step, until `stop(decision, engine, peeked)` holds after a choice. Returns that
    choice's row and the engine copy."""
    engine = new_game(game.config, game.seed)
    while engine.pending is not None:
        decision = engine.pending
        ids = heuristic_choice(engine, rng)
        services.submit_choice(game.pk, decision.seat, len(engine.choices), decision.id, ids)
        with undo.watching_specials(engine) as peeked:
            engine.apply(decision.seat, decision.id, ids)
        if stop(decision, engine, peeked):
            game.refresh_from_db()
            assert game.state_hash == engine.digest()
            return Choice.objects.get(game=game, seq=game.version - 1, undone_at__isnull=True), engine
    raise AssertionError("the game ended before the case came up")


@pytest.mark.django_db
def test_a_choice_that_opens_another_players_special_window_cannot_be_taken_back():
    """In "fast" mode the window opens only for a player holding a usable Special: taking the choice
    back would tell the chooser so and let them try another line."""
    game = two_person_game(seed=2)
    assert game.config["specials"] == "fast"

    def opens_their_window(decision, engine, peeked):
        return engine.pending is not None and engine.pending.kind == "special" and (
            engine.pending.seat != decision.seat
        )

    choice, engine = drive_until(game, random.Random(1), opens_their_window)
    chooser = choice.seat
    assert not choice.undoable and choice.undo_block == "another player is deciding now"
    assert game.undo_seat is None and not services.may_undo(game, chooser)
    refused(game, chooser, game.version, "cannot_undo", "another player is deciding now")
    # The stored verdict is only the button's hint: with it forced open, the service's own check on
    # the rebuilt game still refuses, and nothing changes.
    Choice.objects.filter(pk=choice.pk).update(undoable=True, undo_block="")
    Game.objects.filter(pk=game.pk).update(undo_seat=chooser)
    refused(game, chooser, game.version, "cannot_undo", "another player is deciding now")


@pytest.mark.django_db
def test_a_special_window_that_passed_another_player_silently_blocks_the_undo_too():
    """The same information the other way round: the window skipped the other player (no usable
    Special) and came back to the chooser."""
    game = two_person_game(seed=7)

    def peeked_and_came_back(decision, engine, peeked):
        # ... and nothing else blocks the undo first (no card drawn or revealed by the choice).
        return engine.pending is not None and engine.pending.seat == decision.seat and bool(
            peeked - {decision.seat}
        ) and Choice.objects.filter(
            game=game, seq=len(engine.choices) - 1, undone_at__isnull=True,
            undo_block__contains="another player could play a Special",
        ).exists()

    choice, engine = drive_until(game, random.Random(1), peeked_and_came_back)
    chooser = choice.seat
    assert game.pending_seat == chooser  # the chooser decides next: only the peek blocks it
    assert not choice.undoable and "another player could play a Special" in choice.undo_block
    refused(game, chooser, game.version, "cannot_undo", "another player could play a Special")
    Choice.objects.filter(pk=choice.pk).update(undoable=True, undo_block="")
    Game.objects.filter(pk=game.pk).update(undo_seat=chooser)
    refused(game, chooser, game.version, "cannot_undo", "another player could play a Special")


# ---------------------------------------------------------------------------------- timers -------
@pytest.mark.django_db(transaction=True)
def test_an_undo_gives_back_the_time_that_was_left_and_stale_timer_tasks_do_nothing(monkeypatch):
    monkeypatch.setattr(timers, "schedule", lambda *args: None)
    game = two_person_game(seed=7, turn_seconds=60)
    first_deadline = game.deadline
    game = play(game, ADA, "m5@1")
    second_deadline = game.deadline
    services.undo_choice(game.pk, ADA, 1)
    game.refresh_from_db()
    assert game.deadline_seq == 0 and game.deadline == first_deadline  # the time Ada had left
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    # The task of the decision taken back (seq 1) does nothing, nor one with another deadline.
    assert bots.fire_timer(game.pk, 1, second_deadline.isoformat()) is None
    assert bots.fire_timer(game.pk, 0, second_deadline.isoformat()) is None
    game.refresh_from_db()
    assert game.version == 0


@pytest.mark.django_db(transaction=True)
def test_play_and_undo_over_and_over_never_restarts_the_clock(monkeypatch):
    """The audit's case: play, undo, play, undo kept a decision open for ever (each undo gave a few
    seconds more). The decision taken back keeps the deadline it was first given; once it has
    passed, the undo leaves it overdue, its timeout task is scheduled for that deadline (so it runs
    at once) and the bot answers for the seat."""
    scheduled = []
    monkeypatch.setattr(timers, "schedule", lambda pk, seq, deadline: scheduled.append((seq, deadline)))
    game = two_person_game(seed=7, turn_seconds=60)
    nearly = timezone.now() + timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(deadline=nearly)  # Ada's time is nearly out
    for _ in range(3):
        game = play(game, ADA, "m5@1")
        assert game.deadline > nearly + timedelta(seconds=30)  # the next decision has its own clock
        services.undo_choice(game.pk, ADA, 1)
        game.refresh_from_db()
        assert (game.version, game.deadline_seq, game.deadline) == (0, 0, nearly)  # never longer
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    game.refresh_from_db()
    passed = game.deadline
    game = play(game, ADA, "m5@1")
    scheduled.clear()
    services.undo_choice(game.pk, ADA, 1)
    game.refresh_from_db()
    assert (game.version, game.deadline) == (0, passed) and timers.remaining(game) == 0
    assert scheduled == [(0, passed)]  # an ETA in the past: the worker runs it at once
    outcome = bots.fire_timer(game.pk, 0, passed.isoformat())
    assert outcome is not None and outcome.version == 1
    timed_out = Choice.objects.get(game=game, seq=0, undone_at__isnull=True)
    assert timed_out.by_bot and timed_out.timed_out
    refused(game, ADA, 1, "cannot_undo", "the time ran out and the bot chose for you")


# ---------------------------------------------------------------------------------- pages --------
@pytest.mark.django_db
def test_the_undo_button_is_offered_to_that_seat_only(game):
    ada, bob, spectator = seated_client(game, ADA), seated_client(game, BOB), Client()
    url = f"/play/g/{game.public_id}/"
    assert "Undo my last choice" not in ada.get(url).content.decode()
    play(game, ADA, "m5@1")
    html = ada.get(url).content.decode()
    assert "Undo my last choice" in html and f'action="/play/g/{game.public_id}/undo/"' in html
    assert 'name="type" value="undo"' in html and 'name="seq" value="1"' in html
    assert "Undo my last choice" not in bob.get(url).content.decode()
    assert "Undo my last choice" not in spectator.get(url).content.decode()


@pytest.mark.django_db
def test_undo_by_post_with_and_without_htmx(game):
    ada, bob = seated_client(game, ADA), seated_client(game, BOB)
    url = f"/play/g/{game.public_id}/undo/"
    play(game, ADA, "m5@1")
    response = bob.post(url, {"seq": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409 and error_code(response.content.decode()) == "cannot_undo"
    response = ada.post(url, {"seq": "1"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and error_code(html) == "ok"
    assert status_attrs(html)["version"] == "0" and "Ada took back their last choice." in html
    play(game, ADA, "m5@1")
    response = ada.post(url, {"seq": "1"})  # a plain form: back to the game page
    assert response.status_code == 302 and response["Location"] == f"/play/g/{game.public_id}/"
    game.refresh_from_db()
    assert game.version == 0 and game.undos == 2


# ---------------------------------------------------------------------------------- socket -------
async def connect(game: Game, seat: int | None = None, fmt: str | None = None) -> WebsocketCommunicator:
    query = []
    if seat is not None:
        token = await database_sync_to_async(lambda: services.resume_link_token(game.seats.get(index=seat)))()
        query.append(f"token={token}")
    if fmt:
        query.append(f"format={fmt}")
    path = f"/ws/games/{game.public_id}/" + ("?" + "&".join(query) if query else "")
    comm = WebsocketCommunicator(application, path, headers=SITE_HEADERS)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    return comm


async def until(comm, predicate, timeout: float = TIMEOUT) -> str:
    import asyncio

    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        text = await comm.receive_from(timeout=max(0.01, end - loop.time()))
        if predicate(text):
            return text


def at_version(version: int):
    def check(text):
        attrs = status_attrs(text)
        return attrs is not None and attrs["version"] == str(version)

    return check


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_undo_over_the_websocket_updates_every_page():
    game = await database_sync_to_async(two_person_game)(seed=7)
    ada = await connect(game, ADA)
    spectator = await connect(game)
    await until(ada, at_version(0))
    await until(spectator, at_version(0))
    await ada.send_to(
        text_data=json.dumps(
            {"type": "choice", "seq": 0, "decision": game.pending_decision, "options": ["m5@1"]}
        )
    )
    text = await until(ada, at_version(1))
    assert "Undo my last choice" in text
    await until(spectator, at_version(1))

    # Refused: a stale seq, and a spectator; nothing changes.
    await ada.send_to(text_data=json.dumps({"type": "undo", "seq": 0}))
    assert error_code(await until(ada, lambda t: error_code(t) not in (None, "ok"))) == "stale"
    await spectator.send_to(text_data=json.dumps({"type": "undo", "seq": 1}))
    assert error_code(await until(spectator, lambda t: error_code(t) is not None)) == "spectator"
    assert (await database_sync_to_async(snapshot)(game))[0] == 1

    await ada.send_to(text_data=json.dumps({"type": "undo", "seq": "1"}))
    text = await until(ada, at_version(0))
    assert "Undo my last choice" not in text
    # The version went back: the spectator's page follows too, and the whole log is redrawn.
    text = await until(spectator, at_version(0))
    assert 'id="log-lines"' in text and 'hx-swap-oob="innerHTML"' in text
    assert "Ada took back their last choice." in text
    await ada.disconnect()
    await spectator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_undo_over_a_json_connection():
    game = await database_sync_to_async(two_person_game)(seed=7)
    bob = await connect(game, BOB, fmt="json")
    ada = await connect(game, ADA, fmt="json")
    state = json.loads(await ada.receive_from(timeout=TIMEOUT))
    assert state["type"] == "state" and state["may_undo"] is False and state["undos"] == 0
    await ada.send_to(
        text_data=json.dumps(
            {"type": "choice", "seq": 0, "decision": game.pending_decision, "options": ["m5@1"]}
        )
    )
    messages = [json.loads(await ada.receive_from(timeout=TIMEOUT)) for _ in range(2)]
    assert {"type": "ok", "version": 1} in messages
    assert any(m["type"] == "state" and m["may_undo"] for m in messages)
    await bob.send_to(text_data=json.dumps({"type": "undo", "seq": 1}))
    while True:
        message = json.loads(await bob.receive_from(timeout=TIMEOUT))
        if message["type"] == "error":
            break
    assert message["code"] == "cannot_undo" and "Ada's" in message["message"]
    await ada.send_to(text_data=json.dumps({"type": "undo", "seq": 1}))
    while True:
        message = json.loads(await ada.receive_from(timeout=TIMEOUT))
        if message["type"] == "ok":
            break
    assert message == {"type": "ok", "version": 0}
    state = json.loads(await ada.receive_from(timeout=TIMEOUT))
    assert state["version"] == 0 and state["undos"] == 1 and not state["may_undo"]
    await ada.disconnect()
    await bob.disconnect()


# ---------------------------------------------------------------------------------- soak ---------
@pytest.mark.django_db
def test_random_play_with_undos_keeps_the_record_true():
    """Random choices, taking back every one that may be: the row, the record and a cold rebuild agree."""
    game = two_person_game(seed=11)
    rng = random.Random(3)
    undos = 0
    for _ in range(80):
        game.refresh_from_db()
        if not game.is_active:
            break
        seat = game.pending_seat
        with services.engine_game(game) as engine:
            d = engine.pending
            ids = [o.id for o in rng.sample(d.options, rng.randint(d.min_count, d.max_count))]
        services.submit_choice(game.pk, seat, game.version, game.pending_decision, ids)
        game.refresh_from_db()
        if game.undo_seat == seat and rng.random() < 0.7:
            services.undo_choice(game.pk, seat, game.version)
            undos += 1
    game.refresh_from_db()
    assert undos > 3 and game.undos == undos
    record = [c.as_record() for c in game.choices.in_record().order_by("seq")]
    assert len(record) == game.version
    assert replay({**game.record_head(), "choices": record}).digest() == game.state_hash
