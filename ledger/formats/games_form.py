"""Games typed into the web's form (``ledger serve``, issue 23): the JSON a submission of format
``form`` stores, exactly as typed, and the CSV of games (``formats.games_csv``) it is read as,
with the form's row of every CSV line, so that a problem of line 3 is said of row 2. Pure.

The JSON (UTF-8, keys sorted)::

    {"event": "Riverside Rapid", "pool": "rapid", "time_control": "15+10",
     "rows": [{"date": "2026-09-19", "round": "1", "white": "Byrne, Sean",
               "black": "Novak, Petra", "result": "1-0"}, ...]}

- ``event``, ``pool``, ``time_control``: the form's, given to every game (``""``: none given;
  the CSV's columns of the same names);
- ``rows``: the form's rows in order, up to the last one anything was typed in (a blank row
  before it is kept, so that ``rows[N - 1]`` is the form's row N); each value a string, as
  typed (blanks and all). A blank row is no game.

The CSV has the header ``date,white,black,result,round,event,pool,time_control`` and one line
per row that is not blank (``csv`` quoting: a value holding a comma, a quote or a line break is
quoted, so it reaches the reader, and its checks, as typed).
"""

from __future__ import annotations

import bisect
import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ledger.errors import InvalidInput
from ledger.formats.text_stream import utf8_lines

__all__ = ["FORM_FIELDS", "ROW_FIELDS", "TypedGames", "from_json", "to_csv"]

#: The form's fields given once, for every game.
FORM_FIELDS = ("event", "pool", "time_control")
#: The fields of one row of the form (one game).
ROW_FIELDS = ("date", "round", "white", "black", "result")
#: The CSV's columns (``games_csv.COLUMNS``' names).
_HEADER = ("date", "white", "black", "result", "round", "event", "pool", "time_control")


def blank(row: Mapping[str, str]) -> bool:
    """Whether nothing but blanks was typed in ``row`` (no game)."""
    return not "".join(str(row.get(f, "")) for f in ROW_FIELDS).strip()


@dataclass(frozen=True)
class TypedGames:
    """What was typed: the form's ``event``, ``pool``, ``time_control`` (strings, ``""``: none)
    and its ``rows`` (each a dict of ``ROW_FIELDS`` to strings), up to the last not blank."""

    event: str
    pool: str
    time_control: str
    rows: tuple[dict[str, str], ...]

    @classmethod
    def typed(cls, form: Mapping[str, str], rows: Sequence[Mapping[str, str]]) -> TypedGames:
        """The games typed: ``form``'s ``FORM_FIELDS`` and ``rows``' ``ROW_FIELDS`` (missing:
        ``""``), the blank rows after the last typed one dropped."""
        kept = [{f: str(r.get(f, "")) for f in ROW_FIELDS} for r in rows]
        while kept and blank(kept[-1]):
            kept.pop()
        return cls(event=str(form.get("event", "")), pool=str(form.get("pool", "")),
                   time_control=str(form.get("time_control", "")), rows=tuple(kept))

    @property
    def games(self) -> int:
        """How many rows are not blank."""
        return sum(not blank(r) for r in self.rows)

    def to_json(self) -> bytes:
        """The JSON a ``form`` submission stores (the module's shape), UTF-8."""
        return json.dumps({"event": self.event, "pool": self.pool,
                           "time_control": self.time_control, "rows": list(self.rows)},
                          ensure_ascii=False, sort_keys=True, indent=1).encode("utf-8")


def from_json(data: bytes) -> TypedGames:
    """The games typed, from the JSON ``TypedGames.to_json`` wrote. Raises ``InvalidInput``
    (field ``form``) for bytes that are not that shape."""
    try:
        found = json.loads(data.decode("utf-8"))
        rows = found["rows"]
        if not isinstance(found, dict) or not isinstance(rows, list) or not all(
                isinstance(r, dict) and all(isinstance(v, str) for v in r.values())
                for r in rows) or not all(isinstance(found.get(f, ""), str)
                                          for f in FORM_FIELDS):
            raise ValueError("not the shape of typed games")
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidInput(f"form: not games typed in the form ({exc})") from None
    return TypedGames.typed(found, rows)


@dataclass(frozen=True)
class FormCsv:
    """The CSV of typed games: ``data`` (UTF-8 bytes) and ``starts`` (the first CSV line of
    each game, ascending) with ``rows`` (the form's row of each, 1-based)."""

    data: bytes
    starts: tuple[int, ...]
    rows: tuple[int, ...]

    def row_of(self, line: int | None) -> int | None:
        """The form's row of the CSV ``line`` (1-based; the header, line 1, and None: None)."""
        if line is None or not self.starts or line < self.starts[0]:
            return None
        return self.rows[bisect.bisect_right(self.starts, line) - 1]


def _lines(text: str) -> int:
    """How many lines ``games_csv``'s reader reads ``text`` as (its ``utf8_lines``)."""
    return sum(1 for _ in utf8_lines(io.BytesIO(text.encode("utf-8")), keepends=True))


def to_csv(typed: TypedGames) -> FormCsv:
    """The CSV the games reader reads ``typed`` as (the module docstring), with the row of
    each of its lines."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(_HEADER)
    line = _lines(out.getvalue()) + 1
    starts: list[int] = []
    rows: list[int] = []
    given = {"event": typed.event, "pool": typed.pool, "time_control": typed.time_control}
    for number, row in enumerate(typed.rows, start=1):
        if blank(row):
            continue
        one = io.StringIO()
        csv.writer(one, lineterminator="\r\n").writerow([{**given, **row}[c] for c in _HEADER])
        starts.append(line)
        rows.append(number)
        line += _lines(one.getvalue())
        out.write(one.getvalue())
    return FormCsv(out.getvalue().encode("utf-8"), tuple(starts), tuple(rows))
