"""The bytes of ``period close --json`` (``cli.render.close_json`` writes each player's row
from precomputed strings): a small close's whole document pinned, the values worked by hand, and
the nesting of ``--through`` (the rows one level deeper) the text of ``json.dumps(indent=2)``."""

from __future__ import annotations

import json

import pytest
from cli_runs import ok
from ledgers import Factory


@pytest.fixture
def db(new_ledger: Factory) -> str:
    path = new_ledger("bytes")
    for args in (("player", "add", "Alpha, Ann", "--rating", "2000", "--prior-games", "100",
                  "--fide-id", "1001"),
                 ("player", "add", 'Ó"Brien, Bé', "--rating", "1900", "--prior-games", "100"),
                 ("player", "add", "Gamma, Gil", "--rating", "2650", "--prior-games", "100",
                  "--reached-2400"),
                 ("game", "add", "Alpha, Ann", 'Ó"Brien, Bé', "1-0", "--date", "2026-09-10"),
                 ("game", "add", "Gamma, Gil", "Alpha, Ann", "1/2-1/2", "--date", "2026-09-12")):
        ok(path, *args)
    return path


#: The document, line by line: players by rating after, each game side in the order of the
#: games; the name with a quote and accents written as JSON writes it (quote escaped, accents kept).
EXPECTED = [
    '{',
    '  "period": "2026-09",',
    '  "pool": "standard",',
    '  "edition": "2025-10",',
    '  "dry_run": false,',
    '  "preview": false,',
    '  "games": 2,',
    '  "not_rated": {},',
    '  "seeded_from_standard": {},',
    '  "results": [',
    '    {',
    '      "pool": "standard",',
    '      "player_id": 3,',
    # Gamma 2650 (reached 2400: K 10) draws Alpha 2000: D = 650, Gamma at 2650 keeps it
    # (the 2650 exemption from the 400-point rule) -> PD .99; 10 x (.5 - .99) = -4.9 -> -5
    '      "name": "Gamma, Gil",',
    '      "fide_id": null,',
    '      "rating_before": 2650,',
    '      "games": 1,',
    '      "score": 0.5,',
    '      "expected": 0.99,',
    '      "surplus": -0.49,',
    '      "k": 10,',
    '      "k_reason": "reached-2400",',
    '      "k_capped": false,',
    '      "change_exact": -4.9,',
    '      "change": -5,',
    '      "rating_after": 2645,',
    '      "carried": 0,',
    '      "per_game": [',
    '        {',
    '          "pool": "standard",',
    '          "game_id": 2,',
    '          "opponent": "Alpha, Ann",',
    '          "opponent_rating": 2000,',
    '          "difference": 650,',
    '          "counted_difference": 650,',
    '          "expected": 0.99,',
    '          "score": 0.5,',
    '          "late": false',
    '        }',
    '      ]',
    '    },',
    '    {',
    '      "pool": "standard",',
    '      "player_id": 1,',
    # Alpha 2000 (K 20): beats Ó"Brien 1900, D = 100 -> PD .64; draws Gamma 2650, D = -650
    # counted -400 -> PD .08; 20 x (1.5 - .72) = 20 x .78 = +15.6 -> +16 -> 2016
    '      "name": "Alpha, Ann",',
    '      "fide_id": 1001,',
    '      "rating_before": 2000,',
    '      "games": 2,',
    '      "score": 1.5,',
    '      "expected": 0.72,',
    '      "surplus": 0.78,',
    '      "k": 20,',
    '      "k_reason": "standard",',
    '      "k_capped": false,',
    '      "change_exact": 15.6,',
    '      "change": 16,',
    '      "rating_after": 2016,',
    '      "carried": 0,',
    '      "per_game": [',
    '        {',
    '          "pool": "standard",',
    '          "game_id": 1,',
    '          "opponent": "Ó\\"Brien, Bé",',
    '          "opponent_rating": 1900,',
    '          "difference": 100,',
    '          "counted_difference": 100,',
    '          "expected": 0.64,',
    '          "score": 1,',
    '          "late": false',
    '        },',
    '        {',
    '          "pool": "standard",',
    '          "game_id": 2,',
    '          "opponent": "Gamma, Gil",',
    '          "opponent_rating": 2650,',
    '          "difference": -650,',
    '          "counted_difference": -400,',
    '          "expected": 0.08,',
    '          "score": 0.5,',
    '          "late": false',
    '        }',
    '      ]',
    '    },',
    '    {',
    '      "pool": "standard",',
    '      "player_id": 2,',
    # Ó"Brien 1900 (K 20) loses to Alpha: D = -100 -> PD .36; 20 x (0 - .36) = -7.2 -> -7
    '      "name": "Ó\\"Brien, Bé",',
    '      "fide_id": null,',
    '      "rating_before": 1900,',
    '      "games": 1,',
    '      "score": 0,',
    '      "expected": 0.36,',
    '      "surplus": -0.36,',
    '      "k": 20,',
    '      "k_reason": "standard",',
    '      "k_capped": false,',
    '      "change_exact": -7.2,',
    '      "change": -7,',
    '      "rating_after": 1893,',
    '      "carried": 0,',
    '      "per_game": [',
    '        {',
    '          "pool": "standard",',
    '          "game_id": 1,',
    '          "opponent": "Alpha, Ann",',
    '          "opponent_rating": 2000,',
    '          "difference": -100,',
    '          "counted_difference": -100,',
    '          "expected": 0.36,',
    '          "score": 0,',
    '          "late": false',
    '        }',
    '      ]',
    '    }',
    '  ],',
    '  "late_games": [],',
    '  "initial_ratings": [],',
    '  "floor_drops": [],',
    '  "not_rated_games": [],',
    '  "other_pools": []',
    '}',
    '',  # the newline after the document
]


def test_a_small_close_json_byte_for_byte(db: str) -> None:
    assert ok(db, "period", "close", "2026-09", "--json").stdout == "\n".join(EXPECTED)


def test_close_through_json_is_the_indented_text(db: str) -> None:
    text = ok(db, "period", "close", "--through", "2026-09", "--json").stdout
    document = json.loads(text)
    assert text == json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    alpha = document["closed"][0]["results"][1]
    # as above: 2000 -> 2016, the per-game rows one level deeper than in a single close
    assert (alpha["name"], alpha["rating_after"], len(alpha["per_game"])) == ("Alpha, Ann", 2016, 2)
    assert '\n              "counted_difference": -400,\n' in text
