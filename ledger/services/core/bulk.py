"""Work on a whole period or file at once: the close and the import.

A federation month is millions of small objects (game rows, game sides, audit tuples) that hold
no reference cycles; freeing them is reference counting's work. Python's cyclic garbage
collector still walks every tracked container each time its generation thresholds trip, and
at 200,000 players and 1,000,000 games its passes took 12.5 s of a 101 s close; an M month's
import runs in 5-6 s without them, 7-8 s with (benchmarks/RESULTS.md). ``paused_gc``
switches it off for such work and back on after; the command-line start-up uses it too
(``cli.collector``: imports leave long-lived objects, no garbage).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Run the block with the cyclic garbage collector off (``gc.disable``), and switch it back
    on after (also on an error) if it was on before; nested uses leave it to the outermost. The
    block's reference cycles, if any, are collected by the next collection after it."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
