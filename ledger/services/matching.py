"""Matching a player named in a file (TRF, CSV, PGN, FIDE rating list) to a ledger player.

The order is the one issue 3 sets: by FIDE id, then by name and birth year. An ambiguous match is
an error that lists the candidates, never a guess.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from ledger.db.models import Player
from ledger.names import (
    LOOSE_PAIRS,
    NameHints,
    did_you_mean,
    loose_form,
    name_key,
    name_words,
    other_orders,
)


@dataclass(frozen=True)
class Match:
    """The outcome of one lookup: ``player`` when found; ``error`` (a message naming the
    candidates or the conflicting FIDE id) when the file's player cannot be matched safely.
    Both None: nobody in the ledger is this player (unknown: register them or report it).
    ``candidates``: the players an ambiguous match could be (empty for any other error)."""

    player: Player | None = None
    error: str | None = None
    candidates: tuple[Player, ...] = ()


def loose_key_sql(column: ColumnElement[str] | InstrumentedAttribute[str]) -> ColumnElement[str]:
    """``ledger.names.loose_form`` of a stored ``name_key`` column, in SQL (``replace`` is the
    same on SQLite and PostgreSQL): commas and blanks dropped, then ``LOOSE_PAIRS`` folded, in
    that order, as the Python function does."""
    expr = func.replace(func.replace(column, ",", ""), " ", "")
    for pair, vowel in LOOSE_PAIRS:
        expr = func.replace(expr, pair, vowel)
    return expr


@dataclass
class PlayerIndex:
    """Every ledger player, loaded once (one query), by FIDE id and by name key
    (``ledger.names.name_key``: case, accents and punctuation aside).

    ``add`` keeps the index current when an import registers a player inside its transaction.
    """

    by_fide: dict[int, Player] = field(default_factory=dict)
    by_name: dict[str, list[Player]] = field(default_factory=lambda: defaultdict(list))
    #: For ``similar`` only, built on its first call.
    _hints: NameHints[Player] | None = field(default=None, repr=False)

    @classmethod
    def load(cls, session: Session, where: ColumnElement[bool] | None = None) -> PlayerIndex:
        """Index every player of the ledger (one SELECT), or those ``where`` selects."""
        index = cls()
        query = select(Player).order_by(Player.id)
        for player in session.scalars(query if where is None else query.where(where)):
            index.add(player)
        return index

    @classmethod
    def hints_for(cls, session: Session, name: str) -> PlayerIndex:
        """An index of the players ``similar(name)`` can find, and no others (one SELECT whose
        LIKE conditions every such player meets): a ledger of a million players is not loaded
        to say "did you mean"."""
        words = name_words(name)
        if not words:
            return cls()
        loose = loose_key_sql(Player.name_key)
        return cls.load(session, or_(and_(*(Player.name_key.contains(w, autoescape=True)
                                            for w in words)),
                                     Player.name_key.startswith(words[0], autoescape=True),
                                     and_(*(loose.contains(loose_form(w), autoescape=True)
                                            for w in words))))

    def add(self, player: Player) -> None:
        """Index a player (just registered, or loaded)."""
        if player.fide_id is not None:
            self.by_fide[player.fide_id] = player
        self.by_name[player.name_key].append(player)
        if self._hints is not None:
            self._hints.add(player.id, player.name, player)

    def next_namesake(self, key: str) -> int:
        """The ``players.namesake`` number the next player with name key ``key`` gets, from the
        players indexed (``services.players.next_namesake``'s rule: 0 for the first of a key,
        else one more than the highest)."""
        same = self.by_name.get(key)
        return max(p.namesake for p in same) + 1 if same else 0

    def rename(self, player: Player, old_key: str) -> None:
        """Index ``player`` under their new name key, after a change of name from ``old_key``."""
        same = self.by_name.get(old_key, [])
        if player in same:
            same.remove(player)
        self.by_name[player.name_key].append(player)

    def named(self, name: str) -> list[Player]:
        """The players whose name is ``name``: the same key, else (none) the same name in the
        other word order (``Kevin O'Brien`` = ``O'Brien, Kevin``, ``ledger.names.other_orders``)."""
        key = name_key(name)
        return self.by_name.get(key) or [p for other in other_orders(key)
                                         for p in self.by_name.get(other, [])]

    def similar(self, name: str, limit: int = 3) -> tuple[list[Player], int]:
        """Players a file's ``name`` may be short for (``ledger.names.NameHints.similar``):
        ledger players (other than its exact namesakes) whose name holds every word of ``name``
        (``Doyle`` or ``Liam Doyle`` -> ``Doyle, Liam``) or starts with it (``Doyle, L`` ->
        ``Doyle, Liam``), ignoring case, accents and punctuation. Returns the first ``limit``
        by id, and how many there are in all. A hint for messages only: ``match`` never uses it.
        """
        if self._hints is None:
            self._hints = NameHints((p.id, p.name, p) for ps in self.by_name.values() for p in ps)
        return self._hints.similar(name, limit)

    def match(self, name: str, fide_id: int | None = None, birth_year: int | None = None) -> Match:
        """The ledger player for a file's ``name`` (str), ``fide_id`` and ``birth_year`` (int or None).

        1. A FIDE id the ledger knows decides.
        2. Otherwise players with the same name (``named``: the same key, else the same name in
           the other word order) are candidates; when the file
           gives a birth year, a candidate with another known birth year is not this player, and
           a candidate with another FIDE id is not this player either.
        3. One candidate left: that player. Several: ``error`` lists them (id, FIDE id, birth
           year). None: unknown (``Match()``), except that a same-name player with another FIDE
           id is reported as an ``error``, since a file rarely means a namesake.
        """
        if fide_id is not None and fide_id in self.by_fide:
            return Match(self.by_fide[fide_id])
        namesakes = self.named(name)
        candidates = [p for p in namesakes
                      if (birth_year is None or p.birth_year is None or p.birth_year == birth_year)
                      and (fide_id is None or p.fide_id is None)]
        if len(candidates) > 1 and birth_year is not None:
            exact = [p for p in candidates if p.birth_year == birth_year]
            candidates = exact or candidates
        if len(candidates) == 1:
            return Match(candidates[0])
        if len(candidates) > 1:
            return Match(error=f"{name!r} matches several players: {_listed(candidates)}; "
                               "give a FIDE id or a birth year to tell them apart",
                         candidates=tuple(candidates))
        other_id = [p for p in namesakes if fide_id is not None and p.fide_id is not None
                    and (birth_year is None or p.birth_year in (None, birth_year))]
        if other_id:
            return Match(error=f"{name!r} is in the ledger with FIDE id "
                               f"{', '.join(str(p.fide_id) for p in other_id)}; the file says {fide_id}")
        return Match()


def may_mean(players: list[Player], in_all: int) -> str:
    """Ledger players a name may mean, for "did you mean": ``Doyle, Liam (#3, FIDE 2500035) or
    ...``, and how many there are in all when more are not shown."""
    return did_you_mean((f"{p.name} (#{p.id}, " + (f"FIDE {p.fide_id})" if p.fide_id else
                                                  "no FIDE id)") for p in players),
                        in_all, "players")


def _listed(players: list[Player]) -> str:
    return "; ".join(f"#{p.id} (FIDE {p.fide_id or '-'}, born {p.birth_year or '?'})" for p in players)
