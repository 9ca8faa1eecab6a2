"""`make run` (`python -m baohuang.run`) as an operator sees it: over one hand played by
five bots, its console shows a few dozen lines at the default level — process starts and
stops, the hand started and finished — and Ctrl-C stops everything without a traceback.

It runs the real launcher: Uvicorn and a Celery worker with beat, on a SQLite database of
its own and the test Redis (a queue and channel prefix of its own).
"""

import os
import queue
import signal
import subprocess
import sys
import threading
import time
import uuid

import pytest
from django.conf import settings

from tests.live import ROOT, free_port

MAX_LINES = 40
SETUP = """
from rooms.services import player_bot, player_guest, room_create, seat_take
creator = player_guest(nickname="operator")
room = room_create(creator=creator, name="bots", preset="classic", options={"trustee_delay": 0})
for number in range(5):  # bots are always ready: the fifth one's seat deals the hand
    seat_take(room_id=room.pk, player=player_bot(number=number + 1))
"""


class Console:
    """The launcher's merged stdout and stderr, line by line."""

    def __init__(self, env: dict):
        self.process = subprocess.Popen([sys.executable, "-m", "baohuang.run"], cwd=ROOT, env=env, text=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.lines: list[str] = []
        self.fresh: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))
            self.fresh.put(line)

    def wait_for(self, text: str, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not any(text in line for line in self.lines):
            left = deadline - time.monotonic()
            if left <= 0 or self.process.poll() is not None and self.fresh.empty():
                pytest.fail(f"no line with {text!r}; the console said:\n" + "\n".join(self.lines))
            try:
                self.fresh.get(timeout=min(left, 0.5))
            except queue.Empty:
                pass

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # what Ctrl-C sends
        return self.process.wait(60)


@pytest.fixture
def console(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_QUEUE": f"run-test-{uuid.uuid4().hex[:12]}",
        "CHANNEL_PREFIX": f"run-test-{uuid.uuid4().hex[:12]}",
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
        "CELERY_BEAT_SCHEDULE_FILE": str(tmp_path / "celerybeat-schedule"),  # CI runs two passes at once
        "PORT": str(port),
        "CELERY_CONCURRENCY": "1",
    }
    for name in ("LOG_LEVEL", "LOG_FORMAT", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    running = Console(env)
    yield running, env
    running.stop()


def test_one_bot_hand_takes_a_few_dozen_lines_and_ctrl_c_stops_cleanly(console):
    running, env = console
    running.wait_for("[run] ready", seconds=90)
    setup = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP], cwd=ROOT, env=env,
                           capture_output=True, text=True)
    assert setup.returncode == 0, setup.stderr
    assert "hand 1 (#1, classic) started" in setup.stderr  # logged by the process that dealt it
    running.wait_for("finished: scored", seconds=120)

    assert running.stop() == 0
    output = "\n".join(running.lines)
    assert "[run] all processes stopped" in output
    assert "Traceback" not in output and "WorkerLostError" not in output, output
    assert " received" not in output and "succeeded in" not in output, output  # no per-task lines
    assert len(running.lines) <= MAX_LINES, output
