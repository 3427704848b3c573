"""The output plumbing every renderer shares: the consoles (``console``, ``stdout``), lines for
the user (``say`` on stdout; ``aside``, ``error``, ``notes`` and a file's ``problems`` on
stderr), JSON on stdout (``print_json`` whole, ``stream_json`` piece by piece) and the words of
a count (``count``, ``signed``). Renderers and commands import these names from here.

Every command's errors come through here (``cli.common``), so this module imports no renderer,
no rule and no service: a command loads only the renderers it names (start-up, issue 14).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from ledger.cli.columns import columns
from ledger.cli.render.values import indented_json, write_json
from ledger.domain import count as count  # the one plural helper, re-exported
from ledger.errors import Problem

if TYPE_CHECKING:
    from rich.console import Console

#: Width of output that is not a terminal (a pipe, a file), unless ``COLUMNS`` gives one.
PIPE_WIDTH = 160


def _terminal_width() -> int:
    """The width of the terminal on standard input, output or error, as Rich finds it when
    ``COLUMNS`` is not set; 80 when none is a terminal."""
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (OSError, ValueError):
            continue
        if width:
            return width
    return 80


def console(*, stderr: bool = False, **options: Any) -> Console:
    """A console on stdout (or stderr), with ``options`` for Rich: ``COLUMNS`` wide when it is
    a sensible width (``columns``), else a terminal's own width, else (a pipe or a file)
    ``PIPE_WIDTH`` on stdout and 80 on stderr. Every console the CLI makes comes from here.
    Rich is imported here, on the first console: a command that writes JSON only never loads
    it (start-up, issue 25)."""
    from rich.console import Console
    width = columns()
    if width is None:
        terminal = Console(stderr=stderr, width=80).is_terminal  # the width given: COLUMNS unread
        width = _terminal_width() if terminal else 80 if stderr else PIPE_WIDTH
    return Console(stderr=stderr, width=width, **options)


def stdout() -> Console:
    """The console for stdout, which tables are printed on: ``console`` without Rich's
    highlighting and emoji codes."""
    return console(highlight=False, emoji=False)


def _err() -> Console:
    """The console for stderr: ``console``, lines never folded (``soft_wrap``)."""
    return console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


def say(text: str) -> None:
    """A line for the user on stdout."""
    stdout().print(text, markup=False)


def aside(text: str) -> None:
    """A line for the user on stderr, beside output that goes to stdout (a file's text)."""
    _err().print(text, markup=False)


def error(text: str) -> None:
    """An error message on stderr."""
    _err().print(f"error: {text}", markup=False, style="bold red")


def notes(texts: Iterable[str]) -> None:
    """Each text as a ``note:`` line on stderr (what the user must know of a result)."""
    for text in texts:
        _err().print(f"note: {text}", markup=False, style="yellow")


#: At most this many problems are printed (a binary file picked by mistake gives thousands);
#: ``--json`` lists them all.
MAX_PROBLEMS_SHOWN = 100


def problems(items: Iterable[Problem], *, quiet: bool = False) -> None:
    """The problems of a file on stderr, one per line: the first ``MAX_PROBLEMS_SHOWN``, then
    how many more there are and of which severity, then those of the rest about the whole file
    (field ``file``: where a reader stopped, how many warnings it did not keep); ``quiet``
    (``--quiet``): errors only."""
    console = _err()
    listed = [p for p in items if not quiet or p.severity == "error"]
    for p in listed[:MAX_PROBLEMS_SHOWN]:
        console.print(str(p), markup=False, style="red" if p.severity == "error" else "yellow")
    rest = [p for p in listed[MAX_PROBLEMS_SHOWN:] if p.field != "file"]
    if rest:
        errors = sum(p.severity == "error" for p in rest)
        console.print(f"... and {count(len(rest), 'more problem')} ({count(errors, 'error')}, "
                      f"{count(len(rest) - errors, 'warning')}) not shown; --json lists them all",
                      markup=False, style="red")
    for p in listed[MAX_PROBLEMS_SHOWN:]:
        if p.field == "file":
            console.print(str(p), markup=False, style="red" if p.severity == "error" else "yellow")


def print_json(data: Any) -> None:
    """``data`` (plain values: dicts, lists, str, numbers, None) on stdout as JSON, two spaces
    an indent, non-ASCII as it is (``values.indented_json``), then a newline."""
    print(indented_json(data))


def stream_json(data: Any) -> None:
    """``print_json``'s text, written piece by piece (``values.write_json``: iterators in ``data``
    are listed one item at a time)."""
    write_json(data, sys.stdout.write)


def signed(n: int | Decimal) -> str:
    """A change with its sign: ``+12``, ``-3``, ``0``; ``Decimal("1.50")`` -> ``+1.50``."""
    return f"+{n}" if n > 0 else str(n)


def not_rated_text(not_rated: dict[str, int]) -> str:
    """Why games were not rated, with how many, in words: ``forfeit 1, 5 games against an
    unrated player`` (never ``unrated player 5``, which reads as a player's number)."""
    return ", ".join(count(n, "game") + " against an unrated player" if why == "unrated player"
                     else f"{why} {n}" for why, n in sorted(not_rated.items()))
