"""PostgreSQL's statistics brought up to date right after a bulk write (issue 25).

Right after an import or a close, before autovacuum's ANALYZE (up to a minute later, or never
when autovacuum is off), PostgreSQL has no statistics on the rows just written and plans with
its defaults: an equality on any column keeps 0.5 % of the rows, a parameter array is 10
elements. Then a statement of the next command may scan every game of a period, or join a
batch's players to every entry by a nested loop (the import of 1,000,000 games right after a
register of 200,000 players: 30-50 s a batch of 10,000 games once the rating checks' statement
is planned generically). ``analyze_written`` runs the ANALYZE that autovacuum would run, at the
end of the command that wrote the rows, so that the next one is planned with them
(benchmarks/RESULTS.md, "PostgreSQL's plans right after an import or a close").
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import Engine, bindparam, text
from sqlalchemy.exc import SQLAlchemyError

from ledger.db.engine import autocommit_connection

#: autovacuum's own rule for an ANALYZE (``autovacuum_analyze_threshold`` and
#: ``autovacuum_analyze_scale_factor``, PostgreSQL's defaults): a table is analyzed once more
#: rows than ``ROWS`` + 1/``SCALE`` of those it held at its last ANALYZE were written.
ROWS = 50
SCALE = 10

_TUPLES = text("SELECT relname, reltuples::bigint FROM pg_class WHERE relkind = 'r' "
               "AND relname IN :names AND pg_table_is_visible(oid)").bindparams(
    bindparam("names", expanding=True))


def stale(written: Mapping[str, int], tuples: Mapping[str, int]) -> list[str]:
    """The tables of ``written`` (table name -> rows a write added) to analyze, in the order
    given: those that gained more than ``ROWS`` + 1/``SCALE`` of ``tuples`` (table name -> rows
    at the last ANALYZE, PostgreSQL's ``reltuples``; negative or missing: never analyzed, so
    every one of its rows is new)."""
    return [name for name, rows in written.items()
            if rows * SCALE > SCALE * ROWS + max(tuples.get(name, -1), 0)]


def analyze_written(engine: Engine, written: Mapping[str, int]) -> list[str]:
    """After a bulk write has committed, on PostgreSQL: ``ANALYZE`` the tables of ``written``
    (table name -> rows the write added) that ``stale`` picks, in one statement in autocommit
    (so the statistics count the committed rows, and autovacuum, seeing them analyzed, does not
    analyze them again), ``SKIP_LOCKED``: a table autovacuum is working on is left to it rather
    than waited for. Returns the tables analyzed ([] on SQLite, whose planner reads no
    statistics the ledger keeps: ``ANALYZE`` changed no close or ``db check`` there).

    Costs about 0.1-0.2 s a table of 100,000 rows (at M: ``games`` after the month's import
    0.12-0.22 s, ``players`` and ``player_entries`` 0.04 s each; at L ``games`` of 1,000,000
    0.34-0.46 s). Raises nothing: the rows are committed already, and statistics only guide
    the planner (autovacuum will gather them anyway); a role that does not own a table has it
    skipped by PostgreSQL with a warning.
    """
    if engine.dialect.name != "postgresql" or all(rows <= ROWS for rows in written.values()):
        return []  # a write of ROWS rows or fewer makes no table stale: no round trip
    try:
        with autocommit_connection(engine) as conn:
            tuples = {name: int(rows) for name, rows in conn.execute(
                _TUPLES, {"names": list(written)})}
            tables = stale(written, tuples)
            if tables:
                conn.execute(text("ANALYZE (SKIP_LOCKED) " + ", ".join(
                    conn.dialect.identifier_preparer.quote(t) for t in tables)))
    except SQLAlchemyError:
        return []
    return tables
