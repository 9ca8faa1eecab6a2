"""deploy/'s Celery worker and beat beside a benchmark's servers, as production runs them
(bench_capacity.py): the turn timers, 托管 moves and the sweeps are part of what a table
costs the machine."""

import tempfile
import time
from pathlib import Path

READY_SECONDS = 60.0


class Timers:
    """The `ExecStart=` lines of deploy/'s worker and beat units (`tests/deploy_shape.py`),
    with the environment template's concurrency, on the servers' environment (its database,
    Redis and Celery queue). `pids`: their processes, whose CPU the benchmark reports."""

    def __init__(self, env: dict):
        from tests.deploy_shape import APP_DIR, Processes, env_file
        from tests.live import ROOT

        self.tmp = Path(tempfile.mkdtemp(prefix="bench_celery_"))
        self.env = {**env, "CELERY_CONCURRENCY": env_file({})["CELERY_CONCURRENCY"]}
        self.paths = {"/var/lib/baohuang": str(self.tmp), APP_DIR: str(ROOT)}
        self.processes = Processes(self.tmp)

    def start(self) -> None:
        """Drop what was queued before (the deal's timers, in bench_capacity), start both
        and wait until the worker answers a ping (its pool is up)."""
        from baohuang.celery import app
        from tests.deploy_shape import exec_starts

        drop_queue(self.env)
        for unit in ("worker", "beat"):
            [command] = exec_starts(f"baohuang-{unit}.service", env=self.env, paths=self.paths)
            self.processes.start(unit, command, self.env)
        deadline = time.monotonic() + READY_SECONDS
        while not app.control.ping(destination=["worker@localhost"], timeout=0.5):
            self.processes.check_alive()
            if time.monotonic() > deadline:
                raise SystemExit(f"the Celery worker did not answer within {READY_SECONDS:g} s:\n"
                                 + self.processes.log("worker"))

    @property
    def pids(self) -> list[int]:
        return [process.pid for _, process in self.processes.running]

    def stop(self) -> None:
        import shutil

        self.processes.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)


def drop_queue(env: dict) -> None:
    """Empty the servers' Celery queue (`CELERY_QUEUE` on `REDIS_URL`), and forget it."""
    import redis

    queue = env["CELERY_QUEUE"]
    redis.Redis.from_url(env["REDIS_URL"]).delete(queue, f"_kombu.binding.{queue}")
