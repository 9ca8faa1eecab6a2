"""Broadcasts go out after commit, to the room's group, and the timer hook is called."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from baohuang import engine
from baohuang.errors import ServiceError
from rooms import notify
from rooms.services import hand_act, hand_start, room_create, schedule, seat_take

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def listener(settings):
    """A channel in the room's group; returns a function reading what it received."""
    settings.CHANNEL_LAYERS = IN_MEMORY
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()

    def join(room_id):
        async_to_sync(layer.group_add)(notify.room_group(room_id), channel)

    async def drain():
        messages = []
        while True:
            try:
                messages.append(await asyncio.wait_for(layer.receive(channel), 0.05))
            except asyncio.TimeoutError:
                return messages

    def received():
        return async_to_sync(drain)()

    return join, received


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

    seat = engine.actors(hand.state)[0]
    with django_capture_on_commit_callbacks(execute=True):
        change = hand_act(hand_id=hand.pk, seat=seat, action={"type": "decline"}, expected_version=0)
    messages = received()
    assert messages == [{"type": "hand.events", "hand": hand.pk, "events": change.events}]
    assert messages[0]["events"][0]["event"]["type"] == "decline"
    assert opened[-1] == (hand.pk, 1)


def test_a_refused_write_broadcasts_nothing(alice, bob, listener, django_capture_on_commit_callbacks):
    join, received = listener
    room = room_create(creator=alice, name="x", preset="classic")
    join(room.pk)
    seat_take(room_id=room.pk, player=alice, index=0)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(ServiceError):
            seat_take(room_id=room.pk, player=bob, index=0)
    assert callbacks == [] and received() == []
