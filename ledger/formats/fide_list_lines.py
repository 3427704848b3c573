"""The cells of a player line of a FIDE TXT rating list (pure), read at the offsets its header gives
(``ledger.formats.fide_list_header``).

Sources: the rating list files FIDE publishes at ratings.fide.com/download_lists.phtml, as
described in tests/data/README.md ("FIDE rating list layouts"). FIDE pads every line with blanks
to the list's full width, so a player line that ends before a column it reads (every one but
``Flag``) was cut short and is an error naming that column (a lost B-day would lose a junior's K
40); one that ends before ``Flag`` only (trailing blanks stripped, or a flag cut off: the two
cannot be told apart) is read with a blank flag and a warning. A tab, or any other C0 control
character or DEL, in a line is an error naming its column: the columns are blanks. Nothing here
raises on bad data: every fault is a :class:`~ledger.errors.Problem`.

A value longer than its column: FIDE's own full lists have them, in the other titles (``OTit``,
15 characters wide; ``IA,FA,IO,FST,DI,NA`` has 18). FIDE's writer pads each value to its column's
width and never cuts one, so the rest of such a line moves right by the excess. Only an ``OTit``
value may run on (every other value fits its column: a name has at most 60 characters in a
61-character column); a value of another column running across the start of the next is an
error (shifted columns). When the ``OTit`` value runs across the start of the next column (no
blank on either side of it), the run-on ends at the next blank, and the rest of the line is
found again moved right by a shift from 0 to the run-on's length, the first of these that lines
up:

1. the whole run-on: the value ends at that blank, the column after it is blank;
2. none: the value exactly fills its column and the next value touches it (a normal line: no
   warning);
3. each shift in between, from the smallest: the next value touches the run-on
   (``SLI,NA1946`` on the list without FOA: ``NA`` and the rating 1946).

The rest "lines up" at a shift when, every column moved by it, each value starts where its
column starts (FIDE's values are left-aligned) and none runs across the start of the next. Cases
1 and 3 are a warning naming the line and the ``OTit`` column; the cells after it are labelled
where they are on that line (``SRtng (column 117)``), so a bad value there (a rating with letters)
is an error naming its real column. No cell is guessed or left blank: a line is read whole, or,
lining up at no shift, is an error naming the ``OTit`` column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ledger.errors import Problem
from ledger.formats.fide_list_header import Column, TxtHeader
from ledger.formats.fide_list_text import WARNING, Cell, control_character

__all__ = ["line_cells"]


def line_cells(line: str, number: int, header: TxtHeader, file: str,
               problems: list[Problem]) -> dict[str, Cell] | None:
    """The cells of a player line (1-based ``number``, as in the file but for its line end),
    keyed by record field, or None with the error in ``problems``: the line holds a tab or
    another control character (:func:`control_character`; the error names the column it is in
    and where), the line ends before a column
    it needs starts (``header.needed``: every column read but the Flag; the first one it does not
    reach is named), or a value runs across the start of the next column and the line cannot be
    read again around it (see the module docstring: only an ``OTit`` value may run on). A value
    that ran on and was read around is a warning in ``problems``, and so is a line that ends
    before the Flag column (FIDE pads every line to its full width; the flag is read as blank).
    """
    control = control_character(line)
    if control is not None:
        at = control[0]
        column = next((c for c in reversed(header.columns) if c.start <= at), header.columns[0])
        problems.append(Problem(file, number, column.label(), control[1]))
        return None
    full = len(line)
    short = next((c for c in header.needed if full <= c.start), None)
    if short is not None:
        problems.append(Problem(file, number, short.label(), f"short line: it ends at column "
                                f"{full}, before the {short.token} column: a line cut short or "
                                "shifted columns"))
        return None
    read = _cells(line.rstrip(), number, header, file, problems)
    if read is None:
        return None
    cells, flag_at = read
    flag = header.flag
    if flag is not None and flag_at is not None and full <= flag_at:
        problems.append(Problem(file, number, cells["flag"].label, f"the line ends at column "
                                f"{full}, before the {flag.token} column: flag read as blank "
                                f"(FIDE's lines run on to the {flag.token} column: a line cut "
                                "short?)", WARNING))
    return cells


def _cells(line: str, number: int, header: TxtHeader, file: str,
           problems: list[Problem]) -> tuple[dict[str, Cell], int | None] | None:
    """The cells of ``line`` (trailing blanks stripped), see :func:`line_cells`, and the 0-based
    offset of the Flag column on it (moved right on a line read around a long value)."""
    length = len(line)
    index = next((i for i, start in enumerate(header.boundaries, start=1) if start < length
                  and not line[start - 1].isspace() and not line[start].isspace()), None)
    if index is None:
        return ({key: Cell(line[start:end].strip(), number, label)
                 for key, start, end, label in header.cuts},
                header.flag.start if header.flag is not None else None)
    crossing, before = header.columns[index], header.columns[index - 1]
    if before.key not in _RUNS_ON:
        problems.append(Problem(file, number, crossing.label(), "a value runs across the start of "
                                f"the {crossing.token} column: are the columns shifted?"))
        return None
    spans = _spans(line, header.columns, 0, 0, aligned=False)
    if spans is None:
        end = _run_on_end(line, crossing.start)
        problems.append(Problem(file, number, before.label(), f"{line[before.start:end].strip()!r} "
                                f"runs {_characters(end - crossing.start)} into {crossing.token}, "
                                f"at column {crossing.start + 1}, and the rest of the line lines "
                                f"up at no shift of 0 to {end - crossing.start} to the right: the "
                                "line cannot be read"))
        return None
    problems.extend(Problem(file, number, span.column.label(span.start), span.warning, WARNING)
                    for span in spans if span.warning is not None)
    at = {span.column: span for span in spans}
    return ({key: Cell(at[c].text(line), number, c.label(at[c].start))
             for key, c in header.wanted.items()},
            at[header.flag].start if header.flag is not None else None)


#: The columns whose value may be longer than the column in FIDE's own lists: the other titles
#: (arbiter, trainer, organiser: ``IA,FA,IO,FST,DI,NA``) in a 15-character column. Every other
#: value fits its column (a name has at most 60 characters in 61).
_RUNS_ON = frozenset({"o_title"})
_BLANK = re.compile(r"\s")


@dataclass(frozen=True)
class _Span:
    """Where one column's cell is on a line: 0-based ``start`` and ``end`` (None: to the line's
    end), ``warning`` when its value ran on into the next column."""

    column: Column
    start: int
    end: int | None
    warning: str | None = None

    def text(self, line: str) -> str:
        return line[self.start:self.end].strip()


def _spans(line: str, columns: list[Column], first: int, shift: int,
           aligned: bool) -> list[_Span] | None:
    """The cells of ``columns[first:]`` on ``line``, each column ``shift`` characters right of
    where the header puts it, a value of a :data:`_RUNS_ON` column that runs on read around
    (:func:`_run_on`); None when a value of another column runs across the start of the next,
    or, ``aligned``, when a value does not start where its column does."""
    spans: list[_Span] = []
    for j in range(first, len(columns)):
        column = columns[j]
        start = column.start + shift
        end = columns[j + 1].start + shift if j + 1 < len(columns) else None
        if aligned and line[start:start + 1].isspace() and line[start:end].strip():
            return None
        if end is not None and end < len(line) and not line[end - 1].isspace() \
                and not line[end].isspace():
            if column.key not in _RUNS_ON:
                return None
            rest = _run_on(line, columns, j, start, end, shift)
            return None if rest is None else spans + rest
        spans.append(_Span(column, start, end))
    return spans


def _run_on(line: str, columns: list[Column], j: int, start: int, boundary: int,
            shift: int) -> list[_Span] | None:
    """The cells from ``columns[j]`` on when its value (from ``start``) runs across
    ``boundary``, the start of the next column: the run-on ends at the next blank, and the rest
    of the line is read moved right by the first shift, from 0 to the run-on's length, that lines
    up, in the order of the module docstring (the whole run-on, none, then from the smallest)."""
    column, after = columns[j], columns[j + 1]
    run_on = _run_on_end(line, boundary) - boundary
    for moved in (run_on, 0, *range(1, run_on)):
        rest = _spans(line, columns, j + 1, shift + moved, aligned=True)
        if rest is None:
            continue
        if moved == 0:  # the value fills its column exactly, the next one touches it
            return [_Span(column, start, boundary)] + rest
        end = boundary + moved
        value = line[start:end].strip()
        touching = f", touching the {after.token} value" if moved < run_on else ""
        return [_Span(column, start, end, f"{value!r} ({_characters(len(value))}) is longer than "
                      f"the {column.token} column ({after.start - column.start}): it runs "
                      f"{_characters(moved)} into {after.token}, at column {boundary + 1}"
                      f"{touching}; the rest of the line is read {_characters(moved)} to the "
                      "right")] + rest
    return None


def _run_on_end(line: str, boundary: int) -> int:
    """Where a value running across ``boundary`` ends: the next blank, else the line's end."""
    blank = _BLANK.search(line, boundary)
    return blank.start() if blank is not None else len(line)


def _characters(n: int) -> str:
    return f"{n} character{'' if n == 1 else 's'}"
