"""The hints of "did you mean" for a name that matches nothing (players and events): close
spellings (``close_matches``, ``closeness``), numbers apart (``numbers_apart``) and the index of
names a hint looks in (``NameHints``). Pure (no database); the keys are ``ledger.names``'.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from difflib import SequenceMatcher
from typing import Generic, TypeVar

from ledger.names import lookalike_folds, loose_form, loose_forms, name_key, name_words, same_name_keys

#: How alike two spellings must be for a close-match hint: difflib's ratio (twice the characters
#: they share, in order, over all their characters): ``obrian`` and ``obrien`` are 0.83 alike,
#: ``doyle`` and ``boyle`` 0.8, ``kelly`` and ``walsh`` 0.
CLOSE = 0.8


def word_starts(name: str) -> tuple[str, ...]:
    """What the words of a close spelling of ``name`` (``closeness``) start with, since a typo
    is seldom at the start of a word, which bounds the names a hint looks at: the first letter
    of each word of ``name``'s key, for a name of several words (``O'Brian, Kevin`` -> ``('o',
    'k')``); the first two letters, for a name of one word (``Mueler`` -> ``('mu',)``); no
    repeats."""
    words = name_words(name)
    return tuple(dict.fromkeys(w[:1] if len(words) > 1 else w[:2] for w in words))


def _ratio(a: str, b: str) -> float:
    """difflib's ratio of ``a`` and ``b``, or 0.0 when its upper bounds (lengths, then letters)
    say it is below ``CLOSE``."""
    if a == b:
        return 1.0
    if 2 * min(len(a), len(b)) < CLOSE * (len(a) + len(b)):
        return 0.0
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    if matcher.quick_ratio() < CLOSE:
        return 0.0
    return matcher.ratio()


def word_ratio(a: str, b: str) -> float:
    """How alike two words are (difflib's ratio), 0.0 when below ``CLOSE``."""
    return _ratio(a, b)


class _Spelling:
    """A spelling as ``closeness`` compares it: its words, their rotations (every word order)
    and ``word_starts``, computed once for many keys."""

    def __init__(self, name: str) -> None:
        self.words = name_words(name)
        self.rotations = [" ".join((*self.words[i:], *self.words[:i]))
                          for i in range(len(self.words))]
        self.starts = word_starts(name)

    def closeness(self, key: str) -> float:
        theirs = key.replace(",", " ").split()
        if not self.words or not all(any(w.startswith(s) for w in theirs) for s in self.starts):
            return 0.0
        text = " ".join(theirs)
        best = max(_ratio(rotation, text) for rotation in self.rotations)
        if len(self.words) < len(theirs):
            left, total = list(theirs), 0.0
            for word in self.words:
                score, at = max((_ratio(word, other), i) for i, other in enumerate(left))
                if score < CLOSE:
                    break
                total += score
                del left[at]
            else:
                best = max(best, total / len(self.words))
        return best if best >= CLOSE else 0.0


def closeness(name: str, key: str) -> float:
    """How close the spelling ``name`` (str, as typed) is to a name whose ``name_key`` is
    ``key``: a ratio from ``CLOSE`` to 1, or 0.0 when it is not close enough for a hint. Case,
    accents, punctuation and commas aside, and only when the words of ``key`` start as those of
    ``name`` do (``word_starts``):

    - the whole name, in any word order (``other_orders``): ``O'Brian, Kevin`` or ``Kevn
      O'Brien`` and ``O'Brien, Kevin``; ``Östersund Opne`` and ``Östersund Open``;
    - or a part of it, word by word: each word of ``name`` as close as ``CLOSE`` to a word of its
      own in ``key`` (``Osterstund`` and ``Östersund Open``; ``Mueler`` and ``Müller, Jürgen``).

    >>> round(closeness("O'Brian, Kevin", "obrien, kevin"), 2)
    0.92
    >>> closeness("Kelly, Ann", "obrien, kevin")
    0.0
    """
    return _Spelling(name).closeness(key)


def numbers_apart(key: str, other: str) -> bool:
    """Whether two ``name_key``s differ and differ only in their numbers (digits dropped, blanks
    made one): ``spring open 2026`` and ``spring open 2027``, ``5th open`` and ``6th open``,
    ``spring open`` and ``spring open 2026``: different events, never a misspelling."""
    return key != other and _numberless(key) == _numberless(other)


def _numberless(key: str) -> str:
    return " ".join(re.sub(r"[0-9]+", " ", key).replace(",", " ").split())


def close_matches(name: str, keys: Iterable[tuple[int, str]],
                  limit: int = 3) -> tuple[list[int], int]:
    """The ids of the ``keys`` ((int id, str ``name_key``) pairs) a misspelt ``name`` (str) may
    stand for (``closeness``), the closest first, then by id: the first ``limit`` (int), and how
    many there are in all. Its very key, and the keys that are the same name
    (``same_name_keys``), are matches, not hints: left out."""
    key = name_key(name)
    same = {key, *same_name_keys(key)}
    spelling = _Spelling(name)
    scored = sorted((-score, item_id) for item_id, other in keys if other not in same
                    and (score := spelling.closeness(other)))
    return [item_id for _, item_id in scored[:limit]], len(scored)


def did_you_mean(labels: Iterable[str], in_all: int, noun: str) -> str:
    """``labels`` (each an item as a message names it) joined by ``or``, and how many ``noun``
    there are in all when more than those: ``A or B (4 players in all)``."""
    shown = list(labels)
    return " or ".join(shown) + (f" ({in_all} {noun} in all)" if in_all > len(shown) else "")


T = TypeVar("T")


class NameHints(Generic[T]):
    """Items (players, events) by the words of their names, for "did you mean": ``similar``
    finds the names a short or partial name may stand for, ``close`` those a misspelt one may,
    ``suggest`` the first of the two that finds any. A hint for messages only, never a match.
    ``add`` takes an item with its id (which orders the hints) and name."""

    def __init__(self, items: Iterable[tuple[int, str, T]] = ()) -> None:
        """Index ``items``, each (int id, str name, the item), sorting once."""
        self._by_word: dict[str, list[int]] = {}
        self._by_loose_word: dict[str, list[int]] = {}
        #: The first letter, and the first two, of a word (``word_starts``) -> the names with
        #: such a word.
        self._by_start: dict[str, list[int]] = {}
        #: (loose form, id), sorted: the names whose loose form starts with a given text.
        self._loose_starts: list[tuple[str, int]] = []
        #: (words joined by a blank, id), sorted: the names starting with a given text.
        self._starts: list[tuple[str, int]] = []
        self._items: dict[int, tuple[str, T]] = {}
        #: ``lookalike_folds`` -> the names with it; each name, to decide by ``loose_forms``.
        self._by_fold: dict[str, list[int]] = {}
        self._names: dict[int, str] = {}
        for item_id, name, item in items:
            self._starts.append(self._index(item_id, name, item))
            self._loose_starts.append((loose_form(self._items[item_id][0]), item_id))
        self._starts.sort()
        self._loose_starts.sort()

    def _index(self, item_id: int, name: str, item: T) -> tuple[str, int]:
        key = name_key(name)
        words = key.replace(",", " ").split()
        for word in set(words):
            self._by_word.setdefault(word, []).append(item_id)
        for word in {loose_form(w) for w in words}:
            self._by_loose_word.setdefault(word, []).append(item_id)
        for start in {w[:n] for w in words for n in (1, 2)}:
            self._by_start.setdefault(start, []).append(item_id)
        for fold in lookalike_folds(name, key):
            self._by_fold.setdefault(fold, []).append(item_id)
        self._items[item_id], self._names[item_id] = (key, item), name
        return " ".join(words), item_id

    def add(self, item_id: int, name: str, item: T) -> None:
        """Index one more ``item`` (int id, str name)."""
        bisect.insort(self._starts, self._index(item_id, name, item))
        bisect.insort(self._loose_starts, (loose_form(self._items[item_id][0]), item_id))

    def similar(self, name: str, limit: int = 3) -> tuple[list[T], int]:
        """Items (other than those with ``name``'s very key) whose name holds every word of
        ``name`` (``Doyle`` or ``Liam Doyle`` -> ``Doyle, Liam``; loosely too: ``Mueller`` ->
        ``Müller, Jürgen``), starts with it (``Doyle, L`` -> ``Doyle, Liam``), or has a ``loose_form``
        starting with one of ``name``'s, in any word order (``O'Briain, Sean`` ->
        ``Ó Briain, Seán``; ``Mueller, Juergen`` -> ``Müller, Jürgen``), or looks like it
        (``loose_forms``: Cyrillic ``Аberg`` -> ``Aberg``), by the key's words (case,
        accents and punctuation ignored). Returns the first ``limit`` (int) by id, and how many
        there are in all."""
        words = name_words(name)
        if not words:
            return [], 0
        wanted = set(words)
        holders = min((self._by_word.get(w, []) for w in wanted), key=len)
        found = {i for i in holders if wanted <= set(self._items[i][0].replace(",", " ").split())}
        for form in loose_forms(name):
            at = bisect.bisect_left(self._loose_starts, (form, -1))
            while at < len(self._loose_starts) and self._loose_starts[at][0].startswith(form):
                found.add(self._loose_starts[at][1])
                at += 1
        loose = {loose_form(w) for w in wanted}
        holders = min((self._by_loose_word.get(w, []) for w in loose), key=len)
        found.update(i for i in holders if loose <= {loose_form(w) for w in
                                                     self._items[i][0].replace(",", " ").split()})
        forms = set(loose_forms(name))  # look-alike letters (skeleton_key) too
        found.update(i for fold in lookalike_folds(name) for i in self._by_fold.get(fold, ())
                     if not forms.isdisjoint(loose_forms(self._names[i])))
        text = " ".join(words)
        at = bisect.bisect_left(self._starts, (text, -1))
        while at < len(self._starts) and self._starts[at][0].startswith(text):
            found.add(self._starts[at][1])
            at += 1
        key = name_key(name)
        others = sorted(i for i in found if self._items[i][0] != key)
        return [self._items[i][1] for i in others[:limit]], len(others)

    def close(self, name: str, limit: int = 3) -> tuple[list[T], int]:
        """Items whose name a misspelt ``name`` may stand for (``close_matches``: the whole name
        or a part of it, each word as close as ``CLOSE``: ``O'Brian, Kevin`` -> ``O'Brien,
        Kevin``), looking only at the names with a word starting as each of ``name``'s does
        (``word_starts``). Returns the first ``limit`` (int), the closest first, and how many
        there are in all."""
        starts = word_starts(name)
        if not starts:
            return [], 0
        holders = sorted((self._by_start.get(s, []) for s in starts), key=len)
        ids = set(holders[0]).intersection(*holders[1:])
        found, in_all = close_matches(name, ((i, self._items[i][0]) for i in sorted(ids)), limit)
        return [self._items[i][1] for i in found], in_all

    def suggest(self, name: str, limit: int = 3) -> tuple[list[T], int]:
        """The hints for ``name``: ``similar`` (a part of a name), else ``close`` (a
        misspelling). Returns the first ``limit`` (int) and how many there are in all."""
        found = self.similar(name, limit)
        return found if found[0] else self.close(name, limit)
