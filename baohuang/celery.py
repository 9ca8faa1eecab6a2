"""The Celery app: turn timers, 托管 moves and the periodic sweep (tasks live in apps)."""

import os
import sys

from celery import Celery, signals

from baohuang import outbox

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baohuang.settings")

app = Celery("baohuang")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Publishing a timer must never hold up a move: with the broker down, fail at once (the
# write is committed; the sweep below acts instead) rather than retry the connection.
app.conf.broker_transport_options = {"max_retries": 0}

# One queue per deployment; tests give each session its own, so parallel runs sharing a
# Redis never take each other's timers.
app.conf.task_default_queue = os.environ.get("CELERY_QUEUE", "celery")

# Database connections between tasks: as Django does between requests. Celery's Django
# fixup closes them before and after every task, and in a prefork child it closes Django's
# connection pool too (a known bug of Celery 5.7), so every task opened a new pool, two
# new PostgreSQL connections; at 300 tables a fifth of the worker's CPU, and PostgreSQL's
# for each new connection. With a reuse count it never reaches the fixup leaves them alone (it still
# closes what a new child inherits), and `close_old_connections` below gives the task's
# connection back to the pool, or drops it if it failed or outlived CONN_MAX_AGE.
app.conf["CELERY_DB_REUSE_MAX"] = sys.maxsize  # the key the fixup reads, as it spells it

# The sweep acts on every decision whose timer task was lost (a worker killed mid-countdown):
# nothing relies on a countdown message arriving, or on revoking one (rooms/services/timers.py).
SWEEP_SECONDS = 5.0
app.conf.beat_schedule = {
    "sweep-overdue-decisions": {"task": "rooms.sweep_overdue", "schedule": SWEEP_SECONDS},
    # Seats still shown online after their server process died (rooms/presence.py).
    "sweep-stale-presence": {"task": "rooms.sweep_presence", "schedule": 2 * SWEEP_SECONDS},
    # Rooms nobody has been connected to for ABANDONED_ROOM_SECONDS, between hands.
    "close-abandoned-rooms": {"task": "rooms.close_abandoned", "schedule": 6 * SWEEP_SECONDS},
}


@app.task(name=outbox.SEND_ALL, ignore_result=True)
def send_all(messages: list) -> None:
    """A server process's batch of messages (`baohuang.outbox`), queued each as itself."""
    outbox.send_each(messages)


@signals.task_prerun.connect
@signals.task_postrun.connect
def close_old_connections(sender, **kwargs):
    """Around each task run by a worker (not one run eagerly, inside its caller's work)."""
    from django.db import close_old_connections

    if not getattr(sender.request, "is_eager", False):
        close_old_connections()


@signals.setup_logging.connect
def keep_django_logging(**kwargs):
    """The worker and beat log as every other process does (settings.LOGGING, configured
    by django.setup()), not through Celery's own handlers and `--loglevel`."""
    import logging.config

    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
