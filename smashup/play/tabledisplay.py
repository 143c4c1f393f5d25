"""What the table display adds to a spectator's view (issue 26, finding 6): the last moves in large
type, each player with their factions, and the last scoring, which stays up until the next one.

Plain functions over the display's context (`render.board_context` for seat None: only what a
spectator may see) and the engine's public log lines; no Django, no database.
"""

from __future__ import annotations

import re

MOVES_SHOWN = 3  # the last move in a large line, and the two before it

# Lines that are not moves a table follows on the big screen: the routine draw and shuffle, and the
# header of each turn (the status line says whose turn it is). Matched on the engine's words.
NOT_A_MOVE = re.compile(r"^(Turn \d+\b.*|.+ draws \d+ cards?\.|.+ shuffles (their|its) deck\.)$")
SCORES = re.compile(r"^(?P<base>.+) scores\.$")
LINES_SCORED = 12  # at most this many lines of one base's scoring


def last_moves(lines: list[str]) -> list[str]:
    """The last MOVES_SHOWN moves of `lines` (public log lines, oldest first), newest first."""
    moves = []
    for text in reversed(lines):
        if not NOT_A_MOVE.match(text):
            moves.append(text)
            if len(moves) == MOVES_SHOWN:
                break
    return moves


def last_base_scoring(lines: list[str], scored: set[str]) -> dict | None:
    """A standard game's last base scoring, from the public log: the base's name and the lines from
    "X scores." up to the base that replaces it (the VP given, the Specials played, who gained what).
    `scored`: the names in the base discard pile (a base that scored ends there), so that a card
    whose name ends in " scores" is never taken for a base."""
    for i in range(len(lines) - 1, -1, -1):
        found = SCORES.match(lines[i])
        if found and found.group("base") in scored:
            base = found.group("base")
            body = []
            for text in lines[i + 1 :]:
                if text.endswith(f" replaces {base}.") or NOT_A_MOVE.match(text) and text.startswith("Turn "):
                    break
                body.append(text)
            vp_lines = [text for text in body if " VP" in text]
            return {"base": base, "lines": (vp_lines or body)[:LINES_SCORED]}
    return None


def display_players(context: dict) -> list[dict]:
    """Each player for the display's players panel, in seat order: name, VP, factions (with their
    colours), hand size, whose turn; Big Base adds the power on the board and the First Player."""
    bb = context.get("big_base") or {}
    big = {p["seat"]: p for p in bb.get("players", [])}
    scored = {row["seat"]: row for row in (bb.get("last_scoring") or {}).get("rows", [])}
    players = []
    for p in context["players"]:
        board = big.get(p["seat"], {})
        players.append(
            {
                "seat": p["seat"],
                "name": p["name"],
                "vp": p["vp"],
                "factions": p.get("faction_list", []),
                "hand_count": p["hand_count"],
                "deck_count": p.get("deck_count"),
                "is_current": p["is_current"],
                "power": board.get("power"),
                "first": board.get("first", False),
                # Big Base: what the last scoring of the board gave this player (place, power, VP).
                "scored": scored.get(p["seat"]),
            }
        )
    return players


def extend(context: dict, public_lines: list[str]) -> dict:
    """The display's own parts of its context. `public_lines`: every public log line of the game,
    oldest first (`to is None`)."""
    scored = {c["name"] for c in context.get("base_discard", [])}
    return {
        "moves": last_moves(public_lines),
        "display_players": display_players(context),
        "base_scoring": None if context.get("big_base") else last_base_scoring(public_lines, scored),
    }
