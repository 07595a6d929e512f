#!/usr/bin/env python3
"""Screenshot one layout of a ``newsstemmer report`` file in headless Chromium.

The picture holds the summary, the legend and the layout's section, its sample page
scrolled to the first block of a role (``--at``: title by default, else main).  Needs Debian's
``chromium`` and ``chromium-driver`` and the ``selenium`` package (the ``test`` extra).

    python scripts/report_screenshot.py REPORT.html OUT.png [--layout ID] [--at ROLE] [--width 1280]

Without ``--layout``, the first layout that has a sample page.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)

#: Keeps the legend and the chosen layout, hides the rest, scrolls the sample to its title.
FOCUS = """
const id = arguments[0];
const sections = [...document.querySelectorAll('section[data-layout]')];
const chosen = id ? sections.find(s => s.dataset.layout === id)
                  : sections.find(s => s.querySelector('.ns-page'));
if (!chosen) return null;
for (const s of document.querySelectorAll('main.ns-report > section, main.ns-report > footer'))
  if (s !== chosen && s.id !== 'legend' && s.id !== 'summary') s.style.display = 'none';
for (const d of chosen.querySelectorAll('details')) d.open = false;
const frame = chosen.querySelector('.ns-frame');
const mark = frame && (frame.querySelector('[data-role=' + arguments[1] + ']') || frame.querySelector('[data-role=main]'));
if (mark) frame.scrollTop += mark.getBoundingClientRect().top - frame.getBoundingClientRect().top - 120;
return chosen.dataset.layout;
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report")
    ap.add_argument("output")
    ap.add_argument("--layout", help="layout id (default: the first with a sample page)")
    ap.add_argument("--at", default="title", choices=("title", "main", "sub", "static"),
                    help="scroll the sample to the first block of this role (default title, else main)")
    ap.add_argument("--width", type=int, default=1280)
    args = ap.parse_args(argv)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not driver_path:
        sys.exit("error: needs Chromium: apt-get install chromium chromium-driver")
    profile = tempfile.mkdtemp(prefix="ns-shot-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={args.width},1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        driver.get(Path(args.report).resolve().as_uri())
        # FOCUS changes inline styles from the test harness, not from the page: the
        # report's policy governs the page's own markup, not WebDriver's scripts.
        layout = driver.execute_script(FOCUS, args.layout, args.at)
        if layout is None:
            sys.exit(f"error: no layout {args.layout!r} with a sample in {args.report}")
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(args.width, min(height + 40, 3000))
        driver.save_screenshot(args.output)
        print(f"layout {layout}: {args.output}")
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
