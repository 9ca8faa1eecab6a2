"""The 表态 (declaration) window: silence is an answer (RULES §8 [decision]).

When a step's deadline passes, every seat still pending answers with its silent choice
(`an_bao` for the guard, `dark_solo` for a solo emperor, `none` otherwise), nobody enters
托管, and the window moves on. Nothing is answered for a seat before that deadline, so
what other seats see never depends on who the guard is.

Deals are written in RULES §1 notation (lianzhong, no 憋6) and put in place of the random
deal right after `hand_start` (test-only); the seat holding `BJ*` then accepts the throne.
"""

import pytest
from django.db import transaction

from baohuang import engine
from rooms.models import Hand, HandEvent, Room, Seat
from rooms.services import hand_act, hand_start, hand_window_close, room_dissolve
from rooms.tests.play import deal_instead
from rooms.tests.test_timers import LATE, short_timer_table
from rooms.tests.worker import celery_workers, wait_for, worker  # noqa: F401  (fixtures)

OPTIONS = {"hold_sixes": False}
# Seat 0 holds BJ* (and accepts): the guard is whoever holds SJ*. Seats 1 and 4 hold the
# same cards in every deal; seats 2 and 3 trade SJ* for a plain card.
GUARD_2 = ["BJ* 9S 7D", "8C 8H", "SJ* KC", "7C TC", "TS JD"]
GUARD_3 = ["BJ* 9S 7D", "8C 8H", "TH KC", "SJ* TC", "TS JD"]
SOLO = ["BJ* SJ* 7D", "8C 8H", "9S KC", "TH TC", "TS JD"]  # the emperor holds SJ*: 暗独


def at_window(room, hands) -> Hand:
    """Deal ``hands`` in place of the random cards, and let seat 0 accept the throne:
    the declaration window is open (version 1)."""
    with transaction.atomic():
        hand = hand_start(room_id=room.pk)
        state = engine.state_from_hands("lianzhong", hands, options=OPTIONS)
        deal_instead(hand, state)
    hand_act(hand_id=hand.pk, seat=0, action={"type": "accept"}, expected_version=0)
    hand.refresh_from_db()
    assert hand.phase == "declaring"
    return hand


def frames(deal, hand: Hand, seat: int | None) -> list:
    """What ``seat`` (None: a spectator) is sent for each event of the hand: the event as
    it may see it and its whole view afterwards (as `RoomConsumer` builds them), with the
    seat's own cards (and the 记牌器 built from them) reduced to their shape: they differ
    between deals by design."""
    state = engine.state_from_hands("lianzhong", deal, options=OPTIONS)
    sent = []
    for stored in HandEvent.objects.filter(hand=hand).order_by("version"):
        state, _event = engine.apply(state, stored.action)
        view = engine.view(state, seat)
        if "hand" in view:
            view["hand"] = len(view["hand"])
        if "counter" in view:  # 记牌器: the cards the seat has not seen, so its own hand again
            view["counter"] = sorted(view["counter"]) if isinstance(view["counter"], dict) else "own"
        sent.append((engine.event_view(stored.event, seat), view))
    return sent


def guard_of(deal) -> int:
    return next(seat for seat, cards in enumerate(deal) if "SJ*" in cards.split())


@pytest.mark.django_db
@pytest.mark.parametrize("deal", [GUARD_2, GUARD_3, SOLO], ids=["guard-2", "guard-3", "dark-solo"])
def test_the_deadline_answers_every_silent_seat_with_its_silent_choice_and_none_enters_trustee(full_table, deal):
    room = full_table("lianzhong", **OPTIONS)
    hand = at_window(room, deal)
    holder = guard_of(deal)

    emperor_step = hand_window_close(hand_id=hand.pk, version=1)  # 皇帝表态: the emperor alone
    open_step = hand_window_close(hand_id=hand.pk, version=2)  # 明保 / 反: the four others

    hand.refresh_from_db()
    assert hand.phase == "playing" and hand.state["turn"] == 0
    answers = [(event.seat, event.action["what"], event.by_trustee)
               for event in HandEvent.objects.filter(hand=hand, version__gt=1).order_by("version")]
    silent_for = {0: "dark_solo" if holder == 0 else "none"} | {
        seat: "an_bao" if seat == holder else "none" for seat in (1, 2, 3, 4)}
    assert answers == [(seat, silent_for[seat], False) for seat in (0, 1, 2, 3, 4)]
    assert len(emperor_step.events) == 1 and len(open_step.events) == 4
    assert not Seat.objects.filter(room=room, trustee=True).exists()


@pytest.mark.django_db
def test_what_every_other_seat_is_sent_has_the_same_shape_whoever_is_guard(full_table):
    deals = (GUARD_2, GUARD_3, SOLO)
    hands = []
    for deal in deals:
        hand = at_window(full_table("lianzhong", **OPTIONS), deal)
        hand_window_close(hand_id=hand.pk, version=1)
        hand_window_close(hand_id=hand.pk, version=2)
        hands.append(hand)
    for seat in (None, 0, 1, 2, 3, 4):
        seen = [frames(deal, hand, seat) for deal, hand in zip(deals, hands)
                if seat != guard_of(deal)]  # the guard (a soloist) knows, and is shown so
        assert len(seen) >= 2 and all(each == seen[0] for each in seen), f"seat {seat}"


@pytest.mark.django_db
def test_a_late_or_repeated_deadline_answers_nothing(full_table):
    room = full_table("lianzhong", **OPTIONS)
    hand = at_window(room, GUARD_2)
    assert hand_window_close(hand_id=hand.pk, version=0) is None  # the hand has moved on
    hand_window_close(hand_id=hand.pk, version=1)
    hand_window_close(hand_id=hand.pk, version=2)
    assert hand_window_close(hand_id=hand.pk, version=6) is None  # play has started
    hand.refresh_from_db()
    assert hand.version == 6 and hand.phase == "playing"


@pytest.mark.django_db(transaction=True)
def test_with_the_worker_a_silent_window_closes_at_its_deadlines_and_play_opens_without_trustee(worker):
    room, _players = short_timer_table("lianzhong", seconds=2)
    options = {**room.options, "timers": {"play": 60, "bid": 60, "declare": 2}, **OPTIONS}
    Room.objects.filter(pk=room.pk).update(options=options)  # test-only: below the 5 s minimum
    hand = at_window(room, GUARD_2)
    emperor_deadline = hand.deadline

    hand = wait_for(lambda: Hand.objects.filter(pk=hand.pk, phase="playing").first(), seconds=2 * (2 + LATE) + 4)

    events = list(HandEvent.objects.filter(hand=hand, version__gt=1).order_by("version"))
    assert [(event.seat, event.action["what"]) for event in events] == [
        (0, "none"), (1, "none"), (2, "an_bao"), (3, "none"), (4, "none")]
    assert events[0].created >= emperor_deadline  # not a moment before the deadline
    # The open step had a deadline of its own, 2 s after the emperor's step closed.
    assert all((event.created - events[0].created).total_seconds() > 1.9 for event in events[1:])
    assert not any(event.by_trustee for event in events)
    assert not Seat.objects.filter(room=room, trustee=True).exists()
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    room_dissolve(room_id=room.pk)
