"""A submission of games typed in the web's form (format ``form``: ``formats.games_form``'s
JSON, stored exactly as typed) read as the CSV of games the import reads (``readable``), so
that it is checked and accepted by the same path as a file; and its findings said of the
form's rows (``relabel``: ``row 3, result: ...``; a player the ledger does not know is the
request ``new player: NAME (register on accepting)``). For any other format both are the
file's own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ledger.formats.games_form import FormCsv, TypedGames, from_json, to_csv
from ledger.services.submissions.checking import Findings, stored_file

#: The format of a submission typed in the form.
FORM = "form"
#: The name a typed submission's games are read and recorded under (the import's file name).
FORM_NAME = "typed games"
_LINE = re.compile(r"\bline ([0-9]+)\b")


@contextmanager
def readable(name: str, fmt: str, content: bytes) -> Iterator[tuple[str, str]]:
    """A private temporary file of a submission's ``content`` (``checking.stored_file``) and
    the format the import reads it in: a file's bytes as they are; a ``form``'s as the CSV
    ``games_form.to_csv`` writes (``csv``). Raises ``InvalidInput`` for a ``form`` that is not
    typed games (``games_form.from_json``)."""
    if fmt != FORM:
        with stored_file(name, content) as path:
            yield path, fmt
        return
    with stored_file(name, to_csv(from_json(content)).data) as path:
        yield path, "csv"


def _said(message: str, table: FormCsv) -> str:
    """``message`` with each ``line N`` of the CSV said as the form's ``row R``."""
    def row(found: re.Match[str]) -> str:
        number = table.row_of(int(found.group(1)))
        return found.group(0) if number is None else f"row {number}"
    return _LINE.sub(row, message)


def _problem(p: dict[str, Any], typed: TypedGames, table: FormCsv) -> dict[str, Any]:
    """One error or warning of the findings said of the form: ``row`` (the form's row, None:
    the whole form) and, for a warning, ``rows``; a player the ledger does not know, whom
    the officer's tick registers (``register_players``), as ``new player: NAME``."""
    row = table.row_of(p.get("line"))
    shown = {**p, "row": row, "message": _said(str(p["message"]), table)}
    if "lines" in p:
        shown["rows"] = sorted({r for r in map(table.row_of, p["lines"]) if r is not None})
    if (p.get("flag") == "register_players" and row is not None
            and p.get("field") in ("white", "black")):
        name = typed.rows[row - 1][str(p["field"])].strip()
        guess = str(p["message"]).partition(": did you mean ")[2].replace(" in the file",
                                                                         " in the form")
        shown["message"] = (f"new player: {name} (register on accepting)"
                            + (f"; did you mean {_said(guess, table)}" if guess else ""))
    return shown


def relabel(found: Findings, fmt: str, content: bytes) -> Findings:
    """``found`` (a submission's findings) said of the form's rows when ``fmt`` is ``form``
    (each error and warning gains ``row``, a warning ``rows``; a ``line N`` in a message is
    ``row R``); the warnings keep their ids (ticked by them), so the officer's ticks hold.
    Unchanged for a file."""
    if fmt != FORM:
        return found
    typed = from_json(content)
    table = to_csv(typed)
    found.errors = [_problem(p, typed, table) for p in found.errors]
    found.warnings = [_problem(p, typed, table) for p in found.warnings]
    return found
