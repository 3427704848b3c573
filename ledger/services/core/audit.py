"""Writing the audit log (docs/CORRECTIONS.md §1): every write appends its ``changes`` rows in
its own transaction (``ledger audit`` reads them: ``services.admin.audit_log``).

Each entry is chained to the one before it (``chain``: its hash covers its content, the fact
rows it wrote and the previous entry's hash), when its transaction commits.

A writing service calls ``record_change`` first (the row gets its number, which the facts and
results it writes carry as ``change_id``) and, for a bulk write, ``summarise`` at the end with
what it did. A dry run or a refusal rolls the transaction back, so it leaves no change behind.

The code that writes fact rows deep inside a use case (registering a player, placing a game in
an event, an import's games) takes the number from ``written_by(session)``: the change most
recently recorded in the session's transaction, so one mechanism marks every row a change writes.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy.orm import Session

from ledger.db.models import Change
from ledger.domain import Actor
from ledger.services.core.chain import pending


def as_json(values: Any) -> str:
    """``values`` as the JSON text ``changes.before``/``after`` hold: keys sorted, non-ASCII
    kept, dates and other values as ``str``."""
    return json.dumps(values, sort_keys=True, ensure_ascii=False, default=str)


def record_change(session: Session, actor: Actor, action: str, entity: str, entity_id: object,
                  *, before: Any = None, after: Any = None, reason: str | None = None) -> Change:
    """Append one change (``action`` such as ``game.add``; ``entity`` and ``entity_id`` what it
    changes; ``before``/``after`` JSON-able values, None for none) inside the caller's
    transaction and return it with its number (``id``), so rows written next can carry it.
    Its ``hash`` is set when the transaction commits (``chain.seal``), over the facts written
    by then."""
    change = Change(by=actor.by, command=actor.command, action=action, entity=entity,
                    entity_id=str(entity_id)[:100], reason=reason,
                    before=None if before is None else as_json(before),
                    after=None if after is None else as_json(after))
    session.add(change)
    session.flush()
    session.info[_CHANGE_KEY] = change.id
    pending(session, change.id)
    return change


_CHANGE_KEY = "ledger.change_id"


def written_by(session: Session) -> int | None:
    """The change the rows written now in ``session`` belong to: the one ``record_change``
    recorded last in it; None when it recorded none (a test building a ledger by hand: such
    rows read as change 0, like those from before revision 0006)."""
    value = session.info.get(_CHANGE_KEY)
    return value if isinstance(value, int) else None


def summarise(change: Change, after: Any) -> None:
    """Set what a bulk write did (``after``, JSON-able) on its change, before the commit."""
    change.after = as_json(after)


def id_range(ids: list[int]) -> list[int] | None:
    """``[first, last]`` of ``ids`` for a summary, None when empty."""
    return [min(ids), max(ids)] if ids else None
