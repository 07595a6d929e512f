"""Site-grouped folds for cross-validation (issue #12's protocol).

A *group* is what must never be split between a training and a test fold:

- a site of one dataset, keyed ``dataset/site`` (``dragnet/guardian.co.uk``);
- except Big9, whose sites are one group across their years: the pages of
  ``big9-05/bbc`` and ``big9-09/bbc`` are the group ``big9/bbc`` (the manifest
  uses the same site key in both years);
- with ``merge_hosts=True``, also the groups of different datasets that share a
  host name (see :func:`host_key`): dragnet's ``arstechnica.com`` and Big9's
  ``arstechnica``, chaos's ``cnn.com`` and Big9's ``cnn``.  Off by default.

:func:`grouped_folds` deals whole groups into K folds, deterministically,
balancing page counts greedily (largest group first, into the fold with the
fewest pages) within each *stratum*: the evaluation set a group belongs to
(``big9``, ``cleanportal``, ``dragnet``, ``dragnet-single``, ``readability``,
``chaos``...), so every fold holds about 1/K of every evaluation set's pages,
and then of all pages.  The seed only orders groups of equal size.

    from benchmarks.shared import grouped_folds
    folds = grouped_folds(entries, 5, seed=0)   # list of 5 lists of Entry
    python benchmarks/folds.py [--folds 5] [--seed 0] [--merge-hosts]   # summary + self-check
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from urllib.parse import urlsplit

from .data import Entry

BIG9 = ("big9-05", "big9-09")
# Second-level labels under a country code that are not a registrant's name (bbc.co.uk).
_SECOND_LEVEL = {"co", "com", "org", "net", "ac", "gov", "edu", "ne", "or"}
# Hosting platforms: each subdomain is its own publisher (someone.blogspot.com).
_PLATFORMS = {"blogspot.com", "typepad.com", "wordpress.com", "tumblr.com", "medium.com", "livejournal.com", "github.io"}
_HOSTLIKE = re.compile(r"^[a-z0-9-]+(\.[a-z0-9-]+)+$")


def family(dataset: str) -> str:
    """The dataset a group is keyed by: ``big9`` for both Big9 years, else the dataset."""
    return "big9" if dataset in BIG9 else dataset


def group_key(e: Entry) -> str:
    """The group of one page: ``dataset/site``, Big9 years merged (``big9/bbc``)."""
    return f"{family(e.dataset)}/{e.site}"


def host_key(e: Entry) -> str | None:
    """The page's registrable host name, roughly (``news.bbc.co.uk`` → ``bbc.co.uk``;
    a blog on a hosting platform keeps its own name: ``balkin.blogspot.com``).

    From the page's URL, else from a site key that looks like a host name
    (dragnet, chaos); None when neither tells (readability's named test pages).
    Archive copies (web.archive.org/web/…/http://host/…) give the archived host.
    """
    host = ""
    if e.url:
        url = e.url
        inner = re.search(r"/web/\d+[a-z_]*/(https?://.*)$", url)
        if inner:
            url = inner.group(1)
        host = (urlsplit(url).hostname or "").lower()
    if not host:
        site = e.site.lower().split("_", 1)[0]
        host = site if _HOSTLIKE.match(site) else ""
    if not host or host.replace(".", "").isdigit() or host in ("localhost",):
        return None
    labels = host.split(".")
    n = 3 if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL else 2
    if ".".join(labels[-2:]) in _PLATFORMS:
        n = 3
    return ".".join(labels[-n:])


def site_groups(entries: Sequence[Entry], merge_hosts: bool = False) -> list[str]:
    """The group key of every page, in the order of ``entries``.

    With ``merge_hosts``, groups whose pages share a host (:func:`host_key`) across
    datasets are merged; the merged group is named by its smallest key.
    """
    keys = [group_key(e) for e in entries]
    if not merge_hosts:
        return keys
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            lo, hi = sorted((ra, rb))
            parent[hi] = lo

    for e, key in zip(entries, keys):
        find(key)
        host = host_key(e)
        if host is not None:
            union(key, "host:" + host)
    # Name each merged group by its smallest real (non-host) key.
    names: dict[str, str] = {}
    for key in sorted(set(keys)):
        names.setdefault(find(key), key)
    return [names[find(k)] for k in keys]


def stratum(e: Entry, group_sizes: Counter, group: str) -> str:
    """The evaluation set a group's pages are judged in (one-page groups apart)."""
    base = family(e.dataset)
    return f"{base}-single" if group_sizes[group] == 1 else base


def assign_groups(entries: Sequence[Entry], k: int, seed: int = 0, merge_hosts: bool = False) -> dict[str, int]:
    """group key → fold index (0..k-1); see the module's docstring for the rule."""
    if k < 2:
        raise ValueError("need at least 2 folds")
    keys = site_groups(entries, merge_hosts)
    sizes = Counter(keys)
    # A (merged) group's stratum is that of its first page in manifest order.
    strata: dict[str, str] = {}
    for e, key in zip(entries, keys):
        strata.setdefault(key, stratum(e, sizes, key))
    by_stratum: dict[str, list[str]] = defaultdict(list)
    for key in sorted(sizes):
        by_stratum[strata[key]].append(key)

    rng = random.Random(seed)
    total = [0] * k
    fold_of: dict[str, int] = {}
    for name in sorted(by_stratum):
        groups = by_stratum[name]
        rng.shuffle(groups)  # the seed orders groups of equal size
        groups.sort(key=lambda g: -sizes[g])  # stable: largest first
        load = [0] * k
        for g in groups:
            f = min(range(k), key=lambda i: (load[i], total[i], i))
            fold_of[g] = f
            load[f] += sizes[g]
            total[f] += sizes[g]
    return fold_of


def grouped_folds(entries: Sequence[Entry], k: int, seed: int = 0, merge_hosts: bool = False) -> list[list[Entry]]:
    """K folds of whole groups (pages in manifest order within a fold); self-checked."""
    fold_of = assign_groups(entries, k, seed, merge_hosts)
    keys = site_groups(entries, merge_hosts)
    folds: list[list[Entry]] = [[] for _ in range(k)]
    for e, key in zip(entries, keys):
        folds[fold_of[key]].append(e)
    check_folds(folds, merge_hosts)
    return folds


def check_folds(folds: Sequence[Sequence[Entry]], merge_hosts: bool = False) -> None:
    """Raise if a group spans two folds, or if a page is in two folds."""
    everything = [e for fold in folds for e in fold]
    keys = site_groups(everything, merge_hosts)
    seen: dict[str, int] = {}
    pages: set[tuple[str, str, str]] = set()
    i = 0
    for f, fold in enumerate(folds):
        for e in fold:
            key = keys[i]
            i += 1
            if seen.setdefault(key, f) != f:
                raise AssertionError(f"group {key} is in folds {seen[key]} and {f}")
            page = (e.dataset, e.site, e.id)
            if page in pages:
                raise AssertionError(f"page {page} is in two folds")
            pages.add(page)
