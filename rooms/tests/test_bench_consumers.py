"""The benchmark's echo consumers (`bench/bench_live.py`; routed only with BENCH_ECHO=1),
over the real Redis layer: every socket of a group gets each frame, unchanged, and the
writing echoes commit to the room's row before they send."""

import json

import pytest
from channels.routing import URLRouter
from django.db import connection
from django.urls import path

from rooms.bench_consumers import EchoConsumer, LoopWriteEchoConsumer, RawWriteEchoConsumer, WriteEchoConsumer
from rooms.models import Room
from rooms.services import player_guest, room_create
from tests.live import (anyio_backend, closed_at_the_end, db, isolated_prefix,  # noqa: F401
                        no_lingering_connections, websocket_communicator)

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("isolated_prefix")]

ROUTES = URLRouter([
    path("ws/echo/<slug:name>/", EchoConsumer.as_asgi()),
    path("ws/echo-write/<int:name>/", WriteEchoConsumer.as_asgi()),
    path("ws/echo-raw/<int:name>/", RawWriteEchoConsumer.as_asgi()),
    path("ws/echo-loop/<int:name>/", LoopWriteEchoConsumer.as_asgi()),
])


async def group_of_five(address: str) -> list:
    communicator_class = websocket_communicator()
    sockets = [communicator_class(ROUTES, address) for _ in range(5)]
    for socket in sockets:
        assert (await socket.connect())[0]
    return sockets


async def every_socket_gets(sockets: list, text: str) -> None:
    for socket in sockets:
        assert await socket.receive_from(timeout=5) == text


async def test_the_echo_sends_each_frame_to_every_socket_of_its_group():
    sockets = await group_of_five("/ws/echo/bench0/")
    frame = json.dumps({"type": "echo", "n": 1, "pad": "x" * 200})
    await sockets[3].send_to(text_data=frame)
    await every_socket_gets(sockets, frame)
    for socket in sockets:
        assert await socket.receive_nothing(0.1)
        await socket.disconnect()


@pytest.mark.parametrize("kind", ["write", "raw", "loop"])
async def test_each_writing_echo_commits_to_the_room_row_before_it_sends(kind):
    if kind in ("raw", "loop") and connection.vendor != "postgresql":
        pytest.skip("hand-written PostgreSQL")
    room = await db(lambda: room_create(creator=player_guest(nickname="alice"), name="bench", preset="classic"))()
    sockets = await group_of_five(f"/ws/echo-{kind}/{room.pk}/")
    try:
        frame = json.dumps({"type": "echo", "n": 1})
        await sockets[0].send_to(text_data=frame)
        await every_socket_gets(sockets, frame)
        updated = await db(lambda: Room.objects.get(pk=room.pk).updated)()
        assert updated > room.updated
    finally:
        for socket in sockets:
            await socket.disconnect()
