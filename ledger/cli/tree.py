"""The app's command group, which loads a command's module only when that command is run.

``ledger --help`` lists every command with the first paragraph of its help, and ``ledger calc
expected 2000 1800`` needs ``cli.calc`` alone: importing every command module (and Rich's
renderers, the rules and the formats they import) for each of them was most of the start-up.
``cli.app`` names each command by its module and attribute, with the one-line help the listing
shows (``LazyCommand``); a test checks that line against the command's own help. A command's
module is imported, and Typer's help renderer, as start-up imports (``cli.collector``: without
the garbage collector's passes). This module imports Typer and nothing of the ledger but
``cli.collector``, ``cli.columns`` and ``cli.coercion``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from ledger.cli.coercion import plain_coercion
from ledger.cli.collector import start_up_imports
from ledger.cli.columns import ignore_senseless_columns

#: Where ``RecordingGroup`` keeps the command line (``ctx.meta``; ``common.actor_of`` reads it).
ARGV_KEY = "ledger.argv"


@dataclass(frozen=True)
class LazyCommand:
    """One command of the app, not yet loaded: ``name`` as typed (``"player"``), ``module``
    under ``ledger.cli`` (``"players"``), ``attribute`` of it (a ``typer.Typer`` for a group of
    commands, a function for a single command), and ``summary``, the first paragraph of its help
    as the listing of ``ledger --help`` prints it."""

    name: str
    module: str
    attribute: str
    summary: str

    def load(self) -> Any:
        """The command built as ``app.add_typer(...)`` / ``app.command(...)`` would build it:
        a Typer group for a ``typer.Typer``, else a Typer command named ``name``. Raises
        ``ImportError``/``AttributeError`` for a table entry naming nothing. A start-up import
        (``collector.start_up_imports``)."""
        with start_up_imports():
            target = getattr(importlib.import_module(f"ledger.cli.{self.module}"), self.attribute)
            if isinstance(target, typer.Typer):
                command: Any = typer.main.get_group(target)
            else:
                single = typer.Typer(add_completion=False)
                single.command(self.name)(target)
                command = typer.main.get_command(single)
        command.name = self.name
        return command


def unlabelled_flags(params: list[Any]) -> list[Any]:
    """``params`` with every flag that takes no value (``--help``, ``--install-completion``,
    ``--show-completion``: Typer's own, made without a metavar) given an empty one, so that
    the help shows nothing beside it where Typer would print ``<bool>`` (the ledger's own
    flags say ``metavar=""``)."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


def _flags_unlabelled(command: Any) -> None:
    """``unlabelled_flags`` on the parameters of ``command`` and of every command under it, as
    their help reads them (``get_params``, which adds ``--help``)."""
    own = command.get_params
    command.get_params = lambda ctx: unlabelled_flags(own(ctx))
    for sub in getattr(command, "commands", {}).values():
        _flags_unlabelled(sub)


class RecordingGroup(TyperGroup):
    """The app's group: it keeps the arguments it is given (``ctx.meta``), so that a change
    can record the command line as typed (``common.actor_of``)."""

    def get_params(self, ctx: typer.Context) -> list[Any]:  # type: ignore[override]
        """The group's parameters, its flags without ``<bool>`` (``unlabelled_flags``)."""
        return unlabelled_flags(super().get_params(ctx))

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:  # type: ignore[override]
        """Keep ``args`` (the command line after ``ledger``), then parse as usual, a
        ``COLUMNS`` that is no sensible width unset first (``columns.ignore_senseless_columns``:
        Typer's help and usage errors read it)."""
        ctx.meta.setdefault(ARGV_KEY, list(args))
        ignore_senseless_columns()
        return super().parse_args(ctx, args)


class LazyGroup(RecordingGroup):
    """``RecordingGroup`` whose commands (``LAZY``, set by ``cli.app``: name -> ``LazyCommand``,
    in the order of the listing) are loaded on first use: running one loads its module only;
    the help listing shows each one's ``summary`` without loading it; an unknown name loads
    them all, so that Typer's "Did you mean" sees every name."""

    LAZY: Mapping[str, LazyCommand] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        plain_coercion()
        self._listing = False

    def list_commands(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]
        """Every command name: the lazy ones in their table's order (loaded or not), then any
        registered on the app itself."""
        eager = super().list_commands(ctx)
        return [*self.LAZY, *(name for name in eager if name not in self.LAZY)]

    def get_command(self, ctx: typer.Context, cmd_name: str) -> Any:  # type: ignore[override]
        """The command ``cmd_name``, loaded now if need be (while the help lists the commands,
        an unloaded one is a stand-in with its summary); None for an unknown name."""
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        lazy = self.LAZY.get(cmd_name)
        if lazy is None:
            self.load_all()  # an unknown name: "Did you mean" reads self.commands
            return None
        if self._listing:
            return TyperCommand(cmd_name, help=lazy.summary)
        return self._load(lazy)

    def load_all(self) -> None:
        """Load every lazy command (the tests walk the whole tree this way)."""
        for lazy in self.LAZY.values():
            if lazy.name not in self.commands:
                self._load(lazy)

    def _load(self, lazy: LazyCommand) -> Any:
        command = lazy.load()
        _flags_unlabelled(command)
        self.add_command(command, lazy.name)
        return command

    def format_help(self, ctx: typer.Context, formatter: Any) -> None:  # type: ignore[override]
        """Typer's help, listing the commands not yet loaded by their summaries; Typer's
        renderer (``typer.rich_utils``, Rich) is imported as a start-up import."""
        with self._stand_ins(), start_up_imports():
            super().format_help(ctx, formatter)

    @contextmanager
    def _stand_ins(self) -> Iterator[None]:
        self._listing = True
        try:
            yield
        finally:
            self._listing = False


def lazy_commands(rows: Sequence[tuple[str, str, str, str]]) -> dict[str, LazyCommand]:
    """The ``LAZY`` table from rows of (name, module, attribute, summary)."""
    return {row[0]: LazyCommand(*row) for row in rows}
