"""Tests for ledger.formats.pgn: PGN text -> games + problems (PGN standard; FIDE B.02 §5.1)."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from data_files import data_file
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.domain import Result
from ledger.formats.pgn import PgnGame, PgnReadout, read_pgn, read_pgn_file

TATA = data_file("tata_steel_masters_2022.pgn")


def write(tmp_path: Path, text: str, name: str = "games.pgn", newline: str = "\n") -> Path:
    """Write ``text`` (written with \\n) byte for byte, with the chosen line ending."""
    path = tmp_path / name
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    return path


def one_tag_per_line(text: str) -> str:
    """The cases print several tags on one line "for space"; the files have one tag per line."""
    return text.replace("][", "]\n[")


def problems_at(readout: PgnReadout, field: str) -> list[tuple[int | None, str, str]]:
    return [(p.line, p.severity, p.message) for p in readout.problems if p.field == field]


GAME = """[Event "Placeholder Club Ch"]
[Site "Placeholder"]
[Date "2025.11.05"]
[Round "1"]
[White "Player, A"]
[Black "Player, B"]
[Result "1-0"]
{extra}
1. e4 e5 2. Nf3 Nc6 1-0
"""


def game_with(tmp_path: Path, extra: str = "", **replace: str) -> PgnReadout:
    """One otherwise valid game, with tags replaced or ``extra`` tags added.

    Lines: tags 1-7; without ``extra``, blank 8 and moves 9; with one extra tag line, extra 8,
    blank 9, moves 10.
    """
    text = GAME.replace("{extra}", extra + "\n" if extra else "")
    for old, new in replace.items():
        text = text.replace(old, new)
    return read_pgn_file(write(tmp_path, text))


# --------------------------------------------------------------------------------------------
# The real file: 84th Tata Steel Masters 2022 (hlotze/pgn2tex, see examples/data/README.md)
#
# Counted by hand with grep on the file:
#   grep -c '^\[Event ' -> 91 games;  grep '^\[Result' | sort | uniq -c -> 49 "1/2-1/2",
#   26 "1-0", 16 "0-1";  grep -h '^\[White \|^\[Black ' | sort -u | wc -l -> 14 players;
#   grep '^\[Date' | sort | uniq -c -> 13 dates x 7 games, 2022.01.15 ... 2022.01.30;
#   grep -n '^\[Event ' | head -2 -> games start on lines 1 and 24;
#   grep -n -x -E '(1-0|0-1|1/2-1/2|\*)' -> 4 games whose movetext is only a result (lines 1231,
#   1933, 2096, 2267): Dubov's games in rounds 7.7, 11.7, 12.7, 13.7, Result tags on lines 1222,
#   1924, 2087, 2258; three "1-0" (Giri, Rapport, Carlsen as White) and one "0-1" (Praggnanandhaa
#   as Black). With no moves they are forfeits, never rated (FIDE B.02 §5.1).


@pytest.fixture(scope="module")
def tata() -> PgnReadout:
    assert TATA.is_file(), f"missing test data file {TATA}"
    return read_pgn_file(TATA)


def test_tata_steel_reads_all_91_games_without_errors(tata: PgnReadout) -> None:
    assert len(tata.games) == 91
    assert tata.errors == []
    players = {g.white for g in tata.games} | {g.black for g in tata.games}
    assert len(players) == 14
    assert min(g.date for g in tata.games) == dt.date(2022, 1, 15)
    assert max(g.date for g in tata.games) == dt.date(2022, 1, 30)
    assert len({g.date for g in tata.games}) == 13
    assert all(g.event_date == dt.date(2022, 1, 15) for g in tata.games)
    assert [g.line for g in tata.games[:2]] == [1, 24]


def test_tata_steel_first_game(tata: PgnReadout) -> None:
    assert tata.games[0] == PgnGame(
        line=1,
        event="84th Tata Steel Masters",
        event_date=dt.date(2022, 1, 15),
        site="Wijk aan Zee NED",
        date=dt.date(2022, 1, 15),
        round="1.1",
        white="Esipenko, Andrey",
        black="Carlsen, Magnus",
        white_elo=2714,
        black_elo=2865,
        white_fide_id=24175439,
        black_fide_id=1503014,
        white_title="GM",
        black_title="GM",
        result=Result.DRAW,
        played=True,
    )


def test_tata_steel_results_and_the_four_forfeits(tata: PgnReadout) -> None:
    counts = {r: sum(g.result is r for g in tata.games) for r in Result}
    assert counts == {
        Result.DRAW: 49,
        Result.WHITE_WINS: 26 - 3,
        Result.WHITE_FORFEIT_WIN: 3,
        Result.BLACK_WINS: 16 - 1,
        Result.BLACK_FORFEIT_WIN: 1,
        Result.DOUBLE_FORFEIT: 0,
    }
    unplayed = [g for g in tata.games if not g.played]
    assert [g.round for g in unplayed] == ["7.7", "11.7", "12.7", "13.7"]
    assert all("Dubov, Daniil" in (g.white, g.black) for g in unplayed)
    assert tata.problems == tata.warnings
    assert [(p.line, p.field, p.message) for p in tata.problems] == [
        (line, "Result", "no moves: recorded as a forfeit, not rated") for line in (1222, 1924, 2087, 2258)
    ]


# --------------------------------------------------------------------------------------------
# C21: Elo tags "?", "-", or not FIDE ratings (docs/CASES.md)

C21 = """[Event "Placeholder Club Ch"][Date "2025.11.05"][Round "1"][White "Player, A"][Black "Player, G"][Result "1-0"][WhiteElo "1800"][BlackElo "?"]
1. e4 e5 2. Nf3 Nc6 1-0

[Event "Placeholder Club Ch"][Date "2025.11.12"][Round "2"][White "Player, H"][Black "Player, A"][Result "1/2-1/2"][WhiteElo "-"][BlackElo "1800"]
1. d4 d5 2. c4 e6 1/2-1/2

[Event "Placeholder Club Ch"][Date "2025.11.19"][Round "3"][White "Player, A"][Black "Player, I"][Result "1-0"][WhiteElo "1800"][BlackElo "2210"]
1. c4 e5 2. Nc3 Nf6 1-0
"""  # noqa: E501  (the case's input as written)


def c21_text() -> str:
    # One tag per line, then a blank line before the moves (PGN export format): each game is
    # 8 tag lines + blank + moves + blank = 11 lines, so games start on lines 1, 12 and 23.
    return one_tag_per_line(C21).replace('"]\n1. ', '"]\n\n1. ')


def test_c21_question_mark_and_dash_elo_are_no_rating_without_problems(tmp_path: Path) -> None:
    readout = read_pgn_file(write(tmp_path, c21_text()))
    assert readout.problems == []
    g1, g2, g3 = readout.games
    assert [g.line for g in readout.games] == [1, 12, 23]
    assert (g1.white, g1.black, g1.white_elo, g1.black_elo) == ("Player, A", "Player, G", 1800, None)
    assert (g2.white, g2.black, g2.white_elo, g2.black_elo) == ("Player, H", "Player, A", None, 1800)
    assert (g1.result, g2.result, g3.result) == (Result.WHITE_WINS, Result.DRAW, Result.WHITE_WINS)
    assert all(g.played for g in readout.games)
    assert [g.date for g in readout.games] == [
        dt.date(2025, 11, 5),
        dt.date(2025, 11, 12),
        dt.date(2025, 11, 19),
    ]


def test_c21_a_wrong_elo_tag_is_read_as_written(tmp_path: Path) -> None:
    # The reader reports what the tag says; the ledger rates with its own list (B.02 8.3.1) and
    # only cross-checks the tag, so 2210 is read as 2210 here and ignored later.
    g3 = read_pgn_file(write(tmp_path, c21_text())).games[2]
    assert (g3.white, g3.black, g3.white_elo, g3.black_elo) == ("Player, A", "Player, I", 1800, 2210)


def test_c21_as_printed_with_all_tags_on_one_line_reads_the_same(tmp_path: Path) -> None:
    # python-chess alone would read `[Event "x"][Date "y"]...` as one Event tag with value
    # `x"][Date "y...`; the reader splits the line into its tag pairs.
    one_line = read_pgn_file(write(tmp_path, C21, "one_line.pgn"))
    per_line = read_pgn_file(write(tmp_path, c21_text(), "per_line.pgn"))
    assert one_line.problems == []
    assert [g.line for g in one_line.games] == [1, 4, 7]
    strip_line = [g.__dict__ | {"line": 0, "tag_lines": {}} for g in one_line.games]
    assert strip_line == [g.__dict__ | {"line": 0, "tag_lines": {}} for g in per_line.games]


# --------------------------------------------------------------------------------------------
# C23: PGN results that are not rated results (docs/CASES.md; FIDE B.02 §5.1)

C23 = """\
[Event "Placeholder Club Ch"]
[Date "2025.11.03"]
[White "Player, A"]
[Black "Player, B"]
[Result "0-0"]

0-0

[Event "Placeholder Club Ch"]
[Date "2025.11.04"]
[White "Player, A"]
[Black "Player, C"]
[Result "1-0"]

1-0

[Event "Placeholder Club Ch"]
[Date "2025.11.05"]
[White "Player, E"]
[Black "Player, A"]
[Result "*"]

1. e4 e5 2. Nf3 *

[Event "Placeholder Club Ch"]
[Date "2025.11.06"]
[White "Player, A"]
[Black "Player, F"]
[Result "1-0"]

1. e4 1-0

[Event "Placeholder Club Ch"]
[Date "2025.11.07"]
[White "Player, D"]
[Black "Player, A"]
[Result "1/2-1/2"]

1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 1/2-1/2

[Event "Placeholder Club Ch"]
[Date "2025.11.08"]
[White "Player, D"]
[Black "Player, B"]
[Result "0.5-0.5"]

1. d4 d5 2. c4 e6 0.5-0.5
"""
# Counted by hand: each game is 5 tags + blank + moves + blank = 8 lines, so G1..G6 start on lines
# 1, 9, 17, 25, 33, 41 and their Result tags are on lines 5, 13, 21, 29, 37, 45.


@pytest.fixture
def c23(tmp_path: Path) -> PgnReadout:
    return read_pgn_file(write(tmp_path, C23))


def test_c23_only_g2_g4_g5_are_games_and_only_g5_was_played(c23: PgnReadout) -> None:
    assert [(g.line, g.white, g.black, g.result, g.played) for g in c23.games] == [
        (9, "Player, A", "Player, C", Result.WHITE_FORFEIT_WIN, False),
        (25, "Player, A", "Player, F", Result.WHITE_WINS, False),
        (33, "Player, D", "Player, A", Result.DRAW, True),
    ]


def test_c23_g1_double_forfeit_0_0_is_an_error_on_its_result_line(c23: PgnReadout) -> None:
    assert (
        5,
        "error",
        "0-0 is a double forfeit or unplayed game; record it with `ledger game add ... -/-`",
    ) in problems_at(c23, "Result")
    # python-chess reads the movetext "0-0" as castling, illegal in the initial position.
    g1_moves = [p for p in c23.problems if p.field == "moves" and p.line == 7]
    assert [p.severity for p in g1_moves] == ["warning"]
    assert "0-0" in g1_moves[0].message


def test_c23_g2_no_moves_is_a_forfeit_with_a_warning(c23: PgnReadout) -> None:
    assert (13, "warning", "no moves: recorded as a forfeit, not rated") in problems_at(c23, "Result")


def test_c23_g3_unfinished_is_an_error_on_its_result_line(c23: PgnReadout) -> None:
    assert (21, "error", "unfinished game (*): not a result") in problems_at(c23, "Result")


def test_c23_g4_black_never_moved_is_not_played(c23: PgnReadout) -> None:
    message = "fewer than one move each: not rated (FIDE B.02 §5.1)"
    assert (29, "warning", message) in problems_at(c23, "Result")


def test_c23_g6_half_point_notation_is_refused_not_guessed(c23: PgnReadout) -> None:
    [(line, severity, message)] = [p for p in problems_at(c23, "Result") if p[0] == 45]
    assert (line, severity) == (45, "error")
    assert "0.5-0.5" in message and "1-0, 0-1 or 1/2-1/2" in message


def test_c23_problems_are_exactly_these(c23: PgnReadout) -> None:
    assert [(p.line, p.severity, p.field) for p in c23.problems] == [
        (5, "error", "Result"),
        (7, "warning", "moves"),
        (13, "warning", "Result"),
        (21, "error", "Result"),
        (29, "warning", "Result"),
        (45, "error", "Result"),
    ]
    assert all(p.file == str(p.file) and p.file.endswith("games.pgn") for p in c23.problems)


def test_c23_g5_draw_by_half_symbols_is_a_draw(tmp_path: Path) -> None:
    readout = game_with(tmp_path, **{'"1-0"': '"½-½"', " 1-0\n": " ½-½\n"})
    assert readout.problems == []
    assert readout.games[0].result is Result.DRAW


NO_MOVES_PAIR = ('[Date "2025.11.01"][White "A"][Black "B"][Result "1/2-1/2"]\n\n1/2-1/2\n\n'
                 '[Date "2025.11.01"][White "C"][Black "D"][Result "0-1"]\n\n0-1\n')


def test_no_moves_draw_and_0_1_forfeit(tmp_path: Path) -> None:
    # --no-moves forfeit: the two games without moves are not rated (B.02 §5.1), as before
    readout = read_pgn_file(write(tmp_path, one_tag_per_line(NO_MOVES_PAIR)), "forfeit")
    assert [(g.result, g.played) for g in readout.games] == [
        (Result.DRAW, False),
        (Result.BLACK_FORFEIT_WIN, False),
    ]
    assert [(p.line, p.severity) for p in readout.problems] == [(4, "warning"), (11, "warning")]
    assert readout.problems[1].message == "no moves: recorded as a forfeit, not rated"
    assert readout.notes == []


def test_a_file_without_any_moves_is_a_results_file(tmp_path: Path) -> None:
    # no game of the file has moves: a club's results file; both games are played games
    readout = read_pgn_file(write(tmp_path, one_tag_per_line(NO_MOVES_PAIR)))
    assert [(g.result, g.played, g.moves) for g in readout.games] == [
        (Result.DRAW, True, False),
        (Result.BLACK_WINS, True, False),
    ]
    assert readout.problems == []
    assert readout.notes == ["no game in this file has moves: a results file; its 2 games are "
                             "played games, rated (--no-moves forfeit records them as forfeits)"]


def test_a_game_without_moves_among_games_with_moves_is_a_forfeit(tmp_path: Path) -> None:
    # the Tata Steel rule: a third game with moves makes the two without moves forfeits, each
    # warned on its Result line (4 and 11); --no-moves played takes them as played all the same
    played = '\n[Date "2025.11.01"][White "E"][Black "F"][Result "1-0"]\n\n1. e4 e5 1-0\n'
    path = write(tmp_path, one_tag_per_line(NO_MOVES_PAIR + played))
    readout = read_pgn_file(path)
    assert [(g.result, g.played) for g in readout.games] == [
        (Result.DRAW, False), (Result.BLACK_FORFEIT_WIN, False), (Result.WHITE_WINS, True)]
    assert [(p.line, p.field, p.severity) for p in readout.problems] == [
        (4, "Result", "warning"), (11, "Result", "warning")]
    assert readout.notes == []
    forced = read_pgn_file(path, "played")
    assert [(g.result, g.played) for g in forced.games] == [
        (Result.DRAW, True), (Result.BLACK_WINS, True), (Result.WHITE_WINS, True)]
    assert forced.problems == []
    assert forced.notes == ["--no-moves played: 2 games without moves taken as played games, "
                            "rated"]


@pytest.mark.parametrize("token", ["+/-", "-/-", "1:0", "1-0 ", "draw", ""])
def test_other_result_tokens_are_errors(tmp_path: Path, token: str) -> None:
    readout = game_with(tmp_path, **{'[Result "1-0"]': f'[Result "{token}"]'})
    if token == "1-0 ":  # surrounding blanks are not part of the value
        assert readout.errors == [] and readout.games[0].result is Result.WHITE_WINS
        return
    assert readout.games == []
    assert [(p.line, p.field) for p in readout.errors] == [(7, "Result")]


def test_missing_result_tag_is_an_error_even_if_the_moves_end_with_one(tmp_path: Path) -> None:
    readout = game_with(tmp_path, **{'[Result "1-0"]\n': ""})
    assert readout.games == []
    assert [(p.line, p.field) for p in readout.errors] == [(1, "Result")]


def test_moves_ending_with_another_result_than_the_tag_is_an_error(tmp_path: Path) -> None:
    readout = game_with(tmp_path, **{"Nc6 1-0": "Nc6 0-1"})
    assert readout.games == []
    [error] = readout.errors
    assert (error.line, error.field) == (9, "Result")
    assert "0-1" in error.message and "1-0" in error.message


def test_null_moves_do_not_count_as_moves(tmp_path: Path) -> None:
    readout = game_with(tmp_path, **{"1. e4 e5 2. Nf3 Nc6": "1. e4 -- 2. d4 --"})
    assert [(g.result, g.played) for g in readout.games] == [(Result.WHITE_WINS, False)]
    assert [p.message for p in readout.warnings] == ["fewer than one move each: not rated (FIDE B.02 §5.1)"]


def test_illegal_move_is_a_warning_on_its_line_when_both_sides_had_moved(tmp_path: Path) -> None:
    readout = game_with(tmp_path, **{"2. Nf3 Nc6": "2. Nf3 Ke7 3. Ng5 Kd5 4. Qh5"})
    assert [(g.played, g.result) for g in readout.games] == [(True, Result.WHITE_WINS)]
    [warning] = readout.problems
    assert (warning.line, warning.field, warning.severity) == (9, "moves", "warning")
    assert "Kd5" in warning.message


def test_a_token_that_is_not_san_is_skipped_silently_by_python_chess(tmp_path: Path) -> None:
    # "Kxe9" does not even look like a move, so python-chess drops it without an error and reads
    # "4. Qh5" as Black's move, which is illegal: the warning names Qh5, not Kxe9.
    readout = game_with(tmp_path, **{"2. Nf3 Nc6": "2. Nf3 Ke7 3. Ng5 Kxe9 4. Qh5"})
    assert [g.played for g in readout.games] == [True]
    assert [(p.line, p.field) for p in readout.problems] == [(9, "moves")]
    assert "'Qh5'" in readout.problems[0].message


def test_unreadable_first_move_with_a_result_is_an_error_not_a_forfeit(tmp_path: Path) -> None:
    readout = game_with(tmp_path, **{"1. e4 e5 2. Nf3 Nc6": "1. e5 e4"})
    assert readout.games == []
    assert [(p.line, p.field, p.severity) for p in readout.problems] == [
        (9, "moves", "warning"),
        (9, "moves", "error"),
    ]


# --------------------------------------------------------------------------------------------
# Dates


@pytest.mark.parametrize(
    "value",
    ["2025.11.??", "????.??.??", "2025.??.??", "2025.02.30", "2025-11-05", "05.11.2025", "", "?"],
)
def test_a_date_that_is_not_complete_and_valid_is_an_error_on_its_line(tmp_path: Path, value: str) -> None:
    readout = game_with(tmp_path, **{'[Date "2025.11.05"]': f'[Date "{value}"]'})
    assert readout.games == []
    assert [(p.line, p.field, p.severity) for p in readout.problems] == [(3, "Date", "error")]


def test_missing_date_is_an_error_on_the_game_line(tmp_path: Path) -> None:
    readout = game_with(tmp_path, **{'[Date "2025.11.05"]\n': ""})
    assert readout.games == []
    assert [(p.line, p.field) for p in readout.errors] == [(1, "Date")]


def test_event_date_is_used_only_when_complete(tmp_path: Path) -> None:
    assert game_with(tmp_path, '[EventDate "2025.11.01"]').games[0].event_date == dt.date(2025, 11, 1)
    readout = game_with(tmp_path, '[EventDate "2025.11.??"]')
    assert readout.games[0].event_date is None
    assert [(p.line, p.field, p.severity) for p in readout.problems] == [(8, "EventDate", "warning")]
    for unknown in ("????.??.??", "?", ""):
        readout = game_with(tmp_path, f'[EventDate "{unknown}"]')
        assert readout.games[0].event_date is None and readout.problems == []


# --------------------------------------------------------------------------------------------
# Names, ratings, ids, titles, event, round


@pytest.mark.parametrize("value", ["", "?", "   "])
def test_white_without_a_name_is_an_error(tmp_path: Path, value: str) -> None:
    readout = game_with(tmp_path, **{'"Player, A"': f'"{value}"'})
    assert readout.games == []
    assert [(p.line, p.field) for p in readout.errors] == [(5, "White")]


def test_missing_black_is_an_error_on_the_game_line(tmp_path: Path) -> None:
    readout = game_with(tmp_path, **{'[Black "Player, B"]\n': ""})
    assert [(p.line, p.field) for p in readout.errors] == [(1, "Black")]


def test_a_player_against_themselves_is_an_error(tmp_path: Path) -> None:
    readout = game_with(tmp_path, **{'"Player, B"': '" player, a "'})
    assert readout.games == []
    assert [(p.line, p.field) for p in readout.errors] == [(6, "Black")]


def test_names_are_stripped(tmp_path: Path) -> None:
    game = game_with(tmp_path, **{'"Player, A"': '"  Player, A "'}).games[0]
    assert game.white == "Player, A"


@pytest.mark.parametrize(
    ("value", "expected"), [("2100", 2100), ("0", None), ("", None), ("?", None), ("-", None)]
)
def test_elo_values_without_problems(tmp_path: Path, value: str, expected: int | None) -> None:
    readout = game_with(tmp_path, f'[WhiteElo "{value}"]')
    assert readout.problems == []
    assert readout.games[0].white_elo == expected


@pytest.mark.parametrize(("value", "quoted"), [
    ("2100a", "'2100a'"), ("-1500", "'-1500'"), ("21 00", "'21 00'"), ("²¹⁰⁰", "'²¹⁰⁰'"),
    ("abc", "'abc'"), ("-5", "'-5'"), ("99999", "'99999'"), ("2700.5", "'2700.5'"),
    ("1" * 5000, f"'{'1' * 60}'... (5000 characters)"),
])
def test_elo_text_that_is_not_a_rating_is_an_error(tmp_path: Path, value: str,
                                                   quoted: str) -> None:
    # issue 22 §4: as the TRF reader and the players CSV refuse it (a warning registered the
    # player unrated with --register-players)
    readout = game_with(tmp_path, f'[BlackElo "{value}"]')
    assert readout.games == []
    assert [(p.line, p.field, p.severity, p.message) for p in readout.problems] == [
        (8, "BlackElo", "error",
         f"{quoted} is not a rating (a whole number, at most 4 digits; empty, ?, - or 0: none)")
    ]


def test_fide_ids(tmp_path: Path) -> None:
    game = game_with(tmp_path, '[WhiteFideId "1503014"]\n[BlackFideId "0"]').games[0]
    assert (game.white_fide_id, game.black_fide_id) == (1503014, None)
    readout = game_with(tmp_path, '[WhiteFideId "?"]\n[BlackFideId "FIDE-42"]')
    assert readout.games == []
    assert [(p.line, p.field, p.severity, p.message) for p in readout.problems] == [
        (9, "BlackFideId", "error",
         "'FIDE-42' is not a FIDE id (digits only, at most 10; empty, ?, - or 0: none)")]


def test_titles_event_site_round(tmp_path: Path) -> None:
    game = game_with(tmp_path, '[WhiteTitle "IM"]\n[BlackTitle "-"]').games[0]
    assert (game.white_title, game.black_title) == ("IM", None)
    assert (game.event, game.site, game.round) == ("Placeholder Club Ch", "Placeholder", "1")
    game = game_with(
        tmp_path, **{'"Placeholder Club Ch"': '"?"', '"Placeholder"': '""', '"1"]': '"-"]'}
    ).games[0]
    assert (game.event, game.site, game.round, game.white_title) == (None, None, None, None)
    game = game_with(tmp_path, **{'[Round "1"]\n': "", '[Event "Placeholder Club Ch"]\n': ""}).games[0]
    assert (game.event, game.round, game.line) == (None, None, 1)


def test_escaped_quotes_in_a_tag_value(tmp_path: Path) -> None:
    game = game_with(tmp_path, **{'"Player, A"': r'"O\"Brien, \\Pat"'}).games[0]
    assert game.white == 'O"Brien, \\Pat'


def test_conflicting_duplicate_tag_is_an_error(tmp_path: Path) -> None:
    same = game_with(tmp_path, '[Result "1-0"]')
    assert same.problems == [] and len(same.games) == 1
    readout = game_with(tmp_path, '[Result "0-1"]')  # line 8; the moves (line 10) end with 1-0
    assert readout.games == []
    assert [(p.line, p.field) for p in readout.errors] == [(8, "Result"), (10, "Result")]


def test_a_malformed_tag_line_is_a_warning(tmp_path: Path) -> None:
    readout = game_with(tmp_path, "[Annotator no quotes]")
    assert len(readout.games) == 1
    assert [(p.line, p.field, p.severity) for p in readout.problems] == [(8, "tags", "warning")]


# --------------------------------------------------------------------------------------------
# File shape: line numbers, BOM, line endings, separators, encodings, garbage


def test_blank_lines_and_comment_lines_before_a_game_do_not_shift_its_line(tmp_path: Path) -> None:
    text = "\n\n% escape line\n; comment line\n\n" + GAME.replace("{extra}", "")
    text += "\n\n\n" + GAME.replace("{extra}", "")
    readout = read_pgn_file(write(tmp_path, text))
    # 5 lines before game 1 (lines 6-14: 7 tags, blank, moves), then 3 blank lines after it.
    assert readout.problems == []
    assert [g.line for g in readout.games] == [6, 18]


def test_a_byte_order_mark_does_not_hide_the_first_game(tmp_path: Path) -> None:
    text = GAME.replace("{extra}", "")
    path = tmp_path / "bom.pgn"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    readout = read_pgn_file(path)
    assert readout.problems == []
    assert [(g.line, g.event, g.white) for g in readout.games] == [(1, "Placeholder Club Ch", "Player, A")]
    # the same through a handle that kept the BOM as a character
    handle = io.StringIO("\ufeff" + text)
    assert read_pgn(handle, "bom.pgn").games == readout.games


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_crlf_and_cr_line_endings_read_like_lf(tmp_path: Path, newline: str) -> None:
    lf = read_pgn_file(write(tmp_path, C23, "lf.pgn"))
    other = read_pgn_file(write(tmp_path, C23, "other.pgn", newline))
    assert other.games == lf.games
    assert [(p.line, p.field, p.message) for p in other.problems] == [
        (p.line, p.field, p.message) for p in lf.problems
    ]
    # and through a handle opened without newline translation
    with open(tmp_path / "other.pgn", encoding="utf-8", newline="") as handle:
        assert read_pgn(handle, "other.pgn").games == lf.games


@pytest.mark.parametrize("text", ["", "\n\n  \n", "\ufeff"])
def test_an_empty_file_gives_no_games_and_no_problems(tmp_path: Path, text: str) -> None:
    assert read_pgn_file(write(tmp_path, text)) == PgnReadout([], [])


def test_a_missing_blank_line_between_games_is_an_error(tmp_path: Path) -> None:
    game = GAME.replace("{extra}", "")
    readout = read_pgn_file(write(tmp_path, game + game))  # game 2 starts on line 10
    # python-chess reads game 2's tags (lines 10-16) as part of game 1's moves and skips them;
    # game 2's moves (line 18) then come out as a game without tags.
    assert readout.games == []
    assert [(p.line, p.field, p.severity) for p in readout.problems] == [
        (10, "tags", "error"),
        (18, "tags", "error"),
    ]


def test_two_blank_lines_between_tags_and_moves_split_the_game(tmp_path: Path) -> None:
    readout = read_pgn_file(write(tmp_path, GAME.replace("{extra}", "\n")))
    # python-chess ends the tags at the second blank line: the tags alone are a game without
    # moves (a forfeit, as the rules above say) and the moves are a game without tags (an error,
    # so an import of this file is refused as a whole).
    assert [(g.line, g.result) for g in readout.games] == [(1, Result.WHITE_FORFEIT_WIN)]
    assert [(p.line, p.field, p.severity) for p in readout.problems] == [
        (7, "Result", "warning"),  # the tags alone: a game with no moves
        (10, "tags", "error"),  # the moves alone: no tags
    ]


def test_moves_without_tags_are_an_error(tmp_path: Path) -> None:
    readout = read_pgn_file(write(tmp_path, "1. e4 e5 2. Nf3 1-0\n"))
    assert readout.games == []
    assert [(p.line, p.field, p.severity) for p in readout.problems] == [(1, "tags", "error")]


def test_undecodable_bytes_are_an_encoding_error_with_their_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.pgn"
    path.write_bytes(GAME.replace("{extra}", "").replace("Player, B", "Müller").encode("latin-1"))
    readout = read_pgn_file(path)
    assert readout.games == []
    assert [(p.file, p.line, p.field, p.severity) for p in readout.problems] == [
        (str(path), 6, "encoding", "error")
    ]


def test_a_binary_looking_file_does_not_raise(tmp_path: Path) -> None:
    path = tmp_path / "binary.pgn"
    path.write_bytes(bytes(range(256)) * 4)
    readout = read_pgn_file(path)
    assert readout.games == [] and readout.errors


def test_random_text_gives_problems_not_games(tmp_path: Path) -> None:
    readout = read_pgn_file(write(tmp_path, "Dear arbiter,\nplease find the games attached.\n"))
    assert readout.games == []
    assert [(p.line, p.field) for p in readout.errors] == [(1, "tags")]


PGN_PIECES = [
    "[",
    "]",
    '"',
    "\\",
    "{",
    "}",
    "(",
    ")",
    ";",
    "%",
    "\n",
    "\r",
    "\r\n",
    " ",
    "\ufeff",
    "\x00",
    '[Event "E"]',
    '[Date "2025.11.05"]',
    '[Date "2025.11.??"]',
    '[White "A"]',
    '[Black "B"]',
    '[White "B"]',
    '[Result "1-0"]',
    '[Result "*"]',
    '[Result "0-0"]',
    '[Result "½-½"]',
    '[WhiteElo "2100a"]',
    '[BlackFideId "12"]',
    '[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]',
    '[FEN "garbage"]',
    '[Variant "nonsense"]',
    '[SetUp "1"]',
    "1.",
    "e4",
    "e5",
    "Nf3",
    "--",
    "0-0",
    "O-O",
    "Kz9",
    "$1",
    "!?",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
]


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_text_never_raises(text: str) -> None:
    readout = read_pgn(io.StringIO(text), "fuzz.pgn")
    assert all(p.severity in ("error", "warning") for p in readout.problems)
    assert all(p.line is None or p.line >= 1 for p in readout.problems)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PGN_PIECES), max_size=60))
def test_pgn_like_token_soup_never_raises(pieces: list[str]) -> None:
    text = " ".join(pieces)
    readout = read_pgn(io.StringIO(text), "fuzz.pgn")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    assert all(p.line is None or 1 <= p.line <= lines for p in readout.problems)
    for game in readout.games:
        assert 1 <= game.line <= lines
        assert game.white and game.black and game.white.casefold() != game.black.casefold()


def test_a_file_cut_short_is_an_error_on_its_last_game(tmp_path: Path) -> None:
    whole = one_tag_per_line(
        '[Date "2025.11.01"][White "A"][Black "B"][Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n'
        '[Date "2025.11.02"][White "C"][Black "D"][Result "0-1"]\n\n1. d4 d5 2. c4 dxc4 0-1\n'
    )
    # the second game starts on line 8 (4 tags, a blank, the moves and a blank are lines 1-7)
    lines = whole.splitlines()
    assert lines[7] == '[Date "2025.11.02"]'
    cut_in_moves = "\n".join(lines[:-1]) + "\n1. d4 d5 2. c4"
    cut_after_tags = "\n".join(lines[:11]) + "\n"  # all four tags, no moves: not a forfeit
    for text in (cut_in_moves, cut_after_tags):
        readout = read_pgn_file(write(tmp_path, text))
        assert [g.white for g in readout.games] == ["A"]
        assert [(p.field, p.severity) for p in readout.errors] == [("moves", "error")]
        assert "cut short" in readout.errors[0].message
        assert readout.errors[0].line is not None and readout.errors[0].line >= 8
    cut_in_a_tag = "\n".join(lines[:10]) + '\n[Result "0-'
    readout = read_pgn_file(write(tmp_path, cut_in_a_tag))
    assert [g.white for g in readout.games] == ["A"]
    # the Result tag line cut short (issue 22 §4: an error naming it), so no Result tag
    assert [(p.line, p.field) for p in readout.errors] == [(8, "Result"), (11, "Result")]
    assert [g.white for g in read_pgn_file(write(tmp_path, whole)).games] == ["A", "C"]
