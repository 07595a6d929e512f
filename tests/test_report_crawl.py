"""The crawl writes its reports on request (``NEWSSTEMMER_REPORT``): the real Scrapy
engine in a subprocess against the generated test site (hostile pages included), then
``newsstemmer report --state`` writes them again from the state folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scrapy.settings import Settings
from lxml import html

from newsstemmer import SitePatterns
from newsstemmer.cli import main
from newsstemmer.crawl.config import DEFAULTS, Config
from newsstemmer.crawl.testing import build_test_site, crawl_stats, run_crawl, serve
from newsstemmer.report.crawl import site_file

pytestmark = pytest.mark.crawl


@pytest.fixture(scope="module")
def crawl(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("crawl-report")
    with serve(build_test_site()) as base:
        result = run_crawl(
            [base + "/"],
            tmp / "out.jsonl",
            {
                "NEWSSTEMMER_STATE_DIR": str(tmp / "state"),
                "NEWSSTEMMER_PATTERNS_DIR": str(tmp / "patterns"),
                "NEWSSTEMMER_REPORT": str(tmp / "reports"),
                "NEWSSTEMMER_REPORT_PAGES": "25",
                "DOWNLOAD_MAXSIZE": "200000",
            },
        )
    assert result.returncode == 0, result.stderr[-3000:]
    items = [json.loads(line) for line in (tmp / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    return tmp, items, crawl_stats(result.stderr), result.stderr


def test_report_setting_is_off_by_default(tmp_path):
    assert DEFAULTS["NEWSSTEMMER_REPORT"] is False
    settings = {"NEWSSTEMMER_STATE_DIR": str(tmp_path)}
    get = lambda values: Config.from_settings(Settings({**settings, **values})).report  # noqa: E731
    assert get({}) is None and get({"NEWSSTEMMER_REPORT": "0"}) is None and get({"NEWSSTEMMER_REPORT": "off"}) is None
    assert get({"NEWSSTEMMER_REPORT": True}) == tmp_path / "report"
    assert get({"NEWSSTEMMER_REPORT": "1"}) == tmp_path / "report"
    assert get({"NEWSSTEMMER_REPORT": "out/reports"}) == Path("out/reports")


def test_crawl_writes_site_report_and_overview(crawl):
    tmp, items, stats, log = crawl
    reports = tmp / "reports"
    site = items[0]["site"]
    assert sorted(p.name for p in reports.iterdir()) == ["index.html", site_file(site)]
    assert "crawl report: " in log and str(reports / "index.html") in log
    # the data for later reports stays in the state folder
    summary = json.loads((tmp / "state" / "report" / "crawl.json").read_text(encoding="utf-8"))
    figures = summary["sites"][site]
    articles = sum(1 for i in items if i["reason"] is None)
    assert figures["articles"] == articles > 0
    assert figures["kept"] == 25 and figures["pages"] > 25
    assert figures["failures"] == stats["newsstemmer/pages_failed"] > 0  # the site's hostile pages
    overview = html.document_fromstring((reports / "index.html").read_text(encoding="utf-8"))
    row = overview.xpath(f"//tr[@data-site='{site}']")[0]
    cells = [td.text_content().strip() for td in row.xpath("td")]
    assert cells[0] == site and cells[4] == str(articles) and cells[6] == str(figures["failures"])
    assert cells[3].endswith("%") and row.xpath(".//a/@href") == [site_file(site)]
    patterns = SitePatterns.load(tmp / "patterns" / f"{site.replace(':', '_')}.json")
    page = html.document_fromstring((reports / site_file(site)).read_text(encoding="utf-8"))
    assert [s.get("data-layout") for s in page.xpath("//section[@data-layout]")] == [p.id for p in patterns.patterns]
    assert page.xpath("//section[@data-layout]//div[@class='ns-page']//*[@data-role='main']")
    assert not page.xpath("//script|//@src|//link")
    # one count, one meaning: the site report says what the health record (and closing line) says
    (health,) = [json.loads(x) for x in (tmp / "state" / "health.jsonl").read_text().splitlines()]
    said = {f.xpath("span")[0].text_content(): f.xpath("b")[0].text_content()
            for f in page.xpath("//div[contains(@class, 'ns-crawl-figures')]/div")}
    assert said["pages crawled"] == str(health["pages"]) == str(stats["newsstemmer/pages"])
    sent = health["new_articles"] + health["updates"]
    assert said[f"articles sent ({health['new_articles']} new, {health['updates']} updated)"] == str(sent)
    assert said["non-articles"] == str(health["non_articles"]) and said["failed"] == str(health["failures"])
    assert said["unmatched (single-page method)"] == str(health["unmatched"])
    # the non-articles per page kind: the stats', the health record's, the reports' (the test
    # site's index and section pages are some)
    kinds = health["non_article_kinds"]
    assert kinds and sum(kinds.values()) == health["non_articles"]
    assert kinds == {k.removeprefix("newsstemmer/non_articles/"): v for k, v in stats.items()
                     if k.startswith("newsstemmer/non_articles/")}
    by_kind = page.xpath("//p[@id='non-article-kinds']")[0].text_content()
    assert all(f"{kind} {n}" in by_kind for kind, n in kinds.items())
    assert cells[7].startswith(f"{health['non_articles']} (") and all(kind in cells[7] for kind in kinds)
    in_crawl = [int(td.text) for td in page.xpath("//section[@id='layouts']//tr/td[4]")]
    # (every article extracted by a layout was matched by one; non-articles may be matched too)
    assert health["extracted"] <= sum(in_crawl) <= health["pages"]


def test_report_state_writes_them_again(crawl, capsys):
    tmp, items, _, _ = crawl
    out = tmp / "again"
    assert main(["report", "--state", str(tmp / "state"), "-o", str(out)]) == 0
    assert "wrote 1 site report" in capsys.readouterr().err
    site = items[0]["site"]
    first = html.document_fromstring((tmp / "reports" / site_file(site)).read_text(encoding="utf-8"))
    again = html.document_fromstring((out / site_file(site)).read_text(encoding="utf-8"))
    sections = lambda doc: [s.text_content() for s in doc.xpath("//section[@data-layout]")]  # noqa: E731
    assert sections(again) == sections(first)
