"""Start-up imports without the cyclic garbage collector's passes (issue 14).

Importing a command's modules (SQLAlchemy, the models and their mappers, the services, Rich)
allocates some 70,000 long-lived objects and next to no garbage, yet every 700 allocations start
a collection pass, and each pass of an older generation walks them all again: 40-60 ms of
``ledger game add``'s start-up. ``start_up_imports`` runs such an import (Typer's, as
``cli.app`` is imported; a command's module, ``cli.tree``; a service's, ``cli.lazy``; Typer's
help renderer) with the collector off and, in a process that runs one command
(``freeze_start_up``, called by the console script's ``cli.app.main``), then moves what is
alive into the collector's permanent generation (``gc.freeze``, Python's documented way to keep
long-lived start-up objects out of every later pass), so that a later pass does not walk the
modules again. The collector is then as it was (on, unless it was off): what the command does
afterwards is collected as before.

A command's own work whose results live until the process ends (``kept_to_the_end``: a
period close, whose report the output is written from) is run the same way: the objects it
leaves (a federation month's report: hundreds of thousands) are frozen rather than walked by the
first pass after it (0.015 s of the M close's CPU).

A test that runs the app in its own process (``CliRunner``) only turns the collector off and on
again around the import: freezing there would keep the garbage of the tests before it for good.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from ledger.services.core.bulk import paused_gc

_FREEZING = {"on": False}


def freeze_start_up() -> None:
    """Make ``start_up_imports`` freeze what each of them leaves alive (``gc.freeze``): for a
    process that runs one command and ends (the console script), never for one that runs many
    (a test run)."""
    _FREEZING["on"] = True


@contextmanager
def start_up_imports() -> Iterator[None]:
    """Run the block (a command's start-up imports) with the garbage collector off, then (after
    ``freeze_start_up``) freeze the objects alive (``gc.freeze``); the collector is switched
    back on when it was on. Nested blocks are fine (only the outermost switches it on)."""
    with paused_gc():  # the one way the ledger pauses the collector (the close's too)
        try:
            yield
        finally:
            if _FREEZING["on"]:
                gc.freeze()


@contextmanager
def kept_to_the_end() -> Iterator[None]:
    """Run the block (a command's work whose results the process keeps until it ends) as
    ``start_up_imports`` runs an import: the collector off, then (after ``freeze_start_up``,
    the console script) what is alive frozen, so that no later pass walks it; the collector
    switched back on when it was on."""
    with start_up_imports():
        yield
