"""A line chart drawn on the server as inline SVG (no script, no library): pure geometry.

Every number the SVG reads is written here as a string with a decimal point
(:func:`svg_number`): a template would write a float in the page's language, "224,0" in
Finnish, which the browser rejects as a coordinate."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

WIDTH, HEIGHT = 640, 260
#: A phone's chart: drawn as narrow as a phone shows it, so that its labels keep their size
#: (the wide one, scaled down to a phone, wrote them 5 px high) with fewer dates on its axis
PHONE_WIDTH, PHONE_X_TICKS = 320, 3
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 16, 36  # room for the axis labels


def svg_number(value: float) -> str:
    """``value`` as an SVG attribute reads it: one decimal, a point, never localised."""
    return f"{value:.1f}"


@dataclass
class Point:
    x: float
    y: float
    value: float
    label: str

    @property
    def cx(self) -> str:
        return svg_number(self.x)

    @property
    def cy(self) -> str:
        return svg_number(self.y)


@dataclass
class Chart:
    width: int = WIDTH
    height: int = HEIGHT
    points: list[Point] = field(default_factory=list)
    #: (where, label): the position already written for the SVG (``svg_number``)
    y_ticks: list[tuple[str, str]] = field(default_factory=list)
    x_ticks: list[tuple[str, str]] = field(default_factory=list)
    left: int = LEFT
    right: int = WIDTH - RIGHT  # set from ``width`` when another width is chosen
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.cx},{p.cy}" for p in self.points)


def nice_step(span: float, ticks: int = 5) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about ``ticks`` ticks."""
    raw = max(span, 1e-9) / ticks
    power: float = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


MAX_X_TICKS = 6


def axis_ticks(axis: Sequence[str], most: int = MAX_X_TICKS) -> list[int]:
    """Where to label the x axis when each point has an axis label (its date): at the first
    point of each new label, at most ``most`` of them, spread evenly, the first always."""
    starts = [i for i, label in enumerate(axis) if i == 0 or label != axis[i - 1]]
    if len(starts) <= most:
        return starts
    step = (len(starts) - 1) / (most - 1)
    return [starts[round(k * step)] for k in range(most)]


def line_chart(values: Sequence[float], labels: Sequence[str],
               axis: Sequence[str] | None = None, *, width: int = WIDTH,
               x_ticks: int = MAX_X_TICKS) -> Chart:
    """Points for ``values`` in order (x: 1..n, y: the value), with tick marks on round
    numbers; ``labels`` name each point (shown on hover and to screen readers). ``axis``
    labels the x axis (a date for each point, at most ``x_ticks`` of them); without it the
    axis counts the points. ``width``: of the drawing, in the SVG's units."""
    chart = Chart(width=width, right=width - RIGHT)
    if not values:
        return chart
    low, high = min(values), max(values)
    step = nice_step(high - low if high > low else max(abs(high), 1.0))
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if high == low:
        low, high = low - step, high + step
    n = len(values)
    span_x = chart.right - chart.left

    def x(i: int) -> float:
        return chart.left + (span_x / 2 if n == 1 else span_x * i / (n - 1))

    def y(v: float) -> float:
        return chart.bottom - (chart.bottom - chart.top) * (v - low) / (high - low)

    chart.points = [Point(x(i), y(v), v, labels[i]) for i, v in enumerate(values)]
    tick = low
    while tick <= high + step / 2:
        chart.y_ticks.append((svg_number(y(tick)), f"{tick:g}"))
        tick += step
    if axis is not None:
        chart.x_ticks = [(svg_number(x(i)), axis[i]) for i in axis_ticks(axis, x_ticks)]
    else:
        every = max(1, math.ceil(n / (10 if width >= WIDTH else 5)))
        chart.x_ticks = [(svg_number(x(i)), str(i + 1)) for i in range(0, n, every)]
    return chart
