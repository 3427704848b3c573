"""A PGN reader holds a run of blank or comment lines as one line, wherever it is (issue 9,
item 7): 30,000,000 newlines imported with ``--format pgn`` peaked at 3 GB, every blank line
kept as a possible start of the first game's header. The games and problems read are the
same as before, line numbers included."""

from __future__ import annotations

import io
import tracemalloc

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.errors import Problem
from ledger.formats.pgn import read_pgn
from ledger.formats.pgn_lines import LineSource, ReadGame, read_games, scan_header
from ledger.formats.text_stream import lines_of

TAGS = '[White "A"]\n[Black "B"]\n[Date "2025.11.05"]\n[Result "1-0"]\n'


def only_game(text: str) -> ReadGame:
    [read] = read_games(LineSource(lines_of([text], keepends=True)), "runs.pgn")
    assert not isinstance(read, Problem)
    return read


def test_blank_lines_before_the_first_game_are_held_as_one() -> None:
    read = only_game("\n" * 50_000 + TAGS + "\n1. e4 e5 1-0\n")
    numbers = [number for number, _ in read.lines]
    assert len(numbers) <= 10, numbers[:20]
    assert numbers[:2] == [50_000, 50_001]  # the last blank line, the first tag
    [game] = read_pgn(io.StringIO("\n" * 50_000 + TAGS + "\n1. e4 e5 1-0\n"), "runs.pgn").games
    assert game.line == 50_001


def test_comment_lines_inside_a_header_are_held_as_one() -> None:
    text = '[White "A"]\n' + "% a comment\n" * 50_000 + TAGS[12:] + "\n1. e4 e5 1-0\n"
    read = only_game(text)
    assert len(read.lines) <= 10, read.lines[:20]
    readout = read_pgn(io.StringIO(text), "runs.pgn")
    assert readout.problems == []
    [game] = readout.games
    assert (game.white, game.black, game.line) == ("A", "B", 1)


def test_a_second_blank_line_still_ends_the_header_as_python_chess_says() -> None:
    # [White] blank blank [Black]: python-chess ends the header at the second blank line, so
    # [Black ...] starts a game of its own, and the blanks after it are not held
    text = '[White "A"]\n\n\n[Black "B"]\n' + "\n" * 50_000 + "1. e4 e5 1-0\n"
    reads = list(read_games(LineSource(lines_of([text], keepends=True)), "runs.pgn"))
    assert all(isinstance(r, ReadGame) and len(r.lines) <= 10 for r in reads), reads
    readout = read_pgn(io.StringIO(text), "runs.pgn")
    assert [(p.line, p.field) for p in readout.problems] == [
        (1, "Black"), (1, "Date"), (1, "Result"), (4, "White"), (4, "Date"), (4, "Result"),
        (50_005, "tags")]


class KeepsEveryLine(LineSource):
    """The reference: every line of a game held (what ``scan_header`` reads is among them)."""

    def _keep_header_line(self, line: str) -> None:
        self._taken.append((self.number, line))


LINES = st.sampled_from(["\n", " \n", "% c\n", "; c\n", '[White "A"]\n', '[Black "B"]\n',
                         '[Date "2025.11.05"]\n', '[Result "1-0"]\n', "\ufeff[Event \"E\"]\n",
                         ' [Round "1"]\n', "[not a tag\n", "1. e4 e5 1-0\n", "1-0\n", "{ c }\n"])


@settings(max_examples=500, deadline=None)
@given(st.lists(LINES, max_size=40))
def test_what_the_header_scan_reads_is_as_if_every_line_were_held(lines: list[str]) -> None:
    text = "".join(lines)
    held = list(read_games(LineSource(lines_of([text], keepends=True)), "p.pgn"))
    every = list(read_games(KeepsEveryLine(lines_of([text], keepends=True)), "p.pgn"))
    assert len(held) == len(every)
    for a, b in zip(held, every, strict=True):
        assert isinstance(a, ReadGame) and isinstance(b, ReadGame)
        assert scan_header(a.lines, "p.pgn") == scan_header(b.lines, "p.pgn")
        assert (a.lines[-1], a.cut_short) == (b.lines[-1], b.cut_short)


def test_a_file_of_blank_lines_is_read_in_little_memory() -> None:
    text = "\n" * 300_000
    tracemalloc.start()
    try:
        readout = read_pgn(io.StringIO(text), "blank.pgn")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert readout.games == []
    assert peak < 8_000_000, f"{peak:,} bytes"  # the text's chunks; 30 MB when each line was held
