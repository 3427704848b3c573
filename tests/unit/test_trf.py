"""The TRF reader and TRF-16 writer (ledger.formats.trf), pure: text in, values out.

Hypothesis: random valid TRF events survive write -> read unchanged; random bytes never crash
the reader (they give problems, not exceptions).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from data_files import data_file
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.domain import Result
from ledger.formats.detect import detect_format
from ledger.formats.trf import TrfEvent, file_end_date, read_trf
from ledger.formats.trf_lines import TrfPlayer, TrfRound, parse_date
from ledger.formats.trf_text import split_lines
from ledger.formats.trf_writer import write_trf

LINE_A = ("001    1 m    Player, A                         1800 XXX    90000001 1990/01/01  1.0    1"
          "     2 w 1")
LINE_B = ("001    2 m    Player, B                         1900 XXX    90000002 1988/01/01  0.0    2"
          "     1 b 0")


def test_dates_in_every_form_seen() -> None:
    # Karl-Mala 2005, Gros 2010 (day first), Kilkenny 2011, TRF-16, record 132 (YY/MM/DD)
    assert parse_date("28. 07. 2005") == dt.date(2005, 7, 28)
    assert parse_date("24/09/2010") == dt.date(2010, 9, 24)
    assert parse_date("2011-11-25") == dt.date(2011, 11, 25)
    assert parse_date("2025/11/01") == dt.date(2025, 11, 1)
    assert parse_date("25/11/03") == dt.date(2025, 11, 3)
    assert parse_date("2025/02/30") is None
    assert parse_date("soon") is None


def test_only_cr_lf_and_crlf_end_lines() -> None:
    assert split_lines("a\rb\r\nc\nd") == ["a", "b", "c", "d"]
    # a form feed, a file separator and U+2028 are data inside a line (str.splitlines splits them)
    assert split_lines("a\x0cb\x1cc\u2028d\n") == ["a\x0cb\x1cc\u2028d"]


def test_columns_are_characters_and_cp1252_is_a_fallback_with_a_warning() -> None:
    name_a = "Åström, Jörg"  # 12 characters, more bytes in UTF-8
    line_a = LINE_A.replace("Player, A   ", name_a)
    text = "012 Cup\n052 2025/11/20\n" + line_a + "\n" + LINE_B + "\n"
    for encoding in ("utf-8", "cp1252"):
        event, readout = read_trf(text.encode(encoding), "x.trf")
        assert [p.name for p in event.players] == [name_a, "Player, B"]
        assert event.players[0].rating == 1800
        warnings = [p for p in readout.problems if p.field == "encoding"]
        assert len(warnings) == (encoding == "cp1252")
        if warnings:
            assert warnings[0].severity == "warning" and "CP1252" in warnings[0].message
            assert warnings[0].line == 3


def test_end_date_dates_a_file_without_dates_only() -> None:
    bare = "012 Cup\n" + LINE_A + "\n" + LINE_B + "\n"
    event, readout = read_trf(bare.encode(), "x.trf")
    assert file_end_date(event) is None and readout.games == []
    [problem] = readout.problems
    assert (problem.line, problem.field) == (2, "052") and "--end-date" in problem.message
    event, readout = read_trf(bare.encode(), "x.trf", dt.date(2025, 11, 20))
    [game] = readout.games
    assert (game.date, game.event_start, game.event_end) == (dt.date(2025, 11, 20),) * 3
    assert game.where("date") == (None, "--end-date") and readout.problems == []
    # a file with its own end date (052) is read from it: the fallback is not used
    dated = "012 Cup\n052 2025/11/21\n" + LINE_A + "\n" + LINE_B + "\n"
    event, readout = read_trf(dated.encode(), "x.trf", dt.date(2025, 11, 20))
    assert file_end_date(event) == dt.date(2025, 11, 21)
    assert [g.date for g in readout.games] == [dt.date(2025, 11, 21)]


def test_result_codes_and_colourless_forfeits() -> None:
    # Karl-Mala style: `153 - -` / `13 - +`, colour `-` on both lines: White = the lower rank
    lines = ["012 Cup", "052 2025/11/20",
             LINE_A.replace("     2 w 1", "     2 - -     2 b W"),
             LINE_B.replace("     1 b 0", "     1 - +     1 w L")]
    _, readout = read_trf("\n".join(lines).encode(), "x.trf")
    assert [(g.round, g.white.name, g.result, g.played) for g in readout.games] == [
        ("1", "Player, A", Result.BLACK_FORFEIT_WIN, True),
        ("2", "Player, B", Result.BLACK_WINS, False)]
    assert readout.problems == []


def test_byes_are_not_games() -> None:
    lines = ["012 Cup", "052 2025/11/20",
             LINE_A + "  0000 - H  0000 - F  0000 - U  0000 - Z            ",
             LINE_B]
    event, readout = read_trf("\n".join(lines).encode(), "x.trf")
    assert len(readout.games) == 1 and readout.problems == []
    assert [r.result for r in event.players[0].rounds] == ["1", "H", "F", "U", "Z"]


def test_round_dates_from_record_132() -> None:
    lines = ["012 Cup", "042 2025/11/01", "052 2025/11/30",
             "132" + " " * 88 + "25/11/05  25/11/12",  # from column 92, ten apart
             LINE_A + "  0000 - H", LINE_B + "     2 w 1"]
    # round 2: B's line names itself: an error, and no game
    _, readout = read_trf("\n".join(lines).encode(), "x.trf")
    assert [(g.round, g.date) for g in readout.games] == [("1", dt.date(2025, 11, 5))]
    [problem] = readout.problems
    assert (problem.line, problem.field) == (6, "col 102-105")


def test_trf_2026_records_are_read_or_skipped() -> None:
    # TRF-2026 keeps the 001 layout; 142 gives the rounds; ###, 152, 240, 801, NRS lines carry
    # nothing for rating
    lines = ["### written by a 2026 program", "012 Cup", "042 2025/11/01", "052 2025/11/02",
             "142 3", "152 W", "240 F    1", LINE_A, LINE_B,
             "ENG    1 Player, A                     1850", "801    1 whatever"]
    event, readout = read_trf("\r".join(lines).encode(), "x.trf")
    assert (event.rounds, len(readout.games), readout.problems) == (3, 1, [])


def test_header_faults_have_their_line() -> None:
    lines = ["012 " + "x" * 201, "042 2025/11/20", "052 2025/11/02", LINE_A, LINE_B]
    _, readout = read_trf("\n".join(lines).encode(), "x.trf")
    assert [(p.line, p.field) for p in readout.problems] == [(1, "col 5"), (3, "col 5"), (4, "012")]
    assert "at most 200" in readout.problems[0].message
    assert "before the start" in readout.problems[1].message
    assert readout.games == []  # no event name left: no games


def test_format_detection() -> None:
    assert detect_format(b"012 Cup\n", ".txt") == "trf"
    assert detect_format(b"\xef\xbb\xbf[Event \"x\"]\n", "") == "pgn"
    assert detect_format(b"date,white,black,result\n", "") == "csv"
    assert detect_format(b"hello\n", ".csv") == "csv"
    assert detect_format(b"hello\n", ".txt") is None


# ------------------------------------------------------------------------------------------------
# Hypothesis

_LETTERS = st.characters(whitelist_categories=("Lu", "Ll"), max_codepoint=0x24F)
_WORD = st.text(_LETTERS, min_size=1, max_size=10)
_NAME = st.builds(lambda a, b: f"{a}, {b}"[:33].strip(), _WORD, _WORD)
_DAY = st.dates(dt.date(2000, 1, 1), dt.date(2060, 12, 31))
_PLAYED = ["1", "=", "0", "+", "-", "W", "D", "L"]
_MIRROR = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D"}


@st.composite
def trf_events(draw: st.DrawFn) -> TrfEvent:
    """A valid event: players paired round by round, each pairing on both lines."""
    n = draw(st.integers(2, 10))
    rounds = draw(st.integers(0, 5))
    cells: dict[int, list[TrfRound]] = {rank: [] for rank in range(1, n + 1)}
    for _ in range(rounds):
        order = draw(st.permutations(range(1, n + 1)))
        pairs = draw(st.integers(0, n // 2))
        for i in range(pairs):
            white, black = order[2 * i], order[2 * i + 1]
            code = draw(st.sampled_from(_PLAYED))
            cells[white].append(TrfRound(black, "w", code))
            cells[black].append(TrfRound(white, "b", _MIRROR[code]))
        for rank in order[2 * pairs:]:
            bye = draw(st.sampled_from(["H", "F", "U", "Z", ""]))
            cells[rank].append(TrfRound(None, "-" if bye else "", bye))
    players = []
    for rank in range(1, n + 1):
        row = list(cells[rank])
        while row and row[-1] == TrfRound(None, "", ""):
            row.pop()  # a blank cell at the end of a line is nothing
        players.append(TrfPlayer(
            rank=rank, name=draw(_NAME), sex=draw(st.sampled_from([None, "M", "F"])),
            title=draw(st.sampled_from([None, "GM", "IM", "WFM", "CM"])),
            rating=draw(st.one_of(st.none(), st.integers(1000, 2900))),
            federation=draw(st.one_of(st.none(), st.sampled_from(["ENG", "ESP", "IRL"]))),
            # ids differ between lines (two players cannot share one): the rank is the last digits
            fide_id=draw(st.one_of(st.none(), st.integers(0, 10**6).map(
                lambda x, r=rank: x * 10_000 + r))),
            birth=draw(st.one_of(st.none(), _DAY.map(lambda d: d.strftime("%Y/%m/%d")))),
            points=Decimal(draw(st.integers(0, 2 * rounds))) / 2,
            place=draw(st.one_of(st.none(), st.integers(1, n))), rounds=tuple(row)))
    start = draw(_DAY)
    dates = tuple(draw(st.one_of(st.none(), st.just(start + dt.timedelta(days=i))))
                  for i in range(rounds))
    while dates and dates[-1] is None:
        dates = dates[:-1]
    return TrfEvent(
        name=draw(_NAME), players=tuple(players), city=draw(st.one_of(st.none(), _WORD)),
        federation=draw(st.one_of(st.none(), st.just("ENG"))), start=start,
        end=start + dt.timedelta(days=rounds), arbiter=draw(st.one_of(st.none(), _NAME)),
        time_control=draw(st.one_of(st.none(), st.just("90 min + 30 s"))),
        rounds=rounds or None, round_dates=dates)


@settings(max_examples=150, deadline=None)
@given(trf_events(), st.sampled_from(["\n", "\r\n", "\r"]))
def test_valid_events_survive_write_then_read(event: TrfEvent, end: str) -> None:
    text = write_trf(event).replace("\n", end)
    read, readout = read_trf(text.encode("utf-8"), "random.trf")
    assert read == event
    assert [p for p in readout.problems if p.severity == "error"] == []
    games = sum(1 for p in event.players for r in p.rounds if r.opponent is not None) // 2
    assert len(readout.games) == games


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_random_bytes_give_problems_not_exceptions(raw: bytes) -> None:
    _, readout = read_trf(raw, "noise.trf")
    for problem in readout.problems:
        assert problem.file == "noise.trf" and problem.message


_NOISE_LINE = st.one_of(
    st.text(max_size=140),
    st.builds(lambda tail: "001" + tail, st.text(" 0123456789wbm-+=ZHFUDLW.,/Ab", max_size=140)),
    st.builds(lambda tail: LINE_A[: len(tail)] + tail, st.text(" 0123456789wb-+=Z", max_size=60)),
    st.sampled_from(["012 Cup", "052 2025/11/20", "132 " + " " * 86 + "99/99/99", "XXR x", LINE_B]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_NOISE_LINE, max_size=12), st.sampled_from(["\n", "\r\n", "\r"]))
def test_random_trf_like_lines_give_problems_not_exceptions(lines: list[str], end: str) -> None:
    _, readout = read_trf(end.join(lines).encode("utf-8", errors="surrogatepass"), "noise.trf")
    for problem in readout.problems:
        assert problem.file == "noise.trf" and problem.message


def test_writer_gives_titles_in_full_as_trf16_says() -> None:
    # TRF-16 player section: sex in column 10 (m/w), title in columns 11-13 written in full
    # (GM, IM, WGM, FM, WIM, CM, WFM, WCM); TRF-2006's one letter (``wf``, ``m``) is not written.
    players = tuple(TrfPlayer(rank=n, name=f"Player, {title}", sex=sex, title=title)
                    for n, (sex, title) in enumerate(
                        [("F", "WFM"), ("M", "IM"), ("F", "WGM"), ("M", "GM"), ("M", None)], 1))
    lines = write_trf(TrfEvent(name="Cup", players=players)).splitlines()[1:]
    # columns 10-13 (1-based) are line[9:13]
    assert [line[9:13] for line in lines] == ["wWFM", "m IM", "wWGM", "m GM", "m   "]
    assert lines[0][:48].rstrip() == "001    1 wWFM Player, WFM"


def test_reader_takes_titles_in_both_forms() -> None:
    # TRF-16 ``WFM``/``IM`` and TRF-2006 ``wf``/``m`` name the same titles
    lines = ["012 Cup",
             "001    1 wWFM Player, A",
             "001    2 m IM Player, B",
             "001    3 w wf Player, C",
             "001    4 m  m Player, D"]
    event, _ = read_trf("\n".join(lines).encode(), "titles.trf")
    assert event is not None
    assert [p.title for p in event.players] == ["WFM", "IM", "WFM", "IM"]
    # FIDE's 2005 Karl-Mala sample, line 82: "001   69   wf Heymann-Lobzhanidze,Anna-Luise"
    karl_mala, _ = read_trf((data_file("fide_example1_karl_mala_2005.trf")).read_bytes(),
                            "karl-mala.trf")
    assert karl_mala is not None
    assert next(p.title for p in karl_mala.players if p.rank == 69) == "WFM"


def test_comments_are_written_as_hash_lines_before_the_players_and_read_as_nothing() -> None:
    event = TrfEvent(name="Cup", players=(TrfPlayer(rank=1, name="Player, A"),),
                     end=dt.date(2025, 11, 2))
    text = write_trf(event, ["byes are not in it"])
    assert text.splitlines() == ["012 Cup", "052 2025/11/02", "### byes are not in it",
                                 "001    1      Player, A"]
    read, readout = read_trf(text.encode(), "cup.trf")
    assert read == event and readout.problems == []
    with pytest.raises(ValueError, match="one line"):
        write_trf(event, ["two\nlines"])
