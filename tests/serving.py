"""``ledger`` as a shell runs it, in processes of their own (a fresh interpreter each, not a fork):
one command (``ledger_run``), and ``ledger serve`` answering on a loopback port (``serving``); for
the tests of the server as a real process (tests/web/test_serve_process.py) and of the month in a
browser (tests/browser/test_web_flow_browser.py). The ledger is a SQLite path or a database URL
(``--db`` takes either), so the same tests run on both databases."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The variables of ours a developer's shell may hold, which would change what the processes do.
OURS = ("LEDGER_DB", "LEDGER_PROXIES", "LEDGER_CLUB")


def environment(**extra: str) -> dict[str, str]:
    """The processes' environment: this one without ``OURS``, this clone's ``ledger`` first on
    the path, 200 columns; then ``extra``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="200")
    for name in OURS:
        env.pop(name, None)
    env.update(extra)
    return env


def ledger_run(db: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``ledger --db DB ARGS...`` in a process of its own, ``stdin`` its input; at most 120 s."""
    return subprocess.run([sys.executable, "-m", "ledger", "--db", db, *args], input=stdin,
                          env=environment(), capture_output=True, text=True, timeout=120,
                          check=False)


@contextmanager
def serving(db: str, log: Path, *options: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``ledger --db DB serve --port 0 OPTIONS`` in a process of its own, its log (stderr) into
    ``log``: its address (``http://127.0.0.1:PORT/``, read from the log, waiting at most 30 s)
    and the process; stopped at the end with SIGTERM (which it takes as Ctrl-C), killed after
    30 s more."""
    with open(log, "w", encoding="utf-8") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "ledger", "--db", db, "serve", "--port", "0", *options],
            env=environment(), stdout=subprocess.DEVNULL, stderr=err, text=True)
    try:
        address = None
        for _ in range(300):
            found = re.search(r"on (http://127\.0\.0\.1:\d+/)", log.read_text(encoding="utf-8"))
            if found:
                address = found.group(1)
                break
            assert process.poll() is None, log.read_text(encoding="utf-8")
            time.sleep(0.1)
        assert address is not None, log.read_text(encoding="utf-8")
        yield address, process
    finally:
        stop(process)


def stop(process: subprocess.Popen[str], timeout: float = 30) -> None:
    """Stop a server started here: SIGTERM (its Ctrl-C), SIGKILL when it has not ended
    ``timeout`` seconds later; nothing when it has ended already."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
