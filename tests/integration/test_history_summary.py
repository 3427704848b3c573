"""``ledger history``: the peak rating, the sparkline and the chart, on case C07 of
docs/CASES.md (sticky K 10 around 2400), worked by hand."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from sqlalchemy import Engine
from typer.testing import CliRunner

from ledger.cli.app import app
from ledger.cli.render.history import history_sparkline
from ledger.formats import rating_chart
from ledger.formats.sparkline import BLOCKS, sparkline
from ledger.services.close.periods import close_period
from ledger.services.publishing.histories import history
from ledger.services.publishing.history_summary import peak, period_points
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player


def player(engine: Engine, name: str, rating: int) -> None:
    add_player(engine, NewPlayer(name=name, rating=rating, prior_games=200))


@pytest.fixture
def c07(engine: Engine) -> Engine:
    """C07: S, adult, 200 games; every opponent rated as S is in that period."""
    player(engine, "Player, S", 2395)
    player(engine, "Jan, One", 2395)
    player(engine, "Jan, Two", 2395)
    add_game(engine, "Player, S", "Jan, One", "1-0", "2026-01-10")
    add_game(engine, "Player, S", "Jan, Two", "1-0", "2026-01-17")
    close_period(engine, "2026-01")
    for i in range(4):
        player(engine, f"Feb, {i}", 2415)
        add_game(engine, f"Feb, {i}", "Player, S", "1-0", f"2026-02-{7 + i:02d}")
    close_period(engine, "2026-02")
    for i in range(2):
        player(engine, f"Mar, {i}", 2395)
        add_game(engine, "Player, S", f"Mar, {i}", "1-0", f"2026-03-{7 + i:02d}")
    close_period(engine, "2026-03")
    return engine


def test_points_peak_and_sparkline(c07: Engine) -> None:
    h = history(c07, "Player, S")
    # Jan: K 20 (2395 < 2400); D = 0 -> .50; 2 x (1 - .50) = 1.0; 20 x 1.0 = +20 -> 2415
    # Feb: K 10 (2415 reached 2400); 4 x (0 - .50) = -2.0; 10 x -2.0 = -20 -> 2395
    # Mar: K 10 for ever; 2 x 0.50 = 1.0; 10 x 1.0 = +10 -> 2405
    assert [(p.period, p.rating, p.k, p.k_note) for p in period_points(h)] == [
        ("2026-01", 2415, 20, None), ("2026-02", 2395, 10, "K 20 -> 10"),
        ("2026-03", 2405, 10, None)]
    top = peak(h)
    assert top is not None
    assert (top.rating, top.period, top.in_force_from) == (2415, "2026-01", "2026-02-01")
    # 2395 (brought), 2415, 2395, 2405: low 2395, high 2415, span 20 -> levels 7 x (R - 2395) / 20:
    # 0 -> 0; 20 -> 7; 0 -> 0; 10 -> 3.5 -> 4 (half up)
    assert history_sparkline(h) == BLOCKS[0] + BLOCKS[7] + BLOCKS[0] + BLOCKS[4] == "▁█▁▅"


def test_peak_can_be_the_rating_brought(c07: Engine) -> None:
    # Jan, One: brought 2395, lost in January: D = 0 -> .50; 0 - .50 = -0.50; K 20 -> -10 -> 2385
    h = history(c07, "Jan, One")
    top = peak(h)
    assert top is not None
    assert (top.rating, top.period, top.in_force_from) == (2395, None, "2026-01-01")


def test_sparkline_levels() -> None:
    # 1500..1800: 7 x 100/300 = 2.33 -> 2; 7 x 200/300 = 4.67 -> 5; 7
    assert sparkline([1500, 1600, 1700, 1800]) == "▁▃▆█"
    assert sparkline([2000, 2000]) == "▄▄"
    assert sparkline([]) == ""


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from the PNG signature and IHDR chunk (PNG spec 11.2.2)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_chart_plots_one_point_per_period(c07: Engine) -> None:
    h = history(c07, "Player, S")
    chart = rating_chart.draw([rating_chart.ChartPoint(p.period, p.rating, p.k_note)
                               for p in period_points(h)], "Player, S")
    assert chart.x == ["2026-01", "2026-02", "2026-03"]
    assert chart.y == [2415, 2395, 2405]
    assert chart.marked == ["2026-02"]
    assert png_size(chart.png) == (800, 400)


def test_history_chart_through_the_cli(c07: Engine, ledger_db: str, tmp_path: Path) -> None:
    out = tmp_path / "s.png"
    result = CliRunner().invoke(app, ["--db", ledger_db, "history", "Player, S", "--chart",
                                      str(out), "--json"])
    assert result.exit_code == 0, result.output + result.stderr
    data = json.loads(result.stdout)
    assert data["peak"] == {"rating": 2415, "period": "2026-01", "in_force_from": "2026-02-01"}
    assert data["sparkline"] == "▁█▁▅"
    assert png_size(out.read_bytes()) == (800, 400)
    table = CliRunner().invoke(app, ["--db", ledger_db, "history", "Player, S"])
    assert "peak: 2415, in force from 2026-02-01 (published by closing 2026-01)" in table.stdout
    assert "trend: 2395 ▁█▁▅ 2405" in table.stdout


def test_the_chart_png_says_its_pool(c07: Engine, ledger_db: str, tmp_path: Path) -> None:
    from PIL import Image  # matplotlib's own dependency

    out = tmp_path / "s.png"
    result = CliRunner().invoke(app, ["--db", ledger_db, "history", "Player, S", "--chart",
                                      str(out)])
    assert result.exit_code == 0, result.output + result.stderr
    with Image.open(out) as png:  # the title drawn on it is also its Title text chunk
        assert png.text["Title"] == "Player, S: published standard rating"


def test_chart_of_a_player_without_periods_is_refused(c07: Engine, ledger_db: str,
                                                       tmp_path: Path) -> None:
    add_player(c07, NewPlayer(name="Fresh, Fay", rating=1500))
    out = tmp_path / "none.png"
    result = CliRunner().invoke(app, ["--db", ledger_db, "history", "Fresh", "--chart", str(out)])
    assert result.exit_code == 1
    assert "no rated periods" in result.stderr
    assert not out.exists()


def test_a_chart_into_a_file_not_named_png_is_refused(c07: Engine, ledger_db: str,
                                                     tmp_path: Path) -> None:
    out = tmp_path / "chart.txt"
    result = CliRunner().invoke(app, ["--db", ledger_db, "history", "Player, S", "--chart", str(out)])
    assert result.exit_code == 2
    assert "the chart is a PNG image; name the file .png" in result.stderr
    assert not out.exists()


def test_a_history_that_starts_with_an_initial_rating(engine: Engine) -> None:
    for rating in (1600, 1700, 1800, 1900, 2000):
        player(engine, f"Rated, {rating}", rating)
    add_player(engine, NewPlayer(name="New, Una"))
    for day, opponent, result in (("2025-11-03", 1600, "1-0"), ("2025-11-04", 1700, "1-0"),
                                  ("2025-11-05", 1800, "1-0"), ("2025-11-06", 1900, "1/2-1/2"),
                                  ("2025-11-07", 2000, "0-1")):
        add_game(engine, "New, Una", f"Rated, {opponent}", result, day)
    close_period(engine, "2025-11")
    # Ru = 1902 (RULES §6 example), published by closing 2025-11
    add_game(engine, "New, Una", "Rated, 1900", "1-0", "2025-12-03")
    close_period(engine, "2025-12")
    # December: 1902 v 1900 (still 1900: her games did not count for him): D = 2 -> .50;
    # 1 - .50 = 0.50; K 40 (5 rated games < 30) -> +20 -> 1922
    h = history(engine, "New, Una")
    assert [(p.period, p.rating, p.k) for p in period_points(h)] == [
        ("2025-11", 1902, None), ("2025-12", 1922, 40)]
    top = peak(h)
    assert top is not None
    assert (top.rating, top.period, top.in_force_from) == (1922, "2025-12", "2026-01-01")
    # no rating brought: the trend starts at the initial rating; 1902 -> level 0, 1922 -> 7
    assert history_sparkline(h) == "▁█"
