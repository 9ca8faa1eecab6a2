"""The garbage collector of a server process: fewer young collections, each pause measured.

CPython collects its youngest generation after every 700 net allocations (the default
threshold). A server process's objects that live a few seconds — the last versions of
each hand (`rooms.hand_states`), the rows held for the next move (`rooms.services.held`)
— outlive those frequent collections, are promoted, and soon make up a quarter of the
long-lived objects, which is when CPython walks *every* tracked object: the sockets'
Uvicorn, websockets and asyncio objects (about 200 per socket) included. Measured under
`bench/bench_capacity.py` at 600 tables (3,060 sockets, about 600,000 tracked objects):
a full collection every few seconds, each stopping the event loop for 0.4–0.6 s of CPU,
and 6.3 s of collections in all. With a young threshold of 20,000, objects that live a
few seconds die young: one full collection (34 ms) and 1.3 s in all over the same run.

`tune()` is called once by the ASGI application (`baohuang/asgi.py`). Each collection's
pause is observed in `baohuang_gc_pause_seconds` (`/metrics`), by generation.
"""

import gc
import time

from prometheus_client import Histogram

YOUNG_THRESHOLD = 20_000  # net allocations between young collections (CPython's default: 700)

PAUSES = Histogram("baohuang_gc_pause_seconds", "Garbage collections of a server process, by generation.",
                   ["generation"], buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))

_started: list[float] = []  # when the running collection began (collections do not nest)


def _measure(phase: str, info: dict) -> None:
    if phase == "start":
        _started[:] = [time.perf_counter()]
    elif _started:
        PAUSES.labels(generation=str(info["generation"])).observe(time.perf_counter() - _started.pop())


def tune() -> None:
    """Raise the young generation's threshold and measure every collection (once per process)."""
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
    if _measure not in gc.callbacks:
        gc.callbacks.append(_measure)
