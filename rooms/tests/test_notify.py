"""Broadcasts go out after commit, to the room's group, and the timer hook is called."""

import asyncio
import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from baohuang import broadcast, engine
from baohuang.errors import ServiceError
from rooms import notify
from rooms.models import Hand, Seat
from rooms.services import hand_act, hand_start, room_create, schedule, seat_take
from tests.live import isolated_prefix  # noqa: F401


@pytest.fixture
def listener(isolated_prefix):
    """A member of the room's group on an event loop of its own thread, as a server
    process's socket is; returns `join(room_id)` and `received()`, which waits for the
    broadcasts published so far to be delivered and returns them."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    messages = []
    groups = []

    def run(coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=10)

    def join(room_id):
        groups.append(notify.room_group(room_id))
        run(broadcast.join(groups[-1], messages.append))

    async def nothing():
        pass

    def received():
        run(nothing())  # a local delivery is a callback on the loop, queued before this one
        taken = list(messages)
        messages.clear()
        return taken

    yield join, received
    for group in groups:
        run(broadcast.leave(group, messages.append))
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=10)
    loop.close()


def test_hand_events_are_sent_only_after_commit(full_table, listener, django_capture_on_commit_callbacks, monkeypatch):
    join, received = listener
    room = full_table("classic")
    join(room.pk)
    opened = []
    monkeypatch.setattr(schedule, "schedule_decision",
                        lambda hand, seats, arm=False: opened.append((hand.pk, hand.version)))

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        hand = hand_start(room_id=room.pk)
    assert received() == []  # nothing before commit
    for callback in callbacks:
        callback()
    assert [m["change"] for m in received()] == ["hand_started"]
    assert opened == [(hand.pk, 0)]

    # The timer message has fired (timer_at passed): the move must queue a new one.
    Hand.objects.filter(pk=hand.pk).update(timer_at=timezone.now() - timedelta(seconds=1))
    seat = engine.actors(hand.state)[0]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        change = hand_act(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=0)
    assert received() == [] and opened == [(hand.pk, 0)]  # nothing before commit
    for callback in callbacks:
        callback()
    messages = received()
    assert messages == [{"type": "hand.events", "hand": hand.pk, "events": change.events}]
    assert messages[0]["events"][0]["event"]["type"] == "decline"
    assert opened[-1] == (hand.pk, 1)


def test_a_decision_with_nothing_to_queue_registers_no_hook(full_table, django_capture_on_commit_callbacks):
    hand = hand_start(room_id=full_table("classic").pk)
    seats = list(Seat.objects.filter(room_id=hand.room_id).select_related("player", "room").order_by("index"))
    with django_capture_on_commit_callbacks() as callbacks:
        schedule.after_commit(hand, seats)  # players awaited, their timer queued
    assert callbacks == []
    for awaited in engine.actors(hand.state):
        seats[awaited].trustee = True  # the policy plays for it: its move is to be queued
    with django_capture_on_commit_callbacks() as callbacks:
        schedule.after_commit(hand, seats)
    assert len(callbacks) == 1
    with django_capture_on_commit_callbacks() as callbacks:
        schedule.after_commit(hand)  # seats unknown: looked up after commit
    assert len(callbacks) == 1


def test_a_refused_write_broadcasts_nothing(alice, bob, listener, django_capture_on_commit_callbacks):
    join, received = listener
    room = room_create(creator=alice, name="x", preset="classic")
    join(room.pk)
    seat_take(room_id=room.pk, player=alice, index=0)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(ServiceError):
            seat_take(room_id=room.pk, player=bob, index=0)
    assert callbacks == [] and received() == []
