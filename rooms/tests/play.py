"""Driving hands through the services in tests, the way clients and timers would."""

from baohuang import engine
from rooms.models import Hand, Seat
from rooms.services import hand_act, hand_act_for


def step(hand_id: int, action: dict | None = None):
    """One move for the seat now awaited: `action`, or the baseline policy's choice.

    A seat under 托管 is played by `hand_act_for(reason="trustee")`, as its timer would.
    """
    hand = Hand.objects.get(pk=hand_id)
    seat = engine.actors(hand.state)[0]
    if Seat.objects.get(room_id=hand.room_id, index=seat).trustee:
        return hand_act_for(hand_id=hand_id, seat=seat, version=hand.version, reason="trustee")
    if action is None:
        action = engine.autoplay(hand.state, seat)
    return hand_act(hand_id=hand_id, seat=seat, action=action, expected_version=hand.version)


def play_to_end(hand_id: int, *, limit: int = 5000) -> Hand:
    """Play the hand to its end; returns it fresh from the database."""
    for _ in range(limit):
        hand = Hand.objects.get(pk=hand_id)
        if not hand.running:
            return hand
        step(hand_id)
    raise AssertionError(f"hand {hand_id} did not end in {limit} moves")


def actions_of(hand: Hand) -> list[dict]:
    return list(hand.events.order_by("version").values_list("action", flat=True))
