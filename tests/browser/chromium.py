"""What the browser tests share: Debian's chromium and chromedriver (never downloaded), why a
test cannot run without them (``missing``), and opening a page from the file system."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")


def missing(*, driver: bool = True) -> str | None:
    """Why the browser tests cannot run here (None: they can): no chromium, or (``driver``) no
    chromedriver or no selenium."""
    if not CHROMIUM.exists() or (driver and not CHROMEDRIVER.exists()):
        return (f"no browser: {CHROMIUM} and {CHROMEDRIVER} are needed "
                "(apt-get install -y chromium chromium-driver)")
    if driver:
        try:
            import selenium  # noqa: F401
        except ImportError:
            return "selenium is not installed (pip install '.[test]')"
    return None


def open_page(driver: Any, folder: Path, path: str) -> None:
    """Open a page from the file system and wait until it has loaded (stylesheet included)."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get((folder / path).resolve().as_uri())
    WebDriverWait(driver, 10).until(
        lambda d: d.execute_script("return document.readyState") == "complete")
