"""Rooms nobody is connected to are closed between hands (rooms_close_abandoned)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from rooms import selectors
from rooms.models import Room
from rooms.services import hand_start, room_create, rooms_close_abandoned, seat_leave, seat_online, seat_take
from rooms.tests.abandoned import room_with_debt
from scoring.models import LedgerEntry, TributeDebt

LATER = timedelta(seconds=601)  # past the default ABANDONED_ROOM_SECONDS (600)


def test_a_room_is_unattended_from_creation_until_a_seated_player_connects(alice, bob):
    room = room_create(creator=alice, name="new", preset="classic")
    assert room.unattended_since is not None
    seat_take(room_id=room.pk, player=alice)
    seat_take(room_id=room.pk, player=bob)
    seat_online(room_id=room.pk, player=alice, online=True)
    seat_online(room_id=room.pk, player=bob, online=True)
    room.refresh_from_db()
    assert room.unattended_since is None

    seat_online(room_id=room.pk, player=alice, online=False)
    room.refresh_from_db()
    assert room.unattended_since is None  # bob is still there
    seat_leave(room_id=room.pk, player=bob)
    room.refresh_from_db()
    assert room.unattended_since is not None


def test_an_abandoned_room_is_dissolved_its_debts_converted_and_it_leaves_the_list(players):
    room = room_with_debt(players)
    assert room in selectors.rooms_open()

    assert rooms_close_abandoned(now=timezone.now() + LATER) == 1

    room.refresh_from_db()
    assert room.status == Room.Status.DISSOLVED and room not in selectors.rooms_open()
    assert TributeDebt.objects.get(room=room).status == TributeDebt.Status.CONVERTED
    converted = dict(LedgerEntry.objects.filter(kind=LedgerEntry.Kind.TRIBUTE_POINTS).values_list("player", "points"))
    assert converted == {players[1].pk: -2, players[0].pk: 2}


def test_a_room_is_kept_until_the_time_has_passed(players):
    room = room_with_debt(players)
    assert rooms_close_abandoned(now=timezone.now() + LATER - timedelta(seconds=30)) == 0
    room.refresh_from_db()
    assert room.status == Room.Status.OPEN


def test_a_room_with_a_connected_player_stays(players):
    room = room_with_debt(players)
    seat_online(room_id=room.pk, player=players[3], online=True)

    assert rooms_close_abandoned(now=timezone.now() + LATER) == 0
    room.refresh_from_db()
    assert room.status == Room.Status.OPEN
    assert TributeDebt.objects.get(room=room).status == TributeDebt.Status.OPEN


def test_a_running_hand_is_never_cut_short(full_table):
    room = full_table("classic")
    hand = hand_start(room_id=room.pk)

    assert rooms_close_abandoned(now=timezone.now() + LATER) == 0
    hand.refresh_from_db()
    assert hand.running


@pytest.mark.parametrize("seconds", [30, 10])
def test_the_time_is_a_setting(players, settings, seconds):
    settings.ABANDONED_ROOM_SECONDS = seconds
    room_with_debt(players)
    assert rooms_close_abandoned(now=timezone.now() + timedelta(seconds=seconds + 1)) == 1
