"""Creating rooms, guests, and taking seats."""

import pytest

from baohuang.errors import ServiceError
from rooms.models import Room, Seat
from rooms.services import hand_start, player_bot, player_guest, room_create, seat_take


def code_of(call):
    with pytest.raises(ServiceError) as error:
        call()
    return error.value.code


def test_guest_is_a_player_with_a_nickname_and_no_password(db):
    guest = player_guest(nickname="  alice  ")
    assert guest.display_name == "alice"
    assert not guest.has_usable_password() and not guest.is_bot


@pytest.mark.parametrize("nickname", ["", "   ", "x" * 21, "bad\x00name"])
def test_bad_nickname_is_refused(db, nickname):
    assert code_of(lambda: player_guest(nickname=nickname)) == "bad_nickname"


def test_room_has_five_empty_seats_and_complete_options(alice):
    room = room_create(creator=alice, name="Jinan", preset="qingdao", options={"timers": {"play": 25}})
    assert room.status == Room.Status.OPEN
    assert [seat.index for seat in room.seats.all()] == [0, 1, 2, 3, 4]
    assert all(seat.player is None for seat in room.seats.all())
    assert room.options["timers"] == {"play": 25, "bid": 15, "declare": 8}


def test_unknown_preset_is_refused(alice):
    assert code_of(lambda: room_create(creator=alice, name="x", preset="poker")) == "bad_preset"


def test_seat_take_picks_the_lowest_free_seat(alice, bob):
    room = room_create(creator=alice, name="Jinan", preset="classic")
    seat_take(room_id=room.pk, player=alice, index=2)
    assert seat_take(room_id=room.pk, player=bob).index == 0


def test_a_taken_seat_cannot_be_taken(alice, bob):
    room = room_create(creator=alice, name="Jinan", preset="classic")
    seat_take(room_id=room.pk, player=alice, index=1)
    assert code_of(lambda: seat_take(room_id=room.pk, player=bob, index=1)) == "seat_taken"


def test_a_player_sits_once_per_room(alice):
    room = room_create(creator=alice, name="Jinan", preset="classic")
    seat_take(room_id=room.pk, player=alice)
    assert code_of(lambda: seat_take(room_id=room.pk, player=alice)) == "already_seated"


def test_a_sixth_player_finds_the_room_full(full_table):
    room = full_table()
    frank = player_guest(nickname="frank")
    assert code_of(lambda: seat_take(room_id=room.pk, player=frank)) == "room_full"


def test_bots_sit_only_where_allowed(alice):
    room = room_create(creator=alice, name="Jinan", preset="classic", options={"allow_bots": False})
    bot = player_bot(number=1)
    assert code_of(lambda: seat_take(room_id=room.pk, player=bot)) == "bots_not_allowed"


def test_nobody_sits_down_during_a_hand(full_table, players):
    room = full_table()
    hand_start(room_id=room.pk)
    Seat.objects.filter(room=room, index=4).update(player=None)  # as if the seat were empty
    frank = player_guest(nickname="frank")
    assert code_of(lambda: seat_take(room_id=room.pk, player=frank, index=4)) == "hand_running"
