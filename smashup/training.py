"""What the profile-guided build of the engine learns from (smashup/engine/native.py `build`):
`train` runs in a fresh process on the build that counts which code runs, and the compiler then
lays the code out for what it saw. Outside the engine, since it trains the tournament pairing's
compiled modules too (the engine imports no app); no Django either."""
from __future__ import annotations


def train() -> None:
    """What the profile-guided build learns from: what a server runs most. Random and heuristic
    bots' games of every faction at 2-4 players, checked ones (views, digests, invariants), Big
    Base games, a replay, and the pairing of a drafted event. Seeded, a few seconds."""
    import bigbase.rules  # noqa: F401  (every module of BUILT imported, to check they run compiled)
    import smashup.cards  # noqa: F401
    import smashup.engine.bots  # noqa: F401
    import tournaments.pairing.kernel  # noqa: F401
    from smashup.engine import native
    from smashup.engine.setup import replay
    from smashup.engine.simulate import factions_of_sets, simulate
    from tournaments.pairing.bench import run_bench

    running = native.status(native.BUILT)
    if set(running.values()) != {"compiled"}:
        raise RuntimeError("the training run did not load the counting build: "
                           + ", ".join(m for m, kind in running.items() if kind != "compiled"))
    factions = factions_of_sets(None)
    simulate(60, [2, 3, 4], 1, factions=factions, check=False)
    simulate(6, [2, 3, 4], 2, factions=factions, check=True)
    simulate(4, 4, 3, bots="heuristic", factions=factions, check=False)
    record = simulate(3, 4, 4, factions=factions, check=False, keep_record=True)["record"]
    replay(record)
    simulate(8, 4, 5, factions=factions, check=False, mode="bigbase")
    run_bench(64, 4, faction_copies=2, seed=1)
    run_bench(256, 3, seed=2)
