"""Fixtures for pytest-alembic: a fresh empty database of the run (a SQLite file, or a database
on the ``--database-url`` server: ``new_database`` in tests/conftest.py) and the ledger's own
migrations.

pytest-alembic's built-in tests are imported into test_migrations.py (the plugin's own collection
is pointed at an unused path in pyproject.toml: see docs/DESIGN.md, "Known traps").
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytest_alembic.config import Config
from sqlalchemy import Engine

from ledger.db.engine import make_engine
from ledger.db.migrate import migrations_dir


@pytest.fixture
def alembic_config() -> Config:
    return Config(config_options={"script_location": str(migrations_dir())})


@pytest.fixture
def alembic_engine(new_database) -> Iterator[Engine]:  # type: ignore[no-untyped-def]
    engine = make_engine(new_database("migrations"))
    yield engine
    engine.dispose()
