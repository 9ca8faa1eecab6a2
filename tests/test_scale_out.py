"""Scale-out: two Uvicorn processes on different ports, sharing PostgreSQL and Redis, serve
one room; players connected to different processes play a whole hand together over real
sockets, and one of them drops mid-hand and comes back through the other process. A
process that dies leaves no seat shown online."""

import asyncio

import pytest

from baohuang import engine
from rooms.models import Hand, Seat
from rooms.tasks import sweep_presence
from tests.live import (SocketClient, anyio_backend, db, no_lingering_connections,  # noqa: F401
                        play_hand, ready_all, session_key)

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True)]


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

        # Everyone presses 准备; the last, seat 3 on the second process, deals.
        assert (await ready_all([clients[seat] for seat in (0, 1, 2, 4, 3)]))["version"] == 0
        for client in everyone:
            await client.expect("snapshot", where=lambda f: f["hand"] is not None and f["hand"]["running"])
        hand = await db(lambda: Hand.objects.get(room=room))()

        state, _ = await play_hand(everyone, hand.pk, hand.state, moves=20)
        while 1 in engine.actors(state):  # drop him when someone else is to move
            state, _ = await play_hand(everyone, hand.pk, state, moves=1)
        left_at = state["version"]
        # Bob's connection to the second process drops; he comes back through the first,
        # is current at once (snapshot) and gets what he missed (`missed`).
        await clients[1].close()
        await clients[0].expect("presence", where=lambda f: f["seat"]["index"] == 1 and not f["seat"]["online"])
        away = [None if seat == 1 else client for seat, client in enumerate(everyone)]
        for _ in range(3):  # the others play on while he is away (until it is his turn)
            if 1 in engine.actors(state):
                break
            state, _ = await play_hand(away, hand.pk, state, moves=1)
        bob = SocketClient(f"{first.ws_url}/ws/rooms/{room.pk}/", session=sessions[1])
        await bob.connect()
        snap = await bob.expect("snapshot")
        assert snap["version"] == state["version"] and snap["seats"][1]["online"]
        await bob.send({"type": "sync", "hand": hand.pk, "version": left_at})
        missed = await bob.expect("missed")
        assert [entry["version"] for entry in missed["events"]] == list(range(left_at + 1, state["version"] + 1))
        before = [frame["version"] for frame in clients[1].frames if frame["type"] == "event"]
        assert before + [entry["version"] for entry in missed["events"]] == list(range(1, snap["version"] + 1))
        clients[1] = everyone[1] = bob
        back_at = snap["version"]

        await play_hand(everyone, hand.pk, state)

        hand = await db(lambda: Hand.objects.get(pk=hand.pk))()
        assert hand.phase == "ended" and hand.scored
        for seat, client in enumerate(everyone):
            versions = [f["version"] for f in client.frames if f["type"] == "event"]
            first_version = back_at + 1 if seat == 1 else 1
            assert versions == list(range(first_version, hand.version + 1)), f"client {seat} missed or repeated events"
            final = await client.expect("snapshot", where=lambda f: not f["hand"]["running"])
            assert final["hand"]["view"]["result"]["scores"] == hand.result["scores"]
    finally:
        for client in everyone:
            if hasattr(client, "socket"):
                await client.close()


async def test_a_server_process_that_dies_leaves_no_seat_shown_online(live_servers, full_table, players, settings):
    # Sockets count as gone 2 s after their last heartbeat, in the servers and here.
    settings.PRESENCE_TTL_SECONDS = 2
    room = await db(full_table)("classic")
    alice_session, bob_session = [await db(session_key)(player) for player in players[:2]]
    doomed, survivor = live_servers(2, PRESENCE_TTL_SECONDS=2)
    alice = SocketClient(f"{doomed.ws_url}/ws/rooms/{room.pk}/", session=alice_session)
    bob = SocketClient(f"{survivor.ws_url}/ws/rooms/{room.pk}/", session=bob_session)
    try:
        for client in (alice, bob):
            await client.connect()
            await client.expect("snapshot")
        online = lambda: list(Seat.objects.filter(room=room).order_by("index").values_list("online", flat=True))  # noqa: E731
        assert (await db(online)())[:2] == [True, True]
        assert await db(sweep_presence)() == 0  # both sockets are live

        doomed.process.kill()  # no close frame, no disconnect: her seat still shows online
        doomed.process.wait()
        assert (await db(online)())[:2] == [True, True]
        await asyncio.sleep(2.5)  # her last heartbeat has run out; his are renewed

        assert await db(sweep_presence)() == 1
        frame = await bob.expect("presence", where=lambda f: f["seat"]["index"] == 0)
        assert frame["seat"]["online"] is False
        assert (await db(online)())[:2] == [False, True]
        assert await db(sweep_presence)() == 0
    finally:
        await bob.close()
