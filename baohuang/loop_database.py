"""PostgreSQL from an event loop: a few connections per loop, each sending a transaction's
prepared statements in one round trip.

A player's move on the table its process holds is one round trip
(`rooms.services.moves.astore_move`). Sent from a database thread, that round trip makes
the thread wait for the GIL, which a busy event loop holds for a switch interval at a
time: after the hop to the thread, after PostgreSQL's reply and after the hop back
(docs/architecture.md, "What one move costs"). Sent from the loop it waits for nothing:
the loop serves other sockets meanwhile.

`run(statements)` sends its statements in libpq's pipeline mode with one sync at the end,
which PostgreSQL runs as one transaction, each statement seeing what committed before it
starts. Each statement is prepared once per connection and planned once (a generic
plan): planning the fenced statements was most of PostgreSQL's CPU per move. The round
trip is made on psycopg's libpq wrapper (`psycopg.pq`) with one wait on the socket:
psycopg's own pipeline waits on the loop once per statement, which cost the server more
CPU than the statements' parameters and JSON. What the caller can do before the reply
(`meanwhile`) runs while PostgreSQL works.

Each event loop opens up to `SIZE` connections of its own to Django's database `default`
as it needs them and keeps them open. They must reach PostgreSQL itself, or a pooler that
keeps prepared statements (Django's own connections prepare nothing). Why not
psycopg_pool's asynchronous pool: it runs tasks on its loop and can be closed only there,
while a test's loop ends with the test; these connections close without their loop
(`close_all`, or once their loop is found closed).
"""

import asyncio
import datetime as dt
import itertools
import logging
import threading

import psycopg
from django.conf import settings
from django.db import connections
from psycopg import pq

log = logging.getLogger(__name__)

SIZE = 6  # connections per event loop (README, "Sizing")
_NAMES = itertools.count()  # prepared statements' names, never used twice in a process


def usable() -> bool:
    """Whether the database is PostgreSQL (SQLite's driver has no asynchronous connection).
    Read from the settings: `connections` costs a lookup in a context-local on every use."""
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


async def run(statements: list[tuple[str, list]], meanwhile=None) -> list[int]:
    """Run `statements` — `(sql, parameters)`, `%s` placeholders, each parameter's type
    clear from its place in the SQL or cast there (a parameter is sent as text of no
    type) — as one transaction in one round trip, on one of this loop's connections.
    `meanwhile()`, if given, is called once they are sent, while PostgreSQL runs them
    (an error of its own is logged, never raised).
    Returns each statement's row count. A statement's error is raised as psycopg's error
    of its SQLSTATE (`psycopg.IntegrityError` for a unique violation) and nothing is
    written; a connection broken or left waiting (a lost server, a cancelled task) is
    closed, not kept (`psycopg.OperationalError`)."""
    mine = _of_this_loop()
    async with mine.slots:
        connection = mine.idle.pop() if mine.idle else await _Connection.open()
        try:
            counts = await connection.run(statements, meanwhile)
        except psycopg.DatabaseError as error:
            if not connection.reusable():
                connection.close()
                raise psycopg.OperationalError(str(error)) from error
            mine.idle.append(connection)
            raise
        except BaseException:
            connection.close()
            raise
        mine.idle.append(connection)
        return counts


class _Connection:
    """A connection (psycopg's, which connects it) used through libpq, and the statements
    it has prepared."""

    def __init__(self, connection: psycopg.AsyncConnection):
        self.connection = connection  # kept, or psycopg would warn that it was dropped open
        self.pgconn = connection.pgconn
        self.prepared: dict[str, bytes] = {}  # SQL → its name on this connection

    @classmethod
    async def open(cls) -> "_Connection":
        connection = await psycopg.AsyncConnection.connect(**_parameters())
        # Plan each statement once, not on every execution: left to choose, PostgreSQL kept
        # planning the fenced INSERT anew each time (0.26 ms of its 0.34 ms, PostgreSQL's
        # log). The statements look rows up by primary key, which the plan made once does;
        # PostgreSQL makes it again when the tables' statistics change.
        await connection.execute("SET plan_cache_mode = force_generic_plan")
        return cls(connection)  # nonblocking, as psycopg leaves an asynchronous one

    def reusable(self) -> bool:
        """Open, out of pipeline mode and in no transaction."""
        return (self.pgconn.status == pq.ConnStatus.OK and self.pgconn.pipeline_status == pq.PipelineStatus.OFF
                and self.pgconn.transaction_status == pq.TransactionStatus.IDLE)

    def close(self) -> None:
        self.pgconn.finish()  # no loop needed

    async def run(self, statements: list[tuple[str, list]], meanwhile=None) -> list[int]:
        pgconn = self.pgconn
        fresh = []  # statements prepared in this round trip: forgotten if it fails
        executed = []  # per result expected: whether it is an execution's (else a preparation's)
        pgconn.enter_pipeline_mode()
        try:
            for sql, parameters in statements:
                name = self.prepared.get(sql)
                if name is None:
                    name = self.prepared[sql] = b"bh%d" % next(_NAMES)
                    fresh.append(sql)
                    pgconn.send_prepare(name, _numbered(sql))
                    executed.append(False)
                pgconn.send_query_prepared(name, [_text(value) for value in parameters])
                executed.append(True)
            pgconn.pipeline_sync()
            results = await self._results(meanwhile)
            pgconn.exit_pipeline_mode()
            for result in results:
                if result.status == pq.ExecStatus.FATAL_ERROR:
                    raise _error(result)
            if len(results) != len(executed):
                raise psycopg.OperationalError(f"{len(results)} results for {len(executed)} commands")
        except BaseException:
            for sql in fresh:
                del self.prepared[sql]
            raise
        return [result.command_tuples or 0 for result, execution in zip(results, executed) if execution]

    async def _results(self, meanwhile=None) -> list:
        """Everything up to the pipeline's sync, sent and then read, with one wait on the
        socket for each time it was not ready; `meanwhile()` runs between the two."""
        pgconn = self.pgconn
        while pgconn.flush():  # 1: more to send once the socket takes it
            await _ready(pgconn.socket, write=True)
        if meanwhile is not None:
            try:
                meanwhile()
            except Exception:  # the statements' outcome is what counts
                log.exception("work while the statements ran failed")
        results = []
        while True:
            pgconn.consume_input()
            gap = False  # libpq returns one None after each command's results
            while not pgconn.is_busy():
                result = pgconn.get_result()
                if result is None:
                    if gap:
                        break
                    gap = True
                    continue
                gap = False
                if result.status == pq.ExecStatus.PIPELINE_SYNC:
                    return results
                results.append(result)
            await _ready(pgconn.socket)


async def _ready(socket: int, *, write: bool = False) -> None:
    loop = asyncio.get_running_loop()
    ready = loop.create_future()
    watch, unwatch = (loop.add_writer, loop.remove_writer) if write else (loop.add_reader, loop.remove_reader)
    watch(socket, lambda: ready.done() or ready.set_result(None))
    try:
        await ready
    finally:
        unwatch(socket)


def _numbered(sql: str) -> bytes:
    """`%s` placeholders as PostgreSQL's `$1`, `$2`, …"""
    parts = sql.split("%s")
    return "".join(part + (f"${number}" if number < len(parts) else "")
                   for number, part in enumerate(parts, start=1)).encode()


def _text(value) -> bytes | None:
    """A parameter in PostgreSQL's text format."""
    if value is None:
        return None
    if isinstance(value, bool):
        return b"t" if value else b"f"
    if isinstance(value, (int, str)):
        return str(value).encode()
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return value.isoformat().encode()
    raise TypeError(f"no text format for {type(value).__name__}")


def _error(result) -> psycopg.Error:
    state = (result.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode()
    message = result.get_error_message()
    try:
        return psycopg.errors.lookup(state)(message)
    except KeyError:
        return psycopg.DatabaseError(message)


class _Connections:
    """One loop's idle connections, and a slot for each connection it may have."""

    def __init__(self):
        self.idle: list[_Connection] = []
        self.slots = asyncio.Semaphore(SIZE)

    def close(self) -> None:
        for connection in self.idle:
            connection.close()
        self.idle.clear()


_LOOPS: dict[asyncio.AbstractEventLoop, _Connections] = {}
_LOOPS_LOCK = threading.Lock()


def _of_this_loop() -> _Connections:
    loop = asyncio.get_running_loop()
    with _LOOPS_LOCK:
        mine = _LOOPS.get(loop)
        if mine is None:  # a new loop: the finished ones (a test's) are let go first
            for gone in [each for each in _LOOPS if each.is_closed()]:
                _LOOPS.pop(gone).close()
            mine = _LOOPS[loop] = _Connections()
        return mine


def _parameters() -> dict:
    """Django's parameters for a new connection to `default`, made asynchronous."""
    parameters = connections["default"].get_connection_params()
    for unused in ("context", "cursor_factory", "prepare_threshold"):  # psycopg's: this module uses libpq alone
        parameters.pop(unused, None)
    return {**parameters, "autocommit": True}


def close_all() -> None:
    """Close every loop's idle connections (a test's end: the test database is dropped later)."""
    with _LOOPS_LOCK:
        for mine in _LOOPS.values():
            mine.close()
        _LOOPS.clear()
