"""A move's two writes as hand-written statements: append its `HandEvent`, store the hand.

These are the only statements every move makes besides the locking read
(`rooms.services.held.locked_token`). Through the ORM (`objects.create`, `save`) they
cost more CPU than the rest of storing the move — building the queries, preparing every
field, JSON through the standard library — so they are written here once, as plain
parameterised SQL that runs the same on PostgreSQL and SQLite, with the JSON encoded by
orjson (`rooms.json_text`). The rows are the ORM's own: the models still read them, and the unique
constraints on `(hand, version)` and `(hand, seat, client_id)` fence them as before.
"""

from functools import cache

from django.db import connection
from django.utils import timezone

from rooms.json_text import dumps
from rooms.models import Hand, HandEvent


def _json(value) -> str | None:
    return None if value is None else dumps(value)


def _moment(value):
    return connection.ops.adapt_datetimefield_value(value)


@cache
def _statement(vendor: str, model, verb: str, names: tuple[str, ...]) -> str:
    q = connection.ops.quote_name
    fields = [model._meta.get_field(name) for name in names]
    table = q(model._meta.db_table)
    if verb == "insert":
        return (f"INSERT INTO {table} ({', '.join(q(field.column) for field in fields)}) "
                f"VALUES ({', '.join(['%s'] * len(fields))})")
    return f"UPDATE {table} SET {', '.join(q(field.column) + ' = %s' for field in fields)} WHERE {q('id')} = %s"


EVENT_FIELDS = ("hand", "version", "seat", "action", "event", "public", "client_id", "by_trustee", "created")
HAND_FIELDS = ("state", "version", "phase", "deadline", "timer_at")


def store_move(*, hand: Hand, seat: int, action: dict, event: dict, public, client_id, by_trustee: bool) -> None:
    """INSERT the move's `HandEvent` at `hand.version`, and UPDATE the hand's state,
    version, phase, deadline and timer from `hand` (an IntegrityError when the version or
    client_id is taken).

    On PostgreSQL both statements go in one query string: one round trip, and PostgreSQL
    runs them as one, the `UPDATE` only if the `INSERT` succeeded. (That takes Django's
    client-side binding, its default with psycopg; SQLite's driver runs one statement a
    call.)"""
    event_values = [hand.pk, hand.version, seat, _json(action), _json(event), _json(public), client_id, by_trustee,
                    _moment(timezone.now())]
    hand_values = [_json(hand.state), hand.version, hand.phase, _moment(hand.deadline), _moment(hand.timer_at),
                   hand.pk]
    insert = _statement(connection.vendor, HandEvent, "insert", EVENT_FIELDS)
    update = _statement(connection.vendor, Hand, "update", HAND_FIELDS)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"{insert}; {update}", event_values + hand_values)
        else:
            cursor.execute(insert, event_values)
            cursor.execute(update, hand_values)
