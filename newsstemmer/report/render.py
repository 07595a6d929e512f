"""The site report as one self-contained HTML file.

Everything is inline: one stylesheet, SVG pictures, sanitised sample pages.  The
file's Content-Security-Policy (a ``<meta>`` at the top of ``<head>``) allows no
source of anything (``default-src 'none'``) but the report's own stylesheet, named by
its SHA-256 hash: no script runs, no image, font, frame or style sheet is fetched,
and no form can be submitted, whatever a sample page held.  The markup is built
as an lxml tree, so every text taken from pages and pattern files is escaped.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable
from typing import Any

from lxml import etree, html
from lxml.html import builder as E

from .charts import share_bar
from ..layout.patterns import LayoutPattern
from .sitereport import LayoutView, PageResult, SiteReport
from .sample import ROLE_COLOURS, Sample

__all__ = ["CSP", "STYLE", "kind_counts", "kinds_text", "page_shell", "render_site_report"]

#: Pages listed per layout (and unmatched pages listed) before "… and N more".
MAX_LISTED = 200

_ROLE_CSS = "\n".join(
    f".ns-role-{role}, .ns-page [data-role={role}] {{ --ns-c: {line}; --ns-f: {fill}; }}"
    for role, (line, fill) in ROLE_COLOURS.items()
)

STYLE = """
:root { color-scheme: light; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f1f1f; background: #f6f6f4; }
main.ns-report { max-width: 1180px; margin: 0 auto; padding: 16px 20px 48px; }
h1 { font-size: 24px; margin: 8px 0 4px; }
h2 { font-size: 19px; margin: 0 0 8px; }
h3 { font-size: 15px; margin: 14px 0 6px; }
.ns-muted { color: #666; }
.ns-card { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 14px 16px; margin: 14px 0; }
.ns-figures { display: flex; flex-wrap: wrap; gap: 10px 28px; margin: 8px 0 10px; }
.ns-figure b { display: block; font-size: 22px; }
.ns-figure span { color: #666; font-size: 12px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid #eee; vertical-align: top; }
th { background: #fafafa; font-weight: 600; }
td.ns-num, th.ns-num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.ns-path { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; word-break: break-all; }
.ns-badge { display: inline-block; font-size: 12px; padding: 1px 8px; border-radius: 10px; background: #eee; margin-left: 6px; vertical-align: middle; }
.ns-badge.ns-article { background: #e8f5e9; color: #1b5e20; }
.ns-swatch { display: inline-block; padding: 1px 8px; margin: 2px 6px 2px 0; border: 2px solid var(--ns-c); background: var(--ns-f); border-radius: 3px; font-weight: 600; }
.ns-legend dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 6px 0 0; }
.ns-legend dd { margin: 0; }
details summary { cursor: pointer; margin: 8px 0; }
figure.ns-sample { margin: 12px 0 0; }
figure.ns-sample figcaption { margin-bottom: 6px; }
.ns-frame { border: 1px solid #bbb; background: #fff; max-height: 720px; overflow: auto; padding: 10px; contain: content; }
.ns-page { font: 14px/1.4 Georgia, "Times New Roman", serif; color: #222; overflow-wrap: anywhere; }
.ns-page * { max-width: 100%; }
.ns-page a { color: #1a4fa0; text-decoration: underline; }
.ns-page table { width: auto; }
.ns-page td, .ns-page th { border: 0; padding: 1px 3px; }
.ns-page ul, .ns-page ol { padding-left: 22px; }
.ns-page h1, .ns-page h2, .ns-page h3 { font-family: inherit; margin: 6px 0; }
.ns-page .ns-img { display: inline-block; border: 1px dashed #aaa; color: #777; font: 11px sans-serif; padding: 6px 8px; margin: 2px; background: #fafafa; }
.ns-page [data-role] { outline: 2px solid var(--ns-c); outline-offset: -1px; background-color: var(--ns-f); }
.ns-page [data-role=static] { outline-style: dashed; color: #555; }
.ns-page [data-role=title]::before, .ns-page [data-role=main]::before, .ns-page [data-role=sub]::before {
  content: attr(data-role); display: inline-block; font: bold 10px/1.5 system-ui, sans-serif; color: #fff;
  background: var(--ns-c); padding: 0 5px; margin-right: 5px; border-radius: 2px; vertical-align: middle; }
.ns-page [data-meta]::after { content: attr(data-meta); display: inline-block; font: bold 10px/1.5 system-ui, sans-serif;
  color: #fff; background: #6a1b9a; padding: 0 5px; margin-left: 5px; border-radius: 2px; vertical-align: middle; }
.ns-swatch.ns-meta { background: #6a1b9a; color: #fff; }
.ns-doctitle { font-size: 13px; margin: 0 0 8px; }
.ns-excerpt { color: #444; font-size: 12px; }
footer { color: #777; font-size: 12px; margin-top: 24px; }
""" + _ROLE_CSS + "\n"

_STYLE_HASH = base64.b64encode(hashlib.sha256(STYLE.encode("utf-8")).digest()).decode("ascii")
#: The reports' policy: nothing may be loaded or run; only the report's own stylesheet applies.
CSP = f"default-src 'none'; style-src 'sha256-{_STYLE_HASH}'; base-uri 'none'; form-action 'none'"

_ROLE_MEANING = {
    "title": "the headline",
    "main": "the article's text (the body extraction gives)",
    "sub": "other text that changes from page to page (captions, bylines, boxes); not in the body",
    "static": "boilerplate: the same on every page of the layout (navigation, footers, adverts)",
}


def page_shell(title: str, *content: etree._Element) -> str:
    """A whole report page around ``content``: policy, stylesheet, ``<main>``."""
    doc = E.HTML(
        {"lang": "en"},
        E.HEAD(
            E.META(charset="utf-8"),
            E.META({"http-equiv": "Content-Security-Policy", "content": CSP}),
            E.META(name="referrer", content="no-referrer"),
            E.META(name="viewport", content="width=device-width, initial-scale=1"),
            E.TITLE(title),
            E.STYLE(STYLE),
        ),
        E.BODY(E.E("main", {"class": "ns-report"}, *content)),
    )
    return html.tostring(doc, doctype="<!DOCTYPE html>", encoding="unicode", method="html")


def figure(value: str, label: str) -> etree._Element:
    """A big number with its label (the summaries' figures)."""
    return E.DIV(E.CLASS("ns-figure"), E.B(value), E.SPAN(label))


def percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def render_site_report(report: SiteReport) -> str:
    """The site report as a complete HTML document (a string)."""
    site = report.site
    content = [
        E.HEADER(
            E.H1(f"Layouts of {site.site}"),
            E.P(E.CLASS("ns-muted"),
                f"Pattern file {report.patterns_source or '(given)'}"
                + (f", learned {site.created}" if site.created else "")
                + f"; report made {report.generated}."),
        ),
        _summary(report),
        _legend(),
        _layout_index(report),
        *[_layout_section(view, report) for view in report.layouts],
        _unmatched_section(report),
    ]
    if report.errors:
        content.append(_errors_section(report.errors))
    content.append(E.FOOTER("Made by newsstemmer report. Sample pages are shown inert: their scripts, "
                            "images, style sheets, frames and forms were removed, and this file's "
                            "Content-Security-Policy lets nothing load."))
    return page_shell(f"newsstemmer report: {site.site}", *content)


def _summary(report: SiteReport) -> etree._Element:
    layouts = report.site.patterns
    n_article = sum(1 for p in layouts if p.article)
    non_article_pages = sum(len(v.pages) for v in report.layouts if not v.pattern.article)
    fallback = report.fallback or "none"
    crawl = _crawl_figures(report)
    return E.E(
        "section",
        {"class": "ns-card ns-summary", "id": "summary"},
        E.H2("Summary"),
        *crawl,
        E.DIV(
            E.CLASS("ns-figures"),
            figure(str(report.readable), "pages read" + (" for this report" if crawl else "")),
            figure(f"{len(layouts)}", f"layouts ({n_article} article, {len(layouts) - n_article} other)"),
            figure(percent(report.coverage), "coverage (pages a layout covers)"),
            figure(str(report.articles), "articles by a layout"),
            figure(str(len(report.unmatched)), f"no layout: fallback {fallback}"),
            *([figure(str(len(report.errors)), "unreadable")] if report.errors else []),
        ),
        share_bar([
            ("article layouts", report.articles, "#2e7d32"),
            ("other layouts", non_article_pages, "#90a4ae"),
            (f"no layout (fallback {fallback})", len(report.unmatched), "#ef6c00"),
            ("unreadable", len(report.errors), "#b71c1c"),
        ]),
    )


def _crawl_figures(report: SiteReport) -> list[etree._Element]:
    """The crawl's own figures of the site, in the words of its closing line and health
    record, and what the figures after them are (the pages kept for the report)."""
    c = report.crawl
    if not c or "non_articles" not in c:
        return []
    sent = int(c.get("new_articles", 0)) + int(c.get("updates", 0))
    known = int(c.get("unchanged", 0)) + int(c.get("skipped_fresh", 0))
    return [
        E.DIV(
            {"class": "ns-figures ns-crawl-figures"},
            figure(str(c.get("pages_crawled", 0)), "pages crawled"),
            figure(str(sent), f"articles sent ({c.get('new_articles', 0)} new, {c.get('updates', 0)} updated)"),
            *([figure(str(known), "known and not sent")] if known else []),
            figure(str(c.get("non_articles", 0)), "non-articles"),
            figure(str(c.get("unmatched", 0)), "unmatched (single-page method)"),
            figure(str(c.get("pages_failed", 0)), "failed"),
        ),
        *([E.P({"class": "ns-muted", "id": "non-article-kinds"}, "Non-articles by kind: " + kinds + ".")]
          if (kinds := kinds_text(kind_counts(c.get("non_article_kinds")))) else []),
        E.P(E.CLASS("ns-muted"),
            f"In the crawl (as its closing line and health record say). Below: the {report.readable} pages "
            f"kept for this report (NEWSSTEMMER_REPORT_PAGES) and what the site's layouts make of them."),
    ]


def kind_counts(value: Any) -> dict[str, int]:
    """A crawl's non-articles per page kind as read from its summary or health record (a
    file: anything that is not a kind with a positive count is left out)."""
    if not isinstance(value, dict):
        return {}
    return {k: n for k, n in value.items()
            if isinstance(k, str) and isinstance(n, int) and not isinstance(n, bool) and n > 0}


def kinds_text(kinds: dict[str, int]) -> str:
    """``listing 12, service 3``: the non-articles per kind (:func:`kind_counts`), most first."""
    return ", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))


def _legend() -> etree._Element:
    items = []
    for role, meaning in _ROLE_MEANING.items():
        items += [E.DT(E.SPAN({"class": f"ns-swatch ns-role-{role}"}, role)), E.DD(meaning)]
    items += [E.DT(E.SPAN({"class": "ns-swatch ns-meta"}, "byline · date")),
              E.DD("the layout's byline and date-line sections, found from what varies per page: names "
                   "and dates are read there where the page's own metadata lacks them")]
    items += [E.DT(E.SPAN({"class": "ns-swatch"}, "unmarked")),
              E.DD("text the layout does not know (not aligned to any of its sections); "
                   "extraction leaves it out")]
    return E.E(
        "section",
        {"class": "ns-card ns-legend", "id": "legend"},
        E.H2("Legend"),
        E.P("In each sample page, every block of text is outlined in the colour of the role its layout "
            "gives it (hover for the block's path). DiffScore: how much a section's text differs between "
            "the layout's pages (0 = always the same). MainScore: DiffScore × the section's average "
            "non-link text weight."),
        E.DL(*items),
    )


def _layout_index(report: SiteReport) -> etree._Element:
    used = (report.crawl or {}).get("layouts_used")
    rows = [
        E.TR(
            E.TD(E.A(view.pattern.id, href=f"#layout-{view.pattern.id}")),
            E.TD("article" if view.pattern.article else "not an article"),
            E.TD({"class": "ns-num"}, str(view.pattern.pages)),
            *([E.TD({"class": "ns-num"}, str(used.get(view.pattern.id, 0)))] if used is not None else []),
            E.TD({"class": "ns-num"}, str(len(view.pages))),
            E.TD({"class": "ns-num"}, f"{view.pattern.score:.1f}"),
            E.TD({"class": "ns-num"}, str(len(view.pattern.sections))),
        )
        for view in report.layouts
    ]
    return E.E(
        "section",
        {"class": "ns-card", "id": "layouts"},
        E.H2(f"Layouts ({len(report.layouts)})"),
        E.TABLE(
            E.TR(E.TH("layout"), E.TH("kind"), E.TH({"class": "ns-num"}, "learned from"),
                 *([E.TH({"class": "ns-num"}, "pages in the crawl")] if used is not None else []),
                 E.TH({"class": "ns-num"}, "report pages"), E.TH({"class": "ns-num"}, "score"),
                 E.TH({"class": "ns-num"}, "sections")),
            *rows,
        ) if rows else E.P("No layout was learned for this site: every page goes to the fallback."),
    )


def _layout_section(view: LayoutView, report: SiteReport) -> etree._Element:
    p = view.pattern
    used = (report.crawl or {}).get("layouts_used")
    kind = E.SPAN({"class": "ns-badge ns-article" if p.article else "ns-badge"},
                  "article layout" if p.article else "not an article layout")
    facts = (
        f"Learned from {p.pages} page{'s' if p.pages != 1 else ''}; "
        + (f"matched {used.get(p.id, 0)} pages in the crawl; " if used is not None else "")
        + f"covers {len(view.pages)} of the {report.readable} report pages; LayoutPatternScore {p.score:.1f}; "
        f"{len(p.sections)} sections"
        + (f", {len(p.free_paths)} free paths" if p.free_paths else "")
        + (f", {len(p.static_lines)} boilerplate lines" if p.static_lines else "") + "."
    )
    rows = []
    for k, s in enumerate(p.sections):
        marks = " (title section)" if k == p.title_section else " (main section)" if k == p.main_section else ""
        rows.append(E.TR(
            E.TD({"class": "ns-num"}, str(k)),
            E.TD(E.SPAN({"class": f"ns-swatch ns-role-{s.role}"}, s.role), marks),
            E.TD({"class": "ns-num"}, f"{s.diff_score:.3f}"),
            E.TD({"class": "ns-num"}, f"{s.main_score:.1f}"),
            E.TD({"class": "ns-num"}, f"{s.shared:.2f}"),
            E.TD({"class": "ns-path"}, s.path),
        ))
    sections_table = E.TABLE(
        {"class": "ns-sections"},
        E.TR(E.TH({"class": "ns-num"}, "#"), E.TH("role"), E.TH({"class": "ns-num"}, "DiffScore"),
             E.TH({"class": "ns-num"}, "MainScore"), E.TH({"class": "ns-num"}, "shared"), E.TH("path")),
        *rows,
    )
    return E.E(
        "section",
        {"class": "ns-card ns-layout", "data-layout": p.id, "id": f"layout-{p.id}"},
        E.H2(f"Layout {p.id}", kind),
        E.P(facts),
        E.DETAILS(E.SUMMARY(f"Sections ({len(p.sections)}: {_role_counts(p)})"), sections_table),
        _pages_list(view.pages, f"Pages covered here ({len(view.pages)})"),
        _sample_figure(view.sample),
    )


def _role_counts(p: LayoutPattern) -> str:
    counts = {role: 0 for role in _ROLE_MEANING}
    for s in p.sections:
        counts[s.role] = counts.get(s.role, 0) + 1
    return ", ".join(f"{n} {role}" for role, n in counts.items() if n)


def _pages_list(pages: list[PageResult], caption: str) -> etree._Element:
    rows = [
        E.TR(
            E.TD(r.source, *([E.BR(), E.SPAN(E.CLASS("ns-muted"), r.url)] if r.url and r.url != r.source else [])),
            E.TD(r.title or "–"),
            E.TD({"class": "ns-num"}, percent(r.coverage)),
            E.TD(r.method or "–"),
            E.TD({"class": "ns-num"}, str(r.body_chars)),
        )
        for r in pages[:MAX_LISTED]
    ]
    more = [E.P(E.CLASS("ns-muted"), f"… and {len(pages) - MAX_LISTED} more")] if len(pages) > MAX_LISTED else []
    return E.DETAILS(
        E.SUMMARY(caption),
        E.TABLE(E.TR(E.TH("page"), E.TH("title"), E.TH({"class": "ns-num"}, "coverage"), E.TH("method"),
                     E.TH({"class": "ns-num"}, "body chars")), *rows),
        *more,
    )


def _sample_figure(sample: Sample | None) -> etree._Element:
    if sample is None:
        return E.P(E.CLASS("ns-muted"), "No sample: none of the pages given has this layout "
                   "(give pages of the site after the pattern file).")
    counts = ", ".join(f"{n} {role}" for role, n in sorted(sample.roles.items())) or "no block known"
    caption = [
        E.H3("Sample page"),
        E.DIV(E.B(sample.source), *([" · ", sample.url] if sample.url and sample.url != sample.source else []),
              f" · coverage {percent(sample.coverage)} · blocks: {counts}"
              + (f", {sample.unknown_blocks} unmarked" if sample.unknown_blocks else "")),
    ]
    if sample.doc_title:
        role = sample.doc_title_role
        caption.append(E.P(E.CLASS("ns-doctitle"), "<title>: ",
                           E.SPAN({"class": f"ns-swatch ns-role-{role}" if role else "ns-swatch"}, sample.doc_title),
                           f" ({role or 'unmarked'})"))
    if sample.title_from_page:
        caption.append(E.P(E.CLASS("ns-muted"), "No block of this page is the layout's title: extraction takes "
                           "the page's own headline (og:title, else the first h1, else <title>)."))
    page = html.fragment_fromstring(sample.markup)
    return E.FIGURE(E.CLASS("ns-sample"), E.FIGCAPTION(*caption), E.DIV(E.CLASS("ns-frame"), page))


def _unmatched_section(report: SiteReport) -> etree._Element:
    pages = report.unmatched
    fallback = report.fallback or "none"
    if not pages:
        return E.E("section", {"class": "ns-card", "id": "unmatched"}, E.H2("Pages no layout covers"),
                   E.P("None: a learned layout covers every page given."
                       if report.readable else "No pages were given: only the layouts are shown."))
    rows = [
        E.TR(
            E.TD(r.source, *([E.BR(), E.SPAN(E.CLASS("ns-muted"), r.url)] if r.url and r.url != r.source else [])),
            E.TD(f"{r.nearest} ({percent(r.nearest_coverage)})" if r.nearest else "–"),
            E.TD(r.method or "none"),
            E.TD(E.B(r.title or "–"), E.BR(), E.SPAN(E.CLASS("ns-excerpt"), r.excerpt or "(empty body)")),
            E.TD({"class": "ns-num"}, str(r.body_chars)),
        )
        for r in pages[:MAX_LISTED]
    ]
    more = [E.P(E.CLASS("ns-muted"), f"… and {len(pages) - MAX_LISTED} more")] if len(pages) > MAX_LISTED else []
    return E.E(
        "section",
        {"class": "ns-card", "id": "unmatched"},
        E.H2(f"Pages no layout covers ({len(pages)})"),
        E.P(f"Extracted by the fallback ({fallback}). The nearest layout and the share of the page it "
            "covers say how far the page is from what was learned."),
        E.TABLE(E.TR(E.TH("page"), E.TH("nearest layout"), E.TH("method"), E.TH("fallback's result"),
                     E.TH({"class": "ns-num"}, "body chars")), *rows),
        *more,
    )


def _errors_section(errors: Iterable[PageResult]) -> etree._Element:
    return E.E(
        "section",
        {"class": "ns-card", "id": "errors"},
        E.H2("Pages that could not be read"),
        E.UL(*[E.LI(E.B(r.source), f": {r.error}") for r in errors]),
    )
