"""The table as this process's last write of a hand left it, so the next move under the
room lock need not read it back.

Every move takes the room lock (`lock_table_of_hand`). That locking statement also reads
the few columns that say whether anything changed since this process last wrote the
hand — its version, phase, end and timer, the room's status and last save, each seat's
player, 托管 flags and leaving — the *token*. When they equal the token of the objects
held here, those objects are the rows as stored (the engine state changes only with the
version), so the move uses them; otherwise, or when nothing is held (another process or
a Celery worker wrote last, or after a restart), it reads the rows. Nothing here can be
wrong, only missing: the token is read under the lock, after every other writer.

Objects go in only after commit (`keep_after_commit`) and are taken out while a
transaction uses them (`take`), so no two threads share them and a rolled-back write
leaves nothing behind. The hand held is a copy: the service returns the writer's own
hand to its caller (the dealt hand, `HandChange.hand`), which the next move, on another
thread, must not change under it.
"""

import copy
import datetime as dt
import threading
from collections import OrderedDict
from functools import cache

from django.db import connection, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from rooms.models import Hand, Room, Seat

KEEP = 2000  # hands held: a little more than the tables one process serves


def _columns(model, *names) -> list[str]:
    return [connection.ops.quote_name(model._meta.get_field(name).column) for name in names]


@cache
def _token_sql(vendor: str) -> str:
    """The locking read of `locked_token`, in `vendor`'s SQL."""
    seat = _columns(Seat, "index", "player", "trustee", "trustee_entries", "left")
    hand = _columns(Hand, "version", "phase", "ended", "timer_at")
    room = _columns(Room, "status", "updated")
    q = connection.ops.quote_name
    lock = connection.ops.for_update_sql(of=(q("r"), q("h"))) if connection.features.has_select_for_update else ""
    return (
        f"SELECT {', '.join('h.' + name for name in hand)}, {', '.join('r.' + name for name in room)}, "
        f"{', '.join('s.' + name for name in seat)} "
        f"FROM {q(Hand._meta.db_table)} h JOIN {q(Room._meta.db_table)} r ON r.{q('id')} = h.{q('room_id')} "
        f"JOIN {q(Seat._meta.db_table)} s ON s.{q('room_id')} = r.{q('id')} "
        f"WHERE h.{q('id')} = %s ORDER BY s.{seat[0]} {lock}"
    )


def locked_token(hand_id: int) -> tuple | None:
    """Lock the hand's room and the hand (FOR UPDATE OF both rows on PostgreSQL; SQLite's
    transactions already hold its write lock) and read the token; None when there is no
    such hand."""
    with connection.cursor() as cursor:
        cursor.execute(_token_sql(connection.vendor), [hand_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    version, phase, ended, timer_at, status, updated = rows[0][:6]
    seats = tuple((index, player, bool(trustee), entries, bool(left)) for *_, index, player, trustee, entries, left
                  in rows)
    return version, phase, ended is None, _moment(timer_at), status, _moment(updated), seats


def token_of(room: Room, hand: Hand, seats: list[Seat]) -> tuple:
    """The token of held objects."""
    return (hand.version, hand.phase, hand.ended is None, _moment(hand.timer_at), room.status, _moment(room.updated),
            tuple((seat.index, seat.player_id, seat.trustee, seat.trustee_entries, seat.left) for seat in seats))


def _moment(value):
    """A datetime as an aware one (SQLite's driver returns naive UTC, or the stored text)."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value, dt.timezone.utc)
    return value


class HeldTables:
    """`(room, hand, seats)` of recent hands this process wrote, by hand id."""

    def __init__(self):
        self._lock = threading.Lock()
        self._tables: OrderedDict[int, tuple[Room, Hand, list[Seat]]] = OrderedDict()

    def take(self, hand_id: int, token: tuple) -> tuple[Room, Hand, list[Seat]] | None:
        """The held objects if their token is `token` (they leave the cache either way)."""
        with self._lock:
            held = self._tables.pop(hand_id, None)
        if held is None or token_of(*held) != token:
            return None
        return held

    def keep_after_commit(self, room: Room, hand: Hand, seats: list[Seat]) -> None:
        """Hold the objects once the transaction that wrote them commits (a running hand only)."""
        def keep():
            if not hand.running:
                return
            with self._lock:
                self._tables[hand.pk] = (room, copy.copy(hand), seats)
                self._tables.move_to_end(hand.pk)
                while len(self._tables) > KEEP:
                    self._tables.popitem(last=False)

        transaction.on_commit(keep)

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()


HELD = HeldTables()
