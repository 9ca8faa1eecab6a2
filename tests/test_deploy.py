"""The production shape (`deploy/`) on this machine: nginx terminating TLS with a
self-signed certificate in front of two Uvicorn processes, a Celery worker and the beat,
this machine's PostgreSQL (the test database) and Redis. Five players play a whole hand
through `wss://` with an anonymous spectator watching; static files, HTTPS headers, the
client's address behind the proxy and the metrics of both processes are checked; then
everything started is stopped."""

import http.client
import os
import re
import secrets
import shutil
import ssl
import uuid

import pytest

from baohuang.run import WEBSOCKET_OPTIONS
from rooms.models import Hand
from rooms.tests.worker import wait_for
from tests.deploy_shape import (APP_DIR, Processes, env_file, exec_starts, nginx_conf, self_signed, upstreams,
                                wait_until_ready)
from tests.live import (ROOT, SocketClient, anyio_backend, database_url, db, free_port,  # noqa: F401
                        no_lingering_connections, play_hand, ready_all, session_key)

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True)]

HSTS = "max-age=31536000; includeSubDomains; preload"


def nginx_port() -> int:
    """A free port of the range this machine's hand-started servers use (18600–18699)."""
    import socket

    for port in range(18600 + secrets.randbelow(50), 18700):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 18600-18699")


@pytest.fixture
def shape(tmp_path, isolated_prefix, settings):
    from django.db import connection

    if connection.vendor != "postgresql" or shutil.which("nginx") is None:
        pytest.skip("the production shape needs PostgreSQL (DATABASE_URL) and nginx")
    static_root, metrics, state = tmp_path / "static", tmp_path / "metrics", tmp_path / "state"
    state.mkdir()
    web_ports = [free_port(), free_port()]
    http_port = nginx_port()
    https_port = nginx_port()
    while https_port == http_port:
        https_port = nginx_port()
    env = env_file({
        "SECRET_KEY": settings.SECRET_KEY,  # the sessions this test signs in with are signed by it
        "ALLOWED_HOSTS": "127.0.0.1",
        "CSRF_TRUSTED_ORIGINS": f"https://127.0.0.1:{https_port}",
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": settings.REDIS_URL,
        "CACHE_URL": settings.REDIS_URL,
        "STATIC_ROOT": str(static_root),
        "PROMETHEUS_MULTIPROC_DIR": str(metrics),
        "METRICS_ALLOWED_ADDRESSES": "127.0.0.1",
        "CELERY_CONCURRENCY": "1",
        "LOG_FORMAT": "text",
    })
    # This test's own channel prefix and Celery queue on the shared test Redis.
    env = {**env, "CHANNEL_PREFIX": isolated_prefix, "CELERY_QUEUE": f"deploy-{uuid.uuid4().hex[:12]}",
           "PATH": os.environ["PATH"], "PYTHONUNBUFFERED": "1"}
    paths = {"/var/lib/baohuang": str(state), APP_DIR: str(ROOT)}
    cert, key = self_signed(tmp_path)
    processes = Processes(tmp_path)
    try:
        for command in exec_starts("baohuang-setup.service", env=env, paths=paths):
            processes.run(command, env)
        for index, port in enumerate(web_ports):
            [command] = exec_starts("baohuang-web@.service", env=env, instance=str(port), paths=paths)
            assert " ".join(WEBSOCKET_OPTIONS) in " ".join(command)  # as make run, the tests and benchmarks
            processes.start(f"web{index}", command, env)
        [worker] = exec_starts("baohuang-worker.service", env=env, paths=paths)
        processes.start("worker", worker, env)
        [beat] = exec_starts("baohuang-beat.service", env=env, paths=paths)
        processes.start("beat", beat, env)
        conf = nginx_conf(tmp_path, http_port=http_port, https_port=https_port, web_ports=web_ports, cert=cert,
                          key=key, static_root=static_root)
        processes.start("nginx", ["nginx", "-p", str(tmp_path), "-c", str(conf), "-g", "daemon off;"], env)
        context = ssl.create_default_context(cafile=str(cert))
        wait_until_ready(f"https://127.0.0.1:{https_port}/readyz", context, processes)
        yield {"tmp": tmp_path, "https": https_port, "http": http_port, "web": web_ports, "context": context, "processes": processes}
    finally:
        codes = processes.stop()
    assert all(code in (0, -15) for code in codes.values()), codes  # each stopped when asked


def get(shape, path: str, *, port: int | None = None, tls: bool = True, source: str = "127.0.0.1",
        headers: dict | None = None) -> http.client.HTTPResponse:
    port = port or shape["https"]
    if tls:
        connection = http.client.HTTPSConnection("127.0.0.1", port, context=shape["context"], timeout=10,
                                                 source_address=(source, 0))
    else:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    response.body = response.read()
    connection.close()
    return response


def sample(text: str, name: str, **labels) -> float:
    """The sum of a metric's samples having these labels."""
    total = 0.0
    for line in text.splitlines():
        match = re.match(rf"^{name}(?:\{{(.*)\}})? (\S+)$", line)
        if match and all(f'{key}="{value}"' in (match.group(1) or "") for key, value in labels.items()):
            total += float(match.group(2))
    return total


def test_https_static_files_and_the_client_address_behind_the_proxy(shape):
    # Plain HTTP to the proxy is sent to HTTPS.
    plain = get(shape, "/", port=shape["http"], tls=False)
    assert plain.status == 301 and plain.getheader("Location") == "https://127.0.0.1/"
    # Static files come from STATIC_ROOT, served by nginx, with HSTS.
    css = get(shape, "/static/css/app.css")
    assert css.status == 200 and css.body == (ROOT / "static" / "css" / "app.css").read_bytes()
    assert css.getheader("Strict-Transport-Security") == HSTS
    # Django believes the proxy's X-Forwarded-Proto: a page through it is secure (HSTS) …
    lobby = get(shape, "/")
    assert lobby.status == 200 and lobby.getheader("Strict-Transport-Security") == HSTS
    # … and a request reaching Uvicorn without it is redirected to HTTPS.
    direct = get(shape, "/", port=shape["web"][0], tls=False)
    assert direct.status == 301 and direct.getheader("Location").startswith("https://")
    # /metrics is for 127.0.0.1 only: the client's address is what nginx saw, and an
    # X-Forwarded-For written by the client itself is not believed.
    assert get(shape, "/metrics").status == 200
    forged = get(shape, "/metrics", source="127.0.0.2", headers={"X-Forwarded-For": "127.0.0.1"})
    assert forged.status == 403


async def test_a_whole_hand_through_wss_with_a_spectator(shape, full_table, players):
    room = await db(full_table)("classic")
    sessions = [await db(session_key)(player) for player in players]
    url = f"wss://127.0.0.1:{shape['https']}/ws/rooms/{room.pk}/"
    origin = f"https://127.0.0.1:{shape['https']}"
    clients = [SocketClient(url, session=session, origin=origin, ssl=shape["context"]) for session in sessions]
    spectator = SocketClient(url, origin=origin, ssl=shape["context"])
    everyone = clients + [spectator]
    try:
        for client in everyone:
            await client.connect()
            await client.expect("snapshot")
        # No permessage-deflate through nginx (the unit's --ws-per-message-deflate false): a
        # seat's cards never share a compression context with other players' chat.
        assert {client.socket.response.headers.get("Sec-WebSocket-Extensions") for client in everyone} == {None}
        assert (await ready_all(clients))["version"] == 0  # the last 准备 deals
        for client in everyone:
            await client.expect("snapshot", where=lambda f: f["hand"] is not None and f["hand"]["running"])
        hand = await db(lambda: Hand.objects.get(room=room))()
        await play_hand(everyone, hand.pk, hand.state)

        hand = await db(lambda: Hand.objects.get(pk=hand.pk))()
        assert hand.phase == "ended" and hand.scored
        for client in everyone:
            versions = [frame["version"] for frame in client.frames if frame["type"] == "event"]
            assert versions == list(range(1, hand.version + 1))
        assert spectator.frames[0]["you"] == {"player": None, "seat": None, "role": "spectator"}
        # Both processes' counters, added up from the shared metrics directory.
        metrics = get(shape, "/metrics").body.decode()
        assert sample(metrics, "baohuang_hands_started_total", preset="classic") == 1
        assert sample(metrics, "baohuang_hands_finished_total", preset="classic", outcome="scored") == 1
        assert sample(metrics, "baohuang_moves_total", by="player") == hand.version
        assert sample(metrics, "baohuang_open_sockets") == len(everyone)
    finally:
        for client in everyone:
            if hasattr(client, "socket"):
                await client.close()
    shape["processes"].check_alive()
    # Every socket of the room went to the same one of the two processes (nginx hashes the
    # room's URL; it logs each socket when it closes).
    served = wait_for(lambda: len(upstreams(shape["tmp"], "/ws/rooms/")) >= len(everyone)
                      and upstreams(shape["tmp"], "/ws/rooms/"), seconds=10)
    assert len(served) == len(everyone) and len(set(served)) == 1, served
    assert served[0].rsplit(":", 1)[1] in {str(port) for port in shape["web"]}
