"""``ledger performance`` and ``ledger whatif`` through Typer's CliRunner on small ledgers built here.

Expected values are worked by hand beside them from tables 8.1.1 and 8.1.2 (RULES.md §3, §5, §7).
"""

from __future__ import annotations

import json

import pytest
from sqlalchemy import Engine
from typer.testing import CliRunner, Result

from ledger.cli.app import app
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, db: str, *args: str) -> Result:
    return runner.invoke(app, ["--db", db, *args])


def ok(runner: CliRunner, db: str, *args: str) -> Result:
    result = run(runner, db, *args)
    assert result.exit_code == 0, (args, result.output)
    return result


@pytest.fixture
def db(ledger_db: str) -> str:
    """A fresh ledger (tests/conftest.py); the tests build it through the services (faster) and
    ask it through the CLI."""
    return ledger_db


def add(engine: Engine, name: str, rating: int | None) -> None:
    add_player(engine, NewPlayer(name=name, rating=rating, prior_games=100))


# ------------------------------------------------------------------------------------------------
# performance

#: The seed: nine opponents summing to 20898 = 9 x 2322, and the hero's results against them
#: (4 wins, 2 draws, 3 losses = 5 points), the hero always White.
SEED = [(2250, "1-0"), (2280, "1-0"), (2300, "1-0"), (2310, "1-0"), (2320, "1/2-1/2"),
        (2330, "1/2-1/2"), (2350, "0-1"), (2370, "0-1"), (2388, "0-1")]


@pytest.fixture
def seed_event(db: str, engine: Engine) -> str:
    add(engine, "Hero, Ann", 2300)
    for i, (rating, _) in enumerate(SEED, start=1):
        add(engine, f"Opponent, {i}", rating)
    add(engine, "Forfeiter, Zed", 2700)
    for i, (_, result) in enumerate(SEED, start=1):
        add_game(engine, "Hero, Ann", f"Opponent, {i}", result, f"2025-11-{i:02d}", "Autumn Open",
             str(i))
    # Round 10: a forfeit win against a 2700: recorded, never counted (B.02 §5.1)
    add_game(engine, "Hero, Ann", "Forfeiter, Zed", "+/-", "2025-11-10", "Autumn Open", "10")
    return db


def test_performance_seed_event_json(runner: CliRunner, seed_event: str) -> None:
    result = ok(runner, seed_event, "performance", "Hero, Ann", "--event", "Autumn Open",
                "--json")
    data = json.loads(result.stdout)
    # Ra = 20898 / 9 = 2322; p = 5 / 9 = 55.56 % -> .56 -> dp 43; Rp = 2322 + 43 = 2365
    assert (data["games"], data["points"], data["ra"], data["p"], data["dp"], data["rp"]) == (
        9, 5, 2322, 0.56, 43, 2365)
    # Algorithm of 400: (20898 + 400 x (4 - 3)) / 9 = 21298 / 9 = 2366.44 -> 2366
    assert (data["algorithm_of_400"], data["algorithm_of_400_exact"]) == (2366, "21298/9")
    assert (data["p_percent"], data["p_exact"], data["ra_exact"]) == (56, "5/9", "2322")
    assert len(data["per_game"]) == 10
    counted = [g for g in data["per_game"] if g["counted"]]
    assert [g["counted_rating"] for g in counted] == [r for r, _ in SEED]
    forfeit = data["per_game"][-1]
    assert (forfeit["opponent"], forfeit["result"], forfeit["counted"]) == (
        "Forfeiter, Zed", "+/-", False)
    assert "forfeit" in forfeit["note"]
    assert data["norm"] is None


def test_performance_text_and_period(runner: CliRunner, seed_event: str) -> None:
    text = ok(runner, seed_event, "performance", "Hero, Ann", "--event", "autumn")
    out = " ".join(text.stdout.split())
    assert "Ra = 20898 / 9 = 2322.00 -> 2322" in out
    assert "p = 5 / 9 = 55.56 % -> 56 % -> dp +43" in out
    assert "Rp = Ra + dp = 2322 + 43 = 2365" in out
    assert "(20898 + 400 x (4 - 3)) / 9 = 2366.44 -> 2366" in out
    # The same games by period; from the black side, Opponent 7 (2350) beat the hero (2300):
    # opponents 2300 only -> Ra 2300, p 100 % -> dp 800 -> Rp 3100
    by_period = json.loads(ok(runner, seed_event, "performance", "Hero, Ann", "--period",
                              "2025-11", "--json").stdout)
    assert (by_period["ra"], by_period["rp"]) == (2322, 2365)
    seven = json.loads(ok(runner, seed_event, "performance", "Opponent, 7", "--period",
                          "2025-11", "--json").stdout)
    assert (seven["games"], seven["ra"], seven["p"], seven["dp"], seven["rp"]) == (
        1, 2300, 1, 800, 3100)
    assert seven["per_game"][0]["colour"] == "black"


def test_performance_uses_ratings_at_the_events_start(runner: CliRunner, seed_event: str) -> None:
    # Closing 2025-11 changes every rating; the event's performance still uses the ratings in
    # force at its start (Title Regs §1.4.6a), so Rp stays 2365.
    ok(runner, seed_event, "period", "close", "2025-11")
    listed = json.loads(ok(runner, seed_event, "list", "--json").stdout)
    # Opponent 1 (2250, K 20) lost to Ann (2300): D = -50 -> .43; 20 x -0.43 = -8.6 -> -9 -> 2241
    assert {p["name"]: p["rating"] for p in listed["players"]}["Opponent, 1"] == 2241
    after = json.loads(ok(runner, seed_event, "performance", "Hero, Ann", "--event",
                          "Autumn Open", "--json").stdout)
    assert (after["ra"], after["rp"]) == (2322, 2365)


def test_performance_norm_with_an_unrated_opponent(runner: CliRunner, db: str,
                                                   engine: Engine) -> None:
    # Nine games: 2600, 2550, 2500, 2480, 2450, 2420, 2400 (sum 17400), a 2150 and an unrated
    # opponent. GM (the Decision in ledger/rules/performance.py, Title Regs §1.4.6c-d): the
    # unrated counts 1400, the lowest below the floor 2200, so it is raised to 2200; the 2150
    # stays. Sum 17400 + 2150 + 2200 = 21750 -> Ra 21750 / 9 = 2416.67 -> 2417.
    # 6 wins, 2 draws, 1 loss = 7: p = 77.78 % -> 78 -> dp 220 -> Rp 2637.
    # GM: Rp 2637 >= 2600 yes; Ra 2417 >= 2380 yes; 7 >= 35 % x 9 = 3.15 yes -> norm reached.
    add(engine, "Seeker, Noor", 2450)
    ratings = [2600, 2550, 2500, 2480, 2450, 2420, 2400, 2150, None]
    results = ["1-0"] * 6 + ["1/2-1/2"] * 2 + ["0-1"]
    for i, rating in enumerate(ratings, start=1):
        add(engine, f"Rival, {i}", rating)
        add_game(engine, "Seeker, Noor", f"Rival, {i}", results[i - 1], f"2025-10-{i:02d}",
             "Norm Round Robin", str(i))
    data = json.loads(ok(runner, db, "performance", "Seeker, Noor", "--event", "Norm Round Robin",
                         "--norm", "gm", "--json").stdout)
    assert (data["ra"], data["p"], data["dp"], data["rp"]) == (2417, 0.78, 220, 2637)
    assert data["norm"] == {"norm": "GM", "floor": 2200, "min_rp": 2600, "min_ra": 2380,
                            "min_score": 0.35, "rp_reached": True, "ra_reached": True,
                            "score_reached": True, "min_games": 9, "games_reached": True,
                            "reached": True}
    rows = {g["opponent"]: g for g in data["per_game"]}
    assert (rows["Rival, 9"]["opponent_rating"], rows["Rival, 9"]["counted_rating"]) == (None, 2200)
    assert rows["Rival, 8"]["counted_rating"] == 2150
    # Without --norm the game v the unrated opponent (the loss) is left out: eight games,
    # 17400 + 2150 = 19550 -> Ra 2443.75 -> 2444; 7 / 8 = 87.5 % -> 88 (.5 up) -> dp 336 ->
    # Rp 2444 + 336 = 2780
    plain = json.loads(ok(runner, db, "performance", "Seeker, Noor", "--event", "Norm",
                          "--json").stdout)
    assert (plain["games"], plain["ra"], plain["p"], plain["dp"], plain["rp"]) == (
        8, 2444, 0.88, 336, 2780)
    text = ok(runner, db, "performance", "Seeker, Noor", "--event", "Norm", "--norm", "GM")
    assert "games 9 >= 9? yes -> norm reached" in " ".join(text.stdout.split())


def test_a_norm_needs_nine_games(runner: CliRunner, db: str, engine: Engine) -> None:
    # Three wins against 2500s: Ra 2500, p 100 % -> dp 800 -> Rp 3300 >= 2600; Ra 2500 >= 2380;
    # 3 >= 35 % x 3 = 1.05: every rating threshold is met, but 3 games < 9 (Title Regs 1.4.2a).
    add(engine, "Sprinter, Sam", 2400)
    for i in range(1, 4):
        add(engine, f"Master, {i}", 2500)
        add_game(engine, "Sprinter, Sam", f"Master, {i}", "1-0", f"2025-10-{i:02d}", "Blitz Cup",
                 str(i))
    data = json.loads(ok(runner, db, "performance", "Sprinter, Sam", "--event", "Blitz Cup",
                         "--norm", "GM", "--json").stdout)
    assert (data["rp"], data["norm"]["rp_reached"], data["norm"]["ra_reached"],
            data["norm"]["score_reached"]) == (3300, True, True, True)
    assert (data["norm"]["games_reached"], data["norm"]["reached"]) == (False, False)
    text = " ".join(ok(runner, db, "performance", "Sprinter, Sam", "--event", "Blitz Cup",
                       "--norm", "GM").stdout.split())
    assert "games 3 >= 9? no -> no norm" in text


def test_performance_usage_and_refusals(runner: CliRunner, seed_event: str) -> None:
    both = run(runner, seed_event, "performance", "Hero, Ann", "--event", "Autumn Open",
               "--period", "2025-11")
    assert both.exit_code == 2 and "--event or --period" in both.stderr
    neither = run(runner, seed_event, "performance", "Hero, Ann")
    assert neither.exit_code == 2
    norm_period = run(runner, seed_event, "performance", "Hero, Ann", "--period", "2025-11",
                      "--norm", "GM")
    assert norm_period.exit_code == 2 and "--norm needs --event" in norm_period.stderr
    assert run(runner, seed_event, "performance", "Hero, Ann", "--event", "Autumn Open",
               "--norm", "XM").exit_code == 2
    unknown = run(runner, seed_event, "performance", "Hero, Ann", "--event", "Spring Open")
    assert unknown.exit_code == 1 and "Spring Open" in unknown.stderr
    empty = run(runner, seed_event, "performance", "Hero, Ann", "--period", "2025-10")
    assert empty.exit_code == 1 and "no played game" in empty.stderr
    only_forfeit = run(runner, seed_event, "performance", "Forfeiter, Zed", "--event",
                       "Autumn Open")
    assert only_forfeit.exit_code == 1
    for result in (both, neither, norm_period, unknown, empty, only_forfeit):
        assert result.stdout == "" and "Traceback" not in result.output


# ------------------------------------------------------------------------------------------------
# whatif


@pytest.fixture
def club(db: str, engine: Engine) -> str:
    # prior games 100, no birth year -> K 20 for everyone (RULES.md §4)
    add(engine, "Sixteen, A", 1600)
    add(engine, "Eighteen, B", 1800)
    add(engine, "Fourteen, C", 1400)
    add(engine, "Newcomer, D", None)
    # Already in November: A beat C (D +200 -> .76, S - PD +0.24)
    add_game(engine, "Sixteen, A", "Fourteen, C", "1-0", "2025-11-03")
    return db


@pytest.mark.parametrize("ref", ["#²", "#" + "9" * 5000])
def test_event_ids_that_int_refuses_are_names_not_tracebacks(runner: CliRunner, seed_event: str,
                                                             ref: str) -> None:
    # '²' is a digit to str.isdigit but not to int(); 5000 digits exceed int()'s 4300 limit.
    # Neither is an event id: both are looked up as a name, found nowhere, exit 1.
    result = run(runner, seed_event, "performance", "Hero, Ann", "--event", ref)
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("error: event: the player has no games in an event named ")
    assert "Traceback" not in result.output and result.stdout == ""


def test_whatif_seed(runner: CliRunner, club: str) -> None:
    data = json.loads(ok(runner, club, "whatif", "Sixteen, A", "Eighteen, B", "--period",
                         "2025-11", "--json").stdout)
    assert (data["period"], data["edition"]) == ("2025-11", "2025-10")
    a, b = data["player"], data["opponent"]
    assert (a["rating"], a["k"], a["k_reason"], b["rating"], b["k"]) == (
        1600, 20, "standard", 1800, 20)
    # So far A: 20 x 0.24 = +4.8 -> +5 -> 1605; B has no game yet.
    assert (a["now"]["games"], a["now"]["change_exact"], a["now"]["change"],
            a["now"]["rating_after"]) == (1, 4.8, 5, 1605)
    assert (b["now"]["games"], b["now"]["change"], b["now"]["rating_after"]) == (0, 0, 1800)
    out = {o["result"]: o for o in data["outcomes"]}
    # A v B: D -200 -> A .24, B .76.
    # Win:  A +0.76 + 0.24 = 1.00 x 20 = +20 -> 1620; B 0 - .76 = -0.76 x 20 = -15.2 -> -15 -> 1785
    # Draw: A +0.26 + 0.24 = 0.50 x 20 = +10 -> 1610 (the seed);  B -0.26 x 20 = -5.2 -> -5 -> 1795
    # Loss: A -0.24 + 0.24 = 0 -> 1600;  B +0.24 x 20 = +4.8 -> +5 -> 1805
    assert [(o, out[o]["player"]["change"], out[o]["player"]["rating_after"],
             out[o]["opponent"]["change"], out[o]["opponent"]["rating_after"])
            for o in ("win", "draw", "loss")] == [
        ("win", 20, 1620, -15, 1785), ("draw", 10, 1610, -5, 1795), ("loss", 0, 1600, 5, 1805)]
    assert out["draw"]["player"]["games"] == 2 and out["draw"]["opponent"]["games"] == 1
    assert out["win"]["opponent"]["change_exact"] == -15.2
    text = ok(runner, club, "whatif", "Sixteen, A", "Eighteen, B", "--period", "2025-11")
    lines = [" ".join(line.replace("│", " ").split()) for line in text.stdout.splitlines()]
    draw = lines.index("draw Sixteen, A 2 20 +10.00 -> +10 1610")
    assert lines[draw + 1] == "Eighteen, B 1 20 -5.20 -> -5 1795", text.stdout
    # Nothing was written: the game list is unchanged.
    listed = json.loads(ok(runner, club, "game", "list", "--json").stdout)
    assert len(listed["games"]) == 1


def test_whatif_unrated_and_refusals(runner: CliRunner, club: str) -> None:
    # An unrated opponent: the game would not be rated for A (B.02 §8.3.1); A's period stays +5.
    data = json.loads(ok(runner, club, "whatif", "Sixteen, A", "Newcomer, D", "--period",
                         "2025-11", "--json").stdout)
    assert data["opponent"]["rating"] is None and data["opponent"]["k"] is None
    assert {o["result"]: (o["player"]["change"], o["opponent"]) for o in data["outcomes"]} == {
        "win": (5, None), "draw": (5, None), "loss": (5, None)}
    same = run(runner, club, "whatif", "Sixteen, A", "Sixteen, A", "--period", "2025-11")
    assert same.exit_code == 1 and "themselves" in same.stderr
    unknown = run(runner, club, "whatif", "Sixteen, A", "Nobody, Here", "--period", "2025-11")
    assert unknown.exit_code == 1 and "Nobody, Here" in unknown.stderr
    ok(runner, club, "period", "close", "2025-11")
    closed = run(runner, club, "whatif", "Sixteen, A", "Eighteen, B", "--period", "2025-11")
    assert closed.exit_code == 1 and closed.stdout == ""
    assert closed.stderr.strip() == (
        "error: period: 2025-11 is closed (periods up to 2025-11 are closed); a what-if needs "
        "an open period, e.g. 2025-12")
    bad = run(runner, club, "whatif", "Sixteen, A", "Eighteen, B", "--period", "2025/12")
    assert bad.exit_code == 1 and "period" in bad.stderr


def test_whatif_says_when_an_earlier_open_period_will_change_the_ratings(
        runner: CliRunner, club: str) -> None:
    # A's win over C on 2025-11-03 is in 2025-11, still open: a what-if for December uses A's
    # published 1600 (the close of 2025-11 would make it 1605), and says so.
    data = json.loads(ok(runner, club, "whatif", "Sixteen, A", "Eighteen, B", "--period",
                         "2025-12", "--json").stdout)
    assert (data["player"]["rating"], data["open_before"]) == (1600, ["2025-11"])
    text = " ".join(ok(runner, club, "whatif", "Sixteen, A", "Eighteen, B", "--period",
                       "2025-12").stdout.split())
    assert ("note: 2025-11 still open with games of these players: its close comes first and "
            "may change the ratings and K used here") in text
    # In 2025-11 itself there is nothing before it to wait for; B and D have no game at all.
    same = json.loads(ok(runner, club, "whatif", "Sixteen, A", "Eighteen, B", "--period",
                         "2025-11", "--json").stdout)
    assert same["open_before"] == []
    others = json.loads(ok(runner, club, "whatif", "Eighteen, B", "Newcomer, D", "--period",
                           "2025-12", "--json").stdout)
    assert others["open_before"] == []
    # A forfeit is never rated: it leaves nothing for a close to change.
    ok(runner, club, "game", "add", "Eighteen, B", "Newcomer, D", "+/-", "--date", "2025-11-05")
    others = json.loads(ok(runner, club, "whatif", "Eighteen, B", "Newcomer, D", "--period",
                           "2025-12", "--json").stdout)
    assert others["open_before"] == []


def test_whatif_after_a_close_uses_the_new_list(runner: CliRunner, club: str) -> None:
    # After closing 2025-11 A is 1605 (K 20). December, nothing recorded: a draw v B (1800):
    # D -195 -> band 189-197 .75 for B, .25 for A: +0.25 x 20 = +5 -> 1610.
    ok(runner, club, "period", "close", "2025-11")
    data = json.loads(ok(runner, club, "whatif", "Sixteen, A", "Eighteen, B", "--period",
                         "2025-12", "--json").stdout)
    draw = {o["result"]: o for o in data["outcomes"]}["draw"]
    assert data["player"]["rating"] == 1605 and data["open_before"] == []
    assert (draw["player"]["change_exact"], draw["player"]["rating_after"]) == (5, 1610)


def test_performance_event_by_part_of_its_name_or_id(runner: CliRunner, seed_event: str,
                                                     engine: Engine) -> None:
    # A second "Autumn" event for the hero: "autumn" now names two events and is refused with
    # both listed; the full name or the id (#1, the first event recorded) still finds one.
    add_game(engine, "Opponent, 1", "Hero, Ann", "1-0", "2025-11-20", "Autumn Blitz", "1")
    two = run(runner, seed_event, "performance", "Hero, Ann", "--event", "autumn")
    assert two.exit_code == 1
    assert "Autumn Open" in two.stderr and "Autumn Blitz" in two.stderr
    by_id = json.loads(ok(runner, seed_event, "performance", "Hero, Ann", "--event", "#1",
                          "--json").stdout)
    assert (by_id["scope"], by_id["rp"]) == ("event 'Autumn Open' (2025-11-01 to 2025-11-10)",
                                             2365)
    # The blitz: one loss v 2250 -> Ra 2250, p 0 -> dp -800 -> Rp 1450
    blitz = json.loads(ok(runner, seed_event, "performance", "Hero, Ann", "--event",
                          "Autumn Blitz", "--json").stdout)
    assert (blitz["games"], blitz["ra"], blitz["p"], blitz["dp"], blitz["rp"]) == (
        1, 2250, 0, -800, 1450)


def test_names_with_console_markup_print_as_typed(runner: CliRunner, db: str,
                                                  engine: Engine) -> None:
    add(engine, "[bold]Hero[/bold], X", 1900)
    add(engine, "Rival [/red] Y", 1800)
    add_game(engine, "#1", "#2", "1/2-1/2", "2025-11-05", "[red]Open[/red]", "1")
    perf = ok(runner, db, "performance", "#1", "--event", "#1")
    assert "[bold]Hero[/bold], X" in perf.stdout and "[red]Open[/red]" in perf.stdout
    assert "Rival [/red] Y" in perf.stdout
    what = ok(runner, db, "whatif", "#1", "#2", "--period", "2025-11")
    assert "[bold]Hero[/bold], X" in what.stdout and "Rival [/red] Y" in what.stdout
