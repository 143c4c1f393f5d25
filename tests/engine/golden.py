"""Golden games: seeded bot games whose every step is written down, so a change meant to keep
behaviour (a speed change, a refactor) is checked against what the engine did before it.

Each table is played live from its seed by its bots. What is written per game: every choice
made, the state hash every CHECKPOINT choices, and a hash of the words at the same checkpoints
(each question's prompt and option labels, `alike` marks, every log line, and every
VIEW_EVERY choices the public view and each seat's private view). The test replays the tables
and names the first choice that differs, or the first checkpoint whose state or words differ.

A change that is meant to change games (a rules fix, a new card) rewrites the file:

    python -m tests.engine.golden --write

and the diff of tests/engine/fixtures/golden_games.json shows which games it changed.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import smashup.cards  # noqa: F401  (fills REGISTRY)
from smashup.engine.bots import BOTS
from smashup.engine.registry import REGISTRY
from smashup.engine.setup import new_game
from smashup.engine.simulate import MAX_CHOICES, bot_streams, tables

FIXTURE = Path(__file__).parent / "fixtures" / "golden_games.json"
CHECKPOINT = 10
VIEW_EVERY = 50
# Every base set, named: "all" would also take a test-only set registered in REGISTRY.
BASE_SETS = ["core", "wwwt", "iyf"]


def _factions(*sets: str) -> list[str]:
    """Named from the catalog's boxes, so a test-only faction never joins a golden table."""
    return sorted(name for name, f in REGISTRY.factions.items() if f.set in sets)


def golden_tables() -> list[tuple[str, dict, str]]:
    """(name, config, seed) of every golden game: Core mixes at 2, 3 and 4 players, mixes of all
    three boxes, heuristic bots, Specials asked of everyone, and Big Base."""
    core = _factions("core")
    every = _factions("core", "wwwt", "iyf")
    groups = [
        ("core-random", dict(games=3, counts=[2, 3, 4], seed=1, bots="random", factions=core)),
        ("all-random", dict(games=4, counts=[4, 3], seed=2, bots="random", factions=every)),
        ("all-heuristic-ask", dict(games=2, counts=[4, 2], seed=3, bots="heuristic",
                                   factions=every, specials="ask")),
        ("all-random-ask", dict(games=2, counts=[3, 4], seed=4, bots="random", factions=every,
                                specials="ask")),
        ("bigbase", dict(games=2, counts=[4, 3], seed=5, bots="random", factions=every,
                         mode="bigbase")),
    ]
    found = []
    for name, kw in groups:
        for i, (config, seed) in enumerate(tables(**kw)):
            found.append((f"{name}-{i}", {**config, "base_sets": BASE_SETS}, seed))
    return found


def _words_of(game, decision) -> str:
    options = [(o.id, o.label, o.alike) for o in decision.options]
    return repr((decision.prompt, decision.intent, decision.subject, options))


def play(config: dict, seed: str) -> dict:
    """Play one golden table live: its choices, and the state and words hashes at each
    checkpoint (after choice CHECKPOINT, 2 x CHECKPOINT... and after the last one)."""
    game = new_game(config, seed)
    rngs = bot_streams(seed, len(game.players))
    choosers = [BOTS[p["bot"] or "random"] for p in game.config["players"]]
    words = hashlib.blake2b(digest_size=12)
    choices, states, said = [], [], []
    logged = len(game.log_lines)
    for text, to in game.log_lines:
        words.update(repr((text, to)).encode())
    while game.pending is not None and len(choices) < MAX_CHOICES:
        decision = game.pending
        words.update(_words_of(game, decision).encode())
        ids = choosers[decision.seat](game, rngs[decision.seat])
        game.apply(decision.seat, decision.id, ids)
        choices.append([decision.seat, decision.id, list(ids)])
        for text, to in game.log_lines[logged:]:
            words.update(repr((text, to)).encode())
        logged = len(game.log_lines)
        if len(choices) % VIEW_EVERY == 0 or game.pending is None:
            views = [game.public_view()] + [game.private_view(s) for s in range(len(game.players))]
            words.update(json.dumps(views, sort_keys=True, default=str).encode())
        if len(choices) % CHECKPOINT == 0 or game.pending is None:
            states.append(game.digest())
            said.append(words.hexdigest())
    return {"choices": choices, "states": states, "words": said,
            "result": [game.winner, [p.vp for p in game.players]]}


def first_difference(expected: dict, now: dict) -> str | None:
    """Where a replayed golden game first parts from the written one, in words; None if never."""
    for i, (was, is_) in enumerate(zip(expected["choices"], now["choices"], strict=False)):
        if was != is_:
            return f"choice {i + 1}: written {was}, now {is_}"
    if len(expected["choices"]) != len(now["choices"]):
        return (f"the game ended after {len(now['choices'])} choices, "
                f"written {len(expected['choices'])}")
    for label in ("states", "words"):
        for i, (was, is_) in enumerate(zip(expected[label], now[label], strict=True)):
            if was != is_:
                upto = min((i + 1) * CHECKPOINT, len(now["choices"]))
                return f"{label} differ by choice {upto} (checkpoint {i + 1})"
    if expected["result"] != now["result"]:
        return f"result: written {expected['result']}, now {now['result']}"
    return None


def write() -> None:
    games = {name: {"config": config, "seed": seed, **play(config, seed)}
             for name, config, seed in golden_tables()}
    FIXTURE.write_text(json.dumps({"about": __doc__.split("\n\n")[0], "games": games},
                                  separators=(",", ":")) + "\n")
    print(f"wrote {len(games)} golden games, "
          f"{sum(len(g['choices']) for g in games.values())} choices, to {FIXTURE}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.engine.golden --write")
    write()
