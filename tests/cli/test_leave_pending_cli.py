"""``ledger period close`` while a submission on the web (``ledger serve``) dated in the period is
pending review: refused, naming it, unless ``--leave-pending`` (issue 23). The submissions are
those of tests/web/test_submissions_service.py (its docstring describes the Riverside file)."""

from __future__ import annotations

import datetime as dt

import pytest
from cli_runs import ok, run
from data_files import EXAMPLE_DATA
from sqlalchemy import Engine

from ledger.db.models.accounts import User
from ledger.services.core import clock
from ledger.services.core.session import transaction
from ledger.services.submissions import submissions as subs

TODAY = dt.date(2026, 12, 2)
RIVERSIDE = (EXAMPLE_DATA.parent / "riverside-autumn-open-2026.pgn").read_bytes()
#: One more game of two Riverside players, on 2026-09-30 (period 2026-09).
EXTRA = (b'[Event "Riverside rapidplay"]\n[Date "2026.09.30"]\n[Round "1"]\n'
         b'[White "Okafor, Grace"]\n[Black "Novak, Petra"]\n[Result "0-1"]\n'
         b'[WhiteFideId "90001001"]\n[BlackFideId "90001002"]\n\n0-1\n')


def test_the_close_refuses_while_a_submission_of_its_period_is_pending(
        ledger_db: str, engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock, "today", lambda: TODAY)
    with transaction(engine) as session:
        session.add_all([User(name="ann", name_key="ann", role="reporter", password_hash="-"),
                         User(name="olga", name_key="olga", role="officer", password_hash="-")])
    first = subs.submit(engine, 1, "r.pgn", RIVERSIDE, {}, today=TODAY)
    subs.accept(engine, first.id, 2, [w["id"] for w in first.warnings], today=TODAY)
    subs.submit(engine, 1, "extra.pgn", EXTRA, {}, today=TODAY)
    refused = run(ledger_db, "period", "close")
    assert refused.exit_code == 1
    assert ("period 2026-09: submission 2 dated in it or before is pending review; accept "
            "or reject them first, or give --leave-pending") in " ".join(refused.output.split())
    ok(ledger_db, "period", "close", "--dry-run")  # a dry run is not refused
    closed = ok(ledger_db, "period", "close", "--leave-pending", "--json")
    assert '"period": "2026-09"' in closed.stdout
