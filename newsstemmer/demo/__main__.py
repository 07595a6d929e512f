"""``python -m newsstemmer.demo``: serve the demo site (or write it to a folder).

``python -m newsstemmer.demo truth --day N`` prints one JSON object per article live on
day N: ``{"path", "title", "body", "published", "updated"}``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import NoReturn

from .server import DemoServer
from .site import build_site

DESCRIPTION = """\
Serve the demo news site on 127.0.0.1 until interrupted, or write its pages to a folder
(--out DIR).

python -m newsstemmer.demo truth --day N prints one JSON object per article live on
day N, with the keys path, title, body, published and updated: the truth the demo
crawl is scored against.
"""


class _Parser(argparse.ArgumentParser):
    """argparse, with a mistake told in one line (the usage is one --help away)."""

    def error(self, message: str) -> NoReturn:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    truth = bool(argv) and argv[0] == "truth"
    ap = _Parser(prog="python -m newsstemmer.demo" + (" truth" if truth else ""),
                                 description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=7, help="the random seed the site is made from (default: 7)")
    ap.add_argument("--day", type=int, default=1, help="the demo day (1: the original site; 3 on: redesigned)")
    ap.add_argument("--articles", type=int, default=120, help="articles on day 1 (default: 120)")
    ap.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: any free port)")
    ap.add_argument("--out", metavar="DIR", help="write the pages to DIR instead of serving them")
    args = ap.parse_args(argv[1:] if truth else argv)
    try:
        site = build_site(args.seed, args.articles, args.day)
    except ValueError as exc:
        ap.error(str(exc))
    if truth:
        for record in site.truth_records():
            print(json.dumps(record, ensure_ascii=False))
        return 0
    if args.out:
        n = site.save(args.out)
        print(f"wrote {n} files to {args.out}", file=sys.stderr)
        return 0
    with DemoServer(site, port=args.port) as server:
        print(f"serving day {site.day}: {len(site)} pages on {server.base_url}/ (Ctrl-C to stop)", file=sys.stderr)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
