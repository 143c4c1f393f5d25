"""tournaments.charts: the SVG geometry of the statistics charts; no database."""

from __future__ import annotations

import pytest

from tournaments import charts


@pytest.mark.parametrize(
    "value, expected", [(0, 1), (0.31, 0.5), (0.5, 0.5), (0.51, 1), (7, 10), (12, 20), (22, 25), (260, 500)]
)
def test_nice_ceiling(value, expected):
    assert charts.nice_ceiling(value) == pytest.approx(expected)


def test_bars_scale_to_the_width_one_row_each_with_the_marker_on_the_same_scale():
    chart = charts.bar_chart(
        "Win rate",
        "desc",
        [("Ninjas", 0.5, "50 %", "t1"), ("Aliens", 0.25, "25 %", "t2")],
        markers=[0.25, 0.4],
    )
    assert chart.scale_max == 0.5 and chart.width == 360
    first, second = chart.rows
    assert first.bar_width == 360 and second.bar_width == 180
    assert first.marker_x == 180 and second.marker_x == 288
    assert second.label_y - first.label_y == charts.ROW and chart.height == 2 * charts.ROW
    assert first.label_y < first.bar_y  # the label sits above its bar


def test_a_fixed_scale_clips_and_an_empty_or_negative_chart_is_handled():
    chart = charts.bar_chart("t", "d", [("a", 2.0, "2", "")], scale_max=1.0)
    assert chart.rows[0].bar_width == 360
    assert charts.bar_chart("t", "d", []).height == charts.ROW
    with pytest.raises(ValueError):
        charts.bar_chart("t", "d", [("a", -1, "", "")])
    with pytest.raises(ValueError):
        charts.bar_chart("t", "d", [("a", 1, "", "")], markers=[])


def test_a_line_chart_runs_left_to_right_high_values_up_with_zero_marked():
    chart = charts.line_chart("Rating", "d", [(-2.0, "a"), (5.0, "b"), (1.0, "c")])
    xs = [p.x for p in chart.points]
    assert xs == sorted(xs) and xs[0] == charts.LINE_PAD_LEFT and xs[-1] == charts.WIDTH - charts.LINE_PAD
    assert chart.points[1].y < chart.points[2].y < chart.points[0].y
    assert chart.zero_y is not None and chart.points[0].y > chart.zero_y > chart.points[1].y
    single = charts.line_chart("Rating", "d", [(3.0, "only")])
    assert len(single.points) == 1 and single.zero_y is None
    with pytest.raises(ValueError):
        charts.line_chart("t", "d", [])
