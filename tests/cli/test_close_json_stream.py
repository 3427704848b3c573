"""``period close --json`` writes its document piece by piece
(``cli.render.values.write_json``: the results one player at a time, never the whole text
held); on a federation month of a few hundred players the text is still exactly
``json.dumps(indent=2, ensure_ascii=False)`` of what it parses to, and complete."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from cli_runs import ok

from benchmarks import federation
from ledger.services.core.session import open_ledger
from ledger.services.imports.games import import_file
from ledger.services.imports.players import import_players


def test_a_federation_close_streamed_is_the_json_text(ledger_db: str, tmp_path: Path) -> None:
    register = federation.federation(300)
    federation.write_register(tmp_path / "players.csv", register)
    federation.write_month(tmp_path / "games.csv", register, 1_500, 2026, 9)
    engine = open_ledger(ledger_db)
    try:
        import_players(engine, str(tmp_path / "players.csv"))
        import_file(engine, str(tmp_path / "games.csv"), None, today=dt.date(2026, 12, 1))
    finally:
        engine.dispose()
    text = ok(ledger_db, "period", "close", "2026-09", "--json").stdout
    document = json.loads(text)
    assert text == json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    # complete: 1,500 games, each not counted as not rated gives two per-game rows (one per
    # side; this month has no game rated for one side only), all of them written
    assert len(text) > 4096 * 20  # many pieces of the stream (4,096 pieces a write)
    sides = sum(len(r["per_game"]) for r in document["results"])
    not_rated = sum(document["not_rated"].values())
    assert sides == 2 * (document["games"] - not_rated)
    assert document["games"] == 1_500
