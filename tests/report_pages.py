"""Pages for the report tests: demo pages written to a folder, and hostile pages whose
every active part points at a given (trap) server."""

from __future__ import annotations

import random
from pathlib import Path

WORDS = (
    "council river budget school harbour election minister storm bridge museum farmers hospital "
    "railway festival court market tunnel library teachers energy coast union village plan report"
).split()


def write_demo_pages(folder: Path, n: int | None = None) -> list[Path]:
    """The demo site's pages (all of them, or the first ``n``) as files under ``folder``."""
    from newsstemmer.demo import build_site

    site = build_site()
    folder.mkdir(parents=True, exist_ok=True)
    written = site.save(folder)
    assert written
    files = sorted(folder.rglob("*.html"))
    return files if n is None else files[:n]


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(10, 18))).capitalize() + "."


def hostile_page(i: int, trap: str) -> str:
    """An article page of one fixed layout carrying every kind of active or fetching part,
    each aimed at ``trap`` (``http://127.0.0.1:PORT``); scripts would set
    ``document.title`` and ``window.__pwned``."""
    rng = random.Random(i)
    body = "".join(f"<p>{_sentence(rng)} {_sentence(rng)} {_sentence(rng)}</p>" for _ in range(3 + i % 3))
    pwn = "document.title='pwned';window.__pwned=1"
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8">
<base href="{trap}/base/">
<meta http-equiv="refresh" content="0; url={trap}/refresh">
<title>Story {i} about the {WORDS[i % len(WORDS)]} | Hostile Times</title>
<link rel="stylesheet" href="{trap}/link.css">
<link rel="preload" as="image" href="{trap}/preload.png">
<link rel="icon" href="{trap}/favicon.ico">
<style>@import url("{trap}/import.css"); body {{ background: url({trap}/style-bg.png); }}
@font-face {{ font-family: X; src: url({trap}/font.woff); }} h1 {{ font-family: X; }}</style>
<script src="{trap}/script.js"></script>
<script>{pwn}</script>
</head>
<body onload="{pwn}" background="{trap}/body-bg.png">
<div class="top" style="background-image: url('{trap}/inline-bg.png')">Hostile Times, the paper of record since 1900
 <a href="{trap}/home" ping="{trap}/ping">Home</a> <a href="javascript:{pwn}">World</a></div>
<div class="story" data-role="page">
<h1 onmouseover="{pwn}">Story {i} about the {WORDS[i % len(WORDS)]} and the {WORDS[(i * 7) % len(WORDS)]}</h1>
{body}
<img src="{trap}/img.png" onerror="{pwn}" alt="A photograph">
<img srcset="{trap}/srcset-1x.png 1x, {trap}/srcset-2x.png 2x" alt="Another photograph">
<picture><source srcset="{trap}/picture.webp" type="image/webp"><img src="{trap}/picture.png" alt="p"></picture>
<video poster="{trap}/poster.png" src="{trap}/video.mp4" autoplay></video>
<audio src="{trap}/audio.mp3" autoplay></audio>
<iframe src="{trap}/iframe.html"></iframe>
<iframe srcdoc="&lt;script&gt;parent.{pwn}&lt;/script&gt;&lt;img src={trap}/srcdoc.png&gt;"></iframe>
<object data="{trap}/object.swf"><param name="movie" value="{trap}/param.swf"></object>
<embed src="{trap}/embed.swf">
<svg width="10" height="10"><image href="{trap}/svg-image.png" width="10" height="10"/><script>{pwn}</script></svg>
<svg><use href="{trap}/sprite.svg#icon"/></svg>
<form action="{trap}/form"><input type="image" src="{trap}/input.png"><button formaction="{trap}/button">Go</button></form>
<table background="{trap}/table-bg.png"><tr><td background="{trap}/td-bg.png">Fact box for story {i}: {_sentence(rng)}</td></tr></table>
<details open ontoggle="{pwn}"><summary>More</summary>Details text for story {i}.</details>
<noscript><img src="{trap}/noscript.png"></noscript>
<template><img src="{trap}/template.png"></template>
<math><mi xlink:href="{trap}/math">x</mi></math>
</div>
<div class="footer">All rights reserved by Hostile Times Media Group, publishers of fine hostile pages.</div>
<script>setTimeout(function(){{ {pwn} }}, 10)</script>
</body></html>"""
