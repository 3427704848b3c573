"""A reporter's submissions and their review, each use case one writing transaction (issue 23,
"Submissions"): ``submit`` (stored as submitted and checked at once, ``checking.check``, the
check before the write and without the write lock: ``session.scratch``),
``resubmit`` and ``withdraw`` by its owner while pending, ``mine``, ``pending`` and ``show``,
``accept`` (the games recorded by the import's write path, its ``import`` change naming the
submission) and ``reject`` (with the reason the reporter reads).

States (``db.models.submissions.SUBMISSION_STATES``): pending -> accepted | rejected | withdrawn;
only a pending submission changes. Every write is audited (``submission.*`` changes by the web
user: the web's ``Actor``, its command naming the address and the request).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from ledger.db.models import Change, Game, ImportedFile, PeriodRevision
from ledger.db.models.accounts import User
from ledger.db.models.submissions import Submission
from ledger.domain import Actor, not_a_date, parse_pool
from ledger.errors import InvalidInput, LedgerError, NotFound
from ledger.rules.integrity import Flag
from ledger.services.core import clock
from ledger.services.core.audit import as_json, record_change
from ledger.services.core.session import Ledger, scratch, transaction
from ledger.services.imports.integrity import check_integrity_file
from ledger.services.submissions.checking import (
    OPTIONS,
    refuse_upload,
    run_file,
    safe_name,
)
from ledger.services.submissions.checking import check as check_file
from ledger.services.submissions.forms import FORM, readable, relabel

#: The longest reason a rejection gives (characters).
MAX_REASON = 2000


@dataclass(frozen=True)
class SubmissionView:
    """One submission as the pages show it: ``id``, its owner (``user_id``, ``user``: name),
    ``submitted_at`` (UTC), ``filename`` (as the browser named it), ``format``, ``sha256``,
    ``size`` (bytes), ``options`` (the import's options given), ``findings`` (``checking``'s
    JSON), ``state``; the review: ``reviewed_by`` (name), ``reviewed_at``, ``reason`` (a
    rejection's), ``change_id`` (the import's change, once accepted), ``replaces``."""

    id: int
    user_id: int
    user: str
    submitted_at: dt.datetime
    filename: str
    format: str
    sha256: str
    size: int
    options: dict[str, Any]
    findings: dict[str, Any]
    state: str
    reviewed_by: str | None
    reviewed_at: dt.datetime | None
    reason: str | None
    change_id: int | None
    replaces: int | None

    @property
    def errors(self) -> list[dict[str, Any]]:
        return list(self.findings.get("errors", []))

    @property
    def warnings(self) -> list[dict[str, Any]]:
        return list(self.findings.get("warnings", []))


def _view(session: Session, row: Submission) -> SubmissionView:
    names: dict[int | None, str] = {uid: name for uid, name in session.execute(
        select(User.id, User.name).where(User.id.in_({row.user_id,
                                                      row.reviewed_by or row.user_id})))}
    return SubmissionView(
        row.id, row.user_id, names.get(row.user_id, "?"), row.submitted_at,
        row.filename or "upload", row.format, row.sha256, len(row.content),
        json.loads(row.options or "{}"), json.loads(row.findings or "{}"), row.state,
        names.get(row.reviewed_by) if row.reviewed_by is not None else None, row.reviewed_at,
        row.reason, row.change_id, row.replaces)


def checked_options(options: dict[str, Any] | None) -> dict[str, str]:
    """The import options a reporter gave (``checking.OPTIONS``), blanks dropped: ``pool``
    (standard, rapid, blitz), ``end_date`` (YYYY-MM-DD), ``no_moves`` (played, forfeit).
    Raises ``InvalidInput`` naming the option for a value ``ledger import`` would refuse, or
    an option it does not take here."""
    given = {k: str(v).strip() for k, v in (options or {}).items() if v is not None
             and str(v).strip()}
    unknown = sorted(set(given) - set(OPTIONS))
    if unknown:
        raise InvalidInput(f"{unknown[0]}: not an option of a submission "
                           f"(they are {', '.join(OPTIONS)})")
    if "pool" in given:
        given["pool"] = str(parse_pool(given["pool"]))
    if "end_date" in given:
        try:
            dt.date.fromisoformat(given["end_date"])
        except ValueError:
            raise InvalidInput(f"end_date: {not_a_date(given['end_date'])}") from None
    if given.get("no_moves", "played") not in ("played", "forfeit"):
        raise InvalidInput(f"no_moves: {given['no_moves']!r}; played or forfeit")
    return given


def _actor(session: Session, user_id: int, what: str, actor: Actor | None) -> Actor:
    """Who writes: ``actor`` as the face gives it (the web: the user and ``web ADDRESS METHOD
    PATH``), else the user ``user_id`` with the command ``ledger serve: WHAT``. ``NotFound``
    for an unknown user."""
    user = session.get(User, user_id)
    if user is None:
        raise NotFound(f"user {user_id}: no such user")
    return actor or Actor(user.name, f"ledger serve: {what}")


def replacing(replaces: int | None) -> str | None:
    """The reason a corrected file of the event of submission ``replaces`` is applied with
    (``import --replace`` requires one; the audit log shows it); None for a new file."""
    return None if replaces is None else f"a corrected file of submission {replaces} (web)"


def _findings(session: Session, name: str, data: bytes, fmt: str, options: dict[str, str],
              today: dt.date, replaces: int | None = None) -> str:
    with readable(name, fmt, data) as (path, read_as):
        found = check_file(session, path, name, read_as, options, today=today,
                           replacing=replacing(replaces))
    return json.dumps(relabel(found, fmt, data).as_json(), default=str)


def _replaced(session: Session, replaces: int, user_id: int) -> None:
    """Check that a corrected file may replace the games of submission ``replaces``: the
    user's (else ``NotFound``), accepted (else ``InvalidInput``)."""
    old = session.get(Submission, replaces)
    if old is None or old.user_id != user_id:
        raise NotFound(f"submission {replaces}: no such submission")
    if old.state != "accepted":
        raise InvalidInput(f"submission {replaces} is {old.state}: only the event of an "
                           "accepted submission can be corrected (a pending one is "
                           "submitted again instead)")


def submit(engine: Engine, user_id: int, filename: str, data: bytes,
           options: dict[str, Any] | None = None, *, today: dt.date | None = None,
           actor: Actor | None = None, replaces: int | None = None,
           typed: bool = False) -> SubmissionView:
    """A reporter's file submitted: stored as submitted (the bytes, their SHA-256, who, when)
    and checked at once (``checking.check``), pending review; one ``submission.submit``
    change by the user. ``replaces``: the file corrects the event of that accepted submission
    of the user's, checked and, once accepted, applied as ``import --replace``'s difference
    (``_replaced`` refuses another's or one not accepted). Raises ``InvalidInput`` for an
    upload ``checking.refuse_upload`` refuses or options ``checked_options`` refuses (nothing
    stored); ``NotFound`` for an unknown user. ``typed``: ``data`` is games typed in the form
    (``submissions.typed``), of format ``form``.

    Two transactions: the check runs first in ``session.scratch`` (no write lock: on SQLite
    a private snapshot of the ledger, on PostgreSQL a transaction without the advisory lock;
    rolled back), then the submission is stored in a short writing transaction, so other
    writers never wait for the check. Another writer may commit between the two: the findings
    are then those of the ledger as it was a moment before, which is all they claim to be (the
    accept checks the file again under the lock and refuses what the import refuses)."""
    fmt = FORM if typed else refuse_upload(filename, data)
    given = checked_options(options)
    name = safe_name(filename)
    with scratch(engine) as session:
        _actor(session, user_id, "submit", actor)
        if replaces is not None:
            _replaced(session, replaces, user_id)
        findings = _findings(session, name, data, fmt, given, today or clock.today(), replaces)
    with transaction(engine) as session:
        who = _actor(session, user_id, "submit", actor)
        if replaces is not None:  # again: it may have changed since the check
            _replaced(session, replaces, user_id)
        row = Submission(user_id=user_id, filename=name, format=fmt, content=data,
                         sha256=hashlib.sha256(data).hexdigest(), options=json.dumps(given),
                         findings=findings, state="pending", replaces=replaces)
        session.add(row)
        session.flush()
        record_change(session, who, "submission.submit", "submission", row.id,
                      after={"file": name, "sha256": row.sha256, "format": fmt})
        return _view(session, row)


def _own_pending(session: Session, submission_id: int, user_id: int | None) -> Submission:
    """The pending submission ``submission_id`` (of ``user_id``, unless None: an officer).
    ``NotFound`` when there is none or it is another user's (so ids do not leak);
    ``InvalidInput`` when it is no longer pending."""
    row = session.get(Submission, submission_id)
    if row is None or (user_id is not None and row.user_id != user_id):
        raise NotFound(f"submission {submission_id}: no such submission")
    if row.state != "pending":
        raise InvalidInput(f"submission {submission_id} is {row.state}: only a pending "
                           "submission can be changed")
    return row


def resubmit(engine: Engine, submission_id: int, user_id: int, filename: str, data: bytes,
             options: dict[str, Any] | None = None, *, today: dt.date | None = None,
             actor: Actor | None = None, typed: bool = False) -> SubmissionView:
    """The owner's pending submission edited: its file (and options) replaced by a new one,
    checked again, submitted now; one ``submission.resubmit`` change. Raises as ``submit``
    and ``NotFound``/``InvalidInput`` as ``_own_pending``; ``typed`` as ``submit``'s. Checked
    then stored in two transactions, as ``submit`` (the submission found pending again in the
    second: it may have been withdrawn or reviewed meanwhile)."""
    fmt = FORM if typed else refuse_upload(filename, data)
    given = checked_options(options)
    name = safe_name(filename)
    with scratch(engine) as session:
        replaces = _own_pending(session, submission_id, user_id).replaces
        _actor(session, user_id, f"resubmit {submission_id}", actor)
        findings = _findings(session, name, data, fmt, given, today or clock.today(), replaces)
    with transaction(engine) as session:
        row = _own_pending(session, submission_id, user_id)
        who = _actor(session, user_id, f"resubmit {submission_id}", actor)
        before = row.sha256
        row.filename, row.format, row.content = name, fmt, data
        row.sha256 = hashlib.sha256(data).hexdigest()
        row.options = json.dumps(given)
        row.findings = findings
        row.submitted_at = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        record_change(session, who, "submission.resubmit", "submission", row.id,
                      before={"sha256": before}, after={"file": name, "sha256": row.sha256})
        return _view(session, row)


def withdraw(engine: Engine, submission_id: int, user_id: int, *,
             actor: Actor | None = None) -> SubmissionView:
    """The owner's pending submission withdrawn (never reviewed, never rated); one
    ``submission.withdraw`` change. Raises as ``_own_pending``."""
    with transaction(engine) as session:
        row = _own_pending(session, submission_id, user_id)
        record_change(session, _actor(session, user_id, f"withdraw {submission_id}", actor),
                      "submission.withdraw", "submission", row.id)
        row.state = "withdrawn"
        return _view(session, row)


def mine(engine: Ledger, user_id: int) -> list[SubmissionView]:
    """The submissions of ``user_id``, newest first."""
    with transaction(engine, write=False) as session:
        rows = session.scalars(select(Submission).where(Submission.user_id == user_id)
                               .order_by(Submission.id.desc()))
        return [_view(session, r) for r in rows]


def pending(engine: Ledger) -> list[SubmissionView]:
    """The review queue: every pending submission, oldest first."""
    with transaction(engine, write=False) as session:
        rows = session.scalars(select(Submission).where(Submission.state == "pending")
                               .order_by(Submission.id))
        return [_view(session, r) for r in rows]


def show(engine: Ledger, submission_id: int) -> SubmissionView:
    """One submission. Raises ``NotFound`` when there is none (the web also answers 404 for
    another reporter's: ``web.access.may_see_submission``)."""
    with transaction(engine, write=False) as session:
        row = session.get(Submission, submission_id)
        if row is None:
            raise NotFound(f"submission {submission_id}: no such submission")
        return _view(session, row)


def content(engine: Ledger, submission_id: int) -> bytes:
    """The bytes of submission ``submission_id`` as submitted (``NotFound`` as ``show``)."""
    with transaction(engine, write=False) as session:
        row = session.get(Submission, submission_id)
        if row is None:
            raise NotFound(f"submission {submission_id}: no such submission")
        return row.content


def accept(engine: Engine, submission_id: int, officer_id: int, ticked: set[str] | list[str],
           *, today: dt.date | None = None, actor: Actor | None = None) -> SubmissionView:
    """An officer accepts a pending submission: checked again now (the ledger may have changed
    since), then its games recorded exactly as ``ledger import`` records them
    (``checking.run_file``: the import, or a corrected file's ``--replace``; with the overrides
    its ticked warnings stand for), in this one
    transaction: the ``import`` (or ``import.replace``) change is by the officer, its command
    naming the submission (``ledger serve: accept submission N``; the web's names the request's
    path) and its values after ``"submission": N``; the submission's ``change_id`` is that
    change (the file's ``imported_files`` row's).

    Raises ``InvalidInput`` when the file has errors, when a warning is not in ``ticked`` (the
    warnings' ids: each one must be ticked; the message names every one not ticked), or when
    it is not pending; ``NotFound`` for no such submission. Nothing is written then but the
    submission's findings, checked again (a warning that is new since, such as a late result
    after a close, is then shown for the officer to tick)."""
    refusal: InvalidInput | None = None
    with transaction(engine) as session:
        row = _own_pending(session, submission_id, None)
        options = json.loads(row.options or "{}")
        name = row.filename or "upload"
        with readable(name, row.format, row.content) as (path, read_as):
            found = check_file(session, path, name, read_as, options,
                               today=today or clock.today(), replacing=replacing(row.replaces))
            row.findings = json.dumps(relabel(found, row.format, row.content).as_json(),
                                      default=str)
            missing = [w for w in found.warnings if w["id"] not in set(ticked)]
            if found.errors:
                refusal = InvalidInput(f"submission {submission_id} has {len(found.errors)} "
                                       "error(s): nothing can be accepted")
            elif missing:
                refusal = InvalidInput(
                    f"submission {submission_id}: tick each warning to accept it; "
                    f"{len(missing)} not ticked: "
                    + "; ".join(f"line {w['line']}: {w['field']}: {w['message']}"
                                if w["line"] is not None else f"{w['field']}: {w['message']}"
                                for w in missing[:3]) + ("; ..." if len(missing) > 3 else ""))
            else:
                who = _actor(session, officer_id, f"accept submission {submission_id}", actor)
                done = run_file(session, path, name, read_as, options, set(found.flags),
                                today=today or clock.today(),
                                replacing=replacing(row.replaces), dry_run=False, actor=who)
                session.flush()
                row.change_id = session.scalar(select(ImportedFile.change_id).where(
                    ImportedFile.sha256 == done.sha256))
        if refusal is None:
            row.state, row.reviewed_by = "accepted", officer_id
            row.reviewed_at = dt.datetime.now(dt.UTC).replace(tzinfo=None)
            change = session.get(Change, row.change_id) if row.change_id is not None else None
            if change is not None and change.after is not None:
                change.after = as_json({**json.loads(change.after), "submission": row.id})
            return _view(session, row)
    raise refusal


def reject(engine: Engine, submission_id: int, officer_id: int, reason: str, *,
           actor: Actor | None = None) -> SubmissionView:
    """An officer rejects a pending submission, saying why (the reporter reads ``reason``);
    one ``submission.reject`` change. Raises ``InvalidInput`` naming ``reason`` when it is
    blank or longer than ``MAX_REASON``, or when the submission is not pending; ``NotFound``."""
    why = (reason or "").strip()
    if not why:
        raise InvalidInput("reason: say why the submission is rejected (the reporter reads it)")
    if len(why) > MAX_REASON:
        raise InvalidInput(f"reason: {len(why)} characters; at most {MAX_REASON}")
    with transaction(engine) as session:
        row = _own_pending(session, submission_id, None)
        record_change(session, _actor(session, officer_id, f"reject submission {submission_id}",
                                      actor), "submission.reject", "submission", row.id,
                      reason=why)
        row.state, row.reason, row.reviewed_by = "rejected", why, officer_id
        row.reviewed_at = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        return _view(session, row)


@dataclass(frozen=True)
class Placement:
    """Where an accepted submission's games are: ``period`` and ``pool`` they are recorded in,
    ``games`` how many, ``revision`` the current revision of that period's list (None: the
    period is open, the games not rated yet)."""

    period: str
    pool: str
    games: int
    revision: int | None


def placements(engine: Ledger, submission_id: int) -> list[Placement]:
    """The periods an accepted submission's games were recorded in and whether each is rated
    (the status page: "rated in period P, on list L revision N"); empty for one not accepted.
    ``NotFound`` as ``show``."""
    with transaction(engine, write=False) as session:
        row = session.get(Submission, submission_id)
        if row is None:
            raise NotFound(f"submission {submission_id}: no such submission")
        if row.change_id is None:
            return []
        found = session.execute(
            select(Game.period, Game.pool, func.count()).where(Game.change_id == row.change_id)
            .group_by(Game.period, Game.pool).order_by(Game.period, Game.pool)).all()
        return [Placement(period, pool, n, session.scalar(
            select(func.max(PeriodRevision.revision)).where(
                PeriodRevision.period == period, PeriodRevision.pool == pool)))
            for period, pool, n in found]


def integrity(engine: Engine, submission_id: int) -> list[Flag]:
    """The integrity flags of a submission's games (``imports.integrity.check_integrity_file``:
    its file read as ``ledger import`` reads it, with its options, as of the day it was
    submitted; each flag with its reason, never blocking). A file the reader refuses has none.
    ``NotFound`` as ``show``."""
    with transaction(engine, write=False) as session:
        row = session.get(Submission, submission_id)
        if row is None:
            raise NotFound(f"submission {submission_id}: no such submission")
        name, data, fmt = row.filename or "upload", row.content, row.format
        options, submitted = json.loads(row.options or "{}"), row.submitted_at.date()
    end = options.get("end_date")
    with readable(name, fmt, data) as (path, read_as):  # typed games: as their CSV
        try:
            return check_integrity_file(
                engine, path, read_as, submitted=submitted,
                end_date=dt.date.fromisoformat(end) if end else None,
                pool=parse_pool(options["pool"]) if options.get("pool") else None,
                no_moves=options.get("no_moves"))
        except LedgerError:
            return []
