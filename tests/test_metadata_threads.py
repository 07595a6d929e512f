"""A forum thread's starter as its author: post containers told by their structure
(newsstemmer.metadata.threads), and a thread's JSON-LD post."""

from __future__ import annotations

from newsstemmer import Page
from newsstemmer.metadata import article_metadata, page_facts
from newsstemmer.metadata.fields import author_candidates, headline_neighbourhood
from newsstemmer.metadata.threads import thread_starter

_TEXT = "The pump stopped after a week and the seal leaks when the tank is full. "


def _post(writer: str, words: int = 2, header: str = "username") -> str:
    return (f'<article class="message message--post" data-content="post-{writer}">'
            f'<div class="message-user"><a class="{header}" href="/members/{writer}.1/">{writer}</a>'
            f'<span class="badge">Posts: 12</span></div>'
            f'<div class="message-body"><p>{_TEXT * words}</p></div></article>')


def _thread(posts: list[str], head: str = "") -> str:
    return ("<html><head><title>Pump seal leaks | Forum</title>" + head + "</head><body>"
            "<nav><a href='/'>Forums</a></nav><h1>Pump seal leaks</h1>"
            '<div class="block-body">' + "".join(posts) + "</div></body></html>")


def _authors(html: str) -> list[str]:
    page = Page(html, url="https://forum.test/threads/pump-seal-leaks.1/")
    return article_metadata(page.tree, page.url, html=page.html).authors


def test_the_first_posts_writer_is_the_threads_author_not_a_replys() -> None:
    # the byline marks nearest the headline: the first post's header; its writer is a user
    # name with digits, which the byline reading would cut ("lulug30" -> "lulug")
    html = _thread([_post("lulug30"), _post("ShiftKicker"), _post("Ann Lee"), _post("bo_kim")])
    assert _authors(html) == ["lulug30"]
    page = Page(html)
    facts = page_facts(page.tree, page.html)
    starter = thread_starter(headline_neighbourhood(page.tree, facts).bylines)
    assert starter is not None and starter.name == "lulug30" and starter.posts == 4
    assert starter.container.get("data-content") == "post-lulug30"
    kinds = [kind for names, _, kind in author_candidates(facts, page.tree) if names]
    assert kinds.index("thread") < kinds.index("byline-mark")


def test_no_thread_without_repeated_posts() -> None:
    # two posts are not enough, nor a row of names without posts (a team's page)
    assert thread_starter(_bylines(_thread([_post("lulug30"), _post("ShiftKicker")]))) is None
    team = "".join(f'<li class="person"><span class="author">{n}</span></li>' for n in ("Ann Lee", "Bo Kim", "Cy Dee"))
    assert thread_starter(_bylines(_thread([f"<ul>{team}</ul>"]))) is None


def test_an_articles_comments_and_controls_are_no_thread() -> None:
    comments = '<div class="comments">' + "".join(_post(n) for n in ("ann", "bo", "cy", "dee")) + "</div>"
    article = _thread([f"<p>{_TEXT * 3}</p>", comments])
    assert thread_starter(_bylines(article)) is None
    follow = "".join(f'<div class="box"><button class="followAuthorBtn">Follow</button><p>{_TEXT}</p></div>'
                     for _ in range(4))
    assert thread_starter(_bylines(_thread([follow]))) is None
    # a label in the first header ("Topic Author") is no writer: the next mark is read
    labelled = _thread([_post("Topic Author"), _post("ann"), _post("bo"), _post("cy")])
    assert thread_starter(_bylines(labelled)).name == "ann"


def test_a_threads_json_ld_post_names_its_starter() -> None:
    ld = ('<script type="application/ld+json">{"@type": "DiscussionForumPosting", "headline": "Pump seal leaks",'
          ' "author": {"@type": "Person", "name": "thanosmano"}}</script>')
    assert _authors(_thread([f"<p>{_TEXT}</p>"], head=ld)) == ["thanosmano"]


def _bylines(html: str) -> list:
    page = Page(html)
    return headline_neighbourhood(page.tree, page_facts(page.tree, page.html)).bylines


def test_bold_dt_post_headers_without_classes_mark_posts_too() -> None:
    # FluxBB: <div class="blockpost"> ... <dl><dt><strong>name</strong></dt> ... (no class says user)
    posts = "".join(f'<div class="blockpost row{i}"><div class="postleft"><dl><dt><strong>{n}</strong></dt>'
                    f'<dd>Member</dd></dl></div><div class="postright"><p>{_TEXT * 2}</p></div></div>'
                    for i, n in enumerate(("archuser38013", "seth", "Ann Lee")))
    assert _authors(_thread([posts])) == ["archuser38013"]
    two = posts[:posts.rindex('<div class="blockpost')]
    assert _authors(_thread([two])) == []
