"""The outbox: work an event loop leaves to a thread once a move has committed — queueing
its Celery messages — run by one thread per process, with the messages sent many in one.

Queueing a Celery message costs about 0.45 ms of Python (kombu: routing, ids, JSON) and a
round trip to Redis, and a thread that queues it takes the GIL from the event loop each
time its socket answers. When the first moves of 1,000 tables opened a timer each (about
500 messages a second), that took the loop's GIL so often that a move's p50 went from
4 ms to 135 ms in `bench/bench_capacity.py`, on the executor's six threads as on one.

So the work is batched. `run(function)` queues it for this process's outbox thread, which
takes whatever is queued `LINGER_SECONDS` after the first, runs it in order, and sends
the Celery messages it queued (`send_task`) at the end of the batch: one alone as itself;
several in one message of `baohuang.send_all`, which a worker splits back into them, each
with the eta and expiry it was given. A worker's clock then counts as it does for any
message with an eta. Outside the outbox thread `send_task` sends at once.
"""

import logging
import queue
import threading
import time
from datetime import UTC, datetime

from celery import current_app

log = logging.getLogger(__name__)

LINGER_SECONDS = 0.05  # a timer or a bot's move is queued this much later, at most
SEND_ALL = "baohuang.send_all"

_local = threading.local()  # .batch: the messages the outbox thread's batch has queued


def run(function) -> None:
    """Run `function` on this process's outbox thread, after those queued before it; an
    error is logged, never raised."""
    _OUTBOX.put(function)


def send_task(name: str, args: tuple, *, countdown: float, expires: float) -> None:
    """Queue the Celery task `name` to run in `countdown` seconds, dropped if not started
    within `expires` seconds; from the outbox thread, with the rest of its batch."""
    batch = getattr(_local, "batch", None)
    if batch is None:
        current_app.send_task(name, args, countdown=countdown or None, expires=expires, retry=False)
    else:
        now = time.time()
        batch.append([name, list(args), now + countdown, now + expires])


def send_each(messages: list) -> None:
    """`baohuang.send_all` in a worker: queue each message of a batch as itself."""
    now = time.time()
    for name, args, eta, expires in messages:
        current_app.send_task(name, args, eta=_moment(eta) if eta > now else None, expires=_moment(expires),
                              retry=False)


def _moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


class _Outbox:
    """One thread of this process's (started at first use, and again in a forked child,
    which has none of its parent's threads)."""

    def __init__(self):
        self._queue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def put(self, function) -> None:
        self._queue.put(function)
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="outbox", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        from django.db import connections

        while True:
            work = [self._queue.get()]
            time.sleep(LINGER_SECONDS)
            while not self._queue.empty():
                work.append(self._queue.get())
            _local.batch = []
            try:
                for function in work:
                    try:
                        function()
                    except Exception:
                        log.exception("outbox: %r failed", function)
            finally:
                messages, _local.batch = _local.batch, None
            _send(messages)
            connections.close_all()  # a pooled connection the work took goes back to the pool


def _send(messages: list) -> None:
    if not messages:
        return
    try:
        if len(messages) == 1:
            send_each(messages)
        else:
            current_app.send_task(SEND_ALL, (messages,), retry=False)
    except Exception:  # any broker error: the writes are committed, the sweeps act instead
        log.warning("could not queue %d Celery messages; the sweeps will act instead", len(messages), exc_info=True)


_OUTBOX = _Outbox()
