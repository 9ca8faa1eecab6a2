"""Leaving and being kicked: −40 once a hand has started, the seat plays on under 托管."""

import pytest

from baohuang import engine
from baohuang.errors import ServiceError
from rooms.models import Room, Seat
from rooms.services import hand_start, player_kick, seat_leave, seat_take
from rooms.tests.play import play_to_end, step
from scoring.models import LedgerEntry
from scoring.selectors import player_total


def penalties(player):
    return list(LedgerEntry.objects.filter(player=player, kind="leave_penalty").values_list("points", flat=True))


def test_leaving_mid_hand_costs_40_and_the_hand_still_ends_and_scores(full_table, players):
    room = full_table("classic")
    hand = hand_start(room_id=room.pk)
    for _ in range(3):
        step(hand.pk)
    charlie = players[2]
    seat_leave(room_id=room.pk, player=charlie)

    seat = Seat.objects.get(room=room, index=2)
    assert seat.player == charlie and seat.left and seat.trustee and seat.trustee_entries == 1
    assert penalties(charlie) == [-40]

    hand = play_to_end(hand.pk)
    assert hand.scored
    assert hand.events.filter(seat=2, by_trustee=True).exists()
    scores = hand.result["scores"]
    assert player_total(player=charlie) == scores[2] - 40
    assert [player_total(player=p) for i, p in enumerate(players) if i != 2] == [s for i, s in enumerate(scores) if i != 2]
    room.refresh_from_db()
    assert room.status == Room.Status.DISSOLVED  # a seat was under 托管 at the end (RULES §8)


def test_a_player_who_left_cannot_act_or_leave_again(full_table, players):
    room = full_table("classic")
    hand = hand_start(room_id=room.pk)
    seat = engine.actors(hand.state)[0]
    seat_leave(room_id=room.pk, player=players[seat])
    with pytest.raises(ServiceError) as error:
        seat_leave(room_id=room.pk, player=players[seat])
    assert error.value.code == "not_seated"
    with pytest.raises(ServiceError) as error:
        from rooms.services import hand_act

        hand_act(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=0)
    assert error.value.code == "not_seated"


def test_leaving_between_hands_costs_nothing_and_frees_the_seat(full_table, players):
    room = full_table("classic")
    play_to_end(hand_start(room_id=room.pk).pk)
    seat_leave(room_id=room.pk, player=players[4])

    assert penalties(players[4]) == []
    assert Seat.objects.get(room=room, index=4).player is None
    room.refresh_from_db()
    assert room.status == Room.Status.OPEN


def test_kick_between_hands_also_costs_40(full_table, players, alice):
    room = full_table("classic")
    player_kick(room_id=room.pk, player=players[3], by=alice)
    assert penalties(players[3]) == [-40]
    assert Seat.objects.get(room=room, index=3).player is None


def test_kick_mid_hand_is_like_leaving(full_table, players):
    room = full_table("qingdao")
    hand = hand_start(room_id=room.pk)
    player_kick(room_id=room.pk, player=players[1])
    seat = Seat.objects.get(room=room, index=1)
    assert seat.left and seat.trustee and penalties(players[1]) == [-40]
    assert play_to_end(hand.pk).scored


def test_the_last_player_to_leave_dissolves_the_room(full_table, players):
    room = full_table("classic")
    for player in players:
        seat_leave(room_id=room.pk, player=player)
    room.refresh_from_db()
    assert room.status == Room.Status.DISSOLVED
    with pytest.raises(ServiceError) as error:
        seat_take(room_id=room.pk, player=players[0])
    assert error.value.code == "room_closed"
