"""Anonymous clients are throttled; logged-in players and token scripts are not."""

import pytest
from rest_framework.authtoken.models import Token


@pytest.fixture
def three_a_minute(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/min"}}


def test_an_anonymous_client_is_throttled_past_the_rate(api, db, three_a_minute):
    statuses = [api.get("/api/rooms/").status_code for _ in range(4)]

    assert statuses == [200, 200, 200, 429]
    response = api.get("/api/leaderboard/")
    assert response.json()["code"] == "throttled" and int(response["Retry-After"]) > 0


def test_a_token_client_is_not_throttled(api, alice, three_a_minute):
    token = Token.objects.create(user=alice).key

    statuses = {api.get("/api/rooms/", HTTP_AUTHORIZATION=f"Token {token}").status_code for _ in range(6)}

    assert statuses == {200}


def test_a_logged_in_player_is_not_throttled(api, alice, three_a_minute):
    api.force_login(alice)

    assert {api.get("/api/leaderboard/").status_code for _ in range(6)} == {200}


def test_with_a_shared_cache_every_process_counts_the_same_client(api, db, three_a_minute, settings):
    import uuid

    import redis
    from django.core.cache import caches

    prefix = f"throttle-{uuid.uuid4().hex[:8]}"
    shared = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": settings.REDIS_URL,
              "KEY_PREFIX": prefix}
    settings.CACHES = {"default": shared}
    assert [api.get("/api/rooms/").status_code for _ in range(2)] == [200, 200]

    # Another process: its own connection to the same Redis, nothing in common but the store.
    settings.CACHES = {"default": {**shared}}
    caches["default"].close()
    assert [api.get("/api/rooms/").status_code for _ in range(2)] == [200, 429]
    keys = redis.Redis.from_url(settings.REDIS_URL).keys(f"{prefix}:*")
    assert keys
    redis.Redis.from_url(settings.REDIS_URL).delete(*keys)
