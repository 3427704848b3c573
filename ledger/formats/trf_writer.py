"""Writing TRF-16: an event as the text of a Tournament Report File (pure: values in, text out).

Source: FIDE TRF-16 (Handbook C.04 Annex 2, "FIDE Data Exchange Format", 2016): header records
``012`` name, ``022`` city, ``032`` federation, ``042``/``052`` start and end dates
(``YYYY/MM/DD``), ``102`` chief arbiter, ``122`` time control, ``132`` round dates (``YY/MM/DD``
from column 92), TRFx's ``XXR`` number of rounds, and one ``001`` line per player in the columns
``ledger.formats.trf_lines`` reads (titles in TRF-16's full form). A valid event reads back the
same with ``ledger.formats.trf.read_trf``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from ledger.formats.trf import TrfEvent
from ledger.formats.trf_lines import TITLES, TrfPlayer, TrfRound, trim_rounds

__all__ = ["write_trf"]

#: TRF-16 writes the title in full in columns 11-13 (``GM, IM, WGM, FM, WIM, CM, WFM, WCM``).
_WRITE_TITLES = frozenset(TITLES.values())


def _date_text(day: dt.date | None) -> str:
    return day.strftime("%Y/%m/%d") if day else ""


def write_trf(event: TrfEvent, comments: Sequence[str] = ()) -> str:
    """TRF-16 text of ``event`` (LF line ends): header records, ``XXR`` when ``rounds`` is
    given, ``132`` when round dates are, one ``### text`` line per entry of ``comments``, then
    one ``001`` line per player. (TRF-16 defines no comment record; TRF-2026, Remark 1, allows
    lines starting ``###``, and readers skip them, as ``ledger.formats.trf_lines`` does.)

    Raises ``ValueError`` for a value that does not fit its columns (a name over 33 characters,
    a rating over 4 digits, a FIDE id over 11 digits, a start rank over 9999) or a comment with
    a line break in it.
    """
    out = [f"012 {event.name or ''}"]
    for code, value in (("022", event.city), ("032", event.federation),
                        ("042", _date_text(event.start)), ("052", _date_text(event.end)),
                        ("102", event.arbiter), ("122", event.time_control)):
        if value:
            out.append(f"{code} {value}")
    if event.rounds:
        out.append(f"XXR {event.rounds}")
    if any(event.round_dates):
        cells = "".join(f"{d.strftime('%y/%m/%d') if d else '':8}  " for d in event.round_dates)
        out.append(("132" + " " * 88 + cells).rstrip())  # round n's date from 92 + 10(n-1)
    for comment in comments:
        if "\n" in comment or "\r" in comment:
            raise ValueError(f"comment {comment!r}: a TRF comment is one line")
        out.append(f"### {comment}")
    for p in event.players:
        out.append(_player_line(p))
    return "\n".join(out) + "\n"


def _player_line(p: TrfPlayer) -> str:
    if len(p.name) > 33:
        raise ValueError(f"player {p.rank}, {p.name!r}: {len(p.name)} characters, and a TRF name "
                         "has at most 33 (columns 15-47)")
    if not 0 < p.rank <= 9999:
        raise ValueError(f"player {p.rank}: a TRF start rank is 1 to 9999")
    if (p.rating or 0) > 9999 or (p.fide_id or 0) >= 10**11 or len(p.birth or "") > 10:
        raise ValueError(f"player {p.rank}, {p.name!r}: a rating, FIDE id or birth date does not "
                         "fit its columns")
    sex = {"M": "m", "F": "w", None: " "}[p.sex]
    title = p.title if p.title in _WRITE_TITLES else ""
    points = f"{p.points:4.1f}" if p.points is not None else ""
    line = (f"001 {p.rank:4d} {sex}{title:>3} {p.name:33} {p.rating or '':>4} "
            f"{p.federation or '':3} {p.fide_id or '':>11} {p.birth or '':10} {points:>4} "
            f"{p.place if p.place is not None else '':>4}  ")
    for r in trim_rounds(p.rounds):
        if r == TrfRound(None, "", ""):
            line += " " * 10
            continue
        opponent = f"{r.opponent:4d}" if r.opponent else "0000"
        line += f"{opponent} {r.colour or ' '} {r.result or ' '}  "
    return line.rstrip()
