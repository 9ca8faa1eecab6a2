"""Room broadcasts (`baohuang.broadcast`) against the real Redis: in memory to this
process's members, through Redis to the members of every other process, once each."""

import asyncio
import os
import subprocess
import sys
import threading
from pathlib import Path

import msgpack
import pytest
import redis

from baohuang import broadcast
from tests.live import anyio_backend, isolated_prefix, own_redis  # noqa: F401

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("isolated_prefix")]

ROOT = Path(__file__).resolve().parents[2]


class Member:
    """A group member that records what it is given."""

    def __init__(self):
        self.messages = []
        self.arrived = asyncio.Event()

    def __call__(self, message):
        self.messages.append(message)
        self.arrived.set()

    async def wait(self, count: int) -> list:
        while len(self.messages) < count:
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), 10)
        return self.messages


def subscribers(group: str) -> int:
    channel = broadcast._channel(group)
    return dict(redis.Redis.from_url(broadcast.settings.REDIS_URL).pubsub_numsub(channel))[channel.encode()]


async def settle():
    """Give Redis time to hand back a copy this process published (it must be skipped)."""
    await asyncio.to_thread(redis.Redis.from_url(broadcast.settings.REDIS_URL).ping)
    await asyncio.sleep(0.05)


async def test_a_message_published_here_reaches_each_member_of_the_group_once():
    first, second, elsewhere = Member(), Member(), Member()
    await broadcast.join("room-1", first)
    await broadcast.join("room-1", second)
    await broadcast.join("room-2", elsewhere)

    await asyncio.to_thread(broadcast.publish, "room-1", {"type": "hand.events", "hand": 7, "events": []})
    broadcast.publish("room-1", {"type": "chat.message", "text": "好"})
    await first.wait(2)
    await settle()

    expected = [{"type": "hand.events", "hand": 7, "events": []}, {"type": "chat.message", "text": "好"}]
    assert first.messages == second.messages == expected  # in order, and the Redis copies skipped
    assert elsewhere.messages == []
    for group, member in (("room-1", first), ("room-1", second), ("room-2", elsewhere)):
        await broadcast.leave(group, member)


async def test_a_message_published_by_another_process_arrives_through_redis(isolated_prefix):
    member = Member()
    await broadcast.join("room-3", member)
    message = {"type": "room.changed", "room": 3, "change": "ready", "seat": 2, "on": True}
    code = ("import django; django.setup(); from baohuang import broadcast; "
            f"broadcast.publish('room-3', {message!r})")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "baohuang.settings", "CHANNEL_PREFIX": isolated_prefix}
    done = await asyncio.to_thread(subprocess.run, [sys.executable, "-c", code], cwd=ROOT, env=env,
                                   capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr

    assert await member.wait(1) == [message]
    await broadcast.leave("room-3", member)


async def test_many_sockets_joining_at_once_are_all_subscribed(monkeypatch):
    """A server's sockets reconnecting together (a restart): the first joins find the hub with
    no Redis connection yet. Each opened one of its own, and only the last was read, so
    the others' subscriptions were never confirmed and their sockets failed to open."""
    monkeypatch.setattr(broadcast, "CONFIRM_SECONDS", 3.0)
    groups = [f"room-{number}" for number in range(40)]
    members = [Member() for _ in groups]
    await asyncio.gather(*(broadcast.join(group, member) for group, member in zip(groups, members)))
    assert [subscribers(group) for group in groups] == [1] * len(groups)  # one connection holds them all
    await asyncio.to_thread(lambda: [broadcast.publish(group, {"n": index}) for index, group in enumerate(groups)])
    for index, member in enumerate(members):
        assert await member.wait(1) == [{"n": index}]
    for group, member in zip(groups, members):
        await broadcast.leave(group, member)


async def test_after_the_last_member_leaves_the_group_is_not_heard():
    member = Member()
    await broadcast.join("room-4", member)
    assert subscribers("room-4") == 1
    await broadcast.leave("room-4", member)

    assert subscribers("room-4") == 0
    await asyncio.to_thread(broadcast.publish, "room-4", {"type": "chat.message", "text": "gone"})
    await settle()
    assert member.messages == []


async def test_a_process_hears_again_after_redis_comes_back(own_redis):
    # Its subscriber reconnects and subscribes again by itself. What was published while
    # Redis was away is lost (clients fill the gap from the database on the next event).
    member = Member()
    await broadcast.join("room-5", member)
    await asyncio.to_thread(own_redis.stop)
    await asyncio.to_thread(own_redis.start)
    elsewhere = redis.Redis.from_url(broadcast.settings.REDIS_URL)
    message = {"type": "chat.message", "text": "back"}
    tagged = b"f" * (broadcast.ORIGIN_LENGTH - 1) + b":" + msgpack.packb(message)  # another process's
    deadline = asyncio.get_running_loop().time() + 15
    while not member.messages:  # published again until the subscription is back
        assert asyncio.get_running_loop().time() < deadline, "not heard within 15 s of Redis coming back"
        await asyncio.to_thread(elsewhere.publish, broadcast._channel("room-5"), tagged)
        await asyncio.sleep(0.1)
    assert member.messages[0] == message
    await broadcast.leave("room-5", member)


def heard_on_redis(group: str, count: int, ready) -> list:
    """What another process subscribed to `group` hears: the first `count` messages, decoded
    (after `ready` is set once the subscription is confirmed)."""
    pubsub = redis.Redis.from_url(broadcast.settings.REDIS_URL).pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(broadcast._channel(group))
    pubsub.get_message(timeout=5)  # the confirmation
    ready.set()
    heard = []
    while len(heard) < count:
        message = pubsub.get_message(timeout=10)
        assert message is not None, f"heard {len(heard)} of {count} messages"
        heard.append(msgpack.unpackb(message["data"][broadcast.ORIGIN_LENGTH:], raw=False))
    pubsub.close()
    return heard


async def test_messages_written_on_threads_reach_other_processes_in_the_order_written():
    # A server process's hub forwards them to Redis from its loop, several in one round trip.
    member = Member()
    await broadcast.join("room-6", member)
    ready = threading.Event()
    listener = asyncio.ensure_future(asyncio.to_thread(heard_on_redis, "room-6", 40, ready))
    await asyncio.to_thread(ready.wait, 10)
    messages = [{"type": "hand.events", "hand": 6, "events": [{"version": version}]} for version in range(40)]

    def write():
        for message in messages:
            broadcast.publish("room-6", message)

    await asyncio.to_thread(write)
    assert await listener == messages
    assert await member.wait(40) == messages
    await broadcast.leave("room-6", member)


async def test_a_writer_does_not_wait_for_redis(own_redis):
    # With Redis gone the writer's thread goes on, and this process's members still hear
    # the message; the other processes' clients fill the gap later (docs/protocol.md).
    member = Member()
    await broadcast.join("room-7", member)
    await asyncio.to_thread(own_redis.stop)
    message = {"type": "room.changed", "room": 7, "change": "ready", "seat": 1, "on": True}
    await asyncio.to_thread(broadcast.publish, "room-7", message)
    assert await member.wait(1) == [message]
    await asyncio.to_thread(own_redis.start)
    await broadcast.leave("room-7", member)
