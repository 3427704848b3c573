"""``COLUMNS``, read the one way the CLI reads it: a sensible width or nothing. Kept apart from
``cli.render.output`` (which imports Rich) because the app's group reads it before any command
is chosen (``cli.tree.RecordingGroup``)."""

from __future__ import annotations

import os

#: The widths ``COLUMNS`` may give; any other value (``0`` printed nothing at all) is ignored.
MIN_COLUMNS, MAX_COLUMNS = 20, 10_000


def columns() -> int | None:
    """``COLUMNS`` when it is a sensible width (a number from ``MIN_COLUMNS`` to
    ``MAX_COLUMNS``), else None: unset, or a value to ignore."""
    text = os.environ.get("COLUMNS", "").strip()
    if text.isdigit() and MIN_COLUMNS <= int(text) <= MAX_COLUMNS:
        return int(text)
    return None


def ignore_senseless_columns() -> None:
    """Unset a ``COLUMNS`` that ``columns`` would ignore, so that Typer's own help and usage
    errors, which read it themselves, ignore it too."""
    if "COLUMNS" in os.environ and columns() is None:
        del os.environ["COLUMNS"]
