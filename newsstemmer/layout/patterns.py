"""The learned model of a site: layout patterns, their sections, and the JSON file.

One human-readable JSON file per site (SPEC §2.7).  Loading validates every field
and raises :class:`PatternFileError` naming the file and the problem; the file is
never evaluated as code.  Saving is atomic (temporary file, then rename).

A file also keeps its history, for sites monitored over months: each layout says in
which version of the file it was added (``version``), when (``learned_at``) and, once
no page has matched it for long, when it was retired (``retired_at``; retired layouts
are kept under ``"retired"`` and not used); ``"history"`` lists the versions (when,
from how many pages, why, layouts added and retired).  All of it is optional: files
written before it load as they are (their layouts count as version 1), and readers
that do not know these keys see the layouts in use only.  So are a layout's
``byline_section`` and ``date_section`` (the sections holding the byline and the date
line, :mod:`newsstemmer.combine.metasections`): absent, the layout marks neither; and
its ``page_types`` and ``page_score`` (how its learning pages were typed,
:mod:`newsstemmer.combine.layouttypes`): absent, its pages are typed one by one.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import NewsstemmerError
from .blocks import BlockOptions

if TYPE_CHECKING:
    from ..article import Article

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "ROLES",
    "LayoutSection",
    "LayoutPattern",
    "SitePatterns",
    "PatternFileError",
    "current_umask",
    "json_problem",
    "pattern_file_name",
    "write_atomically",
]

FORMAT_NAME = "newsstemmer-patterns"
FORMAT_VERSION = 1
#: What a section holds: the headline, main text, other varying text, or boilerplate.
ROLES = ("title", "main", "sub", "static")


def write_atomically(path: str | os.PathLike[str], text: str, mode: int | None = None) -> Path:
    """Write a UTF-8 text file atomically (a temporary file beside it, synced, then renamed):
    a reader sees the old file or the new one, never half.  ``mode``: its permissions
    (default: those of any new file, 0666 less the process's umask; the temporary file
    itself is made readable by its owner only)."""
    import tempfile  # (only to write: reading pattern files does not load it)

    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~current_umask() if mode is None else mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return target


def json_problem(exc: json.JSONDecodeError) -> str:
    """A JSON error as a whole phrase: ``unterminated string starting at line 1, column 7``
    (the decoder's own message ends with "at", its position kept apart)."""
    msg = exc.msg.strip()
    msg = msg[:-3] if msg.endswith(" at") else msg
    return f"invalid JSON: {msg[:1].lower()}{msg[1:]} at line {exc.lineno}, column {exc.colno}."


def current_umask() -> int:
    """The process's umask, read without changing it where the system says it (Linux's
    ``/proc/self/status``): setting and restoring it races with threads writing files."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def pattern_file_name(site: str) -> str:
    """The file name of a site's patterns (``<site>.json``, characters unsafe in file names
    replaced): the crawl writes these, the reports and ``patterns-export`` name them alike."""
    return re.sub(r"[^\w.-]", "_", site) + ".json"


class PatternFileError(NewsstemmerError, ValueError):
    """A pattern file is unreadable, corrupt, or not a newsstemmer pattern file."""


@dataclass
class LayoutSection:
    """One position of a layout pattern: the blocks aligned there on every page."""

    path: str
    diff_score: float
    main_score: float
    role: str = "static"
    shared: float = 0.0  # share of its text that recurs on other pages (teasers, related links)


@dataclass
class LayoutPattern:
    """A layout shared by a cluster of pages, with a role for each section."""

    id: str
    score: float
    pages: int
    sections: list[LayoutSection]
    title_section: int | None = None
    main_section: int | None = None
    article: bool = True
    sample_urls: list[str] = field(default_factory=list)
    # Blocks that align to no section (extra paragraphs, boxes a page has more of)
    # are judged by their path alone: path -> role, learned from the same pages.
    free_paths: dict[str, str] = field(default_factory=dict)
    # The sections that hold the byline and the date line on this template, found from
    # what varies per page (newsstemmer.combine.metasections); None where none does.
    byline_section: int | None = None
    date_section: int | None = None
    # Digests of lines most pages of the layout carry: dropped even from main text.
    static_lines: list[str] = field(default_factory=list)
    # The page types of the pages it was learned from, each typed alone at learning (kind ->
    # pages), and the median of their article scores (newsstemmer.combine.layouttypes):
    # where they agree, extraction types the layout's pages by this vote.  None: not typed.
    page_types: dict[str, int] | None = None
    page_score: float | None = None
    # History (see the module docstring): the file version that added it, when, when retired.
    version: int | None = None
    learned_at: str | None = None
    retired_at: str | None = None
    # When the crawl learned this layout again from its own pages and found no layout to replace
    # it (newsstemmer.crawl.relearn): it is not tried again.  None: not tried.
    relearn_kept: str | None = None

    @property
    def paths(self) -> list[str]:
        return [s.path for s in self.sections]


@dataclass
class SitePatterns:
    """Every layout pattern learned for one site, with the settings used to learn them."""

    site: str
    patterns: list[LayoutPattern]
    settings: dict[str, Any] = field(default_factory=dict)
    pages: list[str] = field(default_factory=list)
    created: str = ""
    # Rules and other per-site models are kept by name so later components can add theirs.
    extras: dict[str, Any] = field(default_factory=dict)
    # Versions of the file (see the module docstring) and the layouts no longer in use.
    history: list[dict[str, Any]] = field(default_factory=list)
    retired: list[LayoutPattern] = field(default_factory=list)
    # The patterns' section paths as codes, made by extraction on first use (never saved).
    match_cache: Any = field(default=None, init=False, repr=False, compare=False)

    def block_options(self) -> BlockOptions:
        """The segmenter settings the patterns were learned with (defaults where absent)."""
        raw = self.settings.get("blocks") if isinstance(self.settings, dict) else None
        if not isinstance(raw, dict):
            return BlockOptions()
        known = {k: v for k, v in raw.items() if k in BlockOptions.__dataclass_fields__}
        try:
            return BlockOptions(**known)
        except TypeError:
            return BlockOptions()

    @property
    def revision(self) -> int:
        """The file's version in its history (1 for a file without history)."""
        return max((int(h.get("version", 1)) for h in self.history), default=1)

    def add_version(self, entry: dict[str, Any]) -> None:
        """Record a version of the file (``version``, ``learned_at``, ``pages``, ``reason``,
        ``added``, ``retired``, ...); a file without history first records its layouts as version 1."""
        if not self.history and self.patterns and entry.get("version", 1) > 1:
            self.history.append({"version": 1, "learned_at": self.created or None, "pages": len(self.pages),
                                 "reason": "learned", "added": [p.id for p in self.patterns if p.version in (None, 1)]})
        self.history.append(entry)

    def layout(self, pattern_id: str | None) -> LayoutPattern | None:
        """The layout in use whose id is ``pattern_id`` (an article's ``pattern``), or None."""
        return next((p for p in self.patterns if p.id == pattern_id), None) if pattern_id else None

    def retire(self, ids: list[str], when: str, reason: str) -> list[LayoutPattern]:
        """Take layouts out of use (kept under ``retired``); records a new version.  Returns them."""
        gone = [p for p in self.patterns if p.id in ids]
        if not gone:
            return []
        for p in gone:
            p.retired_at = when
        self.patterns = [p for p in self.patterns if p.id not in ids]
        self.retired.extend(gone)
        self.match_cache = None
        self.add_version({"version": self.revision + 1, "learned_at": when, "pages": 0, "reason": reason,
                          "added": [], "retired": [p.id for p in gone]})
        return gone

    def extract(self, html: str, url: str | None = None, options: Any = None) -> "Article":
        """Extract a page of this site: :func:`newsstemmer.extract` with these patterns
        (an :class:`~newsstemmer.article.Article`; ``options``: an ``ExtractOptions``)."""
        # The extraction chain is a layer above the layout engine: imported when called
        # (tests/test_architecture.py allows this one call upward, inside the method).
        from ..combine.extract import extract

        return extract(html, self, url=url, options=options)

    # -- serialisation -------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "site": self.site,
            "created": self.created,
            "settings": self.settings,
            "pages": self.pages,
            "patterns": [_layout_dict(p) for p in self.patterns],
            **({"extras": self.extras} if self.extras else {}),
            **({"history": self.history} if self.history else {}),
            **({"retired": [_layout_dict(p) for p in self.retired]} if self.retired else {}),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1) + "\n"

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the file atomically: a reader sees the old file or the new one, never half."""
        return write_atomically(path, self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "SitePatterns":
        """Read and validate a pattern file; errors name the file and what is wrong."""
        p = Path(path)
        try:
            raw = p.read_bytes()
        except OSError as exc:
            raise PatternFileError(f"{p}: cannot read pattern file: {exc.strerror or exc}") from None
        try:
            data = json.loads(raw.decode("utf-8-sig"))
        except RecursionError:
            raise PatternFileError(f"{p}: corrupt pattern file: JSON nested too deeply") from None
        except UnicodeDecodeError:
            raise PatternFileError(f"{p}: not a pattern file (not UTF-8 text)") from None
        except json.JSONDecodeError as exc:
            raise PatternFileError(f"{p}: corrupt pattern file: {json_problem(exc)}") from None
        try:
            return cls.from_dict(data)
        except PatternFileError as exc:
            raise PatternFileError(f"{p}: {exc}") from None
        except (OverflowError, RecursionError, ValueError, TypeError) as exc:
            raise PatternFileError(f"{p}: corrupt pattern file: {exc}") from None

    @classmethod
    def from_dict(cls, data: Any) -> "SitePatterns":
        """Build from parsed JSON, checking every field's type."""
        if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
            raise PatternFileError(f"not a newsstemmer pattern file (expected \"format\": \"{FORMAT_NAME}\")")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise PatternFileError("missing or invalid \"version\"")
        if version > FORMAT_VERSION:
            raise PatternFileError(
                f"pattern file version {version} is newer than this newsstemmer understands ({FORMAT_VERSION}); upgrade newsstemmer"
            )
        site = _need(data, "site", str, "file")
        settings = data.get("settings", {})
        if not isinstance(settings, dict):
            raise PatternFileError("\"settings\" must be an object")
        _check_settings(settings)
        pages = data.get("pages", [])
        if not isinstance(pages, list) or not all(isinstance(u, str) for u in pages):
            raise PatternFileError("\"pages\" must be a list of strings")
        raw_patterns = data.get("patterns")
        if not isinstance(raw_patterns, list):
            raise PatternFileError("\"patterns\" must be a list")
        patterns = [_pattern_from_dict(p, i) for i, p in enumerate(raw_patterns)]
        extras = data.get("extras", {})
        if not isinstance(extras, dict):
            raise PatternFileError("\"extras\" must be an object")
        created = data.get("created", "")
        history = data.get("history", [])
        if not isinstance(history, list) or not all(isinstance(h, dict) for h in history):
            raise PatternFileError("\"history\" must be a list of objects")
        for k, h in enumerate(history):
            v = h.get("version")
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise PatternFileError(f"history entry #{k}: \"version\" must be a positive whole number")
        raw_retired = data.get("retired", [])
        if not isinstance(raw_retired, list):
            raise PatternFileError("\"retired\" must be a list")
        retired = [_pattern_from_dict(p, i, "retired layout") for i, p in enumerate(raw_retired)]
        return cls(site, patterns, settings, list(pages), created if isinstance(created, str) else "", extras,
                   history=[dict(h) for h in history], retired=retired)


def _layout_dict(p: LayoutPattern) -> dict[str, Any]:
    """A layout as saved: the history keys and the byline / date-line marks only when set,
    so files without them keep their shape."""
    d = asdict(p)
    for key in ("version", "learned_at", "retired_at", "byline_section", "date_section", "page_types", "page_score",
                "relearn_kept"):
        if d.get(key) is None:
            d.pop(key, None)
    return d


def _need(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = obj.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise PatternFileError(f"{where}: \"{key}\" must be {names}, got {type(value).__name__}")
    return value


def _flag(obj: dict[str, Any], key: str, where: str, default: bool = True) -> bool:
    value = obj.get(key, default)
    if not isinstance(value, bool):
        raise PatternFileError(f"{where}: \"{key}\" must be true or false, got {type(value).__name__}")
    return value


def _count(obj: dict[str, Any], key: str, where: str) -> int:
    value = _need(obj, key, int, where)
    if value < 0:
        raise PatternFileError(f"{where}: \"{key}\" must not be negative")
    return value


def _number(obj: dict[str, Any], key: str, where: str) -> float:
    value = float(_need(obj, key, (int, float), where))
    if value != value or value in (float("inf"), float("-inf")):
        raise PatternFileError(f"{where}: \"{key}\" must be a finite number")
    return value


_BLOCK_SETTINGS = {"path_depth": int, "min_weight": int, "normalise_digits": bool, "merge_same_path": bool}


def _check_settings(settings: dict[str, Any]) -> None:
    """The segmenter settings are used to read pages again: their types must be right."""
    blocks = settings.get("blocks", {})
    if not isinstance(blocks, dict):
        raise PatternFileError("\"settings.blocks\" must be an object")
    for key, kind in _BLOCK_SETTINGS.items():
        if key in blocks:
            v = blocks[key]
            if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
                raise PatternFileError(f"settings.blocks: \"{key}\" must be {kind.__name__}, got {type(v).__name__}")
            if kind is int and not 0 <= v <= 1000:
                raise PatternFileError(f"settings.blocks: \"{key}\" out of range: {v}")


def _digests(raw: dict[str, Any], where: str) -> list[str]:
    value = raw.get("static_lines", [])
    if not isinstance(value, list) or not all(isinstance(v, str) and len(v) <= 64 for v in value):
        raise PatternFileError(f"{where}: \"static_lines\" must be a list of short strings")
    return list(value)


def _kind_counts(raw: dict[str, Any], where: str) -> dict[str, int] | None:
    value = raw.get("page_types")
    if value is None:
        return None
    if not isinstance(value, dict) or not all(
            isinstance(k, str) and isinstance(n, int) and not isinstance(n, bool) and n >= 0 for k, n in value.items()):
        raise PatternFileError(f"{where}: \"page_types\" must map page kinds to page counts")
    return dict(value)


def _optional(raw: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = raw.get(key)
    if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
        raise PatternFileError(f"{where}: \"{key}\" must be {kind.__name__} or absent, got {type(value).__name__}")
    return value


def _pattern_from_dict(raw: Any, i: int, what: str = "pattern") -> LayoutPattern:
    where = f"{what} #{i}"
    if not isinstance(raw, dict):
        raise PatternFileError(f"{where} must be an object")
    raw_sections = _need(raw, "sections", list, where)
    sections = []
    for k, s in enumerate(raw_sections):
        sw = f"{where} section #{k}"
        if not isinstance(s, dict):
            raise PatternFileError(f"{sw} must be an object")
        role = _need(s, "role", str, sw)
        if role not in ROLES:
            raise PatternFileError(f"{sw}: unknown role {role!r} (expected one of {', '.join(ROLES)})")
        sections.append(
            LayoutSection(
                path=_need(s, "path", str, sw),
                diff_score=_number(s, "diff_score", sw),
                main_score=_number(s, "main_score", sw),
                role=role,
                shared=_number(s, "shared", sw) if "shared" in s else 0.0,
            )
        )
    n = len(sections)
    for key in ("title_section", "main_section", "byline_section", "date_section"):
        v = raw.get(key)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n):
            raise PatternFileError(f"{where}: \"{key}\" must be null or a section index below {n}")
    free = raw.get("free_paths", {})
    if not isinstance(free, dict) or not all(isinstance(k, str) and v in ROLES for k, v in free.items()):
        raise PatternFileError(f"{where}: \"free_paths\" must map paths to one of {', '.join(ROLES)}")
    urls = raw.get("sample_urls", [])
    if not isinstance(urls, list) or not all(isinstance(u, str) for u in urls):
        raise PatternFileError(f"{where}: \"sample_urls\" must be a list of strings")
    return LayoutPattern(
        id=_need(raw, "id", str, where),
        score=_number(raw, "score", where),
        pages=_count(raw, "pages", where),
        sections=sections,
        title_section=raw.get("title_section"),
        main_section=raw.get("main_section"),
        article=_flag(raw, "article", where),
        sample_urls=list(urls),
        free_paths=dict(free),
        byline_section=raw.get("byline_section"),
        date_section=raw.get("date_section"),
        static_lines=_digests(raw, where),
        page_types=_kind_counts(raw, where),
        page_score=_number(raw, "page_score", where) if raw.get("page_score") is not None else None,
        version=_optional(raw, "version", int, where),
        learned_at=_optional(raw, "learned_at", str, where),
        retired_at=_optional(raw, "retired_at", str, where),
        relearn_kept=_optional(raw, "relearn_kept", str, where),
    )
