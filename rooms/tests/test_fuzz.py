"""Hostile and careless frames over a live socket, at a table with a hand running.

Each frame gets its answer (an `error` with a clear code, or the frame's ordinary reply),
then a ping and a sync prove the socket still open. At the end nothing unhandled was logged, no
`server_error` was sent, and the hand's version and state are what they were. The
random part is a seeded generator (the same frames every run; SEED to try others).
"""

import asyncio
import json
import logging
import os
import random

import pytest

from rooms import consumers
from rooms.models import Hand
from rooms.services import hand_start
from tests.live import (Client, anyio_backend, closed_at_the_end, db, isolated_prefix,  # noqa: F401
                        no_lingering_connections, session_key)

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("isolated_prefix")]

SEED = int(os.environ.get("SEED", "20261201"))
RANDOM_FRAMES = 300
# Frames that would change the table on purpose (a legal move, leaving, 托管) are left out:
# the point is what the server does with input it must refuse or merely answer.
SAFE_TYPES = ("sit", "ready", "free", "act", "chat", "ping", "sync", "dance", "", None, 5)

HOSTILE = [
    ('{"type": "ping", "client_id": "\\ud800"}', "bad_json"),  # a lone surrogate: the echo would fail
    ('{"type": "chat", "text": "\\udfff x"}', "bad_json"),
    ('{"type": "act", "client_id": "\\ud83d", "expected_version": 0, "action": {"type": "pass"}}', "bad_json"),
    ("[" * 1000 + "]" * 1000, "bad_json"),  # deep nesting: a RecursionError once
    ('{"type": "act", "client_id": "deep", "expected_version": 0, "action": ' + '{"a": ' * 50 + "1" + "}" * 50
     + "}", "bad_json"),
    ('{"type": "ping", "t": 18446744073709551616}', None),  # 2**64: pong echoes it as a number
    ('{"type": "ping", "t": -170141183460469231731687303715884105728}', None),
    ('{"type": "sit", "seat": 1180591620717411303424}', "bad_field"),  # 2**70 is no seat
    ('{"type": "sync", "version": 18446744073709551616}', "bad_field"),
    ('{"type": "act", "client_id": "big", "expected_version": 99999999999999999999999, "action": {"type": "pass"}}',
     "bad_field"),
    ('{"type": "chat", "text": "nul\\u0000byte", "client_id": "n"}', "bad_text"),  # PostgreSQL refuses NUL
    ('{"type": "chat", "text": "\\u202egnp.exe", "client_id": "r"}', "bad_text"),
    ('{"type": "act", "client_id": "nul\\u0000", "expected_version": 0, "action": {"type": "pass"}}', "bad_field"),
    ('{"type": "ping", "t": NaN}', "bad_json"),
    ('{"type": "ping", "t": 1e400}', "bad_json"),
    ('{"type": "ping", "t": "now"}', "bad_field"),
    ('{"type": "act", "expected_version": 0, "action": {"type": "pass"}}', "bad_field"),  # no client_id
    ('{"type": "act", "client_id": "x", "expected_version": 0, "action": "pass"}', "bad_field"),
    ('{"type": "act", "client_id": "y", "expected_version": 0, "action": {"type": "play", "cards": [[["3H"]]]}}',
     None),
    ("\ufeff{}", "bad_json"),
    ("null", "bad_json"),
]


def random_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, -1, 1, 4, 5, 2**31, 2**63, 2**64 - 1, -(2**63)]) + rng.randrange(-2, 3)
    if kind == 2:
        return rng.uniform(-1e9, 1e9)
    if kind == 3:
        return "".join(chr(rng.choice([rng.randrange(0x20, 0x7F), rng.randrange(0x80, 0xD7FF),
                                       rng.randrange(0xE000, 0x10FFFF), rng.randrange(0, 0x20), 0x202E]))
                       for _ in range(rng.randrange(0, 12)))
    if kind in (4, 5):
        return rng.choice(["3H", "BJ*", "4H* 4H", "pass", "play", "", "ming_bao", "x" * 70])
    if kind == 6:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    return {rng.choice(["type", "cards", "card", "what", "seat", "x"]): random_value(rng, depth + 1)
            for _ in range(rng.randrange(0, 4))}


def random_frame(rng: random.Random, version: int) -> str:
    frame = {"type": rng.choice(SAFE_TYPES)}
    for name in rng.sample(["client_id", "seat", "text", "phrase", "t", "version", "hand", "expected_version",
                            "action", "on"], rng.randrange(0, 5)):
        frame[name] = random_value(rng)
    if frame["type"] == "act" and frame.get("expected_version") == version:
        frame["expected_version"] = version + 7  # never a move at the hand's own version
    if rng.random() < 0.1:
        return json.dumps(frame)[: rng.randrange(1, 40)]  # cut short: not JSON
    return json.dumps(frame)


@pytest.fixture
def running(full_table, players):
    room = full_table("classic")
    hand = hand_start(room_id=room.pk)
    return room, hand, session_key(players[0])


def hand_now(hand_id: int) -> tuple[int, dict]:
    hand = Hand.objects.get(pk=hand_id)
    return hand.version, hand.state


async def test_hostile_frames_get_their_error_and_change_nothing(running, caplog):
    room, hand, session = running
    before = await db(hand_now)(hand.pk)
    alice = Client(f"/ws/rooms/{room.pk}/", session=session)
    assert (await alice.connect())[0]
    await alice.expect("snapshot")

    for number, (text, code) in enumerate(HOSTILE):
        seen = len(alice.frames)
        await alice.send_text(text)
        await alice.send({"type": "ping", "t": number})
        await alice.expect("pong", t=number)
        # A pong may overtake earlier answers (pings are answered as they arrive); a sync's
        # ack comes in order, after the hostile frame's answer.
        await alice.send({"type": "sync", "hand": hand.pk, "version": before[0], "client_id": f"after-{number}"})
        await alice.expect("ack", client_id=f"after-{number}")
        errors = [frame for frame in alice.frames[seen:] if frame["type"] == "error"]
        alice.drain_unread()
        if code is None:
            assert not errors or errors[0]["code"] != "server_error", (text[:60], errors)
        else:
            assert [error["code"] for error in errors] == [code], (text[:60], errors)
        await asyncio.sleep(0.3)  # four frames each time: well within the rate limit

    assert await db(hand_now)(hand.pk) == before
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    await alice.close()


async def test_random_frames_never_break_the_socket_or_the_hand(running, caplog, monkeypatch):
    monkeypatch.setattr(consumers, "RATE_LIMIT", 10_000)  # the limit has its own tests
    room, hand, session = running
    before = await db(hand_now)(hand.pk)
    alice = Client(f"/ws/rooms/{room.pk}/", session=session)
    assert (await alice.connect())[0]
    await alice.expect("snapshot")
    rng = random.Random(SEED)

    for number in range(RANDOM_FRAMES):
        text = random_frame(rng, before[0])
        seen = len(alice.frames)
        await alice.send_text(text)
        await alice.send({"type": "ping", "t": -1 - number})
        await alice.expect("pong", t=-1 - number)
        assert not [frame for frame in alice.frames[seen:] if frame.get("code") == "server_error"], text
        assert not [frame for frame in alice.frames[seen:] if frame["type"] == "_closed"], text

    assert await db(hand_now)(hand.pk) == before
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    await alice.close()


async def test_a_processing_lag_does_not_turn_a_steady_pace_into_a_close(running, monkeypatch):
    """18 frames a second while the consumer is stalled for 1.5 s: they are handled in a
    burst afterwards, but they arrived at 18/s, and arrivals are what the limit counts.
    (Syncs, not pings: a ping is answered as it arrives, never behind a stalled frame.)"""
    room, hand, session = running
    stalled = asyncio.Event()
    ordinary = consumers.RoomConsumer.on_sync

    async def slow_once(self, client_id, **fields):
        if client_id == "stall" and not stalled.is_set():
            stalled.set()
            await asyncio.sleep(1.5)
        await ordinary(self, client_id, **fields)

    monkeypatch.setattr(consumers.RoomConsumer, "on_sync", slow_once)
    alice = Client(f"/ws/rooms/{room.pk}/", session=session)
    assert (await alice.connect())[0]
    version = (await alice.expect("snapshot"))["hand"]["version"]

    def sync(client_id):
        return {"type": "sync", "hand": hand.pk, "version": version, "client_id": client_id}

    await alice.send(sync("stall"))
    for number in range(36):  # two seconds at 18 a second
        await asyncio.sleep(1 / 18)
        await alice.send(sync(f"s{number}"))
    for number in range(36):
        await alice.expect("ack", client_id=f"s{number}")

    assert not [frame for frame in alice.frames if frame["type"] == "_closed"]
    await alice.close()


async def test_a_broadcast_after_a_policy_close_is_not_sent(running, players, caplog):
    room, hand, session = running
    alice = Client(f"/ws/rooms/{room.pk}/", session=session)
    assert (await alice.connect())[0]
    await alice.expect("snapshot")
    for _ in range(consumers.RATE_LIMIT + 1):
        await alice.send({"type": "ping"})
    assert (await alice.expect("_closed"))["code"] == 1008
    alice.drain_unread()  # the pongs before the close

    bob = Client(f"/ws/rooms/{room.pk}/", session=await db(session_key)(players[1]))  # a presence broadcast
    assert (await bob.connect())[0]
    await bob.expect("snapshot")
    await bob.send({"type": "chat", "text": "hello", "client_id": "b"})
    await bob.expect("chat")

    await asyncio.sleep(0.3)  # a window for the chat to reach alice's consumer too
    await alice.close()  # its consumer ends; anything it sent after the close is still queued

    assert alice.communicator.output_queue.empty()  # under Uvicorn, a frame after the close is an error
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    await bob.close()
