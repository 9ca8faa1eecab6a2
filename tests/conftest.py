"""Fixtures for tests that need real servers (scale-out, browser tests)."""

import pytest

from tests.live import Server, database_url, isolated_prefix, server_env  # noqa: F401


@pytest.fixture
def live_servers(transactional_db, isolated_prefix, tmp_path):
    """A factory: `live_servers(n)` starts n Uvicorn processes on free ports, sharing the
    test database and the test Redis, waits until each answers, and stops them at the end.

    The servers share this test's Redis prefix (`isolated_prefix`), so the
    services the test calls itself broadcast to their sockets too. Needs PostgreSQL (set
    DATABASE_URL): a SQLite test database is private to this process.
    """
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("real servers need a shared PostgreSQL test database (set DATABASE_URL)")
    started = []

    def start(count: int = 1, **extra_env) -> list[Server]:
        env = server_env(database=database_url(connection.settings_dict), redis=settings.REDIS_URL,
                         prefix=isolated_prefix, **extra_env)
        servers = [Server(env=env, log_path=tmp_path / f"uvicorn-{len(started) + index}.log")
                   for index in range(count)]
        started.extend(servers)
        for server in servers:  # all at once: each takes seconds to import Django
            server.spawn()
        return [server.ready() for server in servers]

    yield start
    for server in started:
        server.stop()
