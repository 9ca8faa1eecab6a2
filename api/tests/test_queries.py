"""Each endpoint runs a fixed number of queries, however many rows it returns (no N+1)."""

import pytest
from rest_framework.authtoken.models import Token

from api.tests.conftest import entry, play_some
from rooms.services import hand_start, room_create, seat_take


@pytest.fixture
def busy(ended_hand, full_table, players):
    """Three rooms (one playing, one half full), an ended and a running hand, many ledger rows."""
    ended = ended_hand("classic", public_records=True)
    running = play_some(hand_start(room_id=full_table("qingdao").pk).pk, 8)
    half = room_create(creator=players[0], name="half", preset="lianzhong")
    for player in players[:3]:
        seat_take(room_id=half.pk, player=player)
    for player in players:
        for points in (1, -2, 3):
            entry(player, points, won=points > 0)
    token = Token.objects.create(user=players[0]).key
    return {"ended": ended, "running": running, "room": ended.room_id, "me": players[0],
            "auth": {"HTTP_AUTHORIZATION": f"Token {token}"}}


def urls(busy):
    me, room, ended, running = busy["me"].pk, busy["room"], busy["ended"].pk, busy["running"].pk
    return [
        # (url, queries, with the token?): a token costs one query (token + user, joined)
        ("/api/leaderboard/", 1, False),
        ("/api/leaderboard/?period=7d&preset=classic", 1, False),
        (f"/api/players/{me}/", 2, False),
        ("/api/me/", 1 + 1, True),
        (f"/api/players/{me}/ledger/", 1 + 3, True),
        ("/api/rooms/", 2, False),
        (f"/api/rooms/{room}/", 3, False),
        (f"/api/rooms/{room}/hands/", 3, False),
        (f"/api/hands/{running}/", 2, False),
        (f"/api/hands/{running}/events/", 2, False),
        (f"/api/hands/{ended}/events/", 2, False),
        (f"/api/hands/{ended}/record/", 3, False),
    ]


def test_every_endpoint_runs_a_fixed_number_of_queries(api, busy, django_assert_num_queries):
    for url, queries, with_token in urls(busy):
        headers = busy["auth"] if with_token else {}
        with django_assert_num_queries(queries):
            response = api.get(url, **headers)
        assert response.status_code == 200, (url, response.json())


def test_many_rows_cost_no_more_queries_than_few(api, busy, players, django_assert_num_queries, settings):
    settings.SEATS_PER_PLAYER = 10  # the busy world already seats them at several tables
    before = {url: len(api.get(url).json()["results"]) for url in ("/api/leaderboard/", "/api/rooms/")}
    for index in range(4):
        room = room_create(creator=players[1], name=f"more {index}", preset="classic")
        seat_take(room_id=room.pk, player=players[index])
    assert len(api.get("/api/rooms/").json()["results"]) == before["/api/rooms/"] + 4

    with django_assert_num_queries(2):
        api.get("/api/rooms/")
    with django_assert_num_queries(1):
        assert len(api.get("/api/leaderboard/").json()["results"]) == before["/api/leaderboard/"] == 5
