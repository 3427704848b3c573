"""Files read as streams (ledger.formats.text_stream) and the bound on the problems a reader
keeps (issue 9, item 5): pure, no database.

Each reader keeps the first ``MAX_PROBLEMS`` (1,000) errors; at the end of the line (CSV row, PGN
game) that brings one more, it stops reading and adds one error naming that line. Warnings past
1,000 are counted in one more warning and never stop a reader. Expected values by hand: each
garbage line below gives exactly one error (or two, where said), so the numbers of the lines
kept and of the line the reader stops at follow from the line numbers alone.
"""

from __future__ import annotations

import codecs
import io
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.errors import Problem
from ledger.formats.games_csv import read_csv
from ledger.formats.pgn import read_pgn, read_pgn_binary
from ledger.formats.pgn_lines import LineSource, read_games
from ledger.formats.text_stream import (
    MAX_PROBLEMS,
    BadEncoding,
    Problems,
    byte_lines_of,
    lines_of,
    utf8_blocks,
    utf8_lines,
)
from ledger.formats.trf import read_trf

LINE_A = ("001    1 m    Player, A                         1800 XXX    90000001 1990/01/01  1.0    1"
          "     2 w 1")
LINE_B = ("001    2 m    Player, B                         1900 XXX    90000002 1988/01/01  0.0    2"
          "     1 b 0")


def stop_message(more: int, line: int) -> str:
    return (f"more than 1000 errors: the first 1000 are listed; {more} more found up to line "
            f"{line}, where reading stopped (the rest of the file is not read): correct these "
            "and import the file again")


# ------------------------------------------------------------------------------------------------
# Lines across chunks


def test_a_crlf_split_between_two_chunks_is_one_line_end() -> None:
    assert list(lines_of(["a\r", "\nb"])) == ["a", "b"]
    assert list(lines_of(["a\r", "", "\r\n", "\n"])) == ["a", "", ""]
    assert list(lines_of(["a\r", "b"], keepends=True)) == ["a\r", "b"]
    assert list(byte_lines_of([b"x\r", b"\n", b"y\r"])) == [b"x", b"y"]
    # a long line in many chunks is one line
    assert list(lines_of(["ab"] * 5 + ["\n"])) == ["ab" * 5]
    assert list(lines_of([])) == [] and list(lines_of([""])) == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab \r\n\x0c\u2028", max_size=40), st.lists(st.integers(0, 40), max_size=6),
       st.booleans())
def test_lines_of_any_chunks_are_the_lines_of_the_whole(text: str, cuts: list[int],
                                                       keepends: bool) -> None:
    # the whole text split at once, CR, LF and CRLF only; no empty line after the last end
    parts = re.split(r"(\r\n|\r|\n)", text)
    expected = [parts[i] + (parts[i + 1] if keepends else "") for i in range(0, len(parts) - 1, 2)]
    if parts[-1]:
        expected.append(parts[-1])
    bounds = [0, *sorted(c for c in cuts if c <= len(text)), len(text)]
    pieces = [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    assert list(lines_of(pieces, keepends)) == expected
    assert list(byte_lines_of([p.encode() for p in pieces], keepends)) == [
        e.encode() for e in expected]


def test_utf8_lines_name_the_line_of_the_first_bad_byte() -> None:
    handle = io.BytesIO(codecs.BOM_UTF8 + b"ok\r\n\xc3\xa9\rbad \xff\nnever read\n")
    lines = utf8_lines(handle)
    assert [next(lines), next(lines)] == ["ok", "é"]
    with pytest.raises(BadEncoding) as caught:
        next(lines)
    assert (caught.value.line, caught.value.reason) == (3, "invalid start byte")


def test_utf8_blocks_give_a_chunks_whole_lines_and_stop_at_the_same_bad_byte() -> None:
    # one chunk: its lines in one list, with their ends; a CR at the end of a chunk held back
    # (it may start a CRLF); a bad byte on line 3: lines 1 and 2 given, then line 3's error
    blocks = utf8_blocks(io.BytesIO(codecs.BOM_UTF8 + b"ok\r\n\xc3\xa9\rx\n"))
    assert list(blocks) == [["ok\r\n", "\u00e9\r", "x\n"]]
    assert list(utf8_blocks(io.BytesIO(b"a\rb"))) == [["a\r"], ["b"]]
    assert list(utf8_blocks(io.BytesIO(b""))) == []
    bad = utf8_blocks(io.BytesIO(b"ok\r\n\xc3\xa9\rbad \xff\nnever read\n"))
    assert next(bad) == ["ok\r\n", "\u00e9\r"]
    with pytest.raises(BadEncoding) as caught:
        next(bad)
    assert (caught.value.line, caught.value.reason) == (3, "invalid start byte")


# ------------------------------------------------------------------------------------------------
# The bound


def test_problems_keep_the_first_errors_and_say_where_the_reader_stopped() -> None:
    out = Problems("f", limit=3)
    for line in (1, 2, 3):
        out.append(Problem("f", line, "x", "bad"))
        assert not out.full
    out.append(Problem("f", 4, "x", "bad"))
    out.append(Problem("f", 4, "y", "bad"))
    assert out.full and out.errors == 5
    out.stop(4)
    kept = out.finish()
    assert [p.line for p in kept] == [1, 2, 3, 4]
    assert kept[-1].message == ("more than 3 errors: the first 3 are listed; 2 more found up to "
                                "line 4, where reading stopped (the rest of the file is not "
                                "read): correct these and import the file again")


def test_warnings_past_the_bound_are_counted_in_one_warning() -> None:
    out = Problems("f", limit=2)
    for line in range(1, 6):
        out.append(Problem("f", line, "x", "odd", "warning"))
    assert not out.full
    kept = out.finish()
    assert [(p.line, p.severity) for p in kept] == [(1, "warning"), (2, "warning"), (3, "warning")]
    assert kept[-1].message == "3 more warnings from this line on are not listed (the first 2 are)"


def test_a_garbage_trf_keeps_1000_errors_and_stops_at_line_1001() -> None:
    # 5,000 lines, each one error: "not a TRF record" (no three-character code and blank)
    raw = "".join(f"garbage line {n}\n" for n in range(1, 5001)).encode()
    event, readout = read_trf(raw, "garbage.trf")
    assert MAX_PROBLEMS == 1000
    assert len(readout.problems) == 1001
    assert [p.line for p in readout.problems[:1000]] == list(range(1, 1001))
    assert {p.field for p in readout.problems[:1000]} == {"col 1-3"}
    stop = readout.problems[-1]
    assert (stop.line, stop.field, stop.severity) == (1001, "file", "error")
    assert stop.message == stop_message(1, 1001)
    assert readout.games == [] and event.players == ()


def test_a_garbage_csv_keeps_1000_errors_and_stops_on_the_row_past_them() -> None:
    # header on line 1; rows on lines 2 .. 5001, each with two errors (date and result): rows
    # 2 .. 501 give errors 1 .. 1000, the row on line 502 two more
    raw = ("date,white,black,result\n" + "2025-13-01,A,B,2-0\n" * 5000).encode()
    readout = read_csv("garbage.csv", raw)
    assert len(readout.problems) == 1001
    assert [(p.line, p.field) for p in readout.problems[:2]] == [(2, "date"), (2, "result")]
    assert readout.problems[999].line == 501
    assert readout.problems[-1].line == 502
    assert readout.problems[-1].message == stop_message(2, 502)
    assert readout.games == [] and readout.games_in_file == 501


def test_a_garbage_pgn_stops_after_the_game_past_1000_errors() -> None:
    # each game: 3 tags (lines 6k-5 .. 6k-3), a blank, the moves, a blank (line 6k), and one
    # error, the missing Date, on its first line; game 1001 ends on line 6006
    game = '[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n'
    readout = read_pgn_binary(io.BytesIO((game * 1500).encode()), "garbage.pgn")
    assert len(readout.problems) == 1001
    assert [p.line for p in readout.problems[:3]] == [1, 7, 13]
    assert {p.field for p in readout.problems[:1000]} == {"Date"}
    assert readout.problems[999].line == 5995
    assert readout.problems[-1].line == 6006
    assert readout.problems[-1].message == stop_message(1, 6006)
    assert readout.games == []


def test_a_trf_with_1500_warnings_imports_with_1000_of_them_and_a_count() -> None:
    # XXR with no number is a warning, never an error: the file still gives its game
    lines = ["012 Cup", "052 2025/11/20", LINE_A, LINE_B] + ["XXR x"] * 1500
    _, readout = read_trf("\n".join(lines).encode(), "warned.trf")
    assert len(readout.games) == 1
    assert len(readout.problems) == 1001
    assert {p.severity for p in readout.problems} == {"warning"}
    assert [p.line for p in readout.problems[:1000]] == list(range(5, 1005))
    last = readout.problems[-1]
    assert (last.line, last.field) == (1005, "file")
    assert last.message == "500 more warnings from this line on are not listed (the first 1000 are)"


# ------------------------------------------------------------------------------------------------
# Encodings line by line (TRF's rule is the whole file's)


def test_trf_cp1252_after_utf8_accents_is_read_again_as_cp1252() -> None:
    # line 1 valid UTF-8 with an accent, line 2 a CP1252 byte: the whole file is CP1252, as
    # when it was decoded at once, so line 1's two bytes are two characters
    raw = "012 Café Cup\n".encode() + b"022 M\xfcnchen\n052 2025/11/20\n"
    handle = io.BytesIO(raw)
    event, readout = read_trf(handle, "mixed.trf")
    assert (event.name, event.city) == ("CafÃ© Cup", "München")
    [warning] = readout.problems
    assert (warning.line, warning.field, warning.severity) == (2, "encoding", "warning")


def test_trf_cp1252_after_ascii_lines_is_read_on_without_going_back() -> None:
    class Forward(io.BytesIO):
        def seek(self, offset: int, whence: int = 0) -> int:
            raise AssertionError("read again")

    raw = b"012 Cup\n022 M\xfcnchen\n052 2025/11/20\n"
    event, readout = read_trf(Forward(raw), "latin.trf")
    assert (event.name, event.city) == ("Cup", "München")
    assert [(p.line, p.field) for p in readout.problems] == [(2, "encoding")]


def test_a_utf16_bom_that_is_not_utf16_is_read_as_cp1252() -> None:
    # FF FE then an odd number of bytes: not UTF-16; as CP1252, line 1 starts with "ÿþ"
    _, readout = read_trf(codecs.BOM_UTF16_LE + b"012 Cup\n\n", "odd.trf")
    assert [(p.line, p.field, p.message[:10]) for p in readout.problems[:1]] == [
        (1, "encoding", "not UTF-8 ")]


# ------------------------------------------------------------------------------------------------
# PGN: only the lines a game's header check reads are held


def test_a_game_of_many_move_lines_holds_its_header_and_two_more_lines() -> None:
    moves = "1. e4 e5\n" + "{ a long comment line }\n" * 10000 + "2. Nf3 1-0\n"
    text = '[White "A"]\n[Black "B"]\n\n' + moves + '[Event "lost"]\n\n'
    [read] = read_games(LineSource(lines_of([text], keepends=True)), "long.pgn")
    assert not isinstance(read, Problem)
    # lines 1-3 (tags, blank), 4 (first move line), 10006 (the tag among the moves), 10007 (last)
    assert [number for number, _ in read.lines] == [1, 2, 3, 4, 10006, 10007]


def test_read_pgn_reads_a_text_handle_in_chunks_with_any_line_end() -> None:
    text = '[White "A"]\r[Black "B"]\r[Date "2025.11.05"]\r[Result "1-0"]\r\r1. e4 e5 1-0\r'
    readout = read_pgn(io.StringIO(text, newline=""), "cr.pgn")
    assert [(g.white, g.black, g.line) for g in readout.games] == [("A", "B", 1)]
    assert readout.problems == []
