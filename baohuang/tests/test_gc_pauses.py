"""A server process collects its young generation often, freezes what survives, thaws it
all once a period, and measures every collection."""

import gc
import threading
import time
import weakref

import pytest
from prometheus_client import REGISTRY

from baohuang import gc_pauses


@pytest.fixture
def tuned(monkeypatch):
    """`gc_pauses.tune()` in this test, and the collector of the test process as it was after."""
    threshold, callbacks = gc.get_threshold(), list(gc.callbacks)
    monkeypatch.setattr(gc_pauses, "_stop", [])
    yield gc_pauses.tune
    for stop in gc_pauses._stop:
        stop.set()
    for thread in threading.enumerate():
        if thread.name == "gc-ticker":
            thread.join(timeout=10)
    gc.set_threshold(*threshold)
    gc.callbacks[:] = callbacks
    gc.unfreeze()


def sample(name: str, generation: str) -> float:
    return REGISTRY.get_sample_value(f"baohuang_gc_pause_seconds_{name}", {"generation": generation}) or 0.0


def wait_for(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


class Node:
    def __init__(self):
        self.me = self  # a reference cycle: only a collection frees it


def test_tune_sets_the_young_threshold_keeps_the_older_ones_and_starts_one_ticker(tuned):
    gc.set_threshold(700, 10, 10)
    tuned()
    tuned()  # a second call adds no second callback and no second ticker
    assert gc.get_threshold() == (gc_pauses.YOUNG_THRESHOLD, 10, 10)
    assert gc.callbacks.count(gc_pauses._measure) == 1
    assert [thread.name for thread in threading.enumerate()].count("gc-ticker") == 1


def test_every_collection_is_observed_by_generation(tuned):
    tuned()
    before, seconds = sample("count", "2"), sample("sum", "2")
    gc.collect(2)
    gc.collect(2)
    assert sample("count", "2") >= before + 2
    assert sample("sum", "2") > seconds


def test_what_survives_a_collection_is_frozen_and_no_longer_walked(tuned):
    tuned()
    survivor = [[]]
    gc.collect(0)
    assert gc.get_freeze_count() > 0
    assert not any(survivor is each for generation in range(3) for each in gc.get_objects(generation))


def test_the_young_generation_is_collected_on_a_timer(tuned):
    tuned()
    before = sample("count", "0")
    assert wait_for(lambda: sample("count", "0") >= before + 3)  # a collection every TICK_SECONDS


def test_a_cycle_that_died_frozen_is_freed_at_the_thaw(tuned, monkeypatch):
    monkeypatch.setattr(gc_pauses, "THAW_SECONDS", 0.5)
    tuned()
    node = Node()
    gc.collect(0)
    assert gc.get_freeze_count() > 0
    gone = weakref.ref(node)
    del node
    gc.collect(0)
    assert gone() is not None  # frozen: the young collection does not see it
    assert wait_for(lambda: gone() is None)  # the ticker's thaw and full collection free it
