"""A qingdao room between hands with an open 进贡 debt, for the abandoned-room tests."""

from django.utils import timezone

from rooms.models import Hand, Room
from rooms.services import hand_start, room_create, seat_take
from scoring.services import debts_create


def room_with_debt(players, *, name="qingdao"):
    """alice … erin seated; a hand that ended (as if played out) left bob owing alice 2 cards."""
    room = room_create(creator=players[0], name=name, preset="qingdao")
    for index, player in enumerate(players):
        seat_take(room_id=room.pk, player=player, index=index)
    hand = hand_start(room_id=room.pk)
    Hand.objects.filter(pk=hand.pk).update(phase=Hand.Phase.ENDED, ended=timezone.now(), deadline=None, scored=True)
    Room.objects.filter(pk=room.pk).update(status=Room.Status.OPEN)
    debts_create(hand=hand, debts=[{"from": 1, "to": 0, "cards": 2, "kind": "highest"}])
    room.refresh_from_db()
    return room
