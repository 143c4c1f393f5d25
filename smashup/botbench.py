"""How strong a bot is against another: seeded games with the seats rotated (``manage.py bench_bots``).

    result = bench("heuristic", "random", players=2, games=200, seed=1)
    result.bots["heuristic"].win_rate, result.bots["heuristic"].interval

Bot A plays one seat, bot B every other (at four players: A against three copies of B). Each deal
(a table of random factions from every implemented one, each faction once, and a game seed, all
derived from ``seed``) is played once per seat, bot A moving round the table, so each bot plays each
seat equally often: the number of games is rounded up to a multiple of ``players``. A win shared by
k players counts 1/k to each; a game with no winner (the engine's guard against a game where nobody
is asked anything) counts for those with the most VP. Win rates come with a 95% confidence interval
(Wilson's score interval over the games), and each bot's seconds per decision is the time spent in
its own calls (the engine's work between them is not counted). A bot that searches (the expert)
reports the iterations it made (`Budget.used`): its playouts per second over the decisions it
searched.

Plain Python over the engine's public contract (``new_game``, ``pending``, ``apply``) and the bots of
``smashup.botregistry``: a bot added there can be benched at once.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from smashup.botregistry import BOTS, Budget
from smashup.engine import REGISTRY, new_game
from smashup.engine import rng as engine_rng
from smashup.engine.turns import winners

MODES = ("standard", "bigbase")
# A game that has not ended after this many choices is an error (a hang), never a result.
MAX_CHOICES = 20_000
Z95 = 1.959964


class BenchError(Exception):
    """Bad arguments, or a game that did not end."""


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a proportion (successes may be fractional: shared wins)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class BotFigures:
    """One side of the bench: bot A (one seat) or bot B (every other seat)."""

    name: str
    seats_per_game: int
    wins: float = 0.0
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    vp: int = 0
    wins_by_seat: dict = field(default_factory=dict)
    iterations: int = 0  # a searching bot's iterations (playouts), over all its decisions
    search_seconds: float = 0.0  # the seconds of the decisions it searched

    @property
    def playouts_per_second(self) -> float:
        return self.iterations / self.search_seconds if self.search_seconds else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def seconds_per_decision(self) -> float:
        return self.seconds / self.decisions if self.decisions else 0.0


@dataclass
class BenchResult:
    a: BotFigures
    b: BotFigures
    players: int
    mode: str
    seed: int
    games: int = 0
    turns: int = 0
    choices: int = 0
    seconds: float = 0.0

    @property
    def average_turns(self) -> float:
        return self.turns / self.games if self.games else 0.0

    def as_dict(self) -> dict:
        def side(figures: BotFigures) -> dict:
            low, high = figures.interval
            out = asdict(figures)
            out.update(
                win_rate=round(figures.win_rate, 4),
                ci95=[round(low, 4), round(high, 4)],
                fair_share=round(figures.seats_per_game / self.players, 4),
                seconds_per_decision=round(figures.seconds_per_decision, 6),
                playouts_per_second=round(figures.playouts_per_second, 1),
                search_seconds=round(figures.search_seconds, 3),
                wins=round(figures.wins, 3),
                seconds=round(figures.seconds, 3),
            )
            return out

        return {
            "players": self.players,
            "mode": self.mode,
            "seed": self.seed,
            "games": self.games,
            "average_turns": round(self.average_turns, 2),
            "choices": self.choices,
            "seconds": round(self.seconds, 2),
            "a": side(self.a),
            "b": side(self.b),
        }


def deals(seed: int, count: int, players: int, mode: str, factions: list[str]):
    """The (config, game seed) of each deal, from `seed` alone: the same tables on any machine."""
    pool = sorted(factions)
    for i in range(count):
        game_seed = engine_rng.derived_secret(f"bench_bots:{seed}:{mode}:{players}:{i}")
        dealt = engine_rng.stream(game_seed, "bench:factions").sample(pool, 2 * players)
        config = {
            "players": [
                {"name": f"Seat {s + 1}", "factions": dealt[2 * s : 2 * s + 2], "bot": None}
                for s in range(players)
            ],
            "specials": "fast",
            "base_sets": "all",
        }
        if mode != "standard":
            config["mode"] = mode
        yield config, game_seed


@dataclass
class Searched:
    """What the searching bots of one game did, per seat: iterations, and the seconds of the
    decisions where they made any."""

    iterations: list[int]
    seconds: list[float]


def play(
    config: dict,
    game_seed: str,
    lineup: list[str],
    bots: dict,
    budget: Callable[[], Budget | None],
    searched: Searched | None = None,
) -> tuple[object, list[int], list[float]]:
    """One game with `lineup[seat]` playing each seat. Returns the finished game, each seat's
    decisions and each seat's seconds spent choosing (and notes the searches in `searched`)."""
    game = new_game(config, game_seed)
    rngs = [engine_rng.stream(game_seed, f"bench:bot:{seat}") for seat in range(len(lineup))]
    choosers = [bots[name] for name in lineup]
    decisions = [0] * len(lineup)
    spent = [0.0] * len(lineup)
    while game.pending is not None:
        if len(game.choices) >= MAX_CHOICES:
            raise BenchError(
                f"a game ({lineup}, seed {game_seed[:12]}…) did not end in {MAX_CHOICES} choices"
            )
        decision = game.pending
        seat = decision.seat
        given = budget()
        started = time.perf_counter()
        ids = choosers[seat](game, seat, rngs[seat], given)
        took = time.perf_counter() - started
        spent[seat] += took
        decisions[seat] += 1
        if searched is not None and given is not None and given.used:
            searched.iterations[seat] += given.used
            searched.seconds[seat] += took
        game.apply(seat, decision.id, ids)
    return game, decisions, spent


def bench(
    a: str,
    b: str,
    *,
    players: int = 2,
    games: int = 20,
    mode: str = "standard",
    seed: int = 0,
    bots: dict | None = None,
    factions: list[str] | None = None,
    budget: Callable[[], Budget | None] = lambda: None,
    progress: Callable[[BenchResult], None] | None = None,
) -> BenchResult:
    """Play about `games` games of bot `a` against `players - 1` copies of bot `b` (see the module's
    docstring). `budget` makes each decision's Budget (None: the bots' own defaults). `progress` is
    called after each game."""
    bots = BOTS if bots is None else bots
    for name in (a, b):
        if name not in bots:
            raise BenchError(f"unknown bot {name!r}; the bots are {', '.join(sorted(bots))}")
    if not 2 <= players <= 4:
        raise BenchError("a game has 2 to 4 players")
    if games < 1:
        raise BenchError("play at least one game")
    if mode not in MODES:
        raise BenchError(f"the modes are {', '.join(MODES)}")
    if factions is None:
        import smashup.cards  # noqa: F401  (fills the registry)

        factions = sorted(REGISTRY.factions)
    result = BenchResult(BotFigures(a, 1), BotFigures(b, players - 1), players, mode, seed)
    started = time.perf_counter()
    rounds = -(-games // players)  # each deal once per seat of bot A
    for config, game_seed in deals(seed, rounds, players, mode, factions):
        for a_seat in range(players):
            lineup = [a if seat == a_seat else b for seat in range(players)]
            searched = Searched([0] * players, [0.0] * players)
            game, decisions, spent = play(config, game_seed, lineup, bots, budget, searched)
            won = winners(game)
            result.games += 1
            result.turns += game.turn
            result.choices += len(game.choices)
            for seat in range(players):
                side = result.a if seat == a_seat else result.b
                side.decisions += decisions[seat]
                side.seconds += spent[seat]
                side.iterations += searched.iterations[seat]
                side.search_seconds += searched.seconds[seat]
                side.vp += game.players[seat].vp
                if seat in won:
                    side.wins += 1 / len(won)
                    side.wins_by_seat[seat] = side.wins_by_seat.get(seat, 0) + 1 / len(won)
            result.a.games = result.b.games = result.games
            if progress is not None:
                progress(result)
    result.seconds = time.perf_counter() - started
    return result


def report_lines(result: BenchResult) -> list[str]:
    """The result for people, a line per bot."""
    lines = [
        f"{result.games} games, {result.players} players, {result.mode}, seed {result.seed}: "
        f"{result.average_turns:.1f} turns a game on average, {result.seconds:.1f} s in all"
    ]
    for side, label in ((result.a, "A"), (result.b, "B")):
        low, high = side.interval
        copies = f" ({side.seats_per_game} seats)" if side.seats_per_game > 1 else ""
        lines.append(
            f"  {label} {side.name}{copies}: wins {side.win_rate:.1%} "
            f"(95% CI {low:.1%}-{high:.1%}; an even share {side.seats_per_game / result.players:.0%}), "
            f"{side.vp / max(1, result.games * side.seats_per_game):.1f} VP a seat, "
            f"{side.seconds_per_decision * 1000:.2f} ms a decision over {side.decisions} decisions"
            + (f", {side.playouts_per_second:.0f} playouts/s" if side.iterations else "")
        )
    return lines
