"""A server process collects its young generation less often and measures every collection."""

import gc

import pytest
from prometheus_client import REGISTRY

from baohuang import gc_pauses


@pytest.fixture
def default_collector():
    """Leave the collector of the test process as it was."""
    threshold, callbacks = gc.get_threshold(), list(gc.callbacks)
    yield
    gc.set_threshold(*threshold)
    gc.callbacks[:] = callbacks


def sample(name: str, generation: str) -> float:
    return REGISTRY.get_sample_value(f"baohuang_gc_pause_seconds_{name}", {"generation": generation}) or 0.0


def test_tune_raises_the_young_threshold_and_keeps_the_older_ones(default_collector):
    gc.set_threshold(700, 10, 10)
    gc_pauses.tune()
    assert gc.get_threshold() == (gc_pauses.YOUNG_THRESHOLD, 10, 10)


def test_every_collection_is_observed_by_generation_once(default_collector):
    gc_pauses.tune()
    gc_pauses.tune()  # a second call adds no second callback
    assert gc.callbacks.count(gc_pauses._measure) == 1
    before, seconds = sample("count", "2"), sample("sum", "2")
    gc.collect(2)
    gc.collect(2)
    assert sample("count", "2") == before + 2
    assert sample("sum", "2") > seconds
