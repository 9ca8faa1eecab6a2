"""Room broadcasts: delivered in memory to the sockets of the writer's own process, and
through Redis pub/sub to every other process, where one subscriber per event loop decodes
each message once for all its sockets.

Writers call `publish(group, message)` after commit, on any thread of any process (a server
process's pool thread or event loop, a Celery worker). The message goes

- to this process's own members of the group at once: each event loop serving sockets has
  a `Hub`, and the message is handed to that loop, which puts it in every member's inbox;
- to Redis, `PUBLISH <prefix>:group:<group>`, msgpack-encoded behind this process's origin
  tag, for the members in every other process. A hub skips, unread, a message that its own
  process published: it already has it. In a server process a hub's loop publishes it, with
  whatever else is waiting, in one round trip (`Hub.forward`); the writer's thread goes on.

A socket `join`s its room's group before it reads its snapshot. `join` returns once Redis
has confirmed the subscription, so every message published after that reaches the socket
(anything up to the snapshot's version is then dropped as a duplicate).

Why not a Channels channel layer: it decodes and queues a group message once per socket,
through a receive call with its own timeout per socket, and a message written by this
process makes the round trip through Redis before its own sockets hear it. With a room's
sockets on one process (docs/architecture.md, "Several server processes") that was about a
sixth of the server's CPU per move. Delivery stays best-effort, as before: a message lost
with a Redis outage is made good by the clients, which ask for what they missed on a
version gap (docs/protocol.md).

The prefix (`settings.CHANNEL_PREFIX`) keeps deployments and test runs that share one Redis
apart: pub/sub ignores the database number.
"""

import asyncio
import functools
import logging
import os
import threading

import msgpack
import redis
import redis.asyncio
from django.conf import settings

log = logging.getLogger(__name__)

RETRY_SECONDS = 0.5  # after the subscriber's connection failed, before it reads again
CONFIRM_SECONDS = 10.0  # a subscription Redis has not confirmed by then is an error


def _channel(group: str) -> str:
    return f"{settings.CHANNEL_PREFIX}:group:{group}"


@functools.cache
def _origin(pid: int) -> bytes:
    """A tag of this process, fixed length; looked up by pid so a forked child gets its own."""
    return os.urandom(8).hex().encode() + b":"


ORIGIN_LENGTH = len(_origin(0))


@functools.cache
def _publisher(url: str) -> redis.Redis:
    return redis.Redis.from_url(url)


def _encode(message: dict) -> bytes:
    return _origin(os.getpid()) + msgpack.packb(message, use_bin_type=True)


def publish(group: str, message: dict) -> None:
    """Send `message` (a dict with a `type`) to every member of `group`, in every process,
    from a thread or from an event loop. In a server process one of its hubs
    forwards the message to Redis (`Hub.forward`); a process with no hub (a Celery worker)
    publishes it from here, blocking."""
    if _on_a_loop():
        _publish_from_loop(group, message)
        return
    data = _encode(message)
    hubs = _live_hubs()
    for index, hub in enumerate(hubs):
        hub.loop.call_soon_threadsafe(hub.deliver, group, message, data if index == 0 else None)
    if not hubs:
        _publisher(settings.REDIS_URL).publish(_channel(group), data)


def _on_a_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _publish_from_loop(group: str, message: dict) -> None:
    """`publish` from code running on an event loop."""
    here = hub_of_this_loop()
    data = _encode(message)
    for hub in _live_hubs():
        if hub is here:
            hub.deliver(group, message, data)
        else:
            hub.loop.call_soon_threadsafe(hub.deliver, group, message, None)


async def join(group: str, deliver) -> None:
    """From now on, call `deliver(message)` (on this loop) with every message of `group`."""
    await hub_of_this_loop().join(group, deliver)


async def leave(group: str, deliver) -> None:
    hub = _HUBS.get(asyncio.get_running_loop())
    if hub is not None:
        await hub.leave(group, deliver)


class Hub:
    """The members of each group on one event loop, and their one Redis subscription."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.members: dict[str, list] = {}  # group → deliver callables
        self.groups: dict[bytes, str] = {}  # Redis channel → group
        self.confirmed: dict[bytes, asyncio.Future] = {}  # Redis channel → its subscription confirmed
        self.client = redis.asyncio.Redis.from_url(settings.REDIS_URL)
        self.pubsub = self.client.pubsub()
        # One (un)subscribe at a time: redis-py's PubSub opens a connection of its own for each
        # first command made while none is open yet, and reads only the last one's.
        self.subscribing = asyncio.Lock()
        self.reader: asyncio.Task | None = None
        self.outbox: list[tuple[str, bytes]] = []  # (Redis channel, encoded message) to forward
        self.forwarder: asyncio.Task | None = None

    def deliver(self, group: str, message: dict, data: bytes | None = None) -> None:
        """Hand `message` to this loop's members of `group`, and, given its encoded `data`,
        forward it to the other processes (`forward`)."""
        for member in self.members.get(group, ()):
            member(message)
        if data is not None:
            self.forward(_channel(group), data)

    def forward(self, channel: str, data: bytes) -> None:
        """PUBLISH on Redis from this loop: the messages waiting go out together, in the
        order they came, one round trip for all of them. The writer's thread neither waits
        for Redis nor pays for the client (at 500 moves a second, one PUBLISH per move
        from the database threads was about 4% of the server's CPU, and each one made the
        thread wait for the GIL on a busy server)."""
        self.outbox.append((channel, data))
        if self.forwarder is None:
            self.forwarder = self.loop.create_task(self._forward())

    async def _forward(self) -> None:
        try:
            while self.outbox:
                batch, self.outbox = self.outbox, []
                try:
                    if len(batch) == 1:
                        await self.client.publish(*batch[0])
                        continue
                    async with self.client.pipeline(transaction=False) as pipe:
                        for channel, data in batch:
                            pipe.publish(channel, data)
                        await pipe.execute()
                except Exception:  # best-effort, as before: other processes' clients fill the gap
                    log.warning("room broadcasts: %d message(s) not published to Redis", len(batch), exc_info=True)
        finally:
            self.forwarder = None

    async def join(self, group: str, deliver) -> None:
        channel = _channel(group).encode()
        members = self.members.setdefault(group, [])
        members.append(deliver)
        try:
            if channel not in self.confirmed:
                self.groups[channel] = group
                self.confirmed[channel] = self.loop.create_future()
                async with self.subscribing:
                    await self.pubsub.subscribe(channel)
                if self.reader is None:
                    self.reader = self.loop.create_task(self._read())
            async with asyncio.timeout(CONFIRM_SECONDS):
                await asyncio.shield(self.confirmed[channel])
        except BaseException:
            await self.leave(group, deliver)
            raise

    async def leave(self, group: str, deliver) -> None:
        members = self.members.get(group, [])
        if deliver in members:
            members.remove(deliver)
        if members:
            return
        self.members.pop(group, None)
        channel = _channel(group).encode()
        self.groups.pop(channel, None)
        if self.confirmed.pop(channel, None) is None:
            return
        if self.members:
            async with self.subscribing:
                await self.pubsub.unsubscribe(channel)
        else:
            await self._close()

    async def _close(self) -> None:
        """The last member left: drop the hub (a later join starts a new one), once what it
        was forwarding has gone out."""
        with _HUBS_LOCK:
            if _HUBS.get(self.loop) is self:
                del _HUBS[self.loop]
        if self.forwarder is not None:
            try:
                async with asyncio.timeout(CONFIRM_SECONDS):  # not for ever, on a Redis that hangs
                    await self.forwarder
            except TimeoutError:
                log.warning("room broadcasts: messages still unpublished when the last member left")
        if self.reader is not None:
            self.reader.cancel()
        await self.pubsub.aclose()
        await self.client.aclose()

    async def _read(self) -> None:
        origin = _origin(os.getpid())
        while True:
            try:
                message = await self.pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception:  # redis-py reconnects and subscribes again on the next read
                log.warning("room broadcasts: reading from Redis failed", exc_info=True)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if message is None:
                continue
            channel = message["channel"]
            if message["type"] == "subscribe":
                confirmed = self.confirmed.get(channel)
                if confirmed is not None and not confirmed.done():
                    confirmed.set_result(None)
            elif message["type"] == "message" and channel in self.groups:
                data = message["data"]
                if data.startswith(origin):
                    continue  # published by this process, which delivered it already
                self.deliver(self.groups[channel], msgpack.unpackb(data[ORIGIN_LENGTH:], raw=False))


_HUBS: dict[asyncio.AbstractEventLoop, Hub] = {}
_HUBS_LOCK = threading.Lock()  # publishers read the hubs from their own threads


def hub_of_this_loop() -> Hub:
    loop = asyncio.get_running_loop()
    with _HUBS_LOCK:
        hub = _HUBS.get(loop)
        if hub is None:  # a new loop: the finished ones (a test's) are let go first
            for gone in [each for each in _HUBS if each.is_closed()]:
                del _HUBS[gone]
            hub = _HUBS[loop] = Hub(loop)
        return hub


def _live_hubs() -> list[Hub]:
    with _HUBS_LOCK:
        return [hub for loop, hub in _HUBS.items() if not loop.is_closed()]
