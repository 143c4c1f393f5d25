"""The server's bots by name, and what a bot is given to think with (plain Python, no Django).

    choose = BOTS["heuristic"]
    ids = choose(game, seat, rng, Budget(seconds=1.0, cancelled=lambda: False))

A bot is a callable ``(game, seat, rng, budget) -> option ids`` answering ``game.pending``, which is
``seat``'s decision. Live play (smashup/play/bots.py), ``manage.py bench_bots`` (smashup/botbench.py)
and the lobby's difficulty levels all read ``BOTS``; a new bot is one more entry (``register``).

A bot that searches (the expert, smashup/engine/expert.py) spends its ``Budget``: a time budget, an
iteration cap for tests, and a cancel check. Live play's cancel check reads the game's row (has the decision
been answered elsewhere: time called, a staff member ended the game, a duplicate task?), so the
search asks ``budget.stop(iteration)`` in its loop, which looks at the clock every iteration and at
the cancel check every ``check_every`` iterations, and raises ``Cancelled`` when the decision is
gone: the caller then leaves nothing behind. The quick bots answer at once and never look.

Difficulty levels (``LEVELS``) name a bot each; a level is offered only while its bot is in
``BOTS``: "hard" names "expert", registered here when the engine can re-deal a game from one
seat's view (`Game.determinize`, which its search plays on); without it no page offers "hard".
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from smashup.engine.bots import heuristic_choice, random_choice


class Cancelled(Exception):
    """The decision a bot was thinking about was answered elsewhere: drop the thought."""


@dataclass
class Budget:
    """What a bot may spend on one decision. `seconds`: its thinking time (None: no limit);
    `iterations`: a cap for tests and benches (None: none); `cancelled`: whether the decision has
    been answered elsewhere, asked every `check_every` iterations (it may read a database)."""

    seconds: float | None = None
    iterations: int | None = None
    cancelled: Callable[[], bool] = field(default=lambda: False)
    check_every: int = 32
    started: float = field(default_factory=time.monotonic)
    # The iterations the search made: the last `stop` asked about (bench_bots' playouts per second).
    used: int = 0

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def check(self) -> None:
        """Raise Cancelled if the decision was answered elsewhere."""
        if self.cancelled():
            raise Cancelled

    def stop(self, iteration: int) -> bool:
        """For a search loop, before iteration `iteration` (0 first): True when the budget is spent
        (time or iterations); raises Cancelled when the decision is gone (checked every
        `check_every` iterations, the first included)."""
        self.used = iteration
        if iteration % max(1, self.check_every) == 0:
            self.check()
        if self.iterations is not None and iteration >= self.iterations:
            return True
        return self.seconds is not None and iteration > 0 and self.elapsed() >= self.seconds


Bot = Callable[..., list]  # (game, seat, rng, budget) -> option ids

# A searching bot's thinking time per decision when its table says nothing else (issue 25: 1 s by
# default; a table may set 0.3 to 5 s).
DEFAULT_THINK_SECONDS = 1.0
THINK_SECONDS_RANGE = (0.3, 5.0)


def random_bot(game, seat: int, rng: random.Random, budget: Budget | None = None) -> list[str]:
    return random_choice(game, rng)


def heuristic_bot(game, seat: int, rng: random.Random, budget: Budget | None = None) -> list[str]:
    return heuristic_choice(game, rng)


# The easy bot's share of uniformly random answers (the rest are the heuristic bot's). Measured with
# bench_bots (README "Bots"): it loses to the heuristic bot most of the time, yet it plays its
# cards towards bases, so a beginner learns the game against it rather than against nonsense.
EASY_RANDOM_SHARE = 0.4


def easy_bot(game, seat: int, rng: random.Random, budget: Budget | None = None) -> list[str]:
    """The heuristic bot that, at a share of its decisions, picks at random instead."""
    if rng.random() < EASY_RANDOM_SHARE:
        return random_choice(game, rng)
    return heuristic_choice(game, rng)


def expert_bot(game, seat: int, rng: random.Random, budget: Budget | None = None) -> list[str]:
    """The expert bot (smashup/engine/expert.py): a search over games re-dealt from the seat's view,
    within `budget`; a budget with neither a time nor an iteration cap thinks for
    DEFAULT_THINK_SECONDS (the search would not end)."""
    from smashup.engine.expert import expert_choice

    if budget is None:
        budget = Budget(seconds=DEFAULT_THINK_SECONDS)
    elif budget.seconds is None and budget.iterations is None:
        budget = replace(budget, seconds=DEFAULT_THINK_SECONDS)
    return expert_choice(game, seat, rng, budget)


BOTS: dict[str, Bot] = {"random": random_bot, "easy": easy_bot, "heuristic": heuristic_bot}


def register(name: str, bot: Bot) -> None:
    """Add a bot under `name` (at most 16 characters: a seat row stores it)."""
    if not name or len(name) > 16:
        raise ValueError("a bot's name has 1 to 16 characters")
    BOTS[name] = bot


def expert_available() -> bool:
    """Whether the engine can re-deal a game from one seat's view (`Game.determinize`), which the
    expert's search plays on: it never reads the real game's hidden cards."""
    from smashup.engine import Game

    return callable(getattr(Game, "determinize", None))


if expert_available():
    register("expert", expert_bot)


# ---------------------------------------------------------------------------------- levels ------
@dataclass(frozen=True)
class Level:
    key: str  # what a form sends
    label: str
    bot: str  # the BOTS entry it plays with
    blurb: str


LEVELS = (
    Level("easy", "Easy", "easy", "plays its cards, but often carelessly"),
    Level("normal", "Normal", "heuristic", "plays to win bases"),
    Level("hard", "Hard", "expert", "thinks ahead about what you may hold"),
)
DEFAULT_LEVEL = "normal"


def offered_levels(bots: dict | None = None) -> list[Level]:
    """The levels whose bot exists (the lobby offers these and refuses the others)."""
    bots = BOTS if bots is None else bots
    return [level for level in LEVELS if level.bot in bots]


def level_bot(key: str, bots: dict | None = None) -> str | None:
    """The bot of the level `key`, or None when no such level is offered."""
    return next((level.bot for level in offered_levels(bots) if level.key == key), None)


def bot_level(bot: str) -> Level | None:
    """The level that plays with `bot` (None: a bot no level names, such as "random")."""
    return next((level for level in LEVELS if level.bot == bot), None)


# The engine's config names a seat's bot too, and accepts only the bots it knows (engine
# normalize_config): any other bot of ours is a "heuristic" seat there. The engine does nothing with
# the name (it only marks the seat a bot's); live play keeps the bot it really runs in the table's
# settings (smashup/play/tables.py, `table_bot`).
ENGINE_BOTS = ("random", "heuristic")


def engine_bot(name: str | None) -> str | None:
    if name is None:
        return None
    return name if name in ENGINE_BOTS else "heuristic"
