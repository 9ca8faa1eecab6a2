"""A real Celery worker (with beat) for the timer, 托管 and bot tests.

The worker is a subprocess pointed at the pytest test database and at this process's
broker, so the tests using it must be ``django_db(transaction=True)``: the worker sees
only committed rows. It needs PostgreSQL (two processes on one database) and Redis;
run them with e.g.::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bh_timers \\
    REDIS_URL=redis://127.0.0.1:6379/3 .venv/bin/pytest rooms/tests/test_timers.py

Each test module uses a queue of its own on that Redis (``CELERY_QUEUE``), and stops its
worker when it ends.
"""

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from baohuang.celery import app

ROOT = Path(__file__).resolve().parents[2]
READY_SECONDS = 30
SEARCH_SECONDS = 0.2  # the worker's BOT_SEARCH_SECONDS: the 高手 level thinks this long


def database_url() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Worker:
    """``celery -A baohuang worker -B`` in its own process group; `kill()` is SIGKILL. Its
    pool is threads, or ``prefork`` (production's: a child process per task at a time)."""

    def __init__(self, schedule_dir: Path, queue: str, pool: str = "threads"):
        self.queue, self.pool = queue, pool
        self.schedule = schedule_dir / f"beat-{uuid.uuid4().hex}"
        self.process: subprocess.Popen | None = None
        self.output: list[str] = []
        self.ready_at = None  # time.monotonic() when it said "ready"

    def start(self) -> "Worker":
        env = {**os.environ, "DATABASE_URL": database_url(), "REDIS_URL": settings.CELERY_BROKER_URL,
               "PYTHONUNBUFFERED": "1", "CELERY_QUEUE": self.queue,
               "LOG_LEVEL": "DEBUG",  # tests read the per-task lines (logged at DEBUG only)
               "BOT_SEARCH_SECONDS": str(SEARCH_SECONDS)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "baohuang", "worker", "-B",
             "--pool", self.pool, "--concurrency", "4" if self.pool == "threads" else "1", "--loglevel", "INFO", "--hostname", f"timers-{uuid.uuid4().hex[:8]}@%h",
             "--without-gossip", "--without-mingle", "--without-heartbeat",
             "--schedule", str(self.schedule)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True,
        )
        ready = threading.Event()

        def read():
            for line in self.process.stdout:
                self.output.append(line)
                if " ready." in line:
                    self.ready_at = time.monotonic()
                    ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(READY_SECONDS):
            self.kill()
            raise RuntimeError("the Celery worker did not start:\n" + "".join(self.output[-40:]))
        return self

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL the worker and its beat: messages it held are lost with it."""
        if self.alive:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def mark(self) -> int:
        """A place in the log, for `log(since=...)`."""
        return len(self.output)

    def log(self, since: int = 0) -> str:
        return "".join(self.output[since:])


class Workers:
    """A test module's worker, started once and started again after a test killed it."""

    def __init__(self, schedule_dir: Path, queue: str):
        self.schedule_dir = schedule_dir
        self.queue = queue
        self.current: Worker | None = None

    def running(self) -> Worker:
        if self.current is None or not self.current.alive:
            self.current = Worker(self.schedule_dir, self.queue).start()
        return self.current

    def stop(self) -> None:
        if self.current is not None:
            self.current.kill()


@pytest.fixture(scope="module")
def celery_workers(django_db_setup, tmp_path_factory):
    """One worker per test module, gone when the module ends: its beat sweeps the whole
    test database, and other modules' hands must not be played for. Skips without
    PostgreSQL and Redis."""
    if connection.vendor != "postgresql":
        pytest.skip("the worker shares the test database: needs PostgreSQL (DATABASE_URL)")
    import redis

    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        broker.ping()
    except redis.RedisError as error:
        pytest.skip(f"needs Redis at REDIS_URL: {error}")
    # The module's own queue: another test run on the same Redis never takes our timers.
    queue = f"timers-test-{uuid.uuid4().hex[:12]}"
    app.conf.task_default_queue = queue
    workers = Workers(tmp_path_factory.mktemp("celery"), queue)
    yield workers
    workers.stop()
    app.conf.task_default_queue = os.environ.get("CELERY_QUEUE", "celery")
    broker.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")


@pytest.fixture
def worker(celery_workers, transactional_db):
    """The running worker (the test's rows are committed, so the worker sees them)."""
    return celery_workers.running()


def wait_for(check, *, seconds: float, every: float = 0.05):
    """Poll ``check()`` until it returns something truthy; returns it, or fails the test."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(every)
    pytest.fail(f"nothing happened within {seconds} s")
