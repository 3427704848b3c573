"""The one matching key of a name (ledger.names): accents, case, blanks, punctuation, the letters
NFKD leaves whole; the other word order; the "did you mean" hints. Expected keys written by hand."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from ledger.names import (
    comma_forms,
    loose_form,
    loose_forms,
    name_key,
    name_words,
    other_orders,
    same_name_keys,
)
from ledger.names.hints import NameHints, close_matches, closeness, did_you_mean, word_starts


@pytest.mark.parametrize(("name", "key"), [
    # accents: NFKD, combining marks dropped
    ("Seán", "sean"),
    ("Ó Briain, Seán", "o briain, sean"),
    ("Östersund Open", "ostersund open"),
    ("Åberg, Nils", "aberg, nils"),
    ("Dvořák, Zdeněk", "dvorak, zdenek"),
    ("İnci", "inci"),                      # dotted capital I: I + combining dot
    # case: full Unicode case folding, not ASCII lower()
    ("ÅBERG, NILS", "aberg, nils"),
    ("Strauß", "strauss"),                 # ß folds to ss
    ("STRAUSS", "strauss"),
    # letters NFKD leaves whole, written as FIDE's ASCII lists write them
    ("Søren Høeg", "soren hoeg"),
    ("ØSTERGAARD", "ostergaard"),
    ("Łukasz Wójcik", "lukasz wojcik"),
    ("Đorđević", "dordevic"),              # đ -> d (no guess at "dj")
    ("Işık", "isik"),                      # dotless ı -> i
    ("Ærø", "aero"),
    ("Cœur", "coeur"),
    ("Þór Guðmundsson", "thor gudmundsson"),
    # compatibility forms
    ("ﬁsher", "fisher"),
    ("Ｋａｒｌ", "karl"),                   # full-width letters
    # blanks: runs are one, none at either end, ", " around a comma
    ("  Smith ,John  ", "smith, john"),
    ("Smith,John", "smith, john"),
    ("Smith\t  John", "smith john"),
    # punctuation: apostrophes join, other marks are blanks, commas kept, empty parts dropped
    ("O'Brien, Kevin", "obrien, kevin"),
    ("O’Brien, Kevin", "obrien, kevin"),   # typographic apostrophe
    ("OBrien, Kevin", "obrien, kevin"),
    ("Jean-Pierre", "jean pierre"),
    ("J.Smith", "j smith"),
    ("Smith (junior)", "smith junior"),
    ("Col·legi", "collegi"),
    ("Smith,, John,", "smith, john"),
    ("under_score", "under score"),
    # nothing else is guessed: no German transliteration
    ("Müller", "muller"),
    ("Mueller", "mueller"),
    ("", ""),
    ("?!", ""),
])
def test_name_key(name: str, key: str) -> None:
    assert name_key(name) == key


@pytest.mark.parametrize(("name", "key"), [
    # ASCII names already in a key's form (but for case) are their own key
    ("Lindqvist, Erik", "lindqvist, erik"), ("fed0000012, player", "fed0000012, player"),
    ("A B C, D E", "a b c, d e"), ("x1, y2, z3", "x1, y2, z3"), ("Solo", "solo"),
    # and the ones not quite in it go the whole way
    ("Lindqvist,Erik", "lindqvist, erik"), ("Lindqvist , Erik", "lindqvist, erik"),
    ("Lindqvist,  Erik", "lindqvist, erik"), (" Lindqvist, Erik", "lindqvist, erik"),
    ("Lindqvist, Erik ", "lindqvist, erik"), ("Lindqvist, , Erik", "lindqvist, erik"),
    ("Lindqvist,", "lindqvist"), (", Erik", "erik"), ("a_b", "a b"), ("a\tb", "a b"),
    ("O'Brien, Kevin", "obrien, kevin"), ("", ""), (",", ""), (" ", ""),
])
def test_the_ascii_keys(name: str, key: str) -> None:
    assert name_key(name) == key


def _key_by_the_rule(name: str) -> str:
    """The key of an ASCII ``name`` by the module's rule, steps 2, 4 and 5, written apart."""
    text = re.sub(r"[^a-z0-9,]", " ", name.casefold().replace("'", "").replace("`", ""))
    return ", ".join(" ".join(part.split()) for part in text.split(",") if part.split())


def test_every_short_ascii_name_has_the_key_of_the_rule() -> None:
    # every text of up to 5 of these characters, and 20,000 longer ones
    alphabet = "aZ9 ,'_-"
    names = ["".join(t) for n in range(6) for t in itertools.product(alphabet, repeat=n)]
    chance = random.Random(25)
    names += ["".join(chance.choices(alphabet + "bq.", k=chance.randint(6, 24)))
              for _ in range(20000)]
    assert [name for name in names if name_key(name) != _key_by_the_rule(name)] == []


def test_names_that_are_the_same_and_those_that_are_not() -> None:
    assert name_key("Sean") == name_key("Seán") == name_key("SEÁN")
    assert name_key("Ostersund Open") == name_key("Östersund Open")
    assert name_key("Hansen, Soren") == name_key("Hansen, Søren")
    # the comma says where the surname ends: with and without it, not the same key (the same
    # name all the same: same_name_keys)
    assert name_key("Smith, John") != name_key("Smith John")
    assert name_key("Müller") != name_key("Mueller")


def test_name_words() -> None:
    assert name_words("O'Brien, Kevin") == ("obrien", "kevin")
    assert name_words("Doyle, L.") == ("doyle", "l")
    assert name_words(" , ") == ()


@pytest.mark.parametrize(("key", "orders"), [
    ("obrien, kevin", ("kevin obrien",)),
    ("kevin obrien", ("obrien, kevin",)),
    ("de vries, jan willem", ("jan willem de vries",)),
    ("jan willem de vries", ("willem de vries, jan", "de vries, jan willem",
                             "vries, jan willem de")),
    ("doyle", ()),
    ("a, b, c", ()),
    ("", ()),
])
def test_other_orders(key: str, orders: tuple[str, ...]) -> None:
    assert other_orders(key) == orders


def test_other_orders_go_both_ways() -> None:
    for key in ("obrien, kevin", "de vries, jan willem", "jan willem de vries"):
        for other in other_orders(key):
            assert key in other_orders(other)


@pytest.mark.parametrize(("key", "forms"), [
    ("obrien kevin", ("obrien, kevin",)),
    ("obrien, kevin", ("obrien kevin",)),
    ("garcia lopez ana", ("garcia, lopez ana", "garcia lopez, ana")),
    ("argandona riveiro inigo", ("argandona, riveiro inigo", "argandona riveiro, inigo")),
    ("doyle", ()),
    ("a, b, c", ()),
    ("", ()),
])
def test_comma_forms(key: str, forms: tuple[str, ...]) -> None:
    # a comma is optional where a name has none: the same words in the same order
    assert comma_forms(key) == forms


def test_same_name_keys_are_the_comma_forms_then_the_other_orders() -> None:
    assert same_name_keys("obrien kevin") == ("obrien, kevin", "kevin, obrien")
    assert same_name_keys("obrien, kevin") == ("obrien kevin", "kevin obrien")
    assert same_name_keys(name_key("Mirzoev Azer")) == ("mirzoev, azer", "azer, mirzoev")
    assert name_key("Mirzoev, Azer") in same_name_keys(name_key("Mirzoev Azer"))
    # "Kevin, O'Brien" (the given name written as the surname) is not O'Brien, Kevin
    assert "kevin, obrien" not in same_name_keys("obrien, kevin")
    assert same_name_keys("doyle") == ()


def test_same_name_keys_go_both_ways() -> None:
    for key in ("obrien, kevin", "obrien kevin", "de vries, jan willem", "jan willem de vries",
                "garcia lopez ana", "a a"):
        assert key not in same_name_keys(key)
        for other in same_name_keys(key):
            assert key in same_name_keys(other), (key, other)


def test_did_you_mean() -> None:
    assert did_you_mean(["A (#1)"], 1, "players") == "A (#1)"
    assert did_you_mean(["A (#1)", "B (#2)"], 2, "players") == "A (#1) or B (#2)"
    assert did_you_mean(["A (#1)", "B (#2)"], 5, "events") == "A (#1) or B (#2) (5 events in all)"


def test_name_hints() -> None:
    hints = NameHints([(3, "Doyle, Liam", "liam"), (1, "Ó Briain, Seán", "sean"),
                       (2, "Östersund Open", "open")])
    assert hints.similar("doyle") == (["liam"], 1)
    assert hints.similar("Liam Doyle") == (["liam"], 1)        # every word, any order
    assert hints.similar("Doyle, L") == (["liam"], 1)          # the start of the name
    assert hints.similar("Briain") == (["sean"], 1)
    assert hints.similar("ostersund") == (["open"], 1)         # accents aside
    assert hints.similar("Doyle, Liam") == ([], 0)             # its own key: not a hint
    assert hints.similar("oyle") == ([], 0)                    # inside a word: no
    assert hints.similar("...") == ([], 0)
    hints.add(0, "Doyle, Sean", "sean doyle")
    assert hints.similar("Doyle") == (["sean doyle", "liam"], 2)  # by id
    assert hints.similar("Doyle", limit=1) == (["sean doyle"], 2)


def test_loose_form_drops_blanks_and_commas_and_folds_umlauts_written_out() -> None:
    assert loose_form(name_key("Ó Briain, Seán")) == "obriainsean"
    assert loose_form(name_key("O'Briain, Sean")) == "obriainsean"
    assert loose_form(name_key("Müller, Jürgen")) == "mullerjurgen"
    assert loose_form(name_key("Mueller, Juergen")) == "mullerjurgen"
    assert loose_form(name_key("Goethe, Johann")) == "gothejohann"
    assert loose_forms("Sean O'Briain") == ("seanobriain", "obriainsean")


def test_hints_find_loose_spellings() -> None:
    hints = NameHints([(1, "Ó Briain, Seán", "a"), (2, "Müller, Jürgen", "b"),
                       (3, "Mullen, Jo", "c")])
    assert hints.similar("O'Briain, Sean") == (["a"], 1)
    assert hints.similar("Mueller") == (["b"], 1)
    assert hints.similar("juergen mueller") == (["b"], 1)
    assert hints.similar("o'briain") == (["a"], 1)
    assert hints.similar("Smith") == ([], 0)


@pytest.mark.parametrize(("name", "key", "close"), [
    ("O'Brian, Kevin", "obrien, kevin", 0.92),         # a typo
    ("Kevn O'Brien", "obrien, kevin", 0.96),           # a letter lost, the other word order
    ("Walsh, Tom", "welsh, tom", 0.89),                # the second letter of a word
    ("Mueler", "muller, jurgen", 0.83),                # a part, misspelt
    ("Osterstund", "ostersund open", 0.95),
    ("Östersund Opne", "ostersund open", 0.93),
    ("Club Leage 2026-27", "club league 2026 27", 0.97),
    ("Kelly, Ann", "obrien, kevin", 0.0),              # nothing alike
    ("Doyle", "boyle, sean", 0.0),                     # a lone word's first two letters differ
    ("Obrien", "oberon, kevin", 0.0),                  # 0.77: not close enough
    ("", "obrien, kevin", 0.0),
])
def test_closeness(name: str, key: str, close: float) -> None:
    assert round(closeness(name, key), 2) == close


def test_word_starts_bound_the_names_a_hint_looks_at() -> None:
    assert word_starts("O'Brian, Kevin") == ("o", "k")
    assert word_starts("Mueler") == ("mu",)
    assert word_starts("Anna Anders") == ("a",)
    assert word_starts("...") == ()


def test_close_matches_are_the_closest_first_and_never_the_same_name() -> None:
    keys = [(1, "obrien, kevin"), (2, "obrian, kevin"), (3, "kelly, ann"), (4, "obrian kevin"),
            (5, "o brien, kevin"), (6, "obrien, kevins")]
    # 2 is the name's own key, 4 its comma form: matches, not hints
    assert close_matches("O'Brian, Kevin", keys) == ([1, 5, 6], 3)  # a tie: by id
    assert close_matches("O'Brian, Kevin", keys, limit=1) == ([1], 3)
    assert close_matches("Nobody", keys) == ([], 0)


def test_name_hints_suggest_a_part_of_a_name_else_a_close_spelling() -> None:
    hints = NameHints([(1, "O'Brien, Kevin", "kevin"), (2, "Östersund Open", "open"),
                       (3, "Müller, Jürgen", "jurgen"), (4, "Obrien, Kevina", "kevina")])
    assert hints.close("O'Brian, Kevin") == (["kevin", "kevina"], 2)
    assert hints.suggest("O'Brian, Kevin") == (["kevin", "kevina"], 2)
    assert hints.suggest("Osterstund") == (["open"], 1)
    assert hints.suggest("Mueler") == (["jurgen"], 1)
    # a part of a name is hinted first, without the close spellings
    assert hints.suggest("Kevin") == (["kevin"], 1)
    assert hints.similar("O'Brian, Kevin") == ([], 0)
    assert hints.suggest("Zzz") == ([], 0)
    hints.add(5, "O'Brian, Kevin", "brian")
    assert hints.close("O'Brian, Kevin") == (["kevin", "kevina"], 2)  # its own key is no hint
