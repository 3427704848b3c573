"""A month run through a browser (issue 23, "Tests", second bullet): Debian's chromium, headless,
driven by selenium, against ``ledger serve`` started as a real process (waitress on a loopback
port, ``--insecure-cookies``) on a ledger made with the CLI from the guide's files
(examples/guide: the members, a first list published by closing September, the October
Weekender imported; a reporter and an officer added with ``ledger user add``, the password on
stdin). The ledger is on the run's database (tests/conftest.py, ``new_database``): a SQLite
file, or on ``.ci/postgres-tests`` an empty PostgreSQL database of its own, which ``ledger init``
makes a ledger; the CLI and the server are given it with ``--db``.

The flow, at a desktop's width and at a phone's (390 px):

1. the reporter logs in, submits the Autumn Swiss (examples/guide/autumn-swiss.trf) with one
   result broken (line 15, column 119: ``7``), reads the error naming the line and the field,
   submits the file as it should be from the submission's page, and reads "pending";
2. the reporter logs out; the officer logs in, opens the review queue, reads the
   warning ("Gallagher, T.", a name matched loosely) and the integrity flag (an event
   submitted more than 30 days after its end), is refused the accept until the warning is
   ticked, ticks it, accepts;
3. the officer closes 2026-10 from its preview; the public list, without a login, shows the
   new ratings;
4. the officer voids a game with its preview (carried into the next period) and confirms;
5. logs out from the account page; a protected page asks for a login again.

On every page: nothing scrolls sideways (``scrollWidth`` within the window) and every button is
inside the window; at the end no console error. ``LEDGER_SCREENSHOTS=docs/screenshots`` makes
the run write the screenshots docs/serve.md shows (the window only, as palette PNGs).

Skipped, saying why, where there is no browser (``apt-get install -y chromium
chromium-driver``).
"""

from __future__ import annotations

import datetime as dt
import io
import json
import os
from pathlib import Path

import pytest
from chromium import missing
from data_files import ROOT
from ledgers import Factory
from serving import ledger_run, serving

pytestmark = pytest.mark.browser

if missing():
    pytest.skip(missing() or "", allow_module_level=True)

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

GUIDE = ROOT / "examples" / "guide"
REPORTER, OFFICER = "Rhea Reporter", "Otto Officer"
PASSWORDS = {REPORTER: "quiet harbour lamp", OFFICER: "seven grey gulls"}


def _cli(db: str, *args: str, stdin: str | None = None) -> str:
    """``ledger --db DB ARGS...`` in a process of its own; its output (exit 0 asserted)."""
    done = ledger_run(db, *args, stdin=stdin)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def _ledger(db: str) -> None:
    """The guide's club made with the CLI in ``db`` (an empty database of the run's, or a
    SQLite file not made yet): its members registered, a first list published (2026-09 closed,
    empty), the October Weekender imported; and its two users."""
    _cli(db, "init")
    for args in (["Keane, Orla", "--rating", "1875", "--prior-games", "64", "--birth-year",
                  "1988", "--sex", "F"],
                 ["Murphy, Sean", "--rating", "1720", "--prior-games", "35", "--birth-year",
                  "1983", "--sex", "M"],
                 ["Quinn, Daniel", "--birth-year", "2012", "--sex", "M"],
                 ["Ryan, Eoin", "--rating", "1705", "--prior-games", "40", "--birth-year",
                  "1990", "--sex", "M"]):
        _cli(db, "player", "add", *args, "--federation", "IRL")
    _cli(db, "import", str(GUIDE / "members.csv"), "--format", "players")
    _cli(db, "period", "close", "2026-09", "--empty")  # the first list: the ratings brought
    _cli(db, "import", str(GUIDE / "october-weekender.pgn"))
    for name, role in ((REPORTER, "reporter"), (OFFICER, "officer")):
        _cli(db, "user", "add", name, "--role", role, stdin=PASSWORDS[name] + "\n")


def _files(folder: Path) -> tuple[Path, Path]:
    """The Autumn Swiss as the arbiter should send it, and with Ryan's round 3 result (line
    15, column 119) typed ``7``: both named autumn-swiss.trf."""
    good, bad = folder / "good" / "autumn-swiss.trf", folder / "bad" / "autumn-swiss.trf"
    good.parent.mkdir()
    bad.parent.mkdir()
    lines = (GUIDE / "autumn-swiss.trf").read_text(encoding="utf-8").split("\n")
    good.write_text("\n".join(lines), encoding="utf-8")
    assert lines[14].startswith("001    3 m    Ryan, Eoin") and lines[14][118] == "0"
    lines[14] = lines[14][:118] + "7" + lines[14][119:]
    bad.write_text("\n".join(lines), encoding="utf-8")
    return good, bad


#: How far the page reaches sideways, the buttons outside the window (their text), and the
#: last three elements that stick out (to say what does).
FITS = """
    const w = window.innerWidth;
    const out = Array.from(document.querySelectorAll('button, input[type=submit]'))
        .filter(b => b.offsetParent !== null)
        .filter(b => { const r = b.getBoundingClientRect(); return r.left < 0 || r.right > w; })
        .map(b => b.textContent.trim());
    const wide = Array.from(document.querySelectorAll('main *'))
        .filter(e => e.getBoundingClientRect().right > w + 1)
        .map(e => e.tagName + '.' + e.className + ': ' + e.textContent.trim().slice(0, 40));
    return [document.documentElement.scrollWidth, out, wide.slice(-3)];"""


def _gone(element: WebElement) -> bool:
    """Whether ``element``'s page has gone. Selenium's ``staleness_of`` knows only the
    "stale element" answer; while the next page replaces the document, chromium may instead
    answer "Node with given id does not belong to the document" (CI, stop 28): both mean gone.
    """
    try:
        element.is_enabled()
    except StaleElementReferenceException:
        return True
    except WebDriverException as error:
        if "does not belong to the document" in str(error.msg):
            return True
        raise
    return False


class Visit:
    """The browser on the server at one width: each page opened is checked to fit, and
    screenshotted when asked (``LEDGER_SCREENSHOTS``)."""

    def __init__(self, driver: WebDriver, base: str, width: int) -> None:
        self.driver, self.base, self.width = driver, base, width
        self.shots = os.environ.get("LEDGER_SCREENSHOTS")
        driver.set_window_size(width, 900)
        self.checked = 0

    def loaded(self) -> None:
        WebDriverWait(self.driver, 20).until(
            lambda d: d.execute_script("return document.readyState") == "complete")
        scroll, outside, wide = self.driver.execute_script(FITS)
        assert scroll <= self.width and outside == [], (self.driver.current_url, scroll, outside,
                                                        wide)
        self.checked += 1

    def go(self, path: str) -> None:
        self.driver.get(self.base + path)
        self.loaded()

    def click(self, text: str) -> None:
        """Click the button that says ``text`` (a form sent without any script) and wait for
        the page it answers with."""
        self.follow(By.XPATH, f"//button[normalize-space()={json.dumps(text)}]")

    def follow(self, by: str, where: str) -> None:
        """Click the element ``where`` says (a button, a link) and wait for the page it opens:
        until the element has gone with its page (the one clicked is still "complete" until
        the next one comes), then until that page has loaded."""
        element = self.driver.find_element(by, where)
        element.click()
        WebDriverWait(self.driver, 20).until(lambda _: _gone(element))
        self.loaded()

    def text(self) -> str:
        return str(self.driver.find_element(By.TAG_NAME, "main").text)

    def heading(self) -> str:
        return str(self.driver.find_element(By.TAG_NAME, "h1").text)

    def login(self, name: str) -> None:
        self.go("/login")
        self.driver.find_element(By.ID, "username").send_keys(name)
        self.driver.find_element(By.ID, "password").send_keys(PASSWORDS[name])
        self.click("Log in")
        assert self.driver.current_url == self.base + "/"

    def logout(self) -> None:
        self.go("/account")
        self.click("Log out")
        assert self.driver.current_url == self.base + "/"

    def shot(self, name: str) -> None:
        """The window as ``LEDGER_SCREENSHOTS/NAME.png`` (390 px wide: ``NAME-390.png``),
        reduced to 64 colours; not rewritten when its pixels are the same."""
        if not self.shots:
            return
        from PIL import Image

        folder = Path(self.shots)
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / (f"{name}.png" if self.width > 390 else f"{name}-390.png")
        self.driver.execute_script("window.scrollTo(0, 0)")
        image = Image.open(io.BytesIO(self.driver.get_screenshot_as_png())).convert("RGB")
        small = image.quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        if target.exists():
            with Image.open(target) as kept:
                old = kept.convert("RGB")
            if old.size == small.size and old.tobytes() == small.convert("RGB").tobytes():
                return
        small.save(target, optimize=True)


def _cells(driver: WebDriver, selector: str) -> dict[str, list[str]]:
    """The rows of the tables ``selector`` by their first cell: the other cells' text."""
    rows = driver.execute_script(
        f"return Array.from(document.querySelectorAll({json.dumps(selector)}))"
        ".map(r => Array.from(r.children).map(c => c.textContent.trim()))")
    return {row[0]: row[1:] for row in rows}


def _flow(driver: WebDriver, db: str, tmp_path: Path, width: int) -> None:
    _ledger(db)
    good, bad = _files(tmp_path)
    with serving(db, tmp_path / "serve.log", "--insecure-cookies", "--secret-file",
                 str(tmp_path / "serve.secret"), "--club", "Harbour Chess Club") as (address, _):
        base = address.rstrip("/")
        visit = Visit(driver, base, width)
        driver.delete_all_cookies()

        # 1. The reporter: the file with its bad line, its error, the corrected file.
        visit.go("/login")
        visit.shot("login")
        visit.login(REPORTER)
        visit.go("/submissions/new")
        driver.find_element(By.ID, "file").send_keys(str(bad))
        visit.click("Submit")
        assert driver.current_url == base + "/submissions/1"
        assert visit.heading() == "Submission 1: pending"
        errors = driver.find_elements(By.CSS_SELECTOR, "ul.errors li")
        assert [e.text for e in errors] == [
            "autumn-swiss.trf, line 15, field col 119: round 3: result code '7' does not exist "
            "(1 = 0, + -, W D L, H F U Z)"]
        assert "the file has errors: correct them and submit the file again" in visit.text()
        visit.shot("submission-error")
        driver.find_element(By.ID, "file").send_keys(str(good))
        visit.click("Submit the corrected file")
        assert driver.current_url == base + "/submissions/1"
        assert visit.heading() == "Submission 1: pending"
        assert driver.find_elements(By.CSS_SELECTOR, "ul.errors li") == []
        said = visit.text()
        assert "0 errors, 1 warning; 9 games to record" in said, said
        assert "waiting for an officer to review 1 warning" in said
        visit.logout()

        # 2. The officer: the queue, the warning and the flag, the accept.
        visit.login(OFFICER)
        visit.go("/review")
        visit.follow(By.CSS_SELECTOR, "a[href='/review/1']")
        assert visit.heading() == "Review submission 1: pending"
        warning = driver.find_element(By.CSS_SELECTOR, "fieldset label").text
        assert warning.startswith("autumn-swiss.trf, line 13, field col 15-47 name: unknown "
                                  "player 'Gallagher, T.': did you mean Gallagher, Tom (#8, no "
                                  "FIDE id)?")
        flags = [li.text for li in driver.find_elements(
            By.CSS_SELECTOR, "section[aria-labelledby=integrity-h] li")]
        # the Swiss ended on 2026-10-25 and is submitted today: more than 30 days later
        days = (dt.datetime.now(dt.UTC).date() - dt.date(2026, 10, 25)).days
        assert flags == [f"Harbour Autumn Swiss 2026 (late-submission): Harbour Autumn Swiss "
                         f"2026 ended on 2026-10-25 and "
                         f"was submitted on {dt.datetime.now(dt.UTC).date().isoformat()}, "
                         f"{days} days later (more than 30)"]
        # If accepted, October (Rn = Ro + K x (W - We), We from table 8.1.2):
        # Murphy, K 20 (35 games before, born 1983): round 1 against Quinn, unrated (not
        # rated); round 2 beat Ryan 1705: D = 15, PD 0.52 (11-17); round 3 beat Fitzgerald
        # 1590: D = 130, PD 0.68 (130-137). W = 2, We = 1.20: 20 x 0.80 = +16, 1720 -> 1736.
        # Ryan, K 20 (40 games before): lost to Gallagher, T. 1780 (the file's rating, ticked
        # in): D = -75, PD 0.40 (69-76); to Murphy 1720: D = -15, PD 0.48; to Doherty 1650:
        # D = 55, PD 0.58 (54-61). W = 0, We = 1.46: 20 x -1.46 = -29.20, 1705 -> 1676.
        changes = _cells(driver, "section[aria-labelledby=preview-h] table:first-of-type tbody tr")
        assert changes["Murphy, Sean"] == ["2026-10 (Standard)", "1720", "2", "+16", "1736"]
        assert changes["Ryan, Eoin"] == ["2026-10 (Standard)", "1705", "3", "-29", "1676"]
        visit.shot("review")
        visit.click("Accept: record the games")  # the warning not ticked: refused
        assert "Gallagher" in driver.find_element(By.CSS_SELECTOR, "[role=alert]").text
        assert visit.heading() == "Review submission 1: pending"
        # the console so far: only the refusal's status (409), which the browser reports
        assert [(e["level"], e["message"]) for e in driver.get_log("browser")] == [
            ("SEVERE", f"{base}/review/1/accept - Failed to load resource: the server responded "
                       "with a status of 409 (CONFLICT)")]
        box = driver.find_element(By.CSS_SELECTOR, "fieldset input[type=checkbox]")
        box.click()
        assert box.is_selected()
        visit.click("Accept: record the games")
        assert visit.heading() == "Review submission 1: accepted"

        # 3. The close from its preview, then the public list.
        visit.go("/officer/close")
        rows = _cells(driver, "section[aria-labelledby=close-standard] tbody tr")
        # before, games, score, expected, K, K reason, K x (S - PD), change, after (as above)
        assert rows["Murphy, Sean"][1:] == ["1720", "2", "2.0", "1.20", "20", "standard",
                                            "+16.00", "+16", "1736"]
        assert rows["Ryan, Eoin"][1:] == ["1705", "3", "0.0", "1.46", "20", "standard",
                                          "-29.20", "-29", "1676"]
        visit.shot("close-preview")
        visit.click("Close 2026-10 (standard) and publish its list")
        assert "Closed: the list of 2026-10 is published." in visit.text()
        session = driver.get_cookies()
        driver.delete_all_cookies()  # a member, not logged in
        visit.go("/lists/standard/2026-10.html")
        listed = {r[1]: r for r in driver.execute_script(
            "return Array.from(document.querySelectorAll('#rating-list tbody tr'))"
            ".map(r => [r.querySelector('.rating').textContent.trim(),"
            " r.querySelector('.name').textContent.trim()])")}
        assert listed["Murphy, Sean"][0] == "1736" and listed["Ryan, Eoin"][0] == "1676"
        assert listed["Gallagher, Tom"][0] == "1780"  # no game: as before
        assert driver.find_elements(By.XPATH, "//a[@href='/login']")
        visit.shot("public-list")
        for cookie in session:
            driver.add_cookie(cookie)

        # 4. A correction with its preview: the Ryan v Murphy game (round 2) never happened.
        games = json.loads(_cli(db, "game", "list", "--player", "Ryan, Eoin", "--json"))["games"]
        found = [g for g in games if {g["white"], g["black"]} == {"Ryan, Eoin", "Murphy, Sean"}]
        assert len(found) == 1
        game = found[0]["id"]
        visit.go(f"/officer/games/{game}/void")
        driver.find_element(By.ID, "f-reason").send_keys("not played: Ryan withdrew")
        driver.find_element(By.CSS_SELECTOR, "input[name=effect][value=in-next-period]").click()
        visit.click("Preview")
        assert "Preview: nothing is written yet" in visit.text()
        # Murphy gave 20 x (2 - 1.20) = +16.00; without the game 20 x (1 - 0.68) = +6.40:
        # -9.60 carried into November. Ryan gave -29.20; without it 20 x (0 - 0.98) = -19.60:
        # +9.60.
        carried = _cells(driver, "table.cards-40 tbody tr")
        assert carried["Murphy, Sean"] == ["2026-10 rev 1", "+16.00", "+6.40", "-9.60"]
        assert carried["Ryan, Eoin"] == ["2026-10 rev 1", "-29.20", "-19.60", "+9.60"]
        visit.click(f"Do it: Void game {game}")
        assert "Done" in visit.text()
        after = _cells(driver, "table.cards-54:nth-of-type(2) tbody tr")
        assert after[str(game)][-1] == "void"

        # 5. Logout, and a protected page asks for the login again.
        visit.logout()
        visit.go("/review")
        assert driver.current_url == base + "/login?next=/review"
        assert visit.heading() == "Log in"
        assert visit.checked >= 20


def _no_console_error(driver: WebDriver) -> None:
    errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert errors == [], [e["message"] for e in errors]


def test_a_month_through_the_browser(page: WebDriver, new_database: Factory,
                                     tmp_path: Path) -> None:
    _flow(page, new_database("harbour"), tmp_path, 1200)
    _no_console_error(page)


def test_a_month_through_the_browser_on_a_phone(page: WebDriver, new_database: Factory,
                                                tmp_path: Path) -> None:
    _flow(page, new_database("harbour"), tmp_path, 390)
    _no_console_error(page)
