"""Start-up (issue 14): a command loads its own module, not every command's, and plain argument
values are taken without pydantic, the same values and the same errors as Typer's own coercion.

Which modules a command line imports is checked in a child process (``sys.modules`` at its
end), not timed: the times are the benchmark's (``python -m benchmarks``)."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from ledger.cli import collector
from ledger.cli.app import COMMANDS, app
from ledger.cli.tree import LazyGroup

#: Runs ``ledger ARGS`` (argv[1:]) in this process and prints which modules it loaded.
PROBE = """
import json, sys
from ledger.cli.app import main
args = sys.argv[1:]
sys.argv = ["ledger", *args]
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""

COMMAND_MODULES = {f"ledger.cli.{c.module}" for c in COMMANDS.values()}


def loaded(tmp_path: Path, *args: str) -> set[str]:
    """The modules ``ledger ARGS`` has imported by its end, run in a child process."""
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                          cwd=tmp_path, check=False, timeout=120)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_help_loads_no_command_module_and_no_database_layer(tmp_path: Path) -> None:
    modules = loaded(tmp_path, "--help")
    assert not modules & COMMAND_MODULES
    assert not {"sqlalchemy", "alembic", "pydantic", "chess", "jinja2", "numpy"} & modules


def test_calc_loads_its_own_module_only_and_no_pydantic(tmp_path: Path) -> None:
    modules = loaded(tmp_path, "calc", "expected", "2000", "1800")
    assert "ledger.cli.calc" in modules
    assert not modules & (COMMAND_MODULES - {"ledger.cli.calc"})
    assert not {"sqlalchemy", "alembic", "pydantic", "rich.markdown", "numpy"} & modules
    # no initial rating in a calculator (render.life imports rules.initial where it is used),
    # and the period rules and the pools only for `calc change`
    assert not {"ledger.rules.initial", "ledger.rules.activity", "ledger.rules.period",
                "ledger.rules.pools"} & modules
    assert "importlib.resources" not in modules  # cli.lazy's loader needs no importlib.abc


def test_game_add_loads_no_alembic_no_pydantic_and_no_other_command(tmp_path: Path) -> None:
    db = str(tmp_path / "small.db")
    for args in (("init",), ("player", "add", "Doyle, Liam", "--rating", "1850", "--prior-games", "0"),
                 ("player", "add", "Walsh, Brendan", "--rating", "1790", "--prior-games", "0")):
        assert CliRunner().invoke(app, ["--db", db, *args]).exit_code == 0
    modules = loaded(tmp_path, "--db", db, "game", "add", "Doyle, Liam", "Walsh, Brendan", "1-0",
                     "--date", "2026-11-05")
    assert "ledger.services.register.games" in modules  # it ran
    assert not modules & (COMMAND_MODULES - {"ledger.cli.games"})
    assert not {"alembic", "pydantic", "rich.markdown", "chess", "jinja2",
                "ledger.services.close.rerate"} & modules  # re-rating: only with --rerate
    # a SQLite ledger: the models name a PostgreSQL option without loading its dialect
    assert not {m for m in modules if m.startswith("sqlalchemy.dialects.postgresql")}


def test_a_close_with_json_loads_no_rich(tmp_path: Path) -> None:
    db = str(tmp_path / "small.db")
    for args in (("init",), ("player", "add", "Doyle, Liam", "--rating", "1850", "--prior-games", "0"),
                 ("player", "add", "Walsh, Brendan", "--rating", "1790", "--prior-games", "0"),
                 ("game", "add", "Doyle, Liam", "Walsh, Brendan", "1-0", "--date", "2026-01-05")):
        assert CliRunner().invoke(app, ["--db", db, *args]).exit_code == 0
    modules = loaded(tmp_path, "--db", db, "period", "close", "2026-01", "--json")
    assert "ledger.cli.render.close_json" in modules  # it ran: the document was written
    # Rich only for a table or a console (render.output makes its consoles on use): neither
    # the close's tables nor the other period commands' renderers were executed
    assert not {m for m in modules if m == "rich" or m.startswith("rich.")}


def test_the_natural_key_is_partial_on_postgresql_as_on_sqlite() -> None:
    # the PostgreSQL option is given on first read (models.partial_index.PartialIndex): the same DDL as
    # Index(..., sqlite_where=..., postgresql_where=...) gave, on both databases
    from sqlalchemy.dialects import postgresql, sqlite
    from sqlalchemy.schema import CreateIndex

    from ledger.db.models import Game
    index = next(i for i in Game.__table__.indexes if i.name == "uq_games_natural_key")
    ddl = ("CREATE UNIQUE INDEX uq_games_natural_key ON games (event_id, round_key, white_id, "
           "black_id) WHERE status = 'valid'")
    assert str(CreateIndex(index).compile(dialect=postgresql.dialect())) == ddl
    assert str(CreateIndex(index).compile(dialect=sqlite.dialect())) == ddl
    assert str(index.dialect_kwargs["postgresql_where"]) == "status = 'valid'"
    assert str(index.dialect_options["postgresql"]["where"]) == "status = 'valid'"


def test_a_partial_index_lists_its_postgresql_option_before_it_is_read() -> None:
    # a copy of the table (Table.to_metadata copies an index's dialect_kwargs) keeps the
    # PostgreSQL WHERE, although nothing read it before the copy
    from sqlalchemy import Column, Integer, MetaData, String, Table, text
    from sqlalchemy.dialects import postgresql
    from sqlalchemy.schema import CreateIndex

    from ledger.db.models.partial_index import PartialIndex
    table = Table("t", MetaData(), Column("a", Integer), Column("status", String(8)),
                  PartialIndex("ix_t_a", "a", where=text("status = 'valid'")))
    copy = table.to_metadata(MetaData())
    assert sorted(next(iter(table.indexes)).dialect_kwargs) == ["postgresql_where", "sqlite_where"]
    assert str(CreateIndex(next(iter(copy.indexes))).compile(dialect=postgresql.dialect())) == (
        "CREATE INDEX ix_t_a ON t (a) WHERE status = 'valid'")


class _Counted:
    """The gc module as cli.collector sees it, each freeze asked recorded (whether the collector
    was on then), not done: freezing here would keep this test process's objects for good."""

    def __init__(self) -> None:
        self.frozen: list[bool] = []

    def __getattr__(self, name: str) -> object:
        return getattr(gc, name)

    def freeze(self) -> None:
        self.frozen.append(gc.isenabled())


def test_start_up_imports_leave_the_collector_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    # in a process that runs many commands (this one), the start-up imports freeze nothing
    # (cli.collector), and the collector is on again after each command's imports. The
    # collector's own freezes are counted, not gc.get_freeze_count(): that count is the whole
    # process's, and web.public freezes the live site it gathers, in whatever thread of this
    # test process serves it (it moved by 140 during this test in one loaded run of the suite).
    counted = _Counted()
    monkeypatch.setattr(collector, "gc", counted)
    for args in (["calc", "expected", "2000", "1800"], ["--help"]):
        assert CliRunner().invoke(app, args).exit_code == 0
        assert gc.isenabled()
    assert counted.frozen == []


def test_a_commands_kept_results_are_frozen_in_the_console_script_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # collector.kept_to_the_end (a close's report): the collector off in the block, then, in
    # the console script's process (freeze_start_up) only, what is alive frozen; on after
    counted = _Counted()
    monkeypatch.setattr(collector, "gc", counted)
    for freezing in (False, True):
        monkeypatch.setitem(collector._FREEZING, "on", freezing)
        with collector.kept_to_the_end():
            assert not gc.isenabled()
        assert gc.isenabled()
    assert counted.frozen == [False]  # once (the console script's), the collector still off then


def test_the_console_script_freezes_its_start_up_imports(tmp_path: Path) -> None:
    # one command, then the process ends: the modules its start-up imported are frozen out of
    # the collector's later passes (there are tens of thousands), and the collector is on
    probe = ("import gc, sys\nfrom ledger.cli.app import main\nsys.argv = ['ledger', *sys.argv[1:]]\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print(gc.isenabled(), gc.get_freeze_count() > 10_000, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", probe, "calc", "expected", "2000", "1800"],
                          capture_output=True, text=True, cwd=tmp_path, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "0.76" in done.stdout  # D = +200 -> PD .76 (table 8.1.2): the command ran
    assert done.stderr.strip().splitlines()[-1] == "True True"


def test_each_summary_is_the_first_paragraph_of_the_commands_own_help() -> None:
    # `ledger --help` lists a command not yet loaded by its summary in cli.app.COMMANDS.
    root = typer.main.get_command(app)
    ctx = typer.Context(root, info_name="ledger")
    for name, lazy in COMMANDS.items():
        command = root.get_command(ctx, name)
        assert command.short_help is None and not command.hidden and not command.deprecated
        assert (command.help or "").strip().split("\n\n")[0] == lazy.summary, name


def test_the_listing_is_the_same_with_every_command_loaded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def listing() -> str:
        result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "120"})
        assert result.exit_code == 0, result.output
        return result.stdout

    with_stand_ins = listing()
    own = LazyGroup.format_help

    def loading_first(self: LazyGroup, ctx: typer.Context, formatter: object) -> None:
        self.load_all()
        own(self, ctx, formatter)

    monkeypatch.setattr(LazyGroup, "format_help", loading_first)
    assert listing() == with_stand_ins
    assert "calc" in with_stand_ins and "Rating calculators: expected score (PD)" in " ".join(
        with_stand_ins.split())


def expected(*args: str) -> object:
    result = CliRunner().invoke(app, ["calc", "expected", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["pd"]


def test_plain_integers_are_read_as_typer_reads_them() -> None:
    # D = 2000 - 1800 = +200 -> PD .76 and .24 (table 8.1.2), however the ratings are written.
    assert expected("2000", "1800") == [0.76, 0.24]
    assert expected("+2000", "01800") == [0.76, 0.24]
    # A blank around the number is pydantic's to take (Typer's coercion, as before).
    assert expected(" 2000", "1800 ") == [0.76, 0.24]


@pytest.mark.parametrize(("value", "message"), [
    ("abc", "Invalid value for 'R1'"),
    ("999", "Input should be greater than or equal to 1000"),
    ("1.5", "Invalid value for 'R1'"),
])
def test_a_bad_integer_gets_typers_own_error(value: str, message: str) -> None:
    result = CliRunner().invoke(app, ["calc", "expected", value, "1800"])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_an_untested_typer_release_keeps_typers_own_coercion(tmp_path: Path) -> None:
    # a Typer release not in coercion.TESTED_TYPER: the private layer is left alone, and the
    # command line still gives the right value (D = 200 -> PD .76, the lower-rated .24) through
    # Typer's own coercion, which loads pydantic
    probe = ("import typer; typer.__version__ = '9.9.9'\n"
             "from ledger.cli import coercion\nassert not coercion._HAS_LAYER\n" + PROBE)
    done = subprocess.run([sys.executable, "-c", probe, "calc", "expected", "2000", "1800"],
                          capture_output=True, text=True, cwd=tmp_path, check=False,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "0.76" in done.stdout and "0.24" in done.stdout
    assert "pydantic" in json.loads(done.stderr.strip().splitlines()[-1])


def test_an_import_without_end_date_loads_no_pydantic_and_with_json_no_rich(
        tmp_path: Path) -> None:
    db = str(tmp_path / "small.db")
    for args in (("init",), ("player", "add", "Doyle, Liam", "--rating", "1850", "--prior-games", "0"),
                 ("player", "add", "Walsh, Brendan", "--rating", "1790", "--prior-games", "0")):
        assert CliRunner().invoke(app, ["--db", db, *args]).exit_code == 0
    games = tmp_path / "games.csv"
    games.write_text("date,white,black,result\n2026-01-05,\"Doyle, Liam\",\"Walsh, Brendan\",1-0\n")
    modules = loaded(tmp_path, "--db", db, "import", str(games), "--json")
    assert "ledger.services.imports.games" in modules  # it ran
    assert "pydantic" not in modules
    # the report as JSON: neither --replace's renderer nor a FIDE list's table loads Rich
    assert not {m for m in modules if m == "rich" or m.startswith("rich.")}


def test_a_bad_end_date_gets_typers_own_error(tmp_path: Path) -> None:
    games = tmp_path / "games.csv"
    games.write_text("date,white,black,result\n")
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "x.db"), "import", str(games),
                                      "--end-date", "2025-13-40"])
    assert result.exit_code == 2
    assert ("Invalid value for '--end-date': Value error, '2025-13-40' does not match the "
            "formats '%Y-%m-%d'.") in " ".join(result.output.replace("│", " ").split())


#: Prints OPENBLAS_NUM_THREADS after importing the package (``ledger/__init__.py``).
THREADS_PROBE = "import os, ledger; print(os.environ.get('OPENBLAS_NUM_THREADS'))"


@pytest.mark.parametrize(("given", "expected"), [(None, "1"), ("2", "2")])
def test_the_package_gives_openblas_one_thread_unless_the_environment_asks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str | None, expected: str) -> None:
    # numpy's OpenBLAS threads spin at its start: 0.1 s of the M close's CPU, no BLAS call used
    if given is None:
        monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", given)
    done = subprocess.run([sys.executable, "-c", THREADS_PROBE], capture_output=True, text=True,
                          cwd=tmp_path, check=True, timeout=60)
    assert done.stdout.strip() == expected
