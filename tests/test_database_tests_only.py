"""``--database-tests-only`` (tests/conftest.py): CI's PostgreSQL leg runs only the tests that
reach the database server; every other test gives the result it gave on SQLite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: No server listens here: collecting never connects (the server fixture is set up per test).
URL = "postgresql+psycopg://nobody:secret@127.0.0.1:9/postgres"


def _collect(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "--collect-only", "-q", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_a_test_without_a_ledger_is_deselected_and_one_with_a_ledger_kept() -> None:
    # test_canonical_json.py opens no ledger (no test there takes a fixture); in
    # test_audit_chain.py two tests take no database fixture (they hash values they write out) and
    # every other one takes its ledgers from the fixtures.
    unit, ledgers = "tests/unit/test_canonical_json.py", "tests/integration/test_audit_chain.py"
    alone = _collect(unit, ledgers)
    only = _collect(unit, ledgers, "--database-url", URL, "--database-tests-only")
    assert alone.returncode == 0 and only.returncode == 0, only.stdout + only.stderr
    listed = [line for line in only.stdout.splitlines() if "::" in line]
    assert listed and all(line.startswith(ledgers) for line in listed), listed
    without = {f"{ledgers}::test_a_row_digest_is_the_sha256_of_the_rows_canonical_json",
               f"{ledgers}::test_an_entrys_hash_covers_its_content_its_facts_and_the_hash_before"}
    everything = [line for line in alone.stdout.splitlines() if "::" in line]
    unit_tests = [line for line in everything if line.startswith(unit)]
    assert len(unit_tests) >= 8 and without <= set(everything)
    assert listed == [line for line in everything if line not in without
                      and not line.startswith(unit)]
    assert f"{len(unit_tests) + 2} deselected" in only.stdout


def test_without_a_server_the_option_is_refused() -> None:
    result = _collect("tests/unit/test_canonical_json.py", "--database-tests-only")
    assert result.returncode == 4, result.stdout + result.stderr
    assert "--database-tests-only needs --database-url" in result.stdout + result.stderr
