"""Scale-out: two Uvicorn processes on different ports, sharing PostgreSQL and Redis, serve
one room; players connected to different processes play a whole hand together over real
sockets."""

import pytest

from rooms.models import Hand, Seat
from tests.live import SocketClient, db, end_lingering_connections, play_hand, session_key

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="module", autouse=True)
def no_lingering_connections(django_db_setup, django_db_blocker):
    yield
    end_lingering_connections(django_db_blocker)


async def test_players_on_two_server_processes_play_a_whole_hand_together(live_servers, full_table, players):
    room = await db(full_table)("lianzhong")
    sessions = [await db(session_key)(player) for player in players]
    first, second = live_servers(2)
    assert first.port != second.port
    # Seats 0, 2, 4 and a spectator on the first process; seats 1 and 3 on the second.
    servers = [first, second, first, second, first]
    clients = [SocketClient(f"{server.ws_url}/ws/rooms/{room.pk}/", session=session)
               for server, session in zip(servers, sessions)]
    spectator = SocketClient(f"{second.ws_url}/ws/rooms/{room.pk}/")
    everyone = clients + [spectator]
    try:
        for client in everyone:
            await client.connect()
            await client.expect("snapshot")
        # Presence crosses processes: the last seat to connect (on the first process) is
        # seen online by a player on the second.
        await clients[1].expect("presence", where=lambda f: f["seat"]["index"] == 4 and f["seat"]["online"])
        assert await db(lambda: list(Seat.objects.filter(room=room).values_list("online", flat=True)))() == [True] * 5

        await clients[3].send({"type": "start", "client_id": "deal"})  # from the second process
        assert (await clients[3].expect("ack"))["version"] == 0
        for client in everyone:
            await client.expect("snapshot", where=lambda f: f["hand"] is not None and f["hand"]["running"])
        hand = await db(lambda: Hand.objects.get(room=room))()

        await play_hand(everyone, hand.pk, hand.state)

        hand = await db(lambda: Hand.objects.get(pk=hand.pk))()
        assert hand.phase == "ended" and hand.scored
        for seat, client in enumerate(everyone):
            versions = [f["version"] for f in client.frames if f["type"] == "event"]
            assert versions == list(range(1, hand.version + 1)), f"client {seat} missed or repeated events"
            final = await client.expect("snapshot", where=lambda f: not f["hand"]["running"])
            assert final["hand"]["view"]["result"]["scores"] == hand.result["scores"]
    finally:
        for client in everyone:
            if hasattr(client, "socket"):
                await client.close()
