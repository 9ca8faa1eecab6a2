"""The Celery tasks of `rooms`: thin wrappers, each calling one service.

Their names are what `rooms.services.schedule` queues and Celery beat runs
(`baohuang.celery`); what they do is documented with the services:

- `rooms.decision_timeout` → `rooms.services.timers.hand_timer_fire` (the turn timer);
- `rooms.seat_move` → `rooms.services.timers.seat_move` (a 托管 seat or a bot moves);
- `rooms.sweep_overdue` → `rooms.services.timers.hands_sweep_overdue` (lost timers);
- `rooms.sweep_presence` → `rooms.presence.seats_sweep_gone` (seats of dead sockets);
- `rooms.close_abandoned` → `rooms.services.rooms_close_abandoned`.
"""

from celery import shared_task

from rooms import presence
from rooms.services import rooms_close_abandoned, timers


@shared_task(name="rooms.decision_timeout", ignore_result=True)
def decision_timeout(hand_id: int, version: int | None = None) -> str:
    return timers.hand_timer_fire(hand_id=hand_id, version=version)


@shared_task(name="rooms.seat_move", ignore_result=True)
def seat_move(hand_id: int, version: int, seat: int) -> str:
    return timers.seat_move(hand_id=hand_id, version=version, seat=seat)


@shared_task(name="rooms.sweep_overdue", ignore_result=True)
def sweep_overdue() -> int:
    return timers.hands_sweep_overdue()


@shared_task(name="rooms.sweep_presence", ignore_result=True)
def sweep_presence() -> int:
    return presence.seats_sweep_gone()


@shared_task(name="rooms.close_abandoned", ignore_result=True)
def close_abandoned() -> int:
    return rooms_close_abandoned()
