"""``ledger import PLAYERS.csv --format players``: a federation's register in bulk, all or nothing.

Each row is a ``ledger player add`` (``services.register.players``): the same checks with the same
messages (``validate_new_player``; a FIDE id already in the ledger; a name already a player's,
or looking like one, unless the row's ``new`` column says it is another person), each error
naming the file, the line and the column. Rows of the file count as registered for the rows
after them, as if ``player add`` had been run once per row in the file's order. The register is
read as a stream (``formats.players_csv``) and written in batches of Core INSERTs (executemany)
inside one transaction, with one ``players.import`` change for the whole file; the first error
stops the writing (the rest is still read, for its errors) and the transaction is rolled back.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import cast

from sqlalchemy import Engine, Table, case, func, insert, select
from sqlalchemy.orm import Session

from ledger.db.models import Player, PlayerEntry
from ledger.db.sequences import reset_sequences
from ledger.domain import Actor, Period, count
from ledger.errors import ImportRejected, LedgerError, Problem, shown
from ledger.formats.players_csv import PlayerRow, read_players
from ledger.formats.text_stream import Problems
from ledger.names import lookalike_folds, loose_forms, name_key, same_name_keys
from ledger.rules.editions import edition_for
from ledger.services.close.late import earliest_open
from ledger.services.close.state import FIRST_RATED_PERIOD
from ledger.services.core.audit import record_change, summarise
from ledger.services.core.session import transaction
from ledger.services.core.statistics import analyze_written
from ledger.services.imports.input_files import InputFile, check_input_file
from ledger.services.register.matching import described
from ledger.services.register.players import (
    NewPlayer,
    below_floor_note,
    entry_values,
    invalid_field,
    looks_like,
    prior_games,
    same_name,
    validate_new_player,
)

#: Rows sent to the database in one executemany.
BATCH = 5000
#: Notes (ratings below the floor, namesakes) listed one by one; the rest are counted.
MAX_NOTES = 20
SOURCE = "ledger import --format players"


@dataclass
class PlayerImportReport:
    """What an import of a register did (or, ``dry_run``, would do): ``file``, ``sha256``;
    ``rows`` (rows read, blank ones aside), ``registered`` (players written), ``ids``
    (``[first, last]`` player id, None when none), ``unrated`` (registered without a rating),
    ``notes`` (``player add``'s notes, the first ``MAX_NOTES``, then a count), ``problems``."""

    file: str
    sha256: str = ""
    dry_run: bool = False
    rows: int = 0
    registered: int = 0
    ids: list[int] | None = None
    unrated: int = 0
    notes: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


@dataclass
class _Register:
    """The names and FIDE ids already taken (the ledger's, then the file's rows read so far):
    name key -> the line of the file that took it (None: a player of the ledger) and the next
    namesake number; each name by its ``lookalike_folds`` (own word order), for finding the
    names a row looks like (``loose_forms`` decides); the FIDE ids."""

    keys: dict[str, int | None]
    namesakes: dict[str, int]
    folds: dict[str, list[str]]
    fide_ids: dict[int, int | None]

    @classmethod
    def load(cls, session: Session) -> _Register:
        """Four queries over ``players``, whatever its size: keys, namesake tops, names, FIDE
        ids."""
        # a withdrawn player's name is free again, their namesake number is not
        live = func.sum(case((Player.withdrawn, 0), else_=1))
        query = select(Player.name_key, func.max(Player.namesake), live).group_by(
            Player.name_key)
        tops = {key: (top, in_use) for key, top, in_use in session.execute(query)}
        fide = session.scalars(select(Player.fide_id).where(Player.fide_id.is_not(None)))
        taken = cls(keys=dict.fromkeys(k for k, (_, in_use) in tops.items() if in_use),
                    namesakes={k: n + 1 for k, (n, _) in tops.items()}, folds={},
                    fide_ids=dict.fromkeys(int(f) for f in fide if f is not None))
        for key, name in session.execute(select(Player.name_key, Player.name)
                                         .where(Player.withdrawn.is_(False))):
            taken.add_name(name, key)
        return taken

    def add_name(self, name: str, key: str) -> None:
        """Take ``name`` (its ``name_key`` ``key``) for the look-alike check of later rows."""
        for fold in lookalike_folds(name, key, orders=False):
            self.folds.setdefault(fold, []).append(name)

    def alike(self, name: str, key: str) -> bool:
        """Whether a name taken looks like ``name`` (``loose_forms`` shared, another key)."""
        forms: set[str] | None = None
        for fold in lookalike_folds(name, key):
            for other in self.folds.get(fold, ()):
                forms = forms if forms is not None else set(loose_forms(name))
                if name_key(other) != key and not forms.isdisjoint(loose_forms(other)):
                    return True
        return False


def import_players(engine: Engine, path: str, *, dry_run: bool = False,
                   actor: Actor | None = None) -> PlayerImportReport:
    """Register every player of the register at ``path`` (``formats.players_csv``), each with
    the entry ``player add`` writes: the rating in force for every open period (standard
    pool), ``prior_games`` by ``player add``'s rule (``players.prior_games``: blank is unknown,
    treated as established for a rated player, 0 for an unrated one, as every import registers
    them).

    Raises ``ImportRejected`` (exit 3, nothing written) listing every error with file, line and
    column (up to ``text_stream.MAX_PROBLEMS``). One ``players.import`` change by ``actor``
    (None: ``Actor.from_code``) records the import (entity ``file``, the SHA-256) with a
    summary (rows, registered, first and last id); every row written carries it. On
    PostgreSQL the players and their entries are analyzed after the commit when many were
    registered (``core.statistics.analyze_written``: the import of games that follows is
    planned with their statistics).
    """
    check_input_file(path)
    report = PlayerImportReport(path, dry_run=dry_run)
    out = Problems(path)
    with transaction(engine, dry_run=dry_run) as session, InputFile(path) as source:
        change = record_change(session, actor or Actor.from_code("import_players"),
                               "players.import", "file", "pending")
        taken = _Register.load(session)
        period = earliest_open(session)
        floor_period = period or Period.of(dt.date.today())
        # the rating floor ``below_floor_note`` compares with (0: no rule edition, no note)
        floor = 0 if floor_period < FIRST_RATED_PERIOD else edition_for(floor_period).rating_floor
        next_id = (session.scalar(select(func.max(Player.id))) or 0) + 1
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        players: list[dict[str, object]] = []
        entries: list[dict[str, object]] = []
        first_id = next_id
        notes = 0
        for row in read_players(path, source.stream, out):
            report.rows += 1
            key = name_key(row.name)
            person = _checked(session, path, row, key, taken, out)
            if person is None:
                continue
            if out.errors:  # nothing more is written; later rows are still checked against it
                _take(taken, key, row, person)
                continue
            players.append({"id": next_id, "name": person.name.strip(), "name_key": key,
                            "namesake": taken.namesakes.get(key, 0), "fide_id": person.fide_id,
                            "birth_year": person.birth_year, "sex": person.sex,
                            "federation": person.federation, "title": person.title,
                            "w_title": None, "o_title": None, "foa_title": None,
                            "registered_at": now, "merged_into": None, "withdrawn": False,
                            "change_id": change.id})
            entries.append(entry_values(next_id, person, source=SOURCE, effective_from=period,
                                        change_id=change.id)
                           | {"recorded_at": now, "kind": "rating", "pool": "standard"})
            _take(taken, key, row, person)
            if floor and person.rating is not None and person.rating < floor:
                notes += 1
                if notes <= MAX_NOTES:
                    report.notes.append(f"line {row.line}: "
                                        f"{below_floor_note(person.rating, floor_period)}")
            report.unrated += person.rating is None
            next_id += 1
            if len(players) >= BATCH:
                _write(session, players, entries)
        report.problems = out.finish()
        report.sha256 = source.sha256()
        if out.errors:
            raise ImportRejected(f"{path}: {count(out.errors, 'error')}; nothing was written",
                                 report.problems)
        _write(session, players, entries)
        reset_sequences(session.connection(), [cast(Table, Player.__table__)])
        if notes > MAX_NOTES:
            report.notes.append(f"... and {count(notes - MAX_NOTES, 'more rating')} below the floor")
        report.registered = next_id - first_id
        report.ids = [first_id, next_id - 1] if report.registered else None
        change.entity_id = report.sha256
        summarise(change, {"file": path, "rows": report.rows, "registered": report.registered,
                           "ids": report.ids})
    if not dry_run:  # PostgreSQL's statistics on the players written (core.statistics)
        analyze_written(engine, {"players": report.registered,
                                 "player_entries": report.registered})
    return report


def _write(session: Session, players: list[dict[str, object]],
           entries: list[dict[str, object]]) -> None:
    """Insert the batch (Core executemany, players first) and empty it."""
    if players:
        session.execute(insert(cast(Table, Player.__table__)), players)
        session.execute(insert(cast(Table, PlayerEntry.__table__)), entries)
    players.clear()
    entries.clear()


def _take(taken: _Register, key: str, row: PlayerRow, person: NewPlayer) -> None:
    """Mark the name and FIDE id of ``row`` (registered) as taken for the rows after it."""
    if key not in taken.keys:
        taken.keys[key] = row.line
    taken.namesakes[key] = taken.namesakes.get(key, 0) + 1
    taken.add_name(row.name, key)
    if person.fide_id is not None:
        taken.fide_ids[person.fide_id] = row.line


def _checked(session: Session, path: str, row: PlayerRow, key: str, taken: _Register,
             out: Problems) -> NewPlayer | None:
    """``row`` (its name's ``name_key`` ``key``) as the ``NewPlayer`` that ``player add`` would
    register, or None with its errors in ``out`` (column: the field ``player add`` names,
    ``birth-year`` -> ``birth_year``)."""
    person = NewPlayer(name=row.name, fide_id=row.fide_id, birth_year=row.birth_year, sex=row.sex,
                       federation=row.federation, title=row.title, rating=row.rating,
                       prior_games=prior_games(row.rating, row.prior_games),
                       reached_2400=row.reached_2400, reached_2300=row.reached_2300)

    def refuse(column: str, message: str) -> None:
        out.append(Problem(path, row.line, column, message))

    try:
        validate_new_player(person)
    except LedgerError as exc:
        column = invalid_field(exc)
        refuse(column, str(exc).removeprefix(f"{str(exc).split(':')[0]}: "))
        return None
    if person.fide_id is not None and person.fide_id in taken.fide_ids:
        line = taken.fide_ids[person.fide_id]
        if line is None:
            clash = session.scalars(select(Player).where(Player.fide_id == person.fide_id)).one()
            refuse("fide_id", f"{person.fide_id} already belongs to {clash.name} (#{clash.id})")
        else:
            refuse("fide_id", f"{person.fide_id} is already the FIDE id of line {line}")
        return None
    if row.new:
        return person
    name = shown(person.name.strip())
    same = [k for k in (key, *same_name_keys(key)) if k in taken.keys]
    if same:
        lines = sorted({line for k in same if (line := taken.keys[k]) is not None})
        in_ledger = same_name(session, person.name)
        where = " and ".join(
            ([_described(in_ledger)] if in_ledger else []) + [f"line {n} of the file" for n in lines])
        refuse("name", f"{name} is already in the ledger as {where}; refer to them by id, or, "
               "if this is another person, write yes in the row's new column")
        return None
    if taken.alike(person.name, key):
        alike = looks_like(session, person.name)
        refuse("name", f"{name} looks like {_described(alike) if alike else 'a player of the file'}"
               ", already in the ledger (the same name but for blanks, apostrophes, an umlaut "
               "written ae, oe, ue, or look-alike letters); refer to them by id, or, if this is "
               "another person, write yes in the row's new column")
        return None
    return person


def _described(players: list[Player]) -> str:
    return " and ".join(map(described, players))

