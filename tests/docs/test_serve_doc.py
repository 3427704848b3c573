"""docs/serve.md's "Who may do what" table is ``web.access.ACTIONS``, row for row: the page a
club reads and the table the server checks cannot drift apart."""

from __future__ import annotations

from pathlib import Path

from ledger.db.models.accounts import ROLES
from ledger.web.access import ACTIONS

DOC = Path(__file__).resolve().parents[2] / "docs" / "serve.md"


def _rows() -> dict[str, set[str]]:
    rows: dict[str, set[str]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 + len(ROLES) and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = {role for role, cell in zip(ROLES, cells[2:], strict=True)
                                         if cell == "yes"}
    return rows


def test_the_documented_table_is_the_one_the_server_checks() -> None:
    assert _rows() == {action: set(roles) for action, roles in ACTIONS.items()}


def test_the_table_reads_as_the_documented_roles() -> None:
    # the roles, lowest first: a reporter submits, an officer reviews, an admin manages users
    assert ROLES == ("reporter", "officer", "admin")
    assert _rows()["user.manage"] == {"admin"}
    assert _rows()["submission.review"] == {"officer", "admin"}
