"""Table display pages built from engine positions, for the display's screen tests (issue 26).

A Big Base position is set up with `BigBaseScenario` (no database: the page is rendered from the
engine game through the display's own context and template) on a board whose every slot carries the
longest ability the board vocabulary can word, with the longest base texts on the base card and the
next one, four players with long names and a crowded board (minions with attached actions and
counters, an action on a side). The page is then served to Chromium (test_play_screen.serve).
"""

from __future__ import annotations

import copy

from django.template.loader import render_to_string
from django.test import RequestFactory

from bigbase.rules import BigBaseScenario, board_from_dict, default_board
from bigbase.rules.board import OCCUPATION_EFFECTS, ONGOING_EFFECTS, _ability
from smashup.engine import REGISTRY
from smashup.play import render
from smashup.play.models import Game

NAMES = ["Alexandra Featherstonehaugh", "Bartholomew", "Chiara di Montefeltro", "Dmitri Ivanovich"]
PAIRS = [("Superheroes", "Robots"), ("Explorers", "Dragons"), ("Teddy Bears", "Sharks"), ("Aliens", "Ninjas")]


def _largest_args(effect: str):
    """The value of `effect` that words longest (the board check allows amounts up to 10, powers to 20)."""
    return {
        "draw": 10, "power_counter": 10, "scry": 10,
        "loot": {"draw": 10, "discard": 10},
        "extra_minion": {"max_power": 20, "here": True},
    }.get(effect, True)  # fmt: skip


def longest_ability() -> dict:
    """The slot ability (board data) whose words are the longest of the vocabulary."""
    candidates = []
    for when, effects in (("on_occupation", OCCUPATION_EFFECTS), ("ongoing", ONGOING_EFFECTS)):
        for effect in effects:
            data = {"ability": when, "effect": {effect: _largest_args(effect)}}
            candidates.append((len(_ability(data, "test").words()), data))
    return max(candidates, key=lambda c: c[0])[1]


def longest_board() -> dict:
    board = copy.deepcopy(default_board())
    board["id"], board["name"] = "longest", "Longest texts everywhere"
    for side in board["sides"]:
        side["slots"] = [longest_ability() for _ in side["slots"]]
    board_from_dict(board)  # still a valid board
    return board


def longest_bases(count: int = 2) -> list[str]:
    """The bases with the longest texts of the registry, longest first."""
    import smashup.cards  # noqa: F401  (fills the registry)

    return sorted(REGISTRY.bases, key=lambda name: (-len(REGISTRY.bases[name].text or ""), name))[:count]


# (seat, minion, power counters, attached actions) per side. CROWDED: every slot held, 17 minions;
# MIDGAME: a usual mid-game board, 9 minions, free slots on every side.
CROWDED = {
    "North": [(0, "Mild Mannered Citizen", 1, [("Expanded Power", 0)]), (0, "Microbot Reclaimer", 0, []),
              (1, "Crypt Looter", 0, []), (2, "Snuggly Bear", 2, [("Chum", 2)]),
              (3, "Supreme Overlord", 0, [])],
    "East": [(1, "Imperial Dragon", 0, []), (1, "Glory Hound", 1, []), (3, "Tiger Assassin", 0, []),
             (2, "Great White", 0, [])],
    "South": [(0, "Captain Amazing", 0, [("Expanded Power", 0)]), (2, "Hammerhead", 3, []),
              (3, "Invader", 0, []), (3, "Ninja Acolyte", 0, []), (1, "Wyvern", 0, [])],
    "West": [(0, "Microbot Guard", 0, []), (2, "Lovey Bear", 0, [("Cuddle", 0)]),
             (1, "Hatchling", 0, [])],
}  # fmt: skip
MIDGAME = {
    "North": [(0, "Mild Mannered Citizen", 1, [("Expanded Power", 0)]), (2, "Snuggly Bear", 0, [])],
    "East": [(1, "Imperial Dragon", 0, []), (1, "Glory Hound", 1, [])],
    "South": [(0, "Captain Amazing", 0, []), (3, "Invader", 0, []), (3, "Ninja Acolyte", 0, [])],
    "West": [(2, "Lovey Bear", 0, [("Cuddle", 0)]), (1, "Hatchling", 0, [])],
}  # fmt: skip


SHORT_NAMES = ["Ada", "Ben", "Chloe", "Dev"]
USUAL_BASES = ("The Homeworld", "Tar Pits")  # base texts of a usual length


def crowded_big_base(board: dict | None = None, *, scored: bool = True, layout: dict = CROWDED,
                     names=NAMES, bases=None):  # fmt: skip
    """A 4-player Big Base game in round 3 of period 2 with the minions of `layout` (CROWDED: 17,
    some with attached actions and power counters) and an action on a side; `bases`: the base card
    and the next one (the longest base texts by default). `scored`: the last scoring (period 1) is
    kept, as after a real one."""
    current, upcoming = bases or longest_bases(2)
    s = BigBaseScenario([list(p) for p in PAIRS], base=current, next_bases=[upcoming, "Jungle Oasis"],
                        names=names, board=board or longest_board(), seed="5c" * 32)  # fmt: skip
    for side, minions in layout.items():
        for owner, name, counters, attached in minions:
            s.minion(side, name, owner, counters=counters, attached=attached)
    s.base_action("East", "Dragon Lands", 1)
    s.round(round=3, period=2, first_player=1)
    for seat in range(4):
        s.hand(seat, "Invader" if seat == 3 else "Microbot Alpha" if seat == 0 else "Wyvern"
               if seat == 1 else "Fun Bear")  # fmt: skip
    game = s.build()
    for seat, vp in enumerate((9, 7, 12, 5)):
        game.players[seat].vp = vp
    if scored:
        game.scorings.append({
            "period": 1, "tiebreak_round": 0,
            "powers": {"0": 14, "1": 9, "2": 14, "3": 6},
            "places": {"0": 1, "1": 3, "2": 1, "3": 4},
            "vp": {"0": 4, "1": 2, "2": 4, "3": 1},
            "side_bonus": {"0": 2, "1": 1, "2": 1, "3": 0},
        })  # fmt: skip
    for line in (f"{names[1]} plays Glory Hound on East.", "Glory Hound moves to East (Fortune and Glory).",
                 f"{names[2]} plays Lovey Bear on West."):  # fmt: skip
        game.log(line)
    return game


def crowded_standard():
    """A 4-player standard game: the five bases with the longest texts, 15 minions (attached actions,
    counters), a base that scored earlier (its VP lines in the log, as the engine words them)."""
    from smashup.engine import Scenario, build_scenario

    bases = longest_bases(6)
    s = Scenario([list(p) for p in PAIRS], names=NAMES, seed="6d" * 32)
    for name in bases[:5]:
        s.base(name)
    s.base_deck("The Homeworld", "Tar Pits")
    s.base_discard(bases[5])
    layout = [
        (0, "Mild Mannered Citizen", 0, 1, [("Expanded Power", 0)]), (0, "Microbot Reclaimer", 0, 0, []),
        (0, "Crypt Looter", 1, 0, []), (1, "Snuggly Bear", 2, 2, [("Chum", 2)]),
        (1, "Supreme Overlord", 3, 0, []),
        (1, "Imperial Dragon", 1, 0, []), (2, "Glory Hound", 1, 1, []), (2, "Tiger Assassin", 3, 0, []),
        (2, "Great White", 2, 0, []), (3, "Captain Amazing", 0, 0, [("Expanded Power", 0)]),
        (3, "Hammerhead", 2, 3, []), (3, "Invader", 3, 0, []), (4, "Ninja Acolyte", 3, 0, []),
        (4, "Wyvern", 1, 0, []), (4, "Lovey Bear", 2, 0, [("Cuddle", 0)]),
    ]  # fmt: skip
    for base, name, owner, counters, attached in layout:
        s.minion(base, name, owner, counters=counters, attached=attached)
    for seat, vp in enumerate((6, 4, 8, 3)):
        s.vp(seat, vp)
    game = build_scenario(s.to_dict())
    for line in (f"{bases[5]} scores.", f"{NAMES[2]} gains 4 VP (1st on {bases[5]}).",
                 f"{NAMES[0]} gains 2 VP (2nd on {bases[5]}).", f"{NAMES[1]} gains 1 VP (3rd on {bases[5]}).",
                 f"{bases[0]} replaces {bases[5]}.", "Turn 9: Bartholomew.",
                 "Bartholomew plays Wyvern on " + bases[4] + "."):  # fmt: skip
        game.log(line)
    return game


def display_html(game, path: str = "/play/g/display-test/display/") -> bytes:
    """The table display page of `game` as the server renders it (bigbase/display.html with
    `render.display_context`), for a row that is not stored (nothing of it needs the database)."""
    mode = Game.Mode.BIGBASE if game.config.get("mode") == "bigbase" else Game.Mode.STANDARD
    row = Game(public_id="display-test", code="K7QF2M", mode=mode, config=game.config,
               status=Game.Status.ACTIVE, version=len(game.choices))  # fmt: skip
    context = render.display_context(row, game)
    request = RequestFactory().get(path)
    request.user = None
    context.update({"creator": False, "join_url": "", "join_qr": "", "free_seats": [], "seats_key": "",
                    "ws_url": "", "quiet_seconds": 30})  # fmt: skip
    return render_to_string("bigbase/display.html", context, request=request).encode()


def game_page_html(game, seat: int, path: str = "/play/g/display-test/", hot_seat: bool = False) -> bytes:
    """The game page of `seat` (play/game.html) for `game`, as the server renders it, for a row that is
    not stored: the phone's board next to the display's, for the layout checks."""
    from django.contrib.auth.models import AnonymousUser

    mode = Game.Mode.BIGBASE if game.config.get("mode") == "bigbase" else Game.Mode.STANDARD
    row = Game(public_id="display-test", code="K7QF2M", mode=mode, config=game.config,
               status=Game.Status.ACTIVE, version=len(game.choices))  # fmt: skip
    context = render.board_context(row, game, seat)
    context.update({"ws_url": "/ws/none/", "held": [seat], "oob": False, "resume_link": None,
                    "quiet_seconds": 30, "hot_seat": hot_seat})  # fmt: skip
    request = RequestFactory().get(path)
    request.user = AnonymousUser()
    return render_to_string("play/game.html", context, request=request).encode()
