"""What the club's website shows: the pages' data as frozen values, and where each page lives.

Pure (no database, clock or I/O): ``services.publishing.site`` fills these from the ledger in one read
transaction, ``formats.site.pages`` renders them. Every page of a pool carries its ``pool``
(standard, rapid or blitz: each pool with a published list has its list pages). Paths are
relative to the site's folder, with "/" separators, and every link the pages write is made
relative to the page it is on (``relative``), so the folder works from a file system and from
any sub-path of a host.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from ledger.formats.site.paths import (
    SITE_POLICY,
    event_path,
    list_path,
    player_path,
)

#: The months as a list date is written on the pages.
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")


def long_date(day: dt.date) -> str:
    """``1 November 2026``."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def month_label(day: dt.date) -> str:
    """A list month as the chart's axis writes it: ``Nov 2026``."""
    return f"{MONTHS[day.month - 1][:3]} {day.year}"


def trend(value: int | Decimal) -> str:
    """The class of a change as the pages colour it: ``up``, ``down`` or ``same`` (the sign is
    always written too, so colour is never the only mark)."""
    return "up" if value > 0 else "down" if value < 0 else "same"


def signed(value: int | Decimal | None) -> str:
    """``+3``, ``-11``, ``0``; ``+3.10`` for an exact value; empty for None."""
    if value is None:
        return ""
    return f"{value:+}" if value != 0 else f"{value}"


@dataclass(frozen=True)
class ListLine:
    """One player on a published list.

    ``previous``: the rating in force before this list (None: the player is new on it, with a
    first rating); ``junior``: 18 or under in the year the list is in force (B.02 §8.3.3);
    ``games``: rated games in the period; ``k``: K for the next period; ``inactive``: flagged
    ``i``. ``name_key``: ``ledger.names.name_key`` of the name, what the search compares."""

    rank: int
    player_id: int
    name: str
    name_key: str
    title: str | None
    federation: str | None
    sex: str | None
    junior: bool
    rating: int
    previous: int | None
    games: int
    k: int
    inactive: bool

    @property
    def change(self) -> int | None:
        """Rating minus ``previous`` (None for a player new on the list)."""
        return None if self.previous is None else self.rating - self.previous

    @property
    def flag(self) -> str:
        """FIDE's flag: ``w`` a woman, ``i`` inactive, ``wi`` both, else empty."""
        return ("w" if self.sex == "F" else "") + ("i" if self.inactive else "")


@dataclass(frozen=True)
class ListRevision:
    """One computation of a published list: revision ``number`` (1: the close; each re-rating
    the next), when it was computed and why (a re-rating's reason)."""

    number: int
    computed_on: dt.date | None = None
    reason: str | None = None


@dataclass(frozen=True)
class ListPage:
    """The list published by closing ``period`` in ``pool``, in force from ``in_force_from``.

    ``revision``: the revision these lines are (None: a ledger that keeps no revisions);
    ``revisions``: every revision of this list, oldest first (empty, or one: never corrected).
    A page whose ``revision`` is not the latest is a superseded one: it says so and links the
    current list; the current one links every earlier revision (what was published then).
    ``digest``: the revision's list digest as stored (``period_revisions.digest``, 64 hex
    digits; None: none, a preview); ``bundle``: the path of its bundle (``bundle_path``; None:
    not published with the site); ``withheld``: the bundle is not published because it would
    name a player withdrawn since (``services.publishing.site._first_named``); ``size``: see
    ``count``."""

    pool: str
    period: str
    in_force_from: dt.date
    lines: tuple[ListLine, ...]
    revision: int | None = None
    revisions: tuple[ListRevision, ...] = ()
    digest: str | None = None
    bundle: str | None = None
    withheld: bool = False
    #: how many players the list has, when ``lines`` holds only some of them (a scoped
    #: rebuild's list it does not render: the lines of the players it renders); None: all
    size: int | None = None

    @property
    def count(self) -> int:
        """How many players the list has (the indexes and the home page show it)."""
        return len(self.lines) if self.size is None else self.size

    @property
    def latest(self) -> int | None:
        """The current revision's number (None: no revisions kept)."""
        return self.revisions[-1].number if self.revisions else None

    @property
    def superseded(self) -> bool:
        """True when this page shows a revision a re-rating replaced."""
        return self.revision is not None and self.latest is not None and self.revision != self.latest

    @property
    def path(self) -> str:
        """Where the page lives: the current list at ``list_path(pool, period)``, a superseded
        revision beside it."""
        return list_path(self.pool, self.period, self.revision if self.superseded else None)

    @property
    def earlier(self) -> tuple[ListRevision, ...]:
        """The revisions before the one shown (for the current list: what was published before)."""
        return tuple(r for r in self.revisions if self.revision is None or r.number < self.revision)


@dataclass(frozen=True)
class HistoryLine:
    """One closed period of a player's history: rating before, games, score, expected score
    (sum of PD), K and why (``k_capped``: cut by the 700 rule), the exact change and its one
    rounding, the rating after. A list adjustment (the 1 March 2024 raise) or an initial rating
    is a line of its own, with ``note`` saying which (``games`` then counts its pool)."""

    period: str
    rating_before: int | None
    games: int
    score: Decimal | None
    expected: Decimal | None
    k: int | None
    k_reason: str
    k_capped: bool
    change_exact: Decimal | None
    change: int | None
    rating_after: int
    note: str | None = None


@dataclass(frozen=True)
class ChartPoint:
    """A point of the rating chart: the rating in force from ``month`` (a list's date, the 1st).
    ``period``: the closed period whose list it is; None for the start rating (the one the
    player brought into their first rated period). ``k_note``: "K 40 -> 20" where the K of
    this list differs from the one before."""

    month: dt.date
    rating: int
    period: str | None
    k_note: str | None = None


#: A game's result as written, by the player's score (any other score: ``0``).
_SYMBOLS = {Decimal(1): "1", Decimal("0.5"): "½"}


@dataclass(frozen=True)
class PlayedGame:
    """One game on a player's page (their side) or in a crosstable.

    ``score``: the player's points (1, 0.5, 0; a forfeit win 1); ``forfeit``: not played over the
    board (a forfeit, or no moves), so never rated; ``own_rating``/``opponent_rating``: ratings in
    force at the event's start (None: unrated); ``difference`` (D), ``counted_difference`` (after
    the 400-point rule) and ``expected`` (PD): the game as rated for the player, None when it was
    not; ``status``: ``rated``, ``forfeit``, ``open`` ... as ``ledger game list`` says."""

    game_id: int
    date: dt.date
    event_id: int | None
    event: str | None
    round: str | None
    colour: str
    opponent_id: int
    opponent: str
    own_rating: int | None
    opponent_rating: int | None
    score: Decimal
    forfeit: bool
    status: str
    difference: int | None = None
    counted_difference: int | None = None
    expected: Decimal | None = None

    @property
    def symbol(self) -> str:
        """The result from the player's side: ``1``, ``½``, ``0``; a forfeit ``+`` or ``-``."""
        if self.forfeit:
            return "+" if self.score else "-"
        return _SYMBOLS.get(self.score, "0")

    @property
    def surplus(self) -> Decimal | None:
        """S - PD (None when not rated for the player)."""
        return None if self.expected is None else self.score - self.expected


@dataclass(frozen=True)
class PeriodGames:
    """A player's games in one period, with the period's line of their history (None when no
    game of it was rated for them)."""

    period: str
    games: tuple[PlayedGame, ...]
    history: HistoryLine | None = None


@dataclass(frozen=True)
class PoolRecord:
    """A player in one rating pool: the rating in force now (None: unrated), K for the next
    period and why, rated games so far (None: history unknown), the history (oldest first),
    the chart's points (the start rating first, then the first list and each list where the
    rating or K changed), each period's games, ``progress``: an unrated player's way to a first
    rating in words (or None), and ``carried``: each carried correction that applies, a line
    of its own in words (``carried into 2026-12: -20.00, game 12 corrected ...``, docs/CORRECTIONS.md §5)."""

    pool: str
    rating: int | None
    k: int
    k_reason: str
    rated_games: int | None
    history: tuple[HistoryLine, ...]
    chart: tuple[ChartPoint, ...]
    periods: tuple[PeriodGames, ...]
    progress: str | None = None
    carried: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayerPage:
    """A player's page: identity, one record per pool, the events they played (id, name,
    start date, in order)."""

    player_id: int
    name: str
    name_key: str
    fide_id: int | None
    federation: str | None
    title: str | None
    sex: str | None
    birth_year: int | None
    pools: tuple[PoolRecord, ...]
    events: tuple[tuple[int, str, dt.date], ...] = ()

    @property
    def path(self) -> str:
        """``player_path(player_id)``."""
        return player_path(self.player_id)


@dataclass(frozen=True)
class EventLine:
    """One player of an event, in the standings order (``number``, 1 first: the crosstable's
    numbers), with their tournament rating report: ``rating`` at the event's start, every game
    recorded (``points`` as standings count them), the games rated for them (``rated_games``,
    ``score``, ``expected``), K, ``change`` (K x (score - expected), exact: this event's part of
    the period's change before its single rounding), the period's rounded change over its
    ``period_games``, the performance ``rp`` over ``rp_games`` (None: no game counts), and
    ``why``: why this event's exact change and the period's change differ, in words (None: they
    do not; ``services.publishing.event_reports.EventPlayer.why``); ``late``: the player's late
    results (rated in a later period, each with its own change: ``LateGame.text``), which the
    games, score, expected and change do not count."""

    number: int
    player_id: int
    name: str
    title: str | None
    federation: str | None
    rating: int | None
    points: Decimal
    games: tuple[PlayedGame, ...]
    rated_games: int
    score: Decimal
    expected: Decimal
    k: int | None
    change: Decimal | None
    period_change: int | None
    period_games: int | None
    rp: int | None
    rp_games: int
    why: str | None = None
    late: tuple[str, ...] = ()


@dataclass(frozen=True)
class EventPage:
    """A tournament: its dates, the period its games belong to (``closed``: rated), where it
    was played, the file it came from, the games recorded, and its players, all of ``pool``;
    ``more``: its reports in the other pools it has games in (rapid rounds and a blitz
    play-off), each an ``EventPage`` of that pool, shown on the same page; ``late_games``: how
    many of its games are late results (rated in a later period, docs/RULES.md §1);
    ``players``: how many players it has when ``lines`` is empty because they were not
    gathered (``player_count``), else None."""

    event_id: int
    name: str
    start_date: dt.date
    end_date: dt.date
    period: str
    closed: bool
    place: str | None
    source: str | None
    games: int
    lines: tuple[EventLine, ...]
    pool: str = "standard"
    more: tuple[EventPage, ...] = ()
    late_games: int = 0
    players: int | None = None

    @property
    def path(self) -> str:
        """``event_path(event_id)``."""
        return event_path(self.event_id)

    @property
    def player_count(self) -> int:
        """How many players it has: its ``lines``, or ``players`` when they were not gathered
        (a scoped build's summary of an event whose page it does not render)."""
        return len(self.lines) if self.players is None else self.players


@dataclass(frozen=True)
class Site:
    """Everything the site shows: the club's name, the build date (the one date on the pages
    that is not the ledger's), ``base_url`` (absolute, ending in "/"; None: not given) for the
    canonical links and the sitemap, the lists (by pool, then period, current revision before
    superseded ones), the players (by name) and the events (by start date); ``public_key``:
    the path of the bundles' public key (``PUBLIC_KEY``; None: the bundles are not signed)."""

    club: str
    built_on: dt.date
    lists: tuple[ListPage, ...]
    players: tuple[PlayerPage, ...]
    events: tuple[EventPage, ...]
    base_url: str | None = None
    public_key: str | None = None


@dataclass(frozen=True)
class ListPart:
    """The part of a long list one live page shows (``ledger serve``; the static page shows the
    whole list): rows ``start`` (0-based) to ``stop`` of the ``found`` rows (the whole list, or
    those whose name holds ``query``), part ``number`` of ``parts``; ``download`` the path of
    the whole list as CSV (None: a preview, which has none)."""

    number: int
    parts: int
    start: int
    stop: int
    found: int
    query: str
    download: str | None


@dataclass(frozen=True)
class Face:
    """Where the pages are shown. The static build (``STATIC``): each page's policy in a meta
    element (``csp``), no account link. The live server (``ledger serve``): ``csp`` None (the
    server's header carries its own policy, which lets the login form post), ``account`` the
    link (address, label) to log in or to the account, ``previews`` the pools whose list pages
    link the preview of the list their open period would publish (``preview_path``)."""

    csp: str | None = SITE_POLICY
    account: tuple[str, str] | None = None
    previews: tuple[str, ...] = ()


STATIC = Face()


@dataclass(frozen=True)
class Preview:
    """A list no close has published (``ledger list --preview``): the list closing its period
    would publish ``on`` that day; ``ended``: whether the period has ended (else games still to
    come change it)."""

    on: dt.date
    ended: bool
