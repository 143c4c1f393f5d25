"""``manage.py bench_bot_flood``'s measuring parts (issue 28): how a person's waits for a bot are
timed from their socket's states, and that the flood's lobby forms are what they say."""

from __future__ import annotations

import pytest

from smashup.play import floodbench
from smashup.play.forms import NewGameForm


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_wait_runs_from_the_persons_choice_to_the_bots_answer():
    clock = Clock()
    waits = floodbench.BotWaits(seat=0, clock=clock)
    waits.seen(0, 0, {1})  # the person decides: nothing to time
    clock.now = 1.0
    waits.sent(0)
    clock.now = 1.1
    waits.seen(1, 1, {1})  # the bot's decision is shown open
    clock.now = 1.8
    waits.seen(2, 1, {1})  # the bot answered, and decides again
    clock.now = 2.5
    waits.seen(3, 0, {1})  # its second answer
    assert waits.waits_ms == pytest.approx([800.0, 700.0])  # from the choice, then from the answer seen
    assert waits.stamps == [1.8, 2.5]


def test_a_bot_that_answered_before_its_decision_was_shown_is_timed_too():
    clock = Clock()
    waits = floodbench.BotWaits(seat=0, clock=clock)
    waits.seen(4, 0, {1})
    clock.now = 10.0
    waits.sent(4)
    clock.now = 10.9
    waits.seen(6, 0, {1})  # version 5 (the bot's) was never shown
    assert waits.waits_ms == pytest.approx([900.0])


def test_old_or_repeated_states_and_the_persons_own_turns_time_nothing():
    clock = Clock()
    waits = floodbench.BotWaits(seat=0, clock=clock)
    waits.sent(0)
    waits.seen(1, 0, {1})  # the person decides again: no bot in between
    waits.seen(1, 0, {1})
    waits.seen(0, 1, {1})
    assert waits.waits_ms == [] and waits.waiting_since is None
    summary = floodbench.wait_summary([100.0, 200.0, 300.0, 400.0])
    assert summary == {"count": 4, "p50": 200.0, "p95": 400.0, "max": 400.0}
    assert floodbench.wait_summary([]) == {"count": 0, "p50": None, "p95": None, "max": None}


@pytest.mark.django_db
def test_the_flood_forms_are_what_the_lobby_accepts():
    bots = NewGameForm(floodbench.flood_form("bots"))
    assert bots.is_valid(), bots.errors
    assert [s.kind for s in bots.cleaned_data["specs"]] == ["bot"] * 4 and not bots.cleaned_data["sit"]
    timed = NewGameForm(floodbench.flood_form("timed"))
    assert timed.is_valid(), timed.errors
    data = timed.cleaned_data
    assert [s.kind for s in data["specs"]] == ["person", "bot", "bot", "bot"]
    assert data["sit"] and data["turn_seconds"] == 10
    person = NewGameForm(floodbench.person_form(2))
    assert person.is_valid(), person.errors
    assert [s.kind for s in person.cleaned_data["specs"]] == ["person", "bot", "bot"]
    with pytest.raises(ValueError):
        floodbench.flood_form("everything")
