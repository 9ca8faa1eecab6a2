"""Fixtures for tests that need real servers (scale-out, browser tests)."""

import pytest

from tests.live import Server, database_url, server_env


@pytest.fixture
def live_servers(transactional_db, tmp_path):
    """A factory: `live_servers(n)` starts n Uvicorn processes on free ports, sharing the
    test database and the test Redis, waits until each answers, and stops them at the end.

    Needs PostgreSQL (set DATABASE_URL): a SQLite test database is private to this process.
    """
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("real servers need a shared PostgreSQL test database (set DATABASE_URL)")
    started = []

    def start(count: int = 1, **extra_env) -> list[Server]:
        env = server_env(database=database_url(connection.settings_dict), redis=settings.REDIS_URL, **extra_env)
        for _ in range(count):
            server = Server(env=env, log_path=tmp_path / f"uvicorn-{len(started)}.log")
            started.append(server)
            server.start()
        return started[-count:]

    yield start
    for server in started:
        server.stop()
