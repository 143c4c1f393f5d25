"""Pairing players into tables: pure functions over plain data (no Django).

    from tournaments.pairing import Player, PastRound, PairingOptions, pair_round
    pairing = pair_round(players, history, round_number=3, seed="event-42")
    pairing.seats()      # [[player ids in seat order], ...], table 1 first
    pairing.lines()      # the cost of every table explained

Modules: layout (table sizes), context (inputs, weights, options, the history counted once), cost
(a table's cost and its explanation), local (standings cut, repair, tabu search), exact (branch and
bound for small events), matching (1v1 by maximum-weight matching), seats (seat order within a
table), rounds (pair_round, evaluate, check_swap), bounds (lower bounds of repeats), bench (the
simulation behind `manage.py bench_pairing`).

kernel (the tabu step of a small event as loops), local, bounds and cost run compiled where the
project's build is there (`manage.py compile_engine`, smashup/engine/native.py OTHER_MODULES): the
same pairings, about twice as fast in the slowest rounds (issue 27).
"""

# The engine package installs the compiled build's finder (smashup/engine/native.py): imported
# before any module of the pairing, so that those built are served compiled where fresh.
import smashup.engine  # noqa: F401  isort: skip

from tournaments.pairing.context import PairingOptions, PastRound, Player, Weights
from tournaments.pairing.cost import ByeReport, TableReport
from tournaments.pairing.layout import Layout, round_layout
from tournaments.pairing.rounds import Pairing, SwapCheck, check_swap, evaluate, pair_round

__all__ = [
    "ByeReport",
    "Layout",
    "Pairing",
    "PairingOptions",
    "PastRound",
    "Player",
    "SwapCheck",
    "TableReport",
    "Weights",
    "check_swap",
    "evaluate",
    "pair_round",
    "round_layout",
]
