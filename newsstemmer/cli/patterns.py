"""``newsstemmer patterns history FILE``: the versions of a site's pattern file;
``newsstemmer patterns export --redis URL DIR``: the patterns of a crawl shared through Redis, as files.

A pattern file written by a monitoring crawl keeps its history (see
:mod:`newsstemmer.layout.patterns`): each version says when it was made, from how
many pages, why (first learning, drift, retirement) and which layouts it added or
retired.  This command prints that history, then every layout (in use or retired)
with the version that added it, when it was learned, from how many pages, and when
it was retired.  ``--json`` prints the same as one JSON object.  ``export`` writes
the pattern files a crawl shared through Redis keeps there into a folder
(:mod:`.patterns_export`).
"""

from __future__ import annotations

import argparse
import json

from .common import CLIError, Reporter, load_patterns, write_line

__all__ = ["add_arguments", "run"]

DESCRIPTION = """\
history: print the versions of a site's pattern file, as a monitoring crawl keeps them
(when each was made, from how many pages, why: first learning, drift or retirement, and
which layouts it added or retired), then every layout, in use or retired, with the
version that added it, when it was learned, from how many pages and when it was
retired; with --json, the same as one JSON object.  export: write the pattern files of
a crawl shared through Redis (--redis URL) into a folder, one file per site.
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Give the ``patterns`` parser its description and arguments."""
    p.description = DESCRIPTION
    p.add_argument("action", choices=["history", "export"],
                   help="history: the file's versions and layouts; export: a Redis crawl's patterns into a folder")
    p.add_argument("patterns", metavar="PATTERNS.json|DIR", help="the site's pattern file (history), the folder (export)")
    p.add_argument("--redis", metavar="URL", help="export: the crawl's NEWSSTEMMER_REDIS_URL")
    p.add_argument("--prefix", default="newsstemmer", help="export: the crawl's NEWSSTEMMER_REDIS_PREFIX (default newsstemmer)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, rep: Reporter) -> int:
    if args.action == "export":
        from .patterns_export import export

        return export(args, rep)
    site = load_patterns(args.patterns)
    layouts = [(p, "in use") for p in site.patterns] + [(p, "retired") for p in site.retired]
    history = site.history or [{"version": 1, "learned_at": site.created or None, "pages": len(site.pages),
                                "reason": "learned (file without history)", "added": [p.id for p in site.patterns]}]
    rows = [{"id": p.id, "state": state, "version": p.version or 1, "learned_at": p.learned_at or site.created or None,
             "pages": p.pages, "article": p.article, "retired_at": p.retired_at} for p, state in layouts]
    if args.json:
        write_line(json.dumps({"file": str(args.patterns), "site": site.site, "version": site.revision,
                               "history": history, "layouts": rows}, ensure_ascii=False))
        return 0
    if not layouts and not site.history:
        raise CLIError(f"{args.patterns}: no layouts and no history")
    write_line(f"{args.patterns}: site {site.site}, version {site.revision}, "
               f"{len(site.patterns)} layouts in use, {len(site.retired)} retired")
    write_line("")
    write_line("version  made                       pages  why / what")
    for h in history:
        changes = []
        if h.get("added"):
            changes.append("added " + " ".join(map(str, h["added"])))
        if h.get("retired"):
            changes.append("retired " + " ".join(map(str, h["retired"])))
        write_line(f"{h.get('version', '?'):>7}  {str(h.get('learned_at') or '-'):25}  {h.get('pages', 0):>5}  "
                   f"{h.get('reason', '')}{': ' if changes else ''}{'; '.join(changes)}")
    write_line("")
    write_line("layout  version  kind         learned_at                 pages  retired_at")
    for r in rows:
        kind = "article" if r["article"] else "non-article"
        write_line(f"{r['id']:6}  {r['version']:>7}  {kind:11}  {str(r['learned_at'] or '-'):25}  {r['pages']:>5}  "
                   f"{r['retired_at'] or '-'}")
    return 0
