"""Matching the players a file of games names to ledger players, and registering unknown ones.

Each player the file names (``ledger.formats.records.FilePlayer``) is matched once:
``PlayerIndex.match`` (FIDE id, then name and birth year; an ambiguous match is an error listing
the candidates). A player the ledger does not know is an error that suggests who a short name may
mean (``PlayerIndex.similar``), or, when the import registers players, a new ledger player with
the file's values and its rating in force from the period of the event's start (earlier games
unknown, treated as established; without a rating: unrated, with 0 rated games), in the rating
pool of the game they are first registered from (a rapid or blitz event's file: its ratings are
that pool's published ratings, and the player is unrated in standard; docs/RULES.md §9). The
rating a new player is registered with is the first the file gives them in that pool, whichever
of their games of that pool gives it (``Matcher.expect`` reads the file's players first); two
different ratings for one new player in one pool are a warning naming both lines. Every
problem names the file's line and field; ``ledger.services.imports.games`` puts them in its
report.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from ledger.domain import STANDARD, Period, RatingPool
from ledger.errors import LedgerError, Problem
from ledger.formats.records import FilePlayer, Where
from ledger.names import name_key
from ledger.services.imports.report import Who
from ledger.services.register.matching import (
    Match,
    PlayerIndex,
    PlayerRow,
    may_mean,
    misspelt_word,
)
from ledger.services.register.players import (
    NewPlayer,
    below_floor_note,
    invalid_field,
    register,
    registered_prior_games,
)


@dataclass
class Matcher:
    """Finds (or registers) the ledger player for each player a file names, once per record.

    ``file`` names the file in problems and in a registered player's source; ``register_unknown``
    registers the players the ledger does not know (else each is an error); ``use_ids`` matches
    and registers by the file's FIDE ids (False: the id column holds national ids, ignored).
    What it found: ``problems`` (errors and warnings, in the order found), ``players_matched``
    (ledger players matched, each counted once) and ``registered`` (the names it registered),
    split into ``registered_established`` (the file gave a rating: earlier games unknown, assumed
    established) and ``registered_unrated`` (no rating: 0 rated games before their pool).
    ``ratings``: the ratings the file gives each player in each pool (``expect``), by pool and
    ``_identity``.
    """

    session: Session
    file: str
    register_unknown: bool
    use_ids: bool
    index: PlayerIndex[PlayerRow] = field(init=False)
    problems: list[Problem] = field(default_factory=list)
    players_matched: int = 0
    registered: list[str] = field(default_factory=list)
    registered_established: list[str] = field(default_factory=list)
    registered_unrated: list[str] = field(default_factory=list)
    matched: set[int] = field(default_factory=set)
    done: dict[int, PlayerRow | None] = field(default_factory=dict)
    #: ``PlayerIndex.match`` by (name, FIDE id, birth year), while nobody is registered (the
    #: index does not change then): a CSV names a player once per game side.
    matches: dict[tuple[str, int | None, int | None], Match[PlayerRow]] = field(
        default_factory=dict)
    ratings: dict[tuple[RatingPool, str, object], dict[int, Where]] = field(
        default_factory=dict)
    #: The ledger player of each (name, FIDE id, birth year) matched with no problem, while
    #: nobody is registered: the same question gets the same answer, and no problem again.
    quiet: dict[tuple[str, int | None, int | None], PlayerRow] = field(default_factory=dict)
    #: ``quiet`` as the import's checks read a player (``who``): one ``Who`` per question.
    quiet_who: dict[tuple[str, int | None, int | None], Who] = field(default_factory=dict)
    #: The ``Who`` of each ledger player found by a question not in ``quiet_who``, by ledger id
    #: (its attributes read once).
    whos: dict[int, Who] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.index = PlayerIndex.load_rows(self.session)

    def expect(self, players: Iterable[tuple[FilePlayer, RatingPool]]) -> None:
        """Read the ratings the file gives its players (every ``FilePlayer`` of the file, in
        file order, with the rating pool of its game), so that a player registered from a game
        without a rating gets the one a later game of that pool gives: per pool and player (the
        same FIDE id, or without one the same name by ``names.name_key``), each distinct
        rating with where the file first gives it."""
        for p, pool in players:
            if p.rating is not None:
                self.ratings.setdefault(self._identity(p, pool), {}).setdefault(
                    p.rating, p.where("rating"))

    def _identity(self, p: FilePlayer, pool: RatingPool) -> tuple[RatingPool, str, object]:
        """Who ``p`` is within the file, in ``pool``, for ``ratings``: their FIDE id when the
        file gives one (and ids are used), else their name's key."""
        if self.use_ids and p.fide_id is not None:
            return (pool, "fide_id", p.fide_id)
        return (pool, "name", name_key(p.name))

    def _file_rating(self, p: FilePlayer, pool: RatingPool) -> tuple[int | None, Where]:
        """The rating to register ``p`` with in ``pool``: the first the file gives them in that
        pool (``expect``), else ``p``'s own; with where it stands."""
        given = self.ratings.get(self._identity(p, pool))
        if not given:
            return p.rating, p.where("rating")
        rating, where = next(iter(given.items()))
        return rating, where

    def _two_ratings(self, p: FilePlayer, name: str, pool: RatingPool) -> None:
        """A warning when the file gives the new player ``p`` (registered as ``name``) more than
        one rating in ``pool``, naming each with its line and field; at the place of the
        second."""
        given = list(self.ratings.get(self._identity(p, pool), {}).items())
        if len(given) < 2:
            return
        named = [f"{rating} (line {line}, {where})" for rating, (line, where) in given]
        line, where = given[1][1]
        self.problems.append(Problem(
            self.file, line, where, f"{name}: the file gives {', '.join(named[:-1])} and "
            f"{named[-1]}; registered with {given[0][0]}, the first (check the file)",
            severity="warning"))

    def find(self, p: FilePlayer, start: dt.date,
             pool: RatingPool = STANDARD) -> PlayerRow | None:
        """The ledger player for ``p`` (a ``PlayerRow``: the players are matched as plain rows,
        ``PlayerIndex.load_rows``) (``PlayerIndex.match``: FIDE id, then name and birth
        year); registered from the file when allowed, with the file's rating in ``pool`` (the
        rating pool of ``p``'s game) in force from the period of ``start``. None (with an error
        recorded) otherwise."""
        return self._found(p, start, pool, self.asked(p))

    def _found(self, p: FilePlayer, start: dt.date, pool: RatingPool,
               asked: tuple[str, int | None, int | None]) -> PlayerRow | None:
        """``find``, ``p``'s question (``asked``) given."""
        done = self.done.get(id(p))
        if done is not None or id(p) in self.done:
            return done
        quiet = self.quiet.get(asked)
        if quiet is not None:
            return quiet
        before = len(self.problems)
        found = self._find(p, start, pool, asked)
        if found is not None and len(self.problems) == before and not self.register_unknown:
            self.quiet[asked] = found
            self.matches.pop(asked, None)  # answered from ``quiet`` from now on
        self.done[id(p)] = found
        return found

    def asked(self, p: FilePlayer) -> tuple[str, int | None, int | None]:
        """The question ``find`` asks of ``p``: (name, FIDE id when ids are used, birth
        year), the key of ``quiet`` and ``quiet_who``."""
        return (p.name, p.fide_id if self.use_ids else None, p.birth_year)

    def who(self, p: FilePlayer, start: dt.date, pool: RatingPool = STANDARD) -> Who | None:
        """``find`` as the import's checks and writing read a player: a ``Who`` (ledger id and
        name, read once per player), or None. A question answered with no problem while nobody
        is registered (``quiet``) is answered from ``quiet_who`` from then on: one match per
        distinct name, birth year and FIDE id of the file (the question moves from ``quiet`` to
        ``quiet_who``: one entry per question, whatever the file's size)."""
        asked = self.asked(p)
        known = self.quiet_who.get(asked)
        if known is not None:
            return known
        player = self._found(p, start, pool, asked)
        if player is None:
            return None
        who = self.whos.get(player.id)
        if self.quiet.get(asked) is player:
            del self.quiet[asked]
            who = self.quiet_who[asked] = who or Who.of(player)
        elif who is None:
            who = self.whos[player.id] = Who.of(player)
        return who

    def _find(self, p: FilePlayer, start: dt.date, pool: RatingPool,
              asked: tuple[str, int | None, int | None]) -> PlayerRow | None:
        fide_id = asked[1]
        found = self.matches.get(asked) if not self.register_unknown else None
        if found is None:
            found = self.index.match(p.name, fide_id, p.birth_year)
            if not self.register_unknown:
                self.matches[asked] = found
        if found.error is not None:
            key = "fide_id" if "FIDE id" in found.error and fide_id else "name"
            self._error(p, key, found.error)
            return None
        if found.player is not None:
            if found.note is not None:
                line, where = p.where("name")
                self.problems.append(Problem(self.file, line, where, found.note,
                                             severity="warning"))
            if fide_id is not None and found.player not in self.index.named(p.name):
                line, where = p.where("fide_id")
                self.problems.append(Problem(
                    self.file, line, where, f"FIDE id {fide_id} is {found.player.name} "
                    f"(#{found.player.id}) in the ledger; the file says {p.name!r}: check the id",
                    severity="warning"))
            if found.player.id not in self.matched:
                self.matched.add(found.player.id)
                self.players_matched += 1
            return found.player
        similar, in_all = self.index.similar(p.name)
        misspelt = not similar
        if misspelt:  # the closeness rule of "did you mean" in ``ledger game add``
            similar, in_all = self.index.close(p.name)
            if self.register_unknown:  # a warning only for a misspelling, word for word, as
                # ``player add`` refuses one (not Kuenitz, Klaus beside Klundt, Klaus)
                key = name_key(p.name)
                similar = [q for q in similar if misspelt_word(key, name_key(q.name))]
                in_all = len(similar)
        cure = "correct the name in the file" if misspelt else f"write {self._full_name} in the file"
        if not self.register_unknown:
            unknown = f"unknown player {p.name!r}" + (f" (FIDE id {fide_id})" if fide_id else "")
            self._error(p, "name", f"{unknown}: did you mean {may_mean(similar, in_all)}? "
                        + ("If so, " + cure if not misspelt else cure) if similar else
                        f"{unknown}: register them with `ledger player add` or import with "
                        "--register-players")
            return None
        rating, rating_at = self._file_rating(p, pool)
        try:
            registered = register(self.session, NewPlayer(
                name=p.name, fide_id=fide_id, birth_year=p.birth_year, sex=p.sex,
                federation=p.federation, title=p.title, rating=rating,
                prior_games=registered_prior_games(rating)),
                source=f"import {self.file}"[:200], effective_from=Period.of(start),
                namesake=self.index.next_namesake(name_key(p.name.strip())), pool=pool)
        except LedgerError as exc:
            key = invalid_field(exc)
            self._error(p, key, str(exc), rating_at if key == "rating" else None)
            return None
        player = PlayerRow.of(registered)  # matched as a row from now on, as the others
        self._two_ratings(p, player.name, pool)
        floor = below_floor_note(rating, Period.of(start))
        if floor is not None:
            line, where = rating_at
            self.problems.append(Problem(self.file, line, where,
                                                floor.removeprefix("rating: "), severity="warning"))
        if similar:
            line, where = p.where("name")
            self.problems.append(Problem(
                self.file, line, where, f"{p.name!r} registered as a new player, though the "
                f"ledger has {may_mean(similar, in_all)}; if it is the same player, {cure}",
                severity="warning"))
        self.registered.append(p.name)
        (self.registered_unrated if rating is None else self.registered_established).append(p.name)
        self.index.add(player)
        self.matched.add(player.id)
        return player

    @property
    def _full_name(self) -> str:
        return "the full name or the FIDE id" if self.use_ids else "the full name"

    def _error(self, p: FilePlayer, key: str, message: str, at: Where | None = None) -> None:
        line, where = at or p.where(key)
        self.problems.append(Problem(self.file, line, where, message))


