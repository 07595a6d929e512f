"""The demo site's days that monitoring runs crawl: new, updated and redesigned articles; 304s."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from newsstemmer.crawl.testing import REPO_ROOT
from newsstemmer.demo import DemoServer, build_site
from newsstemmer.demo.days import NEW_PER_DAY, UPDATES_PER_DAY


def test_demo_days_publish_update_and_redesign():
    day1, day2, day3 = build_site(), build_site(day=2), build_site(day=3)
    paths1, paths2 = {p.path for p in day1.articles()}, {p.path for p in day2.articles()}
    assert len(paths2 - paths1) == NEW_PER_DAY >= 10 and paths1 < paths2
    assert len(day2.updated) == UPDATES_PER_DAY and set(day2.updated.values()) == {2}
    for path in day2.updated:
        assert day2[path].text != day1[path].text and "Update, Monday 23 November 2026:" in day2[path].text
    records = day3.truth_records()
    assert len(records) == len(day3.articles()) and {r["updated"] for r in records} == {None, 2, 3}
    # day 3 is a redesign: no class name of day 1's article template is left, the truth is the same text
    std = next(p for p in day3.articles() if p.layout == "standard" and p.path in paths1 and p.path not in day3.updated)
    assert b'class="entry-content"' in day1[std.path].body and b"entry-content" not in std.body
    assert std.text == day1[std.path].text
    out = subprocess.run([sys.executable, "-m", "newsstemmer.demo", "truth", "--day", "2"], capture_output=True,
                         text=True, cwd=REPO_ROOT)
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert len(lines) == len(paths2) and set(lines[0]) == {"path", "title", "body", "published", "updated"}
    with pytest.raises(ValueError):
        build_site(day=0)


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict, bytes]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def test_demo_server_validators_304_and_day_switch():
    day1 = build_site()
    art = day1.articles()[0]
    with DemoServer(day1) as server:
        status, headers, body = _get(server.url(art.path))
        assert status == 200 and headers["ETag"] and headers["Last-Modified"].endswith("GMT")
        assert _get(server.url(art.path), {"If-None-Match": headers["ETag"]})[0] == 304
        assert _get(server.url(art.path), {"If-Modified-Since": headers["Last-Modified"]})[0] == 304
        assert _get(server.url(art.path), {"If-None-Match": '"other"'})[0] == 200
        assert _get(server.url("/feed.xml"))[0] == 200
        server.switch(build_site(day=3))
        status, _, body3 = _get(server.url(art.path), {"If-None-Match": headers["ETag"]})
        assert status == 200 and body3 != body  # redesigned: new bytes, new ETag
