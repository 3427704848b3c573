"""A ledger on read-only media (issue 9, item 5): the file 0444 in a 0555 folder, in WAL mode as
``ledger init`` leaves it. Every read command works; every write command is refused before it
starts, naming the file, exit 1, with the ledger byte for byte as it was.

The suite runs as root, which may write any file whatever its mode, so these tests run the
``ledger`` command in a subprocess as an unprivileged user (``nobody`` when the suite is root;
the user running it otherwise), with this interpreter's packages; when that user cannot run
this interpreter (a pyenv under root's 0700 home), with the system's Python of the same
version. They are skipped, saying why, only when no such user can run the ledger.
"""

from __future__ import annotations

import hashlib
import os
import pwd
import shutil
import site
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from example_ledgers import build_club_cup
from typer.testing import CliRunner

from ledger.cli.app import app
from ledger.db import migrate
from ledger.db.engine import make_engine, use_wal


def _unprivileged() -> tuple[int, int] | None:
    """(uid, gid) to run as: nobody when root, else this user (None: as this process)."""
    if os.geteuid() != 0:
        return None
    entry = pwd.getpwnam("nobody")
    return entry.pw_uid, entry.pw_gid


#: ``ledger`` with this interpreter's packages (and the editable checkout) on any interpreter.
BOOT = ("import site, sys\n"
        f"for d in {site.getsitepackages()!r}: site.addsitedir(d)\n"
        "sys.argv[0] = 'ledger'\n"
        "from ledger.cli.app import main\n"
        "main()\n")
VERSION = f"python{sys.version_info.major}.{sys.version_info.minor}"
INTERPRETERS = (sys.executable, f"/usr/bin/{VERSION}", f"/usr/local/bin/{VERSION}")


class User:
    """Runs the ledger CLI as an unprivileged user, in ``home``."""

    def __init__(self, home: Path, python: str) -> None:
        self.home, self.python, self.ids = home, python, _unprivileged()

    def run(self, *args: str | Path) -> subprocess.CompletedProcess[str]:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.home),
               "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "200"}
        extra: dict[str, object] = {}
        if self.ids is not None:
            extra = {"user": self.ids[0], "group": self.ids[1], "extra_groups": []}
        return subprocess.run([self.python, "-c", BOOT, *map(str, args)], env=env,
                              cwd=self.home, capture_output=True, text=True, timeout=120,
                              check=False, **extra)  # type: ignore[call-overload]


@pytest.fixture
def home() -> Iterator[Path]:
    """A folder the unprivileged user can reach (pytest's tmp_path is root's own, 0700)."""
    base = Path(tempfile.mkdtemp(prefix="ledger-read-only-"))
    base.chmod(0o755)
    try:
        yield base
    finally:
        for path in (base, *base.rglob("*")):
            if not path.is_symlink():
                path.chmod(0o700 if path.is_dir() else 0o600)
        shutil.rmtree(base)


@pytest.fixture
def user(home: Path) -> User:
    """The first interpreter the unprivileged user can run the ledger with; else skip."""
    failures = []
    for python in dict.fromkeys(INTERPRETERS):
        user = User(home, python)
        try:
            probe = user.run("--help")
        except (OSError, subprocess.SubprocessError) as exc:  # no such file, no right ...
            failures.append(f"{python}: {exc}")
            continue
        if probe.returncode == 0:
            return user
        failures.append(f"{python}: {probe.stderr.strip()[-200:]}")
    pytest.skip(f"cannot run ledger as an unprivileged user: {'; '.join(failures)}")


def cli(*args: str | Path) -> None:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output


def a_ledger(folder: Path) -> Path:
    """A ledger (as root) with two players, one game and 2025-11 closed."""
    folder.mkdir()
    return build_club_cup(folder / "ledger.db")


def freeze(folder: Path, folder_mode: int = 0o555) -> None:
    """Every file in ``folder`` 0444, the folder ``folder_mode``."""
    for path in folder.iterdir():
        path.chmod(0o444)
    folder.chmod(folder_mode)


def snapshot(folder: Path) -> dict[str, str]:
    """Each file in ``folder`` by name, with the SHA-256 of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("folder_mode", [0o555, 0o777], ids=["read-only folder", "open folder"])
def test_every_read_works_and_every_write_is_refused(user: User, home: Path,
                                                     folder_mode: int) -> None:
    db = a_ledger(home / "media")
    freeze(db.parent, folder_mode)
    before = snapshot(db.parent)
    players = user.run("--db", db, "player", "list")
    assert players.returncode == 0, players.stderr
    assert "Player, A" in players.stdout and "Player, B" in players.stdout
    listed = user.run("--db", db, "list", "--format", "csv")
    assert listed.returncode == 0, listed.stderr
    assert [line.split(",")[:2] for line in listed.stdout.splitlines()[1:]] == [["1", ""],
                                                                                ["2", ""]]
    reads: tuple[tuple[str, ...], ...] = ((("player", "show", "Player, A"), ("history", "Player, B"),
                                           ("game", "list"), ("period", "list"), ("init",))
                                          if folder_mode == 0o555 else ())
    for read in reads:
        result = user.run("--db", db, *read)
        assert result.returncode == 0, (read, result.stderr)
    games = home / "games.csv"
    games.write_text("date,white,black,result\n2025-12-03,\"Player, B\",\"Player, A\",1-0\n",
                     encoding="utf-8")
    games.chmod(0o644)
    writes: tuple[tuple[str | Path, ...], ...] = (("player", "add", "New, Nina"),)
    if folder_mode == 0o555:
        writes += (("game", "add", "Player, A", "Player, B", "0-1", "--date", "2025-12-04"),
                   ("import", games), ("import", games, "--dry-run"),
                   ("period", "close", "2025-12", "--dry-run"))
    for write in writes:
        result = user.run("--db", db, *write)
        assert result.returncode == 1, (write, result.returncode, result.stderr)
        message = " ".join(result.stderr.split())
        assert f"the ledger {db} is read-only (the file is read-only)" in message, message
        assert "nothing was done" in message
        assert "Traceback" not in result.stderr
    if folder_mode == 0o555:
        assert snapshot(db.parent) == before  # not a byte changed, no -wal or -shm made
    else:
        assert snapshot(db.parent)["ledger.db"] == before["ledger.db"]


def test_committed_changes_still_in_the_wal_are_read(user: User, home: Path) -> None:
    # a reader that ignored the -wal file (immutable) would miss the last player added
    db = a_ledger(home / "media")
    keeper = sqlite3.connect(db)  # another open connection: the -wal is kept, not checkpointed
    try:
        keeper.execute("PRAGMA wal_autocheckpoint=0")
        keeper.execute("SELECT count(*) FROM players").fetchone()
        cli("--db", db, "player", "add", "Late, Lou", "--rating", "1500", "--prior-games", "0")
        assert Path(f"{db}-wal").stat().st_size > 0
        freeze(db.parent)
        players = user.run("--db", db, "player", "list")
        assert players.returncode == 0, players.stderr
        assert "Late, Lou" in players.stdout
        main_file_only = sqlite3.connect(f"file:{db}?mode=ro&immutable=1", uri=True)
        names = [r[0] for r in main_file_only.execute("SELECT name FROM players")]
        main_file_only.close()
        assert "Late, Lou" not in names  # so it was read from the -wal
    finally:
        db.parent.chmod(0o755)
        keeper.close()


def test_an_old_read_only_ledger_cannot_be_upgraded(user: User, home: Path) -> None:
    folder = home / "media"
    folder.mkdir()
    db = folder / "ledger.db"
    engine = make_engine(str(db))
    try:
        migrate.upgrade(engine, "0001")
        use_wal(engine)
    finally:
        engine.dispose()
    freeze(folder)
    before = snapshot(folder)
    behind = user.run("--db", db, "player", "list")
    assert behind.returncode == 4 and "ledger init" in behind.stderr
    init = user.run("--db", db, "init")
    assert init.returncode == 1, init.stderr
    assert f"the ledger {db} is read-only" in " ".join(init.stderr.split())
    assert snapshot(folder) == before


def test_init_into_a_read_only_folder_names_it(user: User, home: Path) -> None:
    folder = home / "media"
    folder.mkdir(mode=0o555)
    folder.chmod(0o555)
    result = user.run("--db", folder / "new.db", "init")
    assert result.returncode == 1, result.stderr
    assert f"cannot create {folder / 'new.db'}: the folder {folder} is read-only" in " ".join(
        result.stderr.split())
    assert list(folder.iterdir()) == []


def a_leftover_wal(home: Path, *, empty: bool = False) -> Path:
    """A copy of a ledger with its -wal file (holding a player added last, or empty) and no
    -shm file, as a crash or a copy leaves it, in a read-only folder."""
    db = a_ledger(home / "source")
    keeper = sqlite3.connect(db)  # keeps the -wal from being checkpointed and removed
    try:
        keeper.execute("PRAGMA wal_autocheckpoint=0")
        keeper.execute("SELECT count(*) FROM players").fetchone()
        if not empty:
            cli("--db", db, "player", "add", "Late, Lou", "--rating", "1500", "--prior-games", "0")
        copy = home / "media"
        copy.mkdir()
        shutil.copyfile(db, copy / "ledger.db")
        if empty:
            (copy / "ledger.db-wal").write_bytes(b"")
        else:
            shutil.copyfile(f"{db}-wal", copy / "ledger.db-wal")
    finally:
        keeper.close()
    freeze(copy)
    return copy / "ledger.db"


def test_a_leftover_wal_in_a_read_only_folder_says_what_to_do(user: User, home: Path) -> None:
    db = a_leftover_wal(home)
    before = snapshot(db.parent)
    assert not Path(f"{db}-shm").exists() and Path(f"{db}-wal").stat().st_size > 0
    for command in (("player", "list"), ("list", "--format", "csv"), ("init",)):
        result = user.run("--db", db, *command)
        assert result.returncode == 1, (command, result.returncode, result.stderr)
        message = " ".join(result.stderr.split())
        assert f"cannot read the ledger {db}" in message, message
        assert f"{db}-wal" in message and f"{db}-shm" in message, message
        assert f"its folder {db.parent} is read-only" in message, message
        assert "copy the ledger with its -wal file to a folder you can write" in message, message
        assert "unable to open database file" not in message
        assert "Traceback" not in result.stderr
    assert snapshot(db.parent) == before


def test_an_empty_leftover_wal_in_a_read_only_folder_is_read(user: User, home: Path) -> None:
    # an empty -wal holds nothing the file does not: the file is read as it is (immutable)
    db = a_leftover_wal(home, empty=True)
    before = snapshot(db.parent)
    players = user.run("--db", db, "player", "list")
    assert players.returncode == 0, players.stderr
    assert "Player, A" in players.stdout
    assert snapshot(db.parent) == before


def test_a_ledger_in_a_folder_the_user_may_not_enter_is_named(user: User, home: Path) -> None:
    # as `ledger --db /root/ledger.db player list` run by another user: PermissionError
    if user.ids is None:
        pytest.skip("runs as this user, who may enter its own folders")
    db = a_ledger(home / "private")
    db.parent.chmod(0o700)  # root's own
    before = snapshot(db.parent)
    for command in (("player", "list"), ("init",), ("db", "backup", home / "copy.db")):
        result = user.run("--db", db, *command)
        assert result.returncode == 1, (command, result.returncode, result.stderr)
        message = " ".join(result.stderr.split())
        assert message == f"error: --db: cannot use {db}: Permission denied", message
    assert snapshot(db.parent) == before
    assert not (home / "copy.db").exists()
