"""Scoring a monitoring run of the demo site against what the site published that day.

:func:`score_day` takes the items a crawl emitted on day ``d`` and the sites of
day ``d - 1`` and ``d``: which articles were new that day, which were updated,
which stayed as they were, and, per article, the shingle F1 of the emitted body
against the truth (:mod:`newsstemmer.evaluation`).  Used by ``benchmarks/monitor.py``
and the monitoring tests.
"""

from __future__ import annotations

from typing import Any, Iterable
from urllib.parse import urlsplit

from ..evaluation import shingle_prf
from .sitemodel import DemoSite

__all__ = ["f1", "score_day"]


def f1(predicted: str, gold: str) -> float:
    """Shingle F1 of one text against its truth."""
    p, r = shingle_prf(predicted, gold)
    return 2 * p * r / (p + r) if p and r else 0.0


def score_day(items: Iterable[dict[str, Any]], before: DemoSite | None, site: DemoSite) -> dict[str, Any]:
    """What a run on ``site``'s day delivered (``before``: the previous day's site, None on day 1).

    Returns counts and shares: ``articles`` (live that day), ``expected`` (new or
    updated that day: every article on day 1), ``delivered`` (of those, in the feed;
    an update must come as ``update: true``), ``repeated`` (unchanged articles emitted
    again), ``f1_ok`` (expected articles in the feed with body F1 ≥ 0.97), ``false_updates``
    (unchanged articles emitted as updates), ``extra`` (items that are no article).
    """
    by_path: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        by_path.setdefault(urlsplit(item.get("url", "")).path, []).append(item)
    truth = {p.path: p for p in site.articles()}
    new = {p for p in truth if before is None or p not in before.pages}
    updated = {p for p, d in site.updated.items() if d == site.day and p not in new}
    unchanged = set(truth) - new - updated
    expected = new | updated
    delivered = {p for p in new if p in by_path} | {p for p in updated if any(i.get("update") for i in by_path.get(p, []))}
    f1s = {p: max(f1(i.get("body", ""), truth[p].text or "") for i in by_path[p]) for p in delivered}
    repeated = {p for p in unchanged if p in by_path}
    return {
        "day": site.day,
        "articles": len(truth),
        "new": len(new),
        "updated": len(updated),
        "unchanged": len(unchanged),
        "expected": len(expected),
        "delivered": len(delivered),
        "delivered_share": len(delivered) / len(expected) if expected else 1.0,
        "repeated": len(repeated),
        "repeated_share": len(repeated) / len(unchanged) if unchanged else 0.0,
        "false_updates": sum(1 for p in repeated if any(i.get("update") for i in by_path[p])),
        "f1_ok": sum(1 for v in f1s.values() if v >= 0.97),
        "f1_ok_share": sum(1 for v in f1s.values() if v >= 0.97) / len(expected) if expected else 1.0,
        "f1_mean": sum(f1s.values()) / len(f1s) if f1s else None,
        "new_f1_ok_share": (sum(1 for p in new if f1s.get(p, 0.0) >= 0.97) / len(new)) if new else 1.0,
        "extra": sum(len(v) for p, v in by_path.items() if p not in truth),
        "low_f1": sorted((round(v, 3), p) for p, v in f1s.items() if v < 0.97),
    }
