"""The tag skeleton of a page: what its template fixes, whatever the article says.

Substring amplification over skeletons instead of raw HTML groups pages by
template with far fewer bytes to index (see :func:`~newsstemmer.templates.pregroup`).
"""

from __future__ import annotations

import re

__all__ = ["skeleton"]

_SKIP_RE = re.compile(
    r"<!--.*?(?:-->|\Z)|<(script|style|textarea|noscript)\b[^>]*>.*?(?:</\1\s*>|\Z)|<!\[CDATA\[.*?(?:\]\]>|\Z)",
    re.IGNORECASE | re.DOTALL,
)
_TAG_RE = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9:_-]*)([^>]*)>(~?)")
_KEY_ATTR_RE = re.compile(
    r"""\b(id|class|name|property|role|src|href|action)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))""", re.IGNORECASE
)
#: Tags whose src/href/action are kept: the resources a template loads, not the links an article makes.
_RESOURCE_TAGS = frozenset(("script", "link", "img", "iframe", "form", "embed", "frame", "input"))
_DIGITS_RE = re.compile(r"\d+")
_SPACE_RE = re.compile(r"\s+")
_TEXT_RE = re.compile(r">[^<]*[^\s<][^<]*<")
#: Text-level tags: how often an article uses them is content, not template (kept with id/class).
_INLINE_TAGS = frozenset(
    "a b i u em strong font span br small big sup sub abbr cite code q s strike tt wbr nobr mark".split()
)


def skeleton(html: str) -> str:
    """The page reduced to its tag sequence: ``<tag id=.. class=..>`` / ``</tag>``, ``~`` for text.

    Only ``id``, ``class``, ``name``, ``property`` and ``role`` are kept, plus the
    address (without query) of the resources a template loads (scripts, styles,
    images, frames, forms); digits become ``0`` (per-article ids, dates); the
    contents of scripts, styles and comments are dropped (their tags stay), and
    so are text-level tags (``a``, ``b``, ``span``…) without id or class.  Far
    shorter than the HTML, and what a template fixes, whatever the article says.
    """

    def keep_tag(m: re.Match) -> str:
        tag = m.group(1)
        return f"<{tag.lower()}></{tag.lower()}>" if tag else ""

    text = _TEXT_RE.sub(">~<", _SKIP_RE.sub(keep_tag, html))
    out: list[str] = []
    append = out.append
    seen: dict[str, str] = {}  # templates repeat their tags: each distinct tag is worked out once
    for m in _TAG_RE.finditer(text):
        raw = m.group(0)
        token = seen.get(raw)
        if token is None:
            token = seen[raw] = _tag_token(*m.groups())
        append(token)
    return "".join(out)


def _tag_token(slash: str, name: str, attrs: str, text_after: str) -> str:
    name = name.lower()
    if slash:
        token = "" if name in _INLINE_TAGS else f"</{name}>"
    elif attrs and "=" in attrs:
        keys = []
        for a in _KEY_ATTR_RE.finditer(attrs):
            attr = a.group(1).lower()
            resource = attr in ("src", "href", "action")
            if resource and name not in _RESOURCE_TAGS:
                continue
            value = a.group(2) if a.group(2) is not None else a.group(3) if a.group(3) is not None else a.group(4)
            if resource:
                value = value.split("?", 1)[0]
            value = _DIGITS_RE.sub("0", _SPACE_RE.sub(" ", value.strip()))
            if value:
                keys.append(f" {attr}={value}")
        token = f"<{name}{''.join(keys)}>" if keys or name not in _INLINE_TAGS else ""
    else:
        token = "" if name in _INLINE_TAGS else f"<{name}>"
    return token + text_after

