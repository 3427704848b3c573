"""Expected score PD from table 8.1.2, with the 400-point rule by edition (FIDE B.02 §8.3.1).

The logistic curve is offered for comparison only (the seeds' calculators show it beside the table);
it is never used in a FIDE period.
"""

from __future__ import annotations

from decimal import Decimal

from ledger.rules.editions import Edition
from ledger.rules.tables import pd_higher_hundredths

#: The rating at and above which the 400-point rule no longer applies (§8.3.1, from 1 Oct 2025).
EXEMPT_FROM_400_RULE_AT = 2650
#: The largest difference counted when the 400-point rule applies.
MAX_COUNTED_DIFFERENCE = 400


def pd_hundredths(difference: int) -> int:
    """PD of the player whose own rating minus the opponent's is ``difference`` (D), in hundredths.

    Table 8.1.2 as is, no 400-point rule: D = +200 -> 76, D = -200 -> 24, D = +800 -> 100.
    """
    higher = pd_higher_hundredths(abs(difference))
    return higher if difference >= 0 else 100 - higher


def expected_score(difference: int) -> Decimal:
    """PD as an exact two-decimal ``Decimal`` for rating difference D (no 400-point rule applied)."""
    return Decimal(pd_hundredths(difference)).scaleb(-2)


def cap_difference(difference: int) -> int:
    """D limited to -400..+400 (the 400-point rule)."""
    return max(-MAX_COUNTED_DIFFERENCE, min(MAX_COUNTED_DIFFERENCE, difference))


def rule_400_applies_to(own_rating: int, edition: Edition) -> bool:
    """Whether the 400-point rule can apply to a player rated ``own_rating`` under ``edition``.

    From 1 Oct 2025 (``Edition.E2025_10``) only players rated below 2650; before, everyone. (Under
    ``E2022_01`` it applies to one game per event only: ``ledger.rules.period`` picks that game.)
    """
    if edition is Edition.E2025_10:
        return own_rating < EXEMPT_FROM_400_RULE_AT
    return True


def logistic_expected(difference: int) -> float:
    """Classic Elo expected score 1 / (1 + 10^(-D/400)), a float, for comparison only."""
    return float(1.0 / (1.0 + 10.0 ** (-difference / 400.0)))
