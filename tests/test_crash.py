"""A server process killed mid-hand loses nothing (issue 15; docs/architecture.md, "After a
crash").

Five players on one Uvicorn process play part of a hand over real sockets; one sends a
move and the process is killed (SIGKILL: no close frame, no cleanup, no after-commit
hook that had not run) before its answer. A new process on the same port starts with
empty caches: the hand it serves is the replay of the stored events from the seed, the
versions are contiguous, the move in flight was applied once or not at all (re-sent with
its `client_id`, it is answered with the one result), and the hand plays on to its end.
Needs PostgreSQL (the server processes share the test database).
"""

import pytest

from baohuang import engine
from rooms.models import Hand, HandEvent
from tests.live import (SocketClient, anyio_backend, db, no_lingering_connections,  # noqa: F401
                        play_hand, quick_action, ready_all, session_key)

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True)]


async def connect_all(server, room, sessions) -> list[SocketClient]:
    clients = [SocketClient(f"{server.ws_url}/ws/rooms/{room.pk}/", session=session) for session in sessions]
    for client in clients:
        await client.connect()
        await client.expect("snapshot")
    return clients


async def close_all(clients) -> None:
    for client in clients:
        if hasattr(client, "socket"):
            await client.close()


def stored(hand_id: int) -> tuple[Hand, list[HandEvent]]:
    hand = Hand.objects.get(pk=hand_id)
    return hand, list(HandEvent.objects.filter(hand=hand).order_by("version"))


@pytest.mark.parametrize("preset", ["lianzhong", "qingdao"])
async def test_a_server_killed_mid_hand_loses_nothing(live_servers, full_table, players, preset):
    room = await db(full_table)(preset)
    sessions = [await db(session_key)(player) for player in players]
    (server,) = live_servers(1)
    clients = await connect_all(server, room, sessions)
    try:
        assert (await ready_all(clients))["version"] == 0  # the last 准备 deals
        hand = await db(lambda: Hand.objects.get(room=room))()
        state, _ = await play_hand(clients, hand.pk, hand.state, moves=12)

        # A move in flight: sent, and the process killed before (or while) it answers.
        seat, version = engine.actors(state)[0], state["version"]
        action = quick_action(state, seat)
        frame = {"type": "act", "action": action, "expected_version": version, "client_id": "in-flight"}
        await clients[seat].send(frame)
        server.process.kill()
        server.process.wait()
        await close_all(clients)

        # Whatever was committed is all there is: the stored state is the replay of the
        # stored events from the seed, and the versions run 1, 2, … without a gap.
        before, events = await db(stored)(hand.pk)
        assert before.version in (version, version + 1)  # the move in flight: stored or not, never half
        assert [event.version for event in events] == list(range(1, before.version + 1))
        replayed = engine.replay(preset, before.seed, [event.action for event in events],
                                 options=before.options, salt=before.salt)
        assert replayed == before.state

        server.start()  # a new process on the same port, its caches empty
        clients = await connect_all(server, room, sessions)
        snapshot = next(frame for frame in clients[seat].frames if frame["type"] == "snapshot")
        assert snapshot["hand"]["id"] == hand.pk
        assert snapshot["hand"]["version"] == before.version and snapshot["hand"]["running"]

        # The player re-sends the move it never heard back about: applied exactly once.
        await clients[seat].send(frame)
        assert (await clients[seat].expect("ack"))["version"] == version + 1
        hand, events = await db(stored)(hand.pk)
        assert hand.version == version + 1
        assert [event.client_id for event in events].count("in-flight") == 1

        await play_hand(clients, hand.pk, hand.state)
        hand, events = await db(stored)(hand.pk)
        assert hand.phase == "ended" and hand.scored
        assert [event.version for event in events] == list(range(1, hand.version + 1))
        uninterrupted = engine.replay(preset, hand.seed, [event.action for event in events],
                                      options=hand.options, salt=hand.salt)
        assert hand.state == uninterrupted and hand.result == engine.result(uninterrupted)
        for client in clients:  # every socket of the new process got every event after its snapshot
            versions = [f["version"] for f in client.frames if f["type"] == "event" and f["hand"] == hand.pk]
            assert versions == list(range(before.version + 1, hand.version + 1))
    finally:
        await close_all(clients)
