"""Inline SVG pictures for the reports: a share bar and a line chart of coverage over runs.

Drawn with presentation attributes only (no ``style`` attribute, no external font or
image), so they pass the reports' Content-Security-Policy as they are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree
from lxml.html import builder as E

__all__ = ["PALETTE", "line_chart", "share_bar"]

#: Line colours, one per series (distinguishable, also in grey-scale print).
PALETTE = ("#1565c0", "#c2185b", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f", "#5d4037", "#455a64")


def _svg(width: int, height: int, label: str) -> etree._Element:
    return E.E(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": str(width),
            "height": str(height),
            "viewBox": f"0 0 {width} {height}",
            "role": "img",
            "aria-label": label,
        },
    )


def _el(parent: etree._Element, tag: str, text: str | None = None, **attrs: object) -> etree._Element:
    el = etree.SubElement(parent, tag, {k.replace("_", "-"): str(v) for k, v in attrs.items()})
    if text is not None:
        el.text = text
    return el


def _natural(label: str) -> list[tuple[int, int | str]]:
    return [(0, int(t)) if t.isdigit() else (1, t) for t in re.split(r"(\d+)", label) if t]


def share_bar(parts: Sequence[tuple[str, int, str]], width: int = 480, height: int = 18) -> etree._Element:
    """A horizontal bar split into ``(label, count, colour)`` parts, each with a tooltip."""
    total = sum(n for _, n, _ in parts)
    label = ", ".join(f"{name}: {n}" for name, n, _ in parts)
    svg = _svg(width, height, label or "nothing")
    _el(svg, "rect", x=0, y=0, width=width, height=height, fill="#eeeeee")
    x = 0.0
    for name, n, colour in parts:
        if not n or not total:
            continue
        w = width * n / total
        rect = _el(svg, "rect", x=f"{x:.2f}", y=0, width=f"{w:.2f}", height=height, fill=colour)
        _el(rect, "title", f"{name}: {n} ({100 * n / total:.1f}%)")
        x += w
    return svg


def line_chart(
    series: dict[str, list[tuple[str, float]]],
    width: int = 640,
    height: int = 240,
    label: str = "coverage over runs",
) -> etree._Element:
    """Lines of values in [0, 1] per series over runs (x: the runs in order, labelled).

    ``series`` maps a name to ``(run label, value)`` points in run order; runs are
    the union of all labels, sorted with numbers compared as numbers ("run 9" before
    "run 10"; ISO times sort as they are).  Each point has a tooltip; a legend follows.
    """
    runs = sorted({run for points in series.values() for run, _ in points}, key=_natural)
    left, right, top, bottom = 44, 44, 12, 34
    legend_h = 16 * ((len(series) + 2) // 3)
    svg = _svg(width, height + legend_h, label)
    plot_w, plot_h = width - left - right, height - top - bottom
    _el(svg, "rect", x=left, y=top, width=plot_w, height=plot_h, fill="#fafafa", stroke="#cccccc")

    def xy(k: int, value: float) -> tuple[float, float]:
        x = left + (plot_w * k / (len(runs) - 1) if len(runs) > 1 else plot_w / 2)
        return x, top + plot_h * (1 - max(0.0, min(1.0, value)))

    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        _, y = xy(0, tick)
        _el(svg, "line", x1=left, x2=left + plot_w, y1=f"{y:.1f}", y2=f"{y:.1f}", stroke="#e0e0e0")
        _el(svg, "text", f"{100 * tick:.0f}%", x=left - 6, y=f"{y + 4:.1f}", text_anchor="end",
            font_size=11, fill="#555555", font_family="sans-serif")
    step = max(1, len(runs) // 8)
    for k, run in enumerate(runs):
        if k % step == 0 or k == len(runs) - 1:
            x, _ = xy(k, 0.0)
            _el(svg, "text", run[:16], x=f"{x:.1f}", y=top + plot_h + 16, text_anchor="middle",
                font_size=10, fill="#555555", font_family="sans-serif")
    index = {run: k for k, run in enumerate(runs)}
    for n, (name, points) in enumerate(series.items()):
        colour = PALETTE[n % len(PALETTE)]
        coords = [xy(index[run], value) for run, value in points]
        g = _el(svg, "g", data_series=name)
        if len(coords) > 1:
            _el(g, "polyline", points=" ".join(f"{x:.1f},{y:.1f}" for x, y in coords), fill="none",
                stroke=colour, stroke_width=2)
        for (run, value), (x, y) in zip(points, coords):
            dot = _el(g, "circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r=3.5, fill=colour)
            _el(dot, "title", f"{name}, {run}: {100 * value:.1f}%")
        lx = left + (n % 3) * (plot_w // 3)
        ly = height + 4 + 16 * (n // 3)
        _el(svg, "rect", x=lx, y=ly, width=12, height=12, fill=colour)
        _el(svg, "text", name[:40], x=lx + 16, y=ly + 10, font_size=11, fill="#333333", font_family="sans-serif")
    return svg
