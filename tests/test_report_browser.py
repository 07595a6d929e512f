"""The HTML reports in a real browser: Debian's Chromium driven by Selenium (chromedriver).

Checks that the layout sections and the role marks are rendered and visible (sizes and
computed colours), saves screenshots to ``tests/artifacts/`` (ignored by git), and that
a report whose sample pages are hostile (scripts, event handlers, remote images, style
sheets, frames, CSS ``url()``, ``@import``, ``srcset``, ``<base>``, meta refresh,
objects, SVG images, all aimed at a trap server on loopback) makes no request at all
and runs no script.  The same hostile page opened on its own hits the trap, which
shows the trap and the checks work.

Skipped outside CI when Chromium is missing (Debian packages ``chromium`` and
``chromium-driver``); under ``CI`` a missing browser fails.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from newsstemmer import Page, SitePatterns, learn
from newsstemmer.cli import main
from newsstemmer.report import build_site_report, render_site_report, write_html
from newsstemmer.report.sample import ROLE_COLOURS

from report_pages import hostile_page, write_demo_pages  # noqa: E402

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
NEEDS = "needs Chromium and its driver: apt-get install chromium chromium-driver (Debian packages)"
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-extensions", "--window-size=1280,1400",
)


def _missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what}: {NEEDS}")
    pytest.skip(f"{what}: {NEEDS}")


@pytest.fixture(scope="module")
def browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("the selenium package is not installed (pip install -e '.[test]')")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        _missing("chromium or chromedriver not found")
    profile = tempfile.mkdtemp(prefix="ns-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


class _Trap(BaseHTTPRequestHandler):
    """Answers everything, with content that would act if it were ever used, and logs it."""

    requests: list[str]

    def _answer(self) -> None:
        self.requests.append(f"{self.command} {self.path}")
        path = self.path.split("?")[0]
        if path.endswith(".js"):
            body, ctype = b"document.title='pwned';window.__pwned=2;", "application/javascript"
        elif path.endswith(".css"):
            body, ctype = b"body{background:red!important}", "text/css"
        else:
            body, ctype = b"<html><head><title>pwned</title></head><body>trap</body></html>", "text/html"
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_POST = do_HEAD = do_OPTIONS = _answer

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def trap():
    handler = type("Trap", (_Trap,), {"requests": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler.requests
    finally:
        server.shutdown()
        server.server_close()


def _open(driver, path: Path, settle: float = 0.0) -> None:
    driver.get(path.resolve().as_uri())
    deadline = time.monotonic() + 10
    while driver.execute_script("return document.readyState") != "complete" and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(settle)


#: Marks of a role that have a box on screen (not hidden, some size), and the computed
#: outline and fill of the first of them.
MEASURE = """
const marks = [...document.querySelectorAll('.ns-page [data-role=' + arguments[0] + ']')].filter(el => {
  const r = el.getBoundingClientRect(), s = getComputedStyle(el);
  return r.width > 20 && r.height > 5 && s.visibility === 'visible' && s.display !== 'none';
});
if (!marks.length) return [0, null];
const s = getComputedStyle(marks[0]);
return [marks.length, {outline: s.outlineColor, width: s.outlineWidth, fill: s.backgroundColor, style: s.outlineStyle}];
"""


def _rgb(colour: str) -> str:
    r, g, b = (int(colour[k:k + 2], 16) for k in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def _screenshot(driver, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    assert driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000  # a picture, not an empty canvas
    return path


def test_demo_report_shows_layouts_and_role_marks(browser, tmp_path):
    files = write_demo_pages(tmp_path / "pages")
    patterns = tmp_path / "demo.json"
    assert main(["learn", "-q", "-o", str(patterns), str(tmp_path / "pages")]) == 0
    report = tmp_path / "report.html"
    assert main(["report", "-q", str(patterns), str(tmp_path / "pages"), "-o", str(report)]) == 0
    n_layouts = len(SitePatterns.load(patterns).patterns)
    _open(browser, report)
    by_css = lambda css: browser.find_elements("css selector", css)  # noqa: E731

    assert browser.title.startswith("newsstemmer report")
    # the report's own stylesheet applies under its policy
    assert browser.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgb(246, 246, 244)"
    sections = by_css("section[data-layout]")
    assert len(sections) == n_layouts and len(files) > 100
    for s in sections:
        assert s.is_displayed() and s.size["height"] > 40 and s.size["width"] > 400
    samples = by_css("section[data-layout] .ns-page")
    assert samples, "no layout has a sample page"
    for role in ("title", "main", "static"):
        line, fill = ROLE_COLOURS[role]
        # measured in the page (one call): marks with a box on screen, and the first one's style
        shown, style = browser.execute_script(MEASURE, role)
        assert shown > 0, f"no visible {role} mark with a size"
        assert style["outline"] == _rgb(line) and style["width"] == "2px" and style["fill"] == _rgb(fill)
        assert style["style"] == ("dashed" if role == "static" else "solid")
    # the legend shows each role in its colour
    for role, (line, _) in ROLE_COLOURS.items():
        swatch = by_css(f"#legend .ns-role-{role}")[0]
        assert swatch.is_displayed()
        assert browser.execute_script("return getComputedStyle(arguments[0]).borderTopColor", swatch) == _rgb(line)
    # a title mark carries its label, drawn by the stylesheet
    label = browser.execute_script(
        "return getComputedStyle(document.querySelector('.ns-page [data-role=title]'), '::before').content")
    assert label == '"title"'
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    _screenshot(browser, "report-demo-top.png")
    browser.execute_script("document.querySelector('section[data-layout] figure.ns-sample').scrollIntoView()")
    _screenshot(browser, "report-demo-sample.png")


def test_hostile_sample_pages_fetch_nothing_and_run_nothing(browser, trap, tmp_path):
    base, requests = trap
    pages = [Page(hostile_page(i, base), source=f"hostile-{i}.html") for i in range(8)]
    site = learn(pages)
    assert site.patterns
    report = build_site_report(site, pages)
    assert any(v.sample is not None for v in report.layouts)
    path = write_html(tmp_path / "hostile-report.html", render_site_report(report))
    _open(browser, path, settle=1.5)  # (the pages' timers and meta refresh would have fired by now)

    assert requests == [], f"the report made requests: {requests}"
    assert browser.title.startswith("newsstemmer report")
    assert browser.execute_script("return window.__pwned === undefined")
    assert browser.current_url == path.resolve().as_uri()  # no refresh, no redirect
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    assert browser.execute_script(MEASURE, "title")[0] and browser.execute_script(MEASURE, "main")[0]
    _screenshot(browser, "report-hostile.png")

    # The same page opened on its own hits the trap and runs its scripts: the trap works.
    raw = tmp_path / "hostile-raw.html"
    raw.write_text(pages[0].html, encoding="utf-8")
    _open(browser, raw)
    deadline = time.monotonic() + 10
    while not requests and time.monotonic() < deadline:
        time.sleep(0.05)
    assert requests, "the trap saw nothing: the check above would prove nothing"
    browser.get("about:blank")
