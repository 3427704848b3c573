"""The models' base: the declarative ``Base`` with its naming convention, and what several
tables' columns share (the name and its key, the rating pool, the time of writing).

Every table of the ledger is a subclass of ``Base`` in a module of this package; ``Base.metadata``
holds them all once ``ledger.db.models`` is imported (its ``__init__`` imports every module).
"""

import datetime as dt

from sqlalchemy import MetaData, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, validates

from ledger.domain import STANDARD
from ledger.names import name_key

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base with a naming convention, so constraints have names on SQLite too."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


#: Room for a name's key: twice a name's 200 characters (``ß`` -> ``ss``, ``æ`` -> ``ae`` ...).
KEY_LENGTH = 400


class KeyedName:
    """A table with a ``name`` and its ``name_key``: setting the name sets the key, so the two
    never differ (a Core INSERT gives ``name_key`` itself)."""

    name_key: Mapped[str]

    @validates("name")
    def _keep_key(self, _attribute: str, name: str) -> str:
        self.name_key = name_key(name)
        return name


#: The check every ``pool`` column carries (docs/RULES.md §9: standard, rapid, blitz).
POOL_CHECK = "pool IN ('standard', 'rapid', 'blitz')"


def pool_column() -> Mapped[str]:
    """A ``pool`` column: the rating pool a row belongs to; rows written before revision 0009
    are standard (its server default)."""
    return mapped_column(String(8), default=STANDARD, server_default=STANDARD)


def utcnow() -> dt.datetime:
    """Now, in UTC without a time zone: how the ledger stores its times."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)
