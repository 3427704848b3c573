"""The JSON document of a period close (``period close --json``): every rated player with their
per-game audit, hundreds of megabytes for a federation's month. ``close`` imports it only for
``--json``: it loads the close's rules (``rules.row_results``), which ``period list`` and the
other commands of a period need not.

``close_dict`` is the document (``values.write_json`` streams it); its ``results`` are written
``BATCH`` players at a time, each player's text built at once from precomputed strings
(``_Writer.text``: one ``%`` format per player of a template of all their game sides, the
player's ``RowResult.sides`` its values as they are, the opponents' names encoded once per close)
instead of a dict per game side walked value by value. The text is exactly what
``json.dumps(close_dict_of_dicts, indent=2, ensure_ascii=False)`` gives for the same values:
``rated_player_dict`` is the plain form of a player's row (the tests compare both).
"""

from __future__ import annotations

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
_OPPONENT, _EXPECTED, _SCORE = _AT["opponent_id"], _AT["expected_hundredths"], _AT["score_halves"]
_OWN, _GAME = _AT["own_rating"], _AT["game_id"]
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
        self.templates: dict[int, tuple[str, str, str, str, str]] = {}
        self.flat: dict[tuple[int, int], str] = {}
        self.reasons = {reason: encode_str(reason.value) for reason in KReason}
        self.names: Mapping[int, str] | None = None
        self.encoded = _Texts(self._encoded_name)

    def _encoded_name(self, pid: int) -> str:
        assert self.names is not None
        return encode_str(self.names[pid])

    def _templates(self, level: int) -> tuple[str, str, str, str, str]:
        """(the player's fields up to ``"per_game": ``, one game side, the separator of two
        sides, the end of the list and the player, one game side not late taking its values
        as ``RowResult.sides`` holds them but the own rating) for a player at ``level``: ``%``
        templates (``%d`` for the plain ints of the player's fields)."""
        if level not in self.templates:
            one, two, three = ("\n" + "  " * (level + k) for k in (1, 2, 3))
            pool = self.pool.replace("%", "%%")
            fields = ["pool", "player_id", "name", "fide_id", "rating_before", "games", "score",
                      "expected", "surplus", "k", "k_reason", "k_capped", "change_exact",
                      "change", "rating_after", "carried"]
            head = "{" + "".join(f'{one}"{f}": ' + (pool if f == "pool" else _HEAD.get(f, "%s"))
                                 + "," for f in fields) + f'{one}"per_game": '

            def side(rating: str, late: str) -> str:
                return ("{" + "".join(f'{three}"{f}": {v},' for f, v in (
                    ("pool", pool), ("game_id", "%d"), ("opponent", "%s"),
                    ("opponent_rating", rating), ("difference", "%d"),
                    ("counted_difference", "%d"), ("expected", "%s"), ("score", "%s")))
                        + f'{three}"late": {late}{two}}}')
            self.templates[level] = (head, side("%d", "%s"), "," + two,
                                     one + "]" + one[:-2] + "}", side("%d", "false"))
        return self.templates[level]

    def _sides(self, level: int, n: int) -> str:
        """The template of a player's ``per_game`` list of ``n`` game sides (``n`` > 0) none of
        them late at ``level``, from its ``[`` to the end of the player: one ``%`` of a
        player's ``RowResult.sides`` without the own ratings (the names and numbers' texts put
        in place) writes them all."""
        key = (level, n)
        if key not in self.flat:
            _, _, between, end, plain = self._templates(level)
            self.flat[key] = "[" + between[1:] + between.join([plain] * n) + end
        return self.flat[key]

    def texts(self, players: list[RatedPlayer], level: int) -> str:
        """The JSON texts of ``players``' rows at nesting ``level``, as items of one list."""
        return (",\n" + "  " * level).join([self.text(p, level) for p in players])

    def text(self, p: RatedPlayer, level: int) -> str:
        """The JSON text of ``p``'s row (``rated_player_dict``) at nesting ``level``."""
        head, side, between, end, _ = self._templates(level)
        if p.opponents is not self.names:  # one mapping shared by every line of a close
            self.names = p.opponents
            self.encoded = _Texts(self._encoded_name)
        res = p.result
        score, expected = res.score_halves, res.expected_hundredths
        text = head % (
            p.player_id, encode_str(p.name),
            "null" if p.fide_id is None else int.__repr__(p.fide_id),
            res.rating_before, res.n, self.halves[score], self.hundredths[expected],
            self.hundredths[50 * score - expected], res.k,
            self.reasons[res.k_reason], "false" if res.k == res.k_before_cap else "true",
            self.hundredths[res.change_hundredths], res.change, res.rating_after,
            self.hundredths[res.carried_hundredths])
        v = res.sides
        if not v:
            return text + "[]" + end[end.index("]") + 1:]
        at, w = _AT, _WIDTH
        if not self.late or self.late.keys().isdisjoint(v[_GAME::w]):
            values: list[int | str] = list(v)  # SIDE_FIELDS order, the values to be written put in place
            values[_OPPONENT::w] = map(self.encoded.__getitem__, v[_OPPONENT::w])
            values[_EXPECTED::w] = map(self.hundredths.__getitem__, v[_EXPECTED::w])
            values[_SCORE::w] = map(self.halves.__getitem__, v[_SCORE::w])
            del values[_OWN::w]  # not written
            return text + self._sides(level, len(v) // w) % tuple(values)
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
