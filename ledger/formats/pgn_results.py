"""A PGN game's result checked against its moves (pure).

Sources: the PGN standard (Steven J. Edwards, 1994: result tokens ``1-0``, ``0-1``, ``1/2-1/2``
and ``*`` §8.2.6, the game termination marker after the moves) and FIDE Rating Regulations B.02
§5.1 (a game counts only when both players have made at least one move; forfeits are never
rated). The moves are those python-chess read (``ledger.formats.pgn_lines``).
"""

from __future__ import annotations

import chess

from ledger.domain import Result
from ledger.formats.pgn_lines import Builder, Collector

__all__ = ["CUT_SHORT", "DOUBLE_FORFEIT", "NO_MOVES_DRAW", "NO_MOVES_FORFEIT",
           "NO_TERMINATION", "ONE_SIDE_MOVED", "UNFINISHED", "check_result", "results_file_note",
           "without_moves"]

_PGN_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2"})

NO_MOVES_FORFEIT = "no moves: recorded as a forfeit, not rated"
NO_MOVES_DRAW = "no moves: a draw without play, not rated (FIDE B.02 §5.1)"
ONE_SIDE_MOVED = "fewer than one move each: not rated (FIDE B.02 §5.1)"
UNFINISHED = "unfinished game (*): not a result"
DOUBLE_FORFEIT = "0-0 is a double forfeit or unplayed game; record it with `ledger game add ... -/-`"
NO_TERMINATION = ("the moves end without a game termination marker (1-0, 0-1, 1/2-1/2 or *), "
                  "as every PGN game must: is the file cut short?")
CUT_SHORT = ("the file ends inside this game, with no game termination marker (1-0, 0-1, "
             "1/2-1/2 or *) after its moves, as every PGN game must have: is the file cut short?")


def check_result(out: Collector, builder: Builder) -> tuple[Result | None, bool]:
    """The Result tag, checked against the moves (PGN §8.2.6; FIDE B.02 §5.1).

    Returns ``(result, played)``; ``played`` is False when a side never moved: one side only
    moved (not rated, with a warning), or no move at all (the Result tag's own result, without a
    warning: whether such a game was played is the file's question, ``without_moves``).
    ``(None, False)``, with an error in ``out``, for a missing Result tag, ``*``, ``0-0``, a
    token that is not a PGN result, or moves that could not all be read (when not both sides
    are seen to move); moves that end with another result than the tag's are an error too."""
    raw = out.value("Result")
    if raw is None:
        out.error("Result", "missing Result tag; use 1-0, 0-1 or 1/2-1/2")
        return None, False
    token = raw.replace("½", "1/2")
    if token == "*":
        out.error("Result", UNFINISHED)
        return None, False
    if token == "0-0":
        out.error("Result", DOUBLE_FORFEIT)
        return None, False
    if token not in _PGN_RESULTS:
        message = f"Result tag {raw!r} is not a PGN result; use 1-0, 0-1 or 1/2-1/2 (or ½-½)"
        out.error("Result", message)
        return None, False
    for line, ending in builder.terminations:
        if ending != token:
            message = f"the moves end with {ending} but the Result tag says {raw}"
            out.error("Result", message, line)

    movers = builder.mainline_movers
    both_moved = chess.WHITE in movers and chess.BLACK in movers
    if both_moved:
        return Result(token), True
    if builder.errors_at:
        message = "the moves could not all be read, so whether both players moved is unknown"
        out.error("moves", message, builder.errors_at[0][0])
        return None, False
    if movers:
        out.warning("Result", ONE_SIDE_MOVED)
        return Result(token), False
    return Result(token), False


def without_moves(result: Result, *, played: bool) -> tuple[Result, str | None]:
    """A game without moves (its Result tag's ``result``: ``1-0``, ``0-1`` or ``1/2-1/2``) as
    the ledger records it, and the warning it gives (None: none).

    ``played``: the game was played and only its result written (a results file, or
    ``--no-moves played``): ``result`` as it stands, rated. Otherwise (a file whose other games
    have moves, FIDE B.02 §5.1: a game counts only when both players moved, as the Tata Steel
    2022 file's forfeits show) ``1-0`` / ``0-1`` become ``WHITE_FORFEIT_WIN`` /
    ``BLACK_FORFEIT_WIN`` and ``1/2-1/2`` a draw without play, never rated."""
    if played:
        return result, None
    if result is Result.WHITE_WINS:
        return Result.WHITE_FORFEIT_WIN, NO_MOVES_FORFEIT
    if result is Result.BLACK_WINS:
        return Result.BLACK_FORFEIT_WIN, NO_MOVES_FORFEIT
    return result, NO_MOVES_DRAW


def results_file_note(count: int, mode: str | None) -> str:
    """The note of a file whose ``count`` games without moves are taken as played (``mode``:
    ``--no-moves``, None when the file decided: no game of it has moves)."""
    if mode is None:
        games = ("its game is a played game, rated (--no-moves forfeit records it as a forfeit)"
                 if count == 1 else f"its {count} games are played games, rated (--no-moves "
                 "forfeit records them as forfeits)")
        return f"no game in this file has moves: a results file; {games}"
    return (f"--no-moves played: {count} game{'s' if count != 1 else ''} without moves taken "
            "as played games, rated")
