"""What the game screen sums up for a player (issue 26): each base scoring (the ranking, the power and
the minions that made it, the VP and the cards that changed them) until that player chooses again, and
"since your last turn" (what each other player did) when their turn comes. Built from what the viewer
may see: the engine's public record of scorings and the log lines the seat may read."""

from __future__ import annotations

import random
import re

from django.template.loader import render_to_string

from smashup.engine import Scenario, new_game
from smashup.engine.bots import heuristic_choice
from smashup.engine.testing import play
from smashup.play import summaries

from .play_helpers import html_card_ids

NAMES = {0: "Ada", 1: "Bob"}


def wyrm_scoring():
    """Seat 1 wins The Mothership (12 against 8) where seat 0's Great Wyrm takes its toll; seat 0
    sets the scoring off by playing its last card."""
    s = Scenario([("Dragons", "Aliens"), ("Dinosaurs", "Robots")], names=["Ada", "Bob"])
    s.base("The Mothership")
    s.base("Jungle Oasis")
    s.minion(0, "King Rex", owner=1)
    s.minion(0, "Invader", owner=1)
    s.minion(0, "Collector", owner=1)
    s.minion(0, "Great Wyrm", owner=0)
    s.hand(0, "Imperial Dragon")
    s.hand(1, "Howl")
    s.deck(0, *["Scout"] * 4)
    s.deck(1, *["Scout"] * 4)
    s.base_deck("Rhodes Plaza Mall")
    game = s.build()
    play(game, "Imperial Dragon", base="The Mothership")
    return game


def test_the_engine_keeps_what_each_base_scoring_gave():
    game = wyrm_scoring()
    [sc] = game.base_scorings
    assert game.defs[sc["base"]].name == "The Mothership" and sc["vp"] == [4, 2, 1]
    assert sc["powers"] == {"0": 8, "1": 12} and sc["places"] == {"0": 2, "1": 1}
    assert sc["awards"] == {"0": 2, "1": 3} == {str(p.seat): p.vp for p in game.players}
    wyrm = next(c for c, name in enumerate(game.defs) if name.name == "Great Wyrm")
    assert sc["vp_changes"] == {"1": [[wyrm, -1]]}  # seat 0's own Wyrm spares it
    names = {s: sorted(game.defs[m].name for m, _ in ms) for s, ms in sc["minions"].items()}
    assert names == {"0": ["Great Wyrm", "Imperial Dragon"], "1": ["Collector", "Invader", "King Rex"]}
    assert sum(p for _, p in sc["minions"]["1"]) == 12
    # Not the game's state: a record replayed from the start gives the same digest either way.
    assert "base_scorings" not in game.state_fields()


def test_a_scoring_summary_stays_for_a_player_until_their_next_choice():
    game = wyrm_scoring()
    texts = game.card_texts()
    for seat in (0, 1, None):  # seat 0's own choice set it off: its summary too
        [summary] = summaries.scoring_summaries(game, game.view(seat), seat, NAMES, texts)
        assert summary["title"] == "The Mothership scored" and summary["vp_row"] == [4, 2, 1]
        rows = [(r["place"], r["name"], r["power"], r["vp"]) for r in summary["rows"]]
        assert rows == [(1, "Bob", 12, 3), (2, "Ada", 8, 2)]
        assert summary["rows"][0]["changes"] == [{"name": "Great Wyrm", "amount": -1}]
        assert [m["name"] for m in summary["rows"][1]["minions"]] == ["Great Wyrm", "Imperial Dragon"]
    # Seat 1 now decides (The Mothership's winner may take a minion back) and chooses: its summary
    # is gone, seat 0's stays (it has not chosen since).
    d = game.pending
    assert d.seat == 1
    game.apply(1, d.id, [d.options[0].id])
    assert summaries.scoring_summaries(game, game.view(1), 1, NAMES, texts) == []
    assert len(summaries.scoring_summaries(game, game.view(0), 0, NAMES, texts)) == 1


def test_the_summary_and_its_page_name_no_card():
    game = wyrm_scoring()
    html = render_to_string(
        "play/_scoring.html", {"scorings": summaries.scoring_summaries(game, game.view(0), 0, NAMES, {})}
    )
    assert "Bob (you)" not in html and "Ada (you)" in html and "Great Wyrm" in html
    assert html_card_ids(html) == set()  # names only: a minion of it may be in a hand by now
    opening = re.compile(r'<section id="scoring"[^>]*>')
    assert " hidden" not in opening.search(html).group(0)
    empty = render_to_string("play/_scoring.html", {"scorings": []})
    assert " hidden" in opening.search(empty).group(0)  # still sent: it empties the page's panel


def played_game(turns: int, seats: int = 3, seed: int = 11, first: int = 1):
    """Seat 0's Play Cards phase once `turns` turns have begun (seat `first` went first)."""
    pairs = [["Aliens", "Ninjas"], ["Pirates", "Robots"], ["Wizards", "Zombies"]][:seats]
    players = [{"name": f"P{i}", "factions": pair} for i, pair in enumerate(pairs)]
    game = new_game({"players": players, "first_player": first}, seed=seed)
    rng = random.Random(3)
    while game.pending is not None:
        if game.turn >= turns and game.current == 0 and game.phase == "play":
            break
        d = game.pending
        game.apply(d.seat, d.id, heuristic_choice(game, rng))
    return game


def visible(game, seat) -> list[str]:
    return [text for text, to in game.log_lines if to is None or seat in to]


def test_since_your_last_turn_lists_each_other_players_turn_in_lines_you_may_read():
    game = played_game(turns=4)
    assert game.current == 0 and game.turn >= 4
    names = {p.seat: p.name for p in game.players}
    since = summaries.since_last_turn(game, 0, game.current, names)
    assert [(t["seat"], t["name"]) for t in since["turns"]] == [(1, "P1"), (2, "P2")]
    assert all(re.match(r"Turn \d+$", t["turn"]) for t in since["turns"])
    mine = visible(game, 0)
    for t in since["turns"]:
        assert t["lines"] and all(line in mine for line in t["lines"])
    # Their own draws went to them only: never in seat 0's panel.
    private = {text for text, to in game.log_lines if to is not None and 0 not in to}
    assert private and not private & {line for t in since["turns"] for line in t["lines"]}
    # Not my turn, or a spectator: no panel.
    assert summaries.since_last_turn(game, 1, game.current, names) is None
    assert summaries.since_last_turn(game, None, game.current, names) is None
    html = render_to_string("play/_since.html", {"since": since})
    assert html_card_ids(html) == set() and "Since your last turn" in html


def test_the_first_player_has_nothing_since_on_the_first_turn_the_others_what_went_before():
    game = played_game(turns=1, first=0)
    names = {p.seat: p.name for p in game.players}
    assert game.turn == 1 and summaries.since_last_turn(game, 0, 0, names) is None
    game = played_game(turns=1, first=1)  # seat 0 is third: its first turn follows P1's and P2's
    since = summaries.since_last_turn(game, 0, 0, names)
    assert game.turn == 3 and [t["name"] for t in since["turns"]] == ["P1", "P2"]


def test_a_big_base_board_scoring_is_summed_up_in_the_next_period_s_first_round():
    players = [{"name": n, "factions": p} for n, p in zip(["Ada", "Bob", "Cy"], [["Dinosaurs", "Pirates"],
               ["Robots", "Ninjas"], ["Aliens", "Zombies"]], strict=True)]  # fmt: skip
    game = new_game({"mode": "bigbase", "players": players}, seed=4)
    rng = random.Random(2)
    names = {p.seat: p.name for p in game.players}
    while game.pending is not None and not game.scorings:
        assert summaries.scoring_summaries(game, game.view(0), 0, names, {}) == []
        d = game.pending
        game.apply(d.seat, d.id, heuristic_choice(game, rng))
    last = game.scorings[-1]
    [summary] = summaries.scoring_summaries(game, game.view(1), 1, names, {})
    assert summary["title"] == "The Big Base scored (period 1)"
    rows = {r["name"]: (r["place"], r["power"], r["vp"], r["bonus"]) for r in summary["rows"]}
    assert rows == {
        names[int(s)]: (
            last["places"][s],
            power,
            last["vp"][s] + last["side_bonus"][s],
            last["side_bonus"][s],
        )
        for s, power in last["powers"].items()
    }
    assert [r["place"] for r in summary["rows"]] == sorted(r["place"] for r in summary["rows"])
    # Once the next round begins, it is gone (the display keeps its own).
    while game.pending is not None and game.view(None)["big_base"]["round"] == 1:
        d = game.pending
        game.apply(d.seat, d.id, heuristic_choice(game, rng))
    assert summaries.scoring_summaries(game, game.view(1), 1, names, {}) == []
