"""ledger: a persistent FIDE rating ledger for chess clubs and federations.

numpy (the close's rating, ``rules.period_arrays``; integer arrays only, no BLAS call) loads
OpenBLAS, which starts a thread per further core that spins waiting for work for a while:
0.08-0.11 s of CPU in the M close (numpy's import 0.057 -> 0.029 s, ``load_game_rows`` after it
0.19-0.24 -> 0.15 s). One thread unless the environment asks for more; set before any import of
numpy, which the ledger always imports through this package.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
