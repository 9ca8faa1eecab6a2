"""The presence heartbeat of a server process: every third of `PRESENCE_TTL_SECONDS`, one
renewal of the Redis entries of all its live sockets (`presence.sockets_alive`), in place
of a timer, a thread hop and a round trip per socket (about 0.15 ms of CPU each: at 5,000
sockets and a 10 s period, 8% of a core).

The renewal goes `CHUNK` sockets a round trip, the event loop running between them: at
5,100 sockets one pipeline of 10,200 commands held the GIL for its whole packing, and the
2 s windows of `bench/bench_capacity.py` with a beat in them had a move p99 of 210–320 ms
against 20–120 ms in the others.

A socket joins when it connects (after its own first entry is written) and leaves when it
closes; the beat runs while there is a socket to renew. One per event loop (a test runs
several loops in one process).
"""

import asyncio
import logging
import weakref

from rooms import presence
from rooms.threads import db

log = logging.getLogger(__name__)

CHUNK = 100  # sockets renewed per round trip to Redis


class Heartbeat:
    def __init__(self):
        self._sockets: dict[str, tuple[int, int]] = {}  # socket → (room id, player id)
        self._task: asyncio.Task | None = None

    def add(self, socket: str, *, room_id: int, player_id: int) -> None:
        self._sockets[socket] = (room_id, player_id)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._beat())

    def discard(self, socket: str) -> None:
        self._sockets.pop(socket, None)

    async def _beat(self) -> None:
        while self._sockets:
            await asyncio.sleep(presence.heartbeat_seconds())
            entries = [(room_id, player_id, socket) for socket, (room_id, player_id) in self._sockets.items()]
            if not entries:
                return
            for start in range(0, len(entries), CHUNK):
                chunk = entries[start:start + CHUNK]
                try:
                    await db(presence.sockets_alive)(chunk)
                except Exception:  # the sweep errs towards offline, which each socket repairs
                    log.warning("presence heartbeat of %d sockets failed", len(chunk), exc_info=True)


_BEATS: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Heartbeat]" = weakref.WeakKeyDictionary()


def heartbeat() -> Heartbeat:
    """This event loop's heartbeat."""
    loop = asyncio.get_running_loop()
    beat = _BEATS.get(loop)
    if beat is None:
        beat = _BEATS[loop] = Heartbeat()
    return beat
