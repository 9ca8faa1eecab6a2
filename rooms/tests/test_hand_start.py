"""Dealing a hand: five players, one hand at a time, deadline from the room's timer."""

from datetime import timedelta

import pytest
from django.utils import timezone

from baohuang import engine
from baohuang.errors import ServiceError
from rooms.models import Room
from rooms.services import hand_start, room_create, seat_take


def test_start_needs_five_players(alice, bob):
    room = room_create(creator=alice, name="Jinan", preset="classic")
    seat_take(room_id=room.pk, player=alice)
    seat_take(room_id=room.pk, player=bob)
    with pytest.raises(ServiceError) as error:
        hand_start(room_id=room.pk)
    assert error.value.code == "not_full"


def test_start_deals_the_engine_hand_and_opens_a_bid(full_table, players):
    room = full_table("classic", timers={"bid": 30})
    before = timezone.now()
    hand = hand_start(room_id=room.pk)

    assert hand.number == 1 and hand.version == 0 and hand.phase == "bidding"
    assert hand.state == engine.new_hand("classic", hand.seed, options=hand.options, salt=hand.salt)
    assert hand.players == [player.pk for player in players]
    assert before + timedelta(seconds=30) <= hand.deadline <= timezone.now() + timedelta(seconds=30)
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING


def test_one_hand_at_a_time(full_table):
    room = full_table()
    hand_start(room_id=room.pk)
    with pytest.raises(ServiceError) as error:
        hand_start(room_id=room.pk)
    assert error.value.code == "hand_running"


def test_hand_options_are_the_engine_part_of_the_room_options(full_table):
    room = full_table("lianzhong", hold_sixes=False, grab_solo=True, card_counter=False)
    hand = hand_start(room_id=room.pk)
    assert hand.options == {"hold_sixes": False, "grab_solo": True, "card_counter": False}
    assert hand.state["options"]["hold_sixes"] is False
