"""Submissions (issue 23), through ``services.submissions`` on a real ledger, with real files.

Data: examples/riverside-autumn-open-2026.pgn (the README's example): 15 games of "Riverside
Autumn Open 2026", 5 rounds of 3, 2026-09-05 to 2026-09-27, between 6 players given by FIDE id
(Okafor 90001001, Novak 90001002, Lindqvist 90001003, Byrne 90001004, Moreau 90001005, Tanaka
90001006), none in a new ledger; the last game (R5.3 Byrne v Moreau, from line 206) has no moves
while the others have: the reader records it as a forfeit, with a warning on its Result line
218. Line 23 is game 2's ``[Result "1/2-1/2"]``.

examples/data/tata_steel_masters_2022.pgn (see tests/integration/test_likely_duplicates.py): 91
games of January 2022; Carlsen 12 rated games, 2865 -> 2868 (+3, FIDE's figure, worked by hand
in test_tata_steel.py).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest
from data_files import EXAMPLE_DATA, data_file
from sqlalchemy import Engine, func, select

from ledger.db.models import Change, Game
from ledger.db.models.accounts import User
from ledger.db.models.submissions import Submission
from ledger.errors import ImportRejected, InvalidInput, NotFound, PeriodError
from ledger.services.close.periods import close_period
from ledger.services.core.session import transaction
from ledger.services.imports.games import import_file
from ledger.services.submissions import submissions as subs
from ledger.services.submissions.checking import UPLOAD_LIMIT
from ledger.services.submissions.preview import preview

RIVERSIDE = EXAMPLE_DATA.parent / "riverside-autumn-open-2026.pgn"
TATA = EXAMPLE_DATA / "tata_steel_masters_2022.pgn"
#: The day the tests run on (the periods of 2026-09 have ended: closable).
TODAY = dt.date(2026, 12, 2)


def _users(engine: Engine) -> tuple[int, int, int]:
    """Two reporters (ann, bob) and an officer (olga): their ids."""
    with transaction(engine) as session:
        made = [User(name=n, name_key=n, role=r, password_hash="-")
                for n, r in (("ann", "reporter"), ("bob", "reporter"), ("olga", "officer"))]
        session.add_all(made)
        session.flush()
        return made[0].id, made[1].id, made[2].id


def _count(engine: Engine, model: type) -> int:
    with transaction(engine, write=False) as session:
        return session.scalar(select(func.count()).select_from(model)) or 0


def test_a_file_is_stored_as_submitted_checked_and_never_rated_until_accepted(
        engine: Engine) -> None:
    ann, _, olga = _users(engine)
    data = RIVERSIDE.read_bytes()
    made = subs.submit(engine, ann, "riverside.pgn", data, {}, today=TODAY)
    assert made.state == "pending" and made.format == "pgn" and made.size == len(data)
    assert made.filename == "riverside.pgn" and made.user == "ann"
    with transaction(engine, write=False) as session:
        row = session.get(Submission, made.id)
        assert row is not None and row.content == data
    # the six players are unknown: `ledger import` refuses each, unless --register-players;
    # here one warning a player (the message is the same on each of their lines), plus the
    # reader's own warning of the game without moves on line 218
    assert made.errors == []
    unknown = [w for w in made.warnings if w["flag"] == "register_players"]
    assert sorted(w["message"].split("'")[1] for w in unknown) == [
        "Byrne, Sean", "Lindqvist, Erik", "Moreau, Claire", "Novak, Petra", "Okafor, Grace",
        "Tanaka, Hiro"]
    okafor = next(w for w in unknown if "Okafor" in w["message"])
    # Okafor plays White in R1.1 (line 6), Black in R2.1 (line 52), ... 5 games
    assert okafor["line"] == 6 and okafor["field"] == "White" and len(okafor["lines"]) == 5
    forfeit = [w for w in made.warnings if w["flag"] is None]
    assert [(w["line"], w["field"]) for w in forfeit] == [(218, "Result")]
    assert made.findings["flags"] == ["register_players"]
    assert made.findings["periods"] == ["2026-09"]
    assert made.findings["games"] == 15
    assert _count(engine, Game) == 0  # pending: not a game of the ledger

    # an officer who leaves one warning unticked is refused; nothing is written
    ticks = [w["id"] for w in made.warnings]
    with pytest.raises(InvalidInput, match="tick each warning to accept it; 1 not ticked"):
        subs.accept(engine, made.id, olga, ticks[1:], today=TODAY)
    assert _count(engine, Game) == 0
    assert subs.show(engine, made.id).state == "pending"

    done = subs.accept(engine, made.id, olga, ticks, today=TODAY)
    assert done.state == "accepted" and done.reviewed_by == "olga"
    assert _count(engine, Game) == 15  # the file's 15 games, the forfeit among them
    with transaction(engine, write=False) as session:
        change = session.get(Change, done.change_id)
        assert change is not None and change.action == "import" and change.by == "olga"
        assert change.command == "ledger serve: accept submission 1"
        assert json.loads(change.after or "{}")["submission"] == 1
        assert json.loads(change.after or "{}")["games_recorded"] == 15
    assert [(p.period, p.games, p.revision) for p in subs.placements(engine, made.id)] == [
        ("2026-09", 15, None)]
    with pytest.raises(InvalidInput, match="submission 1 is accepted"):
        subs.reject(engine, made.id, olga, "too late")


def test_a_bad_line_is_an_error_naming_the_line_and_field_as_the_import_says_it(
        engine: Engine, tmp_path: Path) -> None:
    ann, _, olga = _users(engine)
    lines = RIVERSIDE.read_text(encoding="utf-8").split("\n")
    assert lines[22] == '[Result "1/2-1/2"]'
    lines[22] = '[Result "2-0"]'
    bad = "\n".join(lines).encode("utf-8")
    made = subs.submit(engine, ann, "open.pgn", bad, {}, today=TODAY)
    assert made.errors == [{"file": "open.pgn", "line": 23, "field": "Result",
                            "message": "Result tag '2-0' is not a PGN result; use 1-0, 0-1 or "
                                       "1/2-1/2 (or ½-½)"}]
    # the same words as `ledger import` (its dry run, on the same bytes)
    path = tmp_path / "open.pgn"
    path.write_bytes(bad)
    with pytest.raises(ImportRejected) as refused:
        import_file(engine, str(path), None, dry_run=True, register_players=True)
    said = [p for p in refused.value.problems if p.severity == "error"]
    assert [(p.line, p.field, p.message) for p in said] == [
        (23, "Result", made.errors[0]["message"])]
    assert made.findings["periods"] == []  # a file with errors holds no close
    with pytest.raises(InvalidInput, match="1 error"):
        subs.accept(engine, made.id, olga, [w["id"] for w in made.warnings], today=TODAY)
    # the reporter corrects it and submits it again: the same submission, checked anew
    fixed = subs.resubmit(engine, made.id, ann, "open.pgn", RIVERSIDE.read_bytes(), {},
                          today=TODAY)
    assert fixed.id == made.id and fixed.errors == [] and len(fixed.warnings) == 7


@pytest.mark.parametrize(("data", "name", "message"), [
    (b"x" * (UPLOAD_LIMIT + 1), "big.pgn", "file: 10485761 bytes; a submission is at most 10 MB"),
    (b"[Event \"a\"]\n\x00\x01", "a.pgn", "file: binary bytes (a NUL byte at offset 12)"),
    (b"[Event \"Caf\xe9\"]\n", "a.pgn", "file: not UTF-8 text (byte 0xE9 at offset 11)"),
    (b"<html><body>hello</body></html>\n", "a.html", "file: not a format the ledger reads"),
    (b"  \n", "a.pgn", "file: the file is empty"),
])
def test_uploads_the_readers_cannot_take_are_refused_and_nothing_stored(
        engine: Engine, data: bytes, name: str, message: str) -> None:
    ann, _, _ = _users(engine)
    with pytest.raises(InvalidInput, match=re.escape(message)):
        subs.submit(engine, ann, name, data, {})
    assert _count(engine, Submission) == 0


def test_options_are_the_imports(engine: Engine) -> None:
    ann, _, _ = _users(engine)
    for options, message in (({"pool": "bullet"}, "pool"), ({"end_date": "2026-02-30"},
                             "end_date: 2026-02-30"), ({"no_moves": "x"}, "no_moves"),
                             ({"register_players": "1"}, "register_players: not an option")):
        with pytest.raises(InvalidInput, match=message):
            subs.submit(engine, ann, "r.pgn", RIVERSIDE.read_bytes(), options)
    assert _count(engine, Submission) == 0


def test_only_the_owner_withdraws_or_resubmits_a_pending_submission(engine: Engine) -> None:
    ann, bob, olga = _users(engine)
    made = subs.submit(engine, ann, "r.pgn", RIVERSIDE.read_bytes(), {}, today=TODAY)
    with pytest.raises(NotFound, match="submission 1: no such submission"):
        subs.withdraw(engine, made.id, bob)
    with pytest.raises(NotFound):
        subs.resubmit(engine, made.id, bob, "r.pgn", RIVERSIDE.read_bytes())
    assert [s.id for s in subs.mine(engine, ann)] == [1] and subs.mine(engine, bob) == []
    assert [s.id for s in subs.pending(engine)] == [1]
    assert subs.withdraw(engine, made.id, ann).state == "withdrawn"
    assert subs.pending(engine) == []
    with pytest.raises(InvalidInput, match="submission 1 is withdrawn"):
        subs.accept(engine, made.id, olga, [])
    assert _count(engine, Game) == 0


def test_a_rejection_needs_a_reason_the_reporter_reads(engine: Engine) -> None:
    ann, _, olga = _users(engine)
    made = subs.submit(engine, ann, "r.pgn", RIVERSIDE.read_bytes(), {}, today=TODAY)
    with pytest.raises(InvalidInput, match="reason: say why"):
        subs.reject(engine, made.id, olga, "  ")
    done = subs.reject(engine, made.id, olga, "Round 5 is missing <b>two</b> games")
    assert subs.show(engine, made.id).reason == "Round 5 is missing <b>two</b> games"
    assert done.state == "rejected" and done.reviewed_by == "olga"
    assert _count(engine, Game) == 0


def test_the_close_waits_for_pending_submissions_unless_told_then_they_are_late(
        engine: Engine) -> None:
    ann, _, olga = _users(engine)
    first = subs.submit(engine, ann, "r.pgn", RIVERSIDE.read_bytes(), {}, today=TODAY)
    subs.accept(engine, first.id, olga, [w["id"] for w in first.warnings], today=TODAY)
    # a second file: one more game of two players now known, on 2026-09-30 (period 2026-09)
    extra = (b'[Event "Riverside rapidplay"]\n[Date "2026.09.30"]\n[Round "1"]\n'
             b'[White "Okafor, Grace"]\n[Black "Novak, Petra"]\n[Result "0-1"]\n'
             b'[WhiteFideId "90001001"]\n[BlackFideId "90001002"]\n\n0-1\n')
    late = subs.submit(engine, ann, "extra.pgn", extra, {}, today=TODAY)
    assert late.errors == [] and late.warnings == [] and late.findings["periods"] == ["2026-09"]
    with pytest.raises(PeriodError, match="period 2026-09: submission 2 dated in it or "
                       "before is pending review"):
        close_period(engine, today=TODAY)
    close_period(engine, today=TODAY, dry_run=True)  # a dry run is not refused
    close_period(engine, today=TODAY, leave_pending=True)
    # checked again at the accept: now a late result, a warning to tick, rated in 2026-10
    # (named by the game's first line, as the import's report of late results names it)
    with pytest.raises(InvalidInput, match="1 not ticked: line 1: date: Okafor, Grace - Novak, Petra, "
                       "2026-09-30: a late result .its period 2026-09 is closed., rated in "
                       "2026-10"):
        subs.accept(engine, late.id, olga, [], today=TODAY)
    warned = subs.show(engine, late.id).warnings
    done = subs.accept(engine, late.id, olga, [w["id"] for w in warned], today=TODAY)
    assert [(p.period, p.games, p.revision) for p in subs.placements(engine, done.id)] == [
        ("2026-10", 1, None)]
    assert [(p.period, p.revision) for p in subs.placements(engine, first.id)] == [
        ("2026-09", 1)]


def test_the_preview_shows_each_players_expected_change(engine: Engine) -> None:
    ann, _, _ = _users(engine)
    made = subs.submit(engine, ann, "tata.pgn", TATA.read_bytes(), {},
                       today=dt.date(2022, 2, 5))
    seen = preview(engine, made.id, today=dt.date(2022, 2, 5))
    assert len(seen.games) == 91
    carlsen = [c for c in seen.changes if c.name == "Carlsen, Magnus"]
    # FIDE's figure: 12 rated games (the 13th a forfeit), 2865 + 3 = 2868
    assert [(c.period, c.rating_before, c.games, c.change, c.rating_after)
            for c in carlsen] == [("2022-01", 2865, 12, 3, 2868)]
    assert _count(engine, Game) == 0 and _count(engine, Change) == 1  # only the submit's


def test_a_corrected_file_of_an_accepted_event_is_reviewed_as_its_difference(
        engine: Engine) -> None:
    ann, bob, olga = _users(engine)
    first = subs.submit(engine, ann, "r.pgn", RIVERSIDE.read_bytes(), {}, today=TODAY)
    subs.accept(engine, first.id, olga, [w["id"] for w in first.warnings], today=TODAY)
    # game 2 (R1.2 Novak v Moreau, 2026-09-05) was a draw: the corrected file says 1-0
    text = RIVERSIDE.read_text(encoding="utf-8").split("\n")
    assert text[22] == '[Result "1/2-1/2"]' and text[28].endswith(" 1/2-1/2")
    text[22], text[28] = '[Result "1-0"]', text[28].replace("1/2-1/2", "1-0")
    fixed = "\n".join(text).encode("utf-8")
    with pytest.raises(NotFound):  # another reporter's event
        subs.submit(engine, bob, "r.pgn", fixed, {}, today=TODAY, replaces=first.id)
    close_period(engine, today=TODAY)  # 2026-09 closed: the correction needs a mode
    made = subs.submit(engine, ann, "r2.pgn", fixed, {}, today=TODAY, replaces=first.id)
    assert made.replaces == first.id and made.errors == []
    assert made.findings["event"] == "Riverside Autumn Open 2026"
    assert made.findings["difference"] == {
        "added": [], "removed": [], "unchanged": 14,
        "changed": ["R1.2 2026-09-05 Novak, Petra - Moreau, Claire 1/2-1/2 -> 1-0"]}
    # the mode the closed period needs, and the reader's forfeit warning of line 218
    assert [(w["flag"], w["line"]) for w in made.warnings] == [("in_next_period", None),
                                                              (None, 218)]
    assert "closed period 2026-09" in made.warnings[0]["message"]
    done = subs.accept(engine, made.id, olga, [w["id"] for w in made.warnings], today=TODAY)
    assert done.state == "accepted"
    with transaction(engine, write=False) as session:
        results = sorted((r, st) for r, st in session.execute(
            select(Game.result, Game.status).where(Game.round == "1.2")))
        change = session.get(Change, done.change_id)
        assert change is not None and change.action == "import.replace"
        assert change.reason == "a corrected file of submission 1 (web)"
    # the draw voided... or corrected in place: either way one valid game, now 1-0
    assert [r for r in results if r[1] == "valid"] == [("1-0", "valid")]


def test_a_trf_file_national_ids_and_an_old_bye(engine: Engine) -> None:
    """tests/data/icu_kilkenny_masters_2011.trf (tests/data/README.md): 34 players (one ``001``
    record each, lines 8 to 41), none in the ledger; dates 2011-11-25 to 2011-11-27 (052 on
    line 5), before 2022: recorded, never rated; an old-style bye ``0000 - =`` on line 17."""
    ann, _, _ = _users(engine)
    made = subs.submit(engine, ann, "kilkenny.tab", data_file(
        "icu_kilkenny_masters_2011.trf").read_bytes(), {}, today=TODAY)
    assert made.format == "trf" and made.errors == []
    unknown = [w for w in made.warnings if w["flag"] == "register_players"]
    assert len(unknown) == 34
    assert (unknown[0]["line"], unknown[0]["field"]) == (8, "col 15-47 name")
    assert "unknown player 'Jones,Gawain C.'" in unknown[0]["message"]
    own = [(w["line"], w["field"]) for w in made.warnings if w["flag"] is None]
    assert own == [(5, "052 end date"), (17, "col 99")]
    assert made.findings["periods"] == ["2011-11"]


def test_a_csv_file_with_a_bad_row(engine: Engine) -> None:
    ann, _, _ = _users(engine)
    csv = (b"date,white,black,result\n"
           b"2026-09-05,\"Okafor, Grace\",\"Novak, Petra\",1-0\n"
           b"2026-09-06,\"Novak, Petra\",\"Okafor, Grace\",2-0\n")
    made = subs.submit(engine, ann, "club.csv", csv, {"pool": "rapid"}, today=TODAY)
    assert made.format == "csv" and made.options == {"pool": "rapid"}
    # line 3 (the header is line 1), column result
    assert [(e["file"], e["line"], e["field"]) for e in made.errors] == [
        ("club.csv", 3, "result")]
