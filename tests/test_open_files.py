"""A server process started with a soft limit of 1,024 open files, as systemd starts a
service, still takes more sockets than that: it raises its own limit as it starts
(`baohuang/open_files.py`)."""

import resource
import socket
from pathlib import Path

import pytest

from baohuang import open_files
from tests.live import Server, database_url, server_env

CONNECTIONS = 1_200  # over the 1,024 the server process starts with


def answered(connection: socket.socket) -> bool:
    """Ask /healthz on an open connection (kept open afterwards); True if it answered 200."""
    try:
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return connection.recv(64).startswith(b"HTTP/1.1 200")
    except (TimeoutError, ConnectionError):  # without the raised limit: reset past about 1,000
        return False


@pytest.fixture
def raised():
    """This test process's own soft limit raised as a server's is (its end of the
    connections), and put back afterwards."""
    limits = resource.getrlimit(resource.RLIMIT_NOFILE)
    yield open_files.raise_limit()
    resource.setrlimit(resource.RLIMIT_NOFILE, limits)


@pytest.mark.django_db(transaction=True)
def test_a_server_started_with_1024_open_files_keeps_more_connections_open(raised, isolated_prefix, tmp_path,
                                                                            settings):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("a real server needs a shared PostgreSQL test database (set DATABASE_URL)")
    if raised < CONNECTIONS + 200:
        pytest.skip(f"this machine allows {raised} open files: too few to open {CONNECTIONS} connections")
    env = server_env(database=database_url(connection.settings_dict), redis=settings.REDIS_URL, prefix=isolated_prefix)
    server = Server(env=env, log_path=tmp_path / "uvicorn.log", open_files=1024).start()
    opened = []
    try:
        limits = Path(f"/proc/{server.process.pid}/limits").read_text()  # prlimit execs uvicorn: one pid
        line = next(line for line in limits.splitlines() if line.startswith("Max open files"))
        assert int(line.split()[3]) == raised, line  # raised, as this process's, to the hard limit
        for _ in range(CONNECTIONS):
            opened.append(socket.create_connection(("127.0.0.1", server.port), timeout=10))
            assert answered(opened[-1]), f"connection {len(opened)} was not served"
    finally:
        for client in opened:
            client.close()
        server.stop()
