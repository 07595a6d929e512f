"""The mistakes a new user makes in the first hour, each answered with one line.

Every case fails before anything is fetched or computed: a wrong setting or spider
argument stops ``scrapy crawl`` at its start, a command given a missing or wrong file
stops before its work.  Each gives exactly one line on stderr, no traceback, and a
non-zero exit code.  The crawl's cases are checked twice: in this process, through the
hooks Scrapy calls (the spider's ``from_crawler``, the add-on, the storage), all of them
quickly; and a selection through real ``scrapy crawl`` processes against a local server
that must see no request.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from scrapy.crawler import Crawler
from scrapy.settings import Settings

from newsstemmer.cli import main
from newsstemmer.crawl.addon import NewsstemmerAddon
from newsstemmer.crawl.config import DEMO_LAST_DAY, DEFAULTS, Config, SettingError
from newsstemmer.crawl.spiders.news import NewsSpider, read_start_urls
from newsstemmer.crawl.storage import Storage
from newsstemmer.crawl.testing import REPO_ROOT, TestSite, free_port, serve
from newsstemmer.demo.days import MAX_DAY

#: (setting, wrong value, words the line must hold): bad values of 14 settings.
BAD_SETTINGS = [
    ("NEWSSTEMMER_MIN_PAGES", "abc", "whole number of 2 or more"),
    ("NEWSSTEMMER_MIN_PAGES", "1", "whole number of 2 or more"),
    ("NEWSSTEMMER_DEMO_DAY", "0", f"from 1 to {DEMO_LAST_DAY}"),
    ("NEWSSTEMMER_UPDATE_MIN_CHANGE", "2.0", "from 0 to 1"),
    ("NEWSSTEMMER_SINGLE_PAGE_METHOD", "foo", "one of region"),
    ("NEWSSTEMMER_ENABLED", "maybe", "True or False"),
    ("NEWSSTEMMER_MAX_DEPTH", "-1", "0 or more"),
    ("NEWSSTEMMER_MAX_PAGES_PER_SITE", "many", "1 or more"),
    ("NEWSSTEMMER_DEMO_PORT", "99999", "from 0 to 65535"),
    ("NEWSSTEMMER_HEALTH_MIN_COVERAGE", "high", "from 0 to 1"),
    ("NEWSSTEMMER_RECHECK_AFTER", "-5", "0 or more"),
    ("NEWSSTEMMER_RECHECK_BACKOFF", "11", "from 0 to 10"),
    ("NEWSSTEMMER_RECHECK_WINDOW", "a week", "0 or more"),
    ("NEWSSTEMMER_MAX_RECHECKS_PER_SITE", "-1", "0 or more"),
    ("NEWSSTEMMER_SIDECAR", "sometimes", "auto, True or False"),
    ("NEWSSTEMMER_WORKER_TIMEOUT", "1", "from 2 to 3600"),
    ("NEWSSTEMMER_REDIS_PREFIX", "a b", "letters, digits"),
    ("NEWSSTEMMER_REDIS_URL", "localhost:6379", "redis://HOST"),
    ("NEWSSTEMMER_STATE_DIR", "", "folder path"),
    ("NEWSSTEMMER_KEEP_RUNS", "5", "whole number of 20 or more"),
    ("NEWSSTEMMER_KEEP_TEXT_DAYS", "a month", "0 or more"),
]

#: (spider arguments, words the line must hold): malformed start, feed and sitemap URLs.
BAD_ARGUMENTS = [
    ({"urls": "http://"}, "-a urls: http:// has no valid host name"),
    ({"urls": "ftp://example.com/"}, "not an http(s) URL"),
    ({"urls": "http://example.com:port/"}, "not an http(s) URL"),
    ({"urls": "http://exa%mple.com/"}, "no valid host name"),
    ({"feeds": "mailto:news@example.com"}, "-a feeds:"),
    ({"sites": "no-such-sites.txt"}, "cannot read the sites file no-such-sites.txt"),
]


def one_line(text: str) -> str:
    """The only line of ``text`` (fails if there are more or none, or a traceback)."""
    assert "Traceback" not in text
    lines = text.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def state_settings(tmp_path: Path, **values: str) -> Settings:
    return Settings({"NEWSSTEMMER_STATE_DIR": str(tmp_path / "state"),
                     "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "patterns"), **values})


def stopped(call) -> str:
    """The one line a crawl set-up hook stops the process with."""
    with pytest.raises(SystemExit) as info:
        call()
    assert isinstance(info.value.code, str)  # Python prints it on stderr and exits 1
    line = one_line(info.value.code)
    assert line.startswith("newsstemmer: error: ") and line.endswith((".", "?"))
    return line


# -- settings and spider arguments, in this process ------------------------------------------


@pytest.mark.parametrize("name, value, allowed", BAD_SETTINGS)
def test_a_bad_setting_is_one_sentence_naming_it(tmp_path, name, value, allowed):
    settings = state_settings(tmp_path, **{name: value})
    with pytest.raises(SettingError) as info:
        Config.from_settings(settings)
    message = one_line(str(info.value))
    assert name in message and repr(value) in message and allowed in message
    # the spider (scrapy crawl news) and the add-on (any project) stop on it alike
    assert allowed in stopped(lambda: NewsSpider.from_crawler(Crawler(NewsSpider, settings), urls="http://a.test/"))
    assert allowed in stopped(lambda: NewsstemmerAddon().update_settings(settings.copy()))


def test_a_misspelt_setting_names_the_right_one(tmp_path):
    line = stopped(lambda: NewsstemmerAddon().update_settings(state_settings(tmp_path, NEWSSTEMMER_MIN_PAGE="5")))
    assert line.endswith("NEWSSTEMMER_MIN_PAGE is not a newsstemmer setting: did you mean NEWSSTEMMER_MIN_PAGES?")


def test_every_default_passes_and_strings_are_read_as_scrapy_gives_them(tmp_path):
    assert Config.from_settings(Settings({})) == Config(sidecar=Config().sidecar)
    as_text = Settings({name: str(value) for name, value in DEFAULTS.items()})
    assert Config.from_settings(as_text).min_pages == 20 and Config.from_settings(as_text).update_min_change == 0.02
    assert DEMO_LAST_DAY == MAX_DAY


@pytest.mark.parametrize("arguments, words", BAD_ARGUMENTS)
def test_a_bad_spider_argument_is_one_line(tmp_path, monkeypatch, arguments, words):
    monkeypatch.chdir(tmp_path)
    line = stopped(lambda: NewsSpider.from_crawler(Crawler(NewsSpider, state_settings(tmp_path)), **arguments))
    assert words in line


def test_the_demo_with_redis_is_one_line(tmp_path):
    settings = state_settings(tmp_path, NEWSSTEMMER_REDIS_URL="redis://127.0.0.1:6379/0")
    line = stopped(lambda: NewsSpider.from_crawler(Crawler(NewsSpider, settings)))
    assert "NEWSSTEMMER_REDIS_URL is set" in line and "-a urls=" in line


def test_a_redis_url_with_no_server_is_one_line(tmp_path):
    pytest.importorskip("redis")
    url = f"redis://127.0.0.1:{free_port()}/0"
    crawler = Crawler(NewsSpider, state_settings(tmp_path, NEWSSTEMMER_REDIS_URL=url))
    line = stopped(lambda: Storage.for_crawler(crawler))
    assert f"NEWSSTEMMER_REDIS_URL = '{url}': no usable Redis server there" in line


def test_a_url_without_a_scheme_is_tried_over_http_with_one_warning(caplog):
    with caplog.at_level(logging.WARNING):
        urls = read_start_urls("127.0.0.1:8766,example.com/news/,https://example.org/")
    assert urls == ["http://127.0.0.1:8766/", "http://example.com/news/", "https://example.org/"]
    (record,) = caplog.records
    assert record.levelno == logging.WARNING
    assert record.getMessage() == ("newsstemmer: 127.0.0.1:8766, example.com/news/ without a scheme: trying "
                                   "http:// (write https://127.0.0.1:8766 for https)")


# -- the command line, in this process ---------------------------------------------------------


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    site = tmp_path / "site" / "2024" / "07"
    site.mkdir(parents=True)
    for i in range(3):
        (site / f"story{i}.html").write_text(f"<html><body><h1>Story {i}</h1><p>Text {i}.</p></body></html>")
    (tmp_path / "corrupt.json").write_text('{"format": "newsstemmer-patterns", "site": "x')
    (tmp_path / "links.jsonl").write_text('{"url": "http://a.test/", "anchors": ["x"\n')
    return {"site": str(tmp_path / "site"), "page": str(site / "story0.html"), "out": str(tmp_path / "p.json"),
            "corrupt": str(tmp_path / "corrupt.json"), "links": str(tmp_path / "links.jsonl"),
            "missing": str(tmp_path / "nope.html"), "missing_json": str(tmp_path / "nope.json")}


#: (command line with {placeholders} from the ``files`` fixture, words the line must hold)
CLI_MISTAKES = [
    ("learn -o {out} {missing}", "nope.html: no such file or folder."),
    ("extract {missing}", "nope.html: no such file or folder."),
    ("templates {missing} {missing_json}", "none of the 2 pages given exists"),
    ("extract -p {missing_json} {site}", "nope.json: cannot read pattern file"),
    ("extract -p {corrupt} {site}", "corrupt pattern file: invalid JSON: unterminated string starting at line 1"),
    ("rules {site} --learn {page}", "site: is a directory (give the pattern file)"),
    ("rules --learn {site}", "the following arguments are required: PATTERNS.json"),
    ("report {missing_json}", "nope.json: cannot read pattern file"),
    ("learn {site} -o {site}", "is a directory"),
    ("learn --linkinfo {links} -o {out} {site}", "invalid JSON: "),
    ("extract --pattern-threshold 2 {site}", "must be between 0 and 1"),
    ("patterns history {missing_json}", "nope.json"),
    ("crawl {site}", "invalid choice: 'crawl'"),
    ("extract --keep headlines {site}", "argument --keep: cannot keep headlines: the kinds that may be kept are bio, "),
    ("extract --formats pdf {site}", "argument --formats: unknown body format pdf: the formats are text, markdown"),
]


@pytest.mark.parametrize("command, words", CLI_MISTAKES)
def test_a_command_line_mistake_is_one_line(files, capsys, command, words):
    code = main(command.format(**files).split())
    out, err = capsys.readouterr()
    line = one_line(err)
    assert code != 0 and out == ""
    assert line.startswith("newsstemmer: error: ") and words in line


# -- real scrapy crawl processes ---------------------------------------------------------------


def scrapy_crawl(tmp_path: Path, name: str, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-O", str(tmp_path / f"{name}.jsonl"),
           "-s", f"NEWSSTEMMER_STATE_DIR={tmp_path / name}", "-s", f"NEWSSTEMMER_PATTERNS_DIR={tmp_path / name}",
           "-s", "TELNETCONSOLE_ENABLED=False", "-s", "LOG_LEVEL=WARNING", *args]
    return subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.crawl
def test_scrapy_crawl_stops_on_each_mistake_with_one_line_before_any_request(tmp_path):
    requests: list[str] = []
    site = TestSite(pages={"/": (200, "text/html", b"<html><body><a href='/a'>a</a></body></html>")})
    with serve(site, gate=requests.append) as base:
        cases = {  # name -> (arguments, words of the line)
            "min_pages": (["-a", f"urls={base}/", "-s", "NEWSSTEMMER_MIN_PAGES=abc"], "NEWSSTEMMER_MIN_PAGES = 'abc'"),
            "demo_day": (["-s", "NEWSSTEMMER_DEMO_DAY=0"], "NEWSSTEMMER_DEMO_DAY = '0'"),
            "method": (["-a", f"urls={base}/", "-s", "NEWSSTEMMER_SINGLE_PAGE_METHOD=foo"], "one of region"),
            "typo": (["-a", f"urls={base}/", "-s", "NEWSSTEMMER_MAX_PAGES=5"], "did you mean"),
            "url": (["-a", f"urls={base}/,http://"], "has no valid host name"),
            "redis_demo": (["-s", "NEWSSTEMMER_REDIS_URL=redis://127.0.0.1:6379/0"], "NEWSSTEMMER_REDIS_URL is set"),
            "redis_down": (["-a", f"urls={base}/", "-s", f"NEWSSTEMMER_REDIS_URL=redis://127.0.0.1:{free_port()}/0"],
                           "no usable Redis server there"),
        }
        with ThreadPoolExecutor(2) as pool:
            runs = dict(zip(cases, pool.map(lambda name: scrapy_crawl(tmp_path, name, *cases[name][0]), cases)))
    for name, run in runs.items():
        line = one_line(run.stderr)
        assert run.returncode == 1, (name, run.stderr)
        assert line.startswith("newsstemmer: error: ") and cases[name][1] in line, (name, line)
    assert requests == []  # every mistake stopped the crawl before its first request


@pytest.mark.crawl
def test_scrapy_crawl_of_a_host_without_scheme_fetches_it_over_http(tmp_path):
    requests: list[str] = []
    site = TestSite(pages={"/": (200, "text/html", b"<html><body><p>Front page</p></body></html>")})
    with serve(site, gate=requests.append) as base:
        host = base.removeprefix("http://")
        run = scrapy_crawl(tmp_path, "bare", "-a", f"urls={host}", "-s", "NEWSSTEMMER_MAX_DEPTH=0",
                           "-s", "NEWSSTEMMER_SITEMAPS=False", "-s", "ROBOTSTXT_OBEY=False")
    assert run.returncode == 0, run.stderr
    line = one_line(run.stderr)
    assert f"{host} without a scheme: trying http://" in line and "WARNING" in line
    assert requests == ["/"]


# -- help texts ----------------------------------------------------------------------------------


def test_every_help_text_is_plain_prose(capsys):
    from newsstemmer.cli import COMMANDS
    from newsstemmer.demo.__main__ import main as demo_main

    texts = []
    for argv in ([], *([name] for name in COMMANDS)):
        assert main([*argv, "--help"]) == 0
        texts.append(capsys.readouterr().out)
    for argv in (["--help"], ["truth", "--help"]):
        with pytest.raises(SystemExit):
            demo_main(argv)
        texts.append(capsys.readouterr().out)
    assert len(texts) == len(COMMANDS) + 3 and all("usage:" in text for text in texts)
    for text in texts:
        for markup in ("``", ":mod:", ":func:", ":class:", ":meth:", ":data:", ":attr:"):
            assert markup not in text, (markup, text)


# -- learn: what it says when nothing is learned, what it names the site, the file's mode ------


def story(i: int, head: str = "") -> str:
    words = " ".join(f"word{(i * 7 + k) % 50}" for k in range(60))
    return (f"<html><head><title>Story {i}</title>{head}</head><body><div id='nav'><a href='/'>Home</a> "
            f"<a href='/world'>World</a></div><div id='main'><h1>Headline number {i}</h1><p>{words}.</p>"
            f"<p>{words[::-1]}.</p></div><div id='foot'>Copyright the news</div></body></html>")


def test_learning_nothing_says_why(tmp_path, capsys, caplog):
    from newsstemmer import Page, learn

    one = tmp_path / "one.html"
    one.write_text(story(1))
    assert main(["learn", "-q", "-o", str(tmp_path / "p.json"), str(one)]) == 0
    line = one_line(capsys.readouterr().err)
    assert line.startswith("newsstemmer: learned no layout for site ") and "a layout needs 2 pages or more" in line
    with caplog.at_level(logging.WARNING, logger="newsstemmer"):
        site = learn([Page(html=story(1), url="http://a.test/1"), Page(html="<html><body></body></html>",
                                                                         url="http://a.test/2")])
    assert site.patterns == []
    (record,) = caplog.records
    assert record.getMessage().startswith("learned no layout for site a.test from 2 pages: no 2 of them share")


def test_learn_names_the_site_from_the_pages_or_their_folder(tmp_path, capsys):
    import json

    dated = tmp_path / "my-paper" / "2024" / "07"
    dated.mkdir(parents=True)
    for i in range(4):
        (dated / f"s{i}.html").write_text(story(i))
    out = tmp_path / "p.json"
    assert main(["learn", "-q", "-o", str(out), str(tmp_path / "my-paper")]) == 0
    assert json.loads(out.read_text())["site"] == "my-paper"  # not "07"
    for i, head in enumerate(["<link rel='canonical' href='https://www.daily.example/news/s0'>",
                              "<meta property='og:url' content='https://daily.example/news/s1'>"]):
        (dated / f"s{i}.html").write_text(story(i, head))
    assert main(["learn", "-q", "-o", str(out), str(dated)]) == 0
    assert json.loads(out.read_text())["site"] == "daily.example"
    capsys.readouterr()


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_pattern_files_get_the_umask_mode(tmp_path, capsys, umask):
    import os

    for i in range(3):
        (tmp_path / f"s{i}.html").write_text(story(i))
    out = tmp_path / "p.json"
    old = os.umask(umask)
    try:
        assert main(["learn", "-q", "-o", str(out), *(str(tmp_path / f"s{i}.html") for i in range(3))]) == 0
    finally:
        os.umask(old)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask
    capsys.readouterr()


def test_the_readme_settings_table_lists_every_setting_and_what_is_allowed():
    import re

    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(NEWSSTEMMER_\w+)` \| ([^|]+) \| ([^|]+) \|", readme, re.M)
    assert [name for name, _, _ in rows] == list(DEFAULTS)
    for name, default, allowed in rows:
        assert allowed.strip(), name
        value = default.strip().strip("`").strip('"')
        Config.from_settings(Settings({name: value}))  # the documented default passes the check


@pytest.mark.parametrize("argv, words", [(["--day", "0"], "demo day must be a whole number from 1 to 30, got 0"),
                                         (["--port", "abc"], "argument --port: invalid int value: 'abc'")])
def test_a_demo_mistake_is_one_line(capsys, argv, words):
    from newsstemmer.demo.__main__ import main as demo_main

    with pytest.raises(SystemExit) as info:
        demo_main(argv)
    assert info.value.code == 2
    assert one_line(capsys.readouterr().err) == f"python -m newsstemmer.demo: error: {words} (see --help)"


def test_redis_without_the_redis_extra_is_one_line(tmp_path, monkeypatch):
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in ("redis", "scrapy_redis") else find_spec(name, *a))
    settings = state_settings(tmp_path, NEWSSTEMMER_REDIS_URL="redis://127.0.0.1:6379/0")
    line = stopped(lambda: NewsstemmerAddon().update_settings(settings))
    assert "scrapy-redis is not installed: pip install 'newsstemmer[redis]'" in line
