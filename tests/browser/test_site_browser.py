"""The built site in a real browser: Debian's chromium, headless, driven by selenium through
/usr/bin/chromedriver (no driver is downloaded), opening the pages from the file system.

Checked: the list sorts by rating and by name; the search finds "Seán" by typing "sean" (and the
script folds typed text as ``ledger.names.name_key`` folds names); the filters; a player page's
chart is drawn with one point per list, its axis labels clear of its ticks; at a phone's width
(390 px) no page scrolls sideways and a list's row is one line (rank, name, rating, change), a
tap showing every other column, labelled; no console error; no request leaves the folder.
The run also writes the README's screenshots (docs/site-list.png, docs/site-player.png).

Skipped, saying why, only where there is no browser: ``apt-get install -y chromium
chromium-driver`` (``.ci/run`` does).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from chromium import missing, open_page
from data_files import ROOT
from typer.testing import CliRunner

from ledger.cli.app import app
from ledger.formats.site.model import ListLine, ListPage, Site
from ledger.formats.site.pages import render_site
from ledger.names import name_key

pytestmark = pytest.mark.browser

DOCS = ROOT / "docs"

if missing():
    pytest.skip(missing() or "", allow_module_level=True)

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


def _build(db: str, folder: Path, club: str) -> Path:
    result = CliRunner().invoke(app, ["--db", db, "site", "build", str(folder), "--club", club,
                                      "--date", "2026-12-01"])
    assert result.exit_code == 0, result.output + result.stderr
    return folder


NAMES = ("Søren Høeg", "Strauß, Hans", "O’Brien, Kevin", "Ó Briain, Seán", "Jean-Pierre, Luc",
         "ÅBERG, Nils")


def _names_site(folder: Path) -> Path:
    """A list of names whose keys take each rule of ledger.names.name_key, from the builder."""
    lines = tuple(ListLine(i, i, name, name_key(name), None, "ENG", "M", False, 2000 - i, None,
                           0, 20, False) for i, name in enumerate(NAMES, start=1))
    site = Site("Names", dt.date(2026, 12, 1),
                (ListPage("standard", "2026-10", dt.date(2026, 11, 1), lines),), (), ())
    for path, text in render_site(site):
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def sites(season_db: str, tata_db: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("browser")
    return {"season": _build(season_db, root / "season", "Riverside Chess Club"),
            "tata": _build(tata_db, root / "tata", "Tata Steel Masters"),
            "names": _names_site(root / "names")}


_open = open_page


def _visible_names(driver: WebDriver) -> list[str]:
    script = ("return Array.from(document.querySelectorAll('#rating-list tbody tr'))"
              ".filter(r => !r.hidden).map(r => r.querySelector('.name').textContent.trim())")
    return list(driver.execute_script(script))


def _column(driver: WebDriver, index: int) -> list[str]:
    script = ("return Array.from(document.querySelectorAll('#rating-list tbody tr'))"
              f".map(r => r.children[{index}].textContent.trim())")
    return list(driver.execute_script(script))


def _sort_by(driver: WebDriver, label: str) -> None:
    driver.find_element(By.XPATH, f"//table[@id='rating-list']//th/button[.='{label}']").click()


def test_the_list_sorts_by_rating_and_by_name(page: WebDriver, sites: dict[str, Path]) -> None:
    _open(page, sites["season"], "lists/standard/2026-10.html")
    ratings = ["2389", "2112", "1970", "1889", "1787", "1693"]
    assert _column(page, 4) == ratings  # as published: by rating
    _sort_by(page, "Rating")  # the first click: highest first
    assert _column(page, 4) == ratings
    _sort_by(page, "Rating")
    assert _column(page, 4) == ratings[::-1]
    heading = page.find_element(By.XPATH, "//th[button='Rating']")
    assert heading.get_attribute("aria-sort") == "ascending"
    _sort_by(page, "Name")  # by the name's key: accents aside
    assert _visible_names(page) == ["Byrne, Seán", "Lindqvist, Erik", "Moreau, Claire",
                                    "Novak, Petra", "Okafor, Grace", "Tanaka, Hiro"]
    _sort_by(page, "Name")
    assert _visible_names(page)[0] == "Tanaka, Hiro"
    _sort_by(page, "Change")  # highest first: +65 Tanaka, +6 Byrne, -3 Okafor ...
    assert _column(page, 5) == ["+65", "+6", "-3", "-6", "-12", "-20"]
    _sort_by(page, "#")
    assert _column(page, 4) == ratings


def _search(driver: WebDriver, text: str) -> None:
    box = driver.find_element(By.CSS_SELECTOR, "#rating-list-filters input[type=search]")
    box.clear()
    box.send_keys(text)  # typed key by key: the list narrows as you type


def test_the_search_finds_sean_by_typing_sean(page: WebDriver, sites: dict[str, Path]) -> None:
    _open(page, sites["season"], "lists/standard/2026-10.html")
    assert page.find_element(By.ID, "rating-list-filters").is_displayed()
    _search(page, "sean")
    assert _visible_names(page) == ["Byrne, Seán"]
    assert page.find_element(By.ID, "rating-list-shown").text == "1 of 6 shown"
    _search(page, "SEÁN byr")
    assert _visible_names(page) == ["Byrne, Seán"]
    _search(page, "")
    assert len(_visible_names(page)) == 6
    assert page.find_element(By.ID, "rating-list-shown").text == ""


def test_the_filters(page: WebDriver, sites: dict[str, Path]) -> None:
    _open(page, sites["season"], "lists/standard/2026-10.html")
    boxes = {b.get_attribute("data-needs"): b for b in page.find_elements(
        By.CSS_SELECTOR, "#rating-list-filters input[type=checkbox]")}
    boxes["data-w"].click()
    assert _visible_names(page) == ["Okafor, Grace", "Novak, Petra", "Moreau, Claire"]
    boxes["data-w"].click()
    boxes["data-j"].click()  # born 2011: the one junior
    assert _visible_names(page) == ["Tanaka, Hiro"]
    boxes["data-j"].click()
    Select(page.find_element(By.CSS_SELECTOR, "#rating-list-filters select")).select_by_visible_text("FRA")
    assert _visible_names(page) == ["Moreau, Claire"]
    Select(page.find_element(By.CSS_SELECTOR, "#rating-list-filters select")).select_by_value("")
    boxes["data-a"].click()  # nobody is inactive after two months
    assert len(_visible_names(page)) == 6


@pytest.mark.parametrize(("typed", "found"), [
    ("soren hoeg", "Søren Høeg"), ("strauss", "Strauß, Hans"), ("obrien", "O’Brien, Kevin"),
    ("o'brien", "O’Brien, Kevin"), ("briain sean", "Ó Briain, Seán"),
    ("jean pierre", "Jean-Pierre, Luc"), ("aberg", "ÅBERG, Nils")])
def test_the_script_folds_typed_text_as_the_ledger_folds_names(
        page: WebDriver, sites: dict[str, Path], typed: str, found: str) -> None:
    _open(page, sites["names"], "lists/standard/2026-10.html")
    _search(page, typed)
    assert _visible_names(page) == [found]


def _chart_points(driver: WebDriver) -> dict[str, Any]:
    return dict(driver.execute_script("""
        const svg = document.querySelector('figure svg[role=img]');
        const box = svg.getBoundingClientRect();
        return {width: box.width, height: box.height,
                points: Array.from(svg.querySelectorAll('circle.point'))
                    .map(c => [c.getAttribute('data-rating'), c.getBBox().width]),
                start: Array.from(svg.querySelectorAll('rect.start')).map(r => r.getAttribute('data-rating')),
                line: svg.querySelector('path.line').getTotalLength()};"""))


def test_a_player_page_draws_one_point_per_list(page: WebDriver, sites: dict[str, Path]) -> None:
    # Tanaka (#6) is on both lists of the season: 1628, 1693; he brought 1620
    _open(page, sites["season"], "players/6.html")
    chart = _chart_points(page)
    assert chart["width"] > 600 and chart["height"] > 200
    assert [rating for rating, _ in chart["points"]] == ["1628", "1693"]
    assert all(width > 0 for _, width in chart["points"])
    assert chart["start"] == ["1620"] and chart["line"] > 500
    # each period's games one click away
    details = page.find_elements(By.CSS_SELECTOR, "details")
    assert [d.find_element(By.TAG_NAME, "summary").text for d in details] == [
        "2026-09: 5 games (5 rated): score 1, expected 0.81, change +8",
        "2026-10: 2 games (2 rated): score 2, expected 0.37, change +65"]
    first = page.find_element(By.CSS_SELECTOR, "details table tbody tr")
    assert not first.is_displayed()
    details[0].find_element(By.TAG_NAME, "summary").click()
    assert first.is_displayed()
    assert [c.text for c in first.find_elements(By.CSS_SELECTOR, "td, th")][4:] == [
        "Okafor, Grace", "2412", "0", "-792 (-400)", "0.08", "-0.08"]
    # Carlsen, from the Tata list: one list, 2868, from 2865
    _open(page, sites["tata"], "lists/standard/2022-01.html")
    page.find_element(By.LINK_TEXT, "Carlsen, Magnus").click()
    chart = _chart_points(page)
    assert [rating for rating, _ in chart["points"]] == ["2868"] and chart["start"] == ["2865"]


def _all_pages(sites: dict[str, Path]) -> list[tuple[Path, str]]:
    return [(folder, str(p.relative_to(folder))) for name in ("season", "tata")
            for folder in [sites[name]] for p in sorted(folder.rglob("*.html"))]


#: The page's width, and how far any table sticks out of the box it is in (0: none), with every
#: period's games shown.
OVERFLOW = """
    document.querySelectorAll('details').forEach(d => { d.open = true; });
    const out = Array.from(document.querySelectorAll('table')).map(
        t => t.getBoundingClientRect().right - t.parentElement.getBoundingClientRect().right);
    return [document.documentElement.scrollWidth, Math.max(0, ...out)];"""


@pytest.mark.parametrize("width", [390, 1100])
def test_no_page_scrolls_sideways(page: WebDriver, sites: dict[str, Path], width: int) -> None:
    page.set_window_size(width, 844)
    assert page.execute_script("return window.innerWidth") == width
    for folder, path in _all_pages(sites):
        _open(page, folder, path)
        assert page.execute_script(OVERFLOW) == [width, 0], path


#: Each cell of the 6th row of the list shown (not display: none): its text, the top and the
#: height of its box, and its column's label on a card.
SHOWN_CELLS = """
    const row = document.querySelectorAll('#rating-list tbody tr')[5];
    return Array.from(row.children).filter(c => getComputedStyle(c).display !== 'none').map(c => {
        const box = c.getBoundingClientRect();
        return [c.textContent.trim(), Math.round(box.top), Math.round(box.height),
                getComputedStyle(c, '::before').content,
                box.left >= 0 && box.right <= 390 && box.width > 0];
    });"""


def test_a_phone_shows_a_list_row_on_one_line_the_rest_a_tap_away(
        page: WebDriver, sites: dict[str, Path]) -> None:
    page.set_window_size(390, 844)
    _open(page, sites["season"], "lists/standard/2026-10.html")
    # Tanaka's row: rank, name, rating and change, side by side on one line
    cells = page.execute_script(SHOWN_CELLS)
    assert [c[0] for c in cells] == ["6", "Tanaka, Hiro", "1693", "+65"]
    assert len({c[1] for c in cells}) == 1 and all(c[4] for c in cells)
    heights = page.execute_script(
        "return Array.from(document.querySelectorAll('#rating-list tbody tr'))"
        ".map(r => Math.round(r.getBoundingClientRect().height))")
    line = max(c[2] for c in cells)  # one line of text
    assert len(heights) == 6 and all(h < 2 * line for h in heights), (heights, line)
    # a tap shows the rest, each with its column's label, on screen (the empty title and
    # flag cells are left out)
    page.find_elements(By.CSS_SELECTOR, "#rating-list tbody tr")[5].find_element(
        By.CSS_SELECTOR, "td.rating").click()
    cells = page.execute_script(SHOWN_CELLS)
    assert [(c[0], c[3]) for c in cells] == [
        ("6", '"#"'), ("Tanaka, Hiro", '"Name"'), ("IRL", '"Fed"'),
        ("1693", '"Rating"'), ("+65", '"Change"'), ("1628", '"Previous"'), ("2", '"Games"'),
        ("40", '"K"')]
    assert all(c[4] for c in cells)
    row = page.find_elements(By.CSS_SELECTOR, "#rating-list tbody tr")[5]
    assert row.get_attribute("aria-expanded") == "true"
    row.find_element(By.CSS_SELECTOR, "td.rating").click()  # and a tap folds it again
    assert [c[0] for c in page.execute_script(SHOWN_CELLS)] == ["6", "Tanaka, Hiro", "1693", "+65"]
    _sort_by(page, "Name")  # the headings stay on a phone, as a row of sort buttons
    assert _visible_names(page)[0] == "Byrne, Seán"
    # the line atop each printed page is not on the screen
    assert not page.find_element(By.CSS_SELECTOR, "#rating-list tr.running").is_displayed()


#: The boxes of a chart's axis labels ("rating", "list month") and of its ticks (the month and
#: rating labels and the month tick marks) that are shown.
CHART_BOXES = """
    const box = e => { const b = e.getBoundingClientRect();
                       return [b.left, b.top, b.right, b.bottom, e.textContent]; };
    const shown = e => getComputedStyle(e).display !== 'none' &&
                       (!e.closest('g.minor') || getComputedStyle(e.closest('g.minor')).display !== 'none');
    const texts = Array.from(document.querySelectorAll('svg.chart text.label')).filter(shown);
    const axes = texts.filter(t => ['rating', 'list month'].includes(t.textContent));
    const ticks = texts.filter(t => !axes.includes(t)).concat(
        Array.from(document.querySelectorAll('svg.chart g[transform] > line.axis')).filter(shown));
    return [axes.map(box), ticks.map(box)];"""


@pytest.mark.parametrize("width", [390, 1100])
def test_the_chart_axis_labels_clear_the_ticks(page: WebDriver, sites: dict[str, Path],
                                               width: int) -> None:
    page.set_window_size(width, 844)
    _open(page, sites["season"], "players/6.html")
    axes, ticks = page.execute_script(CHART_BOXES)
    assert [a[4] for a in axes] == ["list month", "rating"] and len(ticks) >= 4
    overlaps = [(a[4], t[4]) for a in axes for t in ticks
                if a[0] < t[2] and t[0] < a[2] and a[1] < t[3] and t[1] < a[3]]
    assert overlaps == []


def test_no_console_error_and_no_request_leaves_the_folder(page: WebDriver,
                                                           sites: dict[str, Path]) -> None:
    pages = _all_pages(sites)
    for folder, path in pages:
        _open(page, folder, path)
        assert page.execute_script("return document.readyState") == "complete"
    errors = [e for e in page.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert errors == []
    requested = [json.loads(e["message"])["message"] for e in page.get_log("performance")]
    urls = [m["params"]["request"]["url"] for m in requested
            if m["method"] == "Network.requestWillBeSent"]
    folders = tuple(f.resolve().as_uri() + "/" for f in (sites["season"], sites["tata"]))
    assert len(urls) >= len(pages)
    outside = [u for u in urls if not u.startswith(folders)]
    assert outside == []
    # the stylesheet and the script were loaded from the folder itself
    assert any(u.endswith("/season/site.css") for u in urls)
    assert any(u.endswith("/season/site.js") for u in urls)


def _screenshot(driver: WebDriver, target: Path, width: int) -> None:
    driver.set_window_size(width, 900)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(int(height), 2200))
    png = driver.get_screenshot_as_png()
    if not target.exists() or target.read_bytes() != png:
        target.write_bytes(png)


def test_screenshots_for_the_readme(page: WebDriver, sites: dict[str, Path]) -> None:
    _open(page, sites["season"], "lists/standard/2026-10.html")
    _screenshot(page, DOCS / "site-list.png", 1100)
    _open(page, sites["season"], "players/6.html")
    page.find_element(By.CSS_SELECTOR, "details summary").click()  # September's games
    page.execute_script("window.scrollTo(0, 0)")
    _screenshot(page, DOCS / "site-player.png", 1100)
    for name in ("site-list.png", "site-player.png"):
        assert (DOCS / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
