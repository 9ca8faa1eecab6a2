"""托管 run by a real Celery worker (RULES §8): entered by timeout, button or leaving; locked
on after more than three entries; a hand ending under 托管 dissolves the room, and an
all-托管 hand is not scored.

Hands are short deals written in RULES §1 notation, put in place of the random deal right
after `hand_start` (test-only), so each plays out in a few moves.
"""

import pytest
from django.db import transaction

from baohuang import engine
from baohuang.errors import ServiceError
from rooms.services.bots import seat_add_bot
from rooms.models import Hand, Room, Seat
from rooms.services import (hand_act_for, hand_start, player_guest, room_create, room_dissolve, seat_leave,
                            seat_take, trustee_set)
from rooms.services.schedule import schedule_decision
from rooms.tests.play import deal_instead
from rooms.tests.worker import celery_workers, wait_for, worker  # noqa: F401  (fixtures)
from scoring.models import LedgerEntry

NAMES = ("alice", "bob", "charlie", "dave", "erin")
# lianzhong, emperor 0 and guard 2 (SJ*): a dozen moves to the end.
SHORT_DEAL = ["BJ* 9S 6D", "6C 8H", "SJ* KC", "7C TC", "TS JD"]


def room_of(*, humans: int, timers: int | None = None):
    """A lianzhong room (no 憋6) of ``humans`` players, bots in the other seats; 托管
    seats and bots move at once."""
    players = [player_guest(nickname=name) for name in NAMES[:humans]]
    room = room_create(creator=players[0], name="托管", preset="lianzhong", options={"hold_sixes": False})
    options = {**room.options, "trustee_delay": 0}
    if timers is not None:  # test-only: below the 5 s minimum
        options["timers"] = {"play": timers, "bid": timers, "declare": timers}
    Room.objects.filter(pk=room.pk).update(options=options)
    for index, player in enumerate(players):
        seat_take(room_id=room.pk, player=player, index=index)
    for _ in range(5 - humans):
        seat_add_bot(room_id=room.pk, by=players[0])
    return room, players


def short_hand(room) -> Hand:
    """Deal, put SHORT_DEAL in place of the random cards (version 0, play opens) in the
    same transaction, then arm the short deal's first decision."""
    with transaction.atomic():
        hand = hand_start(room_id=room.pk)
        state = engine.state_from_hands("lianzhong", SHORT_DEAL, emperor=0, guard=2,
                                        options={"hold_sixes": False})
        deal_instead(hand, state)
    # What the random deal armed finds its seat not awaited and does nothing.
    hand.refresh_from_db()
    schedule_decision(hand)
    return hand


def ended(hand: Hand):
    hand.refresh_from_db()
    return hand if not hand.running else None


@pytest.mark.django_db(transaction=True)
def test_a_timeout_is_an_entry_and_more_than_three_lock_trustee_on(worker):
    room, players = room_of(humans=5, timers=2)
    hand = hand_start(room_id=room.pk)
    seat = engine.actors(hand.state)[0]
    wait_for(lambda: Seat.objects.filter(room=room, index=seat, trustee=True).first(), seconds=5)

    for _ in range(2):  # entries 2 and 3 by the button: the player may still leave 托管
        trustee_set(room_id=room.pk, seat=seat, on=False, player=players[seat])
        trustee_set(room_id=room.pk, seat=seat, on=True, player=players[seat])
    trustee_set(room_id=room.pk, seat=seat, on=False, player=players[seat])
    mine = trustee_set(room_id=room.pk, seat=seat, on=True, player=players[seat])
    assert mine.trustee_entries == 4 and mine.trustee_locked
    with pytest.raises(ServiceError) as error:
        trustee_set(room_id=room.pk, seat=seat, on=False, player=players[seat])
    assert error.value.code == "trustee_locked"
    assert Seat.objects.get(room=room, index=seat).trustee
    room_dissolve(room_id=room.pk)


@pytest.mark.django_db(transaction=True)
def test_an_all_trustee_hand_is_played_out_not_scored_and_dissolves_the_room(worker):
    room, players = room_of(humans=5)
    hand = short_hand(room)
    for seat, player in enumerate(players):
        trustee_set(room_id=room.pk, seat=seat, on=True, player=player)

    hand = wait_for(lambda: ended(hand), seconds=20)

    assert hand.phase == Hand.Phase.ENDED and sorted(hand.result["places"]) == [0, 1, 2, 3, 4]
    assert hand.events.filter(by_trustee=False).count() == 0
    assert not hand.scored and not LedgerEntry.objects.filter(hand=hand).exists()
    room.refresh_from_db()
    assert room.status == Room.Status.DISSOLVED


@pytest.mark.django_db(transaction=True)
def test_a_hand_ending_with_one_trustee_seat_is_scored_and_dissolves_the_room(worker):
    room, players = room_of(humans=1)  # alice and four bots
    hand = short_hand(room)
    trustee_set(room_id=room.pk, seat=0, on=True, player=players[0])  # the 托管 button

    hand = wait_for(lambda: ended(hand), seconds=20)

    assert hand.phase == Hand.Phase.ENDED and hand.scored
    assert LedgerEntry.objects.filter(hand=hand).count() == 5
    assert set(hand.events.filter(by_trustee=True).values_list("seat", flat=True)) == {0}
    room.refresh_from_db()
    assert room.status == Room.Status.DISSOLVED


@pytest.mark.django_db(transaction=True)
def test_a_player_who_leaves_mid_hand_is_played_for_to_the_end(worker):
    room, players = room_of(humans=1)
    hand = short_hand(room)
    seat_leave(room_id=room.pk, player=players[0])  # −40, and 托管 to the end (RULES §8)

    hand = wait_for(lambda: ended(hand), seconds=20)

    assert hand.scored and hand.events.filter(seat=0, by_trustee=True).exists()
    room.refresh_from_db()
    assert room.status == Room.Status.DISSOLVED


@pytest.mark.django_db
@pytest.mark.parametrize("level, lead", [("novice", "7S"), ("normal", "KS KH")])
def test_the_rooms_trustee_level_plays_for_a_timed_out_seat(level, lead):
    # Nobody else holds two cards: the strong policy (普通) keeps the lead with K K, the
    # baseline (入门) plays its smallest single.
    alice = player_guest(nickname="alice")
    room = room_create(creator=alice, name="托管", preset="lianzhong",
                       options={"hold_sixes": False, "trustee_level": level})
    seat_take(room_id=room.pk, player=alice, index=0)
    for _ in range(4):
        seat_add_bot(room_id=room.pk, by=alice)
    hand = hand_start(room_id=room.pk)
    state = engine.state_from_hands("lianzhong", ["BJ* KS KH 7S", "6C", "SJ*", "7C", "TS"], emperor=0,
                                    guard=2, options={"hold_sixes": False})
    deal_instead(hand, state)

    hand_act_for(hand_id=hand.pk, seat=0, version=0, reason="timeout")

    event = hand.events.get(version=1)
    assert event.action == {"seat": 0, "type": "play", "cards": lead} and event.by_trustee
