"""The admin: every model listed, actions through the services, logs read-only."""

import re

import pytest
from django.urls import reverse

from rooms.models import Hand, Player, Room, Seat
from rooms.services import hand_start
from rooms.tests.play import step
from scoring.models import LedgerEntry


@pytest.fixture
def admin_client(client, db):
    boss = Player.objects.create_superuser("boss", "boss@example.org", "pw-boss-123", display_name="boss")
    client.force_login(boss)
    return client


@pytest.mark.parametrize(
    "model", ["rooms/player", "rooms/room", "rooms/seat", "rooms/hand", "rooms/handevent", "rooms/chatmessage",
              "scoring/ledgerentry", "scoring/tributedebt"],
)
def test_every_model_has_a_searchable_changelist(admin_client, model):
    assert admin_client.get(f"/admin/{model}/?q=alice").status_code == 200


def test_kick_action_goes_through_the_service(admin_client, full_table, players):
    room = full_table("classic")
    hand_start(room_id=room.pk)
    seat = Seat.objects.get(room=room, index=3)
    response = admin_client.post(
        reverse("admin:rooms_seat_changelist"), {"action": "kick", "_selected_action": [seat.pk]}, follow=True
    )
    assert response.status_code == 200
    seat.refresh_from_db()
    assert seat.left and seat.trustee
    assert LedgerEntry.objects.get(player=players[3]).points == -40


def test_dissolve_action_abandons_the_running_hand(admin_client, full_table):
    room = full_table("classic")
    hand = hand_start(room_id=room.pk)
    admin_client.post(reverse("admin:rooms_room_changelist"), {"action": "dissolve", "_selected_action": [room.pk]})
    room.refresh_from_db()
    hand.refresh_from_db()
    assert room.status == Room.Status.DISSOLVED
    assert hand.phase == Hand.Phase.ABANDONED and not hand.running and not hand.scored


def test_hand_page_shows_the_event_log_and_a_replay_check(admin_client, full_table):
    hand = hand_start(room_id=full_table("qingdao").pk)
    for _ in range(4):
        step(hand.pk)
    page = admin_client.get(reverse("admin:rooms_hand_change", args=[hand.pk])).content.decode()
    assert "matches the stored state" in page
    assert page.count("<tr><td>") == 4


def test_hand_events_and_ledger_entries_cannot_be_changed_or_deleted(admin_client, full_table, players):
    hand = hand_start(room_id=full_table("classic").pk)
    step(hand.pk)
    event = hand.events.get()
    assert admin_client.post(reverse("admin:rooms_handevent_delete", args=[event.pk]), {"post": "yes"}).status_code == 403
    entry = LedgerEntry.objects.create(player=players[0], kind="adjustment", points=5, note="test")
    url = reverse("admin:scoring_ledgerentry_change", args=[entry.pk])
    admin_client.post(url, {"points": 500, "note": "edited"})
    entry.refresh_from_db()
    assert entry.points == 5
    assert admin_client.post(reverse("admin:scoring_ledgerentry_delete", args=[entry.pk]), {"post": "yes"}).status_code == 403


def test_adjustment_from_the_admin_is_a_new_entry(admin_client, alice):
    response = admin_client.post(
        reverse("admin:scoring_ledgerentry_add"), {"player": alice.pk, "points": 7, "note": "server outage"}
    )
    assert response.status_code == 302
    entry = LedgerEntry.objects.get(player=alice)
    assert (entry.kind, entry.points, entry.note) == ("adjustment", 7, "server outage")
    assert entry.staff.username == "boss"  # who made it, shown in the admin's list
    listed = admin_client.get(reverse("admin:scoring_ledgerentry_changelist")).content.decode()
    assert re.search(r'<td class="field-staff[^"]*">boss</td>', listed)


def test_an_account_with_a_password_can_be_added(admin_client):
    url = reverse("admin:rooms_player_add")
    assert admin_client.get(url).status_code == 200
    response = admin_client.post(url, {"username": "frank", "display_name": "Frank",
                                       "password1": "a-long-pass-9281", "password2": "a-long-pass-9281"})
    assert response.status_code == 302
    frank = Player.objects.get(username="frank")
    assert frank.display_name == "Frank" and frank.check_password("a-long-pass-9281")


def test_what_was_said_at_a_table_can_be_read_and_searched_never_changed(admin_client, full_table, players):
    from rooms.services import chat_say

    room = full_table("classic")
    said = chat_say(room_id=room.pk, player=players[1], text="出得真慢")
    chat_say(room_id=room.pk, player=players[2], text="hello")
    page = admin_client.get("/admin/rooms/chatmessage/?q=真慢")
    assert page.status_code == 200 and "出得真慢" in page.text and "hello" not in page.text
    assert said.seat == 1
    assert admin_client.post(f"/admin/rooms/chatmessage/{said.pk}/delete/").status_code == 403
