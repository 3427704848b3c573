"""The players of a FIDE rating list in the ledger (``ListImport``, run by
``imports.fide_lists.import_fide_list`` inside its transaction): each line matched to a ledger
player (by FIDE id, else by name and birth year: ``register.matching.PlayerIndex``), the players
the ledger does not know registered in batches, known players' identities brought up to date,
the list ratings recorded (``list_ratings``), and the published ratings the list gives in its
pool, with the warnings of FIDE B.02 §8.3.3 (a K 40 the ledger cannot explain).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Insert, func, insert, select
from sqlalchemy.orm import Session

from ledger.db.models import ListRating, Player, PlayerEntry
from ledger.domain import KReason, Period, PlayerState, count
from ledger.errors import LedgerError, Problem
from ledger.formats.fide_list import FideListReadout, ListPlayer, Pool
from ledger.names import name_key
from ledger.rules.kfactor import is_junior
from ledger.rules.pools import k_in_pool
from ledger.services.close.state import History, last_closed_period, load_histories
from ledger.services.core.audit import written_by
from ledger.services.core.facts import revise_player
from ledger.services.imports.fide_list_report import (
    IDENTITY_FIELDS,
    IdentityChange,
    ListImportReport,
    Progress,
)
from ledger.services.register.matching import Match, PlayerIndex
from ledger.services.register.players import (
    NewPlayer,
    entry_values,
    invalid_field,
    registered_prior_games,
    validate_new_player,
)

_PROGRESS_EVERY = 1000
_BATCH = 5000
_IDS_PER_QUERY = 500


@dataclass
class ListImport:
    """One list import inside the caller's transaction: ``run`` matches, registers and
    updates the players of ``readout`` (the list as read, dated ``day``, its ``pool``'s
    columns), records their list ratings and published ratings, and counts what it did, and
    every problem with file, line and field, in ``report`` (the caller rejects the import when
    ``report`` holds an error). ``progress``: called every 1,000 players and at the last, phase
    "matching and recording players"."""

    session: Session
    readout: FideListReadout
    day: dt.date
    pool: Pool
    report: ListImportReport
    progress: Progress | None

    def run(self) -> None:
        self.period = Period.of(self.day)
        self.last_closed = last_closed_period(self.session, self.pool)
        self.index = PlayerIndex.load(self.session)
        self.source = f"FIDE {self.pool} list {self.day} ({Path(self.readout.file).name})"[:200]
        self.recorded = {row.player_id: row for row in self.session.scalars(
            select(ListRating).where(ListRating.list_date == self.day,
                                     ListRating.pool == self.pool))}
        self.newest_list: dict[int, dt.date] = {
            pid: newest for pid, newest in self.session.execute(
                select(ListRating.player_id, func.max(ListRating.list_date))
                .group_by(ListRating.player_id))}
        self.histories = load_histories(self.session, None, through=self.period.previous(),
                                        pool=self.pool)
        self.namesakes: dict[str, int] = {}
        self.by_name: dict[str, list[ListPlayer]] = defaultdict(list)
        for p in self.readout.players:
            self.by_name[name_key(p.name)].append(p)
        total = len(self.readout.players)
        kept_identity = 0
        rows: list[dict[str, Any]] = []
        self.unknown: list[ListPlayer] = []
        for i, p in enumerate(self.readout.players, start=1):
            if self.progress is not None and (i % _PROGRESS_EVERY == 0 or i == total):
                self.progress(i, total, "matching and recording players")
            player = self._find(p)
            if player is None:
                continue
            if not self._update_identity(player, p):
                kept_identity += 1
            row = self._list_rating(player, p)
            if row is not None:
                rows.append(row)
        for start in range(0, len(self.unknown), _BATCH):
            rows.extend(self._register(self.unknown[start:start + _BATCH]))
        for start in range(0, len(rows), _BATCH):
            self.session.execute(_bulk(ListRating), rows[start:start + _BATCH])
        if kept_identity:
            self.report.notes.append(
                f"{count(kept_identity, 'player')} {'is' if kept_identity == 1 else 'are'} on a "
                "newer list already: their identity is kept "
                "from that list")
        if self.pool != "standard":
            if self.report.players_registered:
                self.report.notes.append(
                    f"{count(self.report.players_registered, 'player')} "
                    f"{'would be registered' if self.report.dry_run else 'registered'} from the "
                    f"list (FIDE's own record of its players), unrated in the standard pool")

    def _problem(self, p: ListPlayer, key: str, message: str, severity: str = "error") -> None:
        self.report.problems.append(Problem(self.readout.file, p.line, p.where(key), message,
                                            severity))

    def _find(self, p: ListPlayer) -> Player | None:
        """The ledger player ``p`` is; None when unknown (kept in ``unknown``, registered
        afterwards) or on error."""
        found = self.index.match(p.name, p.fide_id, p.birth_year)
        if found.player is not None and found.player.fide_id is None:
            found = self._unambiguous_on_list(found, p)
        if found.error is not None and found.candidates:
            self._problem(p, "name", found.error)
            return None
        if found.player is not None:
            self.report.players_matched += 1
            return found.player
        # unknown, or a namesake with another FIDE id: on FIDE's own list, another player
        self.unknown.append(p)
        return None

    def _unambiguous_on_list(self, found: Match[Player], p: ListPlayer) -> Match[Player]:
        """A ledger player without FIDE id matched by name: refuse when other lines of the list
        could be them too (same name, birth year not ruling them out)."""
        assert found.player is not None
        born = found.player.birth_year
        rivals = [q for q in self.by_name[name_key(p.name)]
                  if born is None or q.birth_year is None or q.birth_year == born]
        if len(rivals) > 1:
            lines = "; ".join(f"line {q.line} (FIDE {q.fide_id or '-'}, born {q.birth_year or '?'})"
                              for q in rivals)
            return Match(error=f"{found.player.name} (#{found.player.id}, no FIDE id) could be any "
                               f"of {lines}: give the ledger player a FIDE id",
                         candidates=(found.player,))
        return found

    def _register(self, unknown: list[ListPlayer]) -> list[dict[str, Any]]:
        """Register the players the ledger does not know, as ``players.register`` does but with
        one INSERT per table for the batch (a full FIDE list has over a million players), with
        the rating they bring in force from the list's period (standard lists; unrated
        otherwise), prior games unknown for a rated player, 0 for an unrated one
        (``players.registered_prior_games``), in the list's pool (docs/RULES.md §9: unrated in
        the other pools). Players without a FIDE id (rare: a club's own list)
        are inserted one by one, the database giving each id. Returns their new list_ratings
        rows."""
        new: list[tuple[ListPlayer, NewPlayer]] = []
        for p in unknown:
            person = NewPlayer(name=p.name, fide_id=p.fide_id, birth_year=p.birth_year, sex=p.sex,
                               federation=p.federation, title=p.title,
                               rating=p.rating,
                               prior_games=registered_prior_games(p.rating))
            try:
                validate_new_player(person)
            except LedgerError as exc:
                self._problem(p, invalid_field(exc), str(exc))
                continue
            new.append((p, person))
        if not new:
            return []
        change_id = written_by(self.session)
        # one row per record, by its place in ``new``: never by line (an XML list written on
        # one line has every player on line 1)
        values = [{"name": person.name, "name_key": name_key(person.name),
                   "namesake": self._namesake(name_key(person.name)),
                   "change_id": change_id,
                   "fide_id": p.fide_id, "birth_year": p.birth_year, "sex": p.sex,
                   "federation": p.federation, "title": p.title, "w_title": p.w_title,
                   "o_title": p.o_title, "foa_title": p.foa_title}
                  for p, person in new]
        # those with a FIDE id: one INSERT, the ids read back by FIDE id
        with_id = [p for p, _ in new if p.fide_id is not None]
        if with_id:
            self.session.execute(_bulk(Player), [row for row, (p, _) in zip(values, new, strict=True)
                                                 if p.fide_id is not None])
        ids: dict[int | None, int] = {}
        for start in range(0, len(with_id), _IDS_PER_QUERY):
            fide_ids = [p.fide_id for p in with_id[start:start + _IDS_PER_QUERY]]
            ids.update((fide_id, pid) for pid, fide_id in self.session.execute(
                select(Player.id, Player.fide_id).where(Player.fide_id.in_(fide_ids))))
        entries, rows = [], []
        for (p, person), row in zip(new, values, strict=True):
            if p.fide_id is not None:
                player_id = ids[p.fide_id]
            else:  # no FIDE id to read it back by: the database returns the new id
                player_id = self.session.execute(
                    insert(Player).values(row).returning(Player.id)).scalar_one()
            rating = person.rating
            entries.append(entry_values(player_id, person, source=self.source,
                                        effective_from=self.period, change_id=change_id)
                           | {"pool": self.pool})
            self.report.players_registered += 1
            if rating is not None:
                self.report.published += 1
                self._k40_unexplained(p, p.birth_year, PlayerState(
                    rating=rating, birth_year=p.birth_year, rated_games=None,
                    reached_2400=rating >= 2400, reached_2300=rating >= 2300))
            if p.rating is None:
                self.report.unrated += 1
            else:
                rows.append(self._row(player_id, p))
        self.session.execute(_bulk(PlayerEntry), entries)
        return rows

    def _k40_unexplained(self, p: ListPlayer, birth_year: int | None,
                         state: PlayerState) -> None:
        """Warn when the standard list prints K 40 for ``p``, whose rated games the ledger does
        not know (``state.rated_games`` None), and the ledger's K for the list's period would be
        20: K 40 then means fewer than 30 rated games (FIDE B.02 §8.3.3), which the junior rule
        does not explain (no junior, or a junior rated 2300 or more), but the ledger treats the
        player as established. (Reached 2400: K 10 whatever the games, no warning.)"""
        if p.k != 40 or k_in_pool(state, self.period, self.pool) != (20, KReason.STANDARD):
            return
        if birth_year is None:
            why = "birth year unknown"
        elif is_junior(birth_year, self.period):
            why = f"born {birth_year}, a junior, but rated 2300 or more"
        else:
            why = f"born {birth_year}, no junior in {self.period.year}"
        fide_id = f" --fide-id {p.fide_id}" if p.fide_id is not None else ""
        who = f"{p.name} (FIDE {p.fide_id})" if p.fide_id is not None else p.name
        self._problem(p, "k", f"{who}: the list's K 40 means fewer than 30 rated games ({why}), "
                      "but the ledger does not know their rated games and treats them as "
                      f'established (K 20); give them with `ledger player add "{p.name}"{fide_id} '
                      "--prior-games N` before importing the list, in a new ledger", "warning")

    def _namesake(self, key: str) -> int:
        """The ``players.namesake`` number of the next player registered with ``key``: after
        the players indexed and those this import registered before (``PlayerIndex``)."""
        number = max(self.index.next_namesake(key), self.namesakes.get(key, 0))
        self.namesakes[key] = number + 1
        return number

    def _update_identity(self, player: Player, p: ListPlayer) -> bool:
        """Bring a known player's identity to what the list says (blank fields erase nothing).
        False when a newer list is recorded for the player (its identity is kept)."""
        newest = self.newest_list.get(player.id)
        if newest is not None and newest > self.day:
            return False
        changes: dict[str, tuple[Any, Any]] = {
            name: (getattr(player, name), getattr(p, name)) for name in IDENTITY_FIELDS
            if getattr(p, name) is not None and getattr(p, name) != getattr(player, name)}
        if changes:
            change_id = written_by(self.session)
            if change_id is not None:
                revise_player(self.session, player, change_id)
            old_key = player.name_key
            for name, (_, new) in changes.items():
                setattr(player, name, new)
            if player.name_key != old_key:  # another key: the next namesake number of that key
                player.namesake = self._namesake(player.name_key)
                self.index.rename(player, old_key)
            if "fide_id" in changes:
                self.index.add(player)
            self.report.updated.append(IdentityChange(player.id, player.name, p.line, changes))
        return True

    def _list_rating(self, player: Player, p: ListPlayer) -> dict[str, Any] | None:
        """The list_ratings row for ``p`` (None when unrated, already recorded or in conflict);
        and the published rating in the list's pool."""
        if p.rating is None:
            self.report.unrated += 1
            return None
        old = self.recorded.get(player.id)
        if old is not None:
            if (old.rating, old.games, old.k, old.flag) != (p.rating, p.games, p.k, p.flag):
                self._problem(p, "rating", f"{player.name} (#{player.id}) is already recorded on "
                              f"the {self.pool} list of {self.day} from {old.source}: rating "
                              f"{old.rating}, games {_shown(old.games)}, K {_shown(old.k)}, flag "
                              f"{_shown(old.flag)}; this file says {p.rating}, {_shown(p.games)}, "
                              f"{_shown(p.k)}, {_shown(p.flag)}")
            else:
                self.report.ratings_already_recorded += 1
            return None
        if player.id in self.histories:
            self._published_rating(player, p, self.histories[player.id])
        return self._row(player.id, p)

    def _row(self, player_id: int, p: ListPlayer) -> dict[str, Any]:
        """A new list_ratings row."""
        self.report.ratings_recorded += 1
        return {"player_id": player_id, "list_date": self.day, "pool": self.pool,
                "rating": p.rating, "games": p.games, "k": p.k, "flag": p.flag,
                "source": Path(self.readout.file).name[:500]}

    def _published_rating(self, player: Player, p: ListPlayer, history: History) -> None:
        """A known player's rating on the list: the ledger's published rating in the list's pool
        from the list's period on, unless the ledger derives its own (then a difference is a
        warning)."""
        assert p.rating is not None
        period, last = self.period, self.last_closed
        ledger_rating = history.rating(period)
        closed = last is not None and period <= last
        derived = last is not None and period.previous() <= last and _derived(history, period)
        latest = history.latest_entry(period)
        entered = not (closed or derived) and not (
            latest is not None and latest.effective_from == period and latest.rating == p.rating)
        if p.k == 40:  # (a state costs a little: only for the K the warning is about)
            self._k40_of_known(player, p, history, entered)
        if closed or derived:
            if ledger_rating != p.rating:
                why = (f"period {period} is closed" if closed else
                       f"the ledger published its own list for {period}")
                self._problem(p, "rating", f"{player.name}: the list says {p.rating}, the ledger's "
                              f"published rating is {ledger_rating or 'unrated'} ({why}); the "
                              "ledger's is used", "warning")
            return
        if not entered:
            return
        self.session.add(PlayerEntry(**entry_values(
            player.id, NewPlayer(name=player.name, rating=p.rating,
                                 prior_games=latest.prior_games if latest is not None else None),
            source=self.source, effective_from=period, change_id=written_by(self.session)),
            pool=self.pool))
        self.report.published += 1


    def _k40_of_known(self, player: Player, p: ListPlayer, history: History,
                      entered: bool) -> None:
        """:meth:`_k40_unexplained` for a known player; ``entered``: this list writes the
        player's published rating (an entry keeping the prior games of the one in force, or
        unknown without one)."""
        assert p.rating is not None
        state = history.state(self.period)
        latest = history.latest_entry(self.period)
        unknown = (latest is None or latest.prior_games is None) if entered \
            else state.rated_games is None
        if unknown:
            self._k40_unexplained(p, player.birth_year, PlayerState(
                rating=p.rating, birth_year=player.birth_year, rated_games=None,
                reached_2400=state.reached_2400 or p.rating >= 2400,
                reached_2300=state.reached_2300 or p.rating >= 2300))


def _bulk(model: type[Player] | type[PlayerEntry] | type[ListRating]) -> Insert:
    """An ORM bulk INSERT of ``model`` rows that keeps a None as NULL (``render_nulls``): by
    default the ORM leaves a None column out of its row, so rows with and without a value (a
    title, a birth year ...) need different statements, and a list's million rows went to the
    database in small groups. None of these columns has a default a NULL would bypass."""
    return insert(model).execution_options(render_nulls=True)


def _shown(value: int | str | None) -> str:
    return "-" if value is None else str(value)


def _derived(history: History, period: Period) -> bool:
    """True when the rating in force for ``period`` comes from a closed period's result (or a
    list adjustment), not from an entry the player brought."""
    results = [r for r in history.results if r.period < period]
    if not results:
        return False
    latest = history.latest_rating_entry(period)
    in_force_from = max(r.period for r in results).next()
    return latest is None or latest.effective_from is None or latest.effective_from < in_force_from
