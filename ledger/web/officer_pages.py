"""What the officer's and the admin's pages share (issue 23): a page of the site's templates
as the live server answers it, the actor of a write made from the web, the status a refusal
answers with, and the form's values read as the services take them.

The services are the CLI's (``services.close``, ``services.corrections``, ``services.admin``),
called with the same arguments; only reading a form and showing a result is done here. The
actor of a write is ``web.auth.actor``: ``by`` the user's name, the command ``web ADDRESS
POST /officer/games/12/void``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlalchemy import Engine

from ledger.errors import (
    Ambiguous,
    ImportRejected,
    InvalidInput,
    LedgerError,
    NotFound,
    UsageError,
)
from ledger.web import pages
from ledger.web.auth import actor as actor  # the one actor of a web write, re-exported


def engine() -> Engine:
    """The ledger the application serves (``create_app`` opened it)."""
    found: Engine = current_app.extensions["ledger"]
    return found


def status_of(exc: LedgerError) -> int:
    """The HTTP status a refusal of the ledger answers with: 404 for what does not exist
    (``NotFound``), 400 for what the form got wrong (``InvalidInput``, ``UsageError``,
    ``Ambiguous``, ``ImportRejected``), 409 for what the ledger's state refuses (a closed
    period, a busy or read-only ledger)."""
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, InvalidInput | UsageError | Ambiguous | ImportRejected):
        return 400
    return 409


def render(template: str, title: str, *, status: int = 200, **context: Any) -> tuple[str, int]:
    """``template`` (one of the site's, ``formats/site/templates``) rendered as a live page by
    ``web.pages.render`` (the club's name, the server's policy, ``csrf_token()``, ``user``),
    with the HTTP ``status``."""
    return pages.render(template, title, **context), status


@dataclass(frozen=True)
class Field:
    """One field of a form: its ``name`` (the service's argument), ``label``, ``kind``
    (``text``, ``textarea``, ``select``, ``radio``, ``checkbox``, ``file``), the ``choices``
    of a select or radio ((value, label) pairs), a ``hint`` under it, ``required``."""

    name: str
    label: str
    kind: str = "text"
    choices: tuple[tuple[str, str], ...] = ()
    hint: str = ""
    required: bool = False


#: The reason every correction needs (``services.close.rerate.check_reason``).
REASON = Field("reason", "Reason", "textarea", hint="Why: required, recorded in the audit log.",
               required=True)
#: How a correction of a closed period takes effect (the CLI's --in-next-period / --rerate).
EFFECT = Field("effect", "In a closed period", "radio", (
    ("", "Only open periods are touched"),
    ("in-next-period", "In the next period (FIDE's way: the published list stands, the "
                       "difference is carried into the earliest open period)"),
    ("rerate", "Re-rate the closed period and every later one (each gets its next revision)")))
#: The rating pools, as a select.
POOL = Field("pool", "Pool", "select", (("standard", "Standard"), ("rapid", "Rapid"),
                                        ("blitz", "Blitz")))


def text(values: Mapping[str, str], name: str) -> str | None:
    """The form's ``name``, trimmed; None when it is missing or blank (the service's default)."""
    value = (values.get(name) or "").strip()
    return value or None


def number(values: Mapping[str, str], name: str) -> int | None:
    """The form's ``name`` as a whole number (None when blank). Raises ``InvalidInput`` naming
    the field for anything else (the CLI's option parser refuses it the same way)."""
    value = text(values, name)
    if value is None:
        return None
    if not value.isascii() or not value.lstrip("-").isdigit() or len(value) > 12:
        raise InvalidInput(f"{name}: {value!r} is not a whole number")
    return int(value)


def effect(values: Mapping[str, str]) -> tuple[bool, bool]:
    """``(in_next_period, rerate)`` from the form's ``effect``. Raises ``InvalidInput`` for a
    value that is neither."""
    chosen = text(values, "effect") or ""
    if chosen not in ("", "in-next-period", "rerate"):
        raise InvalidInput(f"effect: {chosen!r}: choose in-next-period, rerate or neither")
    return chosen == "in-next-period", chosen == "rerate"


def ticked(values: Mapping[str, str], name: str) -> bool:
    """Whether the checkbox ``name`` is ticked."""
    return values.get(name) in ("1", "on", "yes", "true")
