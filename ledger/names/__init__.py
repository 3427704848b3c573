"""The one matching key of a name (players and events); the hints of "did you mean" are in
``ledger.names.hints``.

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

import re
import unicodedata
from functools import cache

from ledger.confusables import skeleton

#: Letters NFKD does not decompose, as ASCII (applied after case folding).
_UNDECOMPOSED = str.maketrans({"ø": "o", "ł": "l", "đ": "d", "ð": "d", "ħ": "h", "ŧ": "t",
                               "ı": "i", "æ": "ae", "œ": "oe", "þ": "th"})
#: Marks that join the parts of one word: dropped.
_JOINERS = str.maketrans("", "", "'’‘`´ʼʻ·")
#: Anything but a letter, a digit or a comma (``\w`` holds ``_``: named apart) is a blank.
_BLANK = re.compile(r"[^\w,]|_")
#: An ASCII text that is its own key: words of lowercase letters and digits, one blank
#: between two, parts joined by ", " (most names of a club's list: ``name_key`` takes 0.5 us
#: for one, not 2.8).
_OWN_KEY = re.compile(r"[a-z0-9]+(?: [a-z0-9]+)*(?:, [a-z0-9]+(?: [a-z0-9]+)*)*")


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
        if _OWN_KEY.fullmatch(text) is not None:
            return text  # steps 4 and 5 leave such a text as it is
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
