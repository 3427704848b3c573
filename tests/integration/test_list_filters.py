"""``ledger list`` filters through the service: federation, sex, junior (by the list's year),
minimum games, and top N with ties sharing a rank."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from ledger.errors import InvalidInput
from ledger.services.close.periods import close_period
from ledger.services.publishing.lists import ListSelection, rating_list
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player


def player(engine: Engine, name: str, rating: int, **extra: object) -> None:
    add_player(engine, NewPlayer(name=name, rating=rating, prior_games=100, **extra))


@pytest.fixture
def listed(engine: Engine) -> Engine:
    """Six players; one November 2025 game; the 2025-11 list is in force from 1 Dec 2025."""
    player(engine, "Top, Tom", 2000, federation="ENG", sex="M", birth_year=1980)
    player(engine, "Equal, Eve", 1900, federation="IRL", sex="F", birth_year=2007)
    player(engine, "Equal, Ed", 1900, federation="ENG", sex="M", birth_year=2006)
    player(engine, "Low, Lia", 1800, federation="ENG", sex="F", birth_year=2008)
    player(engine, "Nobody, Known", 1700)
    player(engine, "Player, P", 1600, federation="ENG", sex="M", birth_year=1990)
    player(engine, "Player, Q", 1600, federation="ENG", sex="M", birth_year=1990)
    # D = 0 -> PD .50 each; draw: 0.5 - .50 = 0 -> no change; each has 1 game
    add_game(engine, "Player, P", "Player, Q", "1/2-1/2", "2025-11-05")
    close_period(engine, "2025-11")
    return engine


def names(engine: Engine, period: str | None = None, **selection: object) -> list[tuple[int, str]]:
    rl = rating_list(engine, period, ListSelection(**selection))  # type: ignore[arg-type]
    return [(r.rank, r.name) for r in rl.rows]


def test_no_filter_ties_share_a_rank(listed: Engine) -> None:
    # 2000; 1900 twice (rank 2, 2; by name: Ed before Eve); 1800 -> 4; 1700 -> 5; 1600 twice -> 6
    assert names(listed) == [(1, "Top, Tom"), (2, "Equal, Ed"), (2, "Equal, Eve"), (4, "Low, Lia"),
                             (5, "Nobody, Known"), (6, "Player, P"), (6, "Player, Q")]


def test_federation_and_sex_rank_within_the_selection(listed: Engine) -> None:
    assert names(listed, federation="IRL") == [(1, "Equal, Eve")]
    assert names(listed, sex="F") == [(1, "Equal, Eve"), (2, "Low, Lia")]
    assert names(listed, federation="ENG", sex="M") == [
        (1, "Top, Tom"), (2, "Equal, Ed"), (3, "Player, P"), (3, "Player, Q")]


def test_junior_boundary_is_the_list_year(listed: Engine) -> None:
    # The 2025-11 list is dated 1 December 2025: 2025 - 2007 = 18 -> junior; 2025 - 2006 = 19 ->
    # not; 2025 - 2008 = 17 -> junior; unknown birth year -> never.
    assert names(listed, junior=True) == [(1, "Equal, Eve"), (2, "Low, Lia")]
    # Closing 2025-12 publishes the list of 1 January 2026: 2026 - 2007 = 19 -> no longer.
    add_game(listed, "Player, P", "Player, Q", "1/2-1/2", "2025-12-05")
    close_period(listed, "2025-12")
    assert names(listed, junior=True) == [(1, "Low, Lia")]
    assert names(listed, "2025-11", junior=True) == [(1, "Equal, Eve"), (2, "Low, Lia")]


def test_min_games(listed: Engine) -> None:
    assert names(listed, min_games=1) == [(1, "Player, P"), (1, "Player, Q")]
    assert names(listed, min_games=2) == []
    assert len(names(listed, min_games=0)) == 7


def test_top_keeps_ties_at_the_edge(listed: Engine) -> None:
    assert names(listed, top=1) == [(1, "Top, Tom")]
    # rank 2 is shared by two players: both are in the top 2, and the top 3 adds nobody
    assert names(listed, top=2) == [(1, "Top, Tom"), (2, "Equal, Ed"), (2, "Equal, Eve")]
    assert names(listed, top=3) == [(1, "Top, Tom"), (2, "Equal, Ed"), (2, "Equal, Eve")]
    assert names(listed, top=4)[-1] == (4, "Low, Lia")
    # top applies after the other filters
    assert names(listed, sex="M", top=2) == [(1, "Top, Tom"), (2, "Equal, Ed")]


@pytest.mark.parametrize("bad, field", [({"sex": "X"}, "sex"), ({"federation": "EN"}, "federation"),
                                        ({"top": 0}, "top"), ({"min_games": -1}, "min-games")])
def test_bad_selection_names_the_field(bad: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidInput, match=field):
        ListSelection(**bad)  # type: ignore[arg-type]
