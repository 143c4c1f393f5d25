"""Big Base boards in the database, so that an organizer can edit them in the admin.

A board's numbers and slot abilities are data (DESIGN.md section 4): the VP table per scoring
period, the side bonus, the tie-break period and the abilities of the twelve slots, in the shape of
`bigbase/data/boards.yaml` (checked by `bigbase.rules.board_from_dict`). A game copies the board
into its config when it is set up, so editing a board never changes a game already played on it.
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models

from smashup.engine.core import ConfigError

from .rules.board import board_from_dict, board_to_dict


class Board(models.Model):
    # The board's id in a game's config (the engine's board "id").
    slug = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=80)
    # Everything else of the board, as in boards.yaml: rounds_per_period, periods, period_vp,
    # side_bonus_vp, tiebreak_period, sides (each with its three slots).
    data = models.JSONField()
    # Offered in the lobby (an organizer may keep a board without offering it).
    offered = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def board_data(self) -> dict:
        """The board as the engine takes it (plain data, checked): id and name from the row."""
        return board_to_dict(board_from_dict({**self.data, "id": self.slug, "name": self.name}))

    def clean(self):
        if not isinstance(self.data, dict):
            raise ValidationError({"data": "The board data is a JSON object (see boards.yaml)."})
        data = {k: v for k, v in self.data.items() if k not in ("id", "name")}
        try:
            board_from_dict({**data, "id": self.slug or "board", "name": self.name})
        except ConfigError as exc:
            raise ValidationError({"data": str(exc)}) from exc
        self.data = data


def board_row_data(board: dict) -> dict:
    """What a Board row's `data` holds of a board in plain data (all but its id and name)."""
    return {k: v for k, v in board.items() if k not in ("id", "name")}
