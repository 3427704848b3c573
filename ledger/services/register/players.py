"""Registering players: ``ledger player add`` (``add_player``), and what every registration
shares (an import of games, of the players register or of a FIDE list, a player edit):
``NewPlayer`` and its checks (``validate_new_player``), the row and entry written
(``register``, ``entry_values``, ``next_namesake``), and the players a new name is already
(``same_name``) or looks like (``looks_like``). Finding a player a command names is
``register.player_refs``; showing players, ``register.player_views``.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import asdict, dataclass, replace

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from ledger.db.models import Player, PlayerEntry
from ledger.db.order import PLAYER_ORDER
from ledger.domain import (
    MAX_RATING,
    MIN_RATING,
    STANDARD,
    Actor,
    Period,
    RatingPool,
    described_character,
    find_control_character,
    parse_pool,
)
from ledger.errors import InvalidInput, LedgerError, UsageError, shown
from ledger.names import name_key, same_name_keys
from ledger.rules.editions import edition_for
from ledger.services.close.late import earliest_open
from ledger.services.close.state import FIRST_RATED_PERIOD, last_closed_period
from ledger.services.core.audit import record_change, summarise, written_by
from ledger.services.core.session import transaction
from ledger.services.register.matching import close_spellings, described, players_like
from ledger.services.register.player_refs import MAX_FIDE_ID, joined_identity
from ledger.services.register.player_views import PlayerView, player_views

TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")
_FED_RE = re.compile(r"^[A-Z]{3}$")
MAX_NAME = 200
MAX_PRIOR_GAMES = 100_000


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


#: What ``player add --prior-games`` takes for rated games not known: a players CSV's blank.
UNKNOWN_GAMES = "unknown"
#: Why ``player add --rating`` needs ``--prior-games``: what each answer means for K.
PRIOR_GAMES_NEEDED = (
    "--prior-games: a player added with --rating needs it, as K depends on it (FIDE B.02 "
    "§8.3.3): --prior-games N, the rated games they have played (fewer than 30: K 40 until "
    "their 30th; 30 or more: K 20), or --prior-games unknown, treated as established (K 20, "
    "as a players CSV's blank prior_games); K is 10 once they reached 2400, and 40 for a "
    "junior below 2300, whatever the games")


def prior_games(rating: int | None, games: int | None) -> int | None:
    """The rated games before the ledger a player brings (FIDE B.02 §8.3.3: K 40 until 30),
    one rule for ``player add`` (``read_prior_games``) and a players CSV: ``games`` as given;
    unknown (``games`` None: ``--prior-games unknown``, a blank ``prior_games`` cell) is
    ``registered_prior_games(rating)``: None (treated as established) for a rated player, 0 for
    an unrated one."""
    return registered_prior_games(rating) if games is None else games


def read_prior_games(text: str | None, rating: int | None) -> int | None:
    """``player add --prior-games`` (``text``: a number of games, ``unknown``, or None when not
    given) for a player brought with ``rating`` (None: unrated), as ``prior_games`` reads it.

    Not given: 0 for an unrated player; for a rated one ``UsageError`` (exit 2,
    ``PRIOR_GAMES_NEEDED``): K 40 (0 games) or K 20 (unknown) is a decision, never a default.
    Raises ``InvalidInput`` naming ``prior-games`` for text that is neither."""
    if text is None:
        if rating is not None:
            raise UsageError(PRIOR_GAMES_NEEDED)
        return 0
    if text.strip().casefold() == UNKNOWN_GAMES:
        return prior_games(rating, None)
    if not text.strip().isascii() or not text.strip().isdigit():
        raise InvalidInput(f"prior-games: {shown(text)} is not a number of games: give N (0 or "
                           f"more) or {UNKNOWN_GAMES}")
    return prior_games(rating, int(text))


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


def next_namesake(session: Session, key: str) -> int:
    """The ``players.namesake`` number of the next player registered with name key ``key``: 0
    when nobody has it, else one more than the highest. Every registration, and every change of
    a player's name to another key, takes its number here (or from ``PlayerIndex.next_namesake``,
    the same rule on players already loaded)."""
    top = session.scalar(select(func.max(Player.namesake)).where(Player.name_key == key))
    return 0 if top is None else top + 1


def register(session: Session, p: NewPlayer, *, source: str,
             effective_from: Period | None, namesake: int | None = None,
             pool: RatingPool = STANDARD) -> Player:
    """Insert a player and the entry they bring, inside the caller's transaction, both written
    by the change being recorded (``services.core.audit.written_by``). ``namesake``: their
    ``players.namesake`` number, when the caller knows it (None: ``next_namesake``); the caller
    has decided that they are another person than any player of the same name.

    ``pool``: the rating pool ``p.rating`` and ``p.prior_games`` are in, both in force from
    ``effective_from`` (a file of a rapid or blitz event registers its players with the file's
    ratings in that pool: docs/RULES.md §9); for rapid or blitz the player is unrated in
    standard, with 0 rated games, from the same period."""
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
    standard = p if pool == STANDARD else replace(p, rating=None, prior_games=0,
                                                  reached_2400=False, reached_2300=False)
    session.add(PlayerEntry(**entry_values(player.id, standard, source=source,
                                           effective_from=effective_from,
                                           change_id=player.change_id)))
    if pool != STANDARD:
        session.add(PlayerEntry(**entry_values(player.id, p, source=source,
                                               effective_from=effective_from,
                                               change_id=player.change_id), pool=pool))
    for named, rating, prior in p.pools:
        last = last_closed_period(session, parse_pool(named))
        session.add(PlayerEntry(**entry_values(
            player.id, replace(p, rating=rating, prior_games=prior, reached_2400=False,
                               reached_2300=False),
            source=source, effective_from=last.next() if last else None,
            change_id=player.change_id), pool=parse_pool(named)))
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
        close = [] if namesakes or lookalikes or new else close_spellings(session, p.name)
        if close:
            raise InvalidInput(f"name: {shown(p.name.strip())} is a close spelling of "
                               f"{_described(session, close)}, already in the ledger (a likely "
                               "misspelling); refer to them by id, or, if this is another "
                               "person, add them with --new")
        change = record_change(session, actor or Actor.from_code("add_player"), "player.add",
                               "player", "new")
        player = register(session, p, source="ledger player add",
                          effective_from=earliest_open(session))
        session.flush()
        change.entity_id = str(player.id)
        summarise(change, asdict(p) | {"id": player.id, "name": player.name})
        notes = tuple(f"{n.name} (#{n.id}) has the same name: refer to them by id or FIDE id"
                      for n in namesakes)
        floor = below_floor_note(p.rating, earliest_open(session) or Period.of(dt.date.today()))
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
    return [p for p in session.scalars(select(Player).where(Player.id.in_(alike),
                                                            Player.withdrawn.is_(False))
                                       .order_by(*PLAYER_ORDER))] if alike else []


def same_name(session: Session, name: str) -> list[Player]:
    """The players whose name is ``name`` (str): the same ``name_key``, or the same name in the
    other word order (``Kevin O'Brien`` = ``O'Brien, Kevin``) or with its comma optional
    (``O'Brien Kevin`` = ``O'Brien, Kevin``): ``ledger.names.same_name_keys``, in
    ``PLAYER_ORDER``."""
    key = name_key(name)
    return list(session.scalars(select(Player).where(Player.name_key.in_((key, *same_name_keys(key))),
                                                     Player.withdrawn.is_(False))
                                .order_by(*PLAYER_ORDER)))
