"""`baohuang.loop_database`: a transaction's prepared statements in one round trip from an
event loop, on PostgreSQL (the text format of parameters is checked everywhere)."""

import datetime as dt

import psycopg
import pytest
from django.db import connection

from baohuang import loop_database
from tests.live import anyio_backend, db, isolated_prefix, no_lingering_connections  # noqa: F401


def on_postgresql(test):
    """A test on an event loop against the test database, on PostgreSQL only."""
    for mark in (pytest.mark.skipif("connection.vendor != 'postgresql'",
                                    reason="SQLite's driver has no asynchronous connection"),
                 pytest.mark.anyio, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("isolated_prefix")):
        test = mark(test)
    return test


def test_placeholders_are_numbered_in_order():
    assert loop_database._numbered("SELECT %s, %s WHERE x = %s") == b"SELECT $1, $2 WHERE x = $3"
    assert loop_database._numbered("SELECT 1") == b"SELECT 1"


def test_parameters_in_postgresql_text_format():
    moment = dt.datetime(2026, 12, 5, 9, 30, 1, 250, tzinfo=dt.timezone.utc)
    assert [loop_database._text(value) for value in (None, True, False, 42, "表 'x'", moment)] == [
        None, b"t", b"f", b"42", "表 'x'".encode(), b"2026-12-05T09:30:01.000250+00:00"]
    with pytest.raises(TypeError):
        loop_database._text(dt.datetime(2026, 12, 5))  # a naive moment has no one meaning
    with pytest.raises(TypeError):
        loop_database._text(1.5)


def make_table():
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS loop_db_probe")
        cursor.execute("CREATE TABLE loop_db_probe (id integer PRIMARY KEY, note text, at timestamptz, on_ boolean)")


def rows():
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, note, at, on_ FROM loop_db_probe ORDER BY id")
        return cursor.fetchall()


INSERT = "INSERT INTO loop_db_probe (id, note, at, on_) VALUES (%s, %s, %s, %s)"
UPDATE = "UPDATE loop_db_probe SET note = %s WHERE id >= %s"


@on_postgresql
async def test_statements_run_as_one_transaction_and_are_prepared_once():
    await db(make_table)()
    moment = dt.datetime(2026, 12, 5, 9, 30, tzinfo=dt.timezone.utc)
    counts = await loop_database.run([(INSERT, [1, "a", moment, True]), (INSERT, [2, None, None, False]),
                                      (UPDATE, ["b", 2])])
    assert counts == [1, 1, 1]
    assert await db(rows)() == [(1, "a", moment, True), (2, "b", None, False)]
    (idle,) = loop_database._of_this_loop().idle
    assert set(idle.prepared) == {INSERT, UPDATE}  # the INSERT prepared once, for both rows
    assert await loop_database.run([(UPDATE, ["c", 1])]) == [2]
    assert loop_database._of_this_loop().idle == [idle]


@on_postgresql
async def test_statements_are_planned_once_not_on_every_run():
    await db(make_table)()
    for number in range(8):  # left to choose, PostgreSQL plans the first five runs anew
        await loop_database.run([(INSERT, [number, "a", None, True]), (UPDATE, ["b", number])])
    (idle,) = loop_database._of_this_loop().idle
    await idle.connection.execute("SELECT 1")  # psycopg's own statements are not prepared
    cursor = await idle.connection.execute("SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements")
    plans = {statement: (generic, custom) for statement, generic, custom in await cursor.fetchall()}
    assert plans == {loop_database._numbered(INSERT).decode(): (8, 0), loop_database._numbered(UPDATE).decode(): (8, 0)}


@on_postgresql
async def test_work_meanwhile_runs_once_the_statements_are_sent_and_its_error_costs_nothing(caplog):
    await db(make_table)()
    calls = []

    def meanwhile():
        calls.append(len(loop_database._of_this_loop().idle))  # the connection is in use
        raise RuntimeError("a frame failed to build")

    assert await loop_database.run([(INSERT, [1, "a", None, True])], meanwhile) == [1]
    assert calls == [0]
    assert await db(rows)() == [(1, "a", None, True)]
    assert "work while the statements ran failed" in caplog.text
    assert len(loop_database._of_this_loop().idle) == 1  # the connection was kept


@on_postgresql
async def test_a_failing_statement_writes_nothing_and_keeps_the_connection():
    await db(make_table)()
    await loop_database.run([(INSERT, [1, "a", None, True])])
    fresh = "UPDATE loop_db_probe SET on_ = %s WHERE id = %s"
    with pytest.raises(psycopg.errors.UniqueViolation):  # an IntegrityError
        await loop_database.run([(fresh, [False, 1]), (INSERT, [1, "again", None, True]), (UPDATE, ["x", 0])])
    assert await db(rows)() == [(1, "a", None, True)]  # the UPDATE before it was rolled back too
    (idle,) = loop_database._of_this_loop().idle  # kept: the failure was the statement's
    assert fresh not in idle.prepared and UPDATE not in idle.prepared  # prepared in the failed round trip
    assert await loop_database.run([(fresh, [False, 1]), (UPDATE, ["y", 0])]) == [1, 1]
    assert await db(rows)() == [(1, "y", None, False)]


@on_postgresql
async def test_a_connection_lost_is_closed_not_kept():
    await db(make_table)()
    await loop_database.run([(INSERT, [1, "a", None, True])])
    (idle,) = loop_database._of_this_loop().idle

    def terminate():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [idle.pgconn.backend_pid])

    await db(terminate)()
    with pytest.raises(psycopg.OperationalError):
        await loop_database.run([(UPDATE, ["b", 0])])
    assert loop_database._of_this_loop().idle == []
    assert await loop_database.run([(UPDATE, ["c", 0])]) == [1]  # on a new connection
    assert await db(rows)() == [(1, "c", None, True)]
