"""The body as Markdown and as clean HTML, made from its typed blocks (issue #25).

Both read the same blocks as the plain ``body``, so their text is the body's text:
Markdown (CommonMark with GitHub's pipe tables) escapes every character that would
otherwise make markup, so that rendering it gives back the body's words and nothing
else; HTML escapes all text and attribute values and writes only the elements it
knows (``p``, ``h2``-``h4``, ``ul``/``ol``/``li``, ``blockquote``, ``table``, ``pre``,
``figure``/``figcaption``/``img``, ``a href``, ``br``): nothing of the page's own
markup, scripts or attributes passes through.  Pictures are written only when asked
(``images=True``, what keeping the ``figure`` kind does); otherwise a figure's caption
that is part of the body is written as a paragraph.
"""

from __future__ import annotations

import re
import string
from html import escape
from urllib.parse import quote

from .blocks import Block

__all__ = ["html", "markdown"]

# -- shared ----------------------------------------------------------------------------


def _with_links(line: str, links: list[tuple[str, str]], start: int) -> tuple[list[tuple[str, str | None]], int]:
    """``line`` cut into (text, href or None) pieces where the block's links (from index
    ``start``, in order) occur in it; returns the pieces and the next link's index."""
    pieces: list[tuple[str, str | None]] = []
    cursor = 0
    k = start
    while k < len(links):
        text, href = links[k]
        at = line.find(text, cursor)
        if at < 0:
            break
        if at > cursor:
            pieces.append((line[cursor:at], None))
        pieces.append((text, href))
        cursor = at + len(text)
        k += 1
    if cursor < len(line):
        pieces.append((line[cursor:], None))
    return pieces, k


def _lines(block: Block) -> list[str]:
    text = block.text
    if "\n" not in text:  # (most blocks are one line: no copy of it)
        return [text] if text else []
    return [line for line in text.split("\n") if line]


# -- Markdown --------------------------------------------------------------------------

#: Characters that could make Markdown markup, each escaped by a backslash (the backslash
#: itself first, so that no escape is escaped again).
_MD_SPECIAL = "\\`*_[]<>#!|~&{}()"
_MD_LINE_START = re.compile(r"^(\s*)([-+=:]|\d+(?=[.)]))")
#: First characters with which :data:`_MD_LINE_START` may match (besides whitespace and digits).
_MD_LINE_MARKS = "-+=:"


def _md_escape(text: str, line_start: bool = True) -> str:
    """``text`` with every character that could make Markdown markup escaped."""
    for char in _MD_SPECIAL:  # (str.replace per character: a few times faster than a regex)
        if char in text:
            text = text.replace(char, "\\" + char)
    if line_start and text and (text[0] in _MD_LINE_MARKS or text[0].isspace() or text[0].isdecimal()):
        # (the regex only where it may match: its \s is str.isspace, its \d str.isdecimal)
        match = _MD_LINE_START.match(text)
        if match:
            lead, mark = match.group(1), match.group(2)
            if mark.isdigit():  # "1. text" would open a list: escape the dot
                n = len(lead) + len(mark)
                text = text[:n] + "\\" + text[n:]
            else:
                text = lead + "\\" + text[len(lead):]
    return text


_HREF_SAFE = ":/?#[]@!$&'()*+,;=%~-._"
#: The characters ``quote`` leaves as they are with :data:`_HREF_SAFE` (all ASCII).
_HREF_KEPT = string.ascii_letters + string.digits + "_.-~" + _HREF_SAFE


def _md_href(href: str) -> str:
    if not href.rstrip(_HREF_KEPT):  # (every character one quote keeps: most links)
        return "<" + href + ">"
    return "<" + quote(href, safe=_HREF_SAFE) + ">"


def _md_line(line: str, links: list[tuple[str, str]], k: int) -> tuple[str, int]:
    pieces, k = _with_links(line, links, k)
    out = []
    for n, (text, href) in enumerate(pieces):
        escaped = _md_escape(text, line_start=n == 0)
        out.append(f"[{escaped}]({_md_href(href)})" if href else escaped)
    return "".join(out), k


def _md_text(block: Block, lines: list[str]) -> list[str]:
    if not block.links:
        return [_md_escape(line) for line in lines]
    out = []
    k = 0
    for line in lines:
        rendered, k = _md_line(line, block.links, k)
        out.append(rendered)
    return out


#: Kinds whose Markdown or HTML is more than their escaped lines (the others: paragraphs).
_SHAPED = frozenset({"heading", "list", "table", "code", "figure", "quote"})


def _md_block(block: Block, images: bool) -> str:
    kind = block.kind
    if kind not in _SHAPED and not block.links and "\n" not in block.text:
        return _md_escape(block.text) if block.text else ""  # (most blocks: one plain line)
    lines = _lines(block)
    if kind == "heading" and lines:
        level = min(max(block.level or 2, 2), 6)
        return "#" * level + " " + " ".join(_md_text(block, [" ".join(lines)]))
    if kind == "list" and block.items:
        return _md_list(block)
    if kind == "table" and block.rows:
        return _md_table(block)
    if kind == "code" and lines:
        fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", block.text)), default=0))
        return f"{fence}\n" + "\n".join(lines) + f"\n{fence}"
    if kind == "figure" and images and block.src:
        alt = _md_escape(block.caption or "", line_start=False)
        return f"![{alt}]({_md_href(block.src)})"
    if kind == "quote" and lines:
        return "\n".join("> " + line for line in _md_text(block, lines))
    return "\n".join(_md_text(block, lines))


def _md_list(block: Block) -> str:
    out = []
    indents: list[int] = []  # content column of the open item at each depth
    counters: list[int] = []
    depths = block.item_depths or [0] * len(block.items)
    for n, (item, depth) in enumerate(zip(block.items, depths)):
        depth = min(depth, len(indents))  # (a list that skips a depth goes one deeper)
        del indents[depth + 1:], counters[depth + 1:]
        if len(counters) > depth:
            counters[depth] += 1
            del indents[depth:]
        else:
            counters.append(1)
        indent = indents[-1] if indents else 0
        marker = f"{counters[depth]}." if _item_ordered(block, n) else "-"
        text, _ = _md_line(item, block.links, 0) if block.links else (_md_escape(item), 0)
        out.append(" " * indent + marker + " " + text)
        indents.append(indent + len(marker) + 1)
    return "\n".join(out)


def _item_ordered(block: Block, n: int) -> bool:
    """Whether item ``n`` belongs to a numbered list."""
    return block.item_ordered[n] if n < len(block.item_ordered) else block.ordered


def _md_table(block: Block) -> str:
    width = max(len(row) for row in block.rows)

    def row_line(cells: list[str]) -> str:
        padded = list(cells) + [""] * (width - len(cells))
        return "| " + " | ".join(_md_escape(c, line_start=False) for c in padded) + " |"

    rows = block.rows
    if block.header:
        head, rows = rows[0], rows[1:]
    else:
        head = [""] * width
    return "\n".join([row_line(head), "|" + "|".join(["---"] * width) + "|", *map(row_line, rows)])


def markdown(blocks: list[Block], images: bool = False) -> str:
    """``blocks`` as Markdown, one blank line between blocks (``images``: write
    figures as pictures with their caption)."""
    return "\n\n".join(part for part in (_md_block(b, images) for b in blocks) if part)


# -- HTML ------------------------------------------------------------------------------


_h = escape  # (quote=True: attribute values too)


def _html_line(line: str, links: list[tuple[str, str]], k: int) -> tuple[str, int]:
    pieces, k = _with_links(line, links, k)
    return "".join(f'<a href="{_h(href)}">{_h(text)}</a>' if href else _h(text) for text, href in pieces), k


def _html_lines(block: Block, lines: list[str], sep: str = "<br>\n") -> str:
    if not block.links:
        return sep.join([_h(line) for line in lines])
    out = []
    k = 0
    for line in lines:
        rendered, k = _html_line(line, block.links, k)
        out.append(rendered)
    return sep.join(out)


def _html_block(block: Block, images: bool) -> str:
    kind = block.kind
    if kind not in _SHAPED and not block.links and "\n" not in block.text:
        return "<p>" + escape(block.text) + "</p>" if block.text else ""  # (most blocks: one plain line)
    lines = _lines(block)
    if kind == "heading" and lines:
        level = min(max(block.level or 2, 2), 4)
        return f"<h{level}>{_html_lines(block, [' '.join(lines)])}</h{level}>"
    if kind == "list" and block.items:
        return _html_list(block)
    if kind == "table" and block.rows:
        return _html_table(block)
    if kind == "code" and lines:
        return "<pre><code>" + _h("\n".join(lines)) + "</code></pre>"
    if kind == "figure" and images and block.src:
        caption = f"<figcaption>{_h(block.caption)}</figcaption>" if block.caption else ""
        return f'<figure><img src="{_h(block.src)}" alt="{_h(block.caption or "")}">{caption}</figure>'
    if not lines:
        return ""
    if kind == "quote":
        return f"<blockquote><p>{_html_lines(block, lines)}</p></blockquote>"
    return f"<p>{_html_lines(block, lines)}</p>"


def _html_list(block: Block) -> str:
    tags = ["ol" if block.ordered else "ul"]  # the open lists, outermost first
    out = [f"<{tags[0]}>"]
    open_item = False
    depths = block.item_depths or [0] * len(block.items)
    for n, (item, want) in enumerate(zip(block.items, depths)):
        depth = len(tags) - 1
        want = min(want, depth + 1) if open_item else depth
        if want > depth:
            tags.append("ol" if _item_ordered(block, n) else "ul")
            out.append(f"<{tags[-1]}>")
        else:
            while len(tags) - 1 > want:
                out.append(f"</li></{tags.pop()}>")
            if open_item:
                out.append("</li>")
        text, _ = _html_line(item, block.links, 0)
        out.append(f"<li>{text}")
        open_item = True
    while tags:
        out.append(f"</li></{tags.pop()}>" if open_item else f"</{tags.pop()}>")
    return "".join(out)


def _html_table(block: Block) -> str:
    rows = block.rows
    out = ["<table>"]
    if block.header:
        out.append("<thead><tr>" + "".join(f"<th>{_h(c)}</th>" for c in rows[0]) + "</tr></thead>")
        rows = rows[1:]
    out.append("<tbody>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{_h(c)}</td>" for c in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def html(blocks: list[Block], images: bool = False) -> str:
    """``blocks`` as clean semantic HTML, one element per block and a newline between
    (``images``: write figures as pictures with their caption)."""
    return "\n".join(part for part in (_html_block(b, images) for b in blocks) if part)
