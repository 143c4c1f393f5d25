"""The geometry of the statistics pages' charts, drawn as inline SVG by our templates
(templates/tournaments/_bar_chart.html, _line_chart.html): no JavaScript, no chart library.

Pure Python: plain numbers in, positions out. A chart is drawn in a 360-unit-wide viewBox that the
page scales to its width, so on a 390 px phone one unit is about one pixel and the 13-unit text is
13 px. A bar chart gives each row its own line: the label on the left and the value on the right
above a bar that spans the whole width, so a long label ("Mythic Greeks + Superheroes") never
squeezes the bar. Each chart also gets a title and a one-sentence description for screen readers;
the pages put a table of the same numbers next to it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 360
ROW = 34  # label line + bar + gap
LABEL_Y = 13  # baseline of the label within a row
BAR_Y = 18
BAR_HEIGHT = 11
LINE_HEIGHT = 170
LINE_PAD_LEFT = 40
LINE_PAD = 14


@dataclass(frozen=True)
class BarRow:
    label: str
    value_text: str
    title: str  # the bar's tooltip and accessible name: "Ninjas: 31 % wins in 16 games"
    label_y: float
    bar_y: float
    bar_width: float
    marker_x: float | None  # a reference line (e.g. the expected value), or None


@dataclass(frozen=True)
class BarChart:
    title: str
    description: str
    width: int
    height: int
    bar_height: int
    rows: tuple[BarRow, ...]
    scale_max: float
    marker_label: str


def nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 (times a power of ten) at or above `value` (1 for nothing)."""
    if value <= 0 or not math.isfinite(value):
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if step * power >= value - 1e-12:
            return step * power
    return 10 * power  # not reached


def bar_chart(
    title: str,
    description: str,
    rows: Sequence[tuple[str, float, str, str]],
    *,
    markers: Sequence[float | None] | None = None,
    marker_label: str = "",
    scale_max: float | None = None,
) -> BarChart:
    """`rows`: (label, value, value as shown, title) in the order drawn; `markers`: a reference
    value per row (drawn as a line across its bar) or None."""
    markers = list(markers) if markers is not None else [None] * len(rows)
    if len(markers) != len(rows):
        raise ValueError("one marker (or None) per row")
    if any(value < 0 for _, value, _, _ in rows):
        raise ValueError("a bar chart draws values from 0 up")
    top = max([value for _, value, _, _ in rows] + [m for m in markers if m is not None] + [0.0])
    scale = scale_max if scale_max is not None else nice_ceiling(top)
    if scale <= 0:
        raise ValueError("the scale must be above 0")
    out = []
    for i, ((label, value, shown, bar_title), marker) in enumerate(zip(rows, markers, strict=True)):
        y = i * ROW
        out.append(
            BarRow(
                label=label,
                value_text=shown,
                title=bar_title,
                label_y=y + LABEL_Y,
                bar_y=y + BAR_Y,
                bar_width=round(min(value, scale) / scale * WIDTH, 2),
                marker_x=None if marker is None else round(min(marker, scale) / scale * WIDTH, 2),
            )
        )
    return BarChart(
        title=title,
        description=description,
        width=WIDTH,
        height=max(ROW * len(rows), ROW),
        bar_height=BAR_HEIGHT,
        rows=tuple(out),
        scale_max=scale,
        marker_label=marker_label,
    )


@dataclass(frozen=True)
class LinePoint:
    x: float
    y: float
    label: str  # "after Friday Cup: 12.3"


@dataclass(frozen=True)
class LineChart:
    title: str
    description: str
    width: int
    height: int
    points: tuple[LinePoint, ...]
    polyline: str  # "x,y x,y ..." for <polyline points>
    y_ticks: tuple[tuple[float, str], ...]  # (y, text) of the axis labels
    zero_y: float | None  # where 0 is, when it lies within the range


def line_chart(title: str, description: str, values: Sequence[tuple[float, str]]) -> LineChart:
    """A line through `values` ((value, label) in order), left to right, with the lowest and the
    highest value (and 0, when within) marked on the left axis."""
    if not values:
        raise ValueError("a line chart needs at least one value")
    low = min(v for v, _ in values)
    high = max(v for v, _ in values)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    plot_w = WIDTH - LINE_PAD_LEFT - LINE_PAD
    plot_h = LINE_HEIGHT - 2 * LINE_PAD

    def y_of(v: float) -> float:
        return round(LINE_PAD + (high - v) / (high - low) * plot_h, 2)

    step = plot_w / (len(values) - 1) if len(values) > 1 else 0.0
    points = tuple(
        LinePoint(round(LINE_PAD_LEFT + (i * step if len(values) > 1 else plot_w / 2), 2), y_of(v), label)
        for i, (v, label) in enumerate(values)
    )
    ticks = [(y_of(high), f"{high:.1f}"), (y_of(low), f"{low:.1f}")]
    zero = y_of(0.0) if low < 0 < high else None
    if zero is not None:
        ticks.append((zero, "0"))
    return LineChart(
        title=title,
        description=description,
        width=WIDTH,
        height=LINE_HEIGHT,
        points=points,
        polyline=" ".join(f"{p.x},{p.y}" for p in points),
        y_ticks=tuple(ticks),
        zero_y=zero,
    )
