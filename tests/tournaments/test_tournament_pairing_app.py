"""Pairing through the app (services.generate_round) on PostgreSQL: a constant number of queries
whatever the size of the event (tables, seats and byes are inserted in bulk)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments import services
from tournaments.models import Entrant, Event

pytestmark = pytest.mark.django_db


def _pairing_queries(players: int) -> tuple[int, int]:
    org = get_user_model().objects.get_or_create(username="org")[0]
    event = services.create_event(
        org, name=f"Q{players}", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE
    )
    Entrant.objects.bulk_create(Entrant(event=event, name=f"P{i}", checked_in=True) for i in range(players))
    with CaptureQueriesContext(connection) as queries:
        rnd = services.generate_round(event, by=org)
    return len(queries), rnd.tables.count()


def test_pairing_a_round_takes_the_same_queries_for_9_and_41_players():
    small, small_tables = _pairing_queries(9)
    large, large_tables = _pairing_queries(41)
    assert (small_tables, large_tables) == (3, 11)  # tables of 3 and 4, no bye (layout "even")
    assert small == large, (small, large)
