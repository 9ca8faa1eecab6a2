"""A void hand (黄庄: nobody takes the throne) is redealt at once, unscored."""

from baohuang import engine
from rooms.models import Hand, Room
from rooms.services import hand_act, hand_start
from scoring.models import LedgerEntry


def test_a_void_hand_is_redealt_at_once(full_table):
    room = full_table("lianzhong")
    hand = hand_start(room_id=room.pk)
    change = None
    while hand.running:
        seat = engine.actors(hand.state)[0]
        change = hand_act(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=hand.version)
        hand.refresh_from_db()

    assert hand.phase == "void" and hand.result["void"] and not hand.scored
    assert not LedgerEntry.objects.filter(hand=hand).exists()
    redeal = change.next_hand
    assert redeal is not None and redeal.number == 2 and redeal.running
    assert Hand.objects.get(room=room, ended__isnull=True) == redeal
    assert redeal.seed != hand.seed and redeal.phase == "bidding"
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
