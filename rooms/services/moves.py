"""A move's two writes as hand-written statements: append its `HandEvent`, store the hand.

These are the only statements a move makes besides the locking read
(`rooms.services.held.locked_token`) — or the only ones at all, fenced by the token, on
the table this process holds. Through the ORM (`objects.create`, `save`) they cost more
CPU than the rest of storing the move — building the queries, preparing every field, JSON
through the standard library — so they are written here once, as plain parameterised SQL
that runs the same on PostgreSQL and SQLite, with the JSON encoded by orjson
(`rooms.fields.as_text`). The rows are the ORM's own: the models still read them, and the
unique constraints on `(hand, version)` and `(hand, seat, client_id)` fence them as before.
"""

from functools import cache

from django.db import connection, transaction
from django.utils import timezone

from baohuang import loop_database
from rooms.fields import as_text
from rooms.models import Hand, HandEvent
from rooms.services.held import fence_params, fence_sql, lock_sql


@cache
def _statement(vendor: str, model, verb: str, names: tuple[str, ...]) -> str:
    q = connection.ops.quote_name
    fields = [model._meta.get_field(name) for name in names]
    table = q(model._meta.db_table)
    if verb == "insert":
        return (f"INSERT INTO {table} ({', '.join(q(field.column) for field in fields)}) "
                f"VALUES ({', '.join(['%s'] * len(fields))})")
    return f"UPDATE {table} SET {', '.join(q(field.column) + ' = %s' for field in fields)} WHERE {q('id')} = %s"


@cache
def _fenced(vendor: str, seats: tuple[int, ...]) -> tuple[str, str]:
    """The two writes of a move fenced by a token (`held.fence_sql`): the INSERT happens
    only if the stored table has the token, the UPDATE only if the hand is still at the
    version it had (its last parameter but two) and the INSERT stored the event."""
    q = connection.ops.quote_name
    fields = [HandEvent._meta.get_field(name) for name in EVENT_FIELDS]
    # PostgreSQL types a SELECT's parameters of no type as text, where VALUES gives them the
    # column's type: on PostgreSQL each is cast to its column's (the event loop sends them as
    # text of no type: `loop_database.run`).
    values = [f"CAST(%s AS {field.db_type(connection)})" if vendor == "postgresql" else "%s" for field in fields]
    insert = (f"INSERT INTO {q(HandEvent._meta.db_table)} ({', '.join(q(field.column) for field in fields)}) "
              f"SELECT {', '.join(values)} WHERE {fence_sql(vendor, seats)}")
    update = (f"{_statement(vendor, Hand, 'update', HAND_FIELDS)} AND {q('version')} = %s AND EXISTS "
              f"(SELECT 1 FROM {q(HandEvent._meta.db_table)} WHERE {q('hand_id')} = %s AND {q('version')} = %s)")
    return insert, update


EVENT_FIELDS = ("hand", "version", "seat", "action", "event", "public", "client_id", "by_trustee", "created")
HAND_FIELDS = ("state", "version", "phase", "deadline", "timer_at")


def _as_is(value):
    """PostgreSQL's adapter of datetimes (Django's `adapt_datetimefield_value` there returns
    them as they are), without looking `connection` up: each use of it is a lookup in a
    context-local (on an event loop, the move's parameters took 13.6 µs with two lookups,
    7.9 µs without)."""
    return value


def _values(hand: Hand, seat: int, action: dict, event: dict, public, client_id, by_trustee: bool,
            moment) -> tuple[list, list]:
    """The parameters of the event's INSERT and of the hand's UPDATE, datetimes through
    `moment` (the database's adapter)."""
    event_values = [hand.pk, hand.version, seat, as_text(action), as_text(event), as_text(public), client_id,
                    by_trustee, moment(timezone.now())]
    hand_values = [as_text(hand.state), hand.version, hand.phase, moment(hand.deadline), moment(hand.timer_at), hand.pk]
    return event_values, hand_values


def _fenced_values(hand: Hand, fence: tuple, moment, event_values: list, hand_values: list) -> tuple[list, list]:
    return event_values + fence_params(hand.pk, fence, moment), hand_values + [fence[0], hand.pk, hand.version]


def _fenced_statements(hand: Hand, fence: tuple, values: tuple[list, list]) -> list[tuple[str, list]]:
    """PostgreSQL's statements of a fenced move, with their parameters (`values` by
    `_values` with `_as_is`): the lock, the INSERT, the UPDATE."""
    insert, update = _fenced("postgresql", tuple(seat[0] for seat in fence[-1]))
    event_values, hand_values = _fenced_values(hand, fence, _as_is, *values)
    return [(lock_sql("postgresql"), [hand.pk]), (insert, event_values), (update, hand_values)]


def _fenced_string(hand: Hand, fence: tuple, values: tuple[list, list]) -> tuple[str, list]:
    """The same statements as one query string (a database thread's; client-side binding)."""
    statements = _fenced_statements(hand, fence, values)
    return "; ".join(sql for sql, _ in statements), [value for _, parameters in statements for value in parameters]


def store_move(*, hand: Hand, seat: int, action: dict, event: dict, public, client_id, by_trustee: bool,
               fence: tuple | None = None) -> bool:
    """INSERT the move's `HandEvent` at `hand.version`, and UPDATE the hand's state,
    version, phase, deadline and timer from `hand` (an IntegrityError when the version or
    client_id is taken). Returns whether they were written.

    The caller holds the room lock, or gives `fence`: the token (`held.token_of`) of the
    table it applied the move to. Then the writes happen only if the stored table still
    has that token, and the caller needs no lock nor transaction of its own: this locks
    the room and the hand (as every writer does first), then writes if the token holds.

    On PostgreSQL the statements go in one query string: one round trip, which PostgreSQL
    runs as one transaction, each statement seeing what committed before it (so the token
    is compared after the lock, with every earlier writer's work in sight), none of it if
    one fails. (That takes Django's client-side binding, its default with psycopg.)
    SQLite's driver runs one statement a call; its transaction holds its write lock."""
    vendor = connection.vendor
    moment = _as_is if vendor == "postgresql" else connection.ops.adapt_datetimefield_value
    values = _values(hand, seat, action, event, public, client_id, by_trustee, moment)
    if fence is None:
        insert = _statement(vendor, HandEvent, "insert", EVENT_FIELDS)
        update = _statement(vendor, Hand, "update", HAND_FIELDS)
        with connection.cursor() as cursor:
            if vendor == "postgresql":
                cursor.execute(f"{insert}; {update}", values[0] + values[1])
            else:
                cursor.execute(insert, values[0])
                cursor.execute(update, values[1])
        return True
    if vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(*_fenced_string(hand, fence, values))
            cursor.nextset()
            cursor.nextset()  # the UPDATE's result
            return cursor.rowcount == 1
    insert, update = _fenced(vendor, tuple(seat[0] for seat in fence[-1]))
    event_values, hand_values = _fenced_values(hand, fence, moment, *values)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(insert, event_values)
        if cursor.rowcount != 1:
            return False
        cursor.execute(update, hand_values)
        return cursor.rowcount == 1


async def astore_move(*, hand: Hand, seat: int, action: dict, event: dict, public, client_id, by_trustee: bool,
                      fence: tuple, meanwhile=None) -> bool:
    """`store_move` with `fence`, on PostgreSQL, from the event loop: the same three
    statements, prepared, in one round trip on one of the loop's own connections
    (`baohuang.loop_database.run`, which calls `meanwhile()` while PostgreSQL runs them).
    A psycopg error (not Django's) when the client_id is taken."""
    values = _values(hand, seat, action, event, public, client_id, by_trustee, _as_is)
    *_, updated = await loop_database.run(_fenced_statements(hand, fence, values), meanwhile)
    return updated == 1
