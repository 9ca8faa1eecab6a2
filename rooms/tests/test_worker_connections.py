"""A production worker's tasks reuse their database connections (baohuang/celery.py):
Celery's Django fixup closed Django's connection pool after every task in a prefork
child, so each task opened new PostgreSQL connections."""

import re

from django.db import connection

from baohuang.celery import app
from rooms.tests.worker import Worker, celery_workers, wait_for  # noqa: F401

TASKS = 20


def sessions() -> int:
    """Connections ever opened to the test database (PostgreSQL's own count)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


def test_a_prefork_worker_keeps_its_database_connections_from_task_to_task(celery_workers, transactional_db):
    worker = Worker(celery_workers.schedule_dir, celery_workers.queue, pool="prefork").start()
    try:
        # One task first: the child's pool opens its connections.
        since = worker.mark()
        app.send_task("rooms.sweep_overdue")
        wait_for(lambda: "succeeded" in worker.log(since), seconds=30)
        opened = sessions()
        since = worker.mark()
        for _ in range(TASKS):
            app.send_task("rooms.sweep_overdue")
        wait_for(lambda: len(re.findall(r"rooms\.sweep_overdue\[[0-9a-f-]+\] succeeded", worker.log(since))) >= TASKS,
                 seconds=60)
        # Its own pool's two a task before; now none (beat's sweeps may add a few of its own).
        assert sessions() - opened < TASKS / 4, worker.log(since)
    finally:
        worker.kill()
