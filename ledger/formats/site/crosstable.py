"""An event's crosstable (``event.html``): its round columns and each player's cells."""

from __future__ import annotations

from dataclasses import dataclass

from ledger.formats.site.model import EventPage, PlayedGame


@dataclass(frozen=True)
class Round:
    """One round column: its ``key`` (None: games without a round) and heading."""

    key: str | None
    label: str


def _round_key(game: PlayedGame) -> str | None:
    """The round a game belongs to: ``3`` for ``3`` and for PGN's ``3.1`` (round 3, board 1)."""
    return game.round.split(".")[0] if game.round else None


def _round_order(key: str | None) -> tuple[int, int, str]:
    if key is None:
        return (2, 0, "")
    return (0, int(key), "") if key.isdigit() else (1, 0, key)


def crosstable(page: EventPage) -> tuple[list[Round], dict[int, list[str]]]:
    """The crosstable's round columns and each player's cells (by player id): in each round
    the opponent's number, ``w`` or ``b`` and the result (``5w1``; two games in one round, or
    games without a round under "other", separated by a blank)."""
    number = {line.player_id: line.number for line in page.lines}
    keys = sorted({_round_key(g) for line in page.lines for g in line.games}, key=_round_order)
    rounds = [Round(k, "other" if k is None else f"R{k}" if k.isdigit() else k) for k in keys]
    cells: dict[int, list[str]] = {}
    for line in page.lines:
        by_round: dict[str | None, list[str]] = {}
        for g in line.games:
            by_round.setdefault(_round_key(g), []).append(
                f"{number.get(g.opponent_id, '?')}{g.colour[0]}{g.symbol}")
        cells[line.player_id] = [" ".join(by_round.get(r.key, [])) for r in rounds]
    return rounds, cells
