"""The JSON document of a period close (``period close --json``): every rated player with their
per-game audit, hundreds of megabytes for a federation's month. ``close`` imports it only for
``--json``: it loads the close's rules (``rules.row_results``), which ``period list`` and the
other commands of a period need not.

``close_dict`` is the document (``values.write_json`` streams it); its ``results`` are written
``BATCH`` players at a time, the batch's text built at once from precomputed strings
(``_Writer._joined``: one ``str.join`` of the literal pieces and the values' texts of every game
side of the batch, each column of the players' ``RowResult.sides`` put in place by one slice
assignment, the texts of repeated values and the opponents' names made once per close; a
player's head by one ``%`` format) instead of a dict per game side walked value by value. The
text is exactly what ``json.dumps(close_dict_of_dicts, indent=2, ensure_ascii=False)`` gives for
the same values: ``rated_player_dict`` is the plain form of a player's row (the tests compare
both).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from itertools import repeat
from typing import TYPE_CHECKING, Any

from ledger.cli.render.values import Rendered, encode_str, halves_number, hundredths_number
from ledger.domain import KReason
from ledger.rules.row_results import SIDE_FIELDS
from ledger.services.publishing.json_shapes import computation_dict

if TYPE_CHECKING:
    from ledger.services.close.close_report import CloseReport, RatedPlayer

#: Where each value of a game side is in ``RowResult.sides`` (``rules.row_results.SIDE_FIELDS``).
_AT = {name: i for i, name in enumerate(SIDE_FIELDS)}
_WIDTH = len(SIDE_FIELDS)
_GAME = _AT["game_id"]
#: Players of ``results`` a ``Rendered`` writes (their rows joined as the list joins them): one
#: ``values._indented`` call and piece of the document for 64 players, not one each (the M
#: document 0.279-0.294 -> 0.265-0.277 CPU s).
BATCH = 64
#: The player's fields written by ``%d`` in ``_Writer``'s template (plain ints, never None):
#: the same digits as ``int.__repr__``, without a call per value.
_HEAD = dict.fromkeys(("player_id", "rating_before", "games", "k", "change", "rating_after"), "%d")


def close_dict(r: CloseReport, *, top: bool = True) -> dict[str, Any]:
    """The ``period close --json`` document of ``r`` (with ``top``: the other pools' reports
    in ``other_pools``): ``results`` an iterator of one ``Rendered`` per ``BATCH`` players (the
    texts of their ``rated_player_dict``), the rest plain values."""
    late = {g.game_id for g in r.late}
    others = {"other_pools": [close_dict(o, top=False) for o in r.others]} if top else {}
    return {
        "period": r.period, "pool": r.pool, "edition": r.edition, "dry_run": r.dry_run,
        "preview": r.preview,
        "games": r.games, "not_rated": dict(r.not_rated),
        "seeded_from_standard": {str(pid): rating for pid, rating in r.seeded.items()},
        "results": _rendered_players(r, late),  # a generator: each batch written, then dropped
        "late_games": [{"pool": r.pool, "game_id": g.game_id, "date": g.date.isoformat(),
                        "dated_in": g.dated_in, "white": g.white, "black": g.black,
                        "event": g.event} for g in r.late],
        "initial_ratings": [{"pool": r.pool, "player_id": n.player_id, "name": n.name,
                             "games_disregarded": len(n.pool.disregarded)}
                            | computation_dict(r.period, n.rating) for n in r.initial],
        "floor_drops": [{"pool": r.pool, "player_id": d.player_id, "name": d.name,
                         "rating": d.rating, "floor": d.floor} for d in r.dropped],
        "not_rated_games": [{"pool": r.pool, "game_id": g.game_id, "white": g.white,
                             "black": g.black, "white_rating": g.white_rating,
                             "black_rating": g.black_rating,
                             "reason": "600 or more apart, one above 2600"}
                            for g in r.gap_games],
    } | others


def rated_player_dict(p: RatedPlayer, pool: str, late: set[int]) -> dict[str, Any]:
    """One player's row of ``results`` as plain values (what ``player_text`` writes): the
    integer values (hundredths, halves) as ``values.hundredths_number`` and ``halves_number``
    give their exact values, ``per_game`` one dict per game side in the order of the games,
    ``late`` whether the game's id is in ``late``."""
    res = p.result
    return {
        "pool": pool, "player_id": p.player_id, "name": p.name, "fide_id": p.fide_id,
        "rating_before": res.rating_before, "games": res.n,
        "score": halves_number(res.score_halves),
        "expected": hundredths_number(res.expected_hundredths),
        "surplus": hundredths_number(50 * res.score_halves - res.expected_hundredths),
        "k": res.k, "k_reason": res.k_reason.value, "k_capped": res.k_capped,
        "change_exact": hundredths_number(res.change_hundredths),
        "change": res.change, "rating_after": res.rating_after,
        "carried": hundredths_number(res.carried_hundredths),
        "per_game": [{"pool": pool, "game_id": a.game_id, "opponent": p.opponents[a.opponent_id],
                      "opponent_rating": a.opponent_rating, "difference": a.difference,
                      "counted_difference": a.counted_difference,
                      "expected": hundredths_number(a.expected_hundredths),
                      "score": halves_number(a.score_halves), "late": a.game_id in late}
                     for a in res.audits],
    }


def _number_text(value: int | float) -> str:
    """A JSON number as ``json.dumps`` writes it (an int's digits, a float's ``repr``)."""
    return int.__repr__(value) if type(value) is int else float.__repr__(value)


class _Texts(dict[int, str]):
    """int -> its JSON text by ``convert`` (an exact number's, or an encoded name's), each
    computed on first use: a close's per-game values repeat (PD 0 to 100, scores 0 to 2)."""

    def __init__(self, convert: Callable[[int], str]) -> None:
        super().__init__()
        self.convert = convert

    def __missing__(self, key: int) -> str:
        text = self[key] = self.convert(key)
        return text


class _Writer:
    """Builds the text of each player's row of one close report at nesting ``level``: the
    templates made once per level, the names and numbers' texts once per value."""

    def __init__(self, pool: str, late: set[int]) -> None:
        self.pool = encode_str(pool)
        self.late = dict.fromkeys(late, "true")
        # hundredths (PD, the sums, the surplus, the carried) and halves (scores) as JSON numbers:
        # the per-game values and most sums repeat
        self.hundredths = _Texts(lambda h: _number_text(hundredths_number(h)))
        self.halves = _Texts(lambda h: _number_text(halves_number(h)))
        self.templates: dict[int, tuple[str, str, str, str]] = {}
        self.pieces: dict[int, list[str]] = {}
        self.reasons = {reason: encode_str(reason.value) for reason in KReason}
        self.names: Mapping[int, str] | None = None
        self.encoded = _Texts(self._encoded_name)
        self.ints = _Texts(int.__repr__)  # ratings and differences: they repeat

    def _encoded_name(self, pid: int) -> str:
        assert self.names is not None
        return encode_str(self.names[pid])

    def _templates(self, level: int) -> tuple[str, str, str, str]:
        """(the player's fields up to ``"per_game": ``, one game side, the separator of two
        sides, the end of the list and the player) for a player at ``level``: ``%`` templates
        (``%d`` for the plain ints of the player's fields)."""
        if level not in self.templates:
            one, two, three = ("\n" + "  " * (level + k) for k in (1, 2, 3))
            pool = self.pool.replace("%", "%%")
            fields = ["pool", "player_id", "name", "fide_id", "rating_before", "games", "score",
                      "expected", "surplus", "k", "k_reason", "k_capped", "change_exact",
                      "change", "rating_after", "carried"]
            head = "{" + "".join(f'{one}"{f}": ' + (pool if f == "pool" else _HEAD.get(f, "%s"))
                                 + "," for f in fields) + f'{one}"per_game": '

            side = ("{" + "".join(f'{three}"{f}": {v},' for f, v in (
                ("pool", pool), ("game_id", "%d"), ("opponent", "%s"), ("opponent_rating", "%d"),
                ("difference", "%d"), ("counted_difference", "%d"), ("expected", "%s"),
                ("score", "%s"))) + f'{three}"late": %s{two}}}')
            self.templates[level] = (head, side, "," + two, one + "]" + one[:-2] + "}")
        return self.templates[level]

    def texts(self, players: list[RatedPlayer], level: int) -> str:
        """The JSON texts of ``players``' rows at nesting ``level``, as items of one list: one
        join of the game sides of them all (``_joined``), or, for players with a late game, no
        game or sides of two int widths, ``text`` a player."""
        joined = self._joined(players, level)
        if joined is not None:
            return joined
        return (",\n" + "  " * level).join([self.text(p, level) for p in players])

    def _pieces(self, level: int) -> list[str]:
        """The 8 literal pieces of one game side not late at ``level`` (the template ``side``
        of ``_templates`` cut at its 7 values): from its ``{`` to ``"game_id": ``, then
        before each of the other values, then from after ``score`` to its ``}``."""
        if level not in self.pieces:
            two, three = ("\n" + "  " * (level + k) for k in (2, 3))
            self.pieces[level] = ["{" + f'{three}"pool": {self.pool},{three}"game_id": ', *(
                f',{three}"{f}": ' for f in ("opponent", "opponent_rating", "difference",
                                             "counted_difference", "expected", "score")),
                f',{three}"late": false{two}}}']
        return self.pieces[level]

    def _joined(self, players: list[RatedPlayer], level: int) -> str | None:
        """``texts`` of ``players`` by one ``str.join`` of their game sides' pieces: each
        value's text in place (the ints' texts once per value, ``_Texts``), at every 15th
        item the literal piece of its place (``_pieces``, the first piece with the separator
        of two sides), each player's head and first piece, last piece and end put over the
        pieces of their first and last sides. None (nothing done) when a player has no game
        side, a game is late, the players' sides are not all of one int width or the players
        do not share the close's names."""
        names, code = players[0].opponents, players[0].result.sides.typecode
        if any(not p.result.sides or p.result.sides.typecode != code or p.opponents is not names
               for p in players):
            return None
        v = array(code)
        for p in players:
            v += p.result.sides
        w = _WIDTH
        if self.late and not self.late.keys().isdisjoint(v[_GAME::w]):
            return None
        if names is not self.names:
            self.names = names
            self.encoded = _Texts(self._encoded_name)
        head, _, between, end = self._templates(level)
        lits, ints, k = self._pieces(level), self.ints, len(v) // w
        parts: list[str] = [between + lits[0]] * (15 * k)
        for j, (field, texts) in enumerate((
                ("game_id", int.__repr__), ("opponent_id", self.encoded.__getitem__),
                ("opponent_rating", ints.__getitem__), ("difference", ints.__getitem__),
                ("counted_difference", ints.__getitem__),
                ("expected_hundredths", self.hundredths.__getitem__),
                ("score_halves", self.halves.__getitem__))):
            parts[2 * j + 1::15] = map(texts, v[_AT[field]::w])
            parts[2 * j + 2::15] = [lits[j + 1]] * k
        opening, last, sep = "[" + between[1:] + lits[0], lits[7] + end, ",\n" + "  " * level
        at = 0
        for p in players:
            parts[at] = (sep if at else "") + self._head(head, p) + opening
            at += 15 * p.result.n
            parts[at - 1] = last
        return "".join(parts)

    def _head(self, head: str, p: RatedPlayer) -> str:
        """``p``'s fields up to ``"per_game": `` by the template ``head``."""
        res = p.result
        score, expected = res.score_halves, res.expected_hundredths
        return head % (
            p.player_id, encode_str(p.name),
            "null" if p.fide_id is None else int.__repr__(p.fide_id),
            res.rating_before, res.n, self.halves[score], self.hundredths[expected],
            self.hundredths[50 * score - expected], res.k,
            self.reasons[res.k_reason], "false" if res.k == res.k_before_cap else "true",
            self.hundredths[res.change_hundredths], res.change, res.rating_after,
            self.hundredths[res.carried_hundredths])

    def text(self, p: RatedPlayer, level: int) -> str:
        """The JSON text of ``p``'s row (``rated_player_dict``) at nesting ``level``."""
        joined = self._joined([p], level)
        if joined is not None:
            return joined
        head, side, between, end = self._templates(level)
        if p.opponents is not self.names:  # one mapping shared by every line of a close
            self.names = p.opponents
            self.encoded = _Texts(self._encoded_name)
        text = self._head(head, p)
        v = p.result.sides
        if not v:
            return text + "[]" + end[end.index("]") + 1:]
        at, w = _AT, _WIDTH
        games = v[_GAME::w]
        late: Iterator[str] = map(self.late.get, games, repeat("false"))
        sides = between.join(map(side.__mod__, zip(
            games, map(self.encoded.__getitem__, v[at["opponent_id"]::w]),
            v[at["opponent_rating"]::w], v[at["difference"]::w], v[at["counted_difference"]::w],
            map(self.hundredths.__getitem__, v[at["expected_hundredths"]::w]),
            map(self.halves.__getitem__, v[at["score_halves"]::w]),
            late, strict=False)))  # late may repeat without end
        return text + "[" + between[1:] + sides + end


def _rendered_players(r: CloseReport, late: set[int], batch: int = BATCH
                      ) -> Iterator[Rendered]:
    """``r``'s players in order, ``batch`` at a time, each batch a ``Rendered`` of its players'
    ``rated_player_dict`` texts as a list of them writes its items (``,``, a new line and the
    items' indentation between two)."""
    writer = _Writer(r.pool, late)
    players = r.players
    for at in range(0, len(players), batch):
        yield Rendered(partial(writer.texts, players[at:at + batch]))
