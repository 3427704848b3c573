"""``ledger list --format ... --output ...`` and the filters through the command line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from ledgers import Factory
from typer.testing import CliRunner, Result

from ledger.cli.app import app


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(app, list(args), env=env)


HYPERLINK = '=HYPERLINK("http://example.invalid","x"), Evil'


@pytest.fixture
def db(new_ledger: Factory) -> str:
    path = new_ledger("ledger")
    for args in ((HYPERLINK, "--rating", "1800", "--sex", "F", "--federation", "ENG"),
                 ("<script>alert(1)</script>", "--rating", "1700", "--fide-id", "4100018"),
                 ("Plain, Pat", "--rating", "1600", "--birth-year", "2010")):
        result = run("--db", path, "player", "add", *args, "--prior-games", "100")
        assert result.exit_code == 0, result.output
    assert run("--db", path, "game", "add", "Plain, Pat", "#2", "1-0", "--date",
               "2025-11-05").exit_code == 0
    assert run("--db", path, "period", "close", "2025-11").exit_code == 0
    return path


# Ratings after 2025-11 (K 20 for the adults; Pat, born 2010, is a junior: K 40):
# Pat 1600 beat 1700: D = -100 -> .36; 1 - .36 = +0.64; 40 x 0.64 = 25.6 -> +26 -> 1626.
# #2 1700 lost to 1600: D = 100 -> .64; 0 - .64; 20 x -0.64 = -12.8 -> -13 -> 1687.


def test_csv_to_stdout_is_neutralised(db: str) -> None:
    result = run("--db", db, "list", "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout, newline="")))
    assert [r[:3] + r[6:7] for r in rows[1:]] == [
        ["1", "", "'" + HYPERLINK, "1800"],
        ["2", "4100018", "<script>alert(1)</script>", "1687"],
        ["3", "", "Plain, Pat", "1626"],
    ]


def test_txt_to_a_file(db: str, tmp_path: Path) -> None:
    out = tmp_path / "list.txt"
    result = run("--db", db, "list", "--format", "txt", "--output", str(out))
    assert result.exit_code == 0, result.output
    assert str(out) in result.stdout
    lines = out.read_bytes().decode("utf-8").split("\n")
    assert lines[0][109:115] == "dec25 "  # 2025-11 publishes the list of 1 December 2025
    assert lines[3][0:15] == "               "
    assert lines[3][15:76].rstrip() == "Plain, Pat"
    assert (lines[3][109:115], lines[3][115:119], lines[3][119:122], lines[3][122:128]) == (
        "1626  ", "1   ", "40 ", "2010  ")
    assert lines[1][76:80] == "ENG " and lines[1][128:132] == "w   "
    assert lines[4:] == [""]


def test_html_page_with_the_club_from_the_environment(db: str, tmp_path: Path) -> None:
    out = tmp_path / "list.html"
    result = run("--db", db, "list", "--format", "html", "--output", str(out),
                 env={"LEDGER_CLUB": "Riverside & District"})
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert "<h1>Riverside &amp; District</h1>" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
    result = run("--db", db, "list", "--format", "html", "--club", "Chess Club",
                 env={"LEDGER_CLUB": "ignored"})
    assert "<h1>Chess Club</h1>" in result.stdout


def test_json_flag_equals_format_json(db: str) -> None:
    a = run("--db", db, "list", "--json")
    b = run("--db", db, "list", "--format", "json")
    assert a.exit_code == b.exit_code == 0
    assert a.stdout == b.stdout
    data = json.loads(a.stdout)
    assert data["in_force_from"] == "2025-12-01"
    assert [(p["name"], p["sex"], p["rating"]) for p in data["players"]] == [
        (HYPERLINK, "F", 1800), ("<script>alert(1)</script>", None, 1687), ("Plain, Pat", None, 1626)]


def test_filters_on_the_command_line(db: str) -> None:
    result = run("--db", db, "list", "--json", "--junior")
    assert [p["name"] for p in json.loads(result.stdout)["players"]] == ["Plain, Pat"]
    result = run("--db", db, "list", "--json", "--sex", "f", "--federation", "eng")
    assert [p["name"] for p in json.loads(result.stdout)["players"]] == [HYPERLINK]
    result = run("--db", db, "list", "--json", "--min-games", "1", "--top", "1")
    assert [(p["rank"], p["name"]) for p in json.loads(result.stdout)["players"]] == [
        (1, "<script>alert(1)</script>")]


def test_bad_options(db: str, tmp_path: Path) -> None:
    result = run("--db", db, "list", "--json", "--format", "csv")
    assert result.exit_code == 2
    assert "--json" in result.stderr and "--format" in result.stderr
    result = run("--db", db, "list", "--format", "pdf")
    assert result.exit_code == 2
    result = run("--db", db, "list", "--sex", "X")
    assert result.exit_code == 1 and "sex" in result.stderr
    missing = tmp_path / "no" / "such" / "dir" / "list.csv"
    result = run("--db", db, "list", "--format", "csv", "--output", str(missing))
    assert result.exit_code == 1
    assert "output" in result.stderr and str(missing) in result.stderr
    assert "Traceback" not in result.stderr
    assert not missing.parent.exists()


def test_inactive_flag_in_every_format(new_ledger: Factory) -> None:
    path = new_ledger("idle")
    for name, sex in (("Alpha, Ann", "F"), ("Beta, Bea", "F"), ("Gamma, Gil", "M")):
        assert run("--db", path, "player", "add", name, "--rating", "1800", "--sex", sex,
                   "--prior-games", "100").exit_code == 0
    for white, black, day, period in (("Alpha, Ann", "Beta, Bea", "2025-01-10", "2025-01"),
                                      ("Alpha, Ann", "Gamma, Gil", "2026-01-10", "2026-01")):
        assert run("--db", path, "game", "add", white, black, "1/2-1/2", "--date", day).exit_code == 0
        assert run("--db", path, "period", "close", period).exit_code == 0
    # The 12 periods ending with 2026-01 are 2025-02 .. 2026-01: Beta's only game was in 2025-01,
    # so Beta is inactive on the list of 1 February 2026. All three stay 1800 (draws at D = 0).
    txt = run("--db", path, "list", "--format", "txt").stdout.split("\n")
    assert [(line[15:76].rstrip(), line[128:132]) for line in txt[1:4]] == [
        ("Alpha, Ann", "w   "), ("Beta, Bea", "wi  "), ("Gamma, Gil", "    ")]
    rows = list(csv.reader(io.StringIO(run("--db", path, "list", "--format", "csv").stdout,
                                       newline="")))
    assert [(r[2], r[-1]) for r in rows[1:]] == [("Alpha, Ann", "w"), ("Beta, Bea", "wi"),
                                                  ("Gamma, Gil", "")]
    page = run("--db", path, "list", "--format", "html").stdout
    assert 'Beta, Bea <span class="flag">inactive</span>' in page
    active = run("--db", path, "list", "--format", "csv", "--active", "--sex", "F").stdout
    assert [r[2] for r in csv.reader(io.StringIO(active, newline=""))][1:] == ["Alpha, Ann"]


def test_table_legend_names_fides_flags_the_csv_writes(db: str) -> None:
    # the first player is a woman (--sex F): csv's flag says w, and the table's legend says what
    # the txt and csv flags mean (w woman, i inactive, wi both), not only i
    rows = list(csv.reader(io.StringIO(run("--db", db, "list", "--format", "csv").stdout,
                                       newline="")))
    assert rows[0][-1] == "flag" and [r[-1] for r in rows[1:]] == ["w", "", ""]
    shown = run("--db", db, "list")
    assert shown.exit_code == 0, shown.output
    legend = " ".join(shown.stdout.split())
    assert "flag i: inactive, no rated game in the last 12 periods" in legend
    assert "flag: w woman, i inactive, wi both" in legend
    assert "flag: w woman, i inactive, wi both" in " ".join(
        run("list", "--help").stdout.split())
