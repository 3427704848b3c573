"""What ``player merge`` does in each rating pool (docs/CORRECTIONS.md §10, docs/RULES.md §9):
standard, rapid and blitz are checked and carried alike, each with its own entries, closed
results and closes.

For each pool, ``plan_pool`` compares the two histories where a rating brought from outside the
ledger (an entry) comes into force:

- **no contradiction**: KEEP's entries of the pool stand; when KEEP has none there (a rapid or
  blitz rating only the duplicate brought), the duplicate's entries of the pool are *carried*:
  copied to KEEP by the merge's change (``carry_entries``), so its published rating, rated-games
  count and K history (prior games, reached 2400 / 2300, later history entries) are never
  dropped. The copies are written by the merge's change, so the facts as of any earlier change
  (``db check``, the closed revisions) are unchanged. Where both have entries and the
  duplicate's K history differs, KEEP's stands and a note names the difference.
- **contradiction** (the duplicate rated where KEEP is unrated or rated otherwise, for a period
  an entry comes into force): refused, naming the pool; with ``--rerate`` KEEP's history
  stands, the duplicate's entries of the pool are not carried, and the pool is re-rated from
  the first closed period whose list shows the duplicate or holds its games
  (``PoolPlan.rerate_from``), so every list that published the duplicate is superseded.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ledger.db.models import ListEntry, Player, PlayerEntry
from ledger.domain import STANDARD, Period, RatingPool
from ledger.errors import InvalidInput
from ledger.services.close.late import earliest_open
from ledger.services.close.revisions import current
from ledger.services.close.state import FIRST_RATED_PERIOD, History, last_closed_period, load_histories


@dataclass
class PoolPlan:
    """What a merge does in ``pool``: ``carried`` the duplicate's entries copied to KEEP (ids;
    empty when KEEP has entries of its own there), ``contradiction`` the refusal's text when
    the two histories contradict (None: they agree), ``first_listed`` the first closed period
    of the pool whose current list shows the duplicate (None: none), ``notes`` what the report
    says of the pool."""

    pool: RatingPool
    carried: list[int] = field(default_factory=list)
    contradiction: str | None = None
    first_listed: str | None = None
    notes: list[str] = field(default_factory=list)

    def rerate_from(self, closed: list[str]) -> str | None:
        """The first closed period to re-rate in the pool: the first of ``closed`` (its closed
        periods holding the duplicate's games) and, when the histories contradict, the first
        list that shows the duplicate. None: nothing to re-rate."""
        starts = list(closed) + ([self.first_listed] if self.contradiction and
                                 self.first_listed else [])
        return min(starts) if starts else None


def plan_pool(session: Session, keep: Player, dup: Player, pool: RatingPool) -> PoolPlan:
    """Compare KEEP's and the duplicate's histories in ``pool`` (see the module docstring).
    Reads only; a contradiction is returned, not raised (``refuse`` raises it). Four queries
    and the two histories."""
    plan = PoolPlan(pool)
    last = last_closed_period(session, pool)
    histories = load_histories(session, [keep.id, dup.id], through=last or Period(1, 1),
                               pool=pool)
    kept, other = histories[keep.id], histories[dup.id]
    plan.contradiction = _contradiction(keep, dup, kept, other, pool)
    if not kept.entries and plan.contradiction is None:
        plan.carried = [e.entry_id for e in other.entries]
    elif kept.entries and other.entries and plan.contradiction is None:
        plan.notes += _k_history_note(session, keep, dup, kept, other, pool)
    plan.first_listed = session.scalar(
        select(func.min(ListEntry.period)).where(ListEntry.player_id == dup.id,
                                                  current(ListEntry, pool)))
    return plan


def _in_pool(pool: RatingPool) -> str:
    return "" if pool == STANDARD else f" in the {pool} pool"


def _contradiction(keep: Player, dup: Player, kept: History, other: History,
                   pool: RatingPool) -> str | None:
    """Two ratings in force for one period an entry brings a rating into force, the duplicate
    rated there and KEEP unrated or rated otherwise; KEEP without any entry of the pool is
    unrated only for want of one (its entries are carried), not a contradiction."""
    periods = {e.effective_from or FIRST_RATED_PERIOD for h in (kept, other)
               for e in h.entries if e.rating is not None and e.brings_rating}
    for period in sorted(periods):
        a, b = kept.rating(period), other.rating(period)
        if b is None or a == b or (a is None and not kept.entries):
            continue
        return (f"duplicate: the histories contradict{_in_pool(pool)}: for {period} "
                f"{keep.name} (#{keep.id}) is {'unrated' if a is None else f'rated {a}'} and "
                f"{dup.name} (#{dup.id}) rated {b}; one player has one published rating "
                "(merge the other way, correct one first, or merge with --rerate: the kept "
                "player's history stands and the lists that published the duplicate are "
                "re-rated)")
    return None


def _k_history_note(session: Session, keep: Player, dup: Player, kept: History,
                    other: History, pool: RatingPool) -> list[str]:
    """A note when both bring a K history in ``pool`` and the duplicate's differs (prior games,
    reached 2400 or 2300, as on the list in force for the pool's earliest open period): KEEP's
    stands, and the note says how to take the duplicate's."""
    when = earliest_open(session, pool) or FIRST_RATED_PERIOD
    a, b = kept.latest_entry(when), other.latest_entry(when)
    if a is None or b is None:
        return []
    differs = [f"{label} {_known(theirs)} (kept: {_known(ours)})" for label, ours, theirs in (
        ("prior games", a.prior_games, b.prior_games),
        ("reached 2400", a.reached_2400, b.reached_2400),
        ("reached 2300", a.reached_2300, b.reached_2300)) if ours != theirs]
    if not differs:
        return []
    flag = "" if pool == STANDARD else f" --pool {pool}"
    return [f"{dup.name} (#{dup.id}) brought another K history{_in_pool(pool)}: "
            f"{'; '.join(differs)}; {keep.name}'s stands (if the duplicate's is right: ledger "
            f"player edit #{keep.id} --prior-games N{flag} --reason ...)"]


def _known(value: object) -> str:
    """A K history value as the note says it: ``unknown`` for None (prior games not known)."""
    return "unknown" if value is None else str(value)


def refuse(plans: list[PoolPlan], rerate: bool) -> None:
    """Raise ``InvalidInput`` with the first contradiction, unless ``rerate`` resolves it."""
    for plan in plans:
        if plan.contradiction is not None and not rerate:
            raise InvalidInput(plan.contradiction)


def carry_entries(session: Session, plans: list[PoolPlan], keep: Player, dup: Player,
                  change_id: int) -> list[int]:
    """Copy each plan's carried entries of the duplicate to KEEP, written by change
    ``change_id`` (in id order, so the latest stays the latest); the duplicate's own rows stay
    as they were. Returns the new entries' ids."""
    ids = [i for plan in plans for i in plan.carried]
    if not ids:
        return []
    copies = []
    for e in session.scalars(select(PlayerEntry).where(PlayerEntry.id.in_(ids))
                             .order_by(PlayerEntry.id)):
        copies.append(PlayerEntry(
            player_id=keep.id, effective_from=e.effective_from, rating=e.rating,
            prior_games=e.prior_games, reached_2400=e.reached_2400,
            reached_2300=e.reached_2300, kind=e.kind, pool=e.pool, change_id=change_id,
            source=f"merged from #{dup.id}: {e.source}"[:200]))
    session.add_all(copies)
    session.flush()
    return [c.id for c in copies]
