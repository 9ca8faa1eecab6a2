"""Blocking database work from async code (consumers, a seat's action off the held table, the
per-process hand states)."""

from functools import cache

from channels.db import database_sync_to_async


@cache  # module-level functions only: one wrapper each, not one per call
def db(function):
    """Run a blocking database function off the event loop, on any pool thread.

    Not thread-sensitive: each service is one transaction with the room row locked, so
    rooms need not queue behind each other on a single thread.
    """
    return database_sync_to_async(function, thread_sensitive=False)
