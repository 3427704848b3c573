"""Where the ledger's database is: ``--db``, then ``LEDGER_DB``, then ``./ledger.db``.

A value is a SQLite file path or any SQLAlchemy URL (``postgresql+psycopg://...``).
"""

from __future__ import annotations

import os

DEFAULT_DB = "ledger.db"
ENV_VAR = "LEDGER_DB"
#: The environment variable naming who writes, when ``--by`` does not.
USER_ENV = "LEDGER_USER"
#: The environment variable naming the private key that signs bundles' manifests (docs/VERIFY.md),
#: when ``ledger export bundle --key`` does not.
SIGNING_KEY_ENV = "LEDGER_SIGNING_KEY"


def resolve_db(option: str | None) -> str:
    """The database to use: the ``--db`` option if given, else ``$LEDGER_DB``, else ``ledger.db``."""
    return option or os.environ.get(ENV_VAR) or DEFAULT_DB
