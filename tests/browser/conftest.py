"""The browser the browser tests drive: Debian's chromium, headless, through
/usr/bin/chromedriver, once per module (``browser``), at a desktop width for each test with its
logs emptied (``page``). A module skips itself when ``chromium.missing()`` says why."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from chromium import CHROMEDRIVER, CHROMIUM


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    profile = tempfile.TemporaryDirectory(prefix="ledger-chromium-")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--hide-scrollbars",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile.name}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        profile.cleanup()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """The browser at a desktop width, its logs emptied before and checked after each test:
    no console error, no request outside a site folder."""
    browser.set_window_size(1200, 900)
    browser.get_log("browser")
    browser.get_log("performance")
    yield browser
