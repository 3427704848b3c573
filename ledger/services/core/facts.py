"""The facts as of a change (docs/CORRECTIONS.md §2), and keeping a fact's earlier values.

A fact row (a game, a player) holds its current values and ``change_id``, the change that last
wrote it (NULL: before revision 0006, read as change 0); before a change replaces its values,
``revise_player`` / ``revise_game`` copy the old ones into ``player_revisions`` /
``game_revisions`` with ``valid_from_change`` (the old ``change_id``) and ``valid_to_change``.
So the facts as of change N are, for each row, its current values when ``change_id <= N``, else
the revision whose ``[valid_from_change, valid_to_change)`` holds N; a row created after N does
not exist as of N. ``player_entries`` are append-only: as of N, those with ``change_id <= N``.

``Facts`` gives the loaders (``rated_games``, ``pools``, ``state``) the games and players to read:
the tables themselves (``Facts()``: now, as the close and the re-rating read them) or the same
columns as of a change (``Facts(as_of=N)``: ``db check`` recomputing a stored revision).
Events have no revisions: an event changes only while its period is open (``place_in_event``),
so no closed result depends on an earlier value of one; a game moved with its event from one
open period to the next is not revised either (the move is part of the write that widened the
event, and both periods were open).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, FromClause, func, select, true, union_all
from sqlalchemy.orm import Session

from ledger.db.models import Game, GameRevision, Player, PlayerEntry, PlayerRevision

#: The game columns the rating code reads, the same in ``games`` and ``game_revisions``.
GAME_COLUMNS = ("event_id", "round", "date", "period", "white_id", "black_id", "result",
                "played", "status", "pool", "unequal_times")
#: The player columns kept in ``player_revisions`` (the identity), besides the id.
PLAYER_COLUMNS = ("name", "name_key", "fide_id", "birth_year", "sex", "federation", "title",
                  "w_title", "o_title", "foa_title", "merged_into", "withdrawn")


@dataclass(frozen=True)
class Facts:
    """The facts a rating reads: as they are now (``as_of`` None) or as of change ``as_of``."""

    as_of: int | None = None

    def games(self) -> FromClause:
        """The games: the ``games`` table itself now (so a condition written on ``Game`` applies),
        else a subquery with its columns ``id`` and ``GAME_COLUMNS`` as of the change."""
        if self.as_of is None:
            return Game.__table__
        return _as_of(Game, GameRevision, "game_id", GAME_COLUMNS, self.as_of, "games_as_of")

    def players(self) -> FromClause:
        """The players: the ``players`` table now, else a subquery with ``id`` and
        ``PLAYER_COLUMNS`` as of the change."""
        if self.as_of is None:
            return Player.__table__
        return _as_of(Player, PlayerRevision, "player_id", PLAYER_COLUMNS, self.as_of,
                      "players_as_of")

    def entries(self) -> ColumnElement[bool]:
        """The condition on ``PlayerEntry`` for the entries recorded by then."""
        return self.written(PlayerEntry.change_id)

    def written(self, change_id: Any) -> ColumnElement[bool]:
        """The condition "the row whose change is ``change_id`` (a column) was written by then"
        for an append-only table (entries, carried corrections)."""
        if self.as_of is None:
            return true()
        return func.coalesce(change_id, 0) <= self.as_of


#: The facts as they are now.
NOW = Facts()


def _as_of(model: Any, revisions: Any, key: str, columns: tuple[str, ...], n: int,
           name: str) -> FromClause:
    """The rows of ``model`` as of change ``n``: current ones written by then, and the earlier
    values in ``revisions`` (whose ``key`` is the row's id) valid at ``n``."""
    table, old = model.__table__, revisions.__table__
    now = select(table.c.id, *(table.c[c] for c in columns)).where(
        func.coalesce(table.c.change_id, 0) <= n)
    before = select(old.c[key].label("id"), *(old.c[c] for c in columns)).where(
        func.coalesce(old.c.valid_from_change, 0) <= n, old.c.valid_to_change > n)
    return union_all(now, before).subquery(name)


def _revise(session: Session, row: Any, model: Any, key: str, columns: tuple[str, ...],
            change_id: int) -> None:
    values = {c: getattr(row, c) for c in columns}
    session.add(model(**{key: row.id}, valid_from_change=row.change_id,
                      valid_to_change=change_id, **values))
    row.change_id = change_id


def revise_player(session: Session, player: Player, change_id: int) -> None:
    """Before change ``change_id`` alters ``player`` (ORM row, not changed yet): keep its
    identity as it was in ``player_revisions`` and mark the row as written by the change."""
    _revise(session, player, PlayerRevision, "player_id", PLAYER_COLUMNS, change_id)


def revise_game(session: Session, game: Game, change_id: int) -> None:
    """Before change ``change_id`` alters ``game`` (ORM row, not changed yet: a correction or a
    void, issue 10 part B): keep its values as they were in ``game_revisions`` and mark the row
    as written by the change."""
    _revise(session, game, GameRevision, "game_id", (*GAME_COLUMNS, "source"), change_id)
