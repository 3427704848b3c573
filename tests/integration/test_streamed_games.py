"""``streamed_rated_games`` and ``streamed_game_values`` (a list's bundle reads its games a few
at a time, as values): the same games, in the same order and with the same ratings, and the same
histories, as ``load_rated_games`` gives with the same ``known``, on the README's season
(standard, rapid, blitz) and Tata Steel, read two rows at a time."""

from __future__ import annotations

import pytest

from ledger.domain import Period, parse_pool
from ledger.services.close.rated_games import (
    load_rated_games,
    streamed_game_values,
    streamed_rated_games,
)
from ledger.services.close.state import load_histories
from ledger.services.core.session import open_ledger, transaction


@pytest.mark.parametrize(("which", "name", "period", "games"), [
    ("season_db", "standard", "2026-10", 7), ("season_db", "rapid", "2026-10", 4),
    ("season_db", "blitz", "2026-10", 6), ("tata_db", "standard", "2022-01", 91)])
def test_the_streamed_games_are_load_rated_games(which: str, name: str, period: str,
                                                 games: int,
                                                 request: pytest.FixtureRequest) -> None:
    engine = open_ledger(request.getfixturevalue(which))
    month, pool = Period.parse(period), parse_pool(name)
    try:
        with transaction(engine, write=False) as session:
            known = load_histories(session, None, through=month.previous(), pool=pool)
            loaded, histories = load_rated_games(
                session, lambda g: g.c.period == period, through=month.previous(), pool=pool,
                known=known)
            read, streamed = streamed_rated_games(
                session, lambda g: g.c.period == period, through=month.previous(), pool=pool,
                known=known, batch=2)
            again = list(streamed)
            read_too, values = streamed_game_values(
                session, lambda g: g.c.period == period, through=month.previous(), pool=pool,
                known=known, batch=2)
            as_values = list(values)
    finally:
        engine.dispose()
    assert len(again) == games  # Tata Steel: 14 players, 13 rounds
    assert [(g.rated, tuple(g.game), g.event_name, g.event_start, g.event_end) for g in again] \
        == [(g.rated, tuple(g.game), g.event_name, g.event_start, g.event_end) for g in loaded]
    assert read.keys() == histories.keys()
    assert all(read[pid] is histories[pid] for pid in read)
    r = [g.rated for g in loaded]
    assert as_values == [(g.game_id, g.event_key, game.game.date, g.white_id, g.black_id,
                          g.white_rating, g.black_rating, g.result.value, g.played,
                          g.unequal_times) for g, game in zip(r, loaded, strict=True)]
    assert [tuple(map(type, v)) for v in as_values] == [
        (int, type(g.event_key), type(game.game.date), int, int, type(g.white_rating),
         type(g.black_rating), str, bool, bool) for g, game in zip(r, loaded, strict=True)]
    assert read_too.keys() == histories.keys()
