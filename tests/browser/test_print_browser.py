"""A rating list printed for the notice board (issue 21 §6, item 2): ``ledger list --format
html`` and the site's list page, printed to PDF by Debian's chromium (``--print-to-pdf``, as a
browser prints on A4) and read back with pypdf: a table on every page, never cards, about 40
players a page, and on every page the line naming the club, the pool, the period and the list's
date, and the column headings.

Skipped, saying why, only where there is no chromium (``apt-get install -y chromium``).
"""

from __future__ import annotations

import datetime as dt
import re
import subprocess
from pathlib import Path

import pytest
from chromium import CHROMIUM, missing

from ledger.domain import KReason, Period
from ledger.formats import rating_list_html
from ledger.formats.rating_list import ListHeading
from ledger.formats.site.model import ListLine, ListPage, Site
from ledger.formats.site.pages import render_site
from ledger.names import name_key
from ledger.services.close.snapshots import ListRow

pytestmark = pytest.mark.browser

if missing(driver=False):
    pytest.skip(missing(driver=False) or "", allow_module_level=True)

import pypdf  # noqa: E402

CLUB = "Riverside Chess Club"
#: 100 players, ranks 1 to 100, ratings 2399 down to 2300: A4 at about 40 a page is 3 pages.
PLAYERS = 100


def _name(i: int) -> str:
    return f"Player{i:03d}, Anna"


def _pages(page: Path, folder: Path) -> list[str]:
    """The text of each page of ``page`` printed by chromium on A4 (the page's own @page size,
    no browser header or footer)."""
    pdf = folder / "list.pdf"
    done = subprocess.run(
        [str(CHROMIUM), "--headless=new", "--no-sandbox", "--disable-gpu",
         "--disable-dev-shm-usage", f"--user-data-dir={folder / 'profile'}",
         "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.resolve().as_uri()],
        capture_output=True, text=True, timeout=180, check=False)
    assert pdf.exists(), done.stderr
    reader = pypdf.PdfReader(pdf)
    # A4 is 210 x 297 mm: 595 x 842 points (1 pt = 1/72 inch)
    assert all((round(float(p.mediabox.width)), round(float(p.mediabox.height))) == (595, 842)
               for p in reader.pages)
    return [p.extract_text() for p in reader.pages]


def _check(pages: list[str], running: str, headings: str, row: re.Pattern[str]) -> None:
    """Every page opens with ``running`` and the ``headings`` row, and holds its players as
    rows of one line each (``row``: rank and name first), ranks 1 to 100 once each in order."""
    assert len(pages) == 3  # 100 players, about 40 a page
    ranks: list[int] = []
    for text in pages:
        lines = text.splitlines()
        at = lines.index(running)  # on page 1 below the page's heading, then first
        assert lines[at + 1] == headings, text[:400]
        rows = [int(m.group(1)) for line in lines if (m := row.fullmatch(line))]
        assert 35 <= len(rows) <= 46 or text is pages[-1], len(rows)
        ranks += rows
    assert ranks == list(range(1, PLAYERS + 1))


def test_the_one_page_list_prints_as_a_table_on_a4(tmp_path: Path) -> None:
    rows = [ListRow(i, i, _name(i), 1_000_000 + i, "ENG", "FM" if i % 7 == 0 else None,
                    2400 - i, 2, 20, KReason.STANDARD, 1990, i % 13 == 0, "F")
            for i in range(1, PLAYERS + 1)]
    heading = ListHeading(Period.parse("2026-11"), dt.date(2026, 12, 1), CLUB)
    page = tmp_path / "list.html"
    page.write_text(rating_list_html.write(heading, rows), encoding="utf-8")
    pages = _pages(page, tmp_path)
    # a row: rank, name, title, federation, FIDE id, rating (2400 - rank), games, K, birth year
    _check(pages, f"{CLUB} · Standard rating list after rating period 2026-11, in force from "
           "1 December 2026", "# NAME TITLE FED FIDE ID RATING GAMES K BORN",
           re.compile(r"(\d+) Player\d{3}, Anna( INACTIVE)?( FM)? ENG 1000\d{3} 2\d{3} 2 20 1990"))


def test_the_sites_list_page_prints_as_a_table_on_a4(tmp_path: Path) -> None:
    lines = tuple(ListLine(i, i, _name(i), name_key(_name(i)), None, "ENG", "F", False, 2400 - i,
                           2397 - i, 2, 20, False) for i in range(1, PLAYERS + 1))
    site = Site(CLUB, dt.date(2026, 12, 2),
                (ListPage("rapid", "2026-11", dt.date(2026, 12, 1), lines),), (), ())
    for path, text in render_site(site):  # the page and its stylesheet beside it
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    pages = _pages(tmp_path / "lists/rapid/2026-11.html", tmp_path)
    # a row: rank, name, federation, rating, change (+3), previous (rating - 3), games, K
    _check(pages, f"{CLUB} · Rapid rating list after rating period 2026-11, in force from "
           "1 December 2026", "# NAME TITLE FED RATING CHANGE PREVIOUS GAMES K FLAG",
           re.compile(r"(\d+) Player\d{3}, Anna ENG 2\d{3} \+3 2\d{3} 2 20 w"))
