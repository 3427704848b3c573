"""A Rich progress bar for long imports: shown on a terminal only, for files over a few thousand
lines, and never with ``--quiet``."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ledger.cli.render.output import console
from ledger.services.imports.input_files import MAX_INPUT_BYTES

#: Files with more lines than this get a progress bar.
PROGRESS_LINES = 3000


def _lines(path: Path) -> int:
    """Lines in ``path``; 0 for what the import will refuse unread (``check_input_file``): a
    device, a pipe, a folder, a missing file or one over ``MAX_INPUT_BYTES``."""
    if not path.is_file() or path.stat().st_size > MAX_INPUT_BYTES:
        return 0
    with open(path, "rb") as handle:
        return sum(chunk.count(b"\n") + chunk.count(b"\r") - chunk.count(b"\r\n")
                   for chunk in iter(lambda: handle.read(1 << 20), b""))


@contextmanager
def import_progress(path: Path, quiet: bool) -> Iterator[Callable[..., None] | None]:
    """Yield a ``progress(done, total, phase=None)`` callback drawing a bar on stderr (``phase``,
    when given, names what is being done), or None when the bar is not wanted (``quiet``, stdout
    not a terminal, or a file of ``PROGRESS_LINES`` lines or fewer). Every import uses it."""
    if quiet or not sys.stdout.isatty() or _lines(path) <= PROGRESS_LINES:
        yield None
        return
    # Rich's progress module (about 20 ms of CPU) only when a bar is drawn: not for --json, a
    # pipe or a small file
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console(stderr=True, emoji=False),
                  transient=True) as bar:
        task = bar.add_task("importing", total=None)

        def update(done: int, total: int, phase: str | None = None) -> None:
            bar.update(task, completed=done, total=total, description=phase or "importing")

        yield update
