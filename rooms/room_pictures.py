"""One read of a room for all of this process's sockets that a broadcast sends a new
snapshot (a seat taken or left, a deal, a hand's end, the room dissolved).

Each socket used to read the room itself: five queries and 3–4 ms of CPU each, so at the
end of a hand a table of five seats and its spectators read the same rows once per
socket, on the same database threads the moves wait for. Now the first socket to handle
the broadcast starts the read (`selectors.room_picture`), every other socket of the
room on the same event loop awaits that one, and each makes its own frame from it
(`selectors.snapshot_of`: its role, seat and view; no query).

The read starts when the first socket handles the broadcast, so it is never older than
the broadcast, just as each socket's own read was not. Reads are keyed by the
broadcast's message (each process decodes a message once for all its sockets) and by
the event loop; the last `KEEP` are remembered, so a socket far behind reads for itself.
"""

import asyncio
from collections import OrderedDict

from rooms.selectors import RoomPicture, room_picture
from rooms.threads import db


class RoomPictures:
    KEEP = 256  # broadcasts remembered: far more than a process's sockets handle at once

    def __init__(self):
        # (loop, message) ids → (the loop and the message, kept alive so no other object
        # takes their ids while the entry is here; the read)
        self._reads: OrderedDict[tuple[int, int], tuple[asyncio.AbstractEventLoop, dict, asyncio.Future]] = \
            OrderedDict()

    async def after(self, message: dict, room_id: int) -> RoomPicture:
        """The room as read once after `message`, for every socket of this loop that it reached."""
        loop = asyncio.get_running_loop()
        key = (id(loop), id(message))
        kept = self._reads.get(key)
        if kept is None:
            kept = self._reads[key] = (loop, message, asyncio.ensure_future(db(room_picture)(room_id)))
            while len(self._reads) > self.KEEP:
                self._reads.popitem(last=False)
        return await asyncio.shield(kept[2])


PICTURES = RoomPictures()
