"""Read a federation's register of players, a CSV file, as a stream of rows plus problems (pure).

``ledger import PLAYERS.csv --format players``. The header row is required and names the
columns, in any order: ``name`` is required; ``fide_id, birth_year, sex, federation, title,
rating, prior_games, reached_2400, reached_2300`` and ``new`` are optional. A blank cell is
unknown (no FIDE id, birth year ...; unrated; ``prior_games`` blank: unknown, see
``services.imports.players``); ``reached_2400``, ``reached_2300`` and ``new`` are yes/no
(``yes y true 1``, ``no n false 0`` or blank), ``new`` saying that the row is another person
than a player of the same name (``ledger player add --new``). ``sex``, ``federation`` and
``title`` are read in capitals, as ``player add`` reads them. This module checks the syntax of
each cell (whole numbers, yes/no); the ledger's own checks (ranges, titles,
names already registered) are the service's, with ``player add``'s messages.

The file is UTF-8 (a byte-order mark is dropped) and read one line at a time from a binary
handle (``ledger.formats.text_stream``): :func:`read_players` is a generator, so a register of
200,000 players is never held whole. Problems go into the caller's ``Problems``; past its bound
the reader stops.

>>> import io
>>> from ledger.formats.text_stream import Problems
>>> out = Problems("p.csv")
>>> rows = list(read_players("p.csv", io.BytesIO(b"name,rating\\nDoyle, Liam,1850\\n"), out))
>>> out.kept[0].field, out.kept[0].line
('row', 2)
>>> rows = list(read_players("p.csv", io.BytesIO(b'name,rating\\n"Doyle, Liam",1850\\n'), out))
>>> [(r.line, r.name, r.rating) for r in rows]
[(2, 'Doyle, Liam', 1850)]
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from ledger.errors import Problem
from ledger.formats.text_stream import BadEncoding, Problems, utf8_lines

__all__ = ["COLUMNS", "PlayerRow", "read_players"]

COLUMNS = ("name", "fide_id", "birth_year", "sex", "federation", "title", "rating",
           "prior_games", "reached_2400", "reached_2300", "new")
_INTEGERS = ("fide_id", "birth_year", "rating", "prior_games")
_FLAGS = ("reached_2400", "reached_2300", "new")
_CAPITALS = ("sex", "federation", "title")
_INT = re.compile(r"[0-9]{1,12}")
_YES, _NO = ("yes", "y", "true", "1"), ("no", "n", "false", "0", "")


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One row of a register: ``line`` (1-based, where the row starts), the cells as read
    (stripped; None where blank), integers as ``int``, the yes/no columns as ``bool``."""

    line: int
    name: str
    fide_id: int | None
    birth_year: int | None
    sex: str | None
    federation: str | None
    title: str | None
    rating: int | None
    prior_games: int | None
    reached_2400: bool
    reached_2300: bool
    new: bool


def read_players(path: str, handle: BinaryIO, out: Problems) -> Iterator[PlayerRow]:
    """The rows of the register read from ``handle`` (binary, read from where it stands),
    each as soon as its line is read; a row with a fault gives errors in ``out`` (file
    ``path``, its line, the column) and no row. A header that is missing, names an unknown
    column or a column twice, or lacks ``name`` is one error (line 1, field ``header``) and no
    rows; a file that is not UTF-8 one error (field ``encoding``). Blank rows are skipped. Past
    ``out``'s bound the reader stops (``Problems.stop``). Never raises on bad data."""
    try:
        yield from _rows(path, utf8_lines(handle, keepends=True), out)
    except BadEncoding as exc:
        out.append(Problem(path, exc.line, "encoding", "not UTF-8 text; save the file as UTF-8 "
                           "(CSV UTF-8 in a spreadsheet)"))
    except csv.Error as exc:
        out.append(Problem(path, None, "csv", f"not CSV: {exc}"))


def _rows(path: str, lines: Iterator[str], out: Problems) -> Iterator[PlayerRow]:
    reader = csv.reader(lines, strict=False)
    header = next(reader, None)
    names = [h.strip().lower().replace("-", "_") for h in header or []]
    unknown = [h for h in names if h not in COLUMNS]
    twice = sorted({h for h in names if names.count(h) > 1})
    if "name" not in names or unknown or twice:
        message = "; ".join(
            (["no header (its first line names the columns)"] if not names else
             ["missing name"] if "name" not in names else [])
            + ([f"unknown column {', '.join(map(repr, unknown))}"] if unknown else [])
            + ([f"column {', '.join(map(repr, twice))} given twice"] if twice else []))
        out.append(Problem(path, 1, "header", f"{message}: the columns are {','.join(COLUMNS)} "
                           "(name required, the others optional, in any order)"))
        return
    line = reader.line_num
    for row in reader:
        start, line = line + 1, reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(names):
            out.append(Problem(path, start, "row", f"{len(row)} fields where the header has "
                               f"{len(names)}: quote a value holding a comma"))
        else:
            found = _row(path, start, dict(zip(names, row, strict=True)), out)
            if found is not None:
                yield found
        if out.full:
            out.stop(line)
            return


def _row(path: str, line: int, cells: dict[str, str], out: Problems) -> PlayerRow | None:
    errors = out.errors
    values: dict[str, object] = {}
    for column in COLUMNS:
        text = cells.get(column, "").strip()
        if column in _INTEGERS:
            if text and not _INT.fullmatch(text):
                out.append(Problem(path, line, column, f"{text!r} is not a whole number"))
            values[column] = int(text) if text and _INT.fullmatch(text) else None
        elif column in _FLAGS:
            if text.lower() not in _YES + _NO:
                out.append(Problem(path, line, column, f"{text!r} must be yes or no"))
            values[column] = text.lower() in _YES
        else:  # text: checked by the service, as ``player add`` checks it
            values[column] = (text.upper() if column in _CAPITALS else text) or None
    if not values["name"]:
        out.append(Problem(path, line, "name", "no player name"))
    if out.errors > errors:
        return None
    return PlayerRow(line=line, **values)  # type: ignore[arg-type]
