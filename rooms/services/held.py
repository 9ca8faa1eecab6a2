"""The table as this process's last write of a hand left it, so the next move need not
read it back.

A few columns say whether anything changed since this process last wrote the hand —
its version, phase, end and timer, the room's status and last save, each seat's player,
托管 flags and leaving — the *token*. When the stored ones equal the token of the objects
held here, those objects are the rows as stored (the engine state changes only with the
version). Two ways use that:

- a player's move takes the held objects as they are and fences its writes with their
  token (`fence_sql`, in `rooms.services.moves.store_move`, or `astore_move` from an event
  loop): the writes happen only if the stored token is still theirs, in one round trip,
  with no transaction of ours;
- every other write, and a move whose fence failed, takes the room lock
  (`lock_table_of_hand`), whose locking statement reads the token (`locked_token`): the
  held objects are used if it matches, else the rows are read.

Nothing here can be wrong, only missing or stale, and a stale table is never written
from: the token is compared under the lock, after every other writer.

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

from django.db import connection
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from baohuang.after_commit import after_commit
from rooms.models import Hand, Room, Seat

KEEP = 2000  # hands held: a little more than the tables one process serves


def _columns(model, *names) -> list[str]:
    return [connection.ops.quote_name(model._meta.get_field(name).column) for name in names]


# The token's columns, in its order (`token_of`).
HAND_COLUMNS = ("version", "phase", "ended", "timer_at")
ROOM_COLUMNS = ("status", "updated")
SEAT_COLUMNS = ("index", "player", "trustee", "trustee_entries", "left")


def _hand_and_room(join: str = "") -> str:
    """`FROM` the hand `h` (its id the first parameter) and its room `r`, and `join`."""
    q = connection.ops.quote_name
    return (f"FROM {q(Hand._meta.db_table)} h JOIN {q(Room._meta.db_table)} r ON r.{q('id')} = h.{q('room_id')} "
            f"{join} WHERE h.{q('id')} = %s")


def _lock() -> str:
    """FOR UPDATE of the room and the hand (PostgreSQL's; SQLite's transactions already hold its write lock)."""
    q = connection.ops.quote_name
    return connection.ops.for_update_sql(of=(q("r"), q("h"))) if connection.features.has_select_for_update else ""


@cache
def _token_sql(vendor: str) -> str:
    """The locking read of `locked_token`, in `vendor`'s SQL."""
    q = connection.ops.quote_name
    seat = _columns(Seat, *SEAT_COLUMNS)
    columns = ([f"h.{name}" for name in _columns(Hand, *HAND_COLUMNS)]
               + [f"r.{name}" for name in _columns(Room, *ROOM_COLUMNS)] + [f"s.{name}" for name in seat])
    seats = f"JOIN {q(Seat._meta.db_table)} s ON s.{q('room_id')} = r.{q('id')}"
    return f"SELECT {', '.join(columns)} {_hand_and_room(seats)} ORDER BY s.{seat[0]} {_lock()}"


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


@cache
def lock_sql(vendor: str) -> str:
    """Lock hand `%s`'s room and the hand as `locked_token` does, reading nothing."""
    return f"SELECT 1 {_hand_and_room()} {_lock()}"


@cache
def fence_sql(vendor: str, seats: tuple[int, ...]) -> str:
    """A condition, true when hand `%s`, its room and its seats (numbered `seats`) have
    the token the parameters that follow give (`fence_params`). The seat numbers and
    counts are written into the SQL, to keep it under psycopg's 50 parameters of a query
    it parses once."""
    q = connection.ops.quote_name
    version, phase, ended, timer_at = _columns(Hand, *HAND_COLUMNS)
    status, updated = _columns(Room, *ROOM_COLUMNS)
    index, player, trustee, entries, left = _columns(Seat, *SEAT_COLUMNS)
    each = [f"(s.{index} = {number:d} AND s.{player} IS NOT DISTINCT FROM %s AND s.{trustee} = %s "
            f"AND s.{entries} = %s AND s.{left} = %s)" for number in seats]
    of_room = f"FROM {q(Seat._meta.db_table)} s WHERE s.{q('room_id')} = r.{q('id')}"
    return (f"EXISTS (SELECT 1 {_hand_and_room()} AND h.{version} = %s AND h.{phase} = %s "
            f"AND (h.{ended} IS NULL) = %s AND h.{timer_at} IS NOT DISTINCT FROM %s AND r.{status} = %s "
            f"AND r.{updated} IS NOT DISTINCT FROM %s AND (SELECT count(*) {of_room}) = {len(seats):d} "
            f"AND (SELECT count(*) {of_room} AND ({' OR '.join(each)})) = {len(seats):d})")


def fence_params(hand_id: int, token: tuple, moment) -> list:
    """The parameters of `fence_sql` for `token` (`token_of`), datetimes through `moment`
    (the database's adapter)."""
    version, phase, running, timer_at, status, updated, seats = token
    return [hand_id, version, phase, running, moment(timer_at), status, moment(updated),
            *(value for seat in seats for value in seat[1:])]


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

    def take(self, hand_id: int, token: tuple | None = None) -> tuple[Room, Hand, list[Seat]] | None:
        """The held objects if their token is `token`, or whatever it is when no token is
        given (the caller then fences its writes with it); they leave the cache either way."""
        with self._lock:
            held = self._tables.pop(hand_id, None)
        if held is None or (token is not None and token_of(*held) != token):
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

        after_commit(keep)

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()


HELD = HeldTables()
