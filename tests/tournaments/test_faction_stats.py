"""tournaments.stats: win rate, VP and pick order by faction and by pair; no database."""

from __future__ import annotations

import pytest

from tournaments import stats
from tournaments.stats import DraftRecord, SeatResult, TableResult


def seat(player, factions, vp, no_show=False):
    return SeatResult(player, tuple(factions), vp, no_show)


TABLES = [
    TableResult([
        seat(1, ["Ninjas", "Robots"], 15), seat(2, ["Aliens", "Zombies"], 10),
        seat(3, ["Pirates", "Wizards"], 8), seat(4, ["Dinosaurs", "Tricksters"], 5),
    ]),
    TableResult([
        seat(5, ["Ninjas", "Aliens"], 12), seat(6, ["Robots", "Zombies"], 12),
        seat(7, ["Wizards", "Pirates"], 3),
    ]),
    # A no-show: a game of two; the absent player's factions are not counted.
    TableResult([
        seat(8, ["Ninjas", "Robots"], 9), seat(9, ["Sharks", "Tornados"], 14),
        seat(10, ["Aliens", "Dragons"], 0, True),
    ]),
    # A table where only one came: no game at all.
    TableResult([seat(11, ["Ninjas", "Robots"], 5), seat(12, ["Aliens", "Zombies"], 0, True)]),
]  # fmt: skip


def by_name(rows):
    return {r.name: r for r in rows}


def test_win_rate_counts_a_shared_first_as_a_share_and_compares_with_chance():
    out = stats.faction_stats(TABLES)
    assert (out.tables, out.seats) == (3, 9)
    factions = by_name(out.factions)
    ninjas = factions["Ninjas"]
    assert ninjas.games == 3
    assert ninjas.wins == pytest.approx(1 + 0.5 + 0)  # clear win, shared first, loss
    assert ninjas.win_rate == pytest.approx(1.5 / 3)
    assert ninjas.expected_win_rate == pytest.approx((1 / 4 + 1 / 3 + 1 / 2) / 3)
    assert ninjas.average_vp == pytest.approx((15 + 12 + 9) / 3)
    assert ninjas.average_vp_share == pytest.approx((1 + 1 + 9 / 14) / 3)
    assert "Dragons" not in factions  # a no-show did not play
    # Every table hands out exactly one win.
    assert sum(f.wins for f in out.factions) == pytest.approx(2 * out.tables)


def test_pairs_are_named_in_one_order_whoever_picked_first():
    pairs = by_name(stats.faction_stats(TABLES).pairs)
    assert pairs["Pirates + Wizards"].games == 2
    assert pairs["Ninjas + Robots"].games == 2
    assert pairs["Ninjas + Robots"].wins == pytest.approx(1)
    assert sum(p.games for p in pairs.values()) == 9


def test_rows_are_ordered_by_win_rate_then_games_and_a_seat_without_factions_is_counted_apart():
    out = stats.faction_stats([TableResult([seat(1, [], 10), seat(2, ["Aliens", "Robots"], 4)])])
    assert out.seats == 2 and out.seats_without_factions == 1
    assert [f.name for f in out.factions] == ["Aliens", "Robots"]
    assert out.factions[0].win_rate == 0


def test_all_zero_vp_is_a_shared_first_for_everyone_and_no_vp_share():
    out = stats.faction_stats(
        [TableResult([seat(1, ["Aliens", "Robots"], 0), seat(2, ["Ninjas", "Zombies"], 0)])]
    )
    aliens = by_name(out.factions)["Aliens"]
    assert aliens.wins == pytest.approx(0.5) and aliens.average_vp_share == 0


def test_pick_order_numbers_picks_and_compares_drafts_of_any_size():
    drafts = [
        DraftRecord({"Ninjas": 1, "Robots": 1, "Aliens": 1, "Zombies": 1},
                    ["Ninjas", "Robots", "Aliens", "Zombies"]),
        DraftRecord({"Ninjas": 1, "Robots": 1, "Aliens": 1, "Zombies": 1, "Sharks": 1, "Wizards": 1},
                    ["Robots", "Ninjas", "Wizards", "Aliens"], bans=["Sharks"]),
        DraftRecord({"Ninjas": 1}, []),  # never run: not counted
    ]  # fmt: skip
    picks, count = stats.pick_stats(drafts)
    assert count == 2
    rows = by_name(picks)
    assert rows["Ninjas"].picked == 2 and rows["Ninjas"].first_picks == 1
    assert rows["Ninjas"].average_pick == pytest.approx((1 + 2) / 2)
    assert rows["Ninjas"].average_position == pytest.approx((0 + 1 / 3) / 2)
    assert rows["Zombies"].offered == 2 and rows["Zombies"].picked == 1 and rows["Zombies"].pick_rate == 0.5
    assert rows["Sharks"].banned == 1 and rows["Sharks"].average_pick is None
    assert [r.name for r in picks][:2] == ["Ninjas", "Robots"]  # earliest first
    assert picks[-1].name == "Sharks"  # never picked: last


def test_csv_rows_and_json_carry_the_same_numbers():
    out = stats.faction_stats(TABLES, [DraftRecord({"Ninjas": 1, "Robots": 1}, ["Robots", "Ninjas"])])
    header, *rows = stats.csv_rows(out, "factions")
    assert header[0] == "faction" and "win_rate" in header
    first = dict(zip(header, rows[0], strict=True))
    assert first["faction"] == out.as_dict()["factions"][0]["name"]
    assert first["win_rate"] == out.as_dict()["factions"][0]["win_rate"]
    assert stats.csv_rows(out, "pairs")[0][0] == "pair"
    assert stats.csv_rows(out, "picks")[1][0] == "Robots"
    with pytest.raises(ValueError):
        stats.csv_rows(out, "secrets")
