"""托管: the button, timeouts, the lock after three entries, acting for absent seats."""

import pytest

from baohuang import engine
from baohuang.errors import ServiceError
from rooms.models import HandEvent, Room, Seat
from rooms.services import hand_act, hand_act_for, hand_start, trustee_set
from rooms.tests.play import play_to_end
from scoring.models import LedgerEntry


def test_more_than_three_entries_lock_trustee_on(full_table):
    room = full_table("classic")
    hand_start(room_id=room.pk)
    for _ in range(3):
        trustee_set(room_id=room.pk, seat=0, on=True)
        trustee_set(room_id=room.pk, seat=0, on=False)
    seat = trustee_set(room_id=room.pk, seat=0, on=True)
    assert seat.trustee_entries == 4 and seat.trustee_locked
    with pytest.raises(ServiceError) as error:
        trustee_set(room_id=room.pk, seat=0, on=False)
    assert error.value.code == "trustee_locked"
    assert Seat.objects.get(room=room, index=0).trustee


def test_turning_trustee_on_twice_counts_once(full_table):
    room = full_table("classic")
    hand_start(room_id=room.pk)
    trustee_set(room_id=room.pk, seat=1, on=True)
    assert trustee_set(room_id=room.pk, seat=1, on=True).trustee_entries == 1


def test_trustee_needs_a_running_hand(full_table):
    room = full_table("classic")
    with pytest.raises(ServiceError) as error:
        trustee_set(room_id=room.pk, seat=1, on=True)
    assert error.value.code == "no_hand"


def test_entries_are_counted_per_hand(full_table):
    room = full_table("classic")
    hand = hand_start(room_id=room.pk)
    trustee_set(room_id=room.pk, seat=1, on=True)
    trustee_set(room_id=room.pk, seat=1, on=False)
    play_to_end(hand.pk)
    hand_start(room_id=room.pk)
    assert Seat.objects.get(room=room, index=1).trustee_entries == 0


def test_timeout_acts_with_the_policy_and_puts_the_seat_under_trustee(full_table):
    room = full_table("classic")
    hand = hand_start(room_id=room.pk)
    seat = engine.actors(hand.state)[0]
    change = hand_act_for(hand_id=hand.pk, seat=seat, version=0, reason="timeout")

    event = HandEvent.objects.get(hand=hand)
    assert event.by_trustee and event.action == engine.autoplay(hand.state, seat)
    assert change.events[0]["version"] == 1
    mine = Seat.objects.get(room=room, index=seat)
    assert mine.trustee and mine.trustee_entries == 1


def test_act_for_is_a_noop_once_the_version_moved(full_table):
    room = full_table("classic")
    hand = hand_start(room_id=room.pk)
    seat = engine.actors(hand.state)[0]
    hand_act(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=0)

    assert hand_act_for(hand_id=hand.pk, seat=seat, version=0, reason="timeout") is None
    assert HandEvent.objects.filter(hand=hand).count() == 1
    assert not Seat.objects.get(room=room, index=seat).trustee


def test_act_for_a_seat_not_awaited_or_not_under_trustee_does_nothing(full_table):
    room = full_table("classic")
    hand = hand_start(room_id=room.pk)
    seat = engine.actors(hand.state)[0]
    other = (seat + 1) % 5
    assert hand_act_for(hand_id=hand.pk, seat=other, version=0, reason="timeout") is None
    assert hand_act_for(hand_id=hand.pk, seat=seat, version=0, reason="trustee") is None
    assert not HandEvent.objects.filter(hand=hand).exists()


def test_a_hand_with_every_seat_under_trustee_is_not_scored_and_dissolves_the_room(full_table):
    room = full_table("qingdao")
    hand = hand_start(room_id=room.pk)
    for seat in range(5):
        trustee_set(room_id=room.pk, seat=seat, on=True)
    hand = play_to_end(hand.pk)

    assert hand.result is not None and not hand.scored
    assert not LedgerEntry.objects.filter(hand=hand).exists()
    assert not hand.debts_created.exists()  # no tribute from an unscored hand
    room.refresh_from_db()
    assert room.status == Room.Status.DISSOLVED
    assert not Seat.objects.filter(room=room, player__isnull=False).exists()
