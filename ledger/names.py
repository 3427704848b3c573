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
it when that is unambiguous.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterable
from typing import Generic, TypeVar

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


def loose_forms(name: str) -> tuple[str, ...]:
    """The ``loose_form`` of ``name``'s key in its own word order and in the others
    (``other_orders``), without repeats: what a stored loose form is compared with."""
    key = name_key(name)
    return tuple(dict.fromkeys(loose_form(k) for k in (key, *other_orders(key)) if k))


def did_you_mean(labels: Iterable[str], in_all: int, noun: str) -> str:
    """``labels`` (each an item as a message names it) joined by ``or``, and how many ``noun``
    there are in all when more than those: ``A or B (4 players in all)``."""
    shown = list(labels)
    return " or ".join(shown) + (f" ({in_all} {noun} in all)" if in_all > len(shown) else "")


T = TypeVar("T")


class NameHints(Generic[T]):
    """Items (players, events) by the words of their names, for "did you mean": ``similar``
    finds the names a short or partial name may stand for. A hint for messages only, never a
    match. ``add`` takes an item with its id (which orders the hints) and name."""

    def __init__(self, items: Iterable[tuple[int, str, T]] = ()) -> None:
        """Index ``items``, each (int id, str name, the item), sorting once."""
        self._by_word: dict[str, list[int]] = {}
        self._by_loose_word: dict[str, list[int]] = {}
        #: (loose form, id), sorted: the names whose loose form starts with a given text.
        self._loose_starts: list[tuple[str, int]] = []
        #: (words joined by a blank, id), sorted: the names starting with a given text.
        self._starts: list[tuple[str, int]] = []
        self._items: dict[int, tuple[str, T]] = {}
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
        self._items[item_id] = (key, item)
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
        ``Ó Briain, Seán``; ``Mueller, Juergen`` -> ``Müller, Jürgen``), by the key's words (case,
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
        text = " ".join(words)
        at = bisect.bisect_left(self._starts, (text, -1))
        while at < len(self._starts) and self._starts[at][0].startswith(text):
            found.add(self._starts[at][1])
            at += 1
        key = name_key(name)
        others = sorted(i for i in found if self._items[i][0] != key)
        return [self._items[i][1] for i in others[:limit]], len(others)
