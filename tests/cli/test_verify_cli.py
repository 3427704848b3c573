"""``ledger export bundle``, ``ledger verify`` and ``ledger list --manifest`` (issue 24;
docs/VERIFY.md) on real ledgers: the README's example season (2026-09, 2026-10 in three pools),
the Tata Steel Masters 2022 (FIDE's figures), a re-rated period and a carried correction; each
bundle verifies (exit 0), and the same bundle with one result or one rating in force changed
fails naming the rows (exit 1). Every expected value is worked by hand in its comment.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from cli_runs import ok, run
from example_ledgers import copy_of
from ledgers import sqlite_ledger
from typer.testing import CliRunner

from ledger.cli.app import app

ROOT = Path(__file__).resolve().parents[2]


def verify(*args: str) -> Any:
    """``ledger verify ARGS...`` (no database named, none opened)."""
    return CliRunner().invoke(app, ["verify", *args])


def bundle_of(db: str, out: Path, *args: str) -> dict[str, Any]:
    """``ledger export bundle ARGS... --output OUT`` on ``db``; the bundle read back."""
    ok(db, "export", "bundle", *args, "--output", str(out))
    data = out.read_bytes()
    return json.loads(gzip.decompress(data) if out.suffix == ".gz" else data)  # type: ignore[no-any-return]


def changed(whole: dict[str, Any], out: Path) -> Path:
    out.write_text(json.dumps(whole), encoding="utf-8")
    return out


def row(whole: dict[str, Any], name: str) -> dict[str, Any]:
    return next(r for r in whole["manifest"]["rows"] if r["name"] == name)


def test_the_season_bundles_verify_and_a_changed_result_names_both_players(
        season_db: str, tmp_path: Path) -> None:
    for pool in ("standard", "rapid", "blitz"):
        out = tmp_path / f"{pool}.json"
        whole = bundle_of(season_db, out, "--period", "2026-10", "--pool", pool)
        done = verify(str(out))
        assert done.exit_code == 0, done.output
        assert f"the {pool} list of 2026-10 (revision 1," in done.stdout
        assert "verified, every row recounted from the bundle" in done.stdout
    # the standard bundle: Tanaka (junior, K 40) 1693 on the October list (the README's
    # example: 1628 + 65); Moreau (K 40, fewer than 30 games)
    whole = bundle_of(season_db, tmp_path / "b.json.gz", "--period", "2026-10")
    assert row(whole, "Tanaka, Hiro")["rating"] == 1693
    moreau = row(whole, "Moreau, Claire")["rating"]
    # Tanaka beat Moreau on 2026-10-03: made a loss, each score moves by exactly 1 with the
    # same PD, K 40 for both (x 2 games: no 700 cap): Tanaka 40 less (1653), Moreau 40 more
    game = next(g for g in whole["games"] if g["date"] == "2026-10-03"
                and g["result"] == "1-0" and row_id(whole, "Tanaka, Hiro") == g["white"])
    game["result"] = "0-1"
    done = verify(str(changed(whole, tmp_path / "result.json")))
    assert done.exit_code == 1
    tanaka, claire = row_id(whole, "Tanaka, Hiro"), row_id(whole, "Moreau, Claire")
    assert (f"player {tanaka} (Tanaka, Hiro): rating: bundle 1693, recounted 1653"
            in done.stderr)
    assert (f"player {claire} (Moreau, Claire): rating: bundle {moreau}, recounted "
            f"{moreau + 40}" in done.stderr)
    assert f"game {game['id']}: its digest" in done.stderr
    assert "NOT verified" in done.stderr


def row_id(whole: dict[str, Any], name: str) -> int:
    return row(whole, name)["player_id"]  # type: ignore[no-any-return]


def test_a_rating_in_force_changed_names_the_player(season_db: str, tmp_path: Path) -> None:
    whole = bundle_of(season_db, tmp_path / "b.json", "--period", "2026-10")
    okafor = next(p for p in whole["players"] if p["name"] == "Okafor, Grace")
    published = row(whole, "Okafor, Grace")["rating"]
    # the games carry the ratings at the event's start: a rating in force 10 higher changes
    # none of her expected scores, so the list's rating is 10 higher
    okafor["rating"] += 10
    done = verify(str(changed(whole, tmp_path / "rating.json")))
    assert done.exit_code == 1
    assert (f"player {okafor['id']} (Okafor, Grace): rating: bundle {published}, recounted "
            f"{published + 10}" in done.stderr)
    assert f"player {okafor['id']}: its digest" in done.stderr


def test_a_changed_row_or_digest_is_named(season_db: str, tmp_path: Path) -> None:
    whole = bundle_of(season_db, tmp_path / "b.json", "--period", "2026-09")
    first = whole["manifest"]["rows"][0]
    first["games"] += 1
    done = verify(str(changed(whole, tmp_path / "row.json")))
    assert done.exit_code == 1
    assert (f"player {first['player_id']} ({first['name']}): games: bundle {first['games']}, "
            f"recounted {first['games'] - 1}") in done.stderr
    assert "manifest.digest:" in done.stderr  # the rows are under the digest


def test_list_manifest_is_the_bundles(season_db: str, tmp_path: Path) -> None:
    whole = bundle_of(season_db, tmp_path / "b.json", "--period", "2026-10", "--pool", "blitz")
    shown = json.loads(ok(season_db, "list", "--period", "2026-10", "--pool", "blitz",
                          "--manifest").stdout)
    assert shown == whole["manifest"]
    # the blitz list of the README's example: 2347, 2105, 1948, 1799 (worked there)
    assert [r["rating"] for r in shown["rows"]] == [2347, 2105, 1948, 1799]
    assert (shown["format"], shown["edition"], len(shown["digest"])) == (
        "ledger-manifest/1", "2025-10", 64)
    assert len(shown["facts"]["games"]) == 6  # the blitz evening's six games


def test_the_tata_steel_bundle_verifies(tata_db: str, tmp_path: Path) -> None:
    whole = bundle_of(tata_db, tmp_path / "tata.json", "--period", "2022-01")
    # FIDE's February 2022 list: Carlsen 2865 + 3 = 2868, Van Foreest 2702 + 12 = 2714
    assert row(whole, "Carlsen, Magnus")["rating"] == 2868
    assert row(whole, "Van Foreest, Jorden")["rating"] == 2714
    assert whole["manifest"]["edition"] == "2022-01"
    assert len(whole["games"]) == 91  # 14 players, a single round robin: 14 x 13 / 2
    done = verify(str(tmp_path / "tata.json"))
    assert done.exit_code == 0, done.output


def test_a_rerated_period_and_its_superseded_revision_verify(season_db: str,
                                                             tmp_path: Path) -> None:
    db = copy_of(season_db, sqlite_ledger(str(tmp_path / "copy.db")))
    ok(db, "game", "void", "1", "--rerate", "--reason", "never played")
    first = bundle_of(db, tmp_path / "r1.json", "--period", "2026-09", "--revision", "1")
    second = bundle_of(db, tmp_path / "r2.json", "--period", "2026-09")
    assert (first["manifest"]["revision"], second["manifest"]["revision"]) == (1, 2)
    assert first["manifest"]["digest"] != second["manifest"]["digest"]
    assert len(second["games"]) == len(first["games"]) - 1  # game 1 voided
    for name in ("r1.json", "r2.json"):
        done = verify(str(tmp_path / name))
        assert done.exit_code == 0, done.output
    october = bundle_of(db, tmp_path / "o2.json", "--period", "2026-10")
    assert october["manifest"]["revision"] == 2
    assert verify(str(tmp_path / "o2.json")).exit_code == 0


def test_a_carried_correction_is_in_the_bundle(season_db: str, tmp_path: Path) -> None:
    db = copy_of(season_db, sqlite_ledger(str(tmp_path / "copy.db")))
    whole = bundle_of(db, tmp_path / "oct.json", "--period", "2026-10")
    tanaka, claire = row_id(whole, "Tanaka, Hiro"), row_id(whole, "Moreau, Claire")
    game = next(g for g in whole["games"] if {g["white"], g["black"]} == {tanaka, claire})
    ok(db, "game", "void", str(game["id"]), "--in-next-period", "--reason", "never played")
    ok(db, "period", "close", "2026-11")
    november = bundle_of(db, tmp_path / "nov.json", "--period", "2026-11")
    # Tanaka's win over Moreau (1799 v 1628: D -171 -> PD .27, 1 - .27 = +.73) gave him
    # 40 x .73 = 29.20: carried back as -2920 hundredths, Moreau +2920; November has no game:
    # Tanaka 1693 - 29 = 1664
    assert {c["player"]: c["hundredths"] for c in november["carried"]} == {
        tanaka: -2920, claire: 2920}
    assert row(november, "Tanaka, Hiro")["rating"] == 1664
    done = verify(str(tmp_path / "nov.json"))
    assert done.exit_code == 0, done.output
    november["carried"][0]["hundredths"] = 0  # the correction dropped from the bundle
    done = verify(str(changed(november, tmp_path / "nocarry.json")))
    assert done.exit_code == 1 and "rating: bundle" in done.stderr


def test_bad_files_are_named_with_their_field(season_db: str, tmp_path: Path) -> None:
    (tmp_path / "text.json").write_text("not json", encoding="utf-8")
    done = verify(str(tmp_path / "text.json"))
    assert done.exit_code != 0
    assert f"{tmp_path / 'text.json'}: not JSON: line 1, column 1" in done.stderr
    whole = bundle_of(season_db, tmp_path / "b.json", "--period", "2026-10")
    whole["games"][2]["result"] = "2-0"
    done = verify(str(changed(whole, tmp_path / "field.json")))
    assert done.exit_code != 0
    assert "field.json: games[2].result: '2-0' is not a result" in done.stderr
    whole["games"][2]["result"] = "1-0"
    del whole["players"]
    done = verify(str(changed(whole, tmp_path / "none.json")))
    assert "none.json: players: nothing where a list is needed" in done.stderr
    assert verify(str(tmp_path / "missing.json")).exit_code != 0


def test_keys_sign_a_bundle_and_another_key_fails(season_db: str, tmp_path: Path) -> None:
    private, public = tmp_path / "ledger.key", tmp_path / "ledger.pub"
    made = CliRunner().invoke(app, ["keys", "init", "--private", str(private),
                                    "--public", str(public)])
    assert made.exit_code == 0, made.output
    assert oct(private.stat().st_mode & 0o777) == "0o600"
    assert private.read_text().startswith("-----BEGIN PRIVATE KEY-----")
    again = CliRunner().invoke(app, ["keys", "init", "--private", str(private),
                                     "--public", str(tmp_path / "other.pub")])
    assert again.exit_code != 0 and "exists already" in again.stderr
    other_private, other = tmp_path / "other.key", tmp_path / "other.pub"
    assert CliRunner().invoke(app, ["keys", "init", "--private", str(other_private),
                                    "--public", str(other)]).exit_code == 0
    signed = tmp_path / "signed.json"
    whole = bundle_of(season_db, signed, "--period", "2026-10", "--key", str(private))
    assert whole["signature"]["algorithm"] == "ed25519"
    done = verify(str(signed), "--key", str(public))
    assert done.exit_code == 0, done.output
    assert "signed by" in done.stdout
    done = verify(str(signed), "--key", str(other))
    assert done.exit_code == 1
    assert "the signature is not this key's (signed by the key" in done.stderr
    # a row changed and the digest made again: the digest holds, the signature does not
    from ledger.formats.bundle import manifest_digest
    whole["manifest"]["rows"][0]["name"] = "Someone, Else"
    whole["manifest"]["digest"] = manifest_digest(whole["manifest"])
    done = verify(str(changed(whole, tmp_path / "resigned.json")), "--key", str(public))
    assert done.exit_code == 1
    assert "the manifest was changed after it was signed" in done.stderr
    # the private key refused when others may read it
    private.chmod(0o644)
    refused = run(season_db, "export", "bundle", "--period", "2026-10", "--output",
                  str(tmp_path / "x.json"), "--key", str(private))
    assert refused.exit_code != 0
    assert f"{private}: the private key is open to others (mode 0644)" in refused.stderr
    assert not (tmp_path / "x.json").exists()


def test_verify_imports_no_database_layer(season_db: str, tmp_path: Path) -> None:
    out = tmp_path / "b.json"
    bundle_of(season_db, out, "--period", "2026-10")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LEDGER_DB": str(tmp_path / "none.db")}
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "ledger", "verify",
                           str(out)], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "verified" in done.stdout
    imported = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")]
    assert "ledger.formats.bundle" in imported and "ledger.rules.recount" in imported
    # the CLI's start-up imports ``services.core.bulk`` (the garbage collector's pauses, no
    # database); nothing else of the services, nothing of the database layer
    assert not [m for m in imported if m.split(".")[0] in ("sqlalchemy", "alembic", "psycopg")
                or m.startswith("ledger.db") or (m.startswith("ledger.services") and m not in (
                    "ledger.services", "ledger.services.core", "ledger.services.core.bulk"))]
    assert not (tmp_path / "none.db").exists()


def test_the_list_raises_and_a_seeded_rapid_player_verify(tmp_path: Path) -> None:
    db = str(tmp_path / "raises.db")
    sqlite_ledger(db)
    for name, rating, born, rapid in (("A, A", "1600", "1980", "1500"),
                                      ("B, B", "1900", "1980", "1700"),
                                      ("C, C", "2100", "1980", None), ("D, D", "1500", "2012", None)):
        ok(db, "player", "add", name, "--rating", rating, "--prior-games", "50", "--birth-year",
           born, *(("--rapid-rating", rapid, "--rapid-games", "50") if rapid else ()))
    ok(db, "game", "add", "A, A", "B, B", "1-0", "--date", "2022-09-05", "--pool", "rapid")
    ok(db, "game", "add", "A, A", "C, C", "1/2-1/2", "--date", "2022-09-06")
    ok(db, "period", "close", "2022-09")
    ok(db, "game", "add", "D, D", "C, C", "0-1", "--date", "2024-02-10")
    ok(db, "period", "close", "--through", "2024-02")
    ok(db, "game", "add", "C, C", "A, A", "1-0", "--date", "2024-05-05", "--pool", "rapid")
    ok(db, "period", "close", "--through", "2024-05", "--pool", "rapid")
    # rapid 2022-09 (K 20 for everyone): A 1500 beat B 1700, D -200 -> PD .24: +.76 x 20 =
    # 15.2 -> 1515; B 1685, raised to its standard 1900 - 100 = 1800 (1 October 2022 list)
    rapid = bundle_of(db, tmp_path / "rapid.json", "--period", "2022-09", "--pool", "rapid")
    assert [(r["name"], r["rating"]) for r in rapid["manifest"]["rows"]] == [
        ("B, B", 1800), ("A, A", 1515)]
    assert next(p for p in rapid["players"] if p["name"] == "B, B")["standard"] == 1900
    # standard 2024-02 (the 1 March 2024 raise): A 1608 (+8.4 for the draw with C in 2022-09,
    # D -500 capped 400 -> .08: +.42 x 20) + 0.4 x (2000 - 1608) = 156.8 -> 157: 1765;
    # B 1900 + 40 = 1940
    raised = bundle_of(db, tmp_path / "raised.json", "--period", "2024-02")
    assert {r["name"]: r["rating"] for r in raised["manifest"]["rows"]}["A, A"] == 1765
    assert {r["name"]: r["rating"] for r in raised["manifest"]["rows"]}["B, B"] == 1940
    # rapid 2024-05: C, unrated in rapid, plays with the standard rating (seeded)
    seeded = bundle_of(db, tmp_path / "seeded.json", "--period", "2024-05", "--pool", "rapid")
    assert next(p for p in seeded["players"] if p["name"] == "C, C")["seeded"] is not None
    for name in ("rapid.json", "raised.json", "seeded.json"):
        done = verify(str(tmp_path / name))
        assert done.exit_code == 0, done.output


def test_the_html_list_gives_the_digest_of_its_manifest(season_db: str, tmp_path: Path) -> None:
    whole = bundle_of(season_db, tmp_path / "b.json", "--period", "2026-10")
    ok(season_db, "list", "--period", "2026-10", "--output", str(tmp_path / "list.html"))
    page = (tmp_path / "list.html").read_text(encoding="utf-8")
    assert (f"Digest (SHA-256) of this list's manifest: <code class=\"digest\">"
            f"{whole['manifest']['digest']}</code>") in page
    # a page of some of the list is not the list the digest is of
    ok(season_db, "list", "--period", "2026-10", "--federation", "IRL", "--output",
       str(tmp_path / "irl.html"))
    assert "Digest" not in (tmp_path / "irl.html").read_text(encoding="utf-8")


def test_a_rerated_manifest_names_what_it_supersedes_and_why(season_db: str,
                                                             tmp_path: Path) -> None:
    db = copy_of(season_db, sqlite_ledger(str(tmp_path / "copy.db")))
    ok(db, "game", "void", "1", "--rerate", "--reason", "never played")
    # the void is one change, the re-rating of each period it reached one more each
    rerated = next(c for c in json.loads(ok(db, "audit", "--json").stdout)["changes"]
                   if c["action"] == "period.rerate" and c["what"] == "period 2026-09")
    second = json.loads(ok(db, "list", "--period", "2026-09", "--manifest").stdout)
    first = json.loads(ok(db, "list", "--period", "2026-09", "--revision", "1",
                          "--manifest").stdout)
    assert (first["supersedes"], first["reason"]) == (None, None)
    assert (second["revision"], second["supersedes"], second["change"], second["reason"]) == (
        2, 1, rerated["id"], "never played")
    assert first["change"] < rerated["id"]


def test_a_written_txt_or_csv_list_is_named_with_its_list_digest(season_db: str,
                                                                  tmp_path: Path) -> None:
    """FIDE's TXT and the CSV have no place for a digest: ``list --output`` names the stored
    one after the file, the value the manifest's ``list_digest`` recounts from the rows."""
    manifest = json.loads(ok(season_db, "list", "--period", "2026-10", "--manifest").stdout)
    digest = manifest["list_digest"]
    assert len(digest) == 64 and digest != manifest["digest"]
    for fmt in ("txt", "csv"):
        out = tmp_path / f"list.{fmt}"
        said = ok(season_db, "list", "--period", "2026-10", "--format", fmt, "--output",
                  str(out)).stdout
        assert f"to {out}; its list digest: {digest}" in " ".join(said.split())
        assert digest not in out.read_text(encoding="utf-8")  # the file keeps its format
    # a selection is not the list the digest is of
    top = ok(season_db, "list", "--period", "2026-10", "--format", "csv", "--top", "3",
             "--output", str(tmp_path / "top.csv")).stdout
    assert "digest" not in top


#: What the package depends on beside what ``verify`` needs (typer, rich, cryptography):
#: pyproject.toml's dependencies, and the PostgreSQL driver.
NOT_FOR_VERIFY = ("sqlalchemy", "alembic", "psycopg", "numpy", "matplotlib", "chess",
                  "defusedxml", "jinja2", "flask", "flask_wtf", "argon2", "waitress")


def test_verify_runs_where_only_typer_rich_and_cryptography_are_installed(
        season_db: str, tmp_path: Path) -> None:
    """The bundle checked in a process where every other dependency cannot be imported (as in
    a fresh virtual environment holding only those three: done by hand for the closing note of
    issue 24), in a folder with no ledger and no ``LEDGER_DB``."""
    out = tmp_path / "b.json"
    bundle_of(season_db, out, "--period", "2026-10")
    blocked = ("import sys\n"
               f"for name in {NOT_FOR_VERIFY!r}:\n"
               "    sys.modules[name] = None  # an import of it raises ImportError\n"
               "from ledger.cli.app import main\n"
               "main()\n")
    env = {k: v for k, v in os.environ.items() if k != "LEDGER_DB"} | {"PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", blocked, "verify", str(out)], env=env,
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "revision 1, 6 rows, digest 7602c266ca8c6391" in done.stdout  # the demo's digest
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.json"]
