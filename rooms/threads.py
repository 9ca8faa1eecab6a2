"""Blocking database work from async code (consumers, the per-process hand states)."""

import functools
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.conf import settings


@functools.cache
def _threads() -> ThreadPoolExecutor:
    """`DB_POOL_MAX` threads: as many calls at once as the process has connections
    (asyncio's default executor has only the CPU count + 4, six on two cores, and moves
    of different rooms queued for a thread while connections sat idle)."""
    return ThreadPoolExecutor(max_workers=settings.DB_POOL_MAX, thread_name_prefix="db")


def db(function):
    """Run a blocking database function off the event loop, on any pool thread.

    Not thread-sensitive: each service is one transaction with the room row locked, so
    rooms need not queue behind each other on a single thread.
    """
    return database_sync_to_async(function, thread_sensitive=False, executor=_threads())
