"""GET /api/leaderboard/: ranked by points, with hands, wins and win rate; filters; pages."""

from datetime import datetime, timedelta, timezone as tz
from unittest import mock

import pytest

from api.tests.conftest import entry
from rooms.services import player_bot
from scoring.models import LedgerEntry

NOON = datetime(2026, 11, 30, 12, 0, tzinfo=tz.utc)


def board(api, **params):
    response = api.get("/api/leaderboard/", params)
    assert response.status_code == 200, response.json()
    return response.json()


def names(body):
    return [row["player"]["display_name"] for row in body["results"]]


def test_players_are_ranked_by_points_with_hands_wins_and_win_rate(api, alice, bob, charlie):
    entry(alice, 4, won=True)
    entry(alice, 2, won=False)
    entry(bob, 10, won=True)
    entry(charlie, -3, won=False)
    entry(charlie, 0, won=False)
    entry(charlie, -40, kind=LedgerEntry.Kind.LEAVE_PENALTY)  # points, but not a hand

    body = board(api)

    assert body["count"] == 3
    assert [(r["rank"], r["player"]["id"], r["points"], r["hands"], r["wins"], r["win_rate"])
            for r in body["results"]] == [
        (1, bob.pk, 10, 1, 1, 1.0),
        (2, alice.pk, 6, 2, 1, 0.5),
        (3, charlie.pk, -43, 2, 0, 0.0),
    ]


def test_bots_are_not_ranked(api, alice):
    bot = player_bot(number=1)
    entry(bot, 100, won=True)
    entry(alice, 1, won=True)

    assert names(board(api)) == ["alice"]


def test_equal_points_share_a_rank_and_more_wins_list_first(api, alice, bob, charlie):
    entry(alice, 3, won=False)
    entry(bob, 2, won=True)
    entry(bob, 1, won=True)
    entry(charlie, 1, won=True)

    body = board(api)

    assert [(r["player"]["display_name"], r["rank"]) for r in body["results"]] == [
        ("bob", 1), ("alice", 1), ("charlie", 3)]


def test_the_preset_filter_counts_only_that_presets_entries(api, alice, bob):
    entry(alice, 5, preset="classic", won=True)
    entry(alice, -9, preset="qingdao", won=False)
    entry(bob, 2, preset="qingdao", won=True)

    qingdao = board(api, preset="qingdao")

    assert [(r["player"]["display_name"], r["points"], r["hands"]) for r in qingdao["results"]] == [
        ("bob", 2, 1), ("alice", -9, 1)]
    assert [r["points"] for r in board(api, preset="classic")["results"]] == [5]


@pytest.mark.parametrize(("period", "points", "hands"), [
    ("all", 1 + 10 + 100 + 1000, 4),
    ("30d", 10 + 100 + 1000, 3),
    ("7d", 100 + 1000, 2),
    ("today", 1000, 1),
])
def test_a_period_counts_entries_since_its_start(api, alice, period, points, hands):
    for days_ago, amount in [(40, 1), (20, 10), (3, 100)]:
        entry(alice, amount, won=False, when=NOON - timedelta(days=days_ago))
    entry(alice, 1000, won=True, when=NOON - timedelta(hours=11))  # 01:00 today
    entry(alice, 5, won=True, when=NOON - timedelta(hours=13))  # 23:00 yesterday: in 7d, not today
    expected_points = points + (5 if period in ("all", "30d", "7d") else 0)
    expected_hands = hands + (1 if period in ("all", "30d", "7d") else 0)

    with mock.patch("django.utils.timezone.now", return_value=NOON):
        row = board(api, period=period)["results"][0]

    assert (row["points"], row["hands"]) == (expected_points, expected_hands)


def test_pages_carry_the_total_and_links_and_ranks_continue(api, alice, bob, charlie):
    for points, player in enumerate([alice, bob, charlie]):
        entry(player, points, won=True)

    first = board(api, page_size=2)
    second = api.get(first["next"]).json()

    assert first["count"] == second["count"] == 3
    assert names(first) == ["charlie", "bob"] and first["previous"] is None
    assert [(r["player"]["display_name"], r["rank"]) for r in second["results"]] == [("alice", 3)]
    assert second["next"] is None and second["previous"]


def test_a_page_past_the_end_is_not_found(api, alice):
    entry(alice, 1, won=True)

    response = api.get("/api/leaderboard/", {"page": 2})

    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_an_empty_board_is_an_empty_first_page(api, db):
    assert board(api) == {"count": 0, "next": None, "previous": None, "results": []}


@pytest.mark.parametrize("params", [{"period": "year"}, {"preset": "poker"}])
def test_unknown_filter_values_are_refused_with_their_names(api, db, params):
    response = api.get("/api/leaderboard/", params)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and set(response.json()["fields"]) == set(params)


def test_a_row_has_exactly_the_documented_shape(api, alice):
    from api.serializers import StandingSerializer

    entry(alice, 2, won=True)

    row = board(api)["results"][0]

    assert set(row) == set(StandingSerializer().fields)
    assert set(row["player"]) == {"id", "display_name", "is_bot"}


def rated(player, ordinal, *, preset="classic", hands=1):
    from scoring.models import Rating

    return Rating.objects.create(player=player, preset=preset, mu=ordinal + 3.0, sigma=1.0, ordinal=ordinal, hands=hands)


def test_the_rating_board_ranks_one_presets_players_by_rating(api, alice, bob, charlie):
    entry(alice, 30, won=True)
    entry(bob, -5, won=False)
    rated(alice, 2.5)
    rated(bob, 9.126)
    rated(charlie, 20.0, preset="qingdao")
    rated(player_bot(number=1), 50.0)  # bots are rated, never ranked

    body = board(api, order="rating", preset="classic")

    assert body["count"] == 2
    assert [(r["rank"], r["player"]["display_name"], r["rating"], r["points"], r["hands"])
            for r in body["results"]] == [(1, "bob", 9.13, -5, 1), (2, "alice", 2.5, 30, 1)]


def test_the_points_board_of_a_preset_shows_each_rating(api, alice, bob):
    entry(alice, 3, won=True)
    entry(bob, 1, won=True)
    rated(alice, 4.0)

    rated(bob, 7.0, preset="qingdao")

    assert [r["rating"] for r in board(api, preset="classic")["results"]] == [4.0, None]
    assert [r["rating"] for r in board(api)["results"]] == [4.0, 7.0]  # without a preset: the best


def test_the_rating_board_of_a_period_lists_who_played_in_it(api, alice, bob):
    entry(alice, 1, won=True, when=NOON - timedelta(days=20))
    entry(bob, 1, won=True, when=NOON - timedelta(days=2))
    rated(alice, 9.0)
    rated(bob, 3.0)

    with mock.patch("django.utils.timezone.now", return_value=NOON):
        assert names(board(api, order="rating", period="7d")) == ["bob"]
        assert names(board(api, order="rating", period="30d")) == ["alice", "bob"]


def test_min_hands_leaves_off_players_with_fewer_hands(api, alice, bob):
    for _ in range(3):
        entry(alice, 1, won=True)
    entry(bob, 10, won=True)
    rated(alice, 1.0, hands=3)
    rated(bob, 8.0, hands=1)

    assert names(board(api, min_hands=3)) == ["alice"]
    assert names(board(api, min_hands=2, order="rating", preset="classic")) == ["alice"]
    assert names(board(api, min_hands=0, order="rating", preset="classic")) == ["bob", "alice"]


@pytest.mark.parametrize("params", [{"order": "skill"}, {"min_hands": -1}])
def test_a_bad_order_or_minimum_is_refused(api, db, params):
    response = api.get("/api/leaderboard/", params)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and set(response.json()["fields"]) == set(params)
