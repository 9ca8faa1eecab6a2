"""Blocking work from async code (consumers, a seat's action off the held table, the
per-process hand states, the presence entries)."""

import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async

_PRESENCE = ThreadPoolExecutor(max_workers=1, thread_name_prefix="presence")


@functools.cache  # module-level functions only: one wrapper each, not one per call
def db(function):
    """Run a blocking database function off the event loop, on any pool thread.

    Not thread-sensitive: each service is one transaction with the room row locked, so
    rooms need not queue behind each other on a single thread.
    """
    return database_sync_to_async(function, thread_sensitive=False)


@functools.cache  # as `db`: one wrapper each
def presence_thread(function):
    """Run a blocking Redis call of `rooms.presence` off the event loop, on a thread of
    its own, never queued behind the database work of `db`'s threads. On those, when every
    table was dealt at once (`bench/bench_capacity.py`, 300 tables), the heartbeat's
    renewals waited some 20 s and sockets' entries ran out: the presence sweep took live
    seats offline, and each seat's socket marked it online again, a broadcast each way."""
    @functools.wraps(function)
    async def call(*args, **kwargs):
        return await asyncio.get_running_loop().run_in_executor(_PRESENCE, functools.partial(function, *args, **kwargs))
    return call
