"""The PGN reader as strict as the TRF and CSV readers (issue 22 §4): a tag the ledger reads
that is not a tag pair, and an Elo tag that is not a rating, reject the file (exit 3, every
problem named by file, line and tag, nothing written), with ``--quiet`` too."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_runs import data, run

GAME = """[Event "Spring Open"]
[Site "Riverside"]
[Date "2026.01.10"]
[Round "1"]
[White "Doyle, Liam"]
[Black "Walsh, Tom"]
[Result "1-0"]
[WhiteElo "1800"]
[BlackElo "1700"]

1. e4 e5 2. Nf3 Nc6 1-0

[Event "Spring Open"]
[Site "Riverside"]
[Date "2026.01.11"]
[Round "2"]
[White "Walsh, Tom"]
[Black "Doyle, Liam"]
[Result "0-1"]

1. d4 d5 2. c4 e6 0-1
"""


def nothing_written(db: str) -> None:
    assert data(db, "player", "list")["players"] == []
    assert data(db, "game", "list")["games"] == []


@pytest.mark.parametrize(("good", "bad", "line"), [
    ('[Event "Spring Open"]', '[Event "Spring Open]', 1),
    ('[Event "Spring Open"]', "[Event Spring Open]", 1),
    ('[Round "1"]', '[Round "1]', 4),
    ('[Site "Riverside"]', '[Site "Riverside]', 2),
    ('[Site "Riverside"]', "[Site Riverside]", 2),
])
@pytest.mark.parametrize("quiet", [(), ("--quiet",)], ids=["", "quiet"])
def test_a_malformed_tag_the_ledger_reads_rejects_the_file(
        ledger_db: str, tmp_path: Path, good: str, bad: str, line: int,
        quiet: tuple[str, ...]) -> None:
    path = tmp_path / "spring.pgn"
    path.write_text(GAME.replace(good, bad, 1))
    result = run(ledger_db, "import", str(path), "--register-players", *quiet)
    assert result.exit_code == 3
    tag = good[1:].split()[0]
    assert result.stderr.splitlines() == [
        f'{path}:{line}: error: {tag}: not a tag pair [{tag} "value"] (an unterminated or '
        f"unquoted value): the {tag} tag cannot be read",
        f"error: {path}: import rejected, nothing was written"]
    nothing_written(ledger_db)


def test_a_malformed_tag_the_ledger_does_not_read_is_still_a_warning(
        ledger_db: str, tmp_path: Path) -> None:
    path = tmp_path / "spring.pgn"
    path.write_text(GAME.replace('[Site "Riverside"]', '[Annotator "Someone]', 1))
    result = run(ledger_db, "import", str(path), "--register-players")
    assert result.exit_code == 0, result.output
    assert f'{path}:2: warning: tags: not a tag pair [Name "value"]: line ignored' in result.stderr


@pytest.mark.parametrize("elo", ["abc", "-5", "99999", "2700.5"])
def test_an_elo_tag_that_is_not_a_rating_rejects_the_file(ledger_db: str, tmp_path: Path,
                                                         elo: str) -> None:
    path = tmp_path / "spring.pgn"
    path.write_text(GAME.replace('[BlackElo "1700"]', f'[BlackElo "{elo}"]', 1))
    result = run(ledger_db, "import", str(path), "--register-players", "--quiet")
    assert result.exit_code == 3
    assert result.stderr.splitlines() == [
        f"{path}:9: error: BlackElo: '{elo}' is not a rating (a whole number, at most 4 digits; "
        "empty, ?, - or 0: none)",
        f"error: {path}: import rejected, nothing was written"]
    nothing_written(ledger_db)


def test_the_file_with_its_tags_as_written_imports(ledger_db: str, tmp_path: Path) -> None:
    path = tmp_path / "spring.pgn"
    path.write_text(GAME)
    report = data(ledger_db, "import", str(path), "--register-players")
    assert (report["recorded"], report["registered_established"],
            report["registered_unrated"]) == (2, ["Doyle, Liam", "Walsh, Tom"], [])
    games = data(ledger_db, "game", "list")["games"]
    assert [(g["event"], g["round"]) for g in games] == [("Spring Open", "1"),
                                                         ("Spring Open", "2")]


def test_variations_nested_3000_deep_are_read(ledger_db: str, tmp_path: Path) -> None:
    # issue 22 §4 reported the raw exception text for this; python-chess 1.11 reads nested
    # variations without recursion: the game is read as any other (a guard against a reader
    # that recurses)
    path = tmp_path / "deep.pgn"
    deep = "1. e4 e5 " + "( 1... d5 " * 3000 + ")" * 3000 + " 2. Nf3 1-0\n"
    path.write_text(GAME.split("\n\n1. e4")[0] + "\n\n" + deep)
    report = data(ledger_db, "import", str(path), "--register-players")
    assert (report["games_in_file"], report["recorded"]) == (1, 1)
