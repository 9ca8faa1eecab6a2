"""Quick start (快速开始): one tap from the lobby to a game.

- `quick_bots` — 和机器人打一局: a new room with the player and four bots (普通 normal, or
  the level chosen), dealt at once.
- `quick_match` — 找人打: a seat at the open table of that preset where the most people are
  already waiting, or a new table of its own, which the lobby then lists first.

Services over `rooms.services`.
"""

import zlib

from django.db import connection, transaction
from django.db.models import Count, Q

from baohuang.errors import ServiceError
from rooms.levels import DEFAULT_BOT_LEVEL
from rooms.models import SEATS, Hand, Player, Room
from rooms.services import room_create, seat_add_bot, seat_ready, seat_take

CANDIDATES = 10  # waiting tables tried, fullest first, before opening a new one
MATCH_LOCK = 0x6268  # advisory-lock namespace of 找人打 (PostgreSQL), with the preset as key


@transaction.atomic
def quick_bots(*, player: Player, preset: str, name: str, level: str = DEFAULT_BOT_LEVEL) -> Hand:
    """A room of `preset` with `player` in seat 0 and bots of ``level`` in the other four;
    the hand is dealt (the one tap is the player's 准备: bots always are ready)."""
    room = room_create(creator=player, name=name, preset=preset)
    seat_take(room_id=room.pk, player=player, index=0)
    for _ in range(SEATS - 1):
        seat_add_bot(room_id=room.pk, by=player, level=level)
    return seat_ready(room_id=room.pk, player=player)


def _waiting_tables(preset: str):
    """Open rooms of `preset` with a free seat and at least one person, most people first."""
    return (Room.objects.filter(status=Room.Status.OPEN, preset=preset)
            .annotate(people=Count("seats", filter=Q(seats__player__isnull=False, seats__player__is_bot=False)),
                      taken=Count("seats", filter=Q(seats__player__isnull=False)))
            .filter(people__gt=0, taken__lt=SEATS)
            .order_by("-people", "created"))


@transaction.atomic
def quick_match(*, player: Player, preset: str, name: str) -> Room:
    """Seat `player` at the waiting table of `preset` with the most people, or open a new one.

    A player already waiting at such a table goes back to it. A table that filled up or
    started between the look and the seat is skipped (seat_take refuses and rolls back).
    Players looking for the same preset look one after the other (an advisory lock on
    PostgreSQL; SQLite writes one transaction at a time anyway), so two at once share a table.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [MATCH_LOCK, zlib.crc32(preset.encode()) - 2**31])
    mine = _waiting_tables(preset).filter(seats__player=player).first()
    if mine is not None:
        return mine
    for room in _waiting_tables(preset)[:CANDIDATES]:
        try:
            seat_take(room_id=room.pk, player=player)
        except ServiceError:
            continue
        return room
    room = room_create(creator=player, name=name, preset=preset)
    seat_take(room_id=room.pk, player=player)
    return room
