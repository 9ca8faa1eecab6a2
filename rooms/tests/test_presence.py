"""A socket opening (rooms/presence.py `seat_connected_picture`): its seat shown online and
the room's picture for its snapshot, from one read of the room and its seats."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from rooms.models import Room, Seat
from rooms.presence import seat_connected_picture
from rooms.services import room_create, seat_take


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
