"""``newsstemmer templates``: find the groups of pages that share a template (SPEC §3).

::

    newsstemmer templates [--json] [--delta D | --alpha A] [--plot F.svg] [--skeleton] PAGE...

Substring amplification over the pages as fetched (or, with ``--skeleton``, over
their tag skeletons): F(f) is computed once, the peak frequencies are chosen by
G(f) > δ (``--delta``) or by the natural-language reference at risk α (``--alpha``,
the default, α = 0.001), and the pages sharing the template parts of the peaks
are grouped.  ``--plot`` writes F(f) on log-log axes, peaks marked, as SVG.

Output: one block per group (its pages, one per line), then the ungrouped pages;
with ``--json`` one object ``{"groups": [[path, ...], ...], "peaks": [f, ...],
"ungrouped": [path, ...], "examples": [{"text", "length", "count", "pages"}, ...]}``.

Exit codes: 0 success; 1 some page could not be read or the plot could not be
written; 2 usage error or no readable pages.
"""

from __future__ import annotations

import argparse
import html
import json
import math
import os

from ..io.files import NO_PAGES, PageReadError, find_pages, read_page
from ..templates.amplification import DEFAULT_ALPHA, amplify, skeleton
from .common import CLIError, Reporter, fraction, non_negative, plural, require_inputs, silence_stdout, write_line

__all__ = ["add_arguments", "run", "svg_plot"]

DESCRIPTION = (
    "Find the groups of pages that share a template, by substring amplification "
    "(no training, no number of groups to give)."
)


def _risk(text: str) -> float:
    value = fraction(text)
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"must be strictly between 0 and 1, got {text}")
    return value


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Give the ``templates`` parser its description and arguments."""
    p.description = DESCRIPTION
    p.add_argument("pages", nargs="+", metavar="PAGE", help="HTML or WARC file, or directory (searched recursively)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--delta", type=non_negative, metavar="D",
                     help="peaks are the frequencies f with G(f) > D")
    how.add_argument("--alpha", type=_risk, metavar="A",
                     help=f"peaks are where F'(f) exceeds natural language at risk A (default {DEFAULT_ALPHA})")
    p.add_argument("--plot", metavar="FILE.svg", help="write F(f) (log-log) with the peaks marked as SVG")
    p.add_argument("--skeleton", action="store_true",
                   help="use the pages' tag skeletons (tags with id/class), not their raw HTML")
    p.add_argument("--examples", type=int, default=5, metavar="N", help="template parts to show (default 5)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, rep: Reporter | None = None) -> int:
    """Run the command; return the exit code (user errors raise ``CLIError``)."""
    rep = rep or Reporter(quiet=getattr(args, "quiet", False))
    if args.examples < 0:
        raise CLIError("--examples must be >= 0")
    if args.plot and os.path.isdir(args.plot):
        raise CLIError(f"{args.plot}: is a directory (--plot names the SVG file to write)")
    files = find_pages(require_inputs(args.pages), rep.message)
    if not files:
        raise CLIError(NO_PAGES)
    sources: list[str] = []
    texts: list[str] = []
    errors = 0
    for n, pf in enumerate(files, 1):
        try:
            text = read_page(pf)
        except PageReadError as exc:
            errors += 1
            rep.message(f"{pf.source}: skipped: {exc}")
        else:
            sources.append(pf.source)
            texts.append(skeleton(text) if args.skeleton else text)
        rep.progress("reading", n, len(files))
    rep.finish()
    if not texts:
        raise CLIError(f"no readable pages among the {len(files)} given")

    amp = amplify(texts, progress=rep.progress)
    rep.finish()
    alpha = None if args.delta is not None else (args.alpha or DEFAULT_ALPHA)
    grouping = amp.groups(delta=args.delta, alpha=alpha, examples=args.examples)
    boundary = f"delta {args.delta:g}" if args.delta is not None else f"alpha {alpha:g}"
    rep.info(
        f"read {len(texts)} page{plural(len(texts))} ({amp.n_bytes} bytes{', tag skeletons' if args.skeleton else ''}); "
        f"{len(grouping.peaks)} peak{plural(len(grouping.peaks))} ({boundary}); "
        f"{len(grouping.groups)} group{plural(len(grouping.groups))}, {len(grouping.ungrouped)} ungrouped"
    )

    if args.plot:
        try:
            _write_atomic(args.plot, svg_plot(amp.F, grouping.peaks, title=f"F(f) of {len(texts)} pages, {boundary}"))
        except OSError as exc:
            rep.message(f"{args.plot}: cannot write plot: {exc.strerror or exc}")
            errors += 1
        else:
            rep.info(f"wrote {args.plot}")

    try:
        if args.json:
            write_line(json.dumps({
                "groups": [[sources[i] for i in g] for g in grouping.groups],
                "peaks": grouping.peaks,
                "ungrouped": [sources[i] for i in grouping.ungrouped],
                "examples": [
                    {"text": p.text, "length": p.length, "count": p.count, "pages": [sources[i] for i in p.docs]}
                    for p in grouping.examples
                ],
            }, ensure_ascii=False))
        else:
            for k, g in enumerate(grouping.groups, 1):
                write_line(f"group {k} ({len(g)} page{plural(len(g))})")
                for i in g:
                    write_line(f"  {sources[i]}")
            if grouping.ungrouped:
                write_line(f"ungrouped ({len(grouping.ungrouped)} page{plural(len(grouping.ungrouped))})")
                for i in grouping.ungrouped:
                    write_line(f"  {sources[i]}")
            shown = ", ".join(str(f) for f in grouping.peaks[:20]) + (" ..." if len(grouping.peaks) > 20 else "")
            write_line(f"peaks ({boundary}): {shown or 'none'}")
            for p in grouping.examples:
                text = " ".join(p.text.split())
                text = text[:100] + ("..." if len(text) > 100 else "")
                write_line(f"template part ({p.length} bytes, {p.count}x on {len(p.docs)} pages): {text}")
    except BrokenPipeError:
        silence_stdout()
    return 1 if errors else 0


def _write_atomic(path: str, text: str) -> None:
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def svg_plot(F, peaks, title: str = "F(f)", width: int = 720, height: int = 440) -> str:
    """F(f) on log-log axes (f ≥ 1 with F(f) > 0) as a standalone SVG, peaks as red dots."""
    points = [(f, int(v)) for f, v in enumerate(F) if f >= 1 and v > 0]
    left, right, top, bottom = 70, 20, 36, 50
    pw, ph = width - left - right, height - top - bottom
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2:.0f}" y="22" text-anchor="middle" font-size="14">{html.escape(title)}</text>',
    ]
    if not points:
        out.append(f'<text x="{width / 2:.0f}" y="{height / 2:.0f}" text-anchor="middle">no substrings</text></svg>')
        return "\n".join(out)
    xmax = max(1, math.ceil(math.log10(max(f for f, _ in points)) + 1e-9))
    ymin = math.floor(math.log10(min(v for _, v in points)))
    ymax = max(ymin + 1, math.ceil(math.log10(max(v for _, v in points)) + 1e-9))

    def x(f: float) -> float:
        return left + pw * math.log10(f) / xmax

    def y(v: float) -> float:
        return top + ph * (1 - (math.log10(v) - ymin) / (ymax - ymin))

    out.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#444"/>')
    for d in range(0, xmax + 1):
        px = x(10**d)
        out.append(f'<line x1="{px:.1f}" y1="{top}" x2="{px:.1f}" y2="{top + ph}" stroke="#ddd"/>')
        out.append(f'<text x="{px:.1f}" y="{top + ph + 16}" text-anchor="middle">10<tspan dy="-5" font-size="9">{d}</tspan></text>')
    ystep = max(1, math.ceil((ymax - ymin) / 10))
    for d in range(ymin, ymax + 1, ystep):
        py = y(10**d)
        out.append(f'<line x1="{left}" y1="{py:.1f}" x2="{left + pw}" y2="{py:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{py + 4:.1f}" text-anchor="end">10<tspan dy="-5" font-size="9">{d}</tspan></text>')
    out.append(f'<text x="{left + pw / 2:.0f}" y="{height - 10}" text-anchor="middle">frequency f</text>')
    out.append(f'<text x="16" y="{top + ph / 2:.0f}" text-anchor="middle" '
               f'transform="rotate(-90 16 {top + ph / 2:.0f})">F(f) = f·V(f)</text>')
    path = " ".join(f"{'M' if i == 0 else 'L'}{x(f):.1f},{y(v):.1f}" for i, (f, v) in enumerate(points))
    out.append(f'<path d="{path}" fill="none" stroke="#1f5fa8" stroke-width="1"/>')
    peak_set = set(int(p) for p in peaks)
    for f, v in points:
        if f in peak_set:
            out.append(f'<circle cx="{x(f):.1f}" cy="{y(v):.1f}" r="3" fill="#d62728"><title>f={f} F={v}</title></circle>')
    out.append(f'<circle cx="{left + pw - 110}" cy="{top + 14}" r="3" fill="#d62728"/>'
               f'<text x="{left + pw - 102}" y="{top + 18}">peak ({len(peak_set)})</text>')
    out.append("</svg>")
    return "\n".join(out)
