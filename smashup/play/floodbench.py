"""The measuring parts of ``manage.py bench_bot_flood`` (issue 28): how long a person waits for a bot
while someone floods the site with new tables. No Django here, so the rules are tested without a
server.

``BotWaits`` follows one person's game socket (JSON mode): each state says the game's version and whose
decision is open. When a bot's decision is open, the person waits; the wait ends at the first state
with a newer version (the bot's answer, visible on the person's page). A wait starts when the person
sent the choice that handed the decision to the bot (so it holds what a person feels: their choice
stored, the bot's delay, the bot's turn in the worker's queue, its move, the page told), or, for a
bot's decision that follows another bot's, when the earlier answer was seen.

``flood_form`` is what each flood attempt posts to the lobby: a table of bots only (``bots``), or
(``timed``) one person seat that its creator takes and never plays, three bots and the shortest turn
timer, so the bot plays that seat too at each timeout.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .loadtest import percentile

FLOOD_KINDS = ("bots", "timed")


def flood_form(kind: str, turn_seconds: int = 10) -> dict[str, str]:
    """The lobby POST (without its CSRF token) of one flood attempt of `kind`."""
    form = {"base_sets": "factions", "specials": "fast", "factions_mode": "random", "mode": "standard"}
    if kind == "bots":
        form.update({f"seat{i}_kind": "bot" for i in range(4)})
    elif kind == "timed":
        form.update(seat0_kind="person", seat1_kind="bot", seat2_kind="bot", seat3_kind="bot")
        form.update(sit="on", your_name="Flood", turn_seconds=str(turn_seconds))
    else:
        raise ValueError(f"a flood attempt is one of {FLOOD_KINDS}, not {kind!r}")
    return form


def person_form(bots: int, name: str = "Ada") -> dict[str, str]:
    """The lobby's "Play against bots" POST: the person seated at seat 1 against `bots` bots."""
    return {
        "bots": str(bots),
        "your_name": name,
        "seat0_kind": "person",
        "seat1_kind": "bot",
        "seat2_kind": "none",
        "seat3_kind": "none",
        "base_sets": "factions",
        "specials": "fast",
    }


@dataclass
class BotWaits:
    """The waits of one seat (`seat`) for the bots of its game, from the states its socket receives
    (`seen`) and the choices it sends (`sent`). `clock` is injectable for tests."""

    seat: int
    clock: Callable[[], float] = time.perf_counter
    waits_ms: list[float] = field(default_factory=list)
    stamps: list[float] = field(default_factory=list)  # when each wait ended (clock time)
    _sent_at: dict[int, float] = field(default_factory=dict)  # version answered -> when
    _waiting: tuple[int, float] | None = None  # (version whose bot decision is open, since)
    version: int = -1

    def sent(self, version: int) -> None:
        """The person answered the decision open at `version`."""
        self._sent_at[version] = self.clock()

    def seen(self, version: int, deciding: int | None, bot_seats: set[int]) -> None:
        """A state at `version` arrived, the decision open being seat `deciding`'s (None: none)."""
        if version <= self.version:
            return  # an older or repeated state says nothing new
        now = self.clock()
        self.version = version
        if self._waiting is None:
            # The bot answered before its open decision was shown: with one person at the table,
            # a version two past the person's own choice is a bot's answer.
            skipped = [t for v, t in self._sent_at.items() if v < version - 1]
            if skipped:
                self._waiting = (version - 1, max(skipped))
        if self._waiting is not None and version > self._waiting[0]:
            self.waits_ms.append((now - self._waiting[1]) * 1000.0)
            self.stamps.append(now)
            self._waiting = None
        if deciding is not None and deciding in bot_seats and deciding != self.seat:
            # Since the person's own choice that led here, else since this state (a bot after a bot).
            since = max((t for v, t in self._sent_at.items() if v < version), default=now)
            self._waiting = (version, since)
        self._sent_at = {v: t for v, t in self._sent_at.items() if v >= version}

    @property
    def waiting_since(self) -> float | None:
        return None if self._waiting is None else self._waiting[1]


def wait_summary(waits_ms: list[float]) -> dict:
    """Count, median, p95 and max of some waits, in ms (None when there are none)."""

    def rounded(value):
        return None if value is None else round(value, 1)

    return {
        "count": len(waits_ms),
        "p50": rounded(percentile(waits_ms, 50)),
        "p95": rounded(percentile(waits_ms, 95)),
        "max": rounded(max(waits_ms) if waits_ms else None),
    }
