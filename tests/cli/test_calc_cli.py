"""``ledger calc`` through Typer's CliRunner: no database, exit codes, tables and JSON.

Expected values are read from table 8.1.2 (RULES.md §3) and worked by hand beside them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from ledger.cli.app import app


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str) -> Result:
    return runner.invoke(app, list(args))


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("command", [("calc",), ("calc", "expected"), ("calc", "change"),
                                     ("calc", "table"), ("performance",), ("whatif",)])
def test_new_commands_have_help(runner: CliRunner, command: tuple[str, ...]) -> None:
    result = run(runner, *command, "--help")
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output


def test_calc_needs_no_database(runner: CliRunner, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run(runner, "--db", str(tmp_path / "none.db"), "calc", "expected", "1800", "1600")
    assert result.exit_code == 0, result.output
    assert list(tmp_path.iterdir()) == []  # no ledger file created


def test_calc_change_seed_example(runner: CliRunner) -> None:
    # RULES.md §5: K 20, 1600: draw v 1800 (D -200 -> .24: +0.26 -> 20 x 0.26 = +5.2), win v
    # 1400 (D +200 -> .76: +0.24 -> +4.8); sum +0.50; 20 x 0.50 = +10.0 -> +10 -> 1610
    result = run(runner, "calc", "change", "--rating", "1600", "--k", "20", "1800:=", "1400:1",
                 "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["k"], data["sum"], data["change_exact"], data["change"], data["rating_after"]) == (
        20, 0.5, 10, 10, 1610)
    assert [(g["opponent"], g["result"], g["difference"], g["pd"], g["surplus"], g["k_surplus"])
            for g in data["games"]] == [(1800, 0.5, -200, 0.24, 0.26, 5.2),
                                        (1400, 1, 200, 0.76, 0.24, 4.8)]
    text = run(runner, "calc", "change", "--rating", "1600", "--k", "20", "1800:=", "1400:1")
    assert text.exit_code == 0, text.output
    out = flat(text.stdout)
    assert "+5.20" in out and "+4.80" in out and "1600 -> 1610" in out and "+10.00 -> +10" in out


def test_calc_change_700_cap(runner: CliRunner) -> None:
    # K 40, 18 games: 40 x 18 = 720 > 700 -> K = floor(700 / 18) = 38. 18 wins v 1600 at 1600:
    # D 0 -> .50, sum +9.00; 38 x 9.00 = +342 -> 1942
    games = ["1600:1"] * 18
    result = run(runner, "calc", "change", "--rating", "1600", "--k", "40", "--fide-rules", *games)
    assert result.exit_code == 0, result.output
    assert "K reduced? yes, 40 -> 38" in result.stdout
    assert "1600 -> 1942" in flat(result.stdout)
    data = json.loads(run(runner, "calc", "change", "--rating", "1600", "--k", "40",
                          "--fide-rules", *games, "--json").stdout)
    assert (data["k"], data["k_given"], data["k_reduced"], data["change"]) == (38, 40, True, 342)
    assert len(data["games"]) == 18 and data["games"][0]["k_surplus"] == 19  # 38 x 0.50
    # Without --fide-rules: K 40 as given, 40 x 9.00 = +360
    plain = json.loads(run(runner, "calc", "change", "--rating", "1600", "--k", "40", *games,
                           "--json").stdout)
    assert (plain["k"], plain["change"]) == (40, 360)
    # 17 games: 40 x 17 = 680 <= 700: K stays 40
    seventeen = run(runner, "calc", "change", "--rating", "1600", "--k", "40", "--fide-rules",
                    *games[:17])
    assert "K reduced? no" in seventeen.stdout


def test_calc_change_bad_tokens_exit_2_one_by_one(runner: CliRunner) -> None:
    result = run(runner, "calc", "change", "--rating", "1600", "--k", "20", "1400:1", "1800",
                 "18x0:1", "1800:x", "1800:=")
    assert result.exit_code == 2
    assert result.stdout == ""  # nothing printed as a result
    err = result.stderr
    assert "GAME 2 '1800': write OPPONENT:RESULT" in err
    assert "GAME 3 '18x0:1': opponent '18x0' is not a rating" in err
    assert "GAME 4 '1800:x': result 'x' is not one of" in err
    assert "GAME 1" not in err and "GAME 5" not in err  # the good ones are not reported
    assert "Traceback" not in result.output


def test_calc_change_usage_errors(runner: CliRunner) -> None:
    missing_k = run(runner, "calc", "change", "--rating", "1600", "1800:=")
    assert missing_k.exit_code == 2 and "--k" in missing_k.stderr
    no_games = run(runner, "calc", "change", "--rating", "1600", "--k", "20")
    assert no_games.exit_code == 2
    bad_rating = run(runner, "calc", "expected", "1800", "99999")
    assert bad_rating.exit_code == 2


def test_calc_expected_json(runner: CliRunner) -> None:
    # 1800 v 1600: D 200 -> .76 / .24 (band 198-206); odds .76 / .24 = 3.17 : 1;
    # logistic 1 / (1 + 10^-0.5) = .7597; over 4 games 4 x .76 = 3.04, 4 x .24 = 0.96
    result = run(runner, "calc", "expected", "1800", "1600", "--games", "4", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["difference"], data["pd"], data["odds"]) == (200, [0.76, 0.24], "3.17 : 1")
    assert data["logistic"] == [pytest.approx(0.7597, abs=5e-5), pytest.approx(0.2403, abs=5e-5)]
    assert [p["expected_points"] for p in data["players"]] == [3.04, 0.96]
    text = run(runner, "calc", "expected", "1800", "1600")
    assert "3.17 : 1" in text.stdout and "0.760" in text.stdout and "0.76" in text.stdout


def test_calc_expected_400_point_note(runner: CliRunner) -> None:
    # 2200 v 2700: D -500; the 2200 player (below 2650) counts -400 -> .08; 2700 keeps +500 -> .96
    result = run(runner, "calc", "expected", "2200", "2700", "--json")
    data = json.loads(result.stdout)
    assert [(p["counted_difference"], p["pd_counted"], p["rule_400_applied"])
            for p in data["players"]] == [(-400, 0.08, True), (500, 0.96, False)]
    text = run(runner, "calc", "expected", "2200", "2700")
    assert "2200 counts D -500 as -400" in flat(text.stdout)


def test_calc_table_seed_rows(runner: CliRunner) -> None:
    result = run(runner, "calc", "table", "--json")
    assert result.exit_code == 0, result.output
    rows = {r["gap"]: r for r in json.loads(result.stdout)["rows"]}
    assert len(rows) == 81  # 0, 10, ..., 800
    # gap 100: .64 / .36 (band 99-106), odds .64 / .36 = 1.78 : 1
    assert (rows[100]["pd_higher"], rows[100]["pd_lower"], rows[100]["odds"]) == (
        0.64, 0.36, "1.78 : 1")
    # gap 400: logistic 10 / 11 = .909; FIDE .92 (band 392-411), not capped
    assert round(rows[400]["logistic_higher"], 3) == 0.909
    assert (rows[400]["fide_higher"], rows[400]["capped"]) == (0.92, False)
    # gap 410: FIDE .92, capped by the 400-point rule
    assert (rows[410]["fide_higher"], rows[410]["capped"]) == (0.92, True)
    text = run(runner, "calc", "table", "--step", "10", "--max", "410")
    lines = {line.split("│")[1].strip(): line for line in text.stdout.splitlines()
             if line.startswith("│")}
    assert "1.78 : 1" in lines["100"] and "0.64" in lines["100"] and "0.36" in lines["100"]
    assert "0.909" in lines["400"] and "0.92 / 0.08" in lines["400"] and "*" not in lines["400"]
    assert "0.92 / 0.08 *" in lines["410"]
    assert "800" not in lines  # --max 410


def test_calc_table_bad_step_is_usage_error(runner: CliRunner) -> None:
    assert run(runner, "calc", "table", "--step", "0").exit_code == 2
