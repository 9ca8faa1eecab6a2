"""Scheduling what the server plays: turn timers and the moves of 托管 seats and bots.

Asked inside the writing transaction (`timer_needed`) and run after its commit
(`after_commit` → `schedule_decision`), which queues the Celery tasks of `rooms.tasks` by
name, so the services never import the tasks that call them.
"""

import logging

from django.conf import settings
from django.utils import timezone

from baohuang import engine, outbox
from baohuang.after_commit import after_commit as when_committed
from rooms import think
from rooms.levels import DEFAULT_TRUSTEE_LEVEL, SEARCH_LEVELS
from rooms.models import Hand, Seat

log = logging.getLogger(__name__)

EXPIRY_MARGIN_SECONDS = 60  # a message this late is dropped: the sweep has acted already


def timer_needed(hand: Hand, seats: list[Seat]) -> bool:
    """Inside the transaction that opened a decision (the room locked): does it need a new
    timer message? Yes when a human is awaited and no message already queued fires
    between now and the deadline. The caller then sets `hand.timer_at` to the deadline
    and queues one after commit (`schedule_decision(..., arm=True)`)."""
    if not hand.running or hand.deadline is None:
        return False
    actors = engine.actors(hand.state)
    if all(seat.trustee or is_bot(seat) for seat in seats if seat.index in actors):
        return False  # only 托管 seats and bots are awaited: their moves come first
    return hand.timer_at is None or not timezone.now() < hand.timer_at <= hand.deadline


def schedule_decision(hand: Hand, seats: list[Seat] | None = None, *, arm: bool = False) -> None:
    """After commit, a decision opened on ``hand``: queue the moves of the awaited seats
    the server plays (托管 seats and bots) after their think time, and, with ``arm``, the
    hand's timer for the deadline (see `timer_needed`). ``seats`` are the room's seats as
    the transaction left them (read again when not given)."""
    if not hand.running or hand.deadline is None:
        return
    if seats is None:
        seats = list(Seat.objects.filter(room_id=hand.room_id).select_related("player", "room"))
    for seat in _played_by_server(hand, seats):
        send("rooms.seat_move", (hand.pk, hand.version, seat.index), move_countdown(hand, seat))
    if arm:
        send("rooms.decision_timeout", (hand.pk,), seconds_until(hand.deadline))


def _played_by_server(hand: Hand, seats: list[Seat]) -> list[Seat]:
    """The seats awaited now that the server plays: 托管 seats and bots."""
    actors = engine.actors(hand.state)
    return [seat for seat in seats if seat.index in actors and (seat.trustee or is_bot(seat))]


def seconds_until(moment) -> float:
    return max(0.0, (moment - timezone.now()).total_seconds())


def send(task: str, args: tuple, countdown: float) -> None:
    """Queue the task named ``task``; a broker that is down loses the message, never the
    write: the sweep acts on whatever the lost message would have done."""
    try:
        outbox.send_task(task, args, countdown=countdown, expires=countdown + EXPIRY_MARGIN_SECONDS)
    except Exception:  # any broker error: the write is committed, the sweep covers for us
        log.warning("could not queue %s%r; the sweep will act instead", task, args, exc_info=True)


def seat_level(seat: Seat) -> str:
    """The level (rooms.levels) that plays for a bot or a seat under 托管."""
    if is_bot(seat):
        return seat.player.level
    return seat.room.options.get("trustee_level", DEFAULT_TRUSTEE_LEVEL)


def move_countdown(hand: Hand, seat: Seat) -> float:
    """Seconds until the move of a bot or 托管 ``seat`` is run: its think time (rooms.think,
    at the room's ``trustee_delay`` pace) less the time its decision itself will take (the
    search budget, unless the move is forced), never below 0."""
    seconds = think.pause(hand.state, seat.index, pace=pace(seat.room), hand_id=hand.pk, version=hand.version)
    if seat_level(seat) in SEARCH_LEVELS and not think.forced(hand.state, seat.index):
        seconds -= settings.BOT_SEARCH_SECONDS
    return max(0.0, seconds)


def move_late_after(room) -> float:
    """Seconds after a decision opened by which a bot or 托管 seat has moved unless its
    message was lost: the longest think time or the search budget, whichever is longer."""
    return max(think.longest(pace(room)), settings.BOT_SEARCH_SECONDS)


def pace(room) -> float:
    """The room's ``trustee_delay``: the pace of its bots' and 托管 seats' think time."""
    return float(room.options.get("trustee_delay", 1.0))


def is_bot(seat: Seat) -> bool:
    return seat.player_id is not None and seat.player.is_bot


def after_commit(hand: Hand, seats: list[Seat] | None = None, *, arm: bool = False) -> None:
    """After commit, `schedule_decision(hand, seats, arm=arm)`: whenever a decision opens
    (a deal, an accepted action that leaves the hand running, a seat entering 托管).
    Nothing is registered when, with the seats known, there will be nothing to queue: the
    common case, a player's move awaiting players under a timer still queued."""
    if seats is not None and not arm and not _played_by_server(hand, seats):
        return
    when_committed(lambda: schedule_decision(hand, seats, arm=arm), blocking=True)
