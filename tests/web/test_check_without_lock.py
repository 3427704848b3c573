"""A submission's check holds no write lock (issue 23): while its dry runs of the import are
paused in the middle (the players, event and games of one run written in its savepoint, not yet
rolled back), other writers do their writes and finish: a user added (``ledger user add``), a
login (its ``login_attempts`` and ``web_sessions`` rows), a player and a game added (``ledger
player add``, ``game add``). On SQLite the check runs on a private snapshot of the ledger, on
PostgreSQL in a transaction without the ledger's advisory lock (``session.scratch``). Were the
check in the writing transaction, each of those writes would wait for it (and, as the check
waits for them, fail after the busy timeout).

Ordering is asserted with events, never with times: ``PausedCheck`` stops the check until the
test has done its writes, and records the order of what happened.

Data: examples/riverside-autumn-open-2026.pgn (test_submissions_service.py's docstring): 15
games between 6 players a new ledger does not know: no error, 7 warnings (one a player, the
import's ``--register-players``; one for the game without moves, line 218). Its first dry run
(no override) is refused for the unknown players; the second (every override) records them and
the games in its savepoint: the check pauses after it.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from data_files import EXAMPLE_DATA
from flask import Flask
from sqlalchemy import Engine, func, select

from ledger.db.models import Game, Player
from ledger.db.models.accounts import User
from ledger.db.models.submissions import Submission
from ledger.errors import InvalidInput
from ledger.services.core.session import scratch, transaction
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player
from ledger.services.submissions import checking
from ledger.services.submissions import submissions as subs

RIVERSIDE = (EXAMPLE_DATA.parent / "riverside-autumn-open-2026.pgn").read_bytes()
TODAY = dt.date(2026, 12, 2)
#: Seconds a thread waits for the other before giving up: a safety net so that a broken build
#: fails instead of hanging; a passing run never waits that long.
WAIT = 120


class PausedCheck:
    """``checking.run_file`` (one dry run of the import, inside the check's savepoint) that
    stops after the first run that records games, until ``go_on`` is set; ``paused`` is set
    when it stops. ``order`` lists what happened, in order."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.real = checking.run_file
        self.paused, self.go_on = threading.Event(), threading.Event()
        self.order: list[str] = []
        monkeypatch.setattr(checking, "run_file", self)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        report = self.real(*args, **kwargs)
        if not self.paused.is_set():
            self.order.append(f"check paused with {report.recorded} games written")
            self.paused.set()
            if not self.go_on.wait(WAIT):
                raise AssertionError("the test never let the check go on")
            self.order.append("check goes on")
        return report

    def run(self, call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
        """``call()`` in a thread, started; the thread and a list that gets its result or
        the exception it raised."""
        outcome: list[Any] = []

        def target() -> None:
            try:
                outcome.append(call())
            except Exception as exc:  # handed to the test
                outcome.append(exc)

        thread = threading.Thread(target=target)
        thread.start()
        return thread, outcome

    def wait_paused(self, outcome: list[Any]) -> None:
        assert self.paused.wait(WAIT), f"the check never reached its pause: {outcome}"


def _reporter(engine: Engine) -> int:
    with transaction(engine) as session:
        ann = User(name="ann", name_key="ann", role="reporter", password_hash="-")
        session.add(ann)
        session.flush()
        return ann.id


def _count(engine: Engine, model: type) -> int:
    with transaction(engine, write=False) as session:
        return session.scalar(select(func.count()).select_from(model)) or 0


def test_writers_go_on_while_a_submission_is_checked(
        app: Flask, login: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> None:
    engine = app.extensions["ledger"]
    ann = _reporter(engine)
    for name in ("Abebe, Kofi", "Iversen, Ruth"):
        add_player(engine, NewPlayer(name=name, rating=1500, prior_games=300))
    check = PausedCheck(monkeypatch)
    thread, outcome = check.run(lambda: subs.submit(engine, ann, "riverside.pgn", RIVERSIDE,
                                                    {}, today=TODAY))
    try:
        check.wait_paused(outcome)
        # a user added and logged in at /login (asserted: 302 and a session cookie)
        login(app.test_client(), "Olga", "officer")
        add_player(engine, NewPlayer(name="Zeller, Quentin", rating=1600, prior_games=300))
        add_game(engine, "Abebe, Kofi", "Iversen, Ruth", "1-0", "2026-10-03", today=TODAY)
        check.order.append("writes done")
    finally:
        check.go_on.set()
        thread.join(WAIT)
    assert check.order == ["check paused with 15 games written", "writes done",
                           "check goes on"]
    [made] = outcome
    assert isinstance(made, subs.SubmissionView), made
    # the findings are the check's as ever (test_submissions_service.py): 6 unknown players
    # and the game without moves
    assert made.state == "pending" and made.errors == []
    assert len(made.warnings) == 7 and made.findings["games"] == 15
    # the writes are kept; nothing the check wrote is (its games, its six players)
    assert _count(engine, Game) == 1
    assert _count(engine, Player) == 3
    assert _count(engine, Submission) == 1


def test_a_submission_withdrawn_while_its_new_file_is_checked_is_not_changed(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    ann = _reporter(engine)
    bad = RIVERSIDE.replace(b'[Result "1/2-1/2"]', b'[Result "2-0"]', 1)  # line 23
    first = subs.submit(engine, ann, "open.pgn", bad, {}, today=TODAY)
    assert [e["line"] for e in first.errors] == [23]
    check = PausedCheck(monkeypatch)
    thread, outcome = check.run(lambda: subs.resubmit(engine, first.id, ann, "open.pgn",
                                                      RIVERSIDE, {}, today=TODAY))
    try:
        check.wait_paused(outcome)
        subs.withdraw(engine, first.id, ann)
        check.order.append("withdrawn")
    finally:
        check.go_on.set()
        thread.join(WAIT)
    assert check.order == ["check paused with 15 games written", "withdrawn", "check goes on"]
    [refused] = outcome
    assert isinstance(refused, InvalidInput)
    assert str(refused) == (f"submission {first.id} is withdrawn: only a pending submission "
                            "can be changed")
    after = subs.show(engine, first.id)
    assert after.state == "withdrawn" and after.sha256 == first.sha256
    assert [e["line"] for e in after.errors] == [23]


def test_what_a_check_writes_is_never_in_the_ledger(engine: Engine, on_postgres: bool) -> None:
    copies: list[str] = []
    with scratch(engine) as session:
        session.add(User(name="ghost", name_key="ghost", role="reporter", password_hash="-"))
        session.flush()
        assert session.scalar(select(func.count()).select_from(User)) == 1
        copies.append(str(session.get_bind().url.database))
    assert _count(engine, User) == 0
    if on_postgres:  # the ledger's own database, in a transaction rolled back
        assert copies == [engine.url.database]
    else:  # a snapshot in a temporary folder of its own, gone with it
        copy = Path(copies[0])
        assert copy.parent.name.startswith("ledger-snapshot-") and copy != Path(
            str(engine.url.database))
        assert not copy.parent.exists()
