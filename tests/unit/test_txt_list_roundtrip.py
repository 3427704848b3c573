"""The ledger's TXT rating list (``rating_list_txt``) read by the FIDE-list reader
(``fide_list``): every field comes back; a blank ID Number is a player without a FIDE id, a
malformed one stays an error."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.domain import KReason, Period
from ledger.formats import rating_list_txt
from ledger.formats.fide_list import read_fide_list
from ledger.formats.rating_list import ListHeading
from ledger.services.publishing.lists import ListRow

HEADING = ListHeading(Period(2025, 11), dt.date(2025, 12, 1))


def listed(name: str, fide_id: int | None = None, birth_year: int | None = None) -> ListRow:
    """A row of the list ``ledger list`` writes: rated 1500, no game, K 20."""
    return ListRow(rank=1, player_id=1, name=name, fide_id=fide_id, federation=None, title=None,
                   rating=1500, games=0, k=20, k_reason=KReason.STANDARD, birth_year=birth_year)


def read(*players: ListRow) -> tuple[list[tuple[object, ...]], list[str]]:
    """Write ``players`` as TXT and read them back: (FIDE id, name, birth year) per player read,
    and the problems as ``line: field: message``."""
    text = rating_list_txt.write(HEADING, players)
    readout = read_fide_list(text.encode(), "club.txt")
    return ([(p.fide_id, p.name, p.birth_year) for p in readout.players],
            [f"{p.line}: {p.field}: {p.message}" for p in readout.problems])


def test_blank_id_number_is_a_player_without_fide_id() -> None:
    assert read(listed("Plain, Pat", birth_year=2010), listed("Alpha, Ann", 4100010)) == (
        [(None, "Plain, Pat", 2010), (4100010, "Alpha, Ann", None)], [])


def test_malformed_id_number_stays_an_error() -> None:
    header = rating_list_txt.header(HEADING)
    line = rating_list_txt.row(listed("Plain, Pat", 4100010))
    text = "\n".join([header, "41000A0" + line[7:], "0      " + line[7:]]) + "\n"
    readout = read_fide_list(text.encode(), "club.txt")
    assert readout.players == []
    assert [(p.line, p.field, p.message) for p in readout.problems] == [
        (2, "ID (column 1)", "'41000A0' is not a FIDE id"),
        (3, "ID (column 1)", "0 is not a FIDE id")]


def test_players_without_fide_id_are_told_apart_by_name_and_birth_year() -> None:
    # Another birth year, or another name: different players. The same name with a birth year
    # missing on either line: the list cannot tell them apart (the second line is an error).
    players, problems = read(listed("Smith, John", birth_year=1980),
                             listed("Smith, John", birth_year=1981),
                             listed("Smith, Jane", birth_year=1980),
                             listed("SMITH, JOHN"),
                             listed("Smith, John", 4100010, 1980))
    assert players == [(None, "Smith, John", 1980), (None, "Smith, John", 1981),
                       (None, "Smith, Jane", 1980), (4100010, "Smith, John", 1980)]
    assert problems == ["5: ID (column 1): no FIDE id, and SMITH, JOHN (born ?) on line 2 "
                        "(born 1980) has none either: the two cannot be told apart"]


# Names as the ledger keeps them ("Surname, Given names", single blanks), with accents; at most
# 60 characters, the TXT Name column's width less one blank.
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZÀÉÍÑÖØÅÆßçéèëïôöüÿłŁšŠžŽőĞİ'-"
_WORD = st.text(_LETTERS, min_size=1, max_size=12).filter(lambda w: any(c.isalpha() for c in w))
_NAME = st.builds(lambda surname, given: f"{' '.join(surname)}, {' '.join(given)}",
                  st.lists(_WORD, min_size=1, max_size=2), st.lists(_WORD, min_size=1, max_size=2))
_TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")


@st.composite
def rating_lists(draw: st.DrawFn) -> list[ListRow]:
    """Up to 20 players with distinct names; FIDE ids distinct where present."""
    names = draw(st.lists(_NAME, min_size=1, max_size=20, unique_by=str.casefold))
    players = []
    for i, name in enumerate(names, start=1):
        players.append(ListRow(
            rank=i, player_id=i, k_reason=KReason.STANDARD,
            fide_id=draw(st.none() | st.just(4_100_000 + 7 * i) | st.just(99_000_000_000 // 10 + i)),
            name=name,
            federation=draw(st.none() | st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=3, max_size=3)),
            sex=draw(st.sampled_from([None, "M", "F"])),
            title=draw(st.none() | st.sampled_from(_TITLES)),
            rating=draw(st.integers(1000, 3000)),
            games=draw(st.integers(0, 999)),
            k=draw(st.sampled_from([10, 20, 40])),
            birth_year=draw(st.none() | st.integers(1900, 2020)),
            inactive=draw(st.booleans())))
    return players


@settings(max_examples=150, deadline=None)
@given(rating_lists())
def test_every_field_written_reads_back(players: list[ListRow]) -> None:
    text = rating_list_txt.write(HEADING, players)
    readout = read_fide_list(text.encode(), "club.txt")
    assert readout.problems == []
    assert (readout.layout, readout.rating_column, readout.list_month) == (
        "TXT single list", "dec25", (2025, 12))
    got = [(p.fide_id, p.name, p.federation, p.sex, p.title, p.w_title, p.o_title, p.rating,
            p.games, p.k, p.birth_year, p.flag) for p in readout.players]
    # WTit repeats a women's title; Flag is w (woman) then i (inactive), blank for neither.
    assert got == [(p.fide_id, p.name, p.federation, p.sex, p.title,
                    p.title if p.title is not None and p.title.startswith("W") else None, None,
                    p.rating, p.games, p.k, p.birth_year,
                    ("w" if p.sex == "F" else "") + ("i" if p.inactive else "") or None)
                   for p in players]
