"""Seeded bot games with every invariant checked after every step: the engine's safety net.

`simulate(...)` is a plain function; `manage.py simulate` only parses arguments and prints. Games use
the keyed generator of live play (rng.py, version 2) with secrets derived from `--seed`, so a failing
game is reproducible from the command line; `rng_version=1` plays them with the old Mersenne Twister
(to compare speed).
"""
from __future__ import annotations

import gc
import hashlib
import random
import time
from collections import Counter

from . import invariants, native
from .bots import BOTS
from .core import ConfigError
from .registry import REGISTRY
from .rng import KEYED, LEGACY, derived_secret, stream, version_for
from .setup import new_game

# A game that has not ended after this many choices is reported as a violation (a hang).
MAX_CHOICES = 20_000


def game_config(rng: random.Random, players: int, factions: list[str], bots: str,
                specials: str = "fast", mode: str = "standard") -> dict:
    """Each player gets two factions from the pool, none held twice at the table (the rules: each
    faction once per game), drawn from `rng` alone so a seed gives the same table every time.
    `mode` "bigbase" plays Big Base on the default board (bigbase/rules)."""
    pool = sorted(set(factions))
    if len(pool) < 2 * players:
        raise ConfigError(f"{players} players need {2 * players} different factions; "
                          f"the pool has {len(pool)}")
    dealt = rng.sample(pool, 2 * players)
    seats = [{"name": f"Bot {i + 1}", "factions": dealt[2 * i:2 * i + 2], "bot": bots}
             for i in range(players)]
    config = {"players": seats, "specials": specials, "base_sets": "all"}
    if mode != "standard":
        config["mode"] = mode
    return config


def bot_streams(seed: int | str, seats: int) -> list[random.Random]:
    """Each seat's bot generator: a keyed stream per seat of a version 2 secret; for an int seed
    (version 1) the Mersenne Twisters that older simulations used."""
    if version_for(seed) == KEYED:
        return [stream(seed, f"simulate:bot:{seat}") for seat in range(seats)]
    return [random.Random(seed * 31 + seat) for seat in range(seats)]


def play_game(config: dict, seed: int | str, check: bool = True, track_hashes: bool = False):
    """Play one game with the bots named in its config. Returns (game, violations).
    With `track_hashes` its record carries the state hash after every choice, so a replay of it
    is checked step by step (`replay` raises ReplayMismatch at the first drift)."""
    game = new_game(config, seed, track_hashes=track_hashes)
    rngs = bot_streams(seed, len(game.players))
    choosers = [BOTS[p["bot"] or "random"] for p in game.config["players"]]
    violations = invariants.check(game) if check else []
    vp = [p.vp for p in game.players]
    while game.pending is not None and not violations:
        seat = game.pending.seat
        game.apply(seat, game.pending.id, choosers[seat](game, rngs[seat]))
        if check:
            violations = [f"seed {seed}, choice {len(game.choices)}: {v}"
                          for v in invariants.check(game, vp)]
            vp = [p.vp for p in game.players]
        if len(game.choices) >= MAX_CHOICES:
            violations.append(f"seed {seed}: no end after {MAX_CHOICES} choices")
            break
    return game, violations


def tables(games: int, counts: list[int], seed: int, bots: str, factions: list[str],
           specials: str = "fast", rng_version: int = KEYED, mode: str = "standard"):
    """The (config, game seed) of each game `simulate` plays with these arguments, in order: the
    tables alone, so a test can count what a seeded run covers without playing it."""
    master = random.Random(seed)  # version 1 only
    for i in range(games):
        if rng_version == LEGACY:
            game_seed = master.randrange(2**32)
            config_rng = random.Random(game_seed)
        else:
            game_seed = derived_secret(f"simulate:{seed}:{i}")
            config_rng = stream(game_seed, "simulate:config")
        yield (game_config(config_rng, counts[i % len(counts)], factions, bots, specials, mode),
               game_seed)


def simulate(games: int, players: int | list[int], seed: int = 0, bots: str = "random",
             factions: list[str] | None = None, check: bool = True, specials: str = "fast",
             keep_record: bool = False, rng_version: int = KEYED, mode: str = "standard") -> dict:
    """Play `games` seeded games and report counts, speed, violations and a digest of the results.

    `players` may be a list: the games cycle through it (2, 3, 4...). The digest is a hash of every
    final state, so the same arguments give the same digest on any machine.
    """
    if factions is None:
        import smashup.cards  # noqa: F401

        factions = sorted(REGISTRY.factions)
    counts = players if isinstance(players, list) else [players]
    digest = hashlib.blake2b(digest_size=16)
    wins = Counter()
    choices = 0
    violations = []
    longest = None
    repeated = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    held_in = Counter()
    for config, game_seed in tables(games, counts, seed, bots, factions, specials, rng_version, mode):
        held = [f for p in config["players"] for f in p["factions"]]
        held_in.update(set(held))
        repeated += len(set(held)) < len(held)  # a faction at two seats (the rules: once a game)
        # A kept record carries the hashes of the game as it was played, not of a later replay.
        game, problems = play_game(config, game_seed, check, track_hashes=keep_record)
        violations.extend(problems)
        choices += len(game.choices)
        if keep_record and (longest is None or len(game.choices) > len(longest["choices"])):
            longest = game.record()
        digest.update(game.digest().encode())
        if game.winner is not None:
            for faction in game.players[game.winner].factions:
                wins[faction] += 1
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu_started
    return {
        "games": games,
        "players": counts,
        "bots": bots,
        "choices": choices,
        "seconds": round(seconds, 3),
        "games_per_sec": round(games / seconds, 2) if seconds else None,
        # CPU time of this process: on a shared machine, the figure neighbours disturb least.
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_cpu_sec": round(games / cpu_seconds, 2) if cpu_seconds else None,
        "games_with_a_repeated_faction": repeated,
        "games_by_faction": dict(sorted(held_in.items())),
        "violations": len(violations),
        "violation_details": violations[:20],
        "digest": digest.hexdigest(),
        "wins_by_faction": dict(sorted(wins.items())),
        "checked": check,
        "rng": rng_version,
        "mode": mode,
        **({"record": longest} if keep_record else {}),
    }


def factions_of_sets(sets: list[str] | None = None) -> list[str]:
    """The implemented factions of these boxes ("core", "wwwt", "iyf"); all of them for None."""
    import smashup.cards  # noqa: F401

    return sorted(name for name, f in REGISTRY.factions.items() if sets is None or f.set in sets)


def long_record(choices: int = 1000, seed: int = 0, players: int = 4, rng_version: int = KEYED,
                mode: str = "standard", factions: list[str] | None = None) -> dict:
    """The record of a real game cut at `choices` choices, for timing a replay. Its bots often
    end their Play Cards phase early, so bases fill slowly and the game runs long."""
    factions = factions or factions_of_sets()
    attempt = seed
    while True:
        if rng_version == LEGACY:
            game_seed, rng = attempt, random.Random(attempt)
        else:
            game_seed = derived_secret(f"long-record:{attempt}")
            rng = stream(game_seed, "simulate:bots")
        game = new_game(game_config(rng, players, factions, "random", "ask", mode), game_seed)
        while game.pending is not None and len(game.choices) < choices:
            d = game.pending
            if d.kind == "play" and rng.random() < 0.7:
                game.apply(d.seat, d.id, ["end"])
            else:
                game.apply(d.seat, d.id, BOTS["random"](game, rng))
        if len(game.choices) >= choices:
            return game.record()
        if mode != "standard" and game.over:
            # A Big Base game ends after its periods, often before `choices`: a whole game is
            # timed then (the bench reports how many choices it replays).
            return game.record()
        attempt += 1


def bench(games: int = 200, players: int = 4, seed: int = 0, repeats: int = 3,
          rng_version: int = KEYED, mode: str = "standard", sets: list[str] | None = None) -> dict:
    """Engine figures for the notes: games/s unchecked and checked, and the replay time of a
    1,000-choice game (medians; compare figures from one run, the machine is shared).
    `rng_version` 1 plays the same with the old Mersenne Twister, to compare the generators."""
    from statistics import median

    from .setup import replay

    factions = factions_of_sets(sets)
    unchecked = [simulate(games, players, seed, factions=factions, check=False,
                          rng_version=rng_version, mode=mode) for _ in range(repeats)]
    checked = simulate(max(games // 10, 5), players, seed, factions=factions,
                       rng_version=rng_version, mode=mode)
    record = long_record(1000, seed, players, rng_version, mode, factions)
    # The same game with its state hash after every choice, as live play stores it: restoring
    # such a record checks every hash.
    hashed = replay({**record, "choices": []})
    hashed.track_hashes = True
    for choice in record["choices"]:
        hashed.apply(*choice)
    hashed = hashed.record()
    times, cpu_times, hashed_times = [], [], []
    for _ in range(max(repeats * 7, 20)):
        started, cpu_started = time.perf_counter(), time.process_time()
        replay(record)
        times.append((time.perf_counter() - started) * 1000)
        cpu_times.append((time.process_time() - cpu_started) * 1000)
    for _ in range(max(repeats, 3)):
        cpu_started = time.process_time()
        replay(hashed)
        hashed_times.append((time.process_time() - cpu_started) * 1000)
    return {
        "players": players,
        # "compiled" when the engine's hot modules run compiled (native.py), else "python".
        "engine": native.engine_build(),
        # Objects the process froze out of the cycle collector at start-up (a Django process
        # does: smashup/core/apps.py); 0 in a bare one. The figures depend on it (~10%).
        "frozen_at_start_up": gc.get_freeze_count(),
        # After how many more live containers the collector walks its young generation (a Django
        # process raises Python's 700 to smashup.core.apps.YOUNG_GENERATION_THRESHOLD: ~9%).
        "young_generation_threshold": gc.get_threshold()[0],
        "rng": rng_version,
        "mode": mode,
        "factions": len(factions),
        "games_per_sec_unchecked": median(r["games_per_sec"] for r in unchecked),
        "games_per_cpu_sec_unchecked": median(r["games_per_cpu_sec"] for r in unchecked),
        "games_per_sec_checked": checked["games_per_sec"],
        "games_per_cpu_sec_checked": checked["games_per_cpu_sec"],
        "choices_per_game": round(unchecked[0]["choices"] / games, 1),
        "games_with_a_repeated_faction": unchecked[0]["games_with_a_repeated_faction"],
        "replay_choices": len(record["choices"]),
        "replay_ms_median": round(median(times), 2),
        "replay_ms_max": round(max(times), 2),
        "replay_cpu_ms_median": round(median(cpu_times), 2),
        "replay_hashed_cpu_ms_median": round(median(hashed_times), 2),
    }


def _distinct_seats(rng: random.Random, factions: list[str], players: int, bots: list[str]) -> list:
    """Seats holding two factions each, no faction twice at the table (the rules: each faction
    once per game)."""
    picked = rng.sample(factions, 2 * players)
    return [{"name": f"Bot {s + 1}", "factions": picked[2 * s:2 * s + 2], "bot": bots[s]}
            for s in range(players)]


def bot_report(games: int = 40, seed: int = 0, factions: list[str] | None = None,
               duels: int = 20, duel_players: int = 2) -> dict:
    """How the bots play, for the notes (`manage.py simulate --bot-report`):

    - `games` 4-player games of heuristic bots over random faction mixes (each faction once per
      table): the median number of turns (every player's turn counts: a real game lasts about
      40 to 50 at four players) and the median turn the first base scores;
    - duels of one heuristic bot against random bots (`duel_players` at the table, the
      heuristic seat alternating), played until each faction has been held by the heuristic
      bot in at least `duels` games: its win rate by faction (a shared win counts as a win).

    Seeded like `simulate`: the same arguments give the same figures on any machine."""
    from statistics import median

    if factions is None:
        import smashup.cards  # noqa: F401

        factions = sorted(REGISTRY.factions)
    if len(factions) < 8 or duels < 1 or not 2 <= duel_players <= 4:
        raise ValueError("the bot report needs at least 8 factions, duels >= 1 and 2 to 4 "
                         "players a duel")
    turns, first, cut = [], [], 0
    for i in range(games):
        game_seed = derived_secret(f"bot-report:{seed}:{i}")
        config = {"players": _distinct_seats(stream(game_seed, "simulate:config"), factions, 4,
                                             ["heuristic"] * 4),
                  "specials": "fast", "base_sets": "all"}
        game = new_game(config, game_seed)
        rngs = bot_streams(game_seed, 4)
        scored_at = None
        while game.pending is not None and len(game.choices) < MAX_CHOICES:
            d = game.pending
            game.apply(d.seat, d.id, BOTS["heuristic"](game, rngs[d.seat]))
            if scored_at is None and game.bases_scored:
                scored_at = game.turn
        turns.append(game.turn)
        cut += game.pending is not None
        if scored_at is not None:
            first.append(scored_at)
    played, won = Counter(), Counter()
    duel_games = 0
    while min((played[f] for f in factions), default=0) < duels:
        game_seed = derived_secret(f"bot-duel:{seed}:{duel_players}:{duel_games}")
        smart = duel_games % duel_players
        bots = ["heuristic" if s == smart else "random" for s in range(duel_players)]
        seats = _distinct_seats(stream(game_seed, "simulate:config"), factions, duel_players,
                                bots)
        game, _ = play_game({"players": seats, "specials": "fast", "base_sets": "all"},
                            game_seed, check=False)
        duel_games += 1
        winners = set(game.shared_winners) or ({game.winner} if game.winner is not None else set())
        for f in seats[smart]["factions"]:
            played[f] += 1
            won[f] += smart in winners
    return {
        "games_4p_heuristic": games,
        "median_turns_4p_heuristic": median(turns) if turns else None,
        "median_first_score_turn_4p_heuristic": median(first) if first else None,
        "turns_4p_heuristic_min_max": [min(turns), max(turns)] if turns else None,
        "games_cut_at_max_choices": cut,
        "duel_players": duel_players,
        "duel_games": duel_games,
        "heuristic_win_rate_vs_random": {
            f: {"won": won[f], "played": played[f], "rate": round(won[f] / played[f], 2)}
            for f in sorted(played)},
        "heuristic_win_rate_overall": round(
            sum(won.values()) / sum(played.values()), 2) if played else None,
    }


def bench_forks(states: int = 40, players: int = 4, seed: int = 0, repeats: int = 5,
                mode: str = "standard", sets: list[str] | None = None) -> dict:
    """Fork and determinize costs next to a random playout from the same states (issue 23), to
    size a search: mid-game states of random games (from choice 40 on, every 23rd choice), each
    restored from its record as a server restores a game (no snapshot, no knowledge yet). Per
    state, interleaved: the first fork (it makes the snapshot at the last quiet point when the
    state is not one) and the first determinize for the deciding seat (it learns what each seat
    knows, replaying the record once), then `repeats` rounds of a fork, a determinize and a
    random playout from a fork. Medians over the states (ms; per choice of the playouts, µs)."""
    from statistics import median

    from . import determinize as determinizing
    from .forks import is_quiet
    from .setup import replay

    factions = factions_of_sets(sets)
    records = []
    for config, game_seed in tables(10_000, [players], seed, "random", factions, "ask", KEYED, mode):
        game, _ = play_game(config, game_seed, check=False)
        record = game.record()
        for cut in range(40, len(record["choices"]) - 10, 23):
            records.append({**record, "choices": record["choices"][:cut]})
        if len(records) >= states:
            break
    records = records[:states]
    fell_back = [0]
    dealt_in_place = determinizing._dealt_in_place

    def counted_fallback(*args):
        fell_back[0] += 1
        return dealt_in_place(*args)

    rows = []
    determinizing._dealt_in_place = counted_fallback
    try:
        for i, record in enumerate(records):
            game = replay(record)
            quiet = is_quiet(game)
            started = time.perf_counter()
            game.fork()
            first_fork = time.perf_counter() - started
            started = time.perf_counter()
            game.determinize(game.pending.seat, random.Random(i))
            first_det = time.perf_counter() - started
            forks_, dets, playouts, per_choice = [], [], [], []
            for r in range(repeats):
                started = time.perf_counter()
                branch = game.fork()
                forks_.append(time.perf_counter() - started)
                started = time.perf_counter()
                game.determinize(game.pending.seat, random.Random(1000 * i + r))
                dets.append(time.perf_counter() - started)
                rng = random.Random(r)
                made = len(branch.choices)
                started = time.perf_counter()
                while branch.pending is not None:
                    d = branch.pending
                    branch.apply(d.seat, d.id, BOTS["random"](branch, rng))
                playouts.append(time.perf_counter() - started)
                per_choice.append(playouts[-1] / max(len(branch.choices) - made, 1))
            rows.append({"quiet": quiet, "first_fork": first_fork, "first_det": first_det,
                         "fork": median(forks_), "det": median(dets),
                         "playout": median(playouts), "per_choice": median(per_choice)})
    finally:
        determinizing._dealt_in_place = dealt_in_place

    def ms(key, which=rows):
        return round(median(r[key] for r in which) * 1000, 3) if which else None

    quiet = [r for r in rows if r["quiet"]]
    other = [r for r in rows if not r["quiet"]]
    return {
        "engine": native.engine_build(), "mode": mode, "players": players,
        "factions": len(factions), "states": len(rows), "quiet_states": len(quiet),
        "repeats": repeats,
        "fork_ms": ms("fork"), "fork_quiet_ms": ms("fork", quiet), "fork_other_ms": ms("fork", other),
        "first_fork_ms": ms("first_fork"), "first_fork_other_ms": ms("first_fork", other),
        "determinize_ms": ms("det"), "determinize_quiet_ms": ms("det", quiet),
        "determinize_other_ms": ms("det", other), "first_determinize_ms": ms("first_det"),
        "determinize_dealt_in_place": fell_back[0],
        "determinizations": len(rows) * (repeats + 1),
        "playout_ms": ms("playout"),
        "playout_us_per_choice": round(median(r["per_choice"] for r in rows) * 1e6, 1),
        "fork_per_playout": round(median(r["fork"] / r["playout"] for r in rows), 3),
        "determinize_per_playout": round(median(r["det"] / r["playout"] for r in rows), 3),
    }
