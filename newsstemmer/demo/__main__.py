"""``python -m newsstemmer.demo``: serve the demo site (or write it to a folder)."""

from __future__ import annotations

import argparse
import sys
import time

from .server import DemoServer
from .site import build_site


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m newsstemmer.demo", description=__doc__)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--articles", type=int, default=120)
    ap.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: any free port)")
    ap.add_argument("--out", metavar="DIR", help="write the pages to DIR instead of serving them")
    args = ap.parse_args(argv)
    site = build_site(args.seed, args.articles)
    if args.out:
        n = site.save(args.out)
        print(f"wrote {n} files to {args.out}", file=sys.stderr)
        return 0
    with DemoServer(site, port=args.port) as server:
        print(f"serving {len(site)} pages on {server.base_url}/ (Ctrl-C to stop)", file=sys.stderr)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
