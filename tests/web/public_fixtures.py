"""The web tests' own small helpers for the public pages and the API (the accounts' fixtures
live in tests/web/conftest.py): an application over a ledger, its engine disposed after."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask

from ledger.web import create_app

#: The key every test application signs with (64 characters, as ``read_secret`` requires 32+).
SECRET = b"x" * 64


@contextmanager
def app_over(db: str, *, club: str = "Riverside Chess Club") -> Iterator[Flask]:
    """``create_app`` over the ledger ``db`` (cookies over plain HTTP, as the test client
    speaks it), its ledger's engine disposed when the block ends."""
    app = create_app(db, secret=SECRET, club=club, insecure_cookies=True)
    try:
        yield app
    finally:
        app.extensions["ledger"].dispose()
