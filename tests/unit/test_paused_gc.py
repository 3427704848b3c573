"""services.core.bulk.paused_gc: the cyclic collector off inside, restored after."""

from __future__ import annotations

import gc

import pytest

from ledger.services.core.bulk import paused_gc


def test_the_collector_is_off_inside_and_on_again_after_even_after_an_error() -> None:
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():  # nested: the outer one restores
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), paused_gc():
        raise ValueError("boom")
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()

