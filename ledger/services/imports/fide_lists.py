"""Importing a FIDE rating list: ``ledger import LIST --format fide-list --list-date YYYY-MM-DD``.

FIDE's list is FIDE's own record of its players, so the import registers the players the ledger
does not know and brings the identity of the ones it knows up to date (name, federation, sex,
titles, birth year, FIDE id), reporting every change. A line without a FIDE id (the ledger's own
TXT list prints one for a club player) is matched by name and birth year, and registered without
one when unknown. Each player's published rating on the list, with games and K as printed, goes
into ``list_ratings`` for comparison only: the ledger derives K by its own rules (FIDE B.02
§8.3.3; a list's K can be 0 or out of date).

Each pool's list (standard, rapid or blitz: docs/RULES.md §9) also gives the ledger a published
rating in that pool, in force from the period of the list date (a list dated 2013-05-01 is in
force for period 2013-05), for every player whose rating the ledger does not already derive
for that list; prior games unknown (treated as established) unless the ledger knows them. The
list's K 40 for a player whose rated games the ledger does not know, where the junior rule does
not explain it (no junior, or a junior rated 2300 or more; below 2400), means fewer than 30
rated games: a warning naming the line and the player, who stays established for the ledger
(K 20). Where the ledger has published its own rating for that list (from a closed period of
that pool) and the list's differs, that is a warning and the ledger's value is used. A player
registered from a rapid or blitz list is unrated in standard.

A combined list (TXT or XML) has columns for each pool and is read as the standard list unless
told otherwise; a single list (one rating column named after the month, ``may13``) does not say
its pool, so the caller must name it (a blitz list taken as standard would become the ledger's
published ratings).

A combined list's one Flag column is the standard list's: its ``w`` (woman) goes with every pool,
its ``i`` (inactive) with the standard rating only, so a rapid or blitz row records ``w`` for
``wi`` (the reader, ``formats.fide_list``, gives each pool's flag). A line FIDE printed with a value
longer than its column (other titles) is read around with a warning; a line that still cannot be
read is an error and rejects the list.

Everything happens in one transaction: all or nothing; ``dry_run`` writes nothing; importing the
same list again adds nothing.
"""

from __future__ import annotations

import hashlib

from sqlalchemy import Engine

from ledger.domain import Actor
from ledger.errors import ImportRejected, InvalidInput, Problem, UsageError
from ledger.formats.fide_list import POOLS, Pool, read_fide_list_file
from ledger.services.core.audit import record_change, summarise
from ledger.services.core.session import transaction
from ledger.services.imports.fide_list_players import ListImport
from ledger.services.imports.fide_list_report import ListImportReport, Progress
from ledger.services.imports.input_files import check_input_file
from ledger.services.register.games import parse_date


def import_fide_list(engine: Engine, path: str, *, list_date: str, pool: str | None = None,
                     dry_run: bool = False, progress: Progress | None = None,
                     actor: Actor | None = None) -> ListImportReport:
    """``ledger import LIST --format fide-list``: read the list at ``path`` (TXT of any era or
    XML), dated ``list_date`` (``YYYY-MM-DD``), taking the ``pool`` columns (standard, rapid or
    blitz) of a combined list (``None``: standard); a single list (one rating column named after
    the month, ``may13``) does not say its pool, so it is the pool ``pool`` names, which must be
    given.

    Raises ``InvalidInput`` (exit 1) for a bad ``list_date`` or ``pool``; ``UsageError`` (exit 2,
    nothing written) for a single list without ``pool``; ``ImportRejected``
    (exit 3, nothing written) listing every error with file, line and field: unreadable lines, an
    ambiguous player (the candidates listed), a list rating for the same player, date and pool
    already recorded with other values.

    One ``fide-list.import`` change by ``actor`` (None: called from code, ``Actor.from_code``)
    records it (entity ``file``, the list's SHA-256) with a summary; every player registered or
    whose identity it changes, and every entry it records, carries it, and a changed identity
    keeps its earlier values in ``player_revisions`` (``services.core.facts.revise_player``), so the
    lists already published and ``db check`` see the players as they were.
    """
    check_input_file(path)  # a regular file of at most 2 GB, or ImportRejected (exit 3)
    day = parse_date(list_date, "list-date")
    if pool is not None and pool not in POOLS:
        raise InvalidInput(f"pool: {pool!r} must be one of {', '.join(POOLS)}")
    chosen: Pool = "standard" if pool is None else pool  # narrowed by the check above
    readout = read_fide_list_file(
        path, chosen, (lambda done, total: progress(done, total, "reading the list")) if progress else None)
    if pool is None and not readout.says_pool:
        raise UsageError(f"{path}: a single list (one rating column, {readout.rating_column}) "
                         "does not say its pool: give --pool standard|rapid|blitz")
    report = ListImportReport(path, day, chosen, readout.layout, dry_run,
                              players_in_file=len(readout.players))
    report.problems.extend(readout.problems)
    if readout.list_month is not None and readout.list_month != (day.year, day.month):
        report.problems.append(Problem(path, 1, f"header ({readout.rating_column})", "the list's "
                               f"rating column is {readout.rating_column}, but --list-date is "
                               f"{day}: is it the right file or date?", "warning"))
    with transaction(engine, dry_run=dry_run) as session:
        change = record_change(session, actor or Actor.from_code("import_fide_list"),
                               "fide-list.import", "file", _sha256(path))
        ListImport(session, readout, day, chosen, report, progress).run()
        report.problems.sort(key=lambda p: (p.line or 0, p.severity != "error"))
        if any(p.severity == "error" for p in report.problems):
            raise ImportRejected(f"{path}: import rejected, nothing was written", report.problems)
        summarise(change, {
            "file": path, "list_date": day, "pool": chosen,
            "players_matched": report.players_matched,
            "players_registered": report.players_registered,
            "identities_changed": {str(u.player_id): {k: list(v) for k, v in u.changes.items()}
                                   for u in report.updated},
            "ratings_recorded": report.ratings_recorded, "published": report.published})
    return report


def _sha256(path: str) -> str:
    """The SHA-256 of the file at ``path``, read in blocks (a full list is large)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
