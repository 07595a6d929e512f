"""What the ``newsstemmer`` sub-commands share: errors, stderr reporting, stdout lines,
argument types, and small checks.

Kept light on purpose: ``newsstemmer --version`` imports this module and nothing of
the core (a helper that needs the core imports it when called).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from typing import TYPE_CHECKING, Any, Callable, TextIO, TypeVar

from ..errors import NewsstemmerError

if TYPE_CHECKING:
    from ..io.linkinfo import LinkInfo
    from ..layout.patterns import SitePatterns

__all__ = [
    "PROG",
    "CLIError",
    "HelpFormatter",
    "Parser",
    "Reporter",
    "ReporterLogHandler",
    "check_writable",
    "fraction",
    "load_patterns",
    "non_negative",
    "non_negative_int",
    "plural",
    "positive_int",
    "read_linkinfo",
    "replace_given",
    "require_inputs",
    "silence_stdout",
    "terminal_columns",
    "whole_number",
    "write_line",
]

PROG = "newsstemmer"

T = TypeVar("T")


class CLIError(NewsstemmerError):
    """A user error: printed as ``newsstemmer: error: <message>``; carries the exit code."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


# -- stderr reporting and progress ----------------------------------------------------


class Reporter:
    """Messages and progress on stderr.

    On a terminal, progress is one line rewritten with ``\\r``; otherwise a line
    is printed each time a stage advances by another 10% (and at its end).
    ``quiet`` silences progress and summaries, not warnings or errors.
    """

    def __init__(self, quiet: bool = False, stream: TextIO | None = None) -> None:
        self.quiet = quiet
        self._stream = stream
        self._open = 0  # length of the progress line currently shown (TTY)
        self._stage: str | None = None
        self._bucket = -1
        self._last_draw = 0.0

    @property
    def stream(self) -> TextIO:
        return self._stream if self._stream is not None else sys.stderr

    @property
    def tty(self) -> bool:
        try:
            return bool(self.stream.isatty())
        except (AttributeError, ValueError, OSError):
            return False

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass  # a closed or broken stderr must not stop the run

    def _clear(self) -> None:
        if self._open:
            self._write("\r" + " " * self._open + "\r")
            self._open = 0

    def message(self, text: str) -> None:
        """A warning or error line (always shown)."""
        self._clear()
        self._write(f"{PROG}: {text}\n")

    def info(self, text: str) -> None:
        """A summary line (hidden with -q)."""
        if not self.quiet:
            self.message(text)

    def progress(self, stage: str, done: int, total: int) -> None:
        """``done`` of ``total`` items of ``stage`` are through (hidden with -q)."""
        if self.quiet:
            return
        if stage != self._stage:
            self.finish()
            self._stage, self._bucket = stage, -1
        pct = 100 * done // total if total > 0 else 100
        last = total <= 0 or done >= total
        if self.tty:
            now = time.monotonic()
            if not last and now - self._last_draw < 0.1:
                return
            self._last_draw = now
            text = f"{PROG}: {stage} {done}/{total} ({pct}%)"
            self._write("\r" + text + " " * max(0, self._open - len(text)))
            self._open = len(text)
            if last:
                self._write("\n")
                self._open = 0
        else:
            bucket = pct // 10
            if bucket > self._bucket:
                self._bucket = bucket
                self._write(f"{PROG}: {stage} {done}/{total} ({pct}%)\n")

    def finish(self) -> None:
        """End a progress line left open on a terminal."""
        if self._open:
            self._write("\n")
            self._open = 0


class ReporterLogHandler(logging.Handler):
    """Routes the core's log warnings through the reporter (keeps the progress line tidy)."""

    def __init__(self, reporter: Reporter) -> None:
        super().__init__(logging.WARNING)
        self.reporter = reporter

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.reporter.message(record.getMessage())
        except Exception:  # pragma: no cover - logging must never raise
            self.handleError(record)


# -- stdout --------------------------------------------------------------------------


def write_line(text: str) -> None:
    """Write one line of UTF-8 to stdout and flush (BrokenPipeError propagates)."""
    out = sys.stdout
    encoding = (getattr(out, "encoding", None) or "").lower().replace("_", "-")
    buffer = getattr(out, "buffer", None)
    if encoding in ("utf-8", "utf8") or buffer is None:
        out.write(text + "\n")
        out.flush()
    else:
        out.flush()
        buffer.write((text + "\n").encode("utf-8"))
        buffer.flush()


def silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the final flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except Exception:  # not a real file (e.g. captured in tests): nothing to silence
        pass


# -- argument parsing ---------------------------------------------------------------------


def terminal_columns() -> int:
    """The terminal's width as :func:`shutil.get_terminal_size` gives it (``COLUMNS``, else the
    terminal of stdout, else 80), without importing :mod:`shutil` (and the compression
    modules it loads: a few milliseconds of every start)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help layout.  argparse makes one for every argument added (to check its
    metavar); its own reads the terminal's width through :mod:`shutil`."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, terminal_columns() - 2 if width is None else width)


class Parser(argparse.ArgumentParser):
    """argparse, but errors raise :class:`CLIError` instead of exiting (``main`` returns the code).

    ``arguments``, if given, adds the parser's arguments on first use (parsing or help):
    a sub-command's module, and the core it needs, is imported only when that
    sub-command is run.
    """

    def __init__(self, *args: Any, arguments: Callable[["Parser"], None] | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
        self._pending = arguments

    def ensure_arguments(self) -> None:
        """Add the arguments now if they were left for first use."""
        if self._pending is not None:
            add, self._pending = self._pending, None
            add(self)

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        self.ensure_arguments()
        return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        self.ensure_arguments()
        return super().format_usage()

    def format_help(self) -> str:
        self.ensure_arguments()
        return super().format_help()

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CLIError(f"{message} (see '{self.prog} --help')")


def fraction(text: str) -> float:
    """An argparse type: a number between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {text}")
    return value


def non_negative(text: str) -> float:
    """An argparse type: a finite number >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value >= 0.0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text}")
    return value


def whole_number(minimum: int, wording: str) -> Callable[[str], int]:
    """An argparse type for whole numbers of at least ``minimum`` (``wording`` says so in errors)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {wording}, got {text}")
        return value

    return parse


positive_int = whole_number(1, "at least 1")
non_negative_int = whole_number(0, "0 or more")


def method_name(text: str) -> str:
    """A ``--method`` / ``--fallback`` value as given; a removed single-page method is
    refused with what replaced it (argparse's own error would only list the choices)."""
    from ..single import REMOVED_METHODS

    if text in REMOVED_METHODS:
        raise argparse.ArgumentTypeError(REMOVED_METHODS[text])
    return text


def replace_given(options: T, **values: Any) -> T:
    """``options`` (a dataclass) with the values that were given (not None) replaced."""
    import dataclasses  # (not at the top: --version needs none of this)

    given = {k: v for k, v in values.items() if v is not None}
    return dataclasses.replace(options, **given) if given else options  # type: ignore[type-var]


# -- checks and files ----------------------------------------------------------------------


def check_writable(path: str, what: str = "pattern file") -> None:
    """Fail before the work if the output file's directory cannot be written (``what``:
    the file's kind, for the message)."""
    parent = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(parent):
        up = os.path.dirname(parent)
        if up == parent:
            break
        parent = up
    if not os.path.isdir(parent) or not os.access(parent, os.W_OK):
        raise CLIError(f"{path}: cannot write {what}: directory {parent} is not writable", code=1)


def require_inputs(paths: list[str]) -> list[str]:
    """``paths`` if at least one of them exists; else :class:`CLIError` (code 2) naming them.

    A missing path among others is reported by the command for that input alone; when
    none exists the command has nothing to do, and says so in one line.
    """
    if not paths or any(os.path.exists(p) for p in paths):
        return paths
    if len(paths) == 1:
        raise CLIError(f"{paths[0]}: no such file or folder.")
    shown = ", ".join(paths[:3]) + (", ..." if len(paths) > 3 else "")
    raise CLIError(f"none of the {len(paths)} pages given exists ({shown}).")


def load_patterns(path: str | os.PathLike[str]) -> "SitePatterns":
    """Load a pattern file, or raise :class:`CLIError` (code 2) saying what is wrong with it."""
    from ..layout.patterns import PatternFileError, SitePatterns  # the core, when a command needs it

    try:
        return SitePatterns.load(path)
    except PatternFileError as exc:
        raise CLIError(str(exc)) from None
    except (RecursionError, OverflowError, ValueError, TypeError) as exc:
        # Core validation gaps (e.g. very deeply nested JSON, a huge number).
        raise CLIError(f"{path}: corrupt pattern file: {type(exc).__name__}: {exc}") from None


def read_linkinfo(path: str | None) -> "LinkInfo | None":
    """The linkinfo file's anchors (None without a file), or :class:`CLIError` naming file and line."""
    if not path:
        return None
    from ..io.linkinfo import LinkInfoError, load_linkinfo

    try:
        return load_linkinfo(path)
    except LinkInfoError as exc:
        raise CLIError(str(exc)) from None


def plural(n: int) -> str:
    """``"s"`` unless ``n`` is 1 (for "1 page", "2 pages")."""
    return "" if n == 1 else "s"
