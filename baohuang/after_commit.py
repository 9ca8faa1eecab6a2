"""Work that waits for a write to commit: broadcasts, timers, counters, held tables.

Django's `transaction.on_commit` runs it after the transaction under way commits, at once
outside one. A move written from an event loop (`rooms.services.hands.ahand_act`) is
already committed when its follow-up runs, on a connection Django does not know, and
`on_commit` may not run there (it asks the loop's thread's Django connection whether it
is in a transaction, which may not be done on an event loop). Inside `committed()` the
work runs at once instead, and work that may block on the process's outbox thread
(`baohuang.outbox`).
"""

import logging
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import transaction

from baohuang import outbox

log = logging.getLogger(__name__)

_committed = ContextVar("committed", default=False)


def after_commit(function, *, blocking: bool = False) -> None:
    """Run `function` once the write under way has committed; an error is logged, never
    raised (the write stands; Django's `robust` callbacks). `blocking`: it may wait on the
    network (queueing a Celery task), so inside `committed()` it runs on the outbox thread,
    and the loop does not wait for it."""
    if not _committed.get():
        transaction.on_commit(function, robust=True)
    elif blocking:
        outbox.run(function)
    else:
        _logged(function)


def _logged(function) -> None:
    try:
        function()
    except Exception:
        log.exception("after commit: %r failed", function)


@contextmanager
def committed():
    """The caller's write has committed: `after_commit` runs its work at once."""
    token = _committed.set(True)
    try:
        yield
    finally:
        _committed.reset(token)
