"""Presence (在线状态): which seated players have a live socket, and what a seat shows.

A seat's `online` flag lives on its `Seat` row, so every server process reads and writes
the same value and `rooms.services.seat_online` announces each change to the room group
after commit. A player may hold several sockets (two tabs, two server processes): when one
closes the seat goes offline, and every other socket of that player, on hearing it, marks
the seat online again (`RoomConsumer.room_changed`) — no connection counting to drift when
a process dies.

A server process that dies closes nothing, so each socket of a signed-in player also keeps
an entry in Redis (a sorted set per room and player: socket → expiry), renewed by its
process's heartbeat (`rooms.heartbeats`) every third of `PRESENCE_TTL_SECONDS`. The presence sweep
(`seats_sweep_gone`, run by the Celery beat task `rooms.sweep_presence`) takes offline every seat shown online whose
player has no live entry left. A live socket that hears its own seat go offline marks it
online again, so a late heartbeat costs a flicker, never a wrong state.
"""

import functools
import logging
import time

import redis
from django.conf import settings
from django.db import transaction

from baohuang.errors import ServiceError
from rooms.models import Player, Seat
from rooms.selectors import RoomPicture, picture_of
from rooms.services import seat_online, seat_take
from rooms.services.common import lock_room, table
from rooms.services.rooms import show_online

log = logging.getLogger(__name__)


def seat_connected(*, room_id: int, player: Player) -> bool:
    """Mark the player's seat online; False (and nothing changed) when not seated."""
    try:
        seat_online(room_id=room_id, player=player, online=True)
    except ServiceError:
        return False
    return True


def seat_disconnected(*, room_id: int, player: Player) -> None:
    """Mark the player's seat offline (a no-op when the player has no seat any more)."""
    try:
        seat_online(room_id=room_id, player=player, online=False)
    except ServiceError:
        pass


@transaction.atomic
def seat_connected_picture(*, room_id: int, player: Player) -> RoomPicture:
    """`seat_connected` and the room's picture for the new socket's snapshot, in one
    transaction: the room and its seats, read once under the lock, serve both (and the
    picture shows the seat online). A player without a seat here just gets the picture."""
    room = lock_room(room_id)
    seats = table(room)
    try:
        show_online(room, seats, player, True)
    except ServiceError:
        pass  # not seated: watching
    return picture_of(room, seats)


@transaction.atomic
def seat_take_online(*, room_id: int, player: Player, index: int | None) -> Seat:
    """Sit down from a live socket: take the seat and show it online, in one transaction."""
    seat_take(room_id=room_id, player=player, index=index)
    return seat_online(room_id=room_id, player=player, online=True)


# -- live sockets (Redis) ------------------------------------------------------------------


def heartbeat_seconds() -> float:
    return settings.PRESENCE_TTL_SECONDS / 3


@functools.cache
def _redis(url: str) -> redis.Redis:
    return redis.Redis.from_url(url)


def _key(room_id: int, player_id: int) -> str:
    return f"{settings.CHANNEL_PREFIX}:presence:{room_id}:{player_id}"  # one namespace per deployment


def socket_alive(*, room_id: int, player_id: int, socket: str) -> None:
    """The player's socket `socket` in the room is live for another `PRESENCE_TTL_SECONDS`
    (at connect; then with the rest of its process's sockets, `sockets_alive`)."""
    sockets_alive([(room_id, player_id, socket)])


def sockets_alive(entries: list[tuple[int, int, str]]) -> None:
    """Each `(room id, player id, socket)` is live for another `PRESENCE_TTL_SECONDS`: a
    server process's heartbeat renews all its sockets at once (`rooms.heartbeats`), in one
    round trip."""
    ttl = settings.PRESENCE_TTL_SECONDS
    until = time.time() + ttl
    with _redis(settings.REDIS_URL).pipeline() as pipe:
        for room_id, player_id, socket in entries:
            key = _key(room_id, player_id)
            pipe.zadd(key, {socket: until})
            pipe.expire(key, 2 * ttl)
        pipe.execute()


def socket_gone(*, room_id: int, player_id: int, socket: str) -> None:
    _redis(settings.REDIS_URL).zrem(_key(room_id, player_id), socket)


def live_sockets(pairs: list[tuple[int, int]]) -> list[int]:
    """For each (room id, player id): how many of the player's sockets there are live."""
    now = time.time()
    with _redis(settings.REDIS_URL).pipeline(transaction=False) as pipe:
        for room_id, player_id in pairs:
            pipe.zremrangebyscore(_key(room_id, player_id), "-inf", now)
            pipe.zcard(_key(room_id, player_id))
        replies = pipe.execute()
    return replies[1::2]


@transaction.atomic
def seat_offline_if_gone(*, room_id: int, player_id: int) -> bool:
    """Take the player's seat offline if it shows online with no live socket left. Checked
    with the room locked: a socket connecting meanwhile is either counted here or marks
    the seat online after this commits."""
    room = lock_room(room_id)
    seat = Seat.objects.filter(room=room, player_id=player_id, online=True).select_related("player").first()
    if seat is None or live_sockets([(room_id, player_id)])[0]:
        return False
    seat_online(room_id=room_id, player=seat.player, online=False)
    return True


def seats_sweep_gone() -> int:
    """Take offline every seat shown online whose player has no live socket left (its
    server process died without closing it). Returns how many (the Celery beat task
    `rooms.sweep_presence`)."""
    shown = list(Seat.objects.filter(online=True, player__isnull=False).values_list("room_id", "player_id"))
    gone = 0
    for (room_id, player_id), live in zip(shown, live_sockets(shown) if shown else []):
        if live:
            continue
        try:
            gone += seat_offline_if_gone(room_id=room_id, player_id=player_id)
        except Exception:
            log.exception("presence sweep: room %s player %s failed", room_id, player_id)
    return gone
