"""The gold structure of a page and the structure scores (issue #25).

Gold structure: ``readability`` pages carry Readability's expected HTML (``gold_html``),
read by :func:`blocks_from_html` into typed blocks (headings, lists, paragraphs, quotes,
code, tables, figures); ``fundus-recent`` pages carry ``gold_blocks`` (summary, heading,
paragraph in page order), read by :func:`blocks_from_json`.  :func:`gold_blocks` picks
the one a page has.

Scores of one page (:func:`score_structure`), each against the gold's blocks:

- *heading recall*: the share of the gold's headings that come out as ``heading`` blocks
  with matching text (:func:`same_text`);
- *list-item recall*: the share of the gold's list items that come out as items of a
  ``list`` block with matching text;
- *paragraph boundaries*: a gold paragraph is *found* when one output paragraph covers
  ≥ 90 % of its shingles and covers no more than one other gold paragraph (a paragraph
  glued to one neighbour still counts; a body returned as one block does not; a gold
  paragraph whose words are all inside the found one, a repeat or a short line, is not
  counted as another); an output
  paragraph is *right* the same way from the output side: one gold paragraph covers ≥ 90 %
  of its shingles and no more than one other output paragraph (a paragraph split in two
  still counts, in three does not).  P = right / output paragraphs, R = found / gold
  paragraphs: gluing costs precision, splitting costs recall.

Paragraphs are the paragraph-like blocks (:data:`PARAGRAPH_KINDS`; a quote's paragraphs
are its lines, a paragraph's lines are the page's line breaks inside one paragraph); shingles are the project's (``newsstemmer.evaluation``: ``\\w+``
tokens, 4-token windows), and a text of 1-3 tokens is looked for as its whole token run
(n-grams of its own length) so that a short paragraph can be found inside a longer one.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from lxml import etree, html as lxml_html

from newsstemmer.blocks import Block
from newsstemmer.evaluation import ngrams, shingles, tokens

from .data import Entry

#: Block kinds whose lines are paragraphs for the boundary score.
PARAGRAPH_KINDS = frozenset({"paragraph", "quote", "lead"})
#: A gold paragraph is found when an output paragraph holds this share of its shingles.
COVER = 0.9
#: Two texts are the same heading / list item when each holds this share of the other's shingles.
SAME = 0.9
#: fundus-recent's gold kinds -> block kinds (``summary`` is the standfirst).
FUNDUS_KINDS = {"summary": "lead", "heading": "heading", "paragraph": "paragraph"}

_SPACE = re.compile(r"\s+")
_HEADINGS = {f"h{i}" for i in range(1, 7)}
# Elements that start a new block when met inside text; everything else is inline.
_BLOCK_TAGS = _HEADINGS | {
    "p", "div", "section", "article", "main", "header", "footer", "aside", "nav", "body", "html",
    "ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption",
    "pre", "blockquote", "figure", "figcaption", "hr", "form", "center", "details", "summary", "address",
    "fieldset", "hgroup", "picture",
}
_SKIP_TAGS = {"script", "style", "noscript", "template", "button", "select", "option", "head", "title"}
# A table holding one of these is a layout table: read as a container, not as data.
_LAYOUT_MARKERS = _HEADINGS | {"p", "ul", "ol", "table", "pre", "blockquote", "figure", "div", "section"}


def _clean(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def _text(el: etree._Element, leave_out: frozenset[str] = frozenset()) -> str:
    """An element's visible text, whitespace collapsed (scripts, styles and the elements
    named in ``leave_out`` left out)."""
    parts: list[str] = []

    def walk(node: etree._Element) -> None:
        if node.text:
            parts.append(node.text)
        for child in node:
            tag = _tag(child)
            if tag and tag not in _SKIP_TAGS and tag not in leave_out:
                walk(child)
                if tag in _BLOCK_TAGS or tag == "br":
                    parts.append(" ")
            if child.tail:
                parts.append(child.tail)

    if _tag(el) not in _SKIP_TAGS:
        walk(el)
    return _clean("".join(parts))


_LISTS = frozenset({"ul", "ol", "dl"})


def _list_items(el: etree._Element) -> list[str]:
    """The items of a ``ul``/``ol``/``dl`` in order; a nested list's items follow its
    parent item's own text."""
    items: list[str] = []
    for child in el:
        tag = _tag(child)
        if tag in ("li", "dt", "dd"):
            text = _text(child, _LISTS)
            if text:
                items.append(text)
            for sub in child.iter(*_LISTS):
                if sub is not child and not any(_tag(a) in _LISTS for a in _ancestors_below(sub, child)):
                    items += _list_items(sub)
        elif tag in _LISTS:
            items += _list_items(child)
    return items


def _ancestors_below(el: etree._Element, top: etree._Element) -> list[etree._Element]:
    """``el``'s ancestors strictly between it and ``top``."""
    out = []
    for a in el.iterancestors():
        if a is top:
            break
        out.append(a)
    return out


def _is_layout_table(el: etree._Element) -> bool:
    return any(_tag(c) in _LAYOUT_MARKERS for c in el.iter() if c is not el)


def _read(el: etree._Element, out: list[Block]) -> None:
    """Append the blocks of a container element: its own loose text runs become paragraphs."""
    run: list[str] = []

    def flush() -> None:
        text = _clean("".join(run))
        run.clear()
        if tokens(text):
            out.append(Block("paragraph", text))

    if el.text:
        run.append(el.text)
    for child in el:
        tag = _tag(child)
        if not tag or tag in _SKIP_TAGS:
            pass
        elif tag in _BLOCK_TAGS:
            flush()
            _read_block(child, out)
        elif _has_block(child):  # an inline element wrapping blocks (a link around a section)
            flush()
            _read(child, out)
        elif tag == "br":
            run.append(" ")
        else:  # inline: its text belongs to the run
            run.append(_text_inline(child))
        if child.tail:
            run.append(child.tail)
    flush()


def _has_block(el: etree._Element) -> bool:
    return any(_tag(c) in _BLOCK_TAGS for c in el.iter() if c is not el)


def _text_inline(el: etree._Element) -> str:
    """An inline element's text as it sits in a line (no spaces added around it)."""
    parts = [el.text or ""]
    for child in el:
        if _tag(child) and _tag(child) not in _SKIP_TAGS:
            parts.append(" " if _tag(child) == "br" else _text_inline(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _read_block(el: etree._Element, out: list[Block]) -> None:
    tag = _tag(el)
    if tag in _HEADINGS:
        text = _text(el)
        if tokens(text):
            out.append(Block("heading", text, level=int(tag[1])))
    elif tag in ("ul", "ol", "dl"):
        items = _list_items(el)
        if items:
            out.append(Block("list", "\n".join(items), items=items, ordered=tag == "ol"))
    elif tag == "pre":
        text = (el.text_content() or "").strip("\n")
        if tokens(text):
            out.append(Block("code", text))
    elif tag == "table" and not _is_layout_table(el):
        rows = [[_text(c) for c in tr if _tag(c) in ("td", "th")] for tr in el.iter("tr")]
        rows = [r for r in rows if any(r)]
        if rows:
            out.append(Block("table", "\n".join(" ".join(r) for r in rows), rows=rows))
    elif tag == "figure":
        captions = [c for c in el.iter("figcaption")]
        caption = " ".join(_text(c) for c in captions) or None
        img = next(iter(el.iter("img")), None)
        inner: list[Block] = []
        for c in captions:  # what the figure holds beside its caption (a quote, a table, code...)
            c.getparent().remove(c)
        _read(el, inner)
        out += [b for b in inner if b.kind != "paragraph"]  # a figure's loose text is its caption's
        if caption or img is not None:
            out.append(Block("figure", caption or "", src=img.get("src") if img is not None else None,
                             caption=caption))
    elif tag == "figcaption":
        text = _text(el)
        if tokens(text):
            out.append(Block("caption", text))
    elif tag == "blockquote":
        inner = []
        _read(el, inner)
        lines = [b.text for b in inner if b.text]
        if lines:
            out.append(Block("quote", "\n".join(lines)))
    elif tag == "p":
        text = _text(el)
        if tokens(text):
            out.append(Block("paragraph", text))
    else:
        _read(el, out)


def blocks_from_html(markup: str) -> list[Block]:
    """Typed blocks of an article given as HTML (Readability's expected output), in order."""
    root = lxml_html.document_fromstring(markup or "<div></div>")
    out: list[Block] = []
    body = root.find("body")
    _read(body if body is not None else root, out)
    return out


def blocks_from_json(items: Iterable[dict]) -> list[Block]:
    """Typed blocks of fundus-recent's ``gold_blocks`` (``{kind, text}``: summary, heading, paragraph)."""
    out = []
    for item in items:
        kind = FUNDUS_KINDS.get(item.get("kind", ""))
        text = _clean(item.get("text") or "")
        if kind is None:
            raise ValueError(f"unknown gold block kind {item.get('kind')!r}")
        if tokens(text):
            out.append(Block(kind, text, level=2 if kind == "heading" else None))
    return out


def gold_blocks(e: Entry) -> list[Block] | None:
    """The page's gold as typed blocks, or None where its set gives no structure."""
    if e.gold_html_path is not None:
        return blocks_from_html(Path(e.gold_html_path).read_text(encoding="utf-8"))
    if e.gold_blocks_path is not None:
        return blocks_from_json(json.loads(Path(e.gold_blocks_path).read_text(encoding="utf-8")))
    return None


# --- the scores ---------------------------------------------------------------------------


def _grams(toks: list[str], n: int) -> Counter:
    return shingles(toks) if n == 4 else ngrams(toks, n)


def covered(part: str, whole: str) -> float:
    """The share of ``part``'s shingles found in ``whole`` (multisets; a 1-3 token ``part``
    is looked for as its whole token run)."""
    p = tokens(part)
    if not p:
        return 0.0
    n = min(4, len(p))
    mine = _grams(p, n)
    return sum((mine & _grams(tokens(whole), n)).values()) / sum(mine.values())


def same_text(a: str, b: str) -> bool:
    """Whether two short texts (headings, list items) are the same: each covers the other ≥ SAME."""
    return covered(a, b) >= SAME and covered(b, a) >= SAME


def paragraphs(blocks: Iterable[Block]) -> list[str]:
    """The paragraphs of a list of blocks: each ``paragraph`` and ``lead`` block (its lines,
    the page's line breaks inside it, joined), each line of a ``quote`` (its paragraphs)."""
    out = []
    for b in blocks:
        if b.kind == "quote":
            out += [line for line in b.text.split("\n") if tokens(line)]
        elif b.kind in PARAGRAPH_KINDS and tokens(b.text):
            out.append(" ".join(b.text.split("\n")))
    return out


def headings(blocks: Iterable[Block]) -> list[str]:
    """The heading texts of a list of blocks."""
    return [b.text for b in blocks if b.kind == "heading" and tokens(b.text)]


def list_items(blocks: Iterable[Block]) -> list[str]:
    """The items of the list blocks (a list block without ``items``: its text lines)."""
    return [item for b in blocks if b.kind == "list"
            for item in (b.items or b.text.split("\n")) if tokens(item)]


def matched_recall(gold: list[str], output: list[str]) -> float | None:
    """The share of ``gold`` texts matched by an ``output`` text (:func:`same_text`; each
    output text used once, in order of the gold); None when the gold has none."""
    if not gold:
        return None
    toks = {text: tokens(text) for text in {*gold, *output}}
    grams: dict[tuple[str, int], Counter] = {}

    def share(part: str, whole: str) -> float:  # covered(), each text's n-grams made once
        n = min(4, len(toks[part]))
        if n == 0:
            return 0.0
        for text in (part, whole):
            if (text, n) not in grams:
                grams[text, n] = _grams(toks[text], n)
        mine = grams[part, n]
        return sum((mine & grams[whole, n]).values()) / sum(mine.values())

    free = list(output)
    hits = 0
    for g in gold:
        for i, o in enumerate(free):
            if share(g, o) >= SAME and share(o, g) >= SAME:
                hits += 1
                del free[i]
                break
    return hits / len(gold)


def _found(targets: list[str], others: list[str]) -> int:
    """How many ``targets`` are found: one of ``others`` covers ≥ COVER of it and covers
    (≥ COVER) no more than one other target.  (:func:`covered` for every pair, through an
    index of the others' n-grams: a page of a thousand lines stays fast.)"""
    other_tokens = [tokens(o) for o in others]
    index: dict[int, dict[tuple[str, ...], list[tuple[int, int]]]] = {}
    covers: list[list[int]] = [[] for _ in others]  # per other: the targets it covers
    holders: list[list[int]] = [[] for _ in targets]  # per target: the others covering it
    for i, t in enumerate(targets):
        toks = tokens(t)
        n = min(4, len(toks))
        if n == 0:
            continue
        if n not in index:
            index[n] = {}
            for k, ot in enumerate(other_tokens):
                for gram, count in _grams(ot, n).items():
                    index[n].setdefault(gram, []).append((k, count))
        mine = _grams(toks, n)
        shared: Counter = Counter()
        for gram, count in mine.items():
            for k, theirs in index[n].get(gram, ()):
                shared[k] += min(count, theirs)
        need = COVER * sum(mine.values())
        for k, common in shared.items():
            if common >= need:
                covers[k].append(i)
                holders[i].append(k)

    def glued(k: int, i: int) -> int:
        """How many other targets ``others[k]`` covers, leaving out those inside target ``i``
        (a repeated or a short paragraph that also appears in ``i`` is no sign of gluing)."""
        return sum(1 for j in covers[k] if j != i and covered(targets[j], targets[i]) < COVER)

    return sum(1 for i, ks in enumerate(holders) if any(len(covers[k]) <= 2 or glued(k, i) <= 1 for k in ks))


def paragraph_prf(gold: list[str], output: list[str]) -> tuple[float | None, float | None]:
    """Paragraph-boundary (precision, recall) of one page: precision None when the output has no
    paragraph, recall None when the gold has none."""
    recall = _found(gold, output) / len(gold) if gold else None
    precision = _found(output, gold) / len(output) if output else None
    if gold and not output:
        recall = 0.0
    return precision, recall


@dataclass(frozen=True)
class StructureScore:
    """Structure scores of one page (None: the gold has nothing of that kind)."""

    heading_recall: float | None
    list_recall: float | None
    paragraph_precision: float | None
    paragraph_recall: float | None
    gold_headings: int
    gold_items: int
    gold_paragraphs: int


def score_structure(output: list[Block], gold: list[Block]) -> StructureScore:
    """The structure scores of one page's output blocks against its gold blocks."""
    gh, gi, gp = headings(gold), list_items(gold), paragraphs(gold)
    p, r = paragraph_prf(gp, paragraphs(output))
    return StructureScore(matched_recall(gh, headings(output)), matched_recall(gi, list_items(output)), p, r,
                          len(gh), len(gi), len(gp))


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def mean_structure(scores: list[StructureScore]) -> dict[str, float | int | None]:
    """Per set: mean heading recall and list-item recall over pages whose gold has headings
    (list items); paragraph P (pages with output paragraphs), R (pages with gold
    paragraphs) and F1 = 2PR/(P+R), as the shingle figures are pooled."""
    hr = [s.heading_recall for s in scores if s.heading_recall is not None]
    lr = [s.list_recall for s in scores if s.list_recall is not None]
    pp = [s.paragraph_precision for s in scores if s.paragraph_precision is not None and s.gold_paragraphs]
    pr = [s.paragraph_recall for s in scores if s.paragraph_recall is not None]
    p, r = _mean(pp), _mean(pr)
    f1 = (2 * p * r / (p + r) if p + r else 0.0) if p is not None and r is not None else None
    return {"pages": len(scores), "heading_recall": _mean(hr), "heading_pages": len(hr),
            "gold_headings": sum(s.gold_headings for s in scores), "list_recall": _mean(lr),
            "list_pages": len(lr), "gold_items": sum(s.gold_items for s in scores),
            "paragraph_precision": p, "paragraph_recall": r, "paragraph_f1": f1, "paragraph_pages": len(pr)}


def _flat(el: etree._Element) -> str:
    return _clean("".join(el.itertext()))


def blocks_from_xml(xml: str | None) -> list[Block]:
    """trafilatura's XML output (``<main>``: ``p``, ``head``, ``list``/``item``, ``quote``,
    ``table``/``row``/``cell``, ``code``, ``graphic``) as typed blocks: the peer's structure."""
    if not xml:
        return []
    root = etree.fromstring(xml.encode("utf-8"))
    main = root.find("main")
    out: list[Block] = []
    for el in (main if main is not None else root):
        tag = _tag(el)
        text = _flat(el)
        if tag == "head":
            level = (el.get("rend") or "h2").lstrip("h")
            out.append(Block("heading", text, level=int(level) if level.isdigit() else 2))
        elif tag == "list":
            items = [t for t in (_flat(i) for i in el.iter("item")) if t]
            out.append(Block("list", "\n".join(items), items=items))
        elif tag == "quote":
            lines = [t for t in (_flat(p) for p in el.iter("p")) if t] or [text]
            out.append(Block("quote", "\n".join(lines)))
        elif tag == "table":
            rows = [[_flat(c) for c in r.iter("cell")] for r in el.iter("row")]
            out.append(Block("table", "\n".join(" ".join(r) for r in rows), rows=rows))
        elif tag == "code":
            out.append(Block("code", "".join(el.itertext()).strip("\n")))
        elif tag == "graphic":
            out.append(Block("figure", el.get("title") or "", src=el.get("src"), caption=el.get("title")))
        elif text:
            out.append(Block("paragraph", text))
    return [b for b in out if tokens(b.text) or b.kind == "figure"]
