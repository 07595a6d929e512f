"""The demo's pages as served: a written page encoded with its content type, and day 1's robots.txt and sitemap."""

from __future__ import annotations

from typing import Any

from .markup import Doc, esc
from .redesign import redesign
from .sitemodel import BASE_PLACEHOLDER, SECTION_BY_KEY, DemoPage, codec

__all__ = ["robots_and_sitemap", "served_page"]


def served_page(doc: Doc, redesigned: bool = False) -> DemoPage:
    """The page as served: encoded in its section's charset, with its content type."""
    art = doc.article
    section = SECTION_BY_KEY.get(doc.section or (art.section if art else ""), None)
    charset = section.charset if section else "utf-8"
    header_charset = section.header_charset if section else False
    if doc.header_charset is not None:
        header_charset = doc.header_charset
    text = doc.html()
    if redesigned:
        text = redesign(text)
    body = text.encode(charset)
    if body.decode(codec(charset)) != text:  # pragma: no cover - guards the word lists
        raise ValueError(f"{doc.path}: text does not round-trip through {charset}")
    label = "Shift_JIS" if charset == "shift_jis" else charset
    ctype = f"text/html; charset={label}" if header_charset else "text/html"
    if art is not None:
        return DemoPage(doc.path, body, ctype, "article", art.title, art.body, art.layout, art.section,
                        charset=label, lang=SECTION_BY_KEY[art.section].lang, article_id=art.id,
                        published=art.when.isoformat(), links=tuple(doc.links))
    return DemoPage(doc.path, body, ctype, doc.kind, doc.title, None, doc.layout, doc.section, charset=label,
                    lang=section.lang if section else "en", links=tuple(doc.links))


def robots_and_sitemap(pages: dict[str, Any]) -> None:
    """``/robots.txt`` and ``/sitemap.xml`` (every index and article page), on ``BASE_PLACEHOLDER``."""
    robots = f"User-agent: *\nAllow: /\n\nSitemap: {BASE_PLACEHOLDER}/sitemap.xml\n"
    pages["/robots.txt"] = DemoPage("/robots.txt", robots.encode(), "text/plain; charset=utf-8", "robots")
    urls = []
    for path, page in sorted(pages.items()):
        if page.kind in ("index", "article"):
            lastmod = page.published[:10] if page.published else "2026-11-22"
            urls.append(f"<url><loc>{BASE_PLACEHOLDER}{esc(path)}</loc><lastmod>{lastmod}</lastmod></url>")
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
           + "\n".join(urls) + "\n</urlset>\n")
    pages["/sitemap.xml"] = DemoPage("/sitemap.xml", xml.encode(), "application/xml", "sitemap")
