"""Turn timers, 托管 moves and bot moves, run by Celery — RULES §8 (issue 5).

Three tasks, all thin: each finds what to do and calls one service, which locks the
room, checks the hand's version and does nothing if the hand has moved on. So a late,
duplicated or lost message is harmless, and nothing ever needs revoking.

- `decision_timeout(hand_id, version)`: scheduled with a countdown to the deadline when a
  decision opens. It acts for the first seat still awaited through `hand_act_for(reason=
  "timeout")` — the policy plays and the seat enters 托管 — or, for a bot, through the
  bot's own move. In a declaration step every silent seat is awaited: each answer opens
  the next decision at the same deadline, so the seats are answered for one by one.
- `seat_move(hand_id, version, seat)`: a seat under 托管 (`hand_act_for(reason=
  "trustee")`) or a bot (`rooms.bots.bot_move`) moves, after the room's `trustee_delay`.
- `sweep_overdue()`: Celery beat runs it every `baohuang.celery.SWEEP_SECONDS` (5 s); it
  acts on every decision overdue by more than `SWEEP_GRACE_SECONDS` and every 托管 / bot
  move that is that late — their task was lost (a worker killed mid-countdown, a broker
  that refused the message).

`schedule_decision(hand)` is what `rooms.notify.decision_opened` calls after commit.
"""

import logging
from datetime import timedelta

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from baohuang import engine
from rooms.models import Hand, Seat

log = logging.getLogger(__name__)

SWEEP_GRACE_SECONDS = 1.0  # the sweep leaves the scheduled task this long to fire first
EXPIRY_MARGIN_SECONDS = 60  # a message this late is dropped: the sweep has acted already


# --- scheduling --------------------------------------------------------------------------


def schedule_decision(hand: Hand) -> None:
    """After commit, a decision opened on ``hand``: arm its timer, and the moves of the
    awaited seats the server plays (托管 seats and bots) after the room's pause."""
    if not hand.running or hand.deadline is None:
        return
    actors = engine.actors(hand.state)
    if not actors:
        return
    seats = Seat.objects.filter(room_id=hand.room_id, index__in=actors).select_related("player", "room")
    played_by_server = [seat for seat in seats if seat.trustee or is_bot(seat)]
    for seat in played_by_server:
        _send(seat_move, (hand.pk, hand.version, seat.index), trustee_delay(seat.room))
    if len(played_by_server) < len(actors):
        # A human is awaited: arm the deadline. (When only 托管 and bot seats are, their
        # moves come first; if such a message is lost, the sweep moves for them.)
        countdown = max(0.0, (hand.deadline - timezone.now()).total_seconds())
        _send(decision_timeout, (hand.pk, hand.version), countdown)


def _send(task, args: tuple, countdown: float) -> None:
    """Queue ``task``; a broker that is down loses the message, never the write: the
    sweep acts on whatever the lost message would have done."""
    try:
        task.apply_async(args, countdown=countdown or None, expires=countdown + EXPIRY_MARGIN_SECONDS,
                         retry=False)
    except Exception:  # any broker error: the write is committed, the sweep covers for us
        log.warning("could not queue %s%r; the sweep will act instead", task.name, args, exc_info=True)


def trustee_delay(room) -> float:
    """The room's human-like pause before a 托管 or bot seat moves (seconds)."""
    return float(room.options.get("trustee_delay", 1.0))


def is_bot(seat: Seat) -> bool:
    return seat.player_id is not None and seat.player.is_bot


# --- the tasks ---------------------------------------------------------------------------


@shared_task(name="rooms.decision_timeout", ignore_result=True)
def decision_timeout(hand_id: int, version: int) -> str:
    """The deadline of the decision at ``version`` has come: act for the first seat
    still awaited. Returns what it did (for logs and tests)."""
    hand = Hand.objects.filter(pk=hand_id).first()
    if hand is None or not hand.running or hand.version != version:
        return "moved"
    remaining = (hand.deadline - timezone.now()).total_seconds() if hand.deadline else 0.0
    if remaining > 0:
        # Fired early (clocks of two hosts): wait again rather than cut a turn short.
        _send(decision_timeout, (hand_id, version), remaining)
        return "early"
    actors = engine.actors(hand.state)
    if not actors:
        return "moved"
    seat = Seat.objects.select_related("player").get(room_id=hand.room_id, index=actors[0])
    return _act(hand, seat, reason="timeout")


@shared_task(name="rooms.seat_move", ignore_result=True)
def seat_move(hand_id: int, version: int, seat: int) -> str:
    """A 托管 seat or a bot moves at ``version`` (a no-op if the hand has moved on)."""
    hand = Hand.objects.filter(pk=hand_id).first()
    if hand is None or not hand.running or hand.version != version:
        return "moved"
    row = Seat.objects.select_related("player").get(room_id=hand.room_id, index=seat)
    return _act(hand, row, reason="trustee")


def _act(hand: Hand, seat: Seat, *, reason: str) -> str:
    """Bots play their own move (a bot is never under 托管); anyone else through
    `hand_act_for`, which puts a timed-out seat under 托管."""
    from rooms.bots import bot_move
    from rooms.services import hand_act_for

    if is_bot(seat):
        change = bot_move(hand=hand, seat=seat, version=hand.version)
    else:
        change = hand_act_for(hand_id=hand.pk, seat=seat.index, version=hand.version, reason=reason)
    return "moved" if change is None else f"acted:{reason}"


@shared_task(name="rooms.sweep_overdue", ignore_result=True)
def sweep_overdue() -> int:
    """Act on every decision whose timer or 托管 / bot move is overdue; returns how many.

    Runs the acts inline: each is its own short transaction, and a message queued for
    them could be lost the same way as the one being replaced.
    """
    now = timezone.now()
    grace = timedelta(seconds=SWEEP_GRACE_SECONDS)
    acted = 0
    overdue = Hand.objects.filter(ended__isnull=True, deadline__lte=now - grace).values_list("pk", "version")
    for hand_id, version in overdue:
        acted += _guarded(decision_timeout, hand_id, version)
    for hand, seat in _stalled_moves(now, grace):
        acted += _guarded(seat_move, hand.pk, hand.version, seat)
    return acted


def _guarded(task, *args) -> bool:
    """Run one act of the sweep; a hand that fails is logged, never allowed to stop the
    sweep for every other table."""
    try:
        return task(*args).startswith("acted")
    except Exception:
        log.exception("sweep: %s%r failed", task.name, args)
        return False


def _stalled_moves(now, grace):
    """(hand, seat) for each running hand awaiting a 托管 or bot seat whose move is later
    than the room's pause plus the grace: its `seat_move` message was lost."""
    hands = (
        Hand.objects.filter(ended__isnull=True)
        .filter(Q(room__seats__trustee=True) | Q(room__seats__player__is_bot=True))
        .select_related("room")
        .distinct()
    )
    for hand in hands:
        last = hand.events.order_by("-version").values_list("created", flat=True).first() or hand.started
        if now - last < timedelta(seconds=trustee_delay(hand.room)) + grace:
            continue
        awaited = engine.actors(hand.state)
        seats = Seat.objects.filter(room_id=hand.room_id, index__in=awaited).select_related("player")
        for seat in seats:
            if seat.trustee or is_bot(seat):
                yield hand, seat.index
                break  # one move per hand per sweep: the version moves with it
