"""The demo site's video pages and live blogs: pages a news crawl meets that are not articles.

* ``/video/`` lists the videos; each ``/video/<slug>/`` is a player with a one-line
  description, its duration, and a "more videos" strip (``og:type`` ``video.other``,
  JSON-LD ``VideoObject``): little text of its own, much of it links.
* ``/live/<slug>/`` is a live blog: a summary and a column of timestamped updates, newest
  first (JSON-LD ``LiveBlogPosting``): much text, but a running feed, not one article.

Both are kinds a news dataset leaves out of its article feed; the demo carries them so the
crawl tests meet them.  Their choices come from their own random sources (seed and path),
never from the plan's, so adding them changes no article.
"""

from __future__ import annotations

import datetime as _dt
import json
import random

from . import text as en
from .markup import Doc, attr, esc, short_date
from .plan import PlannedArticle, SitePlan
from .sitemodel import SECTION_BY_KEY
from .themes import english_page

__all__ = ["LIVE_SECTIONS", "VIDEO_COUNT", "home_block", "live_pages", "video_pages"]

#: How many videos the site has, and the sections that run a live blog.
VIDEO_COUNT = 6
LIVE_SECTIONS = ("world", "sport")


def _videos(plan: SitePlan) -> list[tuple[str, PlannedArticle]]:
    """``(path, story)`` of each video: a clip about one of the English stories."""
    rng = random.Random(f"meridian:{plan.seed}:videos")
    english = [a for a in plan.articles if a.section not in ("ja", "photos")]
    picks = rng.sample(english, min(VIDEO_COUNT, len(english)))
    return [(f"/video/{en.slugify(a.title, 6)}-{a.id}/", a) for a in sorted(picks, key=lambda a: -a.id)]


def video_pages(plan: SitePlan) -> list[Doc]:
    """The video index and one page per video."""
    videos = _videos(plan)
    docs = [_video_index(plan, videos)]
    for path, story in videos:
        docs.append(_video_page(plan, path, story, videos))
    return docs


def _video_index(plan: SitePlan, videos: list[tuple[str, PlannedArticle]]) -> Doc:
    doc = Doc("/video/", title="Video", layout="video-index")
    rng = plan.page_rng(doc.path)
    cards = "".join(
        f'<li class="video-card"><span class="video-thumb" aria-hidden="true"></span>'
        f'{doc.a(path, f"Watch: {story.short}")} <span class="duration">{_duration(rng)}</span></li>\n'
        for path, story in videos
    )
    main = ('<main id="content" class="site-main video-hub">\n<h1 class="archive-title">Video</h1>\n'
            f'<ul class="video-grid">\n{cards}</ul>\n</main>\n')
    english_page(plan, doc, rng, "Video", "The latest news video from the Meridian Courier.", None, main,
                 body_class="archive video")
    return doc


def _video_page(plan: SitePlan, path: str, story: PlannedArticle, videos: list[tuple[str, PlannedArticle]]) -> Doc:
    doc = Doc(path, kind="video", title=f"Watch: {story.title}", layout="video", section=story.section)
    rng = plan.page_rng(path)
    length = _duration(rng)
    more = "".join(f"<li>{doc.a(p, f'Watch: {s.short}')}</li>" for p, s in videos if p != path)
    ld = json.dumps({"@context": "https://schema.org", "@type": "VideoObject", "name": story.title,
                     "description": story.dek, "uploadDate": story.when.isoformat(),
                     "duration": "PT" + length.replace(":", "M") + "S"})
    main = (
        '<main id="content" class="site-main video">\n'
        f'<div class="video-player" data-src="https://media.example/v/{story.id}.m3u8">'
        f'<video controls preload="none" poster="/media/{story.id}.jpg"></video>'
        '<button class="play" aria-label="Play">&#9654;</button></div>\n'
        f'<h1 class="video-title">Watch: {esc(story.title)}</h1>\n'
        f'<p class="video-meta"><span class="duration">{length}</span> · {short_date(story.when)} · '
        f'{esc(SECTION_BY_KEY[story.section].name)}</p>\n'
        f'<p class="video-description">{esc(story.dek)}</p>\n'
        f'<p class="video-story">Read the story: {doc.a(story.path, story.title)}</p>\n'
        f'<section class="more-videos"><h2>More videos</h2><ul>{more}</ul></section>\n'
        f'<script type="application/ld+json">{ld}</script>\n</main>\n'
    )
    english_page(plan, doc, rng, doc.title or "", story.dek, story.section, main, body_class="video-page",
                 exclude=story.id)
    doc.parts[0] = doc.parts[0].replace(
        "</head>", f'<meta property="og:type" content="video.other">\n'
                   f'<meta property="og:title" content="{attr(doc.title or "")}">\n</head>', 1)
    return doc


def _duration(rng: random.Random) -> str:
    return f"{rng.randint(0, 4)}:{rng.randint(0, 59):02d}"


def live_pages(plan: SitePlan) -> list[Doc]:
    """One rolling live blog per section in :data:`LIVE_SECTIONS`, on the day of its newest story."""
    return [_live_page(plan, key, latest) for key, latest in _live_stories(plan)]


def _live_stories(plan: SitePlan) -> list[tuple[str, PlannedArticle]]:
    return [(key, max(plan.by_section[key], key=lambda a: a.id)) for key in LIVE_SECTIONS if plan.by_section.get(key)]


def home_block(plan: SitePlan, doc: Doc) -> str:
    """The home page's "Live and video" block: links to the live blogs and the newest videos."""
    live = "".join(f"<li>{doc.a(f'/live/{key}/', f'{SECTION_BY_KEY[key].name} live')}</li>"
                   for key, _ in _live_stories(plan))
    videos = "".join(f"<li>{doc.a(path, f'Watch: {story.short}')}</li>" for path, story in _videos(plan)[:3])
    return (f'<section class="section-block section-block-media"><h2 class="section-heading">'
            f'{doc.a("/video/", "Live and video")}</h2><ul class="live-list">{live}</ul>'
            f'<ul class="video-list">{videos}</ul></section>\n')


def _live_page(plan: SitePlan, key: str, latest: PlannedArticle) -> Doc:
    name = SECTION_BY_KEY[key].name
    day = latest.when
    path = f"/live/{key}/"  # one rolling page per section: the same URL every day
    title = f"{name} live: the day's news as it happens"
    doc = Doc(path, kind="live", title=title, layout="liveblog", section=key)
    rng = plan.page_rng(path)
    ctx = en.article_context(rng, key)
    used: set[str] = set()
    start = day.replace(hour=7, minute=0)
    times = sorted(rng.sample(range(0, 12 * 60), rng.randint(12, 18)), reverse=True)
    updates = []
    for minutes in times:
        when = start + _dt.timedelta(minutes=minutes)
        text = en.news_paragraph(rng, key, ctx, used)
        updates.append(
            f'<article class="live-update" id="update-{when:%H%M}"><time datetime="{when.isoformat()}">'
            f'{when:%H.%M}</time>\n<p>{esc(text)}</p></article>\n'
        )
    summary = en.standfirst(rng, key, ctx)
    ld = json.dumps({"@context": "https://schema.org", "@type": "LiveBlogPosting", "headline": title,
                     "coverageStartTime": start.isoformat()})
    main = (
        '<main id="content" class="site-main live">\n'
        f'<header class="live-header"><span class="live-badge">Live</span><h1 class="live-title">{esc(title)}</h1>\n'
        f'<p class="live-summary">{esc(summary)}</p><p class="live-refresh">Updated {short_date(day)}</p></header>\n'
        f'<div class="live-feed">\n{"".join(updates)}</div>\n'
        f'<p class="live-more">Our full story: {doc.a(latest.path, latest.title)}</p>\n'
        f'<script type="application/ld+json">{ld}</script>\n</main>\n'
    )
    english_page(plan, doc, rng, title, summary, key, main, body_class="live-page", exclude=latest.id)
    return doc
