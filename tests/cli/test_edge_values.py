"""Edges of values typed on the command line (issue 22 §5): a club name with a control or
format character; a time control longer than any real game; ids, revisions and FIDE ids past
the database's integer range, refused before the database is asked, in the same words on SQLite
and PostgreSQL (run with ``--database-url``: ``bash .ci/postgres-tests``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_runs import ok, run

#: PostgreSQL's ``integer`` (the ids and revisions) ends at 2**31 - 1; ``bigint`` (FIDE ids in
#: the database) at 2**63 - 1.
PAST_INTEGER = "2147483648"
PAST_BIGINT = "9223372036854775808"


@pytest.mark.parametrize(("value", "shown"), [
    ("River\x1b[31mside", "a control character (U+001B) at character 6"),
    ("Riverside \u202eCC", "a format character (U+202E RIGHT-TO-LEFT OVERRIDE) at character 11"),
])
@pytest.mark.parametrize("given", ["option", "environment"])
def test_a_club_name_with_a_control_or_format_character_is_refused(
        ledger_db: str, tmp_path: Path, value: str, shown: str, given: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    if given == "option":
        result = run(ledger_db, "site", "build", str(site), "--club", value)
        where = "--club"
    else:
        monkeypatch.setenv("LEDGER_CLUB", value)
        result = run(ledger_db, "site", "build", str(site))
        where = "$LEDGER_CLUB"
    assert result.exit_code == 1
    assert result.stderr == (f"error: {where}: holds {shown}: a club's name is one line of "
                             "visible text\n")
    assert not site.exists()


def test_a_club_name_of_visible_text_heads_the_site(ledger_db: str, tmp_path: Path) -> None:
    ok(ledger_db, "site", "build", str(tmp_path / "site"), "--club", "Riverside CC – Åbo")
    assert "<h1>Riverside CC – Åbo</h1>" in (tmp_path / "site" / "index.html").read_text()


@pytest.mark.parametrize(("control", "minutes"), [
    ("1000000000000000000000000000001+1", "over a billion"),  # 10**30+1 seconds, PGN-style
    ("1441 min", "1441"),
    ("86401+0", "1440.02"),
])
def test_a_time_control_past_24_hours_is_refused(ledger_db: str, control: str,
                                                 minutes: str) -> None:
    ok(ledger_db, "player", "add", "Doyle, Liam")
    ok(ledger_db, "player", "add", "Walsh, Tom")
    result = run(ledger_db, "game", "add", "Doyle, Liam", "Walsh, Tom", "1-0", "--date",
                 "2026-01-10", "--time-control", control)
    assert result.exit_code == 1
    assert result.stderr == (f"error: time control: {minutes} minutes for 60 moves is more than "
                             "24 hours (1440 minutes); no real game is that long\n")
    assert "Games (0)" in ok(ledger_db, "game", "list").stdout


def test_a_time_control_of_24_hours_is_standard(ledger_db: str) -> None:
    ok(ledger_db, "player", "add", "Doyle, Liam")
    ok(ledger_db, "player", "add", "Walsh, Tom")
    ok(ledger_db, "game", "add", "Doyle, Liam", "Walsh, Tom", "1-0", "--date", "2026-01-10",
       "--time-control", "1440 min")
    assert "standard" in ok(ledger_db, "game", "list", "--json").stdout


@pytest.fixture
def closed(ledger_db: str) -> str:
    """A ledger with two players, one game and 2026-01 closed (revision 1)."""
    ok(ledger_db, "player", "add", "Doyle, Liam", "--rating", "1800", "--prior-games", "0")
    ok(ledger_db, "player", "add", "Walsh, Tom", "--rating", "1700", "--prior-games", "0")
    ok(ledger_db, "game", "add", "Doyle, Liam", "Walsh, Tom", "1-0", "--date", "2026-01-10",
       "--event", "Club")
    ok(ledger_db, "period", "close", "2026-01")
    return ledger_db


@pytest.mark.parametrize(("args", "message"), [
    (("player", "show", f"#{PAST_INTEGER}"), f"player: no player with id #{PAST_INTEGER}"),
    (("history", f"#{PAST_INTEGER}"), f"player: no player with id #{PAST_INTEGER}"),
    (("player", "show", PAST_BIGINT), f"player: no player with id or FIDE id {PAST_BIGINT}"),
    (("game", "void", PAST_INTEGER, "--reason", "typo", "--rerate"),
     f"game: no game with id {PAST_INTEGER}"),
    (("game", "correct", f"#{PAST_INTEGER}", "--result", "0-1", "--reason", "typo"),
     f"game: no game with id {PAST_INTEGER}"),
    (("event", "show", f"#{PAST_INTEGER}"), f"event: no event with id #{PAST_INTEGER}"),
    (("list", "--revision", PAST_INTEGER),
     f"revision: period 2026-01 has no revision {PAST_INTEGER} (it has revision(s) 1)"),
    (("list", "--period", "2026-01", "--revision", PAST_BIGINT),
     f"revision: period 2026-01 has no revision {PAST_BIGINT} (it has revision(s) 1)"),
    (("game", "add", f"#{PAST_INTEGER}", "Walsh, Tom", "1-0", "--date", "2026-02-01"),
     f"white: no player with id #{PAST_INTEGER}"),
], ids=lambda v: " ".join(v) if isinstance(v, tuple) else "")
def test_ids_past_the_integer_range_are_not_found_on_both_databases(
        closed: str, args: tuple[str, ...], message: str) -> None:
    result = run(closed, *args)
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines()[-1] == f"error: {message}"
