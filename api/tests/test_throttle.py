"""Anonymous clients are throttled per address; logged-in players and token scripts per account, at a higher rate."""

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


@pytest.fixture
def five_a_minute_signed_in(settings, three_a_minute):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**rates, "user": "5/min"}}


def test_a_token_client_is_throttled_at_its_own_rate(api, alice, bob, five_a_minute_signed_in):
    token = Token.objects.create(user=alice).key

    statuses = [api.get("/api/rooms/", HTTP_AUTHORIZATION=f"Token {token}").status_code for _ in range(6)]
    other = api.get("/api/rooms/", HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=bob).key}")

    assert statuses == [200] * 5 + [429]
    assert other.status_code == 200  # per account, not per address


def test_a_logged_in_player_is_throttled_per_account_not_as_anonymous(api, alice, five_a_minute_signed_in):
    api.force_login(alice)

    assert [api.get("/api/leaderboard/").status_code for _ in range(6)] == [200] * 5 + [429]


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


def test_a_forged_forwarded_for_is_ignored_without_trusted_proxies(api, db, three_a_minute):
    statuses = [api.get("/api/rooms/", HTTP_X_FORWARDED_FOR=f"10.1.0.{n}").status_code for n in range(4)]

    assert statuses == [200, 200, 200, 429]


def test_behind_a_trusted_proxy_each_forwarded_client_counts_alone(api, db, three_a_minute, settings):
    settings.NUM_PROXIES = 1

    first = [api.get("/api/rooms/", HTTP_X_FORWARDED_FOR=f"6.6.6.{n}, 1.2.3.4").status_code for n in range(4)]
    other = api.get("/api/rooms/", HTTP_X_FORWARDED_FOR="5.6.7.8").status_code

    assert first == [200, 200, 200, 429]  # the client's own left-hand entries change nothing
    assert other == 200
