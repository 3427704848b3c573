"""Orders users see are the ledger's, not the server's collation (``ledger.db.order``): names
by their key compared by code point, then id, in the player list, the event list, the rating
list's ties, the close and period reports' ties, the TRF export's ties and the game list.

The names are ones a linguistic collation puts elsewhere: ``ə`` (U+0259, Azerbaijani) and ``ŋ``
(U+014B) stay in their keys (``ledger.names`` writes only the letters FIDE's lists spell out), so
by code point ``mitchell`` < ``məmmədov`` and ``ŋgugi`` comes after ``zhou``, where ICU's en-US
(the PostgreSQL CI server's default, or the database ``icu_database`` makes) puts ``məmmədov``
first and ``ŋgugi`` after ``nzinga``. The expected orders are written out by hand from the code
points.
"""

from __future__ import annotations

import pytest
from ledgers import Factory
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from ledger.services.admin.setup import init_ledger
from ledger.services.close.periods import close_period
from ledger.services.core.session import open_ledger
from ledger.services.publishing.exports import export_trf
from ledger.services.publishing.lists import rating_list
from ledger.services.publishing.reports import period_report
from ledger.services.register.events import list_events
from ledger.services.register.game_views import list_games
from ledger.services.register.games import add_game
from ledger.services.register.player_views import list_players
from ledger.services.register.players import NewPlayer, add_player

#: By code point of their keys (m-i < m-ə; n < o < v-a-n-space < v-a-n-c < z < ŋ).
NAMES = ["Mitchell, Sam", "Məmmədov, Rauf", "Nzinga, Ada", "Okafor, Grace", "Van Dyke, Anna",
         "Vance, Bob", "Zhou, Li", "Ŋgugi, Wanjiru"]
#: The winners of the four games (each beats the player four places later): +10 each.
WINNERS = NAMES[:4]
LOSERS = NAMES[4:]


def _season(engine: Engine) -> None:
    """The eight players, all 1800 (K 20), registered in reverse order (ids against the key
    order), four games of one round in 2026-10, four events on one day, 2026-10 closed."""
    for name in reversed(NAMES):
        add_player(engine, NewPlayer(name, rating=1800, prior_games=100))
    for event in ("Zhou Trophy", "Ŋgugi Open", "Məmmədov Memorial", "Mitchell Cup"):
        add_game(engine, "Van Dyke, Anna", "Vance, Bob", "1/2-1/2", "2026-10-10", event, "1",
                 allow_similar=True)  # four events, four games: not one game entered again
    for winner, loser in zip(WINNERS, LOSERS, strict=True):
        add_game(engine, winner, loser, "1-0", "2026-10-17", "Autumn Open", "1")


def _check_orders(engine: Engine) -> None:
    _season(engine)
    assert [p.name for p in list_players(engine)] == NAMES
    # D = 0 -> PD .50: the winners +10 (1810), the losers -10 (1790); the four draws change
    # nothing (Van Dyke and Vance each draw four times and lose once: -10)
    closed = close_period(engine, "2026-10")
    assert [p.name for p in closed.players] == WINNERS + LOSERS
    listed = rating_list(engine, "2026-10")
    assert [(r.rank, r.name) for r in listed.rows] == [(1, n) for n in WINNERS] + [
        (5, n) for n in LOSERS]
    report = period_report(engine, "2026-10", top=4)
    assert [g.name for g in report.gains] == WINNERS
    assert [loss.name for loss in report.losses] == LOSERS
    assert [e.name for e in list_events(engine)] == [
        "Mitchell Cup", "Məmmədov Memorial", "Zhou Trophy", "Ŋgugi Open", "Autumn Open"]
    games = list_games(engine, "2026-10")
    assert [g.id for g in games] == sorted(g.id for g in games)  # by date, then id
    trf = export_trf(engine, "Autumn Open").text
    ranked = [line[14:47].strip() for line in trf.splitlines() if line.startswith("001")]
    assert ranked == NAMES  # the starting rank: rating (all 1800), then key and id


def test_orders_are_the_ledgers_on_the_runs_database(engine: Engine) -> None:
    _check_orders(engine)


def test_orders_are_the_ledgers_under_a_linguistic_collation(
        database_url: str | None, icu_database: str) -> None:
    engine = open_ledger(icu_database)
    try:
        with engine.connect() as conn:  # the server's own order is not the ledger's
            assert conn.execute(text(
                "SELECT 'məmmədov' < 'mitchell', 'ŋgugi' < 'okafor'")).one() == (True, True)
        _check_orders(engine)
    finally:
        engine.dispose()


@pytest.fixture
def icu_database(database_url: str | None, new_database: Factory) -> str:
    """A ledger in a database whose collation is ICU's en-US, whatever the server's default."""
    if database_url is None:
        pytest.skip("needs a PostgreSQL server: run with --database-url (bash .ci/postgres-tests)")
    url = new_database("icu")
    admin = create_engine(database_url, isolation_level="AUTOCOMMIT")
    name = make_url(url).database
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE "{name}"')
            conn.exec_driver_sql(f'CREATE DATABASE "{name}" TEMPLATE template0 '
                                 "LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'")
    finally:
        admin.dispose()
    init_ledger(url)
    return url
