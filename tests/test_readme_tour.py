"""The README's tour: every shell and Python example of ``README.md``, in order, run as written
against the bundled demo site (the example sites' URLs become the demo's), or named below
with the test that covers it instead.  A new or changed example that no longer runs fails
here, as does one the tour does not know.

Also: every dotted ``newsstemmer.…`` name in the user-facing docs still resolves.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from newsstemmer.demo import DemoServer, build_site

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
EXAMPLE_URLS = ("https://www.example-news.com/", "https://www.example.com/")
#: Unthrottled and quiet: the demo is on loopback (the README's commands keep their own flags).
FAST = ("-s AUTOTHROTTLE_ENABLED=False -s DOWNLOAD_DELAY=0 -s TELNETCONSOLE_ENABLED=False "
        "-s CONCURRENT_REQUESTS_PER_DOMAIN=16")


@dataclass(frozen=True)
class Example:
    line: int
    lang: str
    text: str

    @property
    def first(self) -> str:
        """The first line that is not a comment (what names the example)."""
        return next((x for x in self.text.splitlines() if x.strip() and not x.startswith("#")), "")


def readme_examples() -> list[Example]:
    """The README's fenced examples in shell, Python and cron."""
    out, lang, start, lines = [], None, 0, []
    for n, line in enumerate(README.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            if lang is None:
                lang, start, lines = line[3:].strip() or "text", n, []
            else:
                if lang in ("sh", "python", "cron"):
                    out.append(Example(start, lang, "\n".join(lines) + "\n"))
                lang = None
        elif lang is not None:
            lines.append(line)
    return out


#: Examples the tour does not run, with what covers them.
NOT_RUN = {
    "apt-get update": "CI's own command: .ci/run runs exactly this line",
    "curl http://localhost:6800": "needs a scrapyd server: tests/test_monitor_schedule.py deploys the egg to one",
    "redis-server --port": "needs several machines: tests/test_crawl_redis.py runs workers on one redis-server",
    "scrapy state -s NEWSSTEMMER_REDIS_URL": "needs a redis-server: tests/test_redis_retention.py runs scrapy state "
                                             "on a throwaway one",
    "FEEDS = {": "a settings fragment: tests/test_crawl_pagetype.py crawls the demo with these two feeds",
    "newsstemmer extract --formats markdown,html": "tests/test_cli_formats.py runs these three commands on a "
    "folder of pages",
}
#: Examples the tour runs, by a phrase of their first line (in README order).
RUN = (
    "python -m pip install -e . && scrapy crawl news",
    "scrapy crawl news -a urls=",
    'ADDONS = {"newsstemmer.crawl.addon',
    "scrapy startproject mynews",
    "from urllib.parse import urlsplit",
    "scrapy crawl news -a sites=sites.txt -o feeds",
    "scrapy state --prune",
    "17 * * * * NEWSSTEMMER_DATA",
    "python scripts/build_egg.py",
    "from pathlib import Path",
    "newsstemmer learn -o patterns/example.com.json",
    "from newsstemmer import ExtractOptions, extract",
    "newsstemmer report patterns/example.com.json site/",
    "import scrapy",
)


def _kind(ex: Example) -> str:
    for phrase in NOT_RUN:
        if phrase in ex.first:
            return "skip"
    for phrase in RUN:
        if phrase in ex.first:
            return phrase
    raise AssertionError(f"README.md line {ex.line}: an example the tour does not know: {ex.first!r} "
                         "(add it to RUN in tests/test_readme_tour.py, or to NOT_RUN with what covers it)")


def test_the_tour_knows_every_readme_example():
    kinds = [_kind(ex) for ex in readme_examples()]
    run = [k for k in kinds if k != "skip"]
    assert run == list(RUN), "the README's examples moved: RUN follows their order"


DOC_FILES = ("README.md", "ARCHITECTURE.md", "training/README.md", "newsstemmer/models/README.md")
DOTTED = re.compile(r"\bnewsstemmer(?:\.[A-Za-z_][A-Za-z0-9_]*)+")


def _resolves(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_dotted_names_in_the_docs_resolve():
    stale = sorted({(f, m.group(0)) for f in DOC_FILES
                    for m in DOTTED.finditer((REPO / f).read_text(encoding="utf-8"))
                    if not m.group(0).endswith(("json", "zip")) and not _resolves(m.group(0))})
    assert not stale, stale


# --- the tour itself ------------------------------------------------------------------------


class Tour:
    """Runs examples in one working folder (a Scrapy project: a copy of ``scrapy.cfg``)."""

    def __init__(self, work: Path, base: str) -> None:
        self.work, self.base = work, base
        work.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / "scrapy.cfg", work / "scrapy.cfg")
        (work / "sites.txt").write_text(base + "/\n")
        bindir = str(Path(sys.executable).parent)
        self.env = {**os.environ, "PATH": bindir + os.pathsep + os.environ.get("PATH", ""),
                    "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}

    def adapt(self, text: str) -> str:
        """The example as run here: the demo's URL for the example sites', unthrottled crawls."""
        for url in EXAMPLE_URLS:
            text = text.replace(url, self.base + "/")
        text = text.replace("https://www.example.com/news/some-story.html", self.base + "/")
        return re.sub(r"\bscrapy crawl (\w+)", rf"scrapy crawl \1 {FAST}", text)

    def sh(self, text: str, cwd: Path | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
        proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", self.adapt(text)], cwd=cwd or self.work,
                              env=self.env, capture_output=True, text=True, timeout=timeout)
        assert proc.returncode == 0, f"{text}\n--- stderr ---\n{proc.stderr[-4000:]}"
        return proc

    def python(self, text: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
        script = (cwd or self.work) / "example.py"
        script.write_text(self.adapt(text), encoding="utf-8")
        proc = subprocess.run([sys.executable, str(script)], cwd=cwd or self.work, env=self.env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, f"{text}\n--- stderr ---\n{proc.stderr[-4000:]}"
        return proc


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _example(phrase: str) -> Example:
    (ex,) = [e for e in readme_examples() if phrase in e.first]
    return ex


def _write_warc(pages_dir: Path, base: str, out: Path) -> None:
    """A WARC of the demo's saved pages (what a crawler with WARC output keeps)."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with out.open("wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        for page in sorted(pages_dir.rglob("*.html")):
            rel = page.relative_to(pages_dir).as_posix()
            url = base + "/" + rel.removesuffix("index.html")
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(url, "response", payload=page.open("rb"),
                                                          http_headers=headers))


@pytest.mark.crawl
def test_the_readme_tour_runs_as_written(tmp_path):
    site = build_site()
    with DemoServer(site) as server:
        base = server.url("/").rstrip("/")
        tour = Tour(tmp_path / "news", base)

        # Quick start: the demo crawl (the package is installed already: CI ran the install line).
        first = _example("python -m pip install -e . && scrapy crawl news")
        demo = first.text.replace("python -m pip install -e . && ", "")
        run = tour.sh(demo.rstrip() + " -s NEWSSTEMMER_DEMO_PORT=0")
        said = re.search(r"(\d+) pages crawled, (\d+) failed; articles sent: (\d+)", run.stderr)
        claimed = re.search(r"(\d+) pages crawled, (\d+) failed; articles sent: (\d+)",
                            README.read_text(encoding="utf-8"))
        assert said and claimed and said.group(1) == claimed.group(1), (said, claimed)
        sent = _lines(tour.work / "articles.jsonl")
        assert len(sent) == int(said.group(3)) >= 100
        assert {urlsplit(i["url"]).path for i in sent} <= set(site.truth())  # articles alone (README)

        # Crawling real sites: a fresh project; the second command finds nothing new.
        real = Tour(tmp_path / "real", base)
        real.sh(_example("scrapy crawl news -a urls=").text)
        assert len(_lines(real.work / "articles.jsonl")) == 0  # the sites.txt run: all known already
        assert list((real.work / "patterns").glob("*.json"))

        # The add-on in a project of one's own (README: startproject, ADDONS, the spider).
        assert _example('ADDONS = {"newsstemmer.crawl.addon').text.strip() in _example("scrapy startproject").text
        own = Tour(tmp_path / "own", base)
        (own.work / "scrapy.cfg").unlink()
        spider = own.work / "site_spider.py"
        spider.write_text(_example("from urllib.parse import urlsplit").text, encoding="utf-8")
        steps = re.sub(r"^# write the spider below to (\S+), then:$", rf"cp {spider} \1", _example("scrapy startproject").text,
                       flags=re.M)
        own_run = own.sh(steps)
        items = _lines(own.work / "mynews" / "articles.jsonl")
        truth = site.truth()
        got = {i["url"].removeprefix(base) for i in items}
        assert len(got & set(truth)) >= 110, len(got & set(truth))
        assert all(i["url"].startswith(base) for i in items)
        fetched = re.findall(r"Crawled \(\d+\) <GET (\S+)>", own_run.stderr)
        # (data: requests are newsstemmer's own work in the crawl, not downloads)
        assert fetched and [u for u in fetched if not u.startswith((base, "data:"))] == []  # adverts: never fetched
        assert "nofollow" in _example("from urllib.parse import urlsplit").text

        # The state folder: its stores, pruned.
        state = tour.sh(_example("scrapy state --prune").text).stdout
        assert "linkinfo.sqlite" in state and "pruned:" in state

        # Monitoring: a dated feed, then the scheduled script as cron runs it.
        tour.sh(_example("scrapy crawl news -a sites=sites.txt -o feeds").text)
        assert list((tour.work / "feeds").glob("articles-*.jsonl"))
        cron = _example("17 * * * * NEWSSTEMMER_DATA").text.split(None, 5)[5]
        cron = (cron.replace("/var/lib/newsstemmer", str(tmp_path / "data"))
                .replace("/opt/newsstemmer/.venv/bin/python", sys.executable)
                .replace("/opt/newsstemmer/scripts", str(REPO / "scripts"))
                .replace("/etc/newsstemmer/sites.txt", str(tour.work / "sites.txt"))).rstrip() + " " + FAST
        cron_run = tour.sh(cron)
        assert "No such file" not in cron_run.stderr
        assert list((tmp_path / "data" / "feeds").glob("articles-*.jsonl"))
        assert (tmp_path / "data" / "state" / "health.jsonl").exists()

        # Scrapyd: the egg builds (deploying it is tests/test_monitor_schedule.py's).
        egg_line = _example("python scripts/build_egg.py").text.splitlines()[0]
        tour.sh(egg_line.replace("scripts/", f"{REPO}/scripts/"))
        assert list((tour.work / "dist").glob("newsstemmer-*.egg"))

        # The library and the command line, on the demo's pages saved as files.
        files = Tour(tmp_path / "files", base)
        files.sh("python -m newsstemmer.demo --out site")
        api = files.python(_example("from pathlib import Path").text)
        assert re.search(r"True p\d+$", api.stdout, re.M), api.stdout[-300:]
        assert re.search(r"^PageType\(kind='\w+', score=[\d.]+\)$", api.stdout, re.M), api.stdout[-300:]
        _write_warc(files.work / "site", base, files.work / "crawl.warc.gz")
        cli = _example("newsstemmer learn -o patterns/example.com.json").text.replace("[--linkinfo links.jsonl] ", "")
        files.sh(cli)
        extracted = _lines(files.work / "articles.jsonl")
        assert sum(1 for a in extracted if a.get("body")) >= 100
        assert (files.work / "report.html").stat().st_size > 10_000

        # The structured body: blocks and Markdown from the Python API.
        structured = files.python(_example("from newsstemmer import ExtractOptions, extract").text).stdout
        assert "('heading', 'What next')" in structured and "- Raise the banks" in structured, structured
        assert structured.rstrip().endswith("True"), structured

        # Reports: one site, a crawl with reports, the last crawl again.
        files.sh(_example("newsstemmer report patterns/example.com.json site/").text)
        assert (files.work / "reports").is_dir()

        # Rules for any spider: learn them, print them, and run the README's spider with them.
        files.sh("newsstemmer rules patterns/example.com.json --learn "
                 + " ".join(str(p) for p in sorted((files.work / "site" / "world").rglob("*.html"))[:3]))
        printed = files.sh("newsstemmer rules patterns/example.com.json").stdout
        title = re.search(r"^TITLE = .*$", printed, re.M)
        body = re.search(r"^BODY = .*$", printed, re.M)
        assert title and body, printed
        spider_text = _example("import scrapy").text
        spider_text = re.sub(r"^TITLE = .*$", title.group(0), spider_text, flags=re.M)
        spider_text = re.sub(r"^BODY = .*$", body.group(0), spider_text, flags=re.M)
        article = next(p for p in sorted(truth) if p.startswith("/world/"))
        spider_text = spider_text.replace("https://www.example.com/news/some-story.html", base + article)
        (files.work / "rules_spider.py").write_text(spider_text, encoding="utf-8")
        files.sh("scrapy runspider rules_spider.py -O rules.jsonl -s TELNETCONSOLE_ENABLED=False")
        (got_rules,) = _lines(files.work / "rules.jsonl")
        assert got_rules["title"] == truth[article][0] and got_rules["body"]


def test_ci_runs_the_readme_test_command():
    """.ci/run runs the README's install-and-test line, system packages included (faketime: the soak test)."""
    def command(path: Path) -> list[str]:
        return [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("apt-get update")]

    readme = command(README)
    assert len(readme) == 1 and command(REPO / ".ci" / "run") == readme
    assert " faketime " in readme[0]
