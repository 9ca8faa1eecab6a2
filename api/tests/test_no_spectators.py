"""A room without spectators: its hands' view and events are for its players and staff only."""

import pytest

from api.tests.conftest import play_some
from rooms.services import hand_start, player_guest
from rooms.models import Player

PATHS = ("/api/hands/{}/", "/api/hands/{}/events/")


@pytest.fixture
def private_hand(full_table):
    room = full_table("classic", allow_spectators=False)
    return play_some(hand_start(room_id=room.pk).pk, 3)


@pytest.fixture
def staff(db):
    return Player.objects.create_user(username="sam", password="x", is_staff=True)


@pytest.mark.parametrize("path", PATHS)
def test_anonymous_clients_must_log_in(api, private_hand, path):
    response = api.get(path.format(private_hand.pk))

    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"


@pytest.mark.parametrize("path", PATHS)
def test_a_signed_in_stranger_is_refused(api, private_hand, path):
    api.force_login(player_guest(nickname="frank"))

    response = api.get(path.format(private_hand.pk))

    assert response.status_code == 403 and response.json()["code"] == "spectators_not_allowed"


@pytest.mark.parametrize("path", PATHS)
def test_its_players_and_staff_see_the_spectators_view(api, private_hand, players, staff, path):
    for user in (players[3], staff):
        api.force_login(user)

        response = api.get(path.format(private_hand.pk))

        assert response.status_code == 200
        body = response.json()
        assert "hand" not in (body.get("view") if isinstance(body, dict) else body[0]["event"] or {})


def test_an_ended_hand_with_public_records_is_public(api, ended_hand):
    hand = ended_hand("classic", allow_spectators=False, public_records=True)

    assert api.get(f"/api/hands/{hand.pk}/").status_code == 200
    assert api.get(f"/api/hands/{hand.pk}/events/").status_code == 200


def test_an_ended_hand_without_public_records_stays_private(api, ended_hand):
    hand = ended_hand("classic", allow_spectators=False)
    api.force_login(player_guest(nickname="frank"))

    assert api.get(f"/api/hands/{hand.pk}/").status_code == 403
    assert api.get(f"/api/hands/{hand.pk}/events/").status_code == 403
