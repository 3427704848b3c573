"""A submitted file checked as ``ledger import --dry-run`` checks it, by the import itself
(``imports.games.import_games`` in a savepoint rolled back): no reader, match or check is
written here a second time.

What the import refuses unless told otherwise (each override of ``ledger import``:
``OVERRIDES``) becomes a warning an officer ticks (one for a message repeated on several lines:
``lines``); what it refuses whatever it is told stays an error; its own warnings are warnings
too, and its notes notes. Findings (``Findings.as_json``)::

    {"format": "trf", "games": 12, "periods": ["2026-09"],
     "errors": [{"file": "open.trf", "line": 7, "field": "col 5-8", "message": "..."}],
     "warnings": [{"id": "3f2a...", "flag": "allow_similar", "file": ..., "line": ...,
                   "field": ..., "message": ..., "lines": [7, 21]}],
     "notes": ["..."], "flags": ["allow_similar"], "integrity": [],
     "event": null, "difference": null}

``flags``: the overrides the accept passes to the import (each warning's ``flag``, None for the
import's own warnings); ``periods``: the periods the games would be recorded in (what a
close asks before it refuses: ``close.periods.pending_submissions``, whatever the pool);
``event`` and ``difference`` (``{"added": [...], "removed": [...], "changed": [...],
"unchanged": n}``, each game in words) for a corrected file (``check``'s ``replacing``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import PurePath
from typing import Any

from sqlalchemy.orm import Session

from ledger.domain import Actor
from ledger.errors import ImportRejected, InvalidInput, LedgerError, Problem
from ledger.formats.detect import detect_format
from ledger.services.corrections.effects import Mode
from ledger.services.corrections.replace import (
    DiffGame,
    ReplaceReport,
    apply_replacement,
    read_replacement,
)
from ledger.services.imports.game_files import GameBatches
from ledger.services.imports.games import import_games
from ledger.services.imports.report import ImportReport

#: The largest file a submission may be (10 MB: a federation's month of TRF is well under it);
#: ``ledger.web`` sizes its request bodies from it.
UPLOAD_LIMIT = 10 * 1024 * 1024

NUL = bytes(1)

#: The import's overrides a submission's warnings stand for: each is an error of ``ledger
#: import`` unless its option is given; here the officer's tick gives it. (``register_players``:
#: a player the ledger does not know is registered from the file, a request the officer grants.)
OVERRIDES: dict[str, str] = {
    "allow_similar": "a likely duplicate of a game recorded (import --allow-similar)",
    "late": "a date long before the open period, meant as a late result (import --late)",
    "new_event": "a new event whose name is close to a recorded one's (import --new-event)",
    "register_players": "a player the ledger does not know, registered from the file "
                        "(import --register-players)",
}

#: The overrides of a corrected file of an accepted event (``import --replace``'s difference).
REPLACE_OVERRIDES: dict[str, str] = {
    "register_players": OVERRIDES["register_players"],
    "in_next_period": "the event is in a closed period: the correction takes effect in the "
                      "next open period (import --replace --in-next-period)",
}
#: Every override, as the review page names them.
ALL_OVERRIDES = {**OVERRIDES, **REPLACE_OVERRIDES}

#: The import options a reporter may give (``ledger import``'s names): the pool of games whose
#: file gives no time control, a TRF's end date, a PGN's games without moves.
OPTIONS = ("pool", "end_date", "no_moves")


@dataclass
class Findings:
    """What checking a submission found (the module docstring's JSON shape)."""

    format: str | None = None
    games: int = 0
    periods: list[str] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    integrity: list[dict[str, Any]] = field(default_factory=list)
    event: str | None = None
    difference: dict[str, Any] | None = None

    def as_json(self) -> dict[str, Any]:
        """The findings as the ``submissions.findings`` column keeps them."""
        return dict(self.__dict__)


def refuse_upload(filename: str, data: bytes) -> str:
    """The format of the upload ``data`` named ``filename`` (``trf``, ``pgn`` or ``csv``:
    ``formats.detect.detect_format``, from its first bytes, else its extension).

    Raises ``InvalidInput`` naming the field ``file`` for a file larger than ``UPLOAD_LIMIT``,
    an empty one, bytes that are not text (a NUL byte, or not UTF-8), and a format the readers
    do not know; nothing is stored then."""
    if len(data) > UPLOAD_LIMIT:
        raise InvalidInput(f"file: {len(data)} bytes; a submission is at most "
                           f"{UPLOAD_LIMIT // (1024 * 1024)} MB ({UPLOAD_LIMIT} bytes)")
    if not data.strip():
        raise InvalidInput("file: the file is empty")
    if NUL in data:
        raise InvalidInput(f"file: binary bytes (a NUL byte at offset {data.index(NUL)}): "
                           "not a TRF, PGN or CSV file")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"file: not UTF-8 text (byte 0x{data[exc.start]:02X} at offset "
                           f"{exc.start}); save the file as UTF-8 and submit it again") from None
    fmt = detect_format(data[:4096], PurePath(filename).suffix)
    if fmt is None:
        raise InvalidInput("file: not a format the ledger reads (a TRF, PGN or CSV file of "
                           "games: a CSV needs the columns date, white, black and result)")
    return fmt


def safe_name(filename: str) -> str:
    """``filename`` as the browser gave it, reduced to its last part and to at most 255
    characters, without control characters (``../x.trf`` -> ``x.trf``); ``upload`` if
    nothing is left."""
    name = PurePath(filename.replace("\\", "/")).name
    name = "".join(c for c in name if c.isprintable())[-255:].strip()
    return name if name not in ("", ".", "..") else "upload"


@contextmanager
def stored_file(filename: str, data: bytes) -> Iterator[str]:
    """A private temporary file (outside any served folder) holding ``data``, named
    ``filename``, removed when the block ends: the import's readers read paths."""
    with tempfile.TemporaryDirectory(prefix="ledger-submission-") as folder:
        path = os.path.join(folder, filename)
        with open(path, "wb") as out:
            out.write(data)
        yield path


def warning_id(flag: str | None, problem: dict[str, Any]) -> str:
    """A warning's stable id (the officer ticks it by it): 12 hex digits of the SHA-256 of
    its flag, line, field and message."""
    text = f"{flag}|{problem.get('line')}|{problem.get('field')}|{problem.get('message')}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _shown(problem: Problem, path: str, name: str) -> dict[str, Any]:
    """A problem as the findings keep it, the temporary ``path`` written as ``name``."""
    p = replace(problem, file=name if problem.file == path else problem.file,
                message=problem.message.replace(path, name))
    return {"file": p.file, "line": p.line, "field": p.field, "message": p.message}


def _key(problem: dict[str, Any]) -> tuple[Any, ...]:
    return (problem["line"], problem["field"], problem["message"])


@dataclass
class _Run:
    """One dry run of the import: its report (None when it refused) and its problems."""

    report: ImportReport | ReplaceReport | None
    problems: list[dict[str, Any]]

    def errors(self) -> list[dict[str, Any]]:
        return [p for p in self.problems if p["severity"] == "error"]


def run_import(session: Session, path: str, name: str, fmt: str, options: dict[str, Any],
               flags: set[str], *, today: dt.date, dry_run: bool = True,
               actor: Actor | None = None) -> ImportReport:
    """The import of the file at ``path`` (named ``name``) inside ``session`` with the
    reporter's ``options`` and the overrides ``flags``: ``import_games`` as ``ledger import``
    runs it. Raises as it does (``ImportRejected``, ``UsageError``, ``InvalidInput``)."""
    end = options.get("end_date")
    with GameBatches(path, fmt, "fide", dt.date.fromisoformat(end) if end else None,
                     no_moves=options.get("no_moves")) as source:
        return import_games(session, name, source, dry_run=dry_run, today=today,
                            pool=options.get("pool"), actor=actor,
                            allow_similar="allow_similar" in flags, late="late" in flags,
                            new_event="new_event" in flags,
                            register_players="register_players" in flags)


def run_replace(session: Session, path: str, name: str, fmt: str, options: dict[str, Any],
                flags: set[str], *, today: dt.date, reason: str, dry_run: bool = True,
                actor: Actor | None = None) -> ReplaceReport:
    """``import FILE --replace`` inside ``session``: the difference of the corrected file at
    ``path`` (named ``name``) with its recorded event, applied (``corrections.replace``:
    ``read_replacement`` then ``apply_replacement``) with ``reason``, the overrides ``flags``
    (``REPLACE_OVERRIDES``). Raises as ``replace_event``."""
    end = options.get("end_date")
    report, games = read_replacement(path, fmt, reason, dry_run=dry_run, today=today,
                                     end_date=dt.date.fromisoformat(end) if end else None,
                                     no_moves=options.get("no_moves"), name=name)
    mode = Mode.NEXT_PERIOD if "in_next_period" in flags else None
    return apply_replacement(session, report, games, mode,
                             actor or Actor.from_code("submission"),
                             register_players="register_players" in flags)


def run_file(session: Session, path: str, name: str, fmt: str, options: dict[str, Any],
         flags: set[str], *, today: dt.date, replacing: str | None, dry_run: bool = True,
         actor: Actor | None = None) -> ImportReport | ReplaceReport:
    """``run_import``, or ``run_replace`` with the reason ``replacing`` when it is given."""
    if replacing is not None:
        return run_replace(session, path, name, fmt, options, flags, today=today,
                           reason=replacing, dry_run=dry_run, actor=actor)
    return run_import(session, path, name, fmt, options, flags, today=today, dry_run=dry_run,
                      actor=actor)


def _dry_run(session: Session, path: str, name: str, fmt: str, options: dict[str, Any],
             flags: set[str], today: dt.date, replacing: str | None = None) -> _Run:
    """``run_import`` in a savepoint rolled back: what ``import --dry-run`` would report
    (the session's per-transaction caches as they were before it)."""
    kept = dict(session.info)  # the caches the import keeps per transaction (event folds...)
    nested = session.begin_nested()
    try:
        report = run_file(session, path, name, fmt, options, flags, today=today,
                      replacing=replacing)
        problems = report.problems
        if report.already_imported:
            problems = [*problems, Problem(name, None, "file", report.notes[-1])]
    except ImportRejected as exc:
        report, problems = None, exc.problems
    except LedgerError as exc:  # a usage error of the options, an event name close to another
        report, problems = None, [Problem(name, None, "options", str(exc))]
    finally:
        nested.rollback()
        session.info.clear()  # what the rolled-back import cached is gone with it
        session.info.update(kept)
    return _Run(report, [{**_shown(p, path, name), "severity": p.severity} for p in problems])


def check(session: Session, path: str, name: str, fmt: str, options: dict[str, Any], *,
          today: dt.date, replacing: str | None = None) -> Findings:
    """The findings of the file at ``path`` (named ``name``, in ``fmt``) with the reporter's
    ``options``, checked inside ``session`` (nothing it does is kept).

    A run with no override is what ``ledger import`` says; when it refuses, a run with every
    override tells the errors nothing lifts, and a run without each override in turn which
    errors that override lifts (each becomes a warning with its ``flag``). At most
    ``len(OVERRIDES) + 3`` runs of the import, one when the file is clean.

    ``replacing`` (a reason): the file is a corrected version of an event recorded, checked as
    ``import --replace`` (``REPLACE_OVERRIDES``); its findings add ``difference`` (the games
    added, removed, changed and unchanged) and ``event``."""
    found = Findings(format=fmt)
    overrides = REPLACE_OVERRIDES if replacing is not None else OVERRIDES
    strict = _dry_run(session, path, name, fmt, options, set(), today, replacing)
    flags: set[str] = set()
    lifted: list[dict[str, Any]] = []
    final = strict
    if strict.errors():
        every = _dry_run(session, path, name, fmt, options, set(overrides), today, replacing)
        hard = {_key(p) for p in every.errors()}
        overridable = [p for p in strict.errors() if _key(p) not in hard]
        if overridable:
            for flag in overrides:
                without = _dry_run(session, path, name, fmt, options,
                                   set(overrides) - {flag}, today, replacing)
                extra = {_key(p) for p in without.errors()} - hard
                for p in overridable:
                    if _key(p) in extra:
                        flags.add(flag)
                        lifted.append({**p, "flag": flag})
            final = _dry_run(session, path, name, fmt, options, flags, today, replacing)
    found.errors = [_plain(p) for p in final.errors()]
    seen = {(p["line"], p["field"]) for p in lifted}
    own = [{**p, "flag": None} for p in final.problems if p["severity"] == "warning"
           and (p["line"], p["field"]) not in seen]
    grouped: dict[tuple[Any, ...], dict[str, Any]] = {}
    for p in lifted + own:  # one warning for a message repeated on many lines (a player)
        same = grouped.get((p["flag"], p["message"]))
        if same is None:
            grouped[(p["flag"], p["message"])] = {**_plain(p), "flag": p["flag"],
                                                  "lines": [p["line"]]}
        elif p["line"] not in same["lines"]:
            same["lines"].append(p["line"])
    found.warnings = [{**w, "id": warning_id(w["flag"], {**w, "line": w["lines"]})}
                      for w in grouped.values()]
    found.flags = sorted(flags)
    report = final.report
    if isinstance(report, ReplaceReport):
        found.notes = list(report.notes)
        found.games = len(report.added)
        found.periods = [report.period] if report.period else []
        found.event = report.event
        found.difference = {
            "added": [_diff_line(g) for g in report.added],
            "removed": [_diff_line(g) for g in report.removed],
            "changed": [f"{_diff_line(c.before)} -> {c.after.result}"
                        + (f" on {c.after.date}" if c.after.date != c.before.date else "")
                        for c in report.changed],
            "unchanged": report.unchanged}
    elif report is not None:
        found.games = report.recorded
        found.notes = list(report.notes)
        for late in report.late:
            text = (f"{late.white} - {late.black}, {late.date}: a late result (its period "
                    f"{late.dated_in} is closed), rated in {late.period}")
            item = {"file": name, "line": late.line, "field": "date", "message": text}
            found.warnings.append({**item, "flag": None, "lines": [late.line],
                                   "id": warning_id(None, item)})
        found.periods = sorted(report.periods)
    return found


def _diff_line(g: DiffGame) -> str:
    """A game of a difference in words: ``R3 2026-09-19 Okafor, Grace - Novak, Petra 1-0``."""
    return (f"{'R' + g.round + ' ' if g.round else ''}{g.date} {g.white} - {g.black} "
            f"{g.result}")


def _plain(problem: dict[str, Any]) -> dict[str, Any]:
    return {k: problem[k] for k in ("file", "line", "field", "message")}
