"""``services.core.chain`` on SQLite: a change's rows digested from SQLite's own JSON arrays
(``chain._json_rows``) give the bytes ``json.dumps`` gives of the same rows read by SQLAlchemy.
A plain SQLite file with the digested columns of ``games``, no ledger (no database fixture)."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

from sqlalchemy import create_engine, text

from ledger.services.core import chain


def test_sqlites_json_of_a_changes_rows_is_the_digests_json(tmp_path: Path) -> None:
    """On SQLite a change's rows not corrected since are digested from SQLite's own JSON arrays
    (``_json_rows``): every control character, quote, backslash, DEL, U+0085, U+2028, non-ASCII
    text and a character beyond the BMP written as ``json.dumps`` writes them, NULLs as null,
    the flags as true/false (a stored 2 as true, as SQLAlchemy reads it), dates as stored; the
    same digest as the rows as Python values give, and as the hand-written text of one row."""
    engine = create_engine(f"sqlite:///{tmp_path / 'facts.db'}")
    texts = ["".join(map(chr, range(32))), 'a "quoted" \\ back\\slash', "\x7f\x85\u2028\u2029",
             "Müller, Jürgen ♞ 𝄞", "", "round 1.2"]
    rows = [(i + 1, None if i % 2 else i, text_, dt.date(2026, 9, 1 + i), 10 + i, 20 + i,
             "1-0", i % 3, "valid", None if i == 4 else f"file {text_}:{i}", "standard",
             bool(i % 2)) for i, text_ in enumerate(texts)]
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE games (id INTEGER PRIMARY KEY, event_id INTEGER, "
                          "round VARCHAR(20), date DATE, white_id INTEGER, black_id INTEGER, "
                          "result VARCHAR(8), played BOOLEAN, status VARCHAR(8), "
                          "source VARCHAR(500), pool VARCHAR(8), unequal_times BOOLEAN, "
                          "change_id INTEGER)"))
        conn.execute(text("CREATE TABLE game_revisions (id INTEGER PRIMARY KEY, game_id "
                          "INTEGER, valid_from_change INTEGER)"))
        conn.exec_driver_sql("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 7)",
                             [(*r[:3], r[3].isoformat(), *r[4:]) for r in rows])
        conn.exec_driver_sql("INSERT INTO games VALUES (99, NULL, NULL, '2026-10-01', 1, 2, "
                             "'0-1', 0, 'valid', 'other', 'standard', 0, 8)")
        games = chain.FACTS["games"]
        assert conn.dialect.name == "sqlite" and not chain._corrected(conn, games, 7)
        python_rows = [(*r[:7], bool(r[7]), *r[8:]) for r in rows]
        assert chain._change_digest(conn, games, 7) == chain.rows_digest(python_rows)
        assert chain._change_digest(conn, games, 8) == (hashlib.sha256(
            b'[[99,null,null,"2026-10-01",1,2,"0-1",false,"valid","other","standard",false]]'
        ).hexdigest(), 1)
    engine.dispose()
