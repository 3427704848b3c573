"""Games typed in the web's form (issue 23: "a reporter ... types games into a form"): a
submission of format ``form`` whose content is exactly what was typed
(``formats.games_form``'s JSON), validated and accepted by the same path as a file
(``submissions.submit``: the rows read as the CSV the games reader reads, ``forms.readable``,
and checked by ``checking.check``), its findings said of the form's rows (``forms.relabel``:
``row 2, result: ...``). A name the ledger does not know is no error: it is the warning
``new player: NAME (register on accepting)`` the officer ticks, and accepting registers them as
``ledger import --register-players`` does; a name matched loosely keeps the import's warning.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Engine

from ledger.domain import Actor
from ledger.errors import InvalidInput, NotFound
from ledger.formats.games_form import TypedGames, from_json
from ledger.services.submissions import submissions
from ledger.services.submissions.forms import FORM, FORM_NAME

#: The most rows one form may hold (ten at a time, "more rows" adding ten).
MAX_ROWS = 500


def _refuse_empty(typed: TypedGames) -> bytes:
    """The JSON of ``typed``; ``InvalidInput`` naming ``rows`` when no game is typed or more
    than ``MAX_ROWS`` rows are."""
    if not typed.games:
        raise InvalidInput("rows: no game typed; type each game's date, White, Black and "
                           "result in a row")
    if len(typed.rows) > MAX_ROWS:
        raise InvalidInput(f"rows: {len(typed.rows)} rows; at most {MAX_ROWS} in one form "
                           "(submit the rest as another, or as a file)")
    return typed.to_json()


def submit_typed(engine: Engine, user_id: int, typed: TypedGames, *,
                 today: dt.date | None = None, actor: Actor | None = None) -> (
                     submissions.SubmissionView):
    """The games ``typed`` submitted by ``user_id``: stored as typed (their JSON, its SHA-256,
    who, when), checked at once as a file is (``submissions.submit``), pending review. Raises
    ``InvalidInput`` as ``_refuse_empty`` (nothing stored), ``NotFound`` for an unknown user."""
    return submissions.submit(engine, user_id, FORM_NAME, _refuse_empty(typed), {},
                              today=today, actor=actor, typed=True)


def resubmit_typed(engine: Engine, submission_id: int, user_id: int, typed: TypedGames, *,
                   today: dt.date | None = None, actor: Actor | None = None) -> (
                       submissions.SubmissionView):
    """The owner's pending submission ``submission_id`` replaced by the games ``typed``,
    checked again (``submissions.resubmit``). Raises as ``submit_typed`` and as
    ``submissions.resubmit``."""
    return submissions.resubmit(engine, submission_id, user_id, FORM_NAME,
                                _refuse_empty(typed), {}, today=today, actor=actor, typed=True)


def typed_games(engine: Engine, submission_id: int) -> TypedGames:
    """The games typed in submission ``submission_id`` (to correct them in the form). Raises
    ``NotFound`` when there is none, ``InvalidInput`` when it is a file, not typed games."""
    found = submissions.show(engine, submission_id)
    if found.format != FORM:
        raise InvalidInput(f"submission {submission_id} is a {found.format.upper()} file, not "
                           "games typed in the form")
    try:
        return from_json(submissions.content(engine, submission_id))
    except InvalidInput:  # pragma: no cover - only typed_games' own JSON is stored as form
        raise NotFound(f"submission {submission_id}: no typed games") from None
