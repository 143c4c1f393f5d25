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
"""

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
