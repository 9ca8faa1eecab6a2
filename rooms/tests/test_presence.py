"""A socket opening (rooms/presence.py `seat_connected_picture`): its seat shown online and
the room's picture for its snapshot (`rooms.selectors.room_picture`), from one read of the
room and its seats."""

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from rooms.models import Hand, Player, Room, Seat
from rooms.presence import seat_connected_picture
from rooms.selectors import room_picture
from rooms.services import hand_start, player_guest, room_create, seat_leave, seat_take


def reads_of(queries, table: str) -> int:
    return sum(1 for query in queries if query["sql"].startswith("SELECT") and f'FROM "{table}"' in query["sql"])


def test_a_seated_players_socket_shows_its_seat_online_from_one_read_of_the_room(alice, bob):
    room = room_create(creator=alice, name="new", preset="classic")
    seat_take(room_id=room.pk, player=alice)
    with CaptureQueriesContext(connection) as captured:
        picture = seat_connected_picture(room_id=room.pk, player=alice)

    assert [seat.online for seat in picture.seats] == [True, False, False, False, False]
    assert picture.room.unattended_since is None
    assert Seat.objects.get(room=room, index=0).online
    assert Room.objects.get(pk=room.pk).unattended_since is None  # the room is attended
    assert reads_of(captured, "rooms_room") == 1 and reads_of(captured, "rooms_seat") == 1


def test_a_socket_of_a_player_without_a_seat_gets_the_picture_and_changes_nothing(alice, bob):
    room = room_create(creator=alice, name="new", preset="classic")
    seat_take(room_id=room.pk, player=alice)
    picture = seat_connected_picture(room_id=room.pk, player=bob)

    assert [seat.player_id for seat in picture.seats] == [alice.pk, None, None, None, None]
    assert not any(seat.online for seat in picture.seats)
    assert not Seat.objects.filter(room=room, online=True).exists()
    assert Room.objects.get(pk=room.pk).unattended_since is not None


def test_a_pictures_hand_names_its_players_from_the_seats_and_reads_only_those_gone(full_table, players):
    room = full_table("classic")
    hand = hand_start(room_id=room.pk)
    names = [player.display_name or player.username for player in players]
    with CaptureQueriesContext(connection) as captured:
        picture = room_picture(room.pk)
    assert [record["name"] for record in picture.players] == names
    assert reads_of(captured, Player._meta.db_table) == 0  # they came with the seats

    Hand.objects.filter(pk=hand.pk).update(ended=timezone.now())  # between hands: erin leaves, frank sits
    seat_leave(room_id=room.pk, player=players[4])
    seat_take(room_id=room.pk, player=player_guest(nickname="frank"), index=4)
    with CaptureQueriesContext(connection) as captured:
        picture = room_picture(room.pk)
    assert picture.seats[4].player.username != players[4].username
    assert [record["name"] for record in picture.players] == names  # the hand was erin's
    assert reads_of(captured, Player._meta.db_table) == 1
