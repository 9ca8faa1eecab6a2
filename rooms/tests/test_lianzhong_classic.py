"""lianzhong_classic (联众经典) through the product: the room form and lobby, a whole hand
played through the services (托管's answers), its ledger, the leaderboard filter and the API."""

import pytest
from django.urls import reverse

from rooms.models import Room
from rooms.services import hand_start
from rooms.tests.play import play_to_end
from scoring.models import LedgerEntry

pytestmark = pytest.mark.django_db
PRESET = "lianzhong_classic"


def test_the_room_form_offers_it_and_the_lobby_names_it_in_chinese(client, alice):
    client.force_login(alice)
    form = client.get("/").content.decode()
    assert f'value="{PRESET}"' in form and "联众经典" in form
    response = client.post(reverse("rooms:room_new"), {
        "name": "经典桌", "preset": PRESET, "timer_play": 30, "timer_bid": 12, "timer_declare": 10,
        "hold_sixes": "on", "grab_solo": "on", "trustee_level": "novice", "allow_bots": "on",
        "allow_spectators": "on", "trustee_delay": "0.5", "bots": 0})
    room = Room.objects.get()
    assert response.status_code == 302 and room.preset == PRESET
    assert room.options["hold_sixes"] is True and room.options["grab_solo"] is True
    assert "联众经典" in client.get("/").content.decode()


def test_a_hand_is_played_scored_and_ranked_under_its_preset(client, api_client, full_table,
                                                              players):
    room = full_table(PRESET)
    hand = play_to_end(hand_start(room_id=room.pk).pk)
    assert hand.preset == PRESET and hand.state["phase"] == "ended"
    result = hand.result
    assert result["emperor"] is not None and sum(result["scores"]) == 0
    entries = LedgerEntry.objects.filter(hand=hand)
    assert {entry.preset for entry in entries} == {PRESET}
    assert sorted(entry.points for entry in entries) == sorted(result["scores"])

    page = client.get(reverse("rooms:leaderboard"), {"preset": PRESET})
    assert page.status_code == 200 and "联众经典" in page.content.decode()
    assert {row["player_id"] for row in page.context["rows"]} == {player.pk for player in players}
    assert not client.get(reverse("rooms:leaderboard"), {"preset": "lianzhong"}).context["rows"]

    board = api_client.get("/api/leaderboard/", {"preset": PRESET})
    assert board.status_code == 200 and len(board.json()["results"]) == 5
    rooms = api_client.get("/api/rooms/", {"preset": PRESET}).json()["results"]
    assert [listed["id"] for listed in rooms] == [room.pk]


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()
