"""/healthz, /readyz and /metrics."""

import re

import pytest

from rooms.services import hand_start
from rooms.tests.play import play_to_end
from tests.live import own_redis  # noqa: F401

TOKEN = "s3cret-metrics-token"


def test_healthz_answers_without_anything_else(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_names_redis_and_the_broker_while_redis_is_down(client, own_redis):
    assert client.get("/readyz").status_code == 200
    own_redis.stop()
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "down": ["broker", "redis"]}
    own_redis.start()
    assert client.get("/readyz").json() == {"status": "ok"}


def test_metrics_are_off_without_a_token_or_addresses(client, settings):
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_ADDRESSES = "", []
    assert client.get("/metrics").status_code == 404


@pytest.mark.django_db
def test_metrics_need_the_token_or_an_allowed_address(client, settings):
    import ipaddress

    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_ADDRESSES = TOKEN, []
    assert client.get("/metrics").status_code == 403
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    settings.METRICS_ALLOWED_ADDRESSES = [ipaddress.ip_network("127.0.0.0/8")]
    assert client.get("/metrics").status_code == 200  # the test client's address is 127.0.0.1
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 403


def sample(text: str, name: str, **labels) -> float:
    """One sample's value in a Prometheus exposition (0 when absent)."""
    want = ",".join(f'{key}="{value}"' for key, value in labels.items())
    pattern = rf"^{name}(?:\{{{re.escape(want)}\}})? (\S+)$" if want else rf"^{name} (\S+)$"
    match = re.search(pattern, text, re.M)
    return float(match.group(1)) if match else 0.0


def scrape(client) -> str:
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db(transaction=True)  # the counters count after commit
def test_metrics_count_a_played_hand(client, settings, full_table):
    settings.METRICS_TOKEN = TOKEN
    before = scrape(client)
    room = full_table("classic")
    hand = hand_start(room_id=room.pk)
    during = scrape(client)
    assert sample(during, "baohuang_rooms", status="playing") == 1
    assert sample(during, "baohuang_hands_running") == 1
    hand = play_to_end(hand.pk)
    after = scrape(client)
    started = "baohuang_hands_started_total"
    finished = "baohuang_hands_finished_total"
    assert sample(after, started, preset="classic") == sample(before, started, preset="classic") + 1
    outcome = "scored" if hand.scored else "unscored"
    assert (sample(after, finished, outcome=outcome, preset="classic")
            == sample(before, finished, outcome=outcome, preset="classic") + 1)
    moves = "baohuang_moves_total"
    assert sample(after, moves, by="player") == sample(before, moves, by="player") + hand.version
    assert sample(after, "baohuang_rooms", status="playing") == 0
    assert sample(after, "baohuang_hands_running") == 0
