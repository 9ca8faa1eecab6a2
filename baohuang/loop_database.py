"""PostgreSQL from an event loop: a few psycopg asynchronous connections per loop.

A player's move on the table its process holds is one statement string
(`rooms.services.moves.astore_move`). Sent from a database thread, that round trip makes
the thread wait for the GIL, which a busy event loop holds for a switch interval at a
time: after the hop to the thread, after PostgreSQL's reply and after the hop back
(docs/architecture.md, "What one move costs"). Sent from the loop with psycopg's
asynchronous connection it waits for nothing: the loop serves other sockets meanwhile.

Each event loop opens up to `SIZE` connections of its own to Django's database `default`
as it needs them and keeps them open, in autocommit (a statement string is one
transaction) with client-side binding (several statements in one round trip), as Django's
own connections are. Why not psycopg_pool's asynchronous pool: it runs tasks on its loop
and can be closed only there, while a test's loop ends with the test; these connections
close without their loop (`close_all`, or once their loop is found closed).
"""

import asyncio
import threading
from contextlib import asynccontextmanager

import psycopg
from django.conf import settings
from django.db import connections

SIZE = 6  # connections per event loop (README, "Sizing")


def usable() -> bool:
    """Whether the database is PostgreSQL (SQLite's driver has no asynchronous connection).
    Read from the settings: `connections` costs a lookup in a context-local on every use."""
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


class _Connections:
    """One loop's idle connections, and a slot for each connection it may have."""

    def __init__(self):
        self.idle: list[psycopg.AsyncConnection] = []
        self.slots = asyncio.Semaphore(SIZE)

    def close(self) -> None:
        for connection in self.idle:
            connection.pgconn.finish()  # no loop needed, unlike `await connection.close()`
        self.idle.clear()


_LOOPS: dict[asyncio.AbstractEventLoop, _Connections] = {}
_LOOPS_LOCK = threading.Lock()


def _of_this_loop() -> _Connections:
    loop = asyncio.get_running_loop()
    with _LOOPS_LOCK:
        for gone in [each for each in _LOOPS if each.is_closed()]:
            _LOOPS.pop(gone).close()  # a test's finished loop
        mine = _LOOPS.get(loop)
        if mine is None:
            mine = _LOOPS[loop] = _Connections()
        return mine


def _parameters() -> dict:
    """Django's parameters for a new connection to `default`, made asynchronous."""
    parameters = connections["default"].get_connection_params()
    parameters.pop("context", None)  # Django's loaders: these connections read no rows of its types
    parameters.pop("prepare_threshold", None)  # Django's None turns prepared statements off, even asked for
    return {**parameters, "autocommit": True, "cursor_factory": psycopg.AsyncCursor}


@asynccontextmanager
async def pipeline():
    """One of this loop's connections in pipeline mode, the caller's alone until it exits;
    what the caller executed is sent, with one sync, when it exits. A connection left
    mid-transaction or broken by an error is closed, not kept."""
    mine = _of_this_loop()
    async with mine.slots:
        connection = mine.idle.pop() if mine.idle else await psycopg.AsyncConnection.connect(**_parameters())
        try:
            async with connection.pipeline():
                yield connection
        finally:
            if connection.closed or connection.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                await connection.close()
            else:
                mine.idle.append(connection)


def close_all() -> None:
    """Close every loop's idle connections (a test's end: the test database is dropped later)."""
    with _LOOPS_LOCK:
        for mine in _LOOPS.values():
            mine.close()
        _LOOPS.clear()
