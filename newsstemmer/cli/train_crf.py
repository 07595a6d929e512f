"""``newsstemmer train-crf``: train the single-page CRF from pages labelled by learned patterns.

::

    newsstemmer train-crf patterns/ pages/ -o model.crfsuite
    newsstemmer train-crf patterns/a.com.json patterns/b.org.json pages/ -o model.crfsuite

The first argument names the pattern files: a directory (its ``*.json`` files)
or a ``.json`` file; further ``.json`` files right after it are pattern files too;
everything else is pages (files, or directories searched recursively as for
``extract``).  Each page goes to the patterns of its site (host of its canonical
URL); a page whose site is unknown is tried with every pattern file.  Pages that
no article layout matches are left out of training.  The model file (a zip
holding the two CRFs) is read by ``newsstemmer.single.crf.CRFExtractor``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ..io.files import NO_PAGES, PageReadError, find_pages, read_page
from ..io.linkinfo import page_from_file
from .common import (
    CLIError,
    Reporter,
    check_writable,
    fraction,
    load_patterns,
    non_negative,
    non_negative_int,
    plural,
    positive_int,
    require_inputs,
)

__all__ = ["add_arguments", "run"]

DESCRIPTION = (
    "Label pages with their sites' learned layout patterns (MAIN/TITLE text is content, "
    "the rest is not) and train the CRF model used for pages no pattern covers."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Give the ``train-crf`` parser its description and arguments."""
    from ..single.crf import DEFAULT_TRAIN_PARAMS

    p.description = DESCRIPTION
    p.add_argument("patterns", metavar="PATTERNS", help="pattern file (.json) or directory of pattern files")
    p.add_argument("pages", nargs="+", metavar="PAGE",
                   help="more pattern files (.json), then HTML or WARC files or directories (searched recursively)")
    p.add_argument("-o", "--output", required=True, metavar="MODEL", help="model file to write")
    p.add_argument("--c1", type=non_negative, metavar="C1",
                   help=f"L1 regularisation (default {DEFAULT_TRAIN_PARAMS['c1']:g})")
    p.add_argument("--c2", type=non_negative, metavar="C2",
                   help=f"L2 regularisation (default {DEFAULT_TRAIN_PARAMS['c2']:g})")
    p.add_argument("--max-iterations", type=positive_int, metavar="N",
                   help=f"L-BFGS iterations (default {DEFAULT_TRAIN_PARAMS['max_iterations']})")
    p.add_argument("--min-freq", type=non_negative_int, metavar="N",
                   help=f"drop features seen fewer times (default {DEFAULT_TRAIN_PARAMS['feature.minfreq']})")
    p.add_argument("--parent-share", type=fraction, metavar="SHARE",
                   help="share of the text below a parent block that must be content for it to be content (default 0.8)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    p.set_defaults(func=run)


def _split_arguments(first: str, rest: list[str]) -> tuple[list[Path], list[str]]:
    """Pattern files (from ``first`` and the ``.json`` files right after it) and page arguments."""
    args = [first, *rest]
    pattern_args: list[str] = [first]
    k = 1
    while k < len(args) and args[k].lower().endswith(".json") and not os.path.isdir(args[k]):
        pattern_args.append(args[k])
        k += 1
    files: list[Path] = []
    for arg in pattern_args:
        path = Path(arg)
        if path.is_dir():
            found = sorted(path.glob("*.json"))
            if not found:
                raise CLIError(f"{arg}: no pattern files (*.json) in this directory")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise CLIError(f"{arg}: no such pattern file or directory")
    if k >= len(args):
        raise CLIError("no pages given after the pattern files")
    return files, args[k:]


def run(args: argparse.Namespace, rep: Reporter) -> int:
    """Run ``newsstemmer train-crf``; return the exit code (user errors raise ``CLIError``)."""
    from ..single.crf import DEFAULT_SPLIT_TAGS, train
    from ..combine.crf_labels import pattern_labels
    from ..layout.learning import site_of
    from ..layout.patterns import SitePatterns

    output = args.output
    if os.path.isdir(output):
        raise CLIError(f"{output}: is a directory (-o names the model file to write)")
    check_writable(output)
    pattern_files, page_args = _split_arguments(args.patterns, args.pages)
    sites: list[SitePatterns] = []
    for path in pattern_files:
        sites.append(load_patterns(path))
    by_site = {s.site: s for s in sites}
    files = find_pages(require_inputs(page_args), rep.message)
    if not files:
        raise CLIError(NO_PAGES)

    params = {
        key: value
        for key, value in (
            ("c1", args.c1), ("c2", args.c2), ("max_iterations", args.max_iterations), ("feature.minfreq", args.min_freq)
        )
        if value is not None
    }
    parent_share = 0.8 if args.parent_share is None else args.parent_share
    labelled = []
    unreadable = unmatched = 0
    used_sites: set[str] = set()
    for n, pf in enumerate(files, 1):
        try:
            text = read_page(pf)
        except PageReadError as exc:
            rep.message(f"{pf.source}: skipped: {exc}")
            unreadable += 1
        else:
            page = page_from_file(pf, text)
            known = by_site.get(site_of(page.url)) if page.url else None
            candidates = [known] if known is not None else sites
            found = None
            for site in candidates:
                try:
                    found = pattern_labels(page, site, DEFAULT_SPLIT_TAGS, parent_share)
                except Exception as exc:  # an unparsable page (or a core bug) must not stop training
                    rep.message(f"{pf.source}: skipped: {type(exc).__name__}: {exc}")
                    break
                if found is not None:
                    used_sites.add(site.site)
                    break
            if found is None:
                unmatched += 1
            else:
                labelled.append(found)
        rep.progress("labelling", n, len(files))
    rep.finish()
    rep.info(
        f"labelled {len(labelled)} of {len(files)} page{plural(len(files))} with the patterns of "
        f"{len(used_sites)} site{plural(len(used_sites))}"
        + (f" ({unmatched} matched no article layout)" if unmatched else "")
        + (f" ({unreadable} unreadable)" if unreadable else "")
    )
    if not labelled:
        raise CLIError("no page matched an article layout of the given patterns: nothing to train on", code=1)
    blocks = sum(len(tp.text_labels) for tp in labelled)
    content = sum(sum(tp.text_labels) for tp in labelled)
    rep.info(f"training on {blocks} text blocks ({content} content)")
    try:
        target = train(labelled, output, params, DEFAULT_SPLIT_TAGS, {"pattern_sites": sorted(used_sites)})
    except ValueError as exc:
        raise CLIError(str(exc), code=1) from None
    except OSError as exc:
        raise CLIError(f"{output}: cannot write model file: {exc.strerror or exc}", code=1) from None
    rep.info(f"wrote {target} ({target.stat().st_size / 1024:.0f} KiB)")
    return 0
