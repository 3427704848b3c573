"""A seeded synthetic federation: a register of players and a month of games, as CSV files.

Sizes (``SIZES``): S 1,000 players / 5,000 games, M 20,000 / 100,000, L 200,000 / 1,000,000.
Ratings are drawn from N(1800, 300), rounded and clipped to the rating floor (1400) and 2850;
birth years are uniform in 1940-2018 (so about one player in seven is a junior of 18 or under
in 2026); prior rated games are 0-600 (a tenth under 30, K 40); a rating of 2400 or more marks
``reached_2400``, and one player in a hundred is an unrated newcomer (no rating, 0 games). Each
game pairs a player with one of their ``NEAR`` neighbours by rating (so opponents are near
their own rating); the result follows the rating difference (draws 30 %), and no two games
repeat the same pair on the same day (the ledger would call them likely duplicates).

``write_register`` and ``write_month`` write the files ``ledger import --format players`` and
``ledger import`` (CSV) read; ``python -m benchmarks`` times those imports.
"""

from __future__ import annotations

import calendar
import csv
import random
from dataclasses import dataclass
from pathlib import Path

#: Size name -> (players, games in the month).
SIZES = {"S": (1_000, 5_000), "M": (20_000, 100_000), "L": (200_000, 1_000_000)}
FLOOR, TOP = 1400, 2850
#: How far (in places of the rating order) an opponent is drawn from.
NEAR = 40
SEED = 2026


@dataclass(frozen=True, slots=True)
class SyntheticPlayer:
    """One player of the register: ``number`` (0-based; the ledger id is ``number + 1`` in a
    fresh ledger), ``rating`` (None: unrated newcomer), ``birth_year``, ``prior_games``."""

    number: int
    rating: int | None
    birth_year: int
    prior_games: int

    @property
    def name(self) -> str:
        """A unique name (no two keys, word orders or loose forms alike)."""
        return f"Fed{self.number:07d}, Player"


def federation(players: int, seed: int = SEED) -> list[SyntheticPlayer]:
    """``players`` players drawn with ``random.Random(seed)`` (see the module's docstring)."""
    rng = random.Random(seed)
    out = []
    for number in range(players):
        newcomer = rng.random() < 0.01
        rating = None if newcomer else min(TOP, max(FLOOR, round(rng.gauss(1800, 300))))
        prior = 0 if newcomer else (rng.randint(0, 29) if rng.random() < 0.1
                                    else rng.randint(30, 600))
        out.append(SyntheticPlayer(number, rating, rng.randint(1940, 2018), prior))
    return out


def write_register(path: Path, register: list[SyntheticPlayer]) -> None:
    """The register as ``import --format players`` reads it (FIDE ids 40,000,001 on)."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["name", "fide_id", "birth_year", "sex", "federation", "rating",
                      "prior_games", "reached_2400"])
        for p in register:
            out.writerow([p.name, 40_000_001 + p.number, p.birth_year, "MF"[p.number % 5 == 0],
                          "ENG", "" if p.rating is None else p.rating, p.prior_games,
                          "yes" if p.rating is not None and p.rating >= 2400 else ""])


def write_month(path: Path, register: list[SyntheticPlayer], games: int, year: int, month: int,
                seed: int = SEED) -> int:
    """``games`` games of the month ``year``-``month`` as a CSV of ``ledger import``
    (``date,white,black,result``, names as registered); returns the games written."""
    rng = random.Random(seed * 100 + month)
    order = sorted(register, key=lambda p: (p.rating or 1800, p.number))
    days = calendar.monthrange(year, month)[1]
    seen: set[tuple[int, int, int]] = set()
    written = 0
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["date", "white", "black", "result"])
        while written < games:
            i = rng.randrange(len(order))
            j = min(len(order) - 1, max(0, i + rng.randint(-NEAR, NEAR)))
            day = rng.randint(1, days)
            a, b = order[i], order[j]
            pair = (min(a.number, b.number), max(a.number, b.number), day)
            if i == j or pair in seen:
                continue
            seen.add(pair)
            diff = (a.rating or 1800) - (b.rating or 1800)
            white_wins = 1 / (1 + 10 ** (-diff / 400))
            roll = rng.random()
            result = "1/2-1/2" if roll < 0.3 else "1-0" if roll < 0.3 + 0.7 * white_wins else "0-1"
            out.writerow([f"{year}-{month:02d}-{day:02d}", a.name, b.name, result])
            written += 1
    return written
