"""Matching a player named in a file (TRF, CSV, PGN, FIDE rating list) to a ledger player.

The order is the one issue 3 sets: by FIDE id, then by name and birth year. An ambiguous match is
an error that lists the candidates, never a guess.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.db.models import Player


@dataclass(frozen=True)
class Match:
    """The outcome of one lookup: ``player`` when found; ``error`` (a message naming the
    candidates or the conflicting FIDE id) when the file's player cannot be matched safely.
    Both None: nobody in the ledger is this player (unknown: register them or report it).
    ``candidates``: the players an ambiguous match could be (empty for any other error)."""

    player: Player | None = None
    error: str | None = None
    candidates: tuple[Player, ...] = ()


def _name_key(name: str) -> str:
    """Names compare ignoring case beyond ASCII (``ÅBERG`` = ``Åberg``) and runs of blanks."""
    return " ".join(name.split()).casefold()


_WORD = re.compile(r"\w+")


def _words(name: str) -> tuple[str, ...]:
    """A name's words, case folded, punctuation dropped: ``Doyle, Liam`` -> ``doyle liam``."""
    return tuple(_WORD.findall(name.casefold()))


@dataclass
class PlayerIndex:
    """Every ledger player, loaded once (one query), by FIDE id and by name.

    ``add`` keeps the index current when an import registers a player inside its transaction.
    """

    by_fide: dict[int, Player] = field(default_factory=dict)
    by_name: dict[str, list[Player]] = field(default_factory=lambda: defaultdict(list))
    #: For ``similar`` only, built on its first call: players by word, and (words joined, id)
    #: sorted, for names starting with a given text.
    _by_word: dict[str, list[Player]] | None = field(default=None, repr=False)
    _starts: list[tuple[str, int]] = field(default_factory=list, repr=False)
    _by_id: dict[int, Player] = field(default_factory=dict, repr=False)

    @classmethod
    def load(cls, session: Session) -> PlayerIndex:
        """Index every player of the ledger (one SELECT)."""
        index = cls()
        for player in session.scalars(select(Player).order_by(Player.id)):
            index.add(player)
        return index

    def add(self, player: Player) -> None:
        """Index a player (just registered, or loaded)."""
        if player.fide_id is not None:
            self.by_fide[player.fide_id] = player
        self.by_name[_name_key(player.name)].append(player)
        if self._by_word is not None:
            self._index_words(self._by_word, player)
            bisect.insort(self._starts, (" ".join(_words(player.name)), player.id))

    def _index_words(self, by_word: dict[str, list[Player]], player: Player) -> None:
        for word in set(_words(player.name)):
            by_word.setdefault(word, []).append(player)
        self._by_id[player.id] = player

    def similar(self, name: str, limit: int = 3) -> tuple[list[Player], int]:
        """Players a file's ``name`` may be short for: ledger players (other than its exact
        namesakes) whose name holds every word of ``name`` (``Doyle`` or ``Liam Doyle`` ->
        ``Doyle, Liam``) or starts with it (``Doyle, L`` -> ``Doyle, Liam``), ignoring case and
        punctuation. Returns the first ``limit`` by id, and how many there are in all. A hint for
        messages only: ``match`` never uses it.
        """
        if self._by_word is None:
            self._by_word = {}
            for namesakes in self.by_name.values():
                for player in namesakes:
                    self._index_words(self._by_word, player)
            self._starts = sorted((" ".join(_words(p.name)), p.id) for p in self._by_id.values())
        words = _words(name)
        if not words:
            return [], 0
        found: dict[int, Player] = {}
        holders = min((self._by_word.get(w, []) for w in set(words)), key=len)
        for player in holders:
            if set(words) <= set(_words(player.name)):
                found[player.id] = player
        text = " ".join(words)
        at = bisect.bisect_left(self._starts, (text, -1))
        while at < len(self._starts) and self._starts[at][0].startswith(text):
            found[self._starts[at][1]] = self._by_id[self._starts[at][1]]
            at += 1
        key = _name_key(name)
        others = sorted((p for p in found.values() if _name_key(p.name) != key),
                        key=lambda p: p.id)
        return others[:limit], len(others)

    def match(self, name: str, fide_id: int | None = None, birth_year: int | None = None) -> Match:
        """The ledger player for a file's ``name`` (str), ``fide_id`` and ``birth_year`` (int or None).

        1. A FIDE id the ledger knows decides.
        2. Otherwise players with the same name (ignoring case) are candidates; when the file
           gives a birth year, a candidate with another known birth year is not this player, and
           a candidate with another FIDE id is not this player either.
        3. One candidate left: that player. Several: ``error`` lists them (id, FIDE id, birth
           year). None: unknown (``Match()``), except that a same-name player with another FIDE
           id is reported as an ``error``, since a file rarely means a namesake.
        """
        if fide_id is not None and fide_id in self.by_fide:
            return Match(self.by_fide[fide_id])
        namesakes = self.by_name.get(_name_key(name), [])
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


def _listed(players: list[Player]) -> str:
    return "; ".join(f"#{p.id} (FIDE {p.fide_id or '-'}, born {p.birth_year or '?'})" for p in players)
