"""Driving hands through the services in tests, the way clients and timers would."""

from django.db import transaction
from django.utils import timezone

from baohuang import engine
from rooms.models import Hand, Room, Seat
from rooms.services import hand_act, hand_act_for, hand_start
from rooms.services.common import running_hand
from rooms.services.held import HELD
from scoring.services import hand_score


def deal_instead(hand: Hand, state: dict) -> None:
    """Put ``state`` (say `engine.state_from_hands`) in place of the hand's random deal, as
    only a test may: behind the services' back. So this process's held copy of the table
    (`rooms.services.held`) is dropped too, once the transaction that dealt has held it."""
    Hand.objects.filter(pk=hand.pk).update(state=state, phase=state["phase"])
    transaction.on_commit(HELD.clear)


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


def finished_by_engine(room) -> Hand:
    """Deal a hand (or take the one five bots dealt as the fifth sat down: bots are always
    ready) and score it as `rooms.services` does at its end, the moves made by the engine
    alone (playing every move through the services takes half a minute a hand)."""
    hand = running_hand(room) or hand_start(room_id=room.pk)
    state = hand.state
    while engine.result(state) is None:
        state, _ = engine.apply(state, engine.autoplay(state, engine.actors(state)[0]))
    assert not engine.result(state)["void"]  # the fixed seeds deal no 黄庄
    hand.state, hand.result, hand.ended, hand.scored, hand.phase = state, engine.result(state), timezone.now(), True, "ended"
    hand.save()
    Room.objects.filter(pk=room.pk).update(status=Room.Status.OPEN)
    hand_score(hand=hand, scores=hand.result["scores"])
    return hand
