"""Pieces shared by the services: taking the room lock, reading the table, the wait for
准备, dissolving."""

from datetime import timedelta

from django.utils import timezone

from baohuang.errors import ServiceError
from rooms import notify
from rooms.models import Hand, Room, Seat
from rooms.options import DEFAULTS as DEFAULT_OPTIONS
from rooms.services.held import HELD, locked_token
from scoring import services as scoring


def lock_room(room_id: int) -> Room:
    """The room row, locked until the transaction ends (the room's single writer lock)."""
    try:
        return Room.objects.select_for_update().get(pk=room_id)
    except Room.DoesNotExist:
        raise ServiceError("no_room", "There is no such room.") from None


def lock_table_of_hand(hand_id: int) -> tuple[Room, Hand, list[Seat]]:
    """Lock the hand's room (the one lock order every service follows) and read the room,
    the hand and its five seats by index (as `table` gives them) — or, when this process
    wrote the hand last and nothing changed since, take them as it left them
    (`rooms.services.held`)."""
    token = locked_token(hand_id)
    if token is None:
        raise ServiceError("no_hand", "There is no such hand.")
    held = HELD.take(hand_id, token)
    if held is not None:
        return held
    seats = list(Seat.objects.select_related("room", "player").filter(room__hands__pk=hand_id).order_by("index"))
    room = seats[0].room
    for seat in seats:
        seat.room = room
    return room, Hand.objects.get(pk=hand_id), seats


def open_room(room: Room) -> None:
    if room.status == Room.Status.DISSOLVED:
        raise ServiceError("room_closed", "This room has been dissolved.")


def table(room: Room) -> list[Seat]:
    """The five seats, by index."""
    return list(room.seats.select_related("player").order_by("index"))  # each seat's .room is `room`


def running_hand(room: Room) -> Hand | None:
    return Hand.objects.filter(room=room, ended__isnull=True).order_by("-number").first()


def seat_of(seats: list[Seat], player) -> Seat:
    for seat in seats:
        if seat.player_id == player.pk and not seat.left:
            return seat
    raise ServiceError("not_seated", "You are not seated in this room.")


def free_seat(seat: Seat) -> None:
    seat.player = None
    seat.online = False
    seat.trustee = False
    seat.trustee_entries = 0
    seat.left = False
    seat.ready = False
    seat.save()


def mark_attendance(room: Room, seats: list[Seat]) -> None:
    """Keep `room.unattended_since`: None while a seated player is connected, else the
    moment the last one went (only humans connect: bots have no socket). Caller holds the lock."""
    since = None if any(seat.online for seat in seats) else room.unattended_since or timezone.now()
    if since != room.unattended_since:
        room.unattended_since = since
        room.save(update_fields=["unattended_since"])


def ready_clock(room: Room, seats: list[Seat], *, saving: tuple[str, ...] = (), running: bool | None = None) -> None:
    """准备: keep `room.ready_due` (caller holds the lock).

    The table waits for ready while all five seats are taken between hands and someone
    is not ready. The wait starts when that begins (the last seat is taken, or a hand
    ends) and keeps its due time until it stops (a deal, or a seat emptied); a new wait
    gets the room's full `ready_time` again.

    `saving`: other fields of `room` the caller changed, saved in the same `UPDATE`;
    `running`: whether a hand is running, when the caller knows (else it is read).
    """
    if running is None:
        running = running_hand(room) is not None
    waiting = (all(seat.player_id is not None for seat in seats) and not all(seat.ready for seat in seats)
               and room.status == Room.Status.OPEN and not running)
    if not waiting:
        due = None
    else:
        seconds = room.options.get("ready_time", DEFAULT_OPTIONS["ready_time"])
        due = room.ready_due or timezone.now() + timedelta(seconds=seconds)
    fields = list(saving)
    if due != room.ready_due:
        room.ready_due = due
        fields.append("ready_due")
    if fields:
        room.save(update_fields=fields)


def dissolve(room: Room, seats: list[Seat], *, reason: str) -> None:
    """Close the room for good (caller holds the lock).

    A running hand is abandoned unscored; every open 进贡 debt is converted to points
    (everyone leaves the room, RULES §7); the seats are emptied.
    """
    hand = running_hand(room)
    if hand is not None:
        hand.phase = Hand.Phase.ABANDONED
        hand.ended = timezone.now()
        hand.deadline = None
        hand.save(update_fields=["phase", "ended", "deadline"])
    scoring.debts_convert(room=room)
    for seat in seats:
        free_seat(seat)
    room.status = Room.Status.DISSOLVED
    room.ready_due = None
    room.save(update_fields=["status", "ready_due", "updated"])
    notify.room_changed(room_id=room.pk, change="dissolved", reason=reason)
