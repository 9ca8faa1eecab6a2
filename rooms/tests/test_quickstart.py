"""Quick start: 和机器人打一局 (four bots, dealt) and 找人打 (the fullest waiting table)."""

import threading

import pytest
from django.db import connection
from django.urls import reverse

from rooms.models import Room
from rooms.quickstart import quick_bots, quick_match
from rooms.services import hand_start, player_bot, player_guest, room_create, seat_take


def test_play_with_bots_deals_a_hand_with_the_player_and_four_bots(alice):
    hand = quick_bots(player=alice, preset="qingdao", name="quick")

    assert hand.running and hand.preset == "qingdao"
    seats = list(hand.room.seats.select_related("player").order_by("index"))
    assert seats[0].player == alice and all(seat.player.is_bot for seat in seats[1:])
    assert hand.players[0] == alice.pk


def test_find_players_opens_a_table_and_the_next_player_joins_it(alice, bob):
    first = quick_match(player=alice, preset="classic", name="alice's")
    second = quick_match(player=bob, preset="classic", name="bob's")

    assert second == first
    assert set(first.seats.exclude(player=None).values_list("player", flat=True)) == {alice.pk, bob.pk}


def test_find_players_picks_the_table_with_most_people_waiting(alice, bob, charlie, dave):
    lonely = quick_match(player=alice, preset="lianzhong", name="a")
    crowded = room_create(creator=bob, name="b", preset="lianzhong")
    seat_take(room_id=crowded.pk, player=bob)
    seat_take(room_id=crowded.pk, player=charlie)
    seat_take(room_id=crowded.pk, player=player_bot(number=1))  # bots are not people waiting

    assert quick_match(player=dave, preset="lianzhong", name="d") == crowded
    assert lonely.seats.exclude(player=None).count() == 1


def test_find_players_skips_full_playing_and_other_preset_tables(full_table, alice, bob):
    full_table("qingdao")  # five people: no seat
    other = quick_match(player=alice, preset="classic", name="a")

    mine = quick_match(player=bob, preset="qingdao", name="b")

    assert mine != other and mine.preset == "qingdao" and mine.seats.exclude(player=None).count() == 1


def test_a_player_already_waiting_goes_back_to_that_table(alice):
    first = quick_match(player=alice, preset="classic", name="a")
    assert quick_match(player=alice, preset="classic", name="a") == first
    assert Room.objects.count() == 1


def test_one_tap_from_the_lobby_makes_a_guest_and_deals(client, db):
    response = client.post(reverse("rooms:quick_bots"), {"preset": "lianzhong"})

    room = Room.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("rooms:table", args=[room.pk])
    assert room.hands.get().running
    guest = room.seats.get(index=0).player
    assert not guest.is_bot and guest.display_name.startswith("游客")


def test_find_players_from_the_lobby_lands_two_players_at_one_table(client, alice, bob):
    client.force_login(alice)
    first = client.post(reverse("rooms:quick_match"), {"preset": "classic"})
    client.force_login(bob)
    second = client.post(reverse("rooms:quick_match"), {"preset": "classic"})

    assert first["Location"] == second["Location"] == reverse("rooms:table", args=[Room.objects.get().pk])


def test_an_unknown_preset_changes_nothing(client, alice):
    client.force_login(alice)
    response = client.post(reverse("rooms:quick_bots"), {"preset": "poker"})
    assert response.status_code == 302 and response["Location"] == reverse("rooms:lobby")
    assert not Room.objects.exists()
    assert client.get(reverse("rooms:quick_bots")).status_code == 405


def test_a_room_with_a_running_hand_is_not_offered(full_table, alice):
    room = full_table("classic")
    hand_start(room_id=room.pk)
    assert quick_match(player=alice, preset="classic", name="a") != room


@pytest.mark.django_db(transaction=True)
def test_two_players_finding_players_at_the_same_moment_share_a_table():
    if connection.vendor != "postgresql":
        pytest.skip("two connections at once: needs PostgreSQL")
    people = [player_guest(nickname=name) for name in ("alice", "bob", "charlie")]
    barrier, rooms = threading.Barrier(len(people)), []

    def find(player):
        try:
            barrier.wait()
            rooms.append(quick_match(player=player, preset="qingdao", name="x").pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=find, args=(player,)) for player in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(rooms) == 3 and len(set(rooms)) == 1
