"""Is each service the server needs reachable? For `/readyz`.

Each probe answers within about a second and raises nothing: it returns None when the
service answers, else a short reason (for the log: the page names only what is down,
since reasons carry internal addresses). Live play's Redis and the Celery broker may be one
Redis (the default: both are REDIS_URL) or two; each is probed on its own URL.
"""

from django.conf import settings
from django.db import connections

TIMEOUT_SECONDS = 1.0


def database() -> str | None:
    connection = connections["default"]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as error:  # any driver's error: the database is what is down
        connection.close_if_unusable_or_obsolete()
        return _reason(error)
    return None


def redis() -> str | None:
    """The Redis of live play's broadcasts and presence."""
    import redis as redis_py

    client = redis_py.Redis.from_url(settings.REDIS_URL, socket_timeout=TIMEOUT_SECONDS,
                                     socket_connect_timeout=TIMEOUT_SECONDS)
    try:
        client.ping()
    except redis_py.RedisError as error:
        return _reason(error)
    finally:
        client.close()
    return None


def broker() -> str | None:
    """The Celery broker (turn timers, 托管 and bot moves)."""
    from baohuang.celery import app

    try:
        with app.connection_for_write(url=settings.CELERY_BROKER_URL) as connection:
            connection.ensure_connection(max_retries=1, interval_start=0, timeout=TIMEOUT_SECONDS)
    except Exception as error:  # kombu wraps each transport's errors differently
        return _reason(error)
    return None


PROBES = {"database": database, "redis": redis, "broker": broker}


def down() -> dict[str, str]:
    """What is down, by name, with why."""
    return {name: reason for name, probe in PROBES.items() if (reason := probe()) is not None}


def _reason(error: Exception) -> str:
    return f"{type(error).__name__}: {error}"[:200]
