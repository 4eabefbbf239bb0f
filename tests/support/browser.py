"""Debian's chromium, headless, driven by Playwright: for tests/test_web_browser.py and docs/screenshots.py.

Playwright's own browser download does not work on this machine (no internet but the package
registries): the system browser is its executable.
"""

from __future__ import annotations

import shutil
from contextlib import contextmanager

CHROMIUM = shutil.which("chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]


@contextmanager
def chromium():
    """A launched headless chromium (Playwright's Browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()
