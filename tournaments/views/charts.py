"""A line chart drawn on the server as inline SVG (no script, no library): pure geometry."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 16, 36  # room for the axis labels


@dataclass
class Point:
    x: float
    y: float
    value: float
    label: str


@dataclass
class Chart:
    width: int = WIDTH
    height: int = HEIGHT
    points: list[Point] = field(default_factory=list)
    y_ticks: list[tuple[float, str]] = field(default_factory=list)
    x_ticks: list[tuple[float, str]] = field(default_factory=list)
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)


def nice_step(span: float, ticks: int = 5) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about ``ticks`` ticks."""
    raw = max(span, 1e-9) / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def line_chart(values: Sequence[float], labels: Sequence[str]) -> Chart:
    """Points for ``values`` in order (x: 1..n, y: the value), with tick marks on round
    numbers; ``labels`` name each point (shown on hover and to screen readers)."""
    chart = Chart()
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
        chart.y_ticks.append((y(tick), f"{tick:g}"))
        tick += step
    every = max(1, math.ceil(n / 10))
    chart.x_ticks = [(x(i), str(i + 1)) for i in range(0, n, every)]
    return chart
