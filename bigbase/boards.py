"""Plain functions over the boards in the database, for the lobby and the services."""
from __future__ import annotations

from .models import Board


class UnknownBoard(LookupError):
    pass


def offered_boards() -> list[tuple[str, str]]:
    """(slug, name) of each board the lobby offers."""
    return list(Board.objects.filter(offered=True).order_by("name").values_list("slug", "name"))


def board_config(slug: str) -> dict:
    """The board `slug` as plain data for a game's config (UnknownBoard when there is none)."""
    row = Board.objects.filter(slug=slug, offered=True).first()
    if row is None:
        raise UnknownBoard(f"There is no board {slug!r}.")
    return row.board_data()
