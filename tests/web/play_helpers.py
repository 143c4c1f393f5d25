"""Shared helpers of the live-play tests (tests/web/test_play_*.py)."""

from __future__ import annotations

import re
from contextlib import contextmanager

from smashup.celery import app as celery_app
from smashup.play import services
from smashup.play.models import Game

ORIGIN = (b"origin", b"http://testserver")
HOST = (b"host", b"testserver")
# What a browser on a page of the test site sends with a socket's handshake.
SITE_HEADERS = [ORIGIN, HOST]


def two_person_game(seed: int = 7, **kwargs) -> Game:
    """A started 2-player game: seat 0 'Ada', seat 1 'Bob' (guests)."""
    game = services.create_game(
        [
            services.SeatSpec("person", ["Aliens", "Ninjas"]),
            services.SeatSpec("person", ["Pirates", "Robots"]),
        ],
        seed=seed,
        **kwargs,
    )
    services.claim_seat(game.pk, 0, guest_name="Ada")
    services.claim_seat(game.pk, 1, guest_name="Bob")
    game.refresh_from_db()
    return game


def resume_path(game: Game, index: int) -> str:
    """The page of seat `index`'s own resume link (the holder's way in on another device)."""
    return f"/play/r/{services.resume_link_token(game.seats.get(index=index))}/"


def linked_seats(html: str, kind: str = "r") -> set[int]:
    """The seat indexes of the resume links (`kind` "r") or seat links ("s") a page shows. Links are
    compared by the seat they open: a signed link carries the second it was made."""
    tokens = set(re.findall(rf"/play/{kind}/([^/\"'<\s]+)/", html))
    read = services.seat_from_resume_link if kind == "r" else services.seat_from_link
    return {read(token).index for token in tokens}


def seated_client(game: Game, index: int, client=None):
    """A browser (a Django test client) that holds seat `index`, as its holder's second device: it
    confirms the seat's resume link (a POST; opening the link alone changes nothing)."""
    from django.test import Client

    client = client or Client()
    response = client.post(resume_path(game, index))
    assert response.status_code == 302, response.status_code
    return client


def person_vs_bot(seed: int = 7, **kwargs) -> Game:
    game = services.create_game(
        [services.SeatSpec("person", ["Aliens", "Ninjas"]), services.SeatSpec("bot", ["Pirates", "Robots"])],
        seed=seed,
        **kwargs,
    )
    services.claim_seat(game.pk, 0, guest_name="Ada")
    game.refresh_from_db()
    return game


def snapshot(game: Game) -> tuple:
    """What must not change when a request is refused."""
    game.refresh_from_db()
    return game.version, game.status, game.state_hash, game.choices.count()


@contextmanager
def eager_bots():
    """Run the bot task inline (no worker): after each commit the bots play at once."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = before


STATUS_RE = re.compile(r'<div id="play-status"[^>]*>')


def status_attrs(html: str) -> dict | None:
    """The data-* attributes of the #play-status fragment of a live message (None if absent)."""
    match = STATUS_RE.search(html)
    if match is None:
        return None
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', match.group(0)))


def option_values(html: str) -> list[str]:
    return re.findall(r'name="options" value="([^"]+)"', html)


def error_code(html: str) -> str | None:
    match = re.search(r'<div id="play-error"[^>]*data-code="([^"]*)"', html)
    return match.group(1) if match else None


# Every way a page names a card: the data-card attribute, a minion's details element (id="m-45"), and
# an option value that carries a card id (m45, m45@2, a12, c12, t12, s73:0; a base option b3 carries
# a base slot, p1 a player). The decision's source card is shown with data-card.
CARD_RE = re.compile(r'data-card="(\d+)"')
ELEMENT_RE = re.compile(r'\bid="m-(\d+)"')
OPTION_RE = re.compile(r'\bvalue="(?:[mact](\d+)(?:@\d+)?|s(\d+):\d+)"')


def html_card_ids(html: str) -> set[int]:
    ids = {int(n) for n in CARD_RE.findall(html)}
    ids.update(int(n) for n in ELEMENT_RE.findall(html))
    ids.update(int(a or b) for a, b in OPTION_RE.findall(html))
    return ids


def option_card_ids(html: str) -> set[int]:
    """The card ids carried by option values alone (to check that the scan reads them)."""
    return {int(a or b) for a, b in OPTION_RE.findall(html)}
