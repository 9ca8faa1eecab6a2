"""The garbage collector of a server process: short collections, each pause measured.

A server process holding thousands of sockets keeps about a million objects alive, and a
few dozen of each socket's are new after every frame it sends or receives: the waiting
coroutines, futures and callbacks of its reader and its inbox. CPython 3.11's collector is
not incremental: a collection stops the process for as long as it takes to walk its
generations. Measured under `bench/bench_capacity.py` at 1,000 tables (5,100 sockets)
with a young threshold of 20,000: each young collection found about 100,000 objects, all
alive, and stopped the event loop for 45–60 ms; each tenth (the middle generation) for
150–280 ms; a full one for 0.5 s or more.

So what survives a collection is frozen (`gc.freeze()`: a constant-time move to the
permanent generation, which no collection walks), and the young generation is collected
every `TICK_SECONDS` as well as after `YOUNG_THRESHOLD` net allocations: at a steady state
the sockets' new objects replace as many old ones, so the count alone would let the young
generation grow to every socket's waiting objects. Each collection then walks only what
was made since the one before (5–15 ms at 5,100 sockets), and the older generations stay
empty.

A frozen object is still freed when its last reference goes; only a reference cycle that
becomes garbage after it was frozen waits. Every `THAW_SECONDS` everything is thawed and
collected once (one pause as long as a full collection's), then frozen again.

`tune()` is called when Uvicorn starts the server process (`baohuang/asgi.py`, lifespan):
a test process that serves sockets in-process keeps CPython's collector as it is. Each
collection's pause is observed in `baohuang_gc_pause_seconds` (`/metrics`), by generation.
"""

import gc
import threading
import time

from prometheus_client import Histogram

YOUNG_THRESHOLD = 5_000  # net allocations between young collections (CPython's default: 700)
TICK_SECONDS = 0.1  # the young generation is collected at least this often
THAW_SECONDS = 600.0  # how often everything frozen is walked again, by one full collection

PAUSES = Histogram("baohuang_gc_pause_seconds", "Garbage collections of a server process, by generation.",
                   ["generation"], buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))

_started: list[float] = []  # when the running collection began (collections do not nest)
_stop: list[threading.Event] = []  # the ticker's, once started


def _measure(phase: str, info: dict) -> None:
    if phase == "start":
        _started[:] = [time.perf_counter()]
    elif _started:
        PAUSES.labels(generation=str(info["generation"])).observe(time.perf_counter() - _started.pop())
        gc.freeze()  # what survived is left alone from now on


def _tick(stop: threading.Event) -> None:
    thaw_at = time.monotonic() + THAW_SECONDS
    while not stop.wait(TICK_SECONDS):
        if time.monotonic() < thaw_at:
            gc.collect(0)
            continue
        gc.unfreeze()
        gc.collect()
        thaw_at = time.monotonic() + THAW_SECONDS


def tune() -> None:
    """Collect the young generation often, freeze what survives and measure every
    collection (once per process)."""
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
    if _measure not in gc.callbacks:
        gc.callbacks.append(_measure)
    if not _stop:
        _stop.append(threading.Event())
        threading.Thread(target=_tick, args=(_stop[0],), name="gc-ticker", daemon=True).start()
