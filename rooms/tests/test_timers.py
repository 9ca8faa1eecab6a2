"""Turn timers with a real Celery worker and real Redis (rooms/services/timers.py through the tasks of rooms/tasks.py, RULES §8).

Timers here are 2–3 s: below the 5 s minimum a room may choose, so they are written to
the room's options directly, past `clean_options` (test-only; production validation is
unchanged). See rooms/tests/worker.py for how to run these.
"""

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from baohuang import engine
from baohuang.celery import SWEEP_SECONDS
from baohuang.errors import ServiceError
from rooms.models import Hand, HandEvent, Room, Seat
from rooms.services import (hand_act, hand_start, player_guest, room_create, room_dissolve, seat_take,
                            trustee_set)
from rooms.services.timers import SWEEP_GRACE_SECONDS, hands_sweep_overdue
from rooms.tests.worker import celery_workers, wait_for, worker  # noqa: F401  (fixtures)

NAMES = ("alice", "bob", "charlie", "dave", "erin")
LATE = 3.0  # a worker's task acts this soon after its deadline, at the latest (a loaded CI)


def short_timer_table(preset="lianzhong", *, seconds=2, delay=0.0):
    """Five humans at a room whose every decision times out after ``seconds``."""
    players = [player_guest(nickname=name) for name in NAMES]
    room = room_create(creator=players[0], name="timers", preset=preset)
    options = {**room.options, "timers": {"play": seconds, "bid": seconds, "declare": seconds},
               "trustee_delay": delay}
    Room.objects.filter(pk=room.pk).update(options=options)  # test-only: below the 5 s minimum
    for index, player in enumerate(players):
        seat_take(room_id=room.pk, player=player, index=index)
    return room, players


def event_at(hand: Hand, version: int) -> HandEvent | None:
    return HandEvent.objects.filter(hand=hand, version=version).first()


@pytest.mark.django_db(transaction=True)
def test_a_seat_that_does_nothing_is_played_for_after_its_deadline_and_enters_trustee(worker):
    room, _players = short_timer_table(seconds=2)
    hand = hand_start(room_id=room.pk)
    assert 1.5 < (hand.deadline - timezone.now()).total_seconds() <= 2  # absolute time, 2 s on
    seat = engine.actors(hand.state)[0]
    expected = engine.autoplay(hand.state, seat, "baseline")

    event = wait_for(lambda: event_at(hand, 1), seconds=2 + LATE + 2)

    assert event.created >= hand.deadline  # not a moment before the deadline
    assert (event.created - hand.deadline).total_seconds() < LATE
    assert event.by_trustee and event.seat == seat and event.action == expected
    mine = Seat.objects.get(room=room, index=seat)
    assert mine.trustee and mine.trustee_entries == 1
    room_dissolve(room_id=room.pk)


@pytest.mark.django_db(transaction=True)
def test_moves_inside_one_timer_period_share_its_message_which_waits_for_the_deadline_then_open(worker):
    room, players = short_timer_table(seconds=2)
    hand = hand_start(room_id=room.pk)
    armed = hand.timer_at
    assert armed == hand.deadline  # the deal queued the hand's timer for its deadline
    time.sleep(1.0)
    seat = engine.actors(hand.state)[0]
    action = engine.autoplay(hand.state, seat, "baseline")
    hand_act(hand_id=hand.pk, seat=seat, action=action, expected_version=0, player=players[seat])
    hand.refresh_from_db()
    assert hand.version == 1 and hand.timer_at == armed < hand.deadline  # no second message

    # The queued message fires at the first deadline, finds the next one still ahead and
    # waits for it; only then does the silent seat answer (the emperor's 表态: silence is
    # its answer, RULES §8).
    assert engine.decision_kind(hand.state) == "declare"
    seat = engine.actors(hand.state)[0]
    event = wait_for(lambda: event_at(hand, 2), seconds=3 + LATE + 2)
    assert event_at(hand, 1).by_trustee is False
    assert event.created >= hand.deadline and (event.created - hand.deadline).total_seconds() < LATE
    assert event.seat == seat and event.action == engine.silent_declaration(hand.state, seat)
    assert not Seat.objects.get(room=room, index=seat).trustee
    room_dissolve(room_id=room.pk)


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_during_the_countdown_the_sweep_acts_within_its_period(worker, celery_workers):
    room, _players = short_timer_table(seconds=2)
    since = worker.mark()
    hand = hand_start(room_id=room.pk)
    seat = engine.actors(hand.state)[0]
    # The worker has taken the countdown message and holds it until the deadline …
    # (Waited for with its task id: the log is read as it is written, a line may be half there.)
    lost = wait_for(lambda: re.search(r"rooms\.decision_timeout\[([0-9a-f-]+)\]", worker.log(since)),
                    seconds=3).group(1)
    worker.kill()  # … and dies with it, before the deadline.
    assert timezone.now() < hand.deadline

    replacement = celery_workers.running()  # a fresh worker and beat
    event = wait_for(lambda: event_at(hand, 1), seconds=SWEEP_SECONDS + SWEEP_GRACE_SECONDS + 8)

    # Due at the deadline plus the grace, or when the new beat could first run: then by the
    # first sweep after it, within one period. Half a period more for a beat's tick that
    # comes late on a loaded machine (1.04 s in one CI run); a sweep that missed the move
    # would make it a whole period later.
    due = max(hand.deadline + timedelta(seconds=SWEEP_GRACE_SECONDS),
              timezone.now() - timedelta(seconds=time.monotonic() - replacement.ready_at))
    assert (event.created - due).total_seconds() <= SWEEP_SECONDS * 1.5
    assert event.by_trustee and event.seat == seat
    assert Seat.objects.get(room=room, index=seat).trustee
    log = replacement.log()
    assert "rooms.sweep_overdue" in log
    # The lost message never came back: the sweep acted. (The timer of the decision the
    # sweep's move opened is a new message, which the new worker may well have received.)
    assert lost not in log
    room_dissolve(room_id=room.pk)


@pytest.mark.django_db(transaction=True)
def test_a_human_action_racing_the_timeout_exactly_one_applies(worker):
    # The timeout's policy accepts the throne; the human declines it: the event says who won.
    offsets = (-0.03, -0.01, 0.0, 0.005, 0.02)
    tables = []
    for _ in offsets:
        room, players = short_timer_table(seconds=2)
        tables.append((room, players, hand_start(room_id=room.pk)))
    since = worker.mark()
    outcomes = []
    for (room, players, hand), offset in zip(tables, offsets):
        seat = engine.actors(hand.state)[0]
        time.sleep(max(0.0, (hand.deadline - timezone.now()).total_seconds() + offset))
        try:
            hand_act(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=0,
                     player=players[seat])
            outcomes.append(("applied", room, hand, seat))
        except ServiceError as error:
            outcomes.append((error.code, room, hand, seat))
    for _outcome, _room, hand, _seat in outcomes:  # let every timeout that was due finish
        wait_for(lambda hand=hand: event_at(hand, 1), seconds=LATE + 2)

    for outcome, room, hand, seat in outcomes:
        events = list(HandEvent.objects.filter(hand=hand, version=1))
        assert len(events) == 1, f"{outcome}: {len(events)} actions applied at version 1"
        event = events[0]
        mine = Seat.objects.get(room=room, index=seat)
        if outcome == "applied":
            assert event.action["type"] == "decline" and not event.by_trustee
            assert mine.trustee_entries == 0  # the timeout found the version moved: no 托管
        else:
            assert outcome in ("stale_version", "trustee_on"), outcome
            assert event.action["type"] == "accept" and event.by_trustee
            assert mine.trustee and mine.trustee_entries == 1
        room_dissolve(room_id=room.pk)
    assert "ERROR" not in worker.log(since)


# --- the sweep's choices, run inline (no worker) ------------------------------------------------


def overdue_by(hand: Hand, seconds: float) -> None:
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=seconds))


@pytest.mark.django_db
def test_the_sweep_acts_on_an_overdue_decision_and_leaves_a_fresh_one_alone():
    late_room, _ = short_timer_table(seconds=20)
    fresh_room, _ = short_timer_table(seconds=20)
    late, fresh = hand_start(room_id=late_room.pk), hand_start(room_id=fresh_room.pk)
    overdue_by(late, SWEEP_GRACE_SECONDS + 0.5)
    seat = engine.actors(late.state)[0]

    assert hands_sweep_overdue() == 1

    event = event_at(late, 1)
    assert event.by_trustee and event.seat == seat
    assert Seat.objects.get(room=late_room, index=seat).trustee
    assert event_at(fresh, 1) is None


@pytest.mark.django_db
def test_the_sweep_leaves_the_timer_task_its_grace():
    room, _ = short_timer_table(seconds=20)
    hand = hand_start(room_id=room.pk)
    overdue_by(hand, SWEEP_GRACE_SECONDS / 2)  # just due: the countdown task acts first
    assert hands_sweep_overdue() == 0 and event_at(hand, 1) is None


@pytest.mark.django_db
def test_the_sweep_moves_a_trustee_seat_whose_move_was_lost():
    room, players = short_timer_table(seconds=20, delay=0.0)
    hand = hand_start(room_id=room.pk)
    seat = engine.actors(hand.state)[0]
    trustee_set(room_id=room.pk, seat=seat, on=True, player=players[seat])
    Hand.objects.filter(pk=hand.pk).update(started=timezone.now() - timedelta(seconds=5))

    assert hands_sweep_overdue() == 1  # the deadline is far, but the 托管 move is late

    event = event_at(hand, 1)
    assert event.by_trustee and event.seat == seat
    assert Seat.objects.get(room=room, index=seat).trustee_entries == 1  # the button's entry only
