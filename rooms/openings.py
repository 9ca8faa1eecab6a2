"""Sockets opening a few at a time in each server process.

A process that comes back has every page of its rooms reconnecting at once. Each opening
is accepted, then reads the room, shows the seat online and sends the snapshot, on the
pool's few threads. Accepted all together, they all waited together: none had its
snapshot until nearly all were read, and a page that hears nothing for 6 s after its
socket opened gives up and opens another (static/js/connection.js), so the process did
every opening again, and more of them gave up. So `AT_ONCE` sockets open at a time, first
come first served, and the others wait before they are accepted: their pages wait on the
handshake, which has no such limit, and each page's socket opens when its snapshot is a
moment away. A socket whose client went away while it waited opens nothing.

`bench/bench_reconnect.py` (AMD EPYC, 2 cores): 1,000 tables' 5,100 sockets all had their
snapshot after 74 s, in 5,100 openings; without the gate, 600 s later 4,903 of them still
had none, after 64,946 openings (docs/architecture.md, "After a crash").
"""

import asyncio
import weakref

AT_ONCE = 8  # a few more than the pool's threads, so none is idle while sockets open

_gates: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop → its semaphore


def gate() -> asyncio.Semaphore:
    """This event loop's semaphore for sockets opening (a test's server gets its own)."""
    loop = asyncio.get_running_loop()
    found = _gates.get(loop)
    if found is None:
        found = _gates[loop] = asyncio.Semaphore(AT_ONCE)
    return found
