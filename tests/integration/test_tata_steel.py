"""The 84th Tata Steel Masters (Wijk aan Zee, January 2022) through the services, on real SQLite.

Data: examples/data/tata_steel_masters_2022.pgn (hlotze/pgn2tex, see examples/data/README.md): a
14-player round robin, 91 games, all players 2612 or higher, no pairing more than 400 apart.

Facts checked by hand in the file (grep -n):
- four games have no moves, only a result: line 1216 R7.7 Giri-Dubov 1-0 (Dubov refused to wear a
  mask), line 1918 R11.7 Rapport-Dubov 1-0, line 2081 R12.7 Dubov-Praggnanandhaa 0-1, line 2252
  R13.7 Carlsen-Dubov 1-0 (Dubov withdrew with COVID after round 10). FIDE B.02 §5.1: forfeits
  are not rated. So Dubov has 13 - 4 = 9 rated games and Giri, Rapport, Praggnanandhaa and
  Carlsen 12 each; everybody else 13.

Expected ratings are FIDE's own published figures (FIDE news, 2 March 2022, "Erigaisi, Nakamura and
Aronian move up in March rating list": Carlsen "earned 3 points in Tata Steel Masters", "an
11-point loss by Caruana in Tata Steel Masters", Van Foreest 2714 (+12)), each also worked by hand
below from table 8.1.2 (docs/RULES.md §3) and the Elo tags of the file. January 2022 was
Carlsen's, Caruana's and Van Foreest's only rated event that month. All players are >= 2400:
K 10 (B.02 §8.3.3), n <= 13 so the 700 cap (10 x 13 = 130) never applies.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from data_files import data_file
from sqlalchemy import Engine, func, select, text

from ledger.db.models import Game, Player
from ledger.services.close.periods import close_period
from ledger.services.imports.games import import_pgn
from ledger.services.publishing.histories import history
from ledger.services.publishing.lists import rating_list
from ledger.services.register.game_views import list_games
from ledger.services.register.player_views import show_player

TABLES = ("players", "player_entries", "events", "games", "periods", "period_results",
          "period_audits")


@pytest.fixture
def tata() -> str:
    return str(data_file("tata_steel_masters_2022.pgn"))


def counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return {t: conn.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in TABLES}


@pytest.fixture
def closed(engine: Engine, tata: str):
    """The file imported with players registered and January 2022 closed."""
    imported = import_pgn(engine, tata, register_players=True)
    report = close_period(engine, "2022-01")
    return imported, report


def by_name(report) -> dict[str, object]:
    return {p.name: p for p in report.players}


def test_import_counts(engine: Engine, tata: str) -> None:
    report = import_pgn(engine, tata, register_players=True)
    assert report.games_in_file == 91  # 14 players round robin: 14 x 13 / 2 = 91
    assert report.recorded == 91
    assert report.already_recorded == 0
    assert len(report.players_registered) == 14
    assert len(set(report.players_registered)) == 14
    assert dict(report.not_rated) == {"forfeit": 4}  # lines 1216, 1918, 2081, 2252
    assert dict(report.periods) == {"2022-01": 91}
    assert [p for p in report.problems if p.severity == "error"] == []
    c = counts(engine)
    assert c["games"] == 91
    assert c["players"] == 14


def test_forfeits_recorded_not_rated(engine: Engine, tata: str) -> None:
    import_pgn(engine, tata, register_players=True)
    games = list_games(engine, period="2022-01")
    assert len(games) == 91
    unrated = sorted((g.round, g.white, g.black, g.result) for g in games if g.status == "forfeit")
    # From the file (grep -n 'Dubov' and the move-less games), White's point of view:
    assert unrated == [
        ("11.7", "Rapport, Richard", "Dubov, Daniil", "+/-"),       # line 1918
        ("12.7", "Dubov, Daniil", "Praggnanandhaa, R", "-/+"),      # line 2081
        ("13.7", "Carlsen, Magnus", "Dubov, Daniil", "+/-"),        # line 2252
        ("7.7", "Giri, Anish", "Dubov, Daniil", "+/-"),             # line 1216
    ]


def test_close_edition_k_and_games(closed) -> None:
    _, report = closed
    assert report.period == "2022-01"
    assert report.edition == "2022-01"  # Jan 2022 - Feb 2024 rules (RULES §8)
    assert report.games == 91
    assert dict(report.not_rated) == {"forfeit": 4}
    players = by_name(report)
    assert len(players) == 14
    for name, p in players.items():
        assert p.result.k == 10, name  # every rating >= 2400 -> K 10
        assert p.result.k_reason.value == "reached-2400", name
        assert not p.result.k_capped, name
    twelve = {"Giri, Anish", "Rapport, Richard", "Praggnanandhaa, R", "Carlsen, Magnus"}
    games = {name: p.result.n for name, p in players.items()}
    expected = {name: 13 for name in players}
    expected["Dubov, Daniil"] = 9  # 13 rounds - 4 forfeits (R7, R11, R12, R13)
    for name in twelve:
        expected[name] = 12  # each received one of Dubov's forfeits
    assert games == expected
    # every game counted twice (once per player): (91 - 4) x 2 = 174
    assert sum(games.values()) == 174


def test_carlsen_fide_published(closed) -> None:
    # Carlsen 2865, his 12 rated games (opponent Elo from the tags; D = 2865 - opp; PD table 8.1.2):
    #  R1  Esipenko    2714 draw  D 151 -> .70  S-PD -.20
    #  R2  Giri        2772 win   D  93 -> .63        +.37
    #  R3  Duda        2760 draw  D 105 -> .64        -.14
    #  R4  Van Foreest 2702 draw  D 163 -> .72        -.22
    #  R5  Grandelius  2672 draw  D 193 -> .75        -.25
    #  R6  Rapport     2763 win   D 102 -> .64        +.36
    #  R7  Praggnan.   2612 win   D 253 -> .81        +.19
    #  R8  Shankland   2708 draw  D 157 -> .71        -.21
    #  R9  Mamedyarov  2767 win   D  98 -> .63        +.37
    #  R10 Karjakin    2743 draw  D 122 -> .67        -.17
    #  R11 Vidit       2727 draw  D 138 -> .69        -.19
    #  R12 Caruana     2792 win   D  73 -> .60        +.40
    #  (R13 Dubov: forfeit, not rated)
    # score 5 wins + 7 draws = 8.5; sum PD = 8.19; sum S - PD = +0.31; K 10 -> +3.1 -> +3
    # FIDE: "earned 3 points in Tata Steel Masters", 2865 -> 2868.
    carlsen = by_name(closed[1])["Carlsen, Magnus"].result
    assert carlsen.rating_before == 2865
    assert carlsen.n == 12
    assert carlsen.score == Decimal("8.5")
    assert carlsen.expected == Decimal("8.19")
    assert carlsen.surplus == Decimal("0.31")
    assert carlsen.change_exact == Decimal("3.1")
    assert carlsen.change == 3
    assert carlsen.rating_after == 2868


def test_caruana_fide_published(closed) -> None:
    # Caruana 2792, 13 games:
    #  R1  Karjakin        2743 draw D  49 -> .57  -.07
    #  R2  Vidit           2727 draw D  65 -> .59  -.09
    #  R3  Shankland       2708 draw D  84 -> .62  -.12
    #  R4  Dubov           2720 draw D  72 -> .60  -.10
    #  R5  Esipenko        2714 draw D  78 -> .61  -.11
    #  R6  Giri            2772 loss D  20 -> .53  -.53
    #  R7  Duda            2760 win  D  32 -> .54  +.46
    #  R8  Van Foreest     2702 draw D  90 -> .62  -.12
    #  R9  Grandelius      2672 win  D 120 -> .66  +.34
    #  R10 Rapport         2763 loss D  29 -> .54  -.54
    #  R11 Praggnanandhaa  2612 win  D 180 -> .74  +.26
    #  R12 Carlsen         2865 loss D -73 -> 1 - .60 = .40  -.40
    #  R13 Mamedyarov      2767 draw D  25 -> .53  -.03
    # sum = -1.05; K 10 -> -10.5 -> -11 (half away from zero). FIDE: "an 11-point loss", 2781.
    caruana = by_name(closed[1])["Caruana, Fabiano"].result
    assert caruana.rating_before == 2792
    assert caruana.n == 13
    assert caruana.change_exact == Decimal("-10.5")
    assert caruana.change == -11
    assert caruana.rating_after == 2781


def test_van_foreest_fide_published(closed) -> None:
    # Van Foreest 2702, 13 games (D = 2702 - opp; below the opponent he gets 1 - PD):
    #  R1  Grandelius     2672 win  D   30 -> .54              +.46
    #  R2  Rapport        2763 loss D  -61 -> 1 - .58 = .42    -.42
    #  R3  Praggnanandhaa 2612 win  D   90 -> .62              +.38
    #  R4  Carlsen        2865 draw D -163 -> 1 - .72 = .28    +.22
    #  R5  Mamedyarov     2767 loss D  -65 -> 1 - .59 = .41    -.41
    #  R6  Karjakin       2743 loss D  -41 -> 1 - .56 = .44    -.44
    #  R7  Vidit          2727 win  D  -25 -> 1 - .53 = .47    +.53
    #  R8  Caruana        2792 draw D  -90 -> 1 - .62 = .38    +.12
    #  R9  Dubov          2720 draw D  -18 -> 1 - .53 = .47    +.03
    #  R10 Esipenko       2714 loss D  -12 -> 1 - .52 = .48    -.48
    #  R11 Giri           2772 win  D  -70 -> 1 - .60 = .40    +.60
    #  R12 Duda           2760 draw D  -58 -> 1 - .58 = .42    +.08
    #  R13 Shankland      2708 win  D   -6 -> 1 - .51 = .49    +.51
    # sum = +1.18; K 10 -> +11.8 -> +12. FIDE: Van Foreest 2714 (+12).
    vf = by_name(closed[1])["Van Foreest, Jorden"].result
    assert vf.rating_before == 2702
    assert vf.n == 13
    assert vf.change == 12
    assert vf.rating_after == 2714


def test_dubov(closed) -> None:
    # Dubov 2720, 9 rated games (R7, R11-R13 forfeited), 7 draws + 2 losses = 3.5 points:
    #  R1 Mamedyarov 2767 = D -47 -> 1 - .57 = .43  +.07
    #  R2 Karjakin   2743 = D -23 -> 1 - .53 = .47  +.03
    #  R3 Vidit      2727 0 D  -7 -> 1 - .51 = .49  -.49
    #  R4 Caruana    2792 = D -72 -> 1 - .60 = .40  +.10
    #  R5 Shankland  2708 = D +12 -> .52            -.02
    #  R6 Esipenko   2714 = D  +6 -> .51            -.01
    #  R8 Duda       2760 = D -40 -> 1 - .56 = .44  +.06
    #  R9 Van Foreest 2702 = D +18 -> .53           -.03
    #  R10 Grandelius 2672 0 D +48 -> .57           -.57
    # sum = -0.86; K 10 -> -8.6 -> -9 -> 2711
    dubov = by_name(closed[1])["Dubov, Daniil"].result
    assert dubov.rating_before == 2720
    assert dubov.n == 9
    assert dubov.score == Decimal("3.5")
    assert dubov.surplus == Decimal("-0.86")
    assert dubov.change == -9
    assert dubov.rating_after == 2711


def test_praggnanandhaa(closed) -> None:
    # Praggnanandhaa 2612, 12 rated games (R12: Dubov's forfeit, not rated):
    #  R1  Giri        2772 draw D -160 -> 1 - .71 = .29  +.21
    #  R2  Duda        2760 draw D -148 -> 1 - .70 = .30  +.20
    #  R3  Van Foreest 2702 loss D  -90 -> 1 - .62 = .38  -.38
    #  R4  Grandelius  2672 win  D  -60 -> 1 - .58 = .42  +.58
    #  R5  Rapport     2763 loss D -151 -> 1 - .70 = .30  -.30
    #  R6  Shankland   2708 draw D  -96 -> 1 - .63 = .37  +.13
    #  R7  Carlsen     2865 loss D -253 -> 1 - .81 = .19  -.19
    #  R8  Mamedyarov  2767 loss D -155 -> 1 - .71 = .29  -.29
    #  R9  Karjakin    2743 loss D -131 -> 1 - .68 = .32  -.32
    #  R10 Vidit       2727 win  D -115 -> 1 - .66 = .34  +.66
    #  R11 Caruana     2792 loss D -180 -> 1 - .74 = .26  -.26
    #  R13 Esipenko    2714 win  D -102 -> 1 - .64 = .36  +.64
    # sum = +0.68; K 10 -> +6.8 -> +7 -> 2619
    pragg = by_name(closed[1])["Praggnanandhaa, R"].result
    assert pragg.rating_before == 2612
    assert pragg.n == 12
    assert pragg.change == 7
    assert pragg.rating_after == 2619


def test_list_and_history_after_close(engine: Engine, closed) -> None:
    rl = rating_list(engine, "2022-01")
    assert rl.period == "2022-01"
    assert rl.in_force_from == "2022-02-01"
    assert len(rl.rows) == 14
    top = rl.rows[0]
    assert (top.rank, top.name, top.rating, top.games, top.k) == (1, "Carlsen, Magnus", 2868, 12, 10)
    h = history(engine, "Carlsen, Magnus")
    assert [(r.period, r.rating_before, r.games, r.change, r.rating_after) for r in h.periods] == [
        ("2022-01", 2865, 12, 3, 2868)]
    assert h.player.rating == 2868
    assert h.player.fide_id == 1503014  # BlackFideId on line 15 of the file


def test_registered_player_history_unknown(engine: Engine, tata: str) -> None:
    import_pgn(engine, tata, register_players=True)
    view = show_player(engine, "Dubov")
    assert view.rating == 2720
    assert view.history_unknown is True
    assert view.rated_games is None
    assert view.k == 10


def test_reimport_after_close_records_nothing(engine: Engine, tata: str, closed) -> None:
    before = counts(engine)
    again = import_pgn(engine, tata, register_players=True)
    assert again.recorded == 0
    assert again.already_recorded == 91
    assert again.players_registered == []
    assert [p for p in again.problems if p.severity == "error"] == []
    assert counts(engine) == before
    assert before["games"] == 91 and before["players"] == 14
    assert before["period_results"] == 14
    assert before["period_audits"] == 14  # one row per player: (91 - 4 forfeits) x 2 sides
    with engine.connect() as conn:  # 32 bytes a side (db.audit_pack)
        assert conn.execute(text("SELECT sum(length(sides)) FROM period_audits")).scalar_one() \
            == 174 * 32


def test_dry_run_writes_nothing(engine: Engine, tata: str) -> None:
    report = import_pgn(engine, tata, register_players=True, dry_run=True)
    assert report.dry_run is True
    assert report.recorded == 91  # what it would record
    assert len(report.players_registered) == 14
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(Game)).scalar_one() == 0
        assert conn.execute(select(func.count()).select_from(Player)).scalar_one() == 0
    assert all(n == 0 for n in counts(engine).values())
