"""The rules and help page (`/help/`, templates/help.html) and the terms other pages link to.

Each term is an anchor of the help page (`/help/#side-bonus`) with the words a link to it reads
("the side bonus"). Pages link a term where it appears with the `help` template tags
(`smashup/core/templatetags/help.py`):

    {% load help %}
    {% help_link "side-bonus" %}                 a small "?" after the term, opening its explanation
    {% help_link "side-bonus" "most on a side" %} the words themselves as the link
    {% help_url "periods" %}                      just the address

A term that is not in `TERMS` is an error when the page is rendered (a link must never point
nowhere); tests/web/test_help.py checks that every term is an anchor of the help page.
"""

from __future__ import annotations

# anchor -> what the term is called (a link reads "What is {name}?").
TERMS = {
    # Playing here
    "play-here": "playing on this site",
    "table-display": "the table display",
    "hot-seat": "the hot seat",
    "undo": "taking back a choice",
    # Standard Smash Up
    "goal": "the goal of the game",
    "factions": "the factions",
    "turn": "a turn",
    "minions": "a minion",
    "actions": "an action",
    "power": "power",
    "power-counters": "a power counter",
    "talent": "a talent",
    "ongoing": "an ongoing ability",
    "bases": "a base",
    "breakpoint": "a breakpoint",
    "scoring": "scoring a base",
    "ties": "a tie",
    "specials": "a Special",
    "me-first": "Me First!",
    "game-end": "the end of the game",
    # Big Base
    "big-base": "Big Base",
    "rounds": "a round",
    "periods": "a scoring period",
    "board": "the Big Base board",
    "sides": "a side",
    "slots": "a slot",
    "fourth-slot": "the fourth slot",
    "slot-abilities": "a slot ability",
    "on-occupation": "on occupation",
    "ongoing-slot": "an ongoing slot ability",
    "base-card": "the base card",
    "big-base-scoring": "Big Base scoring",
    "period-vp": "the VP of a period",
    "side-bonus": "the side bonus",
    "star": "the star",
    "first-player": "the First Player token",
    "tie-break": "a tie-break round",
    "useless-cards": "swapping a useless card",
}


BOX_NAMES = {"core": "Core Set", "wwwt": "What Were We Thinking?", "iyf": "It's Your Fault!"}


class UnknownTerm(ValueError):
    pass


def term_name(term: str) -> str:
    try:
        return TERMS[term]
    except KeyError:
        raise UnknownTerm(f"{term!r} is not a term of the help page (smashup.core.help.TERMS)") from None


def faction_boxes() -> list[tuple[str, list[dict]]]:
    """Every implemented faction with its one line and colour, by box (in the boxes' order)."""
    from smashup.catalog import faction_descriptions
    from smashup.engine import REGISTRY
    from smashup.play.render import faction_style
    from smashup.play.tables import factions_available

    blurbs = faction_descriptions()
    boxes: dict[str, list] = {name: [] for name in BOX_NAMES.values()}
    for name in factions_available():
        box = REGISTRY.factions[name].set
        item = {"name": name, "blurb": blurbs.get(name, ""), "style": faction_style(name)}
        boxes.setdefault(BOX_NAMES.get(box, box), []).append(item)
    return [(box, items) for box, items in boxes.items() if items]


def help_context() -> dict:
    """The help page's data: the factions by box, and the default Big Base board (its VP table per
    period, its side bonus and its slot abilities, as the engine words them)."""
    from bigbase.rules import board_from_dict, default_board

    board = board_from_dict(default_board())
    boxes = faction_boxes()
    return {
        "boxes": boxes,
        "faction_count": sum(len(items) for _, items in boxes),
        "board": board,
        "board_vp": [(period, list(vp)) for period, vp in board.period_vp],
        "board_slots": [
            (side.name, [a.words() if a is not None else "no ability" for a in side.slots])
            for side in board.sides
        ],
    }
