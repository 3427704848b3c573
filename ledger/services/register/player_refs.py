"""A player reference, as every command takes it (docs/DESIGN.md: "Players are named by
internal id, FIDE id, or an unambiguous name, the same way in every command"): ``#ID``, a number
(internal id or FIDE id) or a name, resolved to one ledger player (``resolve``), and the identity
a player merged into another now is (``joined_identity``). "Did you mean" hints and the way a
player is described in messages are ``register.matching``'s.
"""

from __future__ import annotations

import re

from sqlalchemy import and_, func, select
from sqlalchemy.orm import Session

from ledger.db.models import Change, Player, PlayerRevision
from ledger.db.order import PLAYER_ORDER
from ledger.errors import Ambiguous, InvalidInput, NotFound, shown
from ledger.names import name_key, same_name_keys
from ledger.services.register.matching import described, may_mean, suggest_players

#: The largest FIDE id the ledger takes (ten digits).
MAX_FIDE_ID = 9_999_999_999
#: The highest id (players, games, events) and revision: PostgreSQL's ``integer`` (SQLAlchemy's
#: ``Integer``), 2**31 - 1. A larger one is looked for nowhere (not found, as on SQLite): the
#: server would refuse the query with its own message.
MAX_ID = 2**31 - 1
_ID_RE = re.compile(r"#?[0-9]{1,30}")


def internal_id(ref: str) -> int | None:
    """The id an ``#ID`` reference names (``#12``; spaces around it aside), or None for any
    other reference (a name, a number without ``#``, which may be a FIDE id) and for an id past
    ``MAX_ID`` (no player has it). ``resolve`` of such a reference finds the player with that
    id, unless they were merged into another or withdrawn."""
    text = ref.strip()
    if text.startswith("#") and _ID_RE.fullmatch(text) and int(text[1:]) <= MAX_ID:
        return int(text[1:])
    return None


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
    A withdrawn player (``ledger player withdraw``) likewise: ``NotFound`` saying so
    (``withdrawn_message``), left out among several matches (``merged`` finds them too).
    Raises ``NotFound`` (with "did you mean": up to 3 players with id and FIDE id, from
    ``matching.suggest_players``: a part of a name, else a close spelling) or ``Ambiguous``
    (listing the candidates, each with FIDE id, birth year and federation:
    ``matching.described``);
    ``InvalidInput`` for an empty reference. Messages start with ``field``.
    """
    found = _resolve(session, ref, field, partial)
    if merged:
        return found
    if found.withdrawn:
        raise NotFound(withdrawn_message(session, found, field))
    if found.merged_into is None:
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
        if found is None and number <= MAX_FIDE_ID:  # a FIDE id a withdrawal released
            found = session.scalars(
                select(Player).join(PlayerRevision, PlayerRevision.player_id == Player.id)
                .where(PlayerRevision.fide_id == number, Player.withdrawn.is_(True),
                       Player.fide_id.is_(None)).order_by(Player.id).limit(1)).first()
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
        shown_part = and_(part, Player.withdrawn.is_(False))
        holders = list(session.scalars(select(Player).where(shown_part)
                                       .order_by(*PLAYER_ORDER).limit(3)))
        if holders:
            in_all = session.scalar(select(func.count()).where(shown_part)) or len(holders)
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
    """``players`` without those merged into another or withdrawn, unless that leaves none (then
    those, so that ``resolve`` can point at the player they joined, or say they were
    withdrawn)."""
    live = [p for p in players if p.merged_into is None and not p.withdrawn]
    return live or players


def withdrawn_message(session: Session, player: Player, field: str = "player") -> str:
    """What a command naming withdrawn ``player`` is told: ``player: Doyle, Liam (#7) was
    withdrawn (change 12, "registered by mistake"): ...``, from the change that withdrew them
    (the last that wrote the row)."""
    change = session.get(Change, player.change_id) if player.change_id is not None else None
    why = f": {change.reason!r}" if change is not None and change.reason else ""
    when = f" (change {change.id}{why})" if change is not None else ""
    return (f"{field}: {player.name} (#{player.id}) was withdrawn{when}, registered by "
            f"mistake: kept in the audit log only (ledger audit --player #{player.id})")
