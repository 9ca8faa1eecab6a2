"""Benchmark consumers (`bench/bench_live.py`), routed only when the environment sets
`BENCH_ECHO=1`: the ceiling of this stack and the floors of a move kept in the database.

- `/ws/echo/<name>/` — each text frame is broadcast to the group as a room's events are
  (`baohuang.broadcast`) and goes back out, unchanged, to every member socket: the ceiling.
- `/ws/echo-write/<room id>/` — the same after one committed write to the room's row
  through the ORM on a pool thread (`database_sync_to_async`), as the services write on
  the thread path: the floor of a move stored that way before it is announced.
- `/ws/echo-raw/<room id>/` — the same write as hand-written SQL on the pool thread.
- `/ws/echo-loop/<room id>/` — that SQL prepared and committed from the event loop
  (`baohuang.loop_database`, PostgreSQL only), as a player's move is stored: the floor of
  this codebase's own path, one round trip with nothing but the write.
"""

from django.db import connection
from django.utils import timezone

from baohuang import broadcast, loop_database
from rooms.consumers import InboxConsumer
from rooms.threads import db
from rooms.models import Room

TOUCH_SQL = "UPDATE rooms_room SET updated = now() WHERE id = %s"


class EchoConsumer(InboxConsumer):
    async def connect(self):
        self.name = self.scope["url_route"]["kwargs"]["name"]
        await self.join_group(f"echo-{self.name}")
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is not None:
            await self.write()
            broadcast.publish(self.group, {"type": "echo.frame", "text": text_data})

    async def write(self) -> None:
        """What a frame costs before it is sent on (nothing, for the bare echo)."""

    async def echo_frame(self, message):
        await self.send(text_data=message["text"])


def touch_room(room_id: int) -> None:
    Room.objects.filter(pk=room_id).update(updated=timezone.now())


def touch_room_raw(room_id: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute(TOUCH_SQL, [room_id])


class WriteEchoConsumer(EchoConsumer):
    async def write(self) -> None:
        await db(touch_room)(int(self.name))


class RawWriteEchoConsumer(EchoConsumer):
    async def write(self) -> None:
        await db(touch_room_raw)(int(self.name))


class LoopWriteEchoConsumer(EchoConsumer):
    async def write(self) -> None:
        await loop_database.run([(TOUCH_SQL, [int(self.name)])])
