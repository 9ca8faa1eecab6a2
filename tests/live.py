"""Helpers for live-play tests: signed-in sessions, recording socket clients, real servers.

`Client` wraps Channels' in-process `WebsocketCommunicator`; `SocketClient` speaks to a
running server over a real socket (`websockets`). Both record every frame they receive
in `.frames`, so a test can inspect everything a recipient was ever sent.
"""

import asyncio
import gc
import json
import os
import resource
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections import deque
from pathlib import Path

import pytest
from channels.db import database_sync_to_async

from baohuang.run import WEBSOCKET_OPTIONS

ORIGIN = "http://127.0.0.1"
ROOT = Path(__file__).resolve().parent.parent


def db(function):
    return database_sync_to_async(function, thread_sensitive=False)


def channel_prefix() -> str:
    """A Redis prefix of one's own (`CHANNEL_PREFIX`). Redis pub/sub channels are server-wide (the
    database number does not separate them), and room ids restart in every test database,
    so without it two test runs sharing a Redis would hear each other's `room-1`."""
    return f"t{uuid.uuid4().hex[:12]}-"


@pytest.fixture
def isolated_prefix(settings, monkeypatch):
    """This test's own Redis prefix (broadcasts, presence), and empty per-process hand-state,
    frame and held-table caches (hand ids restart after every transactional test). Import it
    into a test module.

    Every version of a hand stays held here: a socket that falls more than `KEEP` versions
    behind rebuilds the state from the seed, and a hand dealt by `rooms.tests.play.deal_instead`
    is not its seed's deal (`state_at` itself: test_consumer_states)."""
    from baohuang import loop_database
    from rooms.event_frames import FRAMES
    from rooms.hand_states import STATES, HandStates
    from rooms.services.held import HELD

    settings.CHANNEL_PREFIX = channel_prefix()
    monkeypatch.setattr(HandStates, "KEEP", 100_000)
    for cache in (STATES, FRAMES):
        cache.__init__()
    HELD.clear()
    yield settings.CHANNEL_PREFIX
    for cache in (STATES, FRAMES):
        cache.__init__()
    HELD.clear()
    loop_database.close_all()  # the test's loops are gone; the test database is dropped later


@pytest.fixture
def own_redis(tmp_path, settings):
    """A Redis of this test's own (REDIS_URL, the broker), to `stop()` and `start()` again
    on the same port. Import it into a test module."""
    import redis

    from baohuang import embedded_redis

    port = embedded_redis.free_port()
    url = f"redis://{embedded_redis.HOST}:{port}/0"
    settings.REDIS_URL = settings.CELERY_BROKER_URL = url

    class Own:
        process = None

        def start(self):
            self.process = embedded_redis.start(tmp_path, port=port, persist=False)
            client = redis.Redis.from_url(url)
            deadline = time.monotonic() + 15
            while True:
                try:
                    client.ping()
                    return
                except redis.ConnectionError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)

        def stop(self):
            self.process.terminate()
            self.process.wait(10)

    own = Own()
    own.start()
    yield own
    if own.process.poll() is None:
        own.stop()


def session_key(player) -> str:
    """A Django session signed in as `player` (what logging in through the site creates)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(player.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = player.get_session_auth_hash()
    session.create()
    return session.session_key


def websocket_communicator():
    """Channels' `WebsocketCommunicator`.

    `channels.testing/__init__.py` also imports Daphne for its live-server test case, which
    this project does not install (it serves with Uvicorn); when Daphne is missing, load the
    communicator's own modules under a bare `channels.testing` package instead.
    """
    try:
        from channels.testing import WebsocketCommunicator
    except ModuleNotFoundError as error:
        if error.name != "daphne":
            raise
        import types

        import channels

        package = types.ModuleType("channels.testing")
        package.__path__ = [str(Path(channels.__file__).parent / "testing")]
        sys.modules["channels.testing"] = package
        from channels.testing.application import ApplicationCommunicator
        from channels.testing.websocket import WebsocketCommunicator

        package.ApplicationCommunicator = ApplicationCommunicator
        package.WebsocketCommunicator = WebsocketCommunicator
    return WebsocketCommunicator


class Recorder:
    """The frame-reading half shared by both clients."""

    timeout = 10.0

    def _init_frames(self):
        self.frames: list[dict] = []
        self._unread: list[dict] = []
        self.pace = Pace()  # for `play_hand`, across its calls

    async def _next_raw(self, timeout: float) -> dict:
        raise NotImplementedError

    async def receive(self, timeout: float | None = None) -> dict:
        if self._unread:
            return self._unread.pop(0)
        return await self._next_raw(timeout or self.timeout)

    async def expect(self, kind: str, timeout: float | None = None, where=None, **match) -> dict:
        """The next frame of type `kind` with the `match` fields (and `where(frame)` true);
        frames read on the way stay unread, in order."""
        deadline = time.monotonic() + (timeout or self.timeout)

        def wanted(frame):
            return (frame["type"] == kind and all(frame.get(k) == v for k, v in match.items())
                    and (where is None or where(frame)))

        for index, frame in enumerate(self._unread):
            if wanted(frame):
                return self._unread.pop(index)
        skipped = []
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {kind} {match} frame; got {[f['type'] for f in skipped]}")
                try:
                    frame = await self._next_raw(left)
                except (asyncio.TimeoutError, TimeoutError):
                    raise AssertionError(f"no {kind} {match} frame; got {[f['type'] for f in skipped]}") from None
                if wanted(frame):
                    return frame
                skipped.append(frame)
        finally:
            self._unread.extend(skipped)

    async def until_version(self, hand: int, version: int, timeout: float | None = None) -> dict:
        """Read until an event (or snapshot) of `hand` at `version` or later has arrived."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            for frame in self.frames:
                if frame["type"] == "event" and frame["hand"] == hand and frame["version"] >= version:
                    return frame
                if (frame["type"] == "snapshot" and frame["hand"] and frame["hand"]["id"] == hand
                        and frame["hand"]["version"] >= version):
                    return frame
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"never reached hand {hand} version {version}")
            self._unread.append(await self._next_raw(left))

    def drain_unread(self) -> None:
        self._unread.clear()

    async def send(self, frame: dict) -> None:
        await self.send_text(json.dumps(frame))

    async def nothing(self, wait: float = 0.2) -> bool:
        """True when no frame arrives within `wait` seconds."""
        if self._unread:
            return False
        try:
            self._unread.append(await self._next_raw(wait))
        except (asyncio.TimeoutError, TimeoutError):
            return True
        return False


def fresh_pool() -> None:
    """Start the next test with a fresh PostgreSQL connection pool. The pool threads of a
    test's event loop end with it, and a connection a thread still held is closed with the
    thread but never returned, so the pool would count it as lent out for ever (a server
    process keeps its threads, so this happens only between tests)."""
    from django.db import connections

    if connections["default"].vendor == "postgresql":
        connections["default"].close_pool()  # the pool is per process, whichever thread asks


class Client(Recorder):
    """An in-process socket on the ASGI application (`WebsocketCommunicator`)."""

    open_clients: list["Client"] = []

    @classmethod
    async def close_all(cls) -> None:
        """Close every socket still open; then collect garbage, which closes the database
        connections of pool threads that ended with the test's event loop."""
        while cls.open_clients:
            await cls.open_clients.pop().close()
        gc.collect()
        fresh_pool()

    def __init__(self, path: str, *, session: str | None = None, origin: str = ORIGIN):
        from baohuang.asgi import application

        WebsocketCommunicator = websocket_communicator()

        headers = [(b"origin", origin.encode()), (b"host", b"127.0.0.1")]
        if session:
            headers.append((b"cookie", f"sessionid={session}".encode()))
        self.communicator = WebsocketCommunicator(application, path, headers=headers)
        self._init_frames()
        self.closed = False
        Client.open_clients.append(self)

    async def connect(self):
        connected, code = await self.communicator.connect(timeout=self.timeout)
        return connected, code

    async def _next_raw(self, timeout: float) -> dict:
        message = await self.communicator.receive_output(timeout)
        if message["type"] == "websocket.close":
            frame = {"type": "_closed", "code": message.get("code")}
        else:
            frame = json.loads(message["text"])
        self.frames.append(frame)
        return frame

    async def send_text(self, text: str) -> None:
        await self.communicator.send_to(text_data=text)

    async def send_bytes(self, data: bytes) -> None:
        await self.communicator.send_to(bytes_data=data)

    async def close(self):
        if not self.closed:
            self.closed = True
            await self.communicator.disconnect(timeout=5)


class SocketClient(Recorder):
    """A real WebSocket client (`websockets`) against a running server."""

    def __init__(self, url: str, *, session: str | None = None, origin: str | None = None, ssl=None):
        # The page's origin is the server's own: same host and port, http for ws (https for wss).
        self.url, self.session, self.ssl = url, session, ssl  # ssl: for wss://
        self.origin = origin or "http" + url.removeprefix("ws").split("/ws/")[0]
        self._init_frames()

    async def connect(self):
        import websockets

        headers = {"Cookie": f"sessionid={self.session}"} if self.session else {}
        self.socket = await websockets.connect(self.url, origin=self.origin, additional_headers=headers,
                                               max_size=2**22, open_timeout=self.timeout, ssl=self.ssl)
        return self

    async def _next_raw(self, timeout: float) -> dict:
        frame = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
        self.frames.append(frame)
        return frame

    async def send_text(self, text: str) -> None:
        await self.socket.send(text)

    async def close(self):
        await self.socket.close()


def end_lingering_connections(django_db_blocker) -> None:
    """Terminate other idle sessions on the test database once a module's sockets are gone.

    Pool threads that served consumers can end with their event loop before Django closes
    their connection; left open, it stops pytest-django from dropping the test database.
    """
    from django.db import connection

    gc.collect()
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
                       " AND pid <> pg_backend_pid() AND state = 'idle'")
    # That also ended this process's other pooled connections behind the pool's back:
    # a fresh pool opens on the next query.
    connection.close()
    connection.close_pool()


# -- fixtures for modules of live-socket tests: import them into the module --------------


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="module", autouse=True)
def no_lingering_connections(django_db_setup, django_db_blocker):
    yield
    end_lingering_connections(django_db_blocker)


@pytest.fixture(autouse=True)
async def closed_at_the_end():
    """Close every socket a test left open, so no consumer outlives its test."""
    yield
    await Client.close_all()


# -- playing -------------------------------------------------------------------------


def quick_action(state: dict, seat: int) -> dict:
    """A short hand that keeps its secret a while: the largest legal set (one without the
    guard card when there is one), else the 托管 policy's answer (bids, passes, answers).
    Returned without `seat`, as a client sends it."""
    from baohuang import engine

    plays = [action for action in engine.legal_actions(state, seat) if action["type"] == "play"]
    discreet = [action for action in plays if state["guard_card"] not in action["cards"].split()]
    plays = discreet or plays
    if plays:
        action = max(plays, key=lambda action: len(action["cards"].split()))
    else:
        action = engine.autoplay(state, seat)
    return {key: value for key, value in action.items() if key != "seat"}


class Pace:
    """Keeps one scripted socket within the server's rate limit, as a person's pace keeps
    the browser: a script playing as fast as the server answers sends a seat more than
    `RATE_LIMIT` frames a second (several moves in a row in the declaration window, or a
    lead after four passes) and is closed with 1008. Leaves room for two other frames."""

    def __init__(self):
        from rooms.consumers import RATE_LIMIT, RATE_WINDOW

        self.limit, self.window = RATE_LIMIT - 2, RATE_WINDOW
        self.sent: deque[float] = deque()

    async def wait(self) -> None:
        now = time.monotonic()
        while self.sent and self.sent[0] <= now - self.window:
            self.sent.popleft()
        if len(self.sent) >= self.limit:
            await asyncio.sleep(self.sent[0] + self.window - now + 0.005)
            self.sent.popleft()
        self.sent.append(time.monotonic())


async def play_hand(clients: list, hand_id: int, state: dict, *, moves: int | None = None,
                    played: dict | None = None) -> tuple[dict, dict]:
    """Each awaited seat plays `quick_action` through its own socket (`clients[seat]`) until
    the hand ends (or for `moves` moves); every client (None: away) then has every event. The
    caller passes the current state, which this follows on its own copy. Returns the state
    reached and the cards played, by version (added to `played`)."""
    from baohuang import engine

    played = {} if played is None else played
    while engine.result(state) is None and (moves is None or moves > 0):
        seat, version = engine.actors(state)[0], state["version"]
        action = quick_action(state, seat)
        await clients[seat].pace.wait()
        await clients[seat].send({"type": "act", "action": action, "expected_version": version,
                                  "client_id": f"{hand_id}-{version}"})
        ack = await clients[seat].expect("ack")
        assert ack["version"] == version + 1, ack
        state, _ = engine.apply(state, {**action, "seat": seat})
        if action["type"] == "play":
            played[version + 1] = action["cards"].split()
        moves = None if moves is None else moves - 1
    for client in clients:
        if client is not None:  # a seat whose socket is away
            await client.until_version(hand_id, state["version"])
    return state, played


async def ready_all(clients: list) -> dict:
    """准备 from each seated player's socket, in the order given (None: a bot's seat, always
    ready): the last one deals. Returns its ack (`version` is the new hand's, 0)."""
    ack = None
    for number, client in enumerate(clients):
        if client is not None:
            await client.send({"type": "ready", "client_id": f"ready-{number}"})
            ack = await client.expect("ack", client_id=f"ready-{number}")
    return ack


# -- real servers ---------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url(settings_dict: dict) -> str:
    """A DATABASE_URL for the database Django is using now (the test database in tests)."""
    user = settings_dict.get("USER") or "postgres"
    password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{settings_dict['NAME']}"


class Server:
    """One Uvicorn process serving `baohuang.asgi:application` on a free port."""

    def __init__(self, *, env: dict, port: int | None = None, log_path: Path | None = None,
                 options: tuple[str, ...] = (), open_files: int | None = None):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.env = env
        self.log_path = log_path
        self.options = options  # more uvicorn options, e.g. ("--workers", "2")
        self.open_files = open_files  # the soft limit it starts with (systemd gives a service 1,024); None: ours
        self.process = None

    def start(self, wait: float = 60.0) -> "Server":
        return self.spawn().ready(wait)

    def spawn(self) -> "Server":
        """Start the process without waiting for it (start several, then `ready` each)."""
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL
        limited = () if self.open_files is None else (
            "prlimit", f"--nofile={self.open_files}:{resource.getrlimit(resource.RLIMIT_NOFILE)[1]}", "--")
        self.process = subprocess.Popen(
            [*limited, sys.executable, "-m", "uvicorn", "baohuang.asgi:application", "--host", "127.0.0.1",
             "--port", str(self.port), "--log-level", "warning", *WEBSOCKET_OPTIONS, *self.options],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )
        return self

    def ready(self, wait: float = 60.0) -> "Server":
        """Wait until the server answers HTTP (raises, and stops it, if it never does)."""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"uvicorn on port {self.port} exited with {self.process.returncode}")
            try:
                urllib.request.urlopen(f"{self.url}/admin/login/", timeout=2).read()
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"uvicorn on port {self.port} did not answer within {wait} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def server_env(*, database: str, redis: str, prefix: str | None = None, **extra) -> dict:
    """Environment for a server process: the given database and Redis, and (through
    `tests.live_settings`) a channel-layer prefix shared with the test and its peers."""
    env = {**os.environ, "DATABASE_URL": database, "REDIS_URL": redis, "DEBUG": "1",
           "ALLOWED_HOSTS": "127.0.0.1,localhost", "LOG_LEVEL": "WARNING",
           "DJANGO_SETTINGS_MODULE": "tests.live_settings", "CHANNEL_PREFIX": prefix or channel_prefix()}
    env.update({key: str(value) for key, value in extra.items()})
    return env
