"""My games (issue 26, finding 4): the tables a visitor plays at or set up, in progress and finished,
for the home page and the lobby, each one tap from its page.

Whose games: an account's (a seat it holds, a table it set up) and this browser session's (the seats
whose tokens it holds, checked against each seat's current token as every page does, and the tables
it set up). A guest sees the games of their own browser and nobody else's: a session holds only the
tokens of the seats it took. The list shows what the table page shows anyway (code, seats' names,
status, the winner); never a hand or the secret seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.db.models import Q

from .models import Game
from .seats import held_seats

SHOWN_PLAYING = 20  # games waiting or in progress, most recently changed first
SHOWN_FINISHED = 10


@dataclass
class MyGame:
    game: Game
    seats: list[int]  # the seats this visitor holds (empty: a table they only set up)
    names: list[str]  # every seat's name, in seat order
    set_up: bool  # this visitor set the table up
    my_turn: bool = False  # a seat of theirs is asked something now
    winner_name: str = ""
    my_names: list[str] = field(default_factory=list)

    @property
    def won(self) -> bool:
        return self.game.winner is not None and self.game.winner in self.seats


def _session_ids(session_seats: Mapping | None, session_created) -> set[str]:
    ids = set()
    if isinstance(session_seats, Mapping):
        ids.update(str(k) for k in session_seats)
    ids.update(str(k) for k in (session_created or ()) if isinstance(k, str))
    return ids


def my_games(*, user=None, session_seats: Mapping | None = None, session_created=()) -> dict[str, list]:
    """{"playing": [...], "finished": [...]} of `MyGame`: the games this account or browser session
    plays at or set up (`session_seats`, `session_created`: the session's `play_seats` and
    `play_created`). At most SHOWN_PLAYING and SHOWN_FINISHED, most recently changed first."""
    ids = _session_ids(session_seats, session_created)
    created = {str(k) for k in (session_created or ())}
    mine = Q(public_id__in=ids) if ids else Q(pk__in=[])
    authenticated = user is not None and getattr(user, "is_authenticated", False)
    if authenticated:
        mine |= Q(seats__user=user) | Q(created_by=user)
    found = {"playing": [], "finished": []}
    if not ids and not authenticated:
        return found
    rows = Game.objects.filter(mine).distinct().order_by("-updated_at").prefetch_related("seats__user")
    for status, key, limit in (
        (~Q(status=Game.Status.FINISHED), "playing", SHOWN_PLAYING),
        (Q(status=Game.Status.FINISHED), "finished", SHOWN_FINISHED),
    ):
        for row in rows.filter(status)[: limit * 2]:  # a few extra: a stale session entry is dropped
            item = _entry(row, user if authenticated else None, session_seats, created)
            if item is not None and len(found[key]) < limit:
                found[key].append(item)
    return found


def _entry(row: Game, user, session_seats, created: set[str]) -> MyGame | None:
    held = held_seats(row, user=user, session_seats=session_seats)
    set_up = row.public_id in created or (user is not None and row.created_by_id == user.pk)
    if not held and not set_up:
        return None  # a seat this session held once was given to someone else since
    seats = list(row.seats.all())
    names = [s.display_name for s in seats]
    winner = ""
    if row.is_finished and row.winner is not None and row.winner < len(names):
        winner = names[row.winner]
    return MyGame(
        game=row,
        seats=held,
        names=names,
        set_up=set_up,
        my_turn=row.is_active and row.pending_seat is not None and row.pending_seat in held,
        winner_name=winner,
        my_names=[names[i] for i in held if i < len(names)],
    )


def for_request(request) -> dict[str, list]:
    """`my_games` of a request's account and browser session (reads the session, never writes it)."""
    session = request.session
    return my_games(
        user=request.user,
        session_seats=session.get("play_seats"),
        session_created=session.get("play_created") or (),
    )
