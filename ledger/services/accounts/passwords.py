"""Passwords (OWASP ASVS 5.0 level 1, issue 23): hashed with Argon2id (``argon2-cffi``'s
``PasswordHasher``, its RFC 9106 low-memory defaults: 64 MiB, 3 passes, 4 lanes), kept only as
the PHC string (``$argon2id$v=19$m=...``); the rules of what may be a password: at least
``MIN_LENGTH`` and at most ``MAX_LENGTH`` characters, not among the 10,000 most common
(``ledger/data/common-passwords.txt``, case aside), and no rule of composition.
"""

from __future__ import annotations

import functools
from importlib import resources

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ledger.domain import count
from ledger.errors import InvalidInput

#: The fewest characters a password may have (ASVS 5.0 6.2.1).
MIN_LENGTH = 8
#: The most: long passphrases welcome (ASVS asks for 64 at least), but not a megabyte to hash.
MAX_LENGTH = 128

#: The hasher every hash is made and checked with; tests put a cheaper one in its place
#: (``monkeypatch.setattr(passwords, "HASHER", ...)``). A hash made with other parameters is
#: made again at the next login (``needs_rehash``).
HASHER = PasswordHasher()

#: The file of the most common passwords, one a line (ledger/data/README.md says whence).
COMMON_FILE = "data/common-passwords.txt"


@functools.cache
def common_passwords() -> frozenset[str]:
    """The 10,000 most common passwords (SecLists' ``10k-most-common.txt``: ledger/data/README.md
    says whence), case folded. Read once. Raises ``OSError`` when the file is missing (a broken
    install: refusing nothing would be silent)."""
    text = resources.files("ledger").joinpath(COMMON_FILE).read_text(encoding="utf-8")
    return frozenset(line.strip().casefold() for line in text.splitlines() if line.strip())


def check_rules(password: str) -> None:
    """Nothing when ``password`` may be a password; else ``InvalidInput`` saying which rule it
    breaks (never the password): too short, too long, or one of the most common."""
    if len(password) < MIN_LENGTH:
        raise InvalidInput(f"password: {count(len(password), 'character')}; at least {MIN_LENGTH}")
    if len(password) > MAX_LENGTH:
        raise InvalidInput(f"password: {len(password)} characters; at most {MAX_LENGTH}")
    if password.casefold() in common_passwords():
        raise InvalidInput("password: one of the 10,000 most common passwords; choose another "
                           "(a few unrelated words make a good one)")


def hash_password(password: str) -> str:
    """The Argon2id PHC string of ``password`` (a new random salt each time)."""
    return HASHER.hash(password)


def verify(stored: str, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` (a PHC string) was made from. A stored value
    that is no Argon2 hash verifies nothing."""
    try:
        return HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was made with parameters other than ``HASHER``'s (hash it again)."""
    try:
        return HASHER.check_needs_rehash(stored)
    except InvalidHashError:
        return True


@functools.cache
def _dummy(hasher: PasswordHasher) -> str:
    return hasher.hash("not a password of anyone")


def waste_time(password: str) -> None:
    """Verify ``password`` against a hash of nobody: a login for a name that has no account
    takes as long as one with a wrong password, so the time does not tell which was wrong."""
    verify(_dummy(HASHER), password)
