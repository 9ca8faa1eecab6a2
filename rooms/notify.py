"""Broadcasts after commit, to the channel-layer group of the room (never to a browser).

Messages carry the engine's full events; the live-play consumer redacts them for each
recipient with `engine.event_view` before anything reaches a socket. Everything here runs
from `transaction.on_commit`, so a rolled-back write is never announced, and with
`robust=True` a broken channel layer cannot turn a committed write into an error (clients
resynchronise on a version gap).
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)


def room_group(room_id: int) -> str:
    return f"room-{room_id}"


def _send(room_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(room_group(room_id), message)


def hand_events(*, room_id: int, hand_id: int, events: list[dict]) -> None:
    """After commit: `{"type": "hand.events", "hand": id, "events": [{"version", "event"}]}`."""
    if not events:
        return
    message = _hand_events_message(hand_id, events)
    transaction.on_commit(lambda: _send(room_id, message), robust=True)


async def hand_events_now(*, room_id: int, hand_id: int, events: list[dict]) -> None:
    """`hand_events` from the event loop, for a write already committed there
    (`rooms.services.quick`); as robust: a failure is logged, never raised."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(room_group(room_id), _hand_events_message(hand_id, events))
    except Exception:
        log.exception("room %s: broadcasting hand %s events failed", room_id, hand_id)


def _hand_events_message(hand_id: int, events: list[dict]) -> dict:
    return {"type": "hand.events", "hand": hand_id, "events": events}


def room_changed(*, room_id: int, change: str, **details) -> None:
    """After commit: `{"type": "room.changed", "room": id, "change": what, ...details}`.

    `change` is one of: `seats` (taken / left / kicked / online), `trustee`,
    `hand_started`, `hand_ended`, `dissolved`.
    """
    message = {"type": "room.changed", "room": room_id, "change": change, **details}
    transaction.on_commit(lambda: _send(room_id, message), robust=True)


def chat_said(*, room_id: int, record: dict) -> None:
    """After commit: `{"type": "chat.message", **record}` (the record as `chat` frames show it)."""
    message = {"type": "chat.message", **record}
    transaction.on_commit(lambda: _send(room_id, message), robust=True)


def after_commit_decision_opened(hand, seats, *, arm: bool = False) -> None:
    """After commit, `decision_opened(hand, seats, arm=arm)` (see there)."""
    transaction.on_commit(lambda: decision_opened(hand, seats, arm=arm), robust=True)


def decision_opened(hand, seats, *, arm: bool = False) -> None:
    """Hook for turn timers and 托管 moves, called after commit whenever a decision opens
    (a deal, an accepted action that leaves the hand running, or an actor entering 托管).

    `hand.version`, `hand.deadline` and `hand.room_id` describe the decision; `seats` are
    the room's seats as the transaction left them. It queues the moves of awaited 托管 and
    bot seats after the room's `trustee_delay`, and with `arm` the hand's turn timer
    (`hand_act_for(..., reason="timeout")` at the deadline; `rooms.tasks`).
    """
    log.debug("decision opened: hand %s version %s deadline %s", hand.pk, hand.version, hand.deadline)
    from rooms.tasks import schedule_decision  # tasks import the services, which import us

    schedule_decision(hand, seats, arm=arm)
