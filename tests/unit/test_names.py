"""The one matching key of a name (ledger.names): accents, case, blanks, punctuation, the letters
NFKD leaves whole; the other word order; the "did you mean" hints. Expected keys written by hand."""

from __future__ import annotations

import pytest

from ledger.names import (
    NameHints,
    did_you_mean,
    loose_form,
    loose_forms,
    name_key,
    name_words,
    other_orders,
)


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


def test_names_that_are_the_same_and_those_that_are_not() -> None:
    assert name_key("Sean") == name_key("Seán") == name_key("SEÁN")
    assert name_key("Ostersund Open") == name_key("Östersund Open")
    assert name_key("Hansen, Soren") == name_key("Hansen, Søren")
    # the comma says where the surname ends: with and without it, not the same key
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
