"""What the server plays when nobody else does: turn timers, 托管 and bot moves, and the
sweep that catches their lost messages — RULES §8 (issue 5).

The Celery tasks of `rooms.tasks` are thin wrappers around these. Each finds what to do
and calls one writing service (`hand_act_for`, `hand_window_close`, `bot_move`), which
locks the room, checks the hand's version and does nothing if the hand has moved on. So a
late, duplicated or lost message is harmless, and nothing ever needs revoking.

- `hand_timer_fire(hand_id, version)`: the hand's turn timer, one message per hand at a
  time. When a decision awaiting a human opens and no message is queued to fire between
  now and its deadline, `rooms.services.schedule` queues one for the deadline and records
  when it fires (`Hand.timer_at`, written with the hand). Otherwise the queued one serves:
  a quick table answers many decisions inside one timer period, and publishing a Celery
  message per move was a quarter of the cost of a move. When it fires it acts for the
  first seat still awaited through `hand_act_for(reason="timeout")` — the policy plays and
  the seat enters 托管 — or, for a bot, through the bot's own move; if the open deadline
  is still ahead, it queues itself again for that deadline (unless a message a move
  queued fires first), writing nothing, so the table's next move keeps the held table.
  In a declaration step every seat still silent at the deadline answers with its silent
  choice, all at once (`hand_window_close`), and none of them enters 托管 (RULES §8).
- `seat_move(hand_id, version, seat)`: a seat under 托管 (`hand_act_for(reason=
  "trustee")`) or a bot (`bot_move`) moves, after its think time (rooms.think: a seeded
  pause at the room's `trustee_delay` pace, less the search budget of a level that
  searches). The move is decided outside any lock and applied only at ``version``.
- `hands_sweep_overdue()`: Celery beat runs it every `baohuang.celery.SWEEP_SECONDS`
  (5 s); it acts on every decision overdue by more than `SWEEP_GRACE_SECONDS` and every
  托管 / bot move that is that late — their task was lost (a worker killed
  mid-countdown, a broker that refused the message).
"""

import logging
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from baohuang import engine
from rooms import telemetry
from rooms.models import Hand, Seat
from rooms.services.bots import bot_move
from rooms.services.hands import hand_act_for, hand_window_close
from rooms.services.schedule import is_bot, move_late_after, seconds_until, send

log = logging.getLogger(__name__)

SWEEP_GRACE_SECONDS = 1.0  # the sweep leaves the scheduled task this long to fire first


def hand_timer_fire(*, hand_id: int, version: int | None = None) -> str:
    """The hand's timer fires: act for the first seat still awaited if the open decision's
    deadline has come, else queue the timer again for that deadline. Returns what it did
    (for logs and tests). ``version``, when given (the sweep), is the decision it found
    overdue: a hand that has moved on since is left alone."""
    hand = Hand.objects.filter(pk=hand_id).first()
    if hand is None or not hand.running or hand.deadline is None:
        return "moved"
    if version is not None and hand.version != version:
        return "moved"
    now = timezone.now()
    if hand.deadline > now:
        # The table moved on since the timer was queued (or clocks of two hosts differ).
        # If a move has queued a message that fires by the deadline now open (the stored
        # `timer_at`), that one serves; else wait for the deadline. Nothing is written: a
        # write would change the held table's token (rooms.services.held), and the
        # table's next move would take the locked path and read its rows back. So the
        # next move, finding `timer_at` passed, queues a message too: two fire, harmless.
        if not (hand.timer_at is not None and now < hand.timer_at <= hand.deadline):
            send("rooms.decision_timeout", (hand_id,), seconds_until(hand.deadline))
        return "early"
    if engine.decision_kind(hand.state) == "declare":
        # Silence is an answer (RULES §8): the pending seats answer at once, none enters 托管.
        change = hand_window_close(hand_id=hand.pk, version=hand.version)
        return "moved" if change is None else "acted:silence"
    actors = engine.actors(hand.state)
    if not actors:
        return "moved"
    seat = Seat.objects.select_related("player").get(room_id=hand.room_id, index=actors[0])
    telemetry.TIMER_LATENESS.observe((timezone.now() - hand.deadline).total_seconds())
    return _act(hand, seat, reason="timeout")


def seat_move(*, hand_id: int, version: int, seat: int) -> str:
    """A 托管 seat or a bot moves at ``version`` (a no-op if the hand has moved on)."""
    hand = Hand.objects.filter(pk=hand_id).first()
    if hand is None or not hand.running or hand.version != version:
        return "moved"
    row = Seat.objects.select_related("player").get(room_id=hand.room_id, index=seat)
    return _act(hand, row, reason="trustee")


def _act(hand: Hand, seat: Seat, *, reason: str) -> str:
    """Bots play their own move (a bot is never under 托管); anyone else through
    `hand_act_for`, which puts a timed-out seat under 托管."""
    if is_bot(seat):
        change = bot_move(hand=hand, seat=seat, version=hand.version)
    else:
        change = hand_act_for(hand_id=hand.pk, seat=seat.index, version=hand.version, reason=reason)
    return "moved" if change is None else f"acted:{reason}"


def hands_sweep_overdue() -> int:
    """Act on every decision whose timer or 托管 / bot move is overdue; returns how many.

    Runs the acts inline: each is its own short transaction, and a message queued for
    them could be lost the same way as the one being replaced.
    """
    now = timezone.now()
    grace = timedelta(seconds=SWEEP_GRACE_SECONDS)
    acted = 0
    overdue = Hand.objects.filter(ended__isnull=True, deadline__lte=now - grace).values_list("pk", "version")
    for hand_id, version in overdue:
        acted += _guarded(hand_timer_fire, hand_id=hand_id, version=version)
    for hand, seat in _stalled_moves(now, grace):
        acted += _guarded(seat_move, hand_id=hand.pk, version=hand.version, seat=seat)
    return acted


def _guarded(service, **arguments) -> bool:
    """Run one act of the sweep; a hand that fails is logged, never allowed to stop the
    sweep for every other table."""
    try:
        return service(**arguments).startswith("acted")
    except Exception:
        log.exception("sweep: %s(%r) failed", service.__name__, arguments)
        return False


def _stalled_moves(now, grace):
    """(hand, seat) for each running hand awaiting a 托管 or bot seat whose move is later
    than the longest think time (or search) plus the grace: its `seat_move` message was lost."""
    hands = (
        Hand.objects.filter(ended__isnull=True)
        .filter(Q(room__seats__trustee=True) | Q(room__seats__player__is_bot=True))
        .select_related("room")
        .distinct()
    )
    for hand in hands:
        last = hand.events.order_by("-version").values_list("created", flat=True).first() or hand.started
        if now - last < timedelta(seconds=move_late_after(hand.room)) + grace:
            continue
        awaited = engine.actors(hand.state)
        seats = Seat.objects.filter(room_id=hand.room_id, index__in=awaited).select_related("player")
        for seat in seats:
            if seat.trustee or is_bot(seat):
                yield hand, seat.index
                break  # one move per hand per sweep: the version moves with it
