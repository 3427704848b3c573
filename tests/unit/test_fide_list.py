"""The FIDE rating list reader: TXT lists of every era (columns from the header), the XML list,
encodings, malformed lines with line and column, and random bytes that never crash it.

Expected values are read by hand from the files in tests/data and examples/data (the line quoted
in a comment) or from the small combined lists written by hand below.
"""

from __future__ import annotations

import pytest
from data_files import data_file
from fide_list_samples import (
    BAD_RATING,
    COMBINED_FOA,
    COMBINED_NO_FOA,
    FILLS,
    NO_FOA_HEADER,
    NOWHERE,
    RUN_ON,
    TOUCHING,
    WOMAN,
    WOMAN_M,
    combined_with,
    txt_list,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.formats.fide_list import ListPlayer, read_fide_list, read_fide_list_file

MAY13_HEADER = ("ID Number      Name                                                         Fed Sex "
                "Tit  WTit OTit           may13 Gms K  B-day Flag")
# fide_blitz_list_may13_subset.txt line 2, unchanged.
ABBES_MAY13 = ("5500222        Abbes, Ali                                                   TUN M   "
               "CM        FI             2075  8   20 1973      ")


def _list(month: str) -> list[ListPlayer]:
    readout = read_fide_list_file(str(data_file(f"fide_blitz_list_{month}_subset.txt")), "blitz")
    assert readout.problems == []
    assert readout.layout == "TXT single list"
    return readout.players


def _by_id(players: list[ListPlayer]) -> dict[int, ListPlayer]:
    return {p.fide_id: p for p in players}


def test_blitz_lists_2013_have_1506_players_with_ratings_as_printed() -> None:
    apr, may = _by_id(_list("apr13")), _by_id(_list("may13"))
    assert len(apr) == len(may) == 1506
    # apr13 line 2: "5500222  Abbes, Ali ... TUN M             FI             2128  0   20 1973      "
    a = apr[5500222]
    assert (a.name, a.federation, a.sex, a.title, a.o_title) == ("Abbes, Ali", "TUN", "M", None, "FI")
    assert (a.rating, a.games, a.k, a.birth_year, a.flag, a.line) == (2128, 0, 20, 1973, None, 2)
    # may13 line 2: "5500222  Abbes, Ali ... TUN M   CM        FI             2075  8   20 1973      "
    a = may[5500222]
    assert (a.title, a.rating, a.games, a.k, a.birth_year) == ("CM", 2075, 8, 20, 1973)
    # apr13 line 18: "13708660  Agmanov, Begman ... KAZ M                            2237  0   20 0000  i   "
    g = apr[13708660]
    assert (g.rating, g.games, g.k, g.birth_year, g.flag, g.line) == (2237, 0, 20, None, "i", 18)
    # may13 line 46: "7600950  Algildah, Nibal ... SYR F   WIM  WIM                 1872  5   20 1987  w   "
    n = may[7600950]
    assert (n.sex, n.title, n.w_title, n.rating, n.games, n.k, n.birth_year, n.flag, n.line) == (
        "F", "WIM", "WIM", 1872, 5, 20, 1987, "w", 46)
    # may13 line 86: "400270  Arkell, Keith C ... ENG M   GM                       2492  10  20 1961      "
    k = may[400270]
    assert (k.name, k.title, k.rating, k.games, k.k, k.birth_year) == (
        "Arkell, Keith C", "GM", 2492, 10, 20, 1961)


def test_single_list_header_names_the_month() -> None:
    readout = read_fide_list_file(str(data_file("fide_blitz_list_may13_subset.txt")), "blitz")
    assert (readout.rating_column, readout.list_month, readout.lines) == ("may13", (2013, 5), 1507)


def test_older_header_spellings() -> None:
    # Written by hand in the style of the lists before 2012 (upper-case names, TITL, GAMES, BORN);
    # the columns still come from where each header token starts.
    text = ("ID_NUMBER NAME                              TITL FED  JUL09 GAMES  BORN  FLAG\n"
            "400270    Arkell, Keith C                   g    ENG  2520  11     1961  i\n")
    readout = read_fide_list(text.encode(), "jul09.txt")
    assert readout.problems == []
    assert (readout.rating_column, readout.list_month) == ("JUL09", (2009, 7))
    [p] = readout.players
    assert (p.fide_id, p.name, p.title, p.federation, p.rating, p.games, p.k, p.birth_year,
            p.flag) == (400270, "Arkell, Keith C", "GM", "ENG", 2520, 11, None, 1961, "i")


def test_short_woman_titles_of_old_lists_are_expanded() -> None:
    # apr13: "2915235  Antova, Gabriela ... BUL F   WF   WF                  1688  0   20 2002  w   "
    p = _by_id(_list("apr13"))[2915235]
    assert (p.title, p.w_title) == ("WFM", "WFM")


@pytest.mark.parametrize("text, layout", [(COMBINED_FOA, "TXT combined list with FOA"),
                                          (COMBINED_NO_FOA, "TXT combined list")])
def test_combined_lists_read_the_pool_columns_from_the_header(text: str, layout: str) -> None:
    standard = read_fide_list(text.encode(), "list.txt", pool="standard")
    rapid = read_fide_list(text.encode(), "list.txt", pool="rapid")
    blitz = read_fide_list(text.encode(), "list.txt", pool="blitz")
    assert standard.problems == rapid.problems == blitz.problems == []
    assert standard.layout == layout
    s, r, b = (_by_id(x.players) for x in (standard, rapid, blitz))
    # Carlsen: SRtng 2831 SGm 9 SK 10 | RRtng 2827 RGm 0 Rk 20 | BRtng 2886 BGm 21 BK 20 | 1990
    assert (s[1503014].rating, s[1503014].games, s[1503014].k) == (2831, 9, 10)
    assert (r[1503014].rating, r[1503014].games, r[1503014].k) == (2827, 0, 20)
    assert (b[1503014].rating, b[1503014].games, b[1503014].k) == (2886, 21, 20)
    assert s[1503014].birth_year == 1990 and s[1503014].flag is None
    # Ju Wenjun: GM, WGM, flag w; rapid 2487 with 11 games
    ju = r[13708694]
    assert (ju.title, ju.w_title, ju.rating, ju.games, ju.k, ju.flag) == ("GM", "WGM", 2487, 11, 20, "w")
    # Online, Olga: blank standard and blitz (unrated), rapid 1610 7 40, FOA title on the new list
    assert s[35093487].rating is None and b[35093487].rating is None
    assert (r[35093487].rating, r[35093487].games, r[35093487].k) == (1610, 7, 40)
    assert r[35093487].foa_title == ("AIM" if "FOA" in text else None)
    # Flag "wi" is the standard list's: the rapid pool keeps the w (a woman), not the i
    assert (r[35093487].birth_year, r[35093487].flag, s[35093487].flag) == (2009, "w", "wi")


def test_xml_list_sample() -> None:
    readout = read_fide_list_file(str(data_file("fide_players_list_sample.xml")))
    assert readout.problems == [] and readout.layout == "XML combined list"
    players = _by_id(readout.players)
    assert len(players) == 11
    # <fideid>10207538</fideid> <name>A E M, Doshtagir</name> <country>BAN</country> ... <rating>1864
    # </rating> <games>0</games> <k>30</k> <rapid_rating></rapid_rating> ... <birthday></birthday>
    # <flag>i</flag>, the player element starting on line 22
    d = players[10207538]
    assert (d.name, d.federation, d.sex, d.title, d.rating, d.games, d.k) == (
        "A E M, Doshtagir", "BAN", "M", None, 1864, 0, 30)
    assert (d.birth_year, d.flag, d.line) == (None, "i", 22)
    # <name> Orr  ,  Mark  J  L</name> ... <title>IM</title> <rating>2240</rating> <k>15</k>
    # <birthday>1955</birthday>: the name is tidied
    o = players[2500035]
    assert (o.name, o.title, o.rating, o.k, o.birth_year) == ("Orr, Mark J L", "IM", 2240, 15, 1955)
    # Carlsen: <rating>2843</rating> <games>10</games> <k>10</k> <blitz_rating>2856</blitz_rating>
    blitz = _by_id(read_fide_list_file(str(data_file("fide_players_list_sample.xml")),
                                       "blitz").players)
    assert (players[1503014].rating, players[1503014].games) == (2843, 10)
    assert (blitz[1503014].rating, blitz[1503014].games, blitz[1503014].k) == (2856, 0, 20)
    # <rapid_rating></rapid_rating>: an empty element is unrated
    assert blitz[10207538].rating is None and blitz[10207538].k is None


def test_an_other_titles_value_longer_than_its_column_is_read_with_a_warning() -> None:
    text = combined_with(RUN_ON).encode()
    standard = read_fide_list(text, "list.txt", pool="standard")
    rapid = read_fide_list(text, "list.txt", pool="rapid")
    [warning] = standard.problems
    assert (warning.line, warning.field, warning.severity) == (3, "OTit (column 95)", "warning")
    assert warning.message == (
        "'IA,FA,IO,FST,DI,NA' (18 characters) is longer than the OTit column (15): it runs 3 "
        "characters into FOA, at column 110; the rest of the line is read 3 characters to the right")
    assert rapid.problems == standard.problems
    # fide_list_samples.RUN_ON: SRtng 1845 SGm 4 SK 20 | RRtng 1790 RGm 0 Rk 20 | 1968 wi
    s, r = _by_id(standard.players), _by_id(rapid.players)
    rita = s[45000012]
    assert (rita.name, rita.federation, rita.sex, rita.o_title, rita.foa_title, rita.line) == (
        "Referee, Rita", "IRL", "F", "IA,FA,IO,FST,DI,NA", None, 3)
    assert (rita.rating, rita.games, rita.k, rita.birth_year, rita.flag) == (1845, 4, 20, 1968, "wi")
    assert (r[45000012].rating, r[45000012].games, r[45000012].k) == (1790, 0, 20)
    # the cells after the overrun are named where they are on the line
    assert (rita.where("rating"), rita.where("birth_year")) == ("SRtng (column 117)",
                                                                "B-day (column 156)")
    # the other lines as in COMBINED_FOA: Carlsen 2831 9 10, Ju 2560 0 10, Olga unrated
    assert [(p.line, p.fide_id, p.rating, p.games, p.k, p.birth_year) for p in standard.players] == [
        (2, 1503014, 2831, 9, 10, 1990), (3, 45000012, 1845, 4, 20, 1968),
        (4, 13708694, 2560, 0, 10, 1991), (5, 35093487, None, None, None, 2009)]
    assert (r[13708694].rating, r[13708694].games, r[35093487].rating) == (2487, 11, 1610)


def test_a_value_that_fills_its_column_or_touches_the_next_is_split_where_the_rest_lines_up(
) -> None:
    # FILLS: OTit's 15 characters fill it, FOA AFM touches them: nothing moved, no warning
    readout = read_fide_list(combined_with(FILLS).encode(), "list.txt", pool="blitz")
    assert readout.problems == []
    ugo = _by_id(readout.players)[45000020]
    assert (ugo.o_title, ugo.foa_title, ugo.rating, ugo.games, ugo.k, ugo.birth_year) == (
        "IA,IO,FST,DI,NA", "AFM", 1987, 3, 20, 1979)
    # TOUCHING, on the list without FOA: 16 characters, the rating 1946 touching them
    readout = read_fide_list(txt_list(TOUCHING, header=NO_FOA_HEADER).encode(), "old.txt")
    [warning] = readout.problems
    assert (warning.line, warning.field, warning.severity) == (2, "OTit (column 95)", "warning")
    assert warning.message == (
        "'LSI,FI,SI,SLI,NA' (16 characters) is longer than the OTit column (15): it runs 1 "
        "character into SRtng, at column 110, touching the SRtng value; the rest of the line is "
        "read 1 character to the right")
    [luis] = readout.players
    assert (luis.o_title, luis.rating, luis.games, luis.k, luis.birth_year) == (
        "LSI,FI,SI,SLI,NA", 1946, 0, 20, 1960)


@pytest.mark.parametrize("line, field, message", [
    # BAD_RATING: after the shift, SRtng (column 117) says 18x5
    (BAD_RATING, "SRtng (column 117)", "'18x5' is not a rating"),
    # NOWHERE: the rest is 4 to the right, the run-on 3 long
    (NOWHERE, "OTit (column 95)", "'IA,FA,IO,FST,DI,NA' runs 3 characters into FOA, at column "
     "110, and the rest of the line lines up at no shift of 0 to 3 to the right: the line cannot "
     "be read"),
])
def test_a_line_that_does_not_line_up_after_a_long_value_is_an_error(
        line: str, field: str, message: str) -> None:
    readout = read_fide_list(combined_with(line).encode(), "list.txt")
    errors = [p for p in readout.problems if p.severity == "error"]
    assert [(p.line, p.field, p.message) for p in errors] == [(3, field, message)]
    assert [p.line for p in readout.players] == [2, 4, 5]


def test_a_combined_lists_flag_i_is_the_standard_lists() -> None:
    # COMBINED_FOA: Ju Wenjun "... 1991  w   ", Online, Olga "... 2009  wi  "
    for pool, ju, olga in (("standard", "w", "wi"), ("rapid", "w", "w"), ("blitz", "w", "w")):
        players = _by_id(read_fide_list(COMBINED_FOA.encode(), "list.txt", pool=pool).players)
        assert (players[13708694].flag, players[35093487].flag) == (ju, olga), pool
    # XML: <flag>i</flag> (A E M, Doshtagir, line 22), <flag>wi</flag> (A La, Teng Hua, line 62)
    xml = str(data_file("fide_players_list_sample.xml"))
    for pool, doshtagir, teng_hua in (("standard", "i", "wi"), ("rapid", None, "w"),
                                      ("blitz", None, "w")):
        players = _by_id(read_fide_list_file(xml, pool).players)
        assert (players[10207538].flag, players[8605360].flag) == (doshtagir, teng_hua), pool
    # A single list's flag is its own pool's: apr13 line 18 "13708660 Agmanov ... 0000  i   "
    assert _by_id(_list("apr13"))[13708660].flag == "i"


def test_the_flag_w_gives_the_sex_where_the_sex_column_is_blank() -> None:
    readout = read_fide_list(txt_list(WOMAN, WOMAN_M).encode(), "list.txt")
    bea, max_ = readout.players
    assert (bea.sex, bea.flag, bea.rating, max_.sex, max_.flag) == ("F", "w", 1702, "M", "w")
    [warning] = readout.problems
    assert (warning.line, warning.field, warning.severity) == (3, "Flag (column 159)", "warning")
    assert warning.message == "flag 'w' says a woman, Sex says M: sex M kept"


def _problems(text: str) -> list[tuple[int | None, str, str]]:
    readout = read_fide_list(text.encode(), "bad.txt", pool="blitz")
    return [(p.line, p.field, p.severity) for p in readout.problems]


def test_rating_zero_is_unrated() -> None:
    zero = ABBES_MAY13.replace("2075", "0   ")
    [player] = read_fide_list(f"{MAY13_HEADER}\n{zero}\n".encode(), "zero.txt").players
    assert (player.rating, player.games, player.k) == (None, 8, 20)


def test_non_numeric_rating_is_refused_with_line_and_column() -> None:
    bad = ABBES_MAY13.replace("2075", "20x5")
    readout = read_fide_list(f"{MAY13_HEADER}\n{bad}\n".encode(), "bad.txt", pool="blitz")
    assert readout.players == []
    [problem] = readout.problems
    # may13 starts at 0-based offset 109, so column 110
    assert (problem.line, problem.field, problem.severity) == (2, "may13 (column 110)", "error")
    assert "'20x5' is not a rating" in problem.message


def test_short_line_is_refused_with_line_and_column() -> None:
    cut = ABBES_MAY13[:40]
    assert _problems(f"{MAY13_HEADER}\n{ABBES_MAY13}\n{cut}\n") == [(3, "Fed (column 77)", "error")]


def test_missing_header_is_refused() -> None:
    readout = read_fide_list(f"{ABBES_MAY13}\n".encode(), "bad.txt")
    [problem] = readout.problems
    assert (problem.line, problem.field, problem.severity) == (1, "header", "error")
    assert "no header line" in problem.message and readout.players == []


def test_shifted_columns_are_refused() -> None:
    shifted = "  " + ABBES_MAY13  # every value two characters to the right
    # "TUN" moves from columns 77-79 to 79-81, across the start of the Sex column (81)
    assert _problems(f"{MAY13_HEADER}\n{shifted}\n") == [(2, "Sex (column 81)", "error")]


def test_not_utf8_is_read_as_cp1252_with_a_warning() -> None:
    line = ABBES_MAY13.replace("Abbes, Ali", "Abb\xe9s, Al\xee")  # same width
    readout = read_fide_list(f"{MAY13_HEADER}\r\n{line}\r\n".encode("cp1252"), "latin.txt")
    assert [p.name for p in readout.players] == ["Abbés, Alî"]
    [warning] = readout.problems
    assert (warning.line, warning.field, warning.severity) == (2, "encoding", "warning")
    assert "CP1252" in warning.message


def test_bytes_cp1252_does_not_define_are_read_as_latin1() -> None:
    data = f"{MAY13_HEADER}\n{ABBES_MAY13}\n".encode().replace(b"Abbes", b"Abb\x81s")
    readout = read_fide_list(data, "odd.txt")
    assert [p.name for p in readout.players] == ["Abb\x81s, Ali"]
    [warning] = readout.problems
    assert (warning.line, warning.severity) == (2, "warning") and "Latin-1" in warning.message


def test_xml_entity_expansion_is_refused() -> None:
    bomb = (b'<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">'
            b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
            b"<playerslist><player><fideid>1</fideid><name>&b;</name></player></playerslist>")
    readout = read_fide_list(bomb, "bomb.xml")
    assert readout.players == [] and [p.severity for p in readout.problems] == ["error"]


def test_xml_not_well_formed_gives_line_and_column() -> None:
    readout = read_fide_list(b"<playerslist>\n<player>\n<fideid>1</name>\n", "bad.xml")
    [problem] = readout.problems
    assert problem.line == 3 and problem.field.startswith("XML (column")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=3000))
def test_random_bytes_never_crash_the_txt_reader(data: bytes) -> None:
    readout = read_fide_list(MAY13_HEADER.encode() + b"\n" + data, "random.txt")
    assert all(p.file == "random.txt" and (p.line is None or 1 <= p.line <= readout.lines)
               for p in readout.problems)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=" 0123456789abcdefMFx,-.\t\x00é", max_size=170), max_size=8))
def test_every_random_line_gives_a_player_or_an_error(lines: list[str]) -> None:
    readout = read_fide_list("\n".join([MAY13_HEADER, *lines]).encode(), "random.txt")
    errors = {p.line for p in readout.problems if p.severity == "error"}
    players = {p.line for p in readout.players}
    assert players.isdisjoint(errors)
    assert players | errors == {n for n, line in enumerate(lines, start=2) if line.strip()}


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_never_crash_the_xml_reader(data: bytes) -> None:
    readout = read_fide_list(b"<playerslist><player><fideid>" + data, "random.xml")
    assert all(p.file == "random.xml" and (p.line is None or 1 <= p.line <= readout.lines)
               for p in readout.problems)
