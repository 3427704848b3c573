"""The rating-list writers: FIDE's fixed-column TXT (checked against FIDE's own May 2013 list),
spreadsheet-safe RFC 4180 CSV, and the self-contained HTML page."""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass
from html.parser import HTMLParser

import pytest
from data_files import data_file

from ledger.domain import Period
from ledger.formats import rating_list_csv, rating_list_html, rating_list_txt
from ledger.formats.rating_list import ListHeading


@dataclass(frozen=True)
class Row:
    rank: int
    fide_id: int | None
    name: str
    federation: str | None
    sex: str | None
    title: str | None
    rating: int
    games: int
    k: int
    birth_year: int | None
    inactive: bool = False


#: FIDE's list of 1 May 2013 is the one published after the April 2013 period.
MAY13 = ListHeading(Period(2013, 4), dt.date(2013, 5, 1))


def real_lines() -> list[str]:
    return (data_file("fide_blitz_list_may13_subset.txt")).read_text(encoding="ascii").split("\n")


# ------------------------------------------------------------------------------------------------
# TXT


def test_txt_header_offsets_are_fides() -> None:
    real = real_lines()[0]
    ours = rating_list_txt.header(MAY13)
    # Counted by hand in fide_blitz_list_may13_subset.txt's first line (0-based columns):
    # "ID Number" 0, "Name" 15, "Fed" 76, "Sex" 80, "Tit" 84, "WTit" 89, "OTit" 94, "may13" 109,
    # "Gms" 115, "K" 119, "B-day" 122, "Flag" 128; the line is 132 characters.
    expected = {"ID Number": 0, "Name": 15, "Fed": 76, "Sex": 80, "Tit ": 84, "WTit": 89,
                "OTit": 94, "may13": 109, "Gms": 115, " K ": 118, "B-day": 122, "Flag": 128}
    for token, offset in expected.items():
        assert real.index(token) == offset, token
        assert ours.index(token) == offset, token
    assert len(real) == len(ours) == 132
    assert ours == real  # byte for byte


def test_txt_rows_match_fides_lines() -> None:
    lines = real_lines()
    arabidze = next(line for line in lines if line.startswith("13604040 "))
    amin = next(line for line in lines if line.startswith("10601457 "))
    ours = rating_list_txt.write(MAY13, [
        Row(1, 10601457, "Amin, Bassem", "EGY", "M", "GM", 2621, 9, 20, 1988),
        Row(2, 13604040, "Arabidze, Meri", "GEO", "F", "WGM", 2391, 9, 20, 1994),
    ])
    assert ours.endswith("\n") and "\r" not in ours
    header, first, second, end = ours.split("\n")
    assert end == ""
    assert (first, second) == (amin, arabidze)
    # Column by column (0-based start, end from the header), on the woman's line:
    assert second[0:15] == "13604040       "
    assert second[15:76].rstrip() == "Arabidze, Meri"
    assert second[76:80] == "GEO "
    assert second[80:84] == "F   "
    assert second[84:89] == "WGM  "   # Tit
    assert second[89:94] == "WGM  "   # WTit: a women's title goes here too
    assert second[94:109] == " " * 15  # OTit: not recorded
    assert second[109:115] == "2391  "
    assert second[115:119] == "9   "
    assert second[119:122] == "20 "
    assert second[122:128] == "1994  "
    assert second[128:132] == "w   "  # FIDE flags women with w
    assert first[128:132] == "    "


def test_txt_rating_column_is_named_after_the_list_month() -> None:
    # closing 2026-11 publishes the list of 1 December 2026
    heading = ListHeading(Period(2026, 11), dt.date(2026, 12, 1))
    assert rating_list_txt.header(heading)[109:115] == "dec26 "


def test_txt_keeps_its_columns_with_awkward_values() -> None:
    long_name = "Abcdefghij, " + "x" * 70
    text = rating_list_txt.write(MAY13, [
        Row(1, None, long_name, None, None, None, 1500, 0, 40, None),
        Row(2, 9_999_999_999, "Line\nBreak,\tTab", "ENG", "M", "CM", 1400, 12, 20, 2001),
    ])
    lines = text.split("\n")[1:-1]
    assert [len(line) for line in lines] == [132, 132]
    assert lines[0][0:15] == " " * 15  # no FIDE id: blank
    assert lines[0][15:76] == long_name[:60] + " "  # cut to 60, one blank before Fed
    assert lines[0][109:115] == "1500  "
    assert lines[1][0:15] == "9999999999     "
    assert lines[1][15:76].rstrip() == "Line Break, Tab"
    assert lines[1][84:94] == "CM        "  # CM is not a women's title: WTit blank


def test_txt_flags_inactive_players() -> None:
    text = rating_list_txt.write(MAY13, [
        Row(1, 1, "Idle, Ida", "ENG", "F", None, 1900, 0, 20, 1970, inactive=True),
        Row(2, 2, "Idle, Ian", "ENG", "M", None, 1800, 0, 20, 1970, inactive=True),
        Row(3, 3, "Busy, Bea", "ENG", "F", None, 1700, 4, 20, 1970)])
    # FIDE's Flag column (128-131): w woman, i inactive, wi both
    assert [line[128:132] for line in text.split("\n")[1:4]] == ["wi  ", "i   ", "w   "]


def test_txt_refuses_a_number_too_wide_for_its_column() -> None:
    with pytest.raises(ValueError, match="Gms"):
        rating_list_txt.write(MAY13, [Row(1, 1, "A, B", None, None, None, 1500, 1000, 20, None)])


# ------------------------------------------------------------------------------------------------
# CSV

HOSTILE = ['=HYPERLINK("http://example.invalid/?x","click")', "+1", "-1", "@x", "\tTab, Name",
           "\rCR, Name"]


def test_csv_neutralises_formulas_and_stays_rfc4180() -> None:
    rows = [Row(i + 1, None, name, "ENG", None, None, 2000 - i, 1, 20, None)
            for i, name in enumerate(HOSTILE)]
    rows.append(Row(7, 4100018, 'Quote "Q", Comma', "GER", "F", "WGM", 1900, 3, 20, 1990))
    text = rating_list_csv.write(MAY13, rows)
    assert text.startswith("rank,fide_id,name,title,federation,sex,rating,games,k,birth_year,flag\r\n")
    assert text.endswith("\r\n")
    read = list(csv.reader(io.StringIO(text, newline="")))
    assert read[0] == ["rank", "fide_id", "name", "title", "federation", "sex", "rating", "games",
                       "k", "birth_year", "flag"]
    names = [r[2] for r in read[1:]]
    assert names == ["'=HYPERLINK(\"http://example.invalid/?x\",\"click\")", "'+1", "'-1", "'@x",
                     "'\tTab, Name", "'\rCR, Name", 'Quote "Q", Comma']
    assert read[7] == ["7", "4100018", 'Quote "Q", Comma', "WGM", "GER", "F", "1900", "3", "20",
                       "1990", "w"]
    assert read[1] == ["1", "", names[0], "", "ENG", "", "2000", "1", "20", "", ""]
    # RFC 4180: the field holding a CR is quoted; doubled quotes inside quoted fields
    assert '"\'\rCR, Name"' in text
    assert '"Quote ""Q"", Comma"' in text
    # no cell (once read back) starts with a formula character
    for row in read:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell


def test_csv_flag_column() -> None:
    text = rating_list_csv.write(MAY13, [
        Row(1, 1, "Idle, Ida", "ENG", "F", None, 1900, 0, 20, 1970, inactive=True),
        Row(2, 2, "Idle, Ian", "ENG", "M", None, 1800, 0, 20, 1970, inactive=True),
        Row(3, 3, "Busy, Bo", "ENG", "M", None, 1700, 4, 20, 1970)])
    assert [r[-1] for r in csv.reader(io.StringIO(text, newline=""))] == ["flag", "wi", "i", ""]


def test_csv_leaves_ordinary_text_alone() -> None:
    assert rating_list_csv.neutralise("O'Brien, Sean") == "O'Brien, Sean"
    assert rating_list_csv.neutralise("Smith-Jones, A") == "Smith-Jones, A"
    assert rating_list_csv.neutralise("-") == "'-"


# ------------------------------------------------------------------------------------------------
# HTML


class Page(HTMLParser):
    """Collects the table's header and body cells, the scripts, titles and meta tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.heads: list[dict[str, str | None]] = []
        self.rows: list[list[str]] = []
        self.scripts: list[str] = []
        self.h1 = ""
        self.title = ""
        self.metas: list[dict[str, str | None]] = []
        self._in: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in.append(tag)
        if tag == "th" and ("scope", "colgroup") not in attrs:  # not the printed pages' top line
            self.heads.append(dict(attrs))
        if tag == "tr" and "tbody" in self._in:
            self.rows.append([])
        if tag == "td":
            self._cell = []
        if tag == "script":
            self.scripts.append("")
        if tag == "meta":
            self.metas.append(dict(attrs))
            self._in.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None
        if self._in and self._in[-1] == tag:
            self._in.pop()

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        elif self._in and self._in[-1] == "script":
            self.scripts[-1] += data
        elif self._in and self._in[-1] == "h1":
            self.h1 += data
        elif self._in and self._in[-1] == "title":
            self.title += data


def test_html_escapes_names_and_sorts() -> None:
    heading = ListHeading(Period(2026, 10), dt.date(2026, 11, 1), 'Rooks & "Knights" <Club>')
    rows = [Row(1, None, "<script>alert(1)</script>", "ENG", "M", "GM", 2500, 3, 10, 1980),
            Row(2, 123, 'Smith & "Jones", O\'Neil', "IRL", "F", "WIM", 2100, 0, 20, None),
            Row(2, 456, "Zoë, Ärzte", "GER", "F", None, 2100, 9, 40, 2010)]
    page = rating_list_html.write(heading, rows)
    # nothing the user typed reaches the page as markup
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Smith &amp; &quot;Jones&quot;, O&#x27;Neil" in page
    assert "<Club>" not in page
    parsed = Page()
    parsed.feed(page)
    assert parsed.h1 == 'Rooks & "Knights" <Club>'
    assert parsed.title == 'Rooks & "Knights" <Club> - rating list 2026-10'
    assert [h["data-type"] for h in parsed.heads] == ["num", "text", "text", "text", "num", "num",
                                                      "num", "num", "num"]
    assert parsed.rows == [
        ["1", "<script>alert(1)</script>", "GM", "ENG", "", "2500", "3", "10", "1980"],
        ["2", 'Smith & "Jones", O\'Neil', "WIM", "IRL", "123", "2100", "0", "20", ""],
        ["2", "Zoë, Ärzte", "", "GER", "456", "2100", "9", "40", "2010"],
    ]
    # one script only: the sorter, bound to the table's headings, reordering the body rows
    assert len(parsed.scripts) == 1
    script = parsed.scripts[0]
    assert 'getElementById("rating-list")' in script
    assert 'addEventListener("click"' in script
    assert "tBodies[0]" in script and "appendChild" in script
    assert "Number(x) - Number(y)" in script and "localeCompare" in script
    assert 'id="rating-list"' in page
    # the period and the list date are on the page
    assert "rating period 2026-10, in force from 1 November 2026" in page
    # self-contained: no address to fetch, and a policy that forbids fetching
    assert "http://" not in page and "https://" not in page and "src=" not in page
    csp = next(m for m in parsed.metas if m.get("http-equiv") == "Content-Security-Policy")
    assert (csp["content"] or "").startswith("default-src 'none'")


def test_html_marks_inactive_players() -> None:
    page = rating_list_html.write(MAY13, [
        Row(1, 1, "Idle, Ida", "ENG", "F", None, 1900, 0, 20, 1970, inactive=True),
        Row(2, 3, "Busy, Bo", "ENG", "M", None, 1700, 4, 20, 1970)])
    parsed = Page()
    parsed.feed(page)
    assert [r[1] for r in parsed.rows] == ["Idle, Ida inactive", "Busy, Bo"]
    assert page.count('<tr class="inactive">') == 1


def test_html_of_an_empty_list() -> None:
    page = rating_list_html.write(MAY13, [])
    parsed = Page()
    parsed.feed(page)
    assert parsed.rows == []
    assert parsed.h1 == "Rating list"
    assert "0 players." in page


def test_html_title_says_rating_list_once() -> None:
    # the default heading "Rating list" (no --club): the period after it, not "- rating list"
    parsed = Page()
    parsed.feed(rating_list_html.write(MAY13, []))
    assert parsed.title == "Rating list 2013-04"
    assert "<p>After rating period 2013-04, in force from 1 May 2013</p>" in rating_list_html.write(
        MAY13, [])
    named = Page()
    named.feed(rating_list_html.write(
        ListHeading(Period(2026, 10), dt.date(2026, 11, 1), "Riverside Rating List"), []))
    assert named.title == "Riverside Rating List 2026-10"
