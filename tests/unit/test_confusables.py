"""Look-alike letters (issue 22 §5): the UTS #39 skeleton from Unicode's confusables.txt
(``ledger.confusables``), and the names' look-alike rule built on it (``ledger.names``:
``skeleton_key``, ``loose_forms``, ``lookalike_folds``). The expected values are the file's own
lines, quoted beside each case."""

from __future__ import annotations

import unicodedata

import pytest

from ledger.confusables import prototypes, skeleton
from ledger.names import fold_key, lookalike_folds, loose_forms, name_key, skeleton_key
from ledger.names.hints import NameHints


def test_the_data_is_unicodes_file() -> None:
    table = prototypes()
    assert len(table) == 6311  # the data lines of confusables.txt 13.0.0
    assert table[0x0430] == "a"  # 0430 ;	0061 ;	MA	# ( а → a ) CYRILLIC SMALL LETTER A
    assert table[0x0412] == "B"  # 0412 ;	0042 ;	MA	# ( В → B ) CYRILLIC CAPITAL LETTER VE
    assert table[ord("m")] == "rn"  # 006D ;	0072 006E ;	MA	# ( m → rn )
    assert table[ord("I")] == "l"  # 0049 ;	006C ;	MA	# ( I → l )


@pytest.mark.parametrize(("text", "expected"), [
    ("\u0410berg", "Aberg"),  # Cyrillic capital A
    ("\u0430berg", "aberg"),  # Cyrillic small a
    ("\u0412rown", "Brown"),  # Cyrillic capital VE
    ("Kim", "Kirn"),
    ("Ivan", "lvan"),
    ("S\u00e9an", "Se\u0301an"),  # NFD: é is e + the combining acute, which is a prototype
])
def test_skeleton(text: str, expected: str) -> None:
    assert skeleton(text) == expected
    assert skeleton(expected) == expected  # a skeleton is its own skeleton


def test_a_look_alike_name_shares_a_loose_form_and_not_its_key() -> None:
    latin, cyrillic = "Aberg, Anna", "\u0410berg, \u0410nna"
    assert name_key(latin) != name_key(cyrillic)
    assert skeleton_key(cyrillic) == skeleton_key(latin) == "aberg, anna"
    assert "aberganna" in loose_forms(cyrillic)
    assert not lookalike_folds(latin).isdisjoint(lookalike_folds(cyrillic))


@pytest.mark.parametrize(("a", "b"), [
    ("Kim, Anna", "Kirn, Anna"),
    ("Ivanov, Ivan", "\u0406vanov, \u0406van"),  # Cyrillic capital Byelorussian-Ukrainian I
    ("Ivanov, Ivan", "lvanov, lvan"),  # small L for capital I
    ("Popov, Oleg", "\u0420\u043e\u0440\u043ev, Oleg"),  # Cyrillic Р, о, р, о
    ("Ivanov, Ivan", "Ivan Ivanov"),  # word order: the same name, found by loose_forms too
])
def test_names_that_print_alike(a: str, b: str) -> None:
    assert not set(loose_forms(a)).isdisjoint(loose_forms(b))
    assert not lookalike_folds(a).isdisjoint(lookalike_folds(b))


@pytest.mark.parametrize(("a", "b"), [
    ("Ivanov, Ivan", "ivanov, ivan"),  # only case: one key, not a look-alike
    ("Villa, Juan", "Vilia, Juan"),
    ("Ilic, Ana", "ilic, Ana"),
    ("\u0432rown", "Brown"),  # Cyrillic small ve prints as a small capital, not as b
])
def test_names_that_do_not_print_alike(a: str, b: str) -> None:
    if name_key(a) == name_key(b):
        return
    assert set(loose_forms(a)).isdisjoint(loose_forms(b))


def test_every_fold_of_a_look_alike_is_found() -> None:
    # the superset test: two names sharing a loose form share a fold, for every single letter
    # of the file that prints as an ASCII letter
    for code, target in prototypes().items():
        char = chr(code)
        if len(target) != 1 or not target.isascii() or not target.isalpha():
            continue
        if not unicodedata.category(char).startswith("L"):
            continue
        a, b = f"Ab{target}c, Dora", f"Ab{char}c, Dora"
        if not set(loose_forms(a)).isdisjoint(loose_forms(b)):
            assert not lookalike_folds(a).isdisjoint(lookalike_folds(b)), (hex(code), a, b)


def test_fold_key_makes_look_alike_ascii_spellings_one() -> None:
    assert fold_key("kim, ivan") == "klrnlvan"
    assert fold_key("j0hn 1ee") == "johnlee"


def test_did_you_mean_names_the_player_a_look_alike_stands_for() -> None:
    hints = NameHints([(1, "Aberg, Anna", "A"), (2, "Berg, Anders", "B")])
    assert hints.suggest("\u0410berg, Anna") == (["A"], 1)
    assert hints.suggest("Kirn, Anna") == ([], 0)
