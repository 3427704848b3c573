"""The one matching key of a name (players and events), and the hints of "did you mean".

Pure (no database): the services store ``name_key(name)`` beside every player's and event's name
(``players.name_key``, ``events.name_key``) and compare keys, never names, so SQLite (whose
``lower()`` knows ASCII only) and PostgreSQL (whatever its collation) match, sort and refuse
alike.

The rule, in order:

1. Unicode NFKD, and every combining mark dropped: ``Seán`` -> ``Sean``, ``Å`` -> ``A``,
   ``ﬁ`` -> ``fi``, ``²`` -> ``2``.
2. Case folded (``str.casefold``): ``ÅBERG`` = ``Åberg``; ``ß`` -> ``ss`` (``Strauß`` =
   ``Strauss``).
3. The Latin letters NFKD leaves whole are written as FIDE's lists (ASCII) write them:
   ``ø`` -> ``o``, ``ł`` -> ``l``, ``đ`` and ``ð`` -> ``d``, ``ħ`` -> ``h``, ``ŧ`` -> ``t``,
   ``ı`` -> ``i``, ``æ`` -> ``ae``, ``œ`` -> ``oe``, ``þ`` -> ``th`` (``Søren Høeg`` = ``Soren
   Hoeg``). Nothing else is guessed: ``Müller`` is ``muller``, not ``mueller``.
4. Punctuation: an apostrophe (``'``, ``’``, ``‘``, ``ʼ``, ``ʻ``, a backtick or an acute accent
   ``´``) or a middle dot (``·``) joins the parts of one word and is dropped (``O'Brien`` =
   ``O’Brien`` = ``OBrien``); a comma is kept, as the one mark that says where the surname
   ends (``Surname, Name``), with blanks around it made ``", "``; any other character that is
   neither a letter nor a digit (hyphen, dot, bracket, underscore ...) is a blank
   (``Jean-Pierre`` = ``Jean Pierre``, ``J.Smith`` = ``J Smith``).
5. Runs of blanks are one blank; blanks at either end, and empty parts between commas, go.

So ``"  Ó Briain ,Seán "`` and ``"o briain, sean"`` have the key ``o briain, sean``.

Word order (``Kevin O'Brien`` = ``O'Brien, Kevin``) is not in the key: a key has one order, and
``other_orders`` gives the keys the same name has written the other way, for lookups that allow
it when that is unambiguous. Nor is the comma, where a name has none: ``O'Brien Kevin`` (as
tournament files write names) is ``O'Brien, Kevin`` too (``comma_forms``); ``same_name_keys``
gives both kinds.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterable
from difflib import SequenceMatcher
from functools import cache
from typing import Generic, TypeVar

from ledger.confusables import skeleton

#: Letters NFKD does not decompose, as ASCII (applied after case folding).
_UNDECOMPOSED = str.maketrans({"ø": "o", "ł": "l", "đ": "d", "ð": "d", "ħ": "h", "ŧ": "t",
                               "ı": "i", "æ": "ae", "œ": "oe", "þ": "th"})
#: Marks that join the parts of one word: dropped.
_JOINERS = str.maketrans("", "", "'’‘`´ʼʻ·")
#: Anything but a letter, a digit or a comma (``\w`` holds ``_``: named apart) is a blank.
_BLANK = re.compile(r"[^\w,]|_")


def _without_marks(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def name_key(name: str) -> str:
    """The matching key of a player's or an event's ``name`` (str): see the module's rule.

    >>> name_key("Ó Briain,  Seán")
    'o briain, sean'
    >>> name_key("ÅBERG, Nils") == name_key("Aberg, nils")
    True
    >>> name_key("Østersund-Open")
    'ostersund open'

    Never raises; a name without letters or digits has the empty key.
    """
    if name.isascii():
        text = name.casefold()
    else:
        text = _without_marks(_without_marks(name).casefold().translate(_UNDECOMPOSED))
    text = _BLANK.sub(" ", text.translate(_JOINERS))
    return ", ".join(part for part in (" ".join(p.split()) for p in text.split(",")) if part)


def name_words(name: str) -> tuple[str, ...]:
    """The words of ``name``'s key, commas dropped: ``O'Brien, Kevin`` -> ``('obrien', 'kevin')``."""
    return tuple(name_key(name).replace(",", " ").split())


def other_orders(key: str) -> tuple[str, ...]:
    """The keys of the same name written in the other word order, for a ``key`` (from
    ``name_key``): ``obrien, kevin`` -> ``('kevin obrien',)``; a key without a comma can split
    into surname and names after any word: ``jan de vries`` -> ``('de vries, jan', 'vries, jan
    de')``. A key of one word, or with more than one comma, has none. Symmetric: ``a`` is in
    ``other_orders(b)`` exactly when ``b`` is in ``other_orders(a)``."""
    parts = key.split(", ")
    if len(parts) == 2:
        return (f"{parts[1]} {parts[0]}",)
    if len(parts) > 2:
        return ()
    words = key.split()
    return tuple(f"{' '.join(words[i:])}, {' '.join(words[:i])}" for i in range(1, len(words)))


def comma_forms(key: str) -> tuple[str, ...]:
    """The keys of the same name with its comma optional, for a ``key`` (from ``name_key``): a
    key without a comma is also the same words, in the same order, with a comma after any word
    but the last (``obrien kevin`` -> ``('obrien, kevin',)``; ``garcia lopez ana`` ->
    ``('garcia, lopez ana', 'garcia lopez, ana')``), as tournament files write ``Surname Name``;
    a key with one comma is also its words without it (``obrien, kevin`` -> ``('obrien
    kevin',)``). A key of one word, or with more than one comma, has none. Symmetric, as
    ``other_orders``."""
    parts = key.split(", ")
    if len(parts) == 2:
        return (" ".join(parts),)
    if len(parts) > 2:
        return ()
    words = key.split()
    return tuple(f"{' '.join(words[:i])}, {' '.join(words[i:])}" for i in range(1, len(words)))


def same_name_keys(key: str) -> tuple[str, ...]:
    """The other keys a ``key`` (from ``name_key``) matches as the same name: its
    ``comma_forms`` and ``other_orders``, without repeats and without ``key`` itself
    (``obrien kevin`` -> ``('obrien, kevin', 'kevin, obrien')``). Every lookup of a name by its
    key (``ledger player add``'s namesakes, the commands' players, the imports) tries these
    after the key itself. Symmetric: ``a`` is in ``same_name_keys(b)`` exactly when ``b`` is in
    ``same_name_keys(a)``."""
    return tuple(k for k in dict.fromkeys((*comma_forms(key), *other_orders(key))) if k != key)


#: The letter pairs German (and FIDE's ASCII lists) write for an umlaut: folded to the vowel in
#: ``loose_form``, in this order (the services' SQL replays the same steps: keep them in step).
LOOSE_PAIRS = (("ae", "a"), ("oe", "o"), ("ue", "u"))


def loose_form(key: str) -> str:
    """A looser form of a ``name_key`` (str), for hints only (never a match): blanks and commas
    dropped, then ``ae``, ``oe``, ``ue`` folded to ``a``, ``o``, ``u`` (``LOOSE_PAIRS``), so
    that spellings a key keeps apart come together: ``O Briain, Sean`` and ``O'Briain, Sean``
    (``obriainsean``), ``Müller, Jürgen`` and ``Mueller, Juergen`` (``mullerjurgen``).

    >>> loose_form(name_key("Ó Briain, Seán")) == loose_form(name_key("O'Briain, Sean"))
    True
    >>> loose_form("mueller, juergen")
    'mullerjurgen'
    """
    text = key.replace(",", "").replace(" ", "")
    for pair, vowel in LOOSE_PAIRS:
        text = text.replace(pair, vowel)
    return text


def skeleton_key(name: str) -> str:
    """The key of ``name`` as it prints: ``name_key`` of its UTS #39 skeleton
    (``ledger.confusables.skeleton``), so that look-alike letters come together: Cyrillic
    ``Аberg`` and Latin ``Aberg`` are ``aberg``; ``Kim`` and ``Kirn`` are ``kirn``. For
    hints and the look-alike refusal only, never a match."""
    return name_key(skeleton(name))


def loose_forms(name: str) -> tuple[str, ...]:
    """The ``loose_form`` of ``name``'s key and of its ``skeleton_key`` (look-alike letters), each
    in its own word order and in the others (``other_orders``), without repeats: two names look
    alike when they share one (and differ in key): ``O'Briain, Sean`` and ``Ó Briain, Seán``,
    ``Mueller`` and ``Müller``, Cyrillic ``Аberg`` and ``Aberg``."""
    keys = dict.fromkeys((name_key(name), skeleton_key(name)))
    return tuple(dict.fromkeys(loose_form(k) for key in keys for k in (key, *other_orders(key)) if k))


@cache
def _fold_table() -> dict[int, str]:
    """The key characters (ASCII letters and digits) whose look-alike is another key spelling,
    to that spelling, from Unicode's data: ``i`` -> ``l`` (capital ``I``), ``m`` -> ``rn``,
    ``0`` -> ``o``, ``1`` -> ``l``."""
    return {ord(c): v for c in "abcdefghijklmnopqrstuvwxyz0123456789"
            for v in {skeleton_key(c), skeleton_key(c.upper())} - {c, ""}}


@cache
def unfolded(char: str) -> bool:
    """Whether the character ``char`` (str of one) may give a name a look-alike that
    ``fold_key`` of its key misses: its key and skeleton key fold apart (Cyrillic ``а``; ``|``,
    which prints as ``l`` and is a blank in a key; not ``é``, nor ``m`` or ``I``)."""
    return fold_key(name_key(f"x{char}x")) != fold_key(skeleton_key(f"x{char}x"))


def fold_key(key: str) -> str:
    """A ``name_key`` with look-alike ASCII spellings made one (``_fold_table``), then its
    ``loose_form``: ``kim, ivan`` -> ``kirnlvan``. A superset test (names that look alike fold
    alike), for finding candidates in SQL (``replace``) and in memory before ``loose_forms``
    decides."""
    return loose_form(key.translate(_fold_table()))


def lookalike_folds(name: str, key: str | None = None, *, orders: bool = True) -> frozenset[str]:
    """Every ``fold_key`` of ``name`` (str; ``key``: its ``name_key``, when known) in every word
    order (``orders`` False: its own only): of its key, and of its ``skeleton_key`` too when the
    folding of the key may not give it (a character ``unfolded`` says so). Names that share a
    ``loose_forms`` share one of these (a superset test: ``loose_forms`` decides)."""
    keys = [name_key(name) if key is None else key]
    if any(map(unfolded, set(name))):
        keys.append(skeleton_key(name))
    return frozenset(fold_key(k) for each in keys
                     for k in ((each, *other_orders(each)) if orders else (each,)) if k)


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
