"""Registering players, finding them by id, FIDE id or name, and showing what the ledger knows."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import asdict, dataclass, replace

from sqlalchemy import Engine, and_, func, select
from sqlalchemy.orm import Session

from ledger.db.models import Game, ListRating, Player, PlayerEntry
from ledger.db.order import PLAYER_ORDER
from ledger.domain import (
    MAX_RATING,
    MIN_RATING,
    POOLS,
    STANDARD,
    Actor,
    KReason,
    Period,
    RatingPool,
    described_character,
    find_control_character,
    parse_pool,
)
from ledger.errors import Ambiguous, InvalidInput, LedgerError, NotFound, shown
from ledger.names import name_key, same_name_keys
from ledger.rules.editions import edition_for
from ledger.rules.pools import k_in_pool
from ledger.services.close.life import RatingLife, rating_life
from ledger.services.close.state import FIRST_RATED_PERIOD, last_closed_period, load_histories
from ledger.services.core.audit import record_change, summarise, written_by
from ledger.services.core.session import transaction
from ledger.services.register.matching import described, may_mean, players_like, suggest_players

TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")
_FED_RE = re.compile(r"^[A-Z]{3}$")
MAX_NAME = 200
MAX_FIDE_ID = 9_999_999_999
MAX_PRIOR_GAMES = 100_000
#: The highest id (players, games, events) and revision: PostgreSQL's ``integer`` (SQLAlchemy's
#: ``Integer``), 2**31 - 1. A larger one is looked for nowhere (not found, as on SQLite): the
#: server would refuse the query with its own message.
MAX_ID = 2**31 - 1
_ID_RE = re.compile(r"#?[0-9]{1,30}")



@dataclass(frozen=True)
class NewPlayer:
    """What ``ledger player add`` registers. ``rating`` None: unrated. ``prior_games`` None:
    unknown history, treated as established (30 or more rated games). ``rating`` and
    ``prior_games`` are standard; ``pools``: (pool, rating, prior games) the player brings in
    rapid or blitz (docs/RULES.md §9), each an entry of that pool."""

    name: str
    fide_id: int | None = None
    birth_year: int | None = None
    sex: str | None = None
    federation: str | None = None
    title: str | None = None
    rating: int | None = None
    prior_games: int | None = 0
    reached_2400: bool = False
    reached_2300: bool = False
    pools: tuple[tuple[str, int | None, int | None], ...] = ()


def registered_prior_games(rating: int | None) -> int | None:
    """The rated games before the ledger of a player an import (of games or of a FIDE list)
    registers with the file's ``rating`` (int, or None: unrated): None (unknown, treated as
    established: 30 or more) when the file gives a rating; 0 when it gives none, since a player
    who comes in unrated has no rated games yet and keeps K 40 until 30 (FIDE B.02 §8.3.3), as
    after ``ledger player add``."""
    return None if rating is not None else 0


@dataclass(frozen=True)
class PrintedListRating:
    """A player's rating in one pool as printed on a FIDE rating list (table ``list_ratings``,
    ``ledger import --format fide-list``), kept for comparison only: the ledger's own rating and
    K never come from it (FIDE B.02 §8.3.3; a list's K can be 0 or out of date).

    ``pool`` (standard, rapid or blitz), ``list_date`` (the list's date), ``rating`` (None:
    unrated), ``games`` (in the list's period) and ``k`` as printed (None: blank), ``flag``
    (``i``, ``w``, ``wi`` ... or None), ``source`` (the list file's name)."""

    pool: str
    list_date: dt.date
    rating: int | None
    games: int | None
    k: int | None
    flag: str | None
    source: str


@dataclass(frozen=True)
class PlayerView:
    """A player as the CLI shows them: identity, current published rating, K now and why;
    ``life`` (``player show`` only): pool in progress, initial ratings, drops below the floor;
    ``list_ratings`` (``player show`` only): the latest FIDE list rating per pool, as printed;
    ``w_title``, ``o_title``, ``foa_title``: the woman's, other (arbiter, trainer ...) and FOA
    titles a FIDE rating list gave (None: not known)."""

    id: int
    name: str
    fide_id: int | None
    birth_year: int | None
    sex: str | None
    federation: str | None
    title: str | None
    rating: int | None
    rated_games: int | None
    reached_2400: bool
    reached_2300: bool
    k: int
    k_reason: KReason
    history_unknown: bool
    next_period: str
    notes: tuple[str, ...] = ()
    life: RatingLife | None = None
    list_ratings: tuple[PrintedListRating, ...] = ()
    w_title: str | None = None
    o_title: str | None = None
    foa_title: str | None = None
    #: The rating pool the rating, games and K are of (docs/RULES.md §9).
    pool: str = STANDARD


def validate_new_player(p: NewPlayer) -> None:
    """Raise ``InvalidInput`` naming the field for any invalid value (a name with a control or
    format character, as the imports refuse it: ``domain.find_control_character``; a birth year
    after this year ...)."""
    name = p.name.strip()
    if not any(ch.isalpha() for ch in name):
        raise InvalidInput(f"name: {p.name!r} has no letters; write it as \"Surname, Name\"")
    if len(name) > MAX_NAME:
        raise InvalidInput(f"name: {len(name)} characters; at most {MAX_NAME}")
    control = find_control_character(p.name)
    if control is not None:
        raise InvalidInput(f"name: {shown(p.name)} holds {described_character(control.group())}: "
                           "a name is one line of visible text")
    if p.fide_id is not None and not 0 < p.fide_id <= MAX_FIDE_ID:
        raise InvalidInput(f"fide-id: {p.fide_id} is not a FIDE id")
    this_year = dt.date.today().year
    if p.birth_year is not None and p.birth_year > this_year:
        raise InvalidInput(f"birth-year: {p.birth_year} is after this year ({this_year})")
    if p.birth_year is not None and p.birth_year < 1880:
        raise InvalidInput(f"birth-year: {p.birth_year} is not a plausible year of birth")
    if p.sex is not None and p.sex not in ("M", "F"):
        raise InvalidInput(f"sex: {p.sex!r} must be M or F")
    if p.federation is not None and not _FED_RE.match(p.federation):
        raise InvalidInput(f"federation: {p.federation!r} must be a three-letter code such as ENG")
    if p.title is not None and p.title not in TITLES:
        raise InvalidInput(f"title: {p.title!r} must be one of {', '.join(TITLES)}")
    if p.rating is not None and not MIN_RATING <= p.rating <= MAX_RATING:
        raise InvalidInput(f"rating: {p.rating} is outside {MIN_RATING}..{MAX_RATING}")
    if p.prior_games is not None and not 0 <= p.prior_games <= MAX_PRIOR_GAMES:
        raise InvalidInput(f"prior-games: {p.prior_games} must be 0 to {MAX_PRIOR_GAMES}")
    for pool, rating, prior in p.pools:
        parse_pool(pool)
        if rating is not None and not MIN_RATING <= rating <= MAX_RATING:
            raise InvalidInput(f"{pool}-rating: {rating} is outside {MIN_RATING}..{MAX_RATING}")
        if prior is not None and not 0 <= prior <= MAX_PRIOR_GAMES:
            raise InvalidInput(f"{pool}-games: {prior} must be 0 to {MAX_PRIOR_GAMES}")


def invalid_field(exc: LedgerError) -> str:
    """The field a ``validate_new_player`` refusal names (its message starts ``field:``), as a
    ``FilePlayer.at`` key: ``birth-year: ...`` -> ``birth_year``."""
    return str(exc).split(":")[0].replace("-", "_")


def first_open_period(session: Session, pool: RatingPool = STANDARD) -> Period | None:
    """The period after the last closed one of ``pool``, or None when none is closed yet."""
    last = last_closed_period(session, pool)
    return last.next() if last else None


def next_namesake(session: Session, key: str) -> int:
    """The ``players.namesake`` number of the next player registered with name key ``key``: 0
    when nobody has it, else one more than the highest. Every registration, and every change of
    a player's name to another key, takes its number here (or from ``PlayerIndex.next_namesake``,
    the same rule on players already loaded)."""
    top = session.scalar(select(func.max(Player.namesake)).where(Player.name_key == key))
    return 0 if top is None else top + 1


def register(session: Session, p: NewPlayer, *, source: str,
             effective_from: Period | None, namesake: int | None = None) -> Player:
    """Insert a player and the entry they bring, inside the caller's transaction, both written
    by the change being recorded (``services.core.audit.written_by``). ``namesake``: their
    ``players.namesake`` number, when the caller knows it (None: ``next_namesake``); the caller
    has decided that they are another person than any player of the same name."""
    validate_new_player(p)
    if p.fide_id is not None:
        clash = session.scalar(select(Player).where(Player.fide_id == p.fide_id))
        if clash is not None:
            raise InvalidInput(f"fide-id: {p.fide_id} already belongs to {clash.name} (#{clash.id})")
    name = p.name.strip()
    if namesake is None:
        namesake = next_namesake(session, name_key(name))
    player = Player(name=name, fide_id=p.fide_id, birth_year=p.birth_year, sex=p.sex,
                    federation=p.federation, title=p.title, namesake=namesake,
                    change_id=written_by(session))
    session.add(player)
    session.flush()
    session.add(PlayerEntry(**entry_values(player.id, p, source=source,
                                           effective_from=effective_from,
                                           change_id=player.change_id)))
    for pool, rating, prior in p.pools:
        last = last_closed_period(session, parse_pool(pool))
        session.add(PlayerEntry(**entry_values(
            player.id, replace(p, rating=rating, prior_games=prior, reached_2400=False,
                               reached_2300=False),
            source=source, effective_from=last.next() if last else None,
            change_id=player.change_id), pool=parse_pool(pool)))
    return player


def entry_values(player_id: int, p: NewPlayer, *, source: str,
                 effective_from: Period | None, change_id: int | None = None) -> dict[str, object]:
    """The ``player_entries`` row a player brings: ``p.rating`` in force from ``effective_from``
    (None: from the start) with ``p.prior_games``; a rating of 2400 (2300) or more marks
    reached-2400 (reached-2300) as well, since a published rating that high counts for the K
    rules (FIDE B.02 §8.3.3). Every registration builds its entry here, written by change
    ``change_id``."""
    rating = p.rating
    return {"player_id": player_id, "change_id": change_id,
            "effective_from": str(effective_from) if effective_from else None,
            "rating": rating, "prior_games": p.prior_games,
            "reached_2400": p.reached_2400 or (rating is not None and rating >= 2400),
            "reached_2300": p.reached_2300 or (rating is not None and rating >= 2300),
            "source": source}


def below_floor_note(rating: int | None, period: Period | None) -> str | None:
    """A note when ``rating`` (int or None) is below the rating floor of the rules in force for
    ``period``: 1400 since March 2024, 1000 before (FIDE B.02 §7.1.4; docs/RULES.md §6, §8).
    FIDE publishes no such rating, so it is most likely a national rating or a typo; the ledger
    records it as given. None when the rating is at or above the floor, unrated, or its period
    is unknown or before 2022 (no rule edition)."""
    if rating is None or period is None or period < FIRST_RATED_PERIOD:
        return None
    floor = edition_for(period).rating_floor
    if rating >= floor:
        return None
    return (f"rating: {rating} is below the rating floor {floor} of the rules in force for "
            f"{period}; FIDE publishes no rating below it (recorded as given)")


def add_player(engine: Engine, p: NewPlayer, *, new: bool = False,
               actor: Actor | None = None) -> PlayerView:
    """``ledger player add``: register a player; the rating is in force for every open period.
    One ``player.add`` change by ``actor`` (None: called from code, ``Actor.from_code``)
    records it, with the values registered.

    A name that is already a player's (``same_name``: the same ``name_key``, or the same name
    in the other word order) is refused, naming them, unless ``new`` says it is another person
    (then a note says how to tell them apart).

    Raises ``InvalidInput`` for a bad field, a FIDE id already in the ledger, or such a name.
    """
    validate_new_player(p)
    with transaction(engine) as session:
        namesakes = same_name(session, p.name)
        if namesakes and not new:
            raise InvalidInput(f"name: {shown(p.name.strip())} is already in the ledger as "
                               f"{_described(session, namesakes)}; refer to them by id, or, if "
                               "this is another person, add them with --new")
        lookalikes = [] if namesakes or new else looks_like(session, p.name)
        if lookalikes:
            raise InvalidInput(f"name: {shown(p.name.strip())} looks like "
                               f"{_described(session, lookalikes)}, already in the ledger (the "
                               "same name but for blanks, apostrophes, an umlaut written ae, oe, "
                               "ue, or look-alike letters); refer to them by id, or, if this is "
                               "another person, add them with --new")
        change = record_change(session, actor or Actor.from_code("add_player"), "player.add",
                               "player", "new")
        player = register(session, p, source="ledger player add",
                          effective_from=first_open_period(session))
        session.flush()
        change.entity_id = str(player.id)
        summarise(change, asdict(p) | {"id": player.id, "name": player.name})
        notes = tuple(f"{n.name} (#{n.id}) has the same name: refer to them by id or FIDE id"
                      for n in namesakes)
        floor = below_floor_note(p.rating, first_open_period(session) or Period.of(dt.date.today()))
        notes += (floor,) if floor else ()
        return replace(player_views(session, [player.id])[0], notes=notes)


def _described(session: Session, players: list[Player]) -> str:
    """The players as a message tells them apart; one merged into another (``player merge``)
    with the identity it joined, the one to refer to."""
    def one(player: Player) -> str:
        if player.merged_into is None:
            return described(player)
        joined = joined_identity(session, player)
        return f"{described(player)}, merged into {joined.name} (#{joined.id})"
    return " and ".join(map(one, players))


def looks_like(session: Session, name: str) -> list[Player]:
    """The players whose name looks like ``name`` (str) but is not it (``matching.players_like``:
    ``O'Briain, Sean`` looks like ``Ó Briain, Seán``; ``Mueller, Juergen`` like ``Müller,
    Jürgen``; Cyrillic ``Аberg, Anna`` like ``Aberg, Anna``), in ``PLAYER_ORDER``: a likely
    second registration of one person."""
    alike = {p.id for p in players_like(session, name)}
    return [p for p in session.scalars(select(Player).where(Player.id.in_(alike))
                                       .order_by(*PLAYER_ORDER))] if alike else []


def same_name(session: Session, name: str) -> list[Player]:
    """The players whose name is ``name`` (str): the same ``name_key``, or the same name in the
    other word order (``Kevin O'Brien`` = ``O'Brien, Kevin``) or with its comma optional
    (``O'Brien Kevin`` = ``O'Brien, Kevin``): ``ledger.names.same_name_keys``, in
    ``PLAYER_ORDER``."""
    key = name_key(name)
    return list(session.scalars(select(Player).where(Player.name_key.in_((key, *same_name_keys(key))))
                                .order_by(*PLAYER_ORDER)))


def joined_identity(session: Session, player: Player) -> Player:
    """The identity ``player`` is now: itself, or the player it was merged into, following a
    chain of merges (``#6`` into ``#5``, then ``#5`` into ``#7``: ``#7``)."""
    joined = player
    while joined.merged_into is not None:
        joined = session.get_one(Player, joined.merged_into)
    return joined


def resolve(session: Session, ref: str, field: str = "player", *, partial: bool = False,
            merged: bool = False) -> Player:
    """The player ``ref`` names: ``#ID``, a number (internal id or FIDE id), or a name.

    A name matches exactly, else by ``name_key`` (case, accents and punctuation aside: ``o
    briain, sean`` finds ``Ó Briain, Seán``), else in the other word order (``Kevin O'Brien``
    finds ``O'Brien, Kevin``) or with its comma optional (``O'Brien Kevin`` finds ``O'Brien,
    Kevin``, and ``O'Brien, Kevin`` a player a file named ``O'Brien Kevin``:
    ``ledger.names.same_name_keys``), else, with ``partial`` (the reports), as a part of one
    key (``Doyle`` finds ``Doyle, Liam``). Without it (every write: a write names its players in
    full, as the imports do) a part of a name is ``NotFound``, naming the players it is a part
    of. A player merged into another (``ledger player merge``) is found no more: a name that
    only such a player has, or its id, raises ``NotFound`` pointing at the player it joined;
    among several matches it is left out (``merged``: it is found, for reading its own record).
    Raises ``NotFound`` (with "did you mean": up to 3 players with id and FIDE id, from
    ``matching.suggest_players``: a part of a name, else a close spelling) or ``Ambiguous``
    (listing the candidates, each with FIDE id, birth year and federation:
    ``matching.described``);
    ``InvalidInput`` for an empty reference. Messages start with ``field``.
    """
    found = _resolve(session, ref, field, partial)
    if found.merged_into is None or merged:
        return found
    joined = joined_identity(session, found)
    raise NotFound(f"{field}: {found.name} (#{found.id}) was merged into {joined.name} "
                   f"(#{joined.id}): refer to #{joined.id}")


def _resolve(session: Session, ref: str, field: str, partial: bool) -> Player:
    text = ref.strip()
    if not text:
        raise InvalidInput(f"{field}: empty player reference")
    if _ID_RE.fullmatch(text):
        number = int(text.lstrip("#"))
        by_id = session.get(Player, number) if number <= MAX_ID else None
        if text.startswith("#"):
            if by_id is None:
                raise NotFound(f"{field}: no player with id {text}")
            return by_id
        by_fide = (session.scalar(select(Player).where(Player.fide_id == number))
                   if number <= MAX_FIDE_ID else None)
        if by_fide is not None and by_id is not None and by_fide.id != by_id.id:
            raise Ambiguous(f"{field}: {text} is the FIDE id of {by_fide.name} and the id of "
                            f"{by_id.name}; write #{by_id.id} for the id")
        found = by_fide or by_id
        if found is None:
            raise NotFound(f"{field}: no player with id or FIDE id {text}")
        return found
    exact = _live(list(session.scalars(select(Player).where(Player.name == text))))
    if len(exact) == 1:
        return exact[0]
    key = name_key(text)
    part = Player.name_key.contains(key, autoescape=True)
    if not exact and key:
        for condition in (Player.name_key == key, Player.name_key.in_(same_name_keys(key)),
                          *((part,) if partial else ())):
            exact = _live(list(session.scalars(select(Player).where(condition)
                                               .order_by(Player.merged_into.is_not(None),
                                                         *PLAYER_ORDER).limit(11))))
            if exact:
                break
    if not exact and key and not partial:
        holders = list(session.scalars(select(Player).where(part).order_by(*PLAYER_ORDER)
                                       .limit(3)))
        if holders:
            in_all = session.scalar(select(func.count()).where(part)) or len(holders)
            raise NotFound(f"{field}: {shown(text)} is only a part of a name; did you mean "
                           f"{may_mean(holders, in_all)}? A change to the ledger names its "
                           "players in full (the name, a FIDE id or #ID)")
    if not exact:
        similar, in_all = suggest_players(session, text)
        hint = f"; did you mean {may_mean(similar, in_all)}?" if similar else ""
        raise NotFound(f"{field}: no player named {shown(text)}{hint}")
    if len(exact) > 1:
        listed = "; ".join(map(described, exact[:10]))
        raise Ambiguous(f"{field}: {shown(text)} matches several players: {listed}"
                        + ("; write #ID" if len(exact) <= 10 else " ...; write #ID"))
    return exact[0]


def _live(players: list[Player]) -> list[Player]:
    """``players`` without those merged into another, unless that leaves none (then the merged
    ones, so that ``resolve`` can point at the player they joined)."""
    live = [p for p in players if p.merged_into is None]
    return live or players


def player_views(session: Session, ids: list[int] | None,
                 pool: RatingPool = STANDARD) -> list[PlayerView]:
    """Players (``ids``, or all) with their state in ``pool`` on the list in force for the next
    close of that pool (docs/RULES.md §9)."""
    query = select(Player).order_by(*PLAYER_ORDER)
    if ids is not None:
        query = query.where(Player.id.in_(ids))
    else:  # every player: those merged into another are found no more
        query = query.where(Player.merged_into.is_(None))
    players = list(session.scalars(query))
    open_period = first_open_period(session, pool)
    last_closed = open_period.previous() if open_period else None
    next_period = open_period or _earliest_game_period(session)
    histories = load_histories(session, ids, through=last_closed or Period(1, 1), pool=pool)
    views = []
    for p in players:
        history = histories[p.id]
        state = history.state(next_period) if last_closed is None else history.state(
            next_period, results_through=last_closed)
        k, reason = k_in_pool(state, next_period, pool)
        views.append(PlayerView(pool=pool,

            id=p.id, name=p.name, fide_id=p.fide_id, birth_year=p.birth_year, sex=p.sex,
            federation=p.federation, title=p.title, rating=state.rating,
            rated_games=state.rated_games, reached_2400=state.reached_2400,
            reached_2300=state.reached_2300, k=k, k_reason=reason,
            history_unknown=state.rated_games is None, next_period=str(next_period),
            w_title=p.w_title, o_title=p.o_title, foa_title=p.foa_title))
    return views


def latest_list_ratings(session: Session,
                        ids: list[int]) -> dict[int, tuple[PrintedListRating, ...]]:
    """Player id -> their latest FIDE list rating in each pool (the row with the latest list
    date for that player and pool), in the order standard, rapid, blitz; players with none are
    left out. One query for all ``ids``."""
    latest = (select(ListRating.player_id, ListRating.pool,
                     func.max(ListRating.list_date).label("list_date"))
              .where(ListRating.player_id.in_(ids))
              .group_by(ListRating.player_id, ListRating.pool).subquery())
    rows = session.scalars(select(ListRating).join(latest, and_(
        ListRating.player_id == latest.c.player_id, ListRating.pool == latest.c.pool,
        ListRating.list_date == latest.c.list_date)))
    found: dict[int, list[PrintedListRating]] = {}
    for row in rows:
        found.setdefault(row.player_id, []).append(PrintedListRating(
            row.pool, row.list_date, row.rating, row.games, row.k, row.flag, row.source))
    return {pid: tuple(sorted(items, key=lambda r: POOLS.index(r.pool)))
            for pid, items in found.items()}


def _earliest_game_period(session: Session) -> Period:
    """The first period with games, or this month when the ledger has none yet."""
    first = session.scalar(select(func.min(Game.period)))
    return Period.parse(first) if first else Period.of(dt.date.today())


def list_players(engine: Engine, pool: RatingPool = STANDARD) -> list[PlayerView]:
    """``ledger player list``: every player (in ``PLAYER_ORDER``: by name key, then id), with the
    rating, rated games and K in ``pool`` (docs/RULES.md §9) in force for that pool's next close;
    not those merged into another."""
    with transaction(engine, write=False) as session:
        return player_views(session, None, pool)


def show_player(engine: Engine, ref: str, pool: RatingPool = STANDARD) -> PlayerView:
    """``ledger player show``: one player (see ``resolve`` for ``ref``) in ``pool`` (rating,
    rated games, K; docs/RULES.md §9), with the life of their rating there
    (``ledger.services.close.life``) and their latest FIDE list rating per pool, as printed
    (``latest_list_ratings``)."""
    with transaction(engine, write=False) as session:
        view = player_views(session, [resolve(session, ref, partial=True).id], pool)[0]
        return replace(view, life=rating_life(session, view.id, view.rating is not None, pool),
                       list_ratings=latest_list_ratings(session, [view.id]).get(view.id, ()))
