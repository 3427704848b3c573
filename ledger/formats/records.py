"""The records every file format reads into: one game with its two players and its event.

PGN (``ledger.formats.pgn``), TRF (``ledger.formats.trf``) and CSV (``ledger.formats.games_csv``)
each turn a file into a :class:`Readout` of :class:`FileGame` values plus problems; the import
service (``ledger.services.imports.games``) takes it from there, whatever the format. Pure values: no
database, no I/O.

Where a value came from is kept as a :data:`Where` (1-based line, field or column label), so that
a problem found later (an unknown player, a rating that differs from the ledger's, a game recorded
with another result) names the file's own line and field: a PGN tag (``WhiteElo``), a TRF column
(``col 49-52 rating``) or a CSV column (``white``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field

from ledger.domain import Result, described_character, find_control_character
from ledger.errors import Problem

__all__ = ["MAX_EVENT", "MAX_ROUND", "NO_MOVES", "EventDetails", "FileGame", "FilePlayer", "Readout",
           "Where", "text_fault"]

#: (1-based line or None, field or column label) of a value in the file.
Where = tuple[int | None, str]

#: The most characters the ledger keeps of an event's name and of a round label, from a file as
#: from ``ledger game add``.
MAX_EVENT, MAX_ROUND = 200, 20


def text_fault(value: str, what: str, limit: int | None = None) -> str | None:
    """What a reader reports of ``value`` (str) as a one-line text field (a name, an event, a
    round ...), named ``what`` (``an event name``) in the message: a control or format
    character (``domain.find_control_character``: ``a format character (U+00AD SOFT HYPHEN):
    an event name is one line of visible text``), else, with ``limit`` (int), more characters
    than that once stripped (``201 characters; at most 200``). None when it is fine."""
    control = find_control_character(value)
    if control is not None:
        return f"{described_character(control.group())}: {what} is one line of visible text"
    if limit is not None and len(value.strip()) > limit:
        return f"{len(value.strip())} characters; at most {limit}"
    return None


@dataclass(eq=False, slots=True)
class FilePlayer:
    """A player as a file names them (one TRF ``001`` line, or one side of a PGN/CSV game).

    - ``name``: as written; ``fide_id``, ``birth_year``, ``rating`` (published rating the file
      gives; None when blank or 0: unrated), ``title`` (``GM`` ... ``WCM``), ``sex`` (``M``/``F``),
      ``federation`` (three letters): None when the file does not say.
    - ``at``: where each value stands, keyed ``name``, ``rating``, ``fide_id``, ``title`` (and, from
      a TRF, ``sex``, ``federation``, ``birth_year``); a missing key falls back to the name's place.

    Compared by identity: the import service matches each object once (a TRF player line is one
    object shared by all its games; a PGN game makes new objects for its two sides). A value
    never changed once read, though not a frozen dataclass (nor is ``FileGame``): a frozen
    one's ``__init__`` sets each field through ``object.__setattr__``, about 1 us a CSV row
    for the game and its two players (issue 25).
    """

    name: str
    at: Mapping[str, Where]
    fide_id: int | None = None
    birth_year: int | None = None
    rating: int | None = None
    title: str | None = None
    sex: str | None = None
    federation: str | None = None

    def where(self, key: str) -> Where:
        """Line and field of ``key``; falls back to the name's place."""
        return self.at.get(key) or self.at["name"]


@dataclass(frozen=True, slots=True)
class EventDetails:
    """What a tournament file says about its event (TRF header records ``012`` ... ``122``, ``XXR``).

    ``start``/``end`` are the event's dates; its games belong to the period of ``end``.
    """

    name: str
    start: dt.date | None = None
    end: dt.date | None = None
    city: str | None = None
    federation: str | None = None
    arbiter: str | None = None
    time_control: str | None = None
    rounds: int | None = None


@dataclass(slots=True, unsafe_hash=True)
class FileGame:
    """One game read from a file, result from White's point of view.

    - ``line``: first line of the game (PGN: its first tag; TRF: White's ``001`` line; CSV: its
      row); ``at``: places of ``result`` and ``date`` (and, from a PGN, ``event`` and
      ``round``) (keys), for problems.
    - ``event``: the event's name (None: no event) and ``details`` when the file describes it;
      ``event_start``/``event_end`` bound the event when the file gives them.
    - ``date``: the game's date (TRF: its round date, else the event's end date).
    - ``result`` and ``played`` (False: fewer than one move each, never rated, FIDE B.02 §5.1).
    - ``time_control``: the game's time control as the file writes it (None: not given), read
      as ``time_control_unit`` says: ``seconds`` (PGN ``TimeControl``, PGN standard §9.6),
      ``minutes`` (CSV: base minutes + increment seconds) or ``free`` (TRF record 122, free
      text: read as minutes where it is in that form, else silently the event's pool);
      ``white_time_control`` / ``black_time_control``: each player's own, when the file gives
      them apart (docs/RULES.md §9: different times, not rated); ``pool``: a pool the file
      names (CSV ``pool``), unchecked. The import turns these into the game's pool
      (``services.imports.game_pools``, with ``rules.pools``).
    """

    line: int
    white: FilePlayer
    black: FilePlayer
    date: dt.date
    result: Result
    played: bool = True
    event: str | None = None
    round: str | None = None
    site: str | None = None
    event_start: dt.date | None = None
    event_end: dt.date | None = None
    details: EventDetails | None = None
    at: Mapping[str, Where] = field(default_factory=dict)
    time_control: str | None = None
    time_control_unit: str = "minutes"
    white_time_control: str | None = None
    black_time_control: str | None = None
    pool: str | None = None

    def where(self, key: str) -> Where:
        """Line and field of ``key`` (``result``, ``date``, ``event``, ``round``); else the
        game's first line, with ``key`` as the field."""
        return self.at.get(key) or (self.line, key)


#: What ``ledger import --no-moves`` takes for a PGN's games without moves: ``played`` games
#: (rated) or ``forfeit`` (never rated); without it the file decides (``formats.pgn.read_pgn``).
NO_MOVES = ("played", "forfeit")


@dataclass
class Readout:
    """A file read: its ``games`` (those without errors), ``games_in_file`` (with them),
    ``players_in_file`` (TRF: every ``001`` line; else None), and every ``problems`` found (an
    error keeps what it concerns out of ``games``; warnings do not), up to the bound of
    ``ledger.formats.text_stream.Problems``: a reader that stopped there ends them with an error
    naming the line it stopped at, and gives no games. ``notes``: what the reader decided for
    the whole file (a PGN results file: ``formats.pgn.read_pgn``)."""

    games: list[FileGame]
    problems: list[Problem]
    games_in_file: int = 0
    players_in_file: int | None = None
    notes: list[str] = field(default_factory=list)

