"""Tables that read in the terminal they are printed on: plain text cells, and columns dropped
by priority until the table fits, so that the important ones never fold.

Every table of the CLI is a ``PlainTable``. Its columns carry a ``priority``: 0 (the default) is
always shown and never wraps when the must-have columns fit; 1, 2, ... are shown while the table
still fits the console, the highest number dropped first; a column that ``folds`` (a command
line) is shown while ``FOLDED`` characters of it fit, its cells folded into the width left. An
80-column terminal shows the columns that matter (rank, name, rating ...); a wide one shows them
all. Output that is not a terminal is drawn 160 columns wide unless ``COLUMNS`` says otherwise
(``render.output.stdout``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Column, Table
from rich.text import Text

#: The width (characters) a folding column (``PlainTable.add_column(folds=True)``) asks for.
FOLDED = 24


class PlainTable(Table):
    """A Rich table whose title, caption and cells are plain text, never console markup (names
    come from users and files, and ``[red]`` in a name must print as typed), and whose optional
    columns give way to the important ones on a narrow console (see the module docstring)."""

    def __init__(self, *args: Any, title: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, title=Text(title) if title is not None else None, **kwargs)
        self._priority: dict[int, int] = {}
        self._folds: set[int] = set()

    def add_column(self, header: Any = "", *args: Any, priority: int = 0, folds: bool = False,
                   **kwargs: Any) -> None:
        """``Table.add_column`` with a ``priority`` (int >= 0): 0 always shown, higher numbers
        dropped first when the table is too wide for the console. ``folds``: a column whose
        long cells (a command line) fold into the width the others leave: it is fitted by its
        priority as if ``FOLDED`` characters wide at most, and never set not to wrap."""
        super().add_column(header, *args, **kwargs)
        self._priority[id(self.columns[-1])] = priority
        if folds:
            self._folds.add(id(self.columns[-1]))

    def add_row(self, *renderables: Any, **kwargs: Any) -> None:
        """``Table.add_row``; str cells are taken as plain text, never markup."""
        super().add_row(*(Text(c) if isinstance(c, str) else c for c in renderables), **kwargs)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        everything = self.columns
        shown = self._fitted(console, options)
        wraps = {id(c): c.no_wrap for c in shown}
        self.columns = shown
        try:
            yield from super().__rich_console__(console, options)
        finally:
            self.columns = everything
            for column in everything:
                if id(column) in wraps:
                    column.no_wrap = wraps[id(column)]

    def _fitted(self, console: Console, options: ConsoleOptions) -> list[Column]:
        """The columns to draw within ``options.max_width``, in their order: every priority-0
        column, then the others by priority while they fit. Must-have columns are set not to
        wrap when they fit together."""
        if self.box is None or not self._priority:
            return list(self.columns)
        widths = {id(c): min(self._natural_width(console, options, c), FOLDED)
                  if id(c) in self._folds else self._natural_width(console, options, c)
                  for c in self.columns}
        budget = options.max_width - 1  # the left border; each column adds its right one
        keep = {id(c) for c in self.columns if self._priority.get(id(c), 0) == 0}
        used = sum(widths[i] for i in keep)
        if used <= budget:
            for column in self.columns:
                if id(column) in keep and id(column) not in self._folds:
                    column.no_wrap = True
        optional = sorted((c for c in self.columns if id(c) not in keep),
                          key=lambda c: self._priority.get(id(c), 0))
        for column in optional:
            if used + widths[id(column)] > budget:
                break
            keep.add(id(column))
            used += widths[id(column)]
        return [c for c in self.columns if id(c) in keep]

    def _natural_width(self, console: Console, options: ConsoleOptions, column: Column) -> int:
        """Cells' widest line plus padding and one border."""
        widest = max((Measurement.get(console, options, cell).maximum
                      for cell in self._cells_of(column)), default=0)
        left, right = self.padding[3], self.padding[1]
        return widest + left + right + 1

    def _cells_of(self, column: Column) -> Iterator[Any]:
        if self.show_header:
            yield column.header
        yield from column.cells
