"""The standings of seeded simulated events against a reference computation written for clarity, not
speed: every player's places counted from the rules, every opponent met listed one by one. The fast
code (tournaments.standings) must give the same order, totals, tie-breakers and marks. No database."""

import random
from itertools import permutations

import pytest

from tournaments.penalties import (
    DISQUALIFICATION,
    GAME_LOSS,
    VP_LOSS,
    WARNING,
    Penalty,
    apply_penalties,
    by_player,
    disqualified,
)
from tournaments.scoring import FIXED_4321, NORMALISED, average_points, place_points
from tournaments.standings import TIEBREAKERS, Game, StandingsOptions, compute_standings, draw_key


def simulated_event(seed, players: int, rounds: int, ties: bool = True):
    """An event as the standings read it: tables of two to five (mostly four), VP drawn so that ties
    are common (`ties`), tables where nobody scored, no-shows, byes, players who drop or never play,
    warnings, VP losses, game losses and a disqualification; options drawn too."""
    rng = random.Random(seed)
    everyone = list(range(1, players + 1))
    active = everyone[: players - rng.randint(0, 3)]  # a few registered who never play
    games, byes, dropped, penalties = [], [], set(), []
    for number in range(1, rounds + 1):
        rng.shuffle(active)
        seated = list(active)
        for _ in range(rng.choice((0, 0, 1, 2))):
            if seated:
                byes.append((number, seated.pop()))
        while seated:
            size = min(len(seated), rng.choice((2, 3, 4, 4, 4, 4, 5)))
            table, seated = seated[:size], seated[size:]
            low = rng.random() < 0.05  # a table where nobody scored
            scores = {
                p: 0 if low else rng.choice((0, 5, 10, 15)) if ties else rng.randint(0, 22) for p in table
            }
            absent = frozenset(p for p in table if rng.random() < 0.04)
            games.append(Game(number, {p: 0 if p in absent else v for p, v in scores.items()}, absent))
            for p in table:
                roll = rng.random()
                if roll < 0.01:
                    penalties.append(Penalty(p, GAME_LOSS, number))
                elif roll < 0.03:
                    penalties.append(Penalty(p, VP_LOSS, number, rng.randint(1, 6)))
                elif roll < 0.05:
                    penalties.append(Penalty(p, WARNING, rng.choice((number, None))))
        for p in list(active):
            if rng.random() < 0.03:
                active.remove(p)
                dropped.add(p)
    if rng.random() < 0.5:
        out = rng.choice(everyone)
        penalties.append(Penalty(out, DISQUALIFICATION, rounds))
        dropped.add(out)
    chosen = [t for t in TIEBREAKERS if rng.random() < 0.7]
    options = StandingsOptions(
        preset=rng.choice((NORMALISED, FIXED_4321)),
        tiebreakers=rng.choice(list(permutations(chosen))) if chosen else (),
        sos_floor=rng.choice((0.0, 2.0, 2.5)),
        bye_points=rng.choice((None, None, 3.0)),
        table_size=rng.choice((3, 4)),
        seed=f"sim-{seed}",
    )
    return everyone, games, byes, dropped, options, penalties


def reference_standings(players, games, byes, dropped, options, penalties):
    """The standings from their definitions (tournaments.standings, docstring), one player at a time:
    (rank, player, points, firsts, vp, games, byes, dropped, draw_decided, disqualified, penalties)
    with (vp_share, sos, tiebreaks) apart, since summing in another order may change a float's last
    bits."""
    games = apply_penalties(games, penalties)
    out, given = disqualified(penalties), by_player(penalties)
    points = {p: 0.0 for p in players}
    vp, share, firsts, played, met = dict(points), dict(points), dict.fromkeys(players, 0), {}, {}
    for game in games:
        size = len(game.vp)
        present = [v for p, v in game.vp.items() if p not in game.absent]
        top = max(game.vp.values())
        for p, v in game.vp.items():
            if p in game.absent:  # below everyone who came
                first, last = len(present) + 1, size
            else:
                first = 1 + sum(1 for other in present if other > v)
                last = sum(1 for other in present if other >= v)
            covered = [place_points(size, place, options.preset) for place in range(first, last + 1)]
            points[p] += sum(covered) / len(covered)
            vp[p] += v
            share[p] += v / top if top > 0 else 0
            # Nobody wins a table where nobody scored, unless they were the only one there.
            firsts[p] += first == 1 and (len(present) == 1 or max(present, default=0) > 0)
            played[p] = played.get(p, 0) + 1
            met.setdefault(p, []).extend(other for other in game.vp if other != p)
    bye_value = options.bye_points
    if bye_value is None:  # the average seat at a full table
        bye_value = average_points(options.table_size, options.preset)
    had_bye = dict.fromkeys(players, 0)
    for _, p in byes:
        points[p] += bye_value
        had_bye[p] += 1

    def per_round(p):
        rounds = played.get(p, 0) + had_bye[p]
        return max(points[p] / rounds if rounds else 0.0, options.sos_floor)

    def tiebreak(p, name):
        games_played = played.get(p, 0) or 1
        if name == "sos":
            return sum(per_round(o) for o in met[p]) / len(met[p]) if met.get(p) else 0.0
        return {"vp_share": share[p], "firsts": firsts[p], "vp": vp[p]}[name] / games_played

    def rank_key(p):
        return (p in out, round(points[p], 9), tuple(round(tiebreak(p, t), 9) for t in options.tiebreakers))

    order = sorted(
        players,
        key=lambda p: (
            p in out,
            -round(points[p], 9),
            *(-v for v in rank_key(p)[2]),
            -draw_key(options.seed, p),
        ),
    )
    keys = [rank_key(p) for p in order]
    exact, close = [], []
    for i, p in enumerate(order):
        decided = (i > 0 and keys[i - 1] == keys[i]) or (i + 1 < len(keys) and keys[i + 1] == keys[i])
        exact.append(
            (i + 1, p, points[p], firsts[p], vp[p], played.get(p, 0), had_bye[p], p in dropped, decided,
             p in out, given.get(p, ()))
        )  # fmt: skip
        close.append(
            (tiebreak(p, "vp_share"), tiebreak(p, "sos"), [tiebreak(p, t) for t in options.tiebreakers])
        )
    return exact, close


def fast_standings(players, games, byes, dropped, options, penalties):
    rows = compute_standings(players, games, byes, dropped, options, penalties)
    exact = [
        (r.rank, r.player, r.points, r.firsts, r.vp, r.games, r.byes, r.dropped, r.draw_decided,
         r.disqualified, r.penalties)
        for r in rows
    ]  # fmt: skip
    return exact, [(r.vp_share, r.sos, list(r.tiebreaks)) for r in rows]


@pytest.mark.parametrize(
    "seed, players, rounds, ties",
    [(seed, 9 + 7 * seed, 1 + seed % 7, seed % 3 != 0) for seed in range(24)] + [(99, 512, 6, True)],
)
def test_simulated_events_rank_as_the_reference_computation_does(seed, players, rounds, ties):
    event = simulated_event(seed, players, rounds, ties)
    exact, close = fast_standings(*event)
    want_exact, want_close = reference_standings(*event)
    assert exact == want_exact
    for (share, sos, tiebreaks), (want_share, want_sos, want_tiebreaks) in zip(
        close, want_close, strict=True
    ):
        assert share == pytest.approx(want_share, rel=1e-12, abs=1e-12)
        assert sos == pytest.approx(want_sos, rel=1e-12, abs=1e-12)
        assert tiebreaks == pytest.approx([round(v, 9) for v in want_tiebreaks], abs=1e-9)


def test_the_simulated_events_hold_the_cases_the_comparison_is_about():
    """Ties, no-shows, byes, penalties of every kind and draws settled by lot all occur."""
    events = [simulated_event(seed, 9 + 7 * seed, 1 + seed % 7, seed % 3 != 0) for seed in range(24)]
    games = [g for e in events for g in e[1]]
    assert any(g.absent for g in games)
    assert any(len(set(g.vp.values())) < len(g.vp) for g in games)
    assert any(max(g.vp.values()) == 0 for g in games)
    assert any(e[2] for e in events)
    assert {p.kind for e in events for p in e[5]} == {WARNING, VP_LOSS, GAME_LOSS, DISQUALIFICATION}
    assert any(r.draw_decided for e in events for r in compute_standings(*e))
