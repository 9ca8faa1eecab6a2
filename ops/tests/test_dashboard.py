"""The admin's live dashboard: for staff only; rooms playing, hands per hour, error codes."""

import pytest

from rooms import telemetry
from rooms.models import Player
from rooms.services import hand_start


@pytest.fixture
def olga(db):
    return Player.objects.create_user(username="olga", password="moderator-pass-1", is_staff=True,
                                      display_name="Olga")


def test_only_staff_see_it(client, alice):
    client.force_login(alice)
    assert client.get("/admin/live/").status_code == 302  # to the admin's login


def test_it_lists_rooms_playing_hands_and_error_codes(client, olga, full_table):
    room = full_table("qingdao")
    hand = hand_start(room_id=room.pk)
    telemetry.ERRORS.labels("not_your_turn").inc()
    client.force_login(olga)
    page = client.get("/admin/live/").content.decode()
    assert f'data-room="{room.pk}"' in page and f"#{hand.number}" in page and "qingdao" in page
    assert f'href="/rooms/{room.pk}/"' in page  # its live table
    assert "1 started and 0 finished in the last hour" in page
    assert "<td>not_your_turn</td>" in page
