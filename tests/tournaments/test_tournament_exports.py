"""CSV exports never hand a spreadsheet a formula: every cell goes through exports.safe_cell."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.contrib.auth import get_user_model

from tournaments import exports, services
from tournaments.models import Event


@pytest.mark.parametrize(
    "value, expected",
    [
        ('=HYPERLINK("http://evil.example","x")', '\'=HYPERLINK("http://evil.example","x")'),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
        ("\tcmd", "'\tcmd"),
        ("\rcmd", "'\rcmd"),
        ("Ada", "Ada"),
        ("Ada = Bob", "Ada = Bob"),
        ("", ""),
        ("-1.5", "-1.5"),  # a plain number stays a number
        ("+3", "+3"),
        (-2, -2),
        (None, None),
    ],
)
def test_a_cell_that_a_spreadsheet_would_read_as_a_formula_is_quoted(value, expected):
    assert exports.safe_cell(value) == expected


FORMULAS = ['=HYPERLINK("http://evil.example","x")', "+1+1 club", "-2+3", "@SUM(A1)"]


@pytest.mark.django_db
def test_every_export_writes_names_that_look_like_formulas_as_text(client):
    organizer = get_user_model().objects.create_user("org", password="pw")
    account = get_user_model().objects.create_user("@evil", password="pw")
    event = services.create_event(
        organizer, name="Cup", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE
    )
    for name in FORMULAS:
        services.register(event, name, by=organizer)
    services.register(event, "Dora", user=account, by=organizer)  # the account's name is a cell too
    services.generate_round(event, by=organizer)
    client.force_login(organizer)
    for kind in exports.KINDS:
        text = client.get(f"/tournaments/{event.pk}/export/{kind}.csv").content.decode()
        cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
        assert cells, kind
        risky = [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
        assert all(exports._PLAIN_NUMBER.fullmatch(c) for c in risky), (kind, risky)
        quoted = {c for c in cells if c.startswith("'")}
        assert {f"'{n}" for n in FORMULAS} <= quoted, (kind, quoted)
        if kind == "entrants":
            assert "'@evil" in quoted
