"""Settings come from the environment and refuse values they cannot understand."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from baohuang import settings as bh_settings
from baohuang.engine import PRESETS
from rooms.models import Preset

ROOT = Path(__file__).resolve().parents[2]


def manage(*args, **env):
    base = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**base, **env}, capture_output=True, text=True
    )


def test_envbool_refuses_a_typo(monkeypatch):
    monkeypatch.setenv("DEBUG", "ture")
    with pytest.raises(ImproperlyConfigured, match="DEBUG='ture'"):
        bh_settings.envbool("DEBUG", "1")


@pytest.mark.parametrize("value, expected", [("1", True), ("Yes", True), ("off", False), ("0", False)])
def test_envbool_reads_usual_spellings(monkeypatch, value, expected):
    monkeypatch.setenv("DEBUG", value)
    assert bh_settings.envbool("DEBUG", "1") is expected


def test_redis_url_must_be_a_redis_url(monkeypatch):
    monkeypatch.setenv("REDIS_URL", "http://127.0.0.1:6379")
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        bh_settings.envredis("REDIS_URL", "redis://x")


def test_database_url_must_parse(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "nosuchdb://what")
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        bh_settings.envdatabase("DATABASE_URL", "sqlite:///x")


def test_sqlite_waits_for_the_write_lock_and_tests_on_a_file(monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    config = bh_settings.envdatabase("DATABASE_URL", "sqlite:////srv/bh/db.sqlite3")
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE" and config["OPTIONS"]["timeout"] > 0
    assert config["TEST"]["NAME"] == "/srv/bh/test_db.sqlite3"


def test_postgresql_connections_come_from_a_bounded_pool(monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("CONN_MAX_AGE", raising=False)
    monkeypatch.setenv("DB_POOL_MAX", "7")
    config = bh_settings.envdatabase("DATABASE_URL", "postgres://bh@db.example.org:5432/bh")
    assert config["OPTIONS"]["pool"]["max_size"] == 7 and config["CONN_MAX_AGE"] == 0
    monkeypatch.setenv("CONN_MAX_AGE", "60")  # persistent connections would bypass the pool
    with pytest.raises(ImproperlyConfigured, match="CONN_MAX_AGE"):
        bh_settings.envdatabase("DATABASE_URL", "postgres://bh@db.example.org:5432/bh")


def test_production_without_secret_key_refuses_to_start():
    done = manage("check", DEBUG="0", ALLOWED_HOSTS="bh.example.org")
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr


def test_check_deploy_is_quiet_with_production_values():
    done = manage(
        "check", "--deploy", "--fail-level", "DEBUG",
        DEBUG="0", SECRET_KEY=secrets.token_urlsafe(60), ALLOWED_HOSTS="bh.example.org",
    )
    assert done.returncode == 0, done.stderr
    assert "no issues (0 silenced)" in done.stdout


def test_room_presets_are_the_engines():
    assert tuple(Preset.values) == tuple(PRESETS)


def test_cache_url_shares_the_cache_through_redis_and_refuses_other_urls():
    def backend(**env):
        shown = manage("shell", "--no-imports", "-c",
                       "from django.conf import settings; print(settings.CACHES['default']['BACKEND'])", **env)
        assert shown.returncode == 0, shown.stderr
        return shown.stdout.strip()

    assert backend(CACHE_URL="redis://127.0.0.1:6379/7") == "django.core.cache.backends.redis.RedisCache"
    assert backend() == "django.core.cache.backends.locmem.LocMemCache"
    refused = manage("check", CACHE_URL="memcached://127.0.0.1:11211")
    assert refused.returncode != 0 and "CACHE_URL" in refused.stderr
