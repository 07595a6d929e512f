"""The ``newsstemmer`` command: learn a site's layout patterns, extract articles.

::

    newsstemmer learn -o site.json [--linkinfo links.jsonl] pages/
    newsstemmer extract -p site.json pages/ > articles.jsonl
    newsstemmer report site.json pages/ -o report.html
    newsstemmer patterns history site.json

PAGE arguments are files or directories (searched recursively for ``*.html``,
``*.htm``, ``*.xhtml``, ``*.shtml``, ``*.warc``, ``*.warc.gz``, in sorted order).
Pages are read as bytes and decoded by :func:`newsstemmer.dom.decoding.decode_html`;
the page's URL is its ``<link rel="canonical">`` or ``<meta property="og:url">``
(:mod:`newsstemmer.io.files`).

A WARC file gives one page per ``response`` record with status 200 and an HTML
payload (see :mod:`newsstemmer.io.warc`): its URL is the record's
``WARC-Target-URI``, its charset that of the HTTP ``Content-Type``, and its
source ``FILE#OFFSET`` (the record's byte offset in the file, as ``warcio
extract FILE OFFSET`` takes it).  A damaged WARC is reported like an unreadable
page, with the file as source; the pages before the damage are read.  ``learn``
gives each WARC page the texts of the same-site links to it on the other WARC
pages of the run, besides the anchors of ``--linkinfo`` (JSON Lines, see
:mod:`newsstemmer.io.linkinfo`).

Each sub-command lives in its own module (``learn``, ``extract``, ``rules``,
``templates``, ``train_crf``, ``report``, ``patterns``) with ``add_arguments(parser)`` and ``run(args,
reporter)``; they share :mod:`newsstemmer.cli.common`.  A sub-command's module,
and the part of the core it needs, is imported only when that sub-command runs
(or its ``--help`` is shown): ``newsstemmer --version`` imports none of the core.

Exit codes: 0 success; 1 some page could not be read (extract) or the output
could not be written; 2 usage error, bad pattern/linkinfo file, no pages.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from functools import partial

from .. import __version__
from .common import PROG, CLIError, Parser, Reporter, ReporterLogHandler, silence_stdout

__all__ = ["COMMANDS", "build_parser", "main"]

#: The sub-commands, in the order ``--help`` lists them: name -> (module in this
#: package, one-line help).
COMMANDS: dict[str, tuple[str, str]] = {
    "learn": ("learn", "learn a site's layout patterns from its pages"),
    "extract": ("extract", "extract articles (one JSON object per page on stdout)"),
    "rules": ("rules", "print (or learn) a site's CSS-selector rules, ready to paste into a Scrapy spider"),
    "templates": ("templates", "group pages that share a template (substring amplification)"),
    "train-crf": ("train_crf", "train the single-page CRF model from pages matched by learned patterns"),
    "report": ("report", "write an HTML report of a site's layouts (or of the last crawl) with marked sample pages"),
    "patterns": ("patterns", "show a pattern file's history (versions, layouts added and retired), or export a Redis crawl's patterns"),
}


def _add_arguments(module: str, parser: argparse.ArgumentParser) -> None:
    importlib.import_module(f"{__name__}.{module}").add_arguments(parser)


def _built(module: str) -> bool:
    """Whether the optional extension ``newsstemmer.<module>`` is built (a file beside its
    ``.pyx``) and ``NEWSSTEMMER_PURE_PYTHON`` does not turn it off; read without importing it."""
    from importlib.machinery import EXTENSION_SUFFIXES
    from pathlib import Path

    if os.environ.get("NEWSSTEMMER_PURE_PYTHON", "") not in ("", "0"):
        return False
    where = Path(__file__).resolve().parent.parent.joinpath(*module.split("."))
    return any(where.with_name(where.name + suffix).is_file() for suffix in EXTENSION_SUFFIXES)


def graph_walk() -> str:
    """Which graph walk DOM PageRank uses, told by ``--version`` without importing the core:
    ``"compiled"`` when the extension ``newsstemmer.single._domwalk`` is built (and
    ``NEWSSTEMMER_PURE_PYTHON`` is not set), else ``"python"`` (``domgraph.GRAPH_WALK``)."""
    return "compiled" if _built("single._domwalk") else "python"


def tree_models() -> str:
    """Which walk the tree models use, told by ``--version`` likewise: ``"compiled"`` when
    ``newsstemmer._trees`` is built, else ``"numpy"`` (``trees.TREE_EVALUATOR``)."""
    return "compiled" if _built("_trees") else "numpy"


def hood_walk() -> str:
    """Which walk the metadata's headline neighbourhood uses, told by ``--version`` likewise:
    ``"compiled"`` when ``newsstemmer.metadata._hoodwalk`` is built, else ``"python"``
    (``metadata.neighbourhood.HOOD_WALK``)."""
    return "compiled" if _built("metadata._hoodwalk") else "python"


def body_walk() -> str:
    """Which walk page typing reads the body with, told by ``--version`` likewise:
    ``"compiled"`` when ``newsstemmer.pagetype._bodywalk`` is built, else ``"python"``
    (``pagetype.features.BODY_WALK``)."""
    return "compiled" if _built("pagetype._bodywalk") else "python"


def build_parser() -> argparse.ArgumentParser:
    """The ``newsstemmer`` parser; each sub-command's arguments are added on its first use."""
    parser = Parser(
        prog=PROG,
        description="Learn news sites' layouts from their pages and extract clean articles.",
    )
    compiled = (f"graph walk: {graph_walk()}, tree models: {tree_models()}, headline walk: {hood_walk()}, "
                f"body walk: {body_walk()}")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__} ({compiled})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for name, (module, help_text) in COMMANDS.items():
        sub.add_parser(name, help=help_text, arguments=partial(_add_arguments, module))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code (never raises for user errors)."""
    rep = Reporter()
    logger = logging.getLogger("newsstemmer")
    handler = ReporterLogHandler(rep)
    saved_propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exc:  # --help, --version
            return exc.code if isinstance(exc.code, int) else 0
        rep.quiet = args.quiet
        return args.func(args, rep)
    except CLIError as exc:
        rep.message(f"error: {exc}")
        return exc.code
    except KeyboardInterrupt:
        rep.message("interrupted")
        return 130
    except BrokenPipeError:
        silence_stdout()
        return 1
    except Exception as exc:
        if os.environ.get("NEWSSTEMMER_DEBUG"):
            raise
        rep.message(f"internal error: {type(exc).__name__}: {exc} (set NEWSSTEMMER_DEBUG=1 for a traceback)")
        return 1
    finally:
        rep.finish()
        logger.removeHandler(handler)
        logger.propagate = saved_propagate


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
