"""tournaments.series: points per placing across events, best-of, countback; no database."""

from __future__ import annotations

import pytest

from tournaments import series
from tournaments.series import EventPlacings, PointsRule


def test_points_per_placing_then_participation_points():
    rule = PointsRule((10, 6, 3), participation=1)
    assert [rule.points_for(p) for p in (1, 2, 3, 4, 40)] == [10, 6, 3, 1, 1]
    with pytest.raises(ValueError):
        rule.points_for(0)


def test_standings_add_points_across_events_and_break_ties_by_countback_then_events_played():
    events = [
        EventPlacings("e1", {"ada": 1, "bob": 2, "cy": 3, "dee": 4}),
        EventPlacings("e2", {"bob": 1, "ada": 3, "cy": 2}),
        EventPlacings("e3", {"cy": 1, "dee": 2}),
    ]
    rows = series.series_standings(events, PointsRule((10, 6, 3, 1)))
    points = {r.player: r.points for r in rows}
    assert points == {"ada": 13, "bob": 16, "cy": 19, "dee": 7}
    assert [r.player for r in rows] == ["cy", "bob", "ada", "dee"]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert rows[0].per_event["e2"].place == 2 and rows[0].events == 3 and rows[0].best_place == 1


def test_countback_compares_place_by_place_and_equal_players_share_a_rank():
    events = [EventPlacings("e1", {"a": 1, "b": 2, "c": 2}), EventPlacings("e2", {"b": 1, "a": 2, "c": 1})]
    rows = series.series_standings(events, PointsRule((5, 5)))
    # All three have 10 points, one first and one second place each: one shared rank, by name.
    assert [(r.player, r.rank, r.shared) for r in rows] == [("a", 1, True), ("b", 1, True), ("c", 1, True)]
    rows = series.series_standings(
        [EventPlacings("e1", {"a": 1, "b": 3}), EventPlacings("e2", {"a": 4, "b": 2})],
        PointsRule((4, 4, 4, 4)),
    )
    assert [r.player for r in rows] == ["a", "b"]  # a first place beats a second


def test_more_events_played_breaks_what_points_and_countback_leave():
    rows = series.series_standings(
        [EventPlacings("e1", {"a": 1, "b": 1}), EventPlacings("e2", {"b": 9})],
        PointsRule((10,), participation=0),
    )
    assert [r.player for r in rows] == ["b", "a"] and not rows[0].shared


def test_best_of_counts_the_best_events_and_lists_the_rest():
    events = [EventPlacings(f"e{i}", {"a": place}) for i, place in enumerate((4, 1, 2, 3))]
    row = series.series_standings(events, PointsRule((10, 6, 3, 1), best_of=2))[0]
    assert row.points == 16 and row.events == 4
    assert {e for e, s in row.per_event.items() if s.counted} == {"e1", "e2"}


@pytest.mark.parametrize(
    "text, expected",
    [("10, 8, 6", (10, 8, 6)), ("25 18 15 12.5", (25, 18, 15, 12.5)), ("3,3,1", (3, 3, 1)), (" 5 ", (5,))],
)
def test_points_text_is_parsed(text, expected):
    assert series.parse_placings(text) == expected
    assert series.parse_placings(series.format_placings(expected)) == expected


@pytest.mark.parametrize("text", ["", "10, 12", "-1", "1e3", "²", "٣", "10, x", "100000", "1.234", ", ,"])
def test_bad_points_text_is_refused_with_a_message(text):
    with pytest.raises(ValueError) as info:
        series.parse_placings(text)
    assert str(info.value)
