"""``ledger import`` of TRF files through the CLI: the three real files (tests/data, examples/data),
the TRF cases C15, C16 and C18 of docs/CASES.md (expected values worked by hand there), malformed lines,
dry run, re-import, a game recorded with another result, games before 2022, and the
``ledger export trf`` round trip.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from data_files import data_file
from ledgers import Factory
from typer.testing import CliRunner, Result

from ledger.cli.app import app

KARL_MALA = data_file("fide_example1_karl_mala_2005.trf")
GROS = data_file("javafo_trfx_sample2_gros_2010.trf")
KILKENNY = data_file("icu_kilkenny_masters_2011.trf")


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in args])


def ok_json(result: Result) -> Any:
    assert result.exit_code == 0, result.output + result.stderr
    return json.loads(result.stdout)


@pytest.fixture
def db(new_ledger: Factory) -> str:
    return new_ledger("trf")


def errors_of(result: Result) -> list[tuple[int, str, str]]:
    """(line, column, message) of each ``file:line: error: col ...: message`` line on stderr."""
    found = re.findall(r"^\S+?:(\d+): error: ([^:]+): (.*)$", result.stderr, re.M)
    return [(int(line), column, message) for line, column, message in found]


# ------------------------------------------------------------------------------------------------
# The three real TRF files. Counted by hand from the files with awk, reading each
# `001` line's rating (columns 49-52) and its round cells (opponent at 92 + 10(n-1), result
# 7 columns further), one game per pair of start ranks (rank < opponent):
#   forfeit  = result `+` or `-` with an opponent; rated = `1 = 0` with both ratings > 0;
#   unrated  = `1 = 0` with a rating blank or 0 on either side.
# Karl-Mala: 1,940 played cells / 2 = 970 games (287 both rated, 683 not), 10 `+` and 10 `-`
#   cells = 10 forfeits: 980 games. 284 `001` lines; line 297 `spielfrei` (the bye) plays no game,
#   so 283 players are registered. Line 26, Bakhmatov, rank 0 (withdrawn): only `153 - -`, a
#   forfeit lost to 153 (whose line says `13 - +`), colour `-` on both lines.
# Gros: 178 played cells = 89 games (59 both rated, 30 with a rating 0), 4 forfeits
#   (13-39, 16-42, 20-46, 21-8): 93 games; 52 lines, player 28 has only `Z` byes: 51 registered.
# Kilkenny: 194 played cells = 97 games, no forfeits; only 6 between two players with a rating
#   (ranks 2 Cheparinov 2666, 3 Hebden 2543, 4 Maze 2576, 9 Libiszewski 2492, 11 Delorme 2443,
#   19 Van Dijk 2106): 2-11 r2, 2-9 r3, 11-19 r3, 3-9 r4, 4-11 r5, 2-4 r6. 34 lines, all with games.


def test_karl_mala_2005_imports(runner: CliRunner, db: str) -> None:
    report = ok_json(run(runner, "--db", db, "import", KARL_MALA, "--register-players",
                         "--json"))
    assert report["format"] == "trf"
    assert report["players_in_file"] == 284
    assert len(report["players_registered"]) == 283
    assert "spielfrei" not in report["players_registered"]
    assert report["recorded"] == 980
    # 287 played games between two rated players, all in 2005-07: recorded, never rated
    assert report["to_rate"] == 0
    assert report["not_rated"] == {"forfeit": 10, "unrated player": 683, "period before 2022": 287}
    assert report["periods"] == {"2005-07": 980}  # the end date 31. 07. 2005
    # one warning for the period before 2022, on record 052 (line 5); two old-style byes,
    # `0000 - +` (line 295) and `0000 - -` (line 297, spielfrei), in round 5 (columns 132-139)
    assert [(p["line"], p["field"], p["severity"]) for p in report["problems"]] == [
        (5, "052 end date", "warning"), (295, "col 139", "warning"), (297, "col 139", "warning")]
    assert "never rated" in report["problems"][0]["message"]
    games = ok_json(run(runner, "--db", db, "game", "list", "--player", "Bakhmatov", "--json"))
    # `153 - -` on rank 13's line, `13 - +` on rank 153's: a forfeit, White = the lower rank
    assert [(g["white"], g["black"], g["result"], g["status"], g["round"]) for g in games["games"]] \
        == [("Bakhmatov,Eduard", "Reichwehr,Bernd", "-/+", "forfeit", "1")]
    event = games["games"][0]
    assert (event["event"], event["date"]) == ("9. Karl-Mala-Gedenkturnier", "2005-07-31")
    vasquez = ok_json(run(runner, "--db", db, "game", "list", "--player", "Vasquez", "--json"))
    # line 14: seven games, all played; a period before 2022 is never rated
    assert [g["status"] for g in vasquez["games"]] == ["never rated"] * 7


def test_gros_2010_trfx_imports(runner: CliRunner, db: str) -> None:
    report = ok_json(run(runner, "--db", db, "import", GROS, "--register-players", "--json"))
    assert report["players_in_file"] == 52
    assert len(report["players_registered"]) == 51
    assert "Moreno Romero Ernesto" not in report["players_registered"]
    assert report["recorded"] == 93
    assert report["to_rate"] == 0
    assert report["not_rated"] == {"forfeit": 4, "unrated player": 30, "period before 2022": 59}
    players = {p["name"]: p for p in ok_json(run(runner, "--db", db, "player", "list",
                                                 "--json"))["players"]}
    mirzoev = players["Mirzoev Azer"]  # line 15: m, g, 2527 AZE 13400304 1978
    assert (mirzoev["fide_id"], mirzoev["rating"], mirzoev["federation"], mirzoev["title"],
            mirzoev["birth_year"], mirzoev["sex"], mirzoev["history_unknown"]) == (
        13400304, 2527, "AZE", "GM", 1978, "M", True)
    assert players["Gorrochategui Torres, Eugenio"]["rating"] is None  # rating 0: unrated
    assert players["Gorrochategui Torres, Eugenio"]["fide_id"] is None  # id 0: none


def test_kilkenny_2011_national_ids(runner: CliRunner, db: str) -> None:
    report = ok_json(run(runner, "--db", db, "import", KILKENNY, "--register-players",
                         "--ids", "national", "--json"))
    assert report["players_in_file"] == 34
    assert len(report["players_registered"]) == 34
    assert report["recorded"] == 97
    assert report["to_rate"] == 0
    assert report["not_rated"] == {"unrated player": 91, "period before 2022": 6}
    # `0000 - =` (line 17, Lopez round 1): an old-style half-point bye, not a game
    assert any(p["line"] == 17 and "half-point bye" in p["message"] for p in report["problems"])
    players = {p["name"]: p for p in ok_json(run(runner, "--db", db, "player", "list",
                                                 "--json"))["players"]}
    # 7685 in the FIDE-id column is Jones's Irish (ICU) id: not stored as a FIDE id
    assert players["Jones,Gawain C."]["fide_id"] is None
    assert players["Cheparinov,Ivan"]["rating"] == 2666


def test_kilkenny_rated_pairs_by_hand() -> None:
    """The 6 rated pairings of Kilkenny listed above, read again from the file's columns."""
    rated = {2, 3, 4, 9, 11, 19}
    pairs = set()
    for line in KILKENNY.read_text(encoding="utf-8").splitlines():
        if line.startswith("001"):
            rank = int(line[4:8])
            for start in range(91, len(line), 10):
                opponent = line[start:start + 4].strip()
                if opponent and int(opponent) and rank in rated and int(opponent) in rated:
                    pairs.add(frozenset((rank, int(opponent))))
    assert pairs == {frozenset(p) for p in ((2, 9), (2, 4), (3, 9), (4, 11), (2, 11), (11, 19))}


# ------------------------------------------------------------------------------------------------
# Games before 2022: recorded, never rated, never blocking later periods


def test_pre_2022_periods_are_skipped_refused_and_never_block(runner: CliRunner, db: str) -> None:
    ok_json(run(runner, "--db", db, "import", GROS, "--register-players", "--json"))
    nothing = run(runner, "--db", db, "period", "close")
    assert nothing.exit_code == 1 and "nothing to close" in nothing.stderr
    explicit = run(runner, "--db", db, "period", "close", "2010-10")
    assert explicit.exit_code == 1 and "2022" in explicit.stderr
    typo = run(runner, "--db", db, "game", "add", "Mirzoev Azer", "Hernandez Elvis", "1-0",
               "--date", "2021-12-31")
    assert typo.exit_code == 1 and "2022" in typo.stderr
    # Mirzoev 2527 v Hernandez 2282 in Nov 2025 (their Gros ratings, in force since 2010-09):
    # D = 245 -> band 236-245 -> PD .80 / .20. Mirzoev: a published 2527 >= 2400 -> K 10;
    # 10 x (1 - .80) = +2.0 -> +2. Hernandez (born 1981, history unknown: established) K 20;
    # 20 x (0 - .20) = -4.0 -> -4.
    added = run(runner, "--db", db, "game", "add", "Mirzoev Azer", "Hernandez Elvis", "1-0",
                "--date", "2025-11-05")
    assert added.exit_code == 0, added.stderr
    closed = ok_json(run(runner, "--db", db, "period", "close", "--json"))
    assert closed["period"] == "2025-11"
    assert {r["name"]: r["change"] for r in closed["results"]} == {
        "Mirzoev Azer": 2, "Hernandez Elvis": -4}
    # a later import of an old file still records (its period is never closed)
    ok_json(run(runner, "--db", db, "import", KILKENNY, "--register-players", "--ids",
                "national", "--json"))


# ------------------------------------------------------------------------------------------------
# C15, C16, C18 (docs/CASES.md), Nov 2025. Ledger ratings A 1800, B 1900, C 1700,
# D 2000, E 1800, all K 20 (adults, 100 earlier rated games).

HEADER = "012 Placeholder Club Ch\n042 2025/11/03\n052 2025/11/24\n"
# C15's three lines exactly as written in the case:
C15_A = ("001    1 m    Player, A                         1800 XXX    90000001 1990/01/01  3.0    1"
         "     2 w +     3 b 1     4 w D     5 b =")
C15_B = ("001    2 m    Player, B                         1900 XXX    90000002 1988/01/01  1.0    4"
         "     1 b -     4 b 1     5 w 0     3 w 0")
C15_D = ("001    4 m    Player, D                         2000 XXX    90000004 1985/01/01  0.5    5"
         "     5 w 0     2 w 0     1 b D  0000 - Z")
# C's and E's lines, omitted in the case, written to agree with the three above:
# R1 A-B (+/-), D-E (E wins), C bye; R2 C-A (A wins), B-D (B wins), E bye;
# R3 A-D (D, less than one move), B-E (E wins), C bye; R4 E-A (=), B-C (C wins), D bye.
C15_C = ("001    3 m    Player, C                         1700 XXX    90000003 1992/01/01  2.5    3"
         "  0000 - U     1 w 0  0000 - H     2 b 1")
C15_E = ("001    5 w    Player, E                         1800 XXX    90000005 1995/01/01  3.5    2"
         "     4 b 1  0000 - U     2 b 1     1 w =")
# C16: (a) E's valid line, (b) as the faulty exporter wrote it; C's line agrees with (a)
C16_E = ("001    5 w    Player, E                         1800 XXX    90000005 1995/01/01  3.5    2"
         "  0000 - U  0000 - F  0000 - H     3 w 0")
C16_E_BAD = ("001    5 w    Player, E                         1800 XXX    90000005 1995/01/01  2.0    2"
             "     2 b Z     3 w 0")
C16_C = ("001    3 m    Player, C                         1700 XXX    90000003 1992/01/01  2.5    1"
         "  0000 - H  0000 - H  0000 - H     5 b 1")
# C's line agreeing with (b), where E meets C in round 2
C16_C_FOR_BAD = ("001    3 m    Player, C                         1700 XXX    90000003 1992/01/01"
                 "  1.5    1  0000 - H     5 b 1")


def _players(runner: CliRunner, db: str) -> None:
    for letter, rating, fide_id in (("A", 1800, 90000001), ("B", 1900, 90000002),
                                    ("C", 1700, 90000003), ("D", 2000, 90000004),
                                    ("E", 1800, 90000005)):
        added = run(runner, "--db", db, "player", "add", f"Player, {letter}", "--rating",
                    str(rating), "--prior-games", "100", "--fide-id", str(fide_id))
        assert added.exit_code == 0, added.stderr


def _write(tmp_path: Path, name: str, *lines: str, end: str = "\n") -> Path:
    path = tmp_path / name
    path.write_bytes(end.join(lines).encode("utf-8") + end.encode())
    return path


def _changes(runner: CliRunner, db: str) -> dict[str, tuple[int, int]]:
    closed = ok_json(run(runner, "--db", db, "period", "close", "2025-11", "--json"))
    return {r["name"]: (r["change"], r["games"]) for r in closed["results"]}


def test_columns_of_the_case_lines() -> None:
    # the case's ruler: rating 49-52, FIDE id 58-68, round 1 opponent 92-95, result at 99
    assert C15_A[48:52] == "1800" and C15_A[57:68].strip() == "90000001"
    assert C15_A[91:95] == "   2" and C15_A[96] == "w" and C15_A[98] == "+"
    assert C16_E_BAD[91:99] == "   2 b Z"


def test_c15_forfeits_and_less_than_one_move_not_rated(runner: CliRunner, db: str,
                                                       tmp_path: Path) -> None:
    _players(runner, db)
    path = _write(tmp_path, "c15.trf", HEADER + C15_A, C15_B, C15_C, C15_D, C15_E)
    report = ok_json(run(runner, "--db", db, "import", path, "--json"))
    # 8 games: R1 A-B +, D-E; R2 C-A, B-D; R3 A-D D, B-E; R4 E-A, B-C
    assert report["recorded"] == 8
    assert report["not_rated"] == {"forfeit": 1, "less than one move": 1}
    assert report["to_rate"] == 6
    changes = _changes(runner, db)
    # A: R2 win v C: D=+100 -> .64 -> +.36; R4 draw v E: D=0 -> .50 -> 0. 20 x .36 = 7.2 -> +7
    assert changes["Player, A"] == (7, 2)
    # B: R2 win v D (D=-100 -> .36: +.64), R3 loss v E (D=+100 -> .64: -.64), R4 loss v C
    # (D=+200 -> .76: -.76): sum -.76 -> 20 x -.76 = -15.2 -> -15
    assert changes["Player, B"] == (-15, 3)
    # D: R1 loss v E (D=+200 -> .76: -.76), R2 loss v B (D=+100 -> .64: -.64): -1.40 -> -28
    assert changes["Player, D"] == (-28, 2)


def test_c16a_byes_are_not_games(runner: CliRunner, db: str, tmp_path: Path) -> None:
    _players(runner, db)
    path = _write(tmp_path, "c16a.trf", HEADER + C16_C, C16_E)
    report = ok_json(run(runner, "--db", db, "import", path, "--json"))
    assert report["recorded"] == 1
    changes = _changes(runner, db)
    # E: R4 loss v C: D=+100 -> PD .64 -> -.64 x 20 = -12.8 -> -13, n = 1
    assert changes["Player, E"] == (-13, 1)
    # C: D=-100 -> PD .36 -> +.64 x 20 = +12.8 -> +13
    assert changes["Player, C"] == (13, 1)


def test_c16b_z_with_an_opponent_refuses_the_file(runner: CliRunner, db: str,
                                                  tmp_path: Path) -> None:
    _players(runner, db)
    path = _write(tmp_path, "c16b.trf", HEADER + C16_C_FOR_BAD, C16_E_BAD)
    result = run(runner, "--db", db, "import", path)
    assert result.exit_code == 3
    # E's line is line 5 (three header lines, C's line); round 1's cell is columns 92-99
    [(line, column, message)] = errors_of(result)
    assert (line, column) == (5, "col 92-99")
    assert "'Z'" in message and "opponent 2" in message
    assert ok_json(run(runner, "--db", db, "game", "list", "--json")) == {"games": []}


C18_A = ("001    1 m    Player, A                         1800 XXX    90000001 1990/01/01  1.0    1"
         "     2 w 1  0000 - ")
C18_B = ("001    2 m    Player, B                         1900 XXX    90000002 1988/01/01  0.0    2"
         "     1 b 0  0000 - ")


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"], ids=["CR", "CRLF", "LF"])
def test_c18_line_endings(runner: CliRunner, tmp_path: Path, new_ledger: Factory,
                          end: str) -> None:
    assert len(C18_A) == 108 and C18_A.endswith("- ")  # the kept trailing blank at column 108
    db = new_ledger("c18")
    _players(runner, db)
    # The case file exactly as written: no dates at all (no 052, no 132).
    path = _write(tmp_path, "c18.trf", "012 Placeholder Club Championship", "XXR 2",
                  C18_A, C18_B, end=end)
    # Without --end-date the ledger cannot place the games: refused, with the hint.
    refused = run(runner, "--db", db, "import", path)
    assert refused.exit_code == 3
    [(line, column, message)] = errors_of(refused)
    assert (line, column) == (3, "052") and "--end-date YYYY-MM-DD" in message
    # The case says Nov 2025: the rating officer gives the end date.
    report = ok_json(run(runner, "--db", db, "import", path, "--end-date", "2025-11-20",
                         "--json"))
    assert (report["players_in_file"], report["recorded"], report["to_rate"]) == (2, 1, 1)
    assert not [p for p in report["problems"] if p["severity"] == "error"]
    [game] = ok_json(run(runner, "--db", db, "game", "list", "--json"))["games"]
    assert game["date"] == "2025-11-20"
    # A beat B: D=-100 -> A's PD .36 -> +.64 x 20 = 12.8 -> +13; B: PD .64 -> -.64 -> -13
    assert _changes(runner, db) == {"Player, A": (13, 1), "Player, B": (-13, 1)}


def test_end_date_differing_from_the_files_is_refused(runner: CliRunner, db: str,
                                                      tmp_path: Path) -> None:
    _players(runner, db)
    dated = _write(tmp_path, "dated.trf", "012 Club", "052 2025/11/21", C18_A, C18_B)
    result = run(runner, "--db", db, "import", dated, "--end-date", "2025-11-20")
    assert result.exit_code == 2
    assert "--end-date 2025-11-20 differs from the end date 2025-11-21" in result.stderr
    assert "dated.trf:2:" in result.stderr and "record 052" in result.stderr
    assert ok_json(run(runner, "--db", db, "game", "list", "--json")) == {"games": []}
    # the same date as the file's: accepted
    ok_json(run(runner, "--db", db, "import", dated, "--end-date", "2025-11-21", "--json"))


def test_end_date_before_the_start_date_is_refused(runner: CliRunner, db: str,
                                                   tmp_path: Path) -> None:
    _players(runner, db)
    started = _write(tmp_path, "started.trf", "012 Club", "042 2025/11/22", C18_A, C18_B)
    result = run(runner, "--db", db, "import", started, "--end-date", "2025-11-20")
    assert result.exit_code == 3
    [(line, column, message)] = errors_of(result)
    assert (line, column) == (2, "col 5") and "2025-11-22" in message and "2025-11-20" in message


def test_end_date_is_for_trf_only(runner: CliRunner, db: str, tmp_path: Path) -> None:
    pgn = tmp_path / "one.pgn"
    pgn.write_text('[White "Player, A"]\n[Black "Player, B"]\n[Result "1-0"]\n'
                   '[Date "2025.11.05"]\n\n1. e4 e5 1-0\n')
    result = run(runner, "--db", db, "import", pgn, "--end-date", "2025-11-20")
    assert result.exit_code == 2
    assert "--end-date is for a TRF without dates" in result.stderr


# ------------------------------------------------------------------------------------------------
# Malformed lines: refused with line and column, nothing written


GOOD_B = C18_B.rstrip()


@pytest.mark.parametrize(("bad", "column", "words"), [
    # one blank too many before the rank shifts every field one column right
    ("001     1 m    Player, A                         1800 XXX    90000001 1990/01/01  1.0    1"
     "     2 w 1", "col 9", "shifted"),
    # a 34-character name (columns 15-48) pushes the rating out of columns 49-52
    ("001    1 m    " + "Player, Abcdefghijklmnopqrstuvwxyz" + " 1800 XXX    90000001 1990/01/01  "
     "1.0    1     2 w 1", "col 48", "name runs past column 47"),
    # a result code that does not exist
    ("001    1 m    Player, A                         1800 XXX    90000001 1990/01/01  1.0    1"
     "     2 w X", "col 99", "does not exist"),
    # a zero-point bye with an opponent number
    ("001    1 m    Player, A                         1800 XXX    90000001 1990/01/01  1.0    1"
     "     2 w Z", "col 92-99", "bye"),
])
def test_malformed_player_lines_refused_with_line_and_column(
        runner: CliRunner, db: str, tmp_path: Path, bad: str, column: str, words: str) -> None:
    _players(runner, db)
    path = _write(tmp_path, "bad.trf", HEADER + bad, GOOD_B)
    result = run(runner, "--db", db, "import", path, "--register-players")
    assert result.exit_code == 3
    found = errors_of(result)
    assert found and found[0][:2] == (4, column), result.stderr
    assert words in found[0][2]
    assert "nothing was written" in result.stderr
    assert ok_json(run(runner, "--db", db, "game", "list", "--json")) == {"games": []}


def test_lines_that_disagree_are_refused(runner: CliRunner, db: str, tmp_path: Path) -> None:
    _players(runner, db)
    # A says it beat B in round 1; B's line says B won
    path = _write(tmp_path, "disagree.trf", HEADER + C18_A.rstrip(),
                  GOOD_B.replace("1 b 0", "1 b 1"))
    result = run(runner, "--db", db, "import", path)
    assert result.exit_code == 3
    [(line, column, message)] = errors_of(result)
    assert (line, column) == (4, "col 92-99")
    assert "line 5" in message and "must agree" in message


# ------------------------------------------------------------------------------------------------
# Dry run, re-import, the same game with another result


def test_dry_run_writes_nothing(runner: CliRunner, db: str) -> None:
    report = ok_json(run(runner, "--db", db, "import", GROS, "--register-players",
                         "--dry-run", "--json"))
    assert (report["dry_run"], report["recorded"], len(report["players_registered"])) == (
        True, 93, 51)
    assert ok_json(run(runner, "--db", db, "player", "list", "--json")) == {"pool": "standard",
                                                                             "players": []}
    assert ok_json(run(runner, "--db", db, "game", "list", "--json")) == {"games": []}
    again = ok_json(run(runner, "--db", db, "import", GROS, "--register-players", "--json"))
    assert (again["already_imported"], again["recorded"]) == (False, 93)


def test_reimport_adds_nothing(runner: CliRunner, db: str, tmp_path: Path) -> None:
    ok_json(run(runner, "--db", db, "import", GROS, "--register-players", "--json"))
    same = ok_json(run(runner, "--db", db, "import", GROS, "--register-players", "--json"))
    assert (same["already_imported"], same["recorded"], same["players_registered"]) == (
        True, 0, [])
    # the same games in other bytes (CRLF line ends): each game's natural key finds it
    crlf = tmp_path / "gros-crlf.trf"
    crlf.write_bytes(GROS.read_bytes().replace(b"\n", b"\r\n"))
    other = ok_json(run(runner, "--db", db, "import", crlf, "--register-players", "--json"))
    assert (other["already_imported"], other["recorded"], other["already_recorded"]) == (
        False, 0, 93)
    assert other["players_registered"] == []
    assert len(ok_json(run(runner, "--db", db, "game", "list", "--json"))["games"]) == 93


def test_same_game_with_another_result_shows_both(runner: CliRunner, db: str,
                                                  tmp_path: Path) -> None:
    ok_json(run(runner, "--db", db, "import", GROS, "--register-players", "--json"))
    text = GROS.read_text(encoding="utf-8")
    # round 1, Mirzoev (rank 1) beat Orube Bona (rank 26): `26 w 1` / `1 b 0` -> made a draw
    changed = text.replace("    26 w 1    13 b 1", "    26 w =    13 b 1").replace(
        "     1 b 0    38 w 1", "     1 b =    38 w 1")
    assert changed.count("26 w =    13 b 1") == 1 and changed.count("1 b =    38 w 1") == 1
    path = tmp_path / "gros-changed.trf"
    path.write_text(changed, encoding="utf-8")
    result = run(runner, "--db", db, "import", path)
    assert result.exit_code == 3
    [(line, column, message)] = errors_of(result)
    assert (line, column) == (14, "col 99")  # Mirzoev's line (after 12 header lines and XXR)
    assert "recorded as 1-0 (game " in message and "the file says 1/2-1/2" in message


# ------------------------------------------------------------------------------------------------
# Rating in the file differs from the ledger's


def test_an_event_of_a_closed_period_is_a_late_result(runner: CliRunner, db: str,
                                                      tmp_path: Path) -> None:
    _players(runner, db)
    first = _write(tmp_path, "c18.trf", "012 Club", "052 2025/11/20", C18_A, C18_B)
    ok_json(run(runner, "--db", db, "import", first, "--json"))
    # A 1800 beats B 1900: D -100 -> PD .36 -> +0.64 x 20 = 12.8 -> +13 -> 1813; B -13 -> 1887
    assert _changes(runner, db) == {"Player, A": (13, 1), "Player, B": (-13, 1)}
    late = _write(tmp_path, "late.trf", "012 Late Cup", "052 2025/11/21", C18_A, C18_B)
    report = ok_json(run(runner, "--db", db, "import", str(late), "--json"))
    assert report["periods"] == {"2025-12": 1}
    assert [(x["line"], x["date"], x["dated_in"], x["period"]) for x in report["late"]] == [
        (3, "2025-11-21", "2025-11", "2025-12")]
    text = run(runner, "--db", db, "import", str(_write(tmp_path, "late2.trf", "012 Late Cup 2",
                                                          "052 2025/11/22", C18_A, C18_B)),
               "--dry-run")
    assert "late results: 1 game dated in closed period(s) 2025-11, recorded in 2025-12" \
        in " ".join(text.stdout.split())
    # rated in December with the ratings in force at the event's start (the November list:
    # 1800 v 1900), from December's base: A 1813 + 13 = 1826, B 1887 - 13 = 1874
    closed = ok_json(run(runner, "--db", db, "period", "close", "2025-12", "--json"))
    assert {r["name"]: (r["rating_before"], r["change"], r["rating_after"])
            for r in closed["results"]} == {"Player, A": (1813, 13, 1826),
                                            "Player, B": (1887, -13, 1874)}
    assert [g["dated_in"] for g in closed["late_games"]] == ["2025-11"]
    november = ok_json(run(runner, "--db", db, "list", "--period", "2025-11", "--json"))
    assert {p["name"]: p["rating"] for p in november["players"]
            if p["name"] in ("Player, A", "Player, B")} == {"Player, A": 1813,
                                                            "Player, B": 1887}  # it stands


def test_file_rating_differs_warns_and_ledger_rating_used(runner: CliRunner, db: str,
                                                          tmp_path: Path) -> None:
    _players(runner, db)
    path = _write(tmp_path, "c18.trf", "012 Club", "052 2025/11/20",
                  C18_A.replace("1800 XXX", "1850 XXX"), C18_B)
    report = ok_json(run(runner, "--db", db, "import", path, "--json"))
    [warning] = [p for p in report["problems"] if p["severity"] == "warning"]
    assert (warning["line"], warning["field"]) == (3, "col 49-52 rating")
    assert "the file says 1850" in warning["message"] and "1800" in warning["message"]
    # still A 1800 v B 1900: +13 / -13 as in C18
    assert _changes(runner, db) == {"Player, A": (13, 1), "Player, B": (-13, 1)}


# ------------------------------------------------------------------------------------------------
# Export: TRF-16 of an event, read back into a fresh ledger


def test_export_trf_round_trip(runner: CliRunner, db: str, tmp_path: Path,
                               new_ledger: Factory) -> None:
    _players(runner, db)
    ok_json(run(runner, "--db", db, "import",
                _write(tmp_path, "c15.trf", HEADER + C15_A, C15_B, C15_C, C15_D, C15_E), "--json"))
    out = tmp_path / "export.trf"
    written = run(runner, "--db", db, "export", "trf", "--event", "placeholder club ch",
                  "--output", out)
    assert written.exit_code == 0, written.stderr
    fresh = new_ledger("fresh")
    back = ok_json(run(runner, "--db", fresh, "import", out, "--register-players", "--json"))
    assert back["recorded"] == 8

    def games(path: str) -> list[tuple[str, ...]]:
        listed = ok_json(run(runner, "--db", path, "game", "list", "--json"))["games"]
        return sorted((g["event"], g["round"], g["date"], g["white"], g["black"], g["result"],
                       g["status"]) for g in listed)

    def players(path: str) -> list[tuple[Any, ...]]:
        listed = ok_json(run(runner, "--db", path, "player", "list", "--json"))["players"]
        return sorted((p["name"], p["fide_id"], p["rating"]) for p in listed)

    assert games(fresh) == games(db)
    assert ("Placeholder Club Ch", "3", "2025-11-24", "Player, A", "Player, D", "1/2-1/2",
            "no moves") in games(fresh)
    assert players(fresh) == players(db)
    # and the exported text itself reads as TRF-16: header and five player lines
    text = out.read_text(encoding="utf-8").splitlines()
    assert text[:3] == ["012 Placeholder Club Ch", "042 2025/11/03", "052 2025/11/24"]
    assert sum(line.startswith("001") for line in text) == 5


# The ledger records games, not byes: C15's C had a U bye (R1) and an H bye (R3), E a U bye (R2).
# Recorded games only: A + (1) 1 D(.5) = (.5) = 3.0; E 1 1 = -> 2.5; B 0 1 0 0 = 1.0;
# C 0 1 = 1.0; D 0 0 D(.5) = 0.5. Start ranks by rating: D 2000, B 1900, A 1800, E 1800 (name),
# C 1700 -> 1..5; places by points then start rank: A 1, E 2, B 3 (rank 2), C 4 (rank 5), D 5.
# So C's line, `2.5    3` (points 81-84, rank 86-89) in the file, is `1.0    4` in the export.
GAMES_ONLY = ("note: points and ranks count only the games recorded in the ledger (byes and "
              "unrecorded games are not in it)")


def test_export_says_points_and_ranks_count_recorded_games_only(
        runner: CliRunner, db: str, tmp_path: Path) -> None:
    _players(runner, db)
    source = _write(tmp_path, "c15.trf", HEADER + C15_A, C15_B, C15_C, C15_D, C15_E)
    ok_json(run(runner, "--db", db, "import", source, "--json"))
    assert C15_C[80:89] == " 2.5    3"
    out = tmp_path / "export.trf"
    written = run(runner, "--db", db, "export", "trf", "--event", "placeholder club ch",
                  "--output", out)
    assert written.exit_code == 0, written.stderr
    text = out.read_text(encoding="utf-8").splitlines()
    line_c = next(line for line in text if "Player, C" in line)
    assert line_c[80:89] == " 1.0    4"
    places = {line[14:47].strip(): line[80:89] for line in text if line.startswith("001")}
    assert places == {"Player, A": " 3.0    1", "Player, E": " 2.5    2",
                      "Player, B": " 1.0    3", "Player, C": " 1.0    4",
                      "Player, D": " 0.5    5"}
    # said on stderr and, as TRF-2026 comment lines (`###`), in the file before the players
    assert GAMES_ONLY in written.stderr
    authority = (f"the event was imported from the TRF file {source}: that file is the "
                 "authority for its points, ranks and byes")
    assert f"note: {authority}" in written.stderr
    comments = [line for line in text if line.startswith("###")]
    assert comments[0].startswith("### " + GAMES_ONLY.removeprefix("note: "))
    assert comments[1] == f"### {authority}"
    assert text.index(comments[-1]) < min(i for i, line in enumerate(text)
                                          if line.startswith("001"))
    # on stdout, the TRF alone; the notes still on stderr
    shown = run(runner, "--db", db, "export", "trf", "--event", "placeholder club ch")
    assert shown.stdout.splitlines() == text
    assert GAMES_ONLY in shown.stderr


def test_export_of_games_added_by_hand_names_no_file(runner: CliRunner, db: str) -> None:
    _players(runner, db)
    added = run(runner, "--db", db, "game", "add", "Player, A", "Player, B", "1-0", "--date",
                "2025-11-03", "--event", "Club Match", "--round", "1")
    assert added.exit_code == 0, added.stderr
    shown = run(runner, "--db", db, "export", "trf", "--event", "club match")
    assert shown.exit_code == 0, shown.stderr
    assert shown.stderr.count("note:") == 1 and GAMES_ONLY in shown.stderr
    assert [line for line in shown.stdout.splitlines() if line.startswith("###")] == [
        "### " + GAMES_ONLY.removeprefix("note: ")
        + ", so they can differ from the event's own standings"]


def test_export_of_an_unknown_event_is_refused(runner: CliRunner, db: str) -> None:
    result = run(runner, "--db", db, "export", "trf", "--event", "Nowhere Open")
    assert result.exit_code == 1 and "no event named" in result.stderr


@pytest.mark.parametrize(("ref", "message"), [
    ("#²", "event: no event named '#²'"),  # not an #ID: int() refuses '²' although isdigit() takes it
    ("#" + "9" * 25, "event: no event with id #" + "9" * 25),  # beyond any id SQLite can hold
])
def test_export_of_an_event_id_no_event_can_have(runner: CliRunner, db: str, ref: str,
                                                  message: str) -> None:
    result = run(runner, "--db", db, "export", "trf", "--event", ref)
    assert result.exit_code == 1 and result.stderr == f"error: {message}\n"


def _dated_c18(tmp_path: Path, name: str, b_line: str) -> Path:
    """C18's two players, dated Nov 2025, with B's line replaced by ``b_line``."""
    return _write(tmp_path, name, "012 Placeholder Club Championship", "052 2025/11/20", "XXR 2",
                  C18_A, b_line)


def test_a_rating_below_the_floor_is_registered_with_a_warning(runner: CliRunner, db: str,
                                                               tmp_path: Path) -> None:
    # Nov 2025: the rules of 2025-10 put the floor at 1400 (RULES §6); FIDE publishes no 1200.
    low_b = C18_B.replace("1900 XXX", "1200 XXX")
    path = _dated_c18(tmp_path, "low.trf", low_b)
    result = run(runner, "--db", db, "import", path, "--register-players")
    assert result.exit_code == 0, result.stderr
    assert re.search(r"low\.trf:5: warning: [^:]*: 1200 is below the rating floor 1400 of the rules "
                     r"in force for 2025-11; FIDE publishes no rating below it", result.stderr)
    shown = ok_json(run(runner, "--db", db, "player", "show", "Player, B", "--json"))
    assert shown["rating"] == 1200  # recorded as given


def test_player_add_below_the_floor_says_so(runner: CliRunner, db: str) -> None:
    added = run(runner, "--db", db, "player", "add", "Low, Lou", "--rating", "1399", "--prior-games", "0")
    assert added.exit_code == 0, added.stderr
    assert "1399 is below the rating floor 1400" in " ".join(added.output.split())
    fine = run(runner, "--db", db, "player", "add", "Fine, Fay", "--rating", "1400", "--prior-games", "0")
    assert "floor" not in fine.output


def test_a_refused_registration_names_the_column_of_the_field(runner: CliRunner, db: str,
                                                              tmp_path: Path) -> None:
    # B's birth date 1790/01/01 (columns 70-79): not a plausible year of birth for a new player
    old_b = C18_B.replace("1988/01/01", "1790/01/01")
    path = _dated_c18(tmp_path, "old.trf", old_b)
    result = run(runner, "--db", db, "import", path, "--register-players")
    assert result.exit_code == 3
    assert errors_of(result) == [
        (5, "col 70-79 birth date", "birth-year: 1790 is not a plausible year of birth")]
