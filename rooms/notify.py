"""Broadcasts after commit, to the room's group (`baohuang.broadcast`; never to a browser).

Messages carry the engine's full events; the live-play consumer redacts them for each
recipient with `engine.event_view` before anything reaches a socket. Everything here runs
after commit (`baohuang.after_commit`), so a rolled-back write is never announced, and a
broken channel layer cannot turn a committed write into an error (clients resynchronise
on a version gap).
"""

import logging

from baohuang import broadcast
from baohuang.after_commit import after_commit

log = logging.getLogger(__name__)


def room_group(room_id: int) -> str:
    return f"room-{room_id}"


def _send(room_id: int, message: dict) -> None:
    broadcast.publish(room_group(room_id), message)


# Called after commit with each hand's new state, before the broadcast (this process's
# sockets keep it: `rooms.hand_states`), so no socket of the writer's process has to work
# the state out again.
_state_listeners: list = []


def on_hand_state(listener) -> None:
    """Register `listener(hand_id=, version=, state=, deadline=)` for every committed move."""
    _state_listeners.append(listener)


def hand_events(*, room_id: int, hand_id: int, events: list[dict], state: dict | None = None) -> None:
    """After commit: `{"type": "hand.events", "hand": id, "events": [{"version", "event",
    "deadline"}]}`; `state` is the hand's engine state after the last event."""
    if not events:
        return
    message = {"type": "hand.events", "hand": hand_id, "events": events}
    last = events[-1]

    def announce():
        if state is not None:
            for listener in _state_listeners:
                try:
                    listener(hand_id=hand_id, version=last["version"], state=state, deadline=last["deadline"])
                except Exception:  # a cache that failed must not cost the broadcast
                    log.exception("hand %s: state listener failed", hand_id)
        _send(room_id, message)

    after_commit(announce)


def room_changed(*, room_id: int, change: str, **details) -> None:
    """After commit: `{"type": "room.changed", "room": id, "change": what, ...details}`.

    `change` is one of: `seats` (taken / left / kicked / online), `ready` (准备 on or off),
    `trustee`, `hand_started`, `hand_ended`, `dissolved`.
    """
    message = {"type": "room.changed", "room": room_id, "change": change, **details}
    after_commit(lambda: _send(room_id, message))


def chat_said(*, room_id: int, record: dict) -> None:
    """After commit: `{"type": "chat.message", **record}` (the record as `chat` frames show it)."""
    message = {"type": "chat.message", **record}
    after_commit(lambda: _send(room_id, message))
