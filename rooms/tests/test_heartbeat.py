"""The heartbeat (docs/protocol.md "Heartbeat"): a `ping` is answered on the socket's own
task, with no database or channel-layer work, so a page can tell a cut line from a busy
table within 2 s. Shown by answering while the room's row is locked — which holds up any
frame that needs the database."""

import threading

import pytest
from django.db import connection, transaction

from rooms.models import Room
from rooms.tests.test_consumer import joined
from tests.live import anyio_backend, db, isolated_prefix, no_lingering_connections, session_key  # noqa: F401

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("isolated_prefix")]


@pytest.fixture
def table(full_table, players):
    return full_table("classic"), [session_key(player) for player in players]


def hold_room_lock(room_id: int, locked: threading.Event, release: threading.Event) -> None:
    try:
        with transaction.atomic():
            Room.objects.select_for_update().get(pk=room_id)
            locked.set()
            release.wait(60)
    finally:
        connection.close()


async def test_a_ping_is_answered_while_the_room_is_locked_and_a_database_frame_waits(table):
    room, sessions = table
    alice = await joined(room, sessions[0])
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=hold_room_lock, args=(room.pk, locked, release))
    holder.start()
    try:
        assert locked.wait(30)
        await alice.send({"type": "trustee", "on": True, "client_id": "waits"})  # needs the room's lock
        await alice.send({"type": "ping", "t": 7})
        pong = await alice.expect("pong", t=7)
        assert isinstance(pong["server_time"], int)
        # The trustee frame is still waiting for the lock: nothing has answered it yet.
        alice.drain_unread()
        assert not [frame for frame in alice.frames if frame.get("client_id") == "waits"]
    finally:
        release.set()
        await db(holder.join)()
    assert (await alice.expect("error", client_id="waits"))["code"] == "no_hand"
    await alice.close()
