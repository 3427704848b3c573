"""Matching a player named in a file (TRF, CSV, PGN, FIDE rating list) to a ledger player.

The order is the one issue 3 sets: by FIDE id, then by name and birth year. An ambiguous match is
an error that lists the candidates, never a guess.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic, NamedTuple, TypeVar

from sqlalchemy import ColumnElement, LargeBinary, and_, cast, func, or_, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from ledger.db.models import Player
from ledger.names import (
    LOOSE_PAIRS,
    fold_key,
    lookalike_folds,
    loose_form,
    loose_forms,
    name_key,
    name_words,
    same_name_keys,
    unfolded,
)
from ledger.names.hints import (
    CLOSE,
    NameHints,
    close_matches,
    did_you_mean,
    numbers_apart,
    word_ratio,
    word_starts,
)


class PlayerRow(NamedTuple):
    """A ledger player as an import matches them (``PlayerIndex.load_rows``: one Core SELECT of
    these columns of ``players``, no ORM state): a tenth of a ``Player``'s memory, for the
    hundreds of thousands of players a federation's month may name. Two rows are the same
    player when their ``id`` is (a row is never changed: a player registered or renamed is
    indexed as a new row)."""

    id: int
    name: str
    name_key: str
    namesake: int
    fide_id: int | None
    birth_year: int | None
    sex: str | None
    federation: str | None
    merged_into: int | None
    withdrawn: bool

    @classmethod
    def of(cls, player: Player) -> PlayerRow:
        """The row of a ``Player`` (one just registered)."""
        return cls(player.id, player.name, player.name_key, player.namesake, player.fide_id,
                   player.birth_year, player.sex, player.federation, player.merged_into,
                   player.withdrawn)


#: The columns of ``PlayerRow``, in its order.
_ROW_COLUMNS = tuple(getattr(Player, name) for name in PlayerRow._fields)

#: A player as ``PlayerIndex`` reads them: a ``Player`` (``PlayerIndex.load``, for a caller that
#: changes them) or a ``PlayerRow`` (``PlayerIndex.load_rows``, for one that only matches).
Indexed = Player | PlayerRow
#: The players one index holds.
P = TypeVar("P", Player, PlayerRow)


@dataclass(frozen=True)
class Match(Generic[P]):
    """The outcome of one lookup: ``player`` when found; ``error`` (a message naming the
    candidates or the conflicting FIDE id) when the file's player cannot be matched safely.
    Both None: nobody in the ledger is this player (unknown: register them or report it).
    ``candidates``: the players an ambiguous match could be (empty for any other error).
    ``note``: a warning to give with the match (a name of a player merged into another)."""

    player: P | None = None
    error: str | None = None
    candidates: tuple[P, ...] = ()
    note: str | None = None


def loose_key_sql(column: ColumnElement[str] | InstrumentedAttribute[str]) -> ColumnElement[str]:
    """``ledger.names.loose_form`` of a stored ``name_key`` column, in SQL (``replace`` is the
    same on SQLite and PostgreSQL): commas and blanks dropped, then ``LOOSE_PAIRS`` folded, in
    that order, as the Python function does."""
    expr = func.replace(func.replace(column, ",", ""), " ", "")
    for pair, vowel in LOOSE_PAIRS:
        expr = func.replace(expr, pair, vowel)
    return expr


#: The characters of a key ``fold_key`` may change: its ASCII letters and digits.
_KEY_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789"


def fold_key_sql(column: ColumnElement[str] | InstrumentedAttribute[str]) -> ColumnElement[str]:
    """``ledger.names.fold_key`` of a stored ``name_key`` column, in SQL: its look-alike ASCII
    spellings made one (``i`` -> ``l``, ``m`` -> ``rn``, ``0`` -> ``o``, ``1`` -> ``l``: the
    translation ``fold_key`` derives from Unicode's data, each a ``replace``), then
    ``loose_key_sql``."""
    expr: ColumnElement[str] | InstrumentedAttribute[str] = column
    for char in _KEY_CHARACTERS:
        if (spelling := fold_key(char)) != char:
            expr = func.replace(expr, char, spelling)
    return loose_key_sql(expr)


def players_like(session: Session, name: str) -> list[Player]:
    """The players whose name looks like ``name`` (str) and is not it: they share one of
    ``ledger.names.loose_forms`` (blanks, apostrophes, an umlaut written ae, oe, ue, or
    look-alike letters: Cyrillic ``Аberg`` and ``Aberg``) and differ in key, by id. One
    SELECT of ids and names finds the candidates: a stored key whose ``fold_key_sql`` is one of
    ``name``'s ``lookalike_folds``, and the names whose look-alikes that folding may miss (one
    holding a character ``unfolded`` names: only those outside ASCII can, and ``|``, ``%``);
    Python decides by ``loose_forms``, and one more SELECT loads the players."""
    key = name_key(name)
    forms = set(loose_forms(name))
    folds = lookalike_folds(name)
    # a stored key folds to one of them only if its first character folds to one of theirs: a
    # cheap test first, so that SQL computes the fold of few keys
    firsts = sorted(c for c in _KEY_CHARACTERS if fold_key(c)[:1] in {f[:1] for f in folds})
    folded = and_(func.substr(Player.name_key, 1, 1).in_(firsts),
                  fold_key_sql(Player.name_key).in_(sorted(folds)))
    ascii_odd = [c for c in map(chr, range(32, 127)) if unfolded(c)]
    query = select(Player.id, Player.name, folded).where(Player.name_key != key, or_(
        folded, func.length(cast(Player.name, LargeBinary)) != func.length(Player.name),
        *(Player.name.contains(c, autoescape=True) for c in ascii_odd)))
    ids = [i for i, other, fold_found in session.execute(query)
           if (fold_found or any(map(unfolded, set(other))))
           and not forms.isdisjoint(loose_forms(other))]
    return list(session.scalars(select(Player).where(Player.id.in_(ids),
                                                     Player.withdrawn.is_(False))
                                .order_by(Player.id)))


@dataclass
class PlayerIndex(Generic[P]):
    """Every ledger player, loaded once (one query), by FIDE id and by name key
    (``ledger.names.name_key``: case, accents and punctuation aside).

    ``add`` keeps the index current when an import registers a player inside its transaction.
    A player merged into another (``ledger player merge``) is not matched: their name leads to
    the player they joined (``joined``), with a note. A withdrawn player (``ledger player
    withdraw``) is not matched either, nor offered as a hint: only their namesake number is
    kept (``withdrawn``), so that a player registered again under their name gets the next.
    """

    by_fide: dict[int, P] = field(default_factory=dict)
    by_name: dict[str, list[P]] = field(default_factory=lambda: defaultdict(list))
    by_id: dict[int, P] = field(default_factory=dict)
    merged: dict[str, list[P]] = field(default_factory=lambda: defaultdict(list))
    withdrawn: dict[str, int] = field(default_factory=dict)
    #: For ``similar`` only, built on its first call.
    _hints: NameHints[P] | None = field(default=None, repr=False)

    @staticmethod
    def load(session: Session, where: ColumnElement[bool] | None = None) -> PlayerIndex[Player]:
        """Index every player of the ledger (one SELECT), or those ``where`` selects, as
        ``Player`` entities (for a caller that changes them)."""
        index: PlayerIndex[Player] = PlayerIndex()
        query = select(Player).order_by(Player.id)
        for player in session.scalars(query if where is None else query.where(where)):
            index.add(player)
        return index

    @staticmethod
    def load_rows(session: Session) -> PlayerIndex[PlayerRow]:
        """Index every player of the ledger as a ``PlayerRow`` (one Core SELECT of its columns
        on the session's connection: no ORM state, no identity map), for a caller that only
        matches (an import of games: ``services.imports.matching``)."""
        index: PlayerIndex[PlayerRow] = PlayerIndex()
        add, make = index.add, PlayerRow._make
        for row in session.connection().execute(select(*_ROW_COLUMNS).order_by(Player.id)):
            add(make(row))
        return index

    @staticmethod
    def hints_for(session: Session, name: str) -> PlayerIndex[Player]:
        """An index of the players ``similar(name)`` can find, and no others (one SELECT whose
        LIKE conditions every such player meets): a ledger of a million players is not loaded
        to say "did you mean"."""
        words = name_words(name)
        if not words:
            return PlayerIndex()
        loose = loose_key_sql(Player.name_key)
        # a loose form is its key less some characters: a key whose loose form holds a text holds
        # its letters in order, a LIKE far cheaper than the loose form's REPLACEs (tried first)
        forms = sorted({loose_form(w) for w in words}, key=len, reverse=True)
        return PlayerIndex.load(session, or_(and_(*(Player.name_key.contains(w, autoescape=True)
                                            for w in words)),
                                     Player.name_key.startswith(words[0], autoescape=True),
                                     and_(*(Player.name_key.like(_in_order(f), escape="/")
                                            for f in forms),
                                          *(loose.contains(f, autoescape=True) for f in forms))))

    def add(self, player: P) -> None:
        """Index a player (just registered, or loaded)."""
        if player.withdrawn:
            self.withdrawn[player.name_key] = max(player.namesake,
                                                  self.withdrawn.get(player.name_key, -1))
            return
        self.by_id[player.id] = player
        if player.merged_into is not None:
            self.merged[player.name_key].append(player)
            return
        if player.fide_id is not None:
            self.by_fide[player.fide_id] = player
        self.by_name[player.name_key].append(player)
        if self._hints is not None:
            self._hints.add(player.id, player.name, player)

    def next_namesake(self, key: str) -> int:
        """The ``players.namesake`` number the next player with name key ``key`` gets, from the
        players indexed (``services.register.players.next_namesake``'s rule: 0 for the first of a key,
        else one more than the highest)."""
        numbers = [p.namesake for p in self.by_name.get(key, ())]
        numbers += [p.namesake for p in self.merged.get(key, ())]
        if key in self.withdrawn:
            numbers.append(self.withdrawn[key])
        return max(numbers) + 1 if numbers else 0

    def rename(self, player: P, old_key: str) -> None:
        """Index ``player`` under their new name key, after a change of name from ``old_key``."""
        same = self.by_name.get(old_key, [])
        if player in same:
            same.remove(player)
        self.by_name[player.name_key].append(player)

    def named(self, name: str) -> list[P]:
        """The players whose name is ``name``: the same key, else (none) the same name in the
        other word order (``Kevin O'Brien`` = ``O'Brien, Kevin``) or with its comma optional
        (``Mirzoev Azer`` = ``Mirzoev, Azer``): ``ledger.names.same_name_keys``."""
        key = name_key(name)
        return self.by_name.get(key) or [p for other in same_name_keys(key)
                                         for p in self.by_name.get(other, [])]

    def similar(self, name: str, limit: int = 3) -> tuple[list[P], int]:
        """Players a file's ``name`` may be short for (``ledger.names.hints.NameHints.similar``):
        ledger players (other than its exact namesakes) whose name holds every word of ``name``
        (``Doyle`` or ``Liam Doyle`` -> ``Doyle, Liam``) or starts with it (``Doyle, L`` ->
        ``Doyle, Liam``), ignoring case, accents and punctuation. Returns the first ``limit``
        by id, and how many there are in all. A hint for messages only: ``match`` never uses it.
        """
        if self._hints is None:
            self._hints = NameHints((p.id, p.name, p) for ps in self.by_name.values() for p in ps)
        return self._hints.similar(name, limit)

    def close(self, name: str, limit: int = 3) -> tuple[list[P], int]:
        """Players a misspelt ``name`` may stand for (``ledger.names.hints.NameHints.close``, the rule
        of ``suggest_players`` and ``ledger game add``: ``Doherty, Connor`` -> ``Doherty,
        Conor``), the closest first, and how many there are in all. A hint only, as ``similar``."""
        if self._hints is None:
            self.similar(name, 0)
        assert self._hints is not None
        return self._hints.close(name, limit)

    def match(self, name: str, fide_id: int | None = None, birth_year: int | None = None) -> Match[P]:
        """The ledger player for a file's ``name`` (str), ``fide_id`` and ``birth_year`` (int or None).

        1. A FIDE id the ledger knows decides.
        2. Otherwise players with the same name (``named``: the same key, else the same name in
           the other word order or with its comma optional) are candidates; when the file
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
        return self._joined(name)

    def _joined(self, name: str) -> Match[P]:
        """The player a merged player of this name joined, with a note; else ``Match()``."""
        key = name_key(name)
        for merged in self.merged.get(key) or [p for other in same_name_keys(key)
                                               for p in self.merged.get(other, [])]:
            joined = self.by_id.get(merged.merged_into or 0)
            while joined is not None and joined.merged_into is not None:
                joined = self.by_id.get(joined.merged_into)
            if joined is not None:
                return Match(joined, note=f"{name!r} is {merged.name} (#{merged.id}), merged "
                                          f"into {joined.name} (#{joined.id}): matched to them")
        return Match()


def _in_order(text: str) -> str:
    """A LIKE pattern (escape ``/``) for the texts that hold the letters of ``text`` in order."""
    return "%" + "%".join(c if c not in "%_/" else "/" + c for c in text) + "%"


def suggest_players(session: Session, name: str, limit: int = 3) -> tuple[list[Player], int]:
    """The players a ``name`` that matches nobody may stand for, for "did you mean": those a
    part of a name may (``PlayerIndex.similar``), else those a misspelling may
    (``ledger.names.hints.close_matches``: ``O'Brian, Kevin`` -> ``O'Brien, Kevin``), looking only at
    the players with words starting as ``name``'s do (``ledger.names.hints.word_starts``: one LIKE
    each, and the keys alone are read), so a ledger of 200,000 players answers in a fraction of
    a second; else those it looks like (``players_like``: Cyrillic ``Аberg, Anna`` ->
    ``Aberg, Anna``; a scan of every key, so asked last). Returns the first ``limit`` (int) and
    how many there are in all."""
    found = PlayerIndex.hints_for(session, name).similar(name, limit)
    starts = word_starts(name)
    if not found[0] and starts:
        keys = session.execute(select(Player.id, Player.name_key).where(*(
            or_(Player.name_key.startswith(s, autoescape=True),
                Player.name_key.contains(f" {s}", autoescape=True)) for s in starts),
            Player.withdrawn.is_(False)))
        ids, in_all = close_matches(name, ((i, k) for i, k in keys), limit)
        players = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(ids)))}
        found = [players[i] for i in ids], in_all
    if found[0]:
        return found
    alike = players_like(session, name)
    return alike[:limit], len(alike)


def misspelt_word(key: str, other: str) -> bool:
    """Whether two ``name_key``s are the same words but for a misspelt one or two, in either
    word order: as many words, each the same or as close as ``ledger.names.hints.CLOSE`` (``doherty
    connor`` and ``doherty conor``), and neither of a pair only shortening the other (an
    initial: ``gallagher t`` and ``gallagher tom``). Different first names are apart:
    ``smith jane`` and ``smith john``, ``player p`` and ``player q``."""
    mine, theirs = key.replace(",", " ").split(), other.replace(",", " ").split()
    if len(mine) != len(theirs) or mine == theirs:
        return False
    for at in range(len(theirs)):
        turned = theirs[at:] + theirs[:at]
        if all(a == b or (not a.startswith(b) and not b.startswith(a) and word_ratio(a, b) >= CLOSE)
               for a, b in zip(mine, turned, strict=True)):
            return True
    return False


def close_spellings(session: Session, name: str) -> list[Player]:
    """The players whose name ``name`` may be a misspelling of (``ledger.names.hints.close_matches``,
    the rule of "did you mean": ``Doherty, Connor`` and ``Doherty, Conor``), word for word
    (``misspelt_word``: not a name with an initial or another first name, ``Gallagher, T.``
    and ``Gallagher, Tom``, ``Smith, Jane`` and ``Smith, John``; nor names that differ only in
    their numbers, ``numbers_apart``), by id: what ``ledger player add`` refuses without
    ``--new``."""
    starts = word_starts(name)
    if not starts:
        return []
    key = name_key(name)
    keys = [(i, k) for i, k in session.execute(select(Player.id, Player.name_key).where(*(
        or_(Player.name_key.startswith(s, autoescape=True),
            Player.name_key.contains(f" {s}", autoescape=True)) for s in starts),
        Player.withdrawn.is_(False)))
            if misspelt_word(key, k) and not numbers_apart(key, k)]
    ids, _ = close_matches(name, keys, len(keys))
    return list(session.scalars(select(Player).where(Player.id.in_(ids)).order_by(Player.id)))


def may_mean(players: Sequence[Indexed], in_all: int) -> str:
    """Ledger players a name may mean, for "did you mean": ``Doyle, Liam (#3, FIDE 2500035) or
    ...``, and how many there are in all when more are not shown."""
    return did_you_mean((f"{p.name} (#{p.id}, " + (f"FIDE {p.fide_id})" if p.fide_id else
                                                  "no FIDE id)") for p in players),
                        in_all, "players")


def described(player: Indexed) -> str:
    """A player as a message tells them from a namesake: ``Walsh, Tom (#4, FIDE 2500035, born
    1990, IRL)``, ``FIDE -`` and ``born ?`` where unknown, the federation only when known."""
    return (f"{player.name} (#{player.id}, FIDE {player.fide_id or '-'}, born "
            f"{player.birth_year or '?'}" + (f", {player.federation})" if player.federation else ")"))


def _listed(players: Sequence[Indexed]) -> str:
    return "; ".join(map(described, players))
