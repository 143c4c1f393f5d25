"""The summaries a player reads at the top of the game: what the others did since their last turn
(grouped by turn from the log) and what each base scoring gave (standard and Big Base).
"""

from __future__ import annotations

import re

# The engine starts each turn's log with "Turn N: Name." (Big Base: "Turn N (round R of period P):
# Name."): the panel "since your last turn" groups the lines by these.
TURN_START = re.compile(r"^Turn \d+\b")
SINCE_LINES = 14  # lines shown of one player's turn; the rest is in the game log


def since_last_turn(game, seat: int | None, current: int, names: dict) -> dict | None:
    """When it is `seat`'s turn: what each other player did since `seat`'s previous turn, as the log
    lines `seat` may read (public ones and those addressed to it), grouped by turn. None when it is
    not `seat`'s turn or nothing happened in between (the first turn of the game)."""
    if seat is None or current != seat:
        return None
    by_name: dict[str, int | None] = {}
    for s, name in names.items():
        by_name[name] = None if name in by_name else s  # a name two players share names nobody
    lines = [text for text, to in game.log_lines if to is None or seat in to]
    starts = []  # (position, seat whose turn it is)
    for i, text in enumerate(lines):
        if TURN_START.match(text):
            who = text.rsplit(": ", 1)[-1].removesuffix(".")
            starts.append((i, by_name.get(who)))
    if not starts or starts[-1][1] != seat:
        return None
    mine = [k for k, (_, s) in enumerate(starts[:-1]) if s == seat]
    first = mine[-1] + 1 if mine else 0
    turns = []
    for k in range(first, len(starts) - 1):
        at, who = starts[k]
        body = lines[at + 1 : starts[k + 1][0]]
        turns.append(
            {
                "seat": who,
                "name": names.get(who, "") if who is not None else lines[at],
                "turn": lines[at].rsplit(": ", 1)[0],  # "Turn 14" (Big Base: with its round)
                "lines": body[:SINCE_LINES],
                "more": max(0, len(body) - SINCE_LINES),
            }
        )
    if not turns:
        return None
    return {"key": f"{game.turn}", "turns": turns}


SCORINGS_SHOWN = 3  # the most recent scorings a page summarises at once


def scoring_summaries(game, view: dict, seat: int | None, names: dict, texts: dict) -> list[dict]:
    """The base scorings to sum up for `seat`: those since its last choice (the one that set them
    off included), or for a spectator those of this turn and the last. Each: the base, its VP row,
    the ranking (place, power, the minions that made it, VP and the cards that changed them).
    Built from the engine's public record of scorings (`Game.base_scorings`, Big Base: the board's
    last scoring) and names: what anyone at the table saw, never a hidden card."""
    big = view.get("big_base")
    if big is not None:
        return _board_scoring(game, big, seat, names)
    scorings = game.base_scorings
    if not scorings:
        return []
    if seat is not None:
        last_mine = max((i for i, c in enumerate(game.choices) if c[0] == seat), default=-1)
        recent = [sc for sc in scorings if sc["choices"] > last_mine]
    else:
        recent = [sc for sc in scorings if sc["turn"] >= game.turn - 1]
    summaries = []
    for sc in recent[-SCORINGS_SHOWN:]:
        base_name = game.defs[sc["base"]].name
        rows = []
        for key, power in sc["powers"].items():
            s = int(key)
            rows.append(
                {
                    "seat": s,
                    "name": names.get(s, ""),
                    "is_me": s == seat,
                    "place": sc["places"].get(key),
                    "power": power,
                    "vp": sc["awards"].get(key, 0),
                    "minions": [
                        {"name": game.defs[m].name, "power": p} for m, p in sc["minions"].get(key, [])
                    ],
                    "changes": [
                        {"name": game.defs[card].name, "amount": amount}
                        for card, amount in sc["vp_changes"].get(key, [])
                    ],
                }
            )
        rows.sort(key=lambda r: (r["place"] or 9, -r["power"], r["seat"]))
        summaries.append(
            {
                "key": f"b{sc['choices']}-{sc['base']}",
                "title": f"{base_name} scored",
                "base_name": base_name,
                "base_text": texts.get(base_name, ""),
                "turn": sc["turn"],
                "vp_row": sc["vp"],
                "rows": rows,
            }
        )
    return summaries


def _board_scoring(game, big: dict, seat: int | None, names: dict) -> list[dict]:
    """Big Base: the board's last scoring, from the moment it scores (the end of the round goes on:
    draws, discards) through the first round after it (the display keeps its own; the page shows
    it until dismissed or the player's next choice)."""
    last = big.get("last_scoring")
    if last is None or not game.scorings:
        return []
    this_period = (big["period"], big["tiebreak_round"]) == (last["period"], last.get("tiebreak_round"))
    if not this_period and big["round"] != 1:
        return []
    period = (
        f"tie-break round {last['tiebreak_round']}"
        if last.get("tiebreak_round")
        else f"period {last['period']}"
    )
    rows = []
    for key, power in last["powers"].items():
        s = int(key)
        rows.append(
            {
                "seat": s,
                "name": names.get(s, ""),
                "is_me": s == seat,
                "place": last["places"].get(key),
                "power": power,
                "vp": last["vp"].get(key, 0) + last["side_bonus"].get(key, 0),
                "bonus": last["side_bonus"].get(key, 0),
                "minions": [],
                "changes": [],
            }
        )
    rows.sort(key=lambda r: (r["place"] or 9, -r["power"], r["seat"]))
    return [
        {
            "key": f"p{len(game.scorings)}",
            "title": f"The Big Base scored ({period})",
            "base_name": "",
            "base_text": "",
            "turn": None,
            "vp_row": big["vp_table"],
            "rows": rows,
        }
    ]
