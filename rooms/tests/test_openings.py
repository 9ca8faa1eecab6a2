"""Sockets open a few at a time in a server process (rooms/openings.py): the others wait
before they are accepted, and one whose client gave up meanwhile costs nothing."""

import asyncio
import threading

import pytest

from rooms import consumers, openings
from rooms.tests.test_consumer import path
from tests.live import (Client, anyio_backend, closed_at_the_end, db, isolated_prefix,  # noqa: F401
                        no_lingering_connections)

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("isolated_prefix")]


async def test_sockets_wait_their_turn_to_open_and_one_given_up_meanwhile_reads_nothing(full_table, monkeypatch):
    room = await db(full_table)("classic")
    monkeypatch.setattr(openings, "AT_ONCE", 1)
    reads, inside, release = [], threading.Event(), threading.Event()
    find = consumers.room_find

    def held_find(room_id):  # the first opening stays inside its read of the room until released
        reads.append(room_id)
        if len(reads) == 1:
            inside.set()
            release.wait(10)
        return find(room_id)

    monkeypatch.setattr(consumers, "room_find", held_find)
    waiting = asyncio.Event()
    gate = openings.gate

    def counted_gate():
        counted_gate.calls += 1
        if counted_gate.calls == 3:
            waiting.set()
        return gate()

    counted_gate.calls = 0
    monkeypatch.setattr(openings, "gate", counted_gate)

    first, second, third = (Client(path(room)) for _ in range(3))
    opening = [asyncio.create_task(first.connect())]
    await asyncio.to_thread(inside.wait, 10)
    opening += [asyncio.create_task(second.connect()), asyncio.create_task(third.connect())]
    await asyncio.wait_for(waiting.wait(), 10)  # both at the gate
    await third.communicator.send_input({"type": "websocket.disconnect", "code": 1001})  # its page gave up
    for _ in range(20):
        await asyncio.sleep(0)  # turns of the loop, for anything not held by the gate to run
    assert reads == [room.pk] and not any(task.done() for task in opening)

    release.set()
    assert (await opening[0])[0] and (await opening[1])[0]
    assert (await first.expect("snapshot"))["room"]["id"] == room.pk
    assert (await second.expect("snapshot"))["room"]["id"] == room.pk
    await third.communicator.wait(10)  # its consumer ended without opening
    assert reads == [room.pk, room.pk]
    opening[2].cancel()
    third.closed = True
    await first.close()
    await second.close()
