"""The presence heartbeat of a server process: every third of `PRESENCE_TTL_SECONDS`, one
renewal of the Redis entries of all its live sockets (`presence.sockets_alive`), in place
of a timer, a thread hop and a round trip per socket (about 0.15 ms of CPU each: at 5,000
sockets and a 10 s period, 8% of a core).

The renewal goes `CHUNK` sockets a round trip, the chunks spread evenly over the period,
so a socket is renewed less than two periods (two thirds of its entry's time) after it
joined or was last renewed. At 5,100 sockets one pipeline of 10,200
commands held the GIL for its whole packing, and the 2 s windows of
`bench/bench_capacity.py` with a beat in them had a move p99 of 210–320 ms against 20–120
ms in the others; its 51 chunks one after another still made windows of 280–340 ms every
10 s (the pool thread packing and parsing them took the GIL from the event loop for about
0.3 s). A socket closed before its chunk's turn is left out: renewing it would show it
live again.

A socket joins when it connects (after its own first entry is written) and leaves when it
closes; the beat runs while there is a socket to renew. One per event loop (a test runs
several loops in one process).
"""

import asyncio
import logging
import weakref

from rooms import presence
from rooms.threads import presence_thread

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
        pause = presence.heartbeat_seconds()  # the beat starts with the socket that joined first
        while self._sockets:
            await asyncio.sleep(pause)
            sockets = list(self._sockets)  # after the pause: those that joined meanwhile too
            chunks = [sockets[start:start + CHUNK] for start in range(0, len(sockets), CHUNK)]
            # Reckoned from these chunks, not from those there were before the pause: a beat
            # that started with one socket in a process whose sockets were all connecting
            # (after a restart) paused a whole period between chunks, and the later chunks'
            # entries ran out.
            pause = presence.heartbeat_seconds() / max(1, len(chunks))
            for number, chunk in enumerate(chunks):
                if number:
                    await asyncio.sleep(pause)
                await self._renew(chunk)

    async def _renew(self, chunk: list[str]) -> None:
        entries = [(*self._sockets[socket], socket) for socket in chunk if socket in self._sockets]
        if not entries:  # closed meanwhile: renewing them would show them live again
            return
        try:
            await presence_thread(presence.sockets_alive)(entries)
        except Exception:  # the sweep errs towards offline, which each socket repairs
            log.warning("presence heartbeat of %d sockets failed", len(entries), exc_info=True)


_BEATS: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Heartbeat]" = weakref.WeakKeyDictionary()


def heartbeat() -> Heartbeat:
    """This event loop's heartbeat."""
    loop = asyncio.get_running_loop()
    beat = _BEATS.get(loop)
    if beat is None:
        beat = _BEATS[loop] = Heartbeat()
    return beat
