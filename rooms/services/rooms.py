"""Rooms and seats: create, sit down, mark ready (准备), leave, be freed or kicked, go
on/offline, dissolve."""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from baohuang import limits
from baohuang.errors import ServiceError
from rooms import names, notify, telemetry
from rooms.models import SEATS, ChatMessage, Hand, Player, Preset, Room, Seat
from rooms.options import clean_options
from rooms.records import chat_record, epoch_ms
from rooms.selectors import may_watch
from rooms.services import moderation, schedule
from rooms.services.common import (dissolve, free_seat, lock_room, mark_attendance, open_room, ready_clock,
                                   running_hand, seat_of, table)
from rooms.services.hands import deal_if_ready
from scoring import services as scoring

NAME_MAX = 60


@transaction.atomic
def room_create(*, creator: Player, name: str, preset: str, options: dict | None = None) -> Room:
    """A new open room with five empty seats (the creator sits down with `seat_take`)."""
    name = " ".join(str(name or "").split())
    if not name or len(name) > NAME_MAX:
        raise ServiceError("bad_name", f"A room name has 1 to {NAME_MAX} characters.", {"why": "length", "max": NAME_MAX})
    if names.has_controls(name):
        raise ServiceError("bad_name", "A room name cannot hold control or direction characters.",
                           {"why": "controls"})
    if preset not in Preset.values:
        raise ServiceError("bad_preset", f"Unknown preset {preset!r}: choose one of {', '.join(Preset.values)}.")
    room = Room.objects.create(name=name, preset=preset, options=clean_options(options), creator=creator,
                               unattended_since=timezone.now())  # nobody is connected yet
    Seat.objects.bulk_create(Seat(room=room, index=index) for index in range(SEATS))
    return room


@transaction.atomic
def seat_take(*, room_id: int, player: Player, index: int | None = None) -> Seat:
    """Sit down at seat `index`, or at the lowest free seat when None."""
    room = lock_room(room_id)
    open_room(room)
    if running_hand(room) is not None:
        raise ServiceError("hand_running", "Wait for the hand to end before sitting down.")
    if player.is_bot and not room.options.get("allow_bots", True):
        raise ServiceError("bots_not_allowed", "This room does not allow bots.")
    seats = table(room)
    if any(seat.player_id == player.pk for seat in seats):
        raise ServiceError("already_seated", "You already have a seat in this room.")
    _check_seats_held(player)
    if index is None:
        free = [seat for seat in seats if seat.player_id is None]
        if not free:
            raise ServiceError("room_full", "All five seats are taken.")
        seat = free[0]
    else:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < SEATS:
            raise ServiceError("bad_seat", f"Seats are numbered 0 to {SEATS - 1}.")
        seat = seats[index]
        if seat.player_id is not None:
            raise ServiceError("seat_taken", "That seat is taken.")
    seat.player = player
    seat.ready = player.is_bot  # 准备: a bot always is; a person presses it
    seat.save(update_fields=["player", "ready"])
    notify.room_changed(room_id=room.pk, change="seats", seat=seat.index, player=player.pk, what="taken")
    ready_clock(room, seats)
    deal_if_ready(room, seats)  # a bot taking the last seat of a ready table deals
    return seat


@transaction.atomic
def seat_ready(*, room_id: int, player: Player, on: bool = True) -> Hand | None:
    """准备: mark the player's seat ready for the next deal (or take it back, `on=False`).

    Returns the hand when this made all five seats ready: it is dealt in this same
    transaction. Refused while a hand runs (`hand_running`).
    """
    room = lock_room(room_id)
    open_room(room)
    if running_hand(room) is not None:
        raise ServiceError("hand_running", "Wait for the hand to end.")
    seats = table(room)
    seat = seat_of(seats, player)
    if seat.ready != on:
        seat.ready = on
        seat.save(update_fields=["ready"])
        notify.room_changed(room_id=room.pk, change="ready", seat=seat.index, on=on)
        ready_clock(room, seats)
    return deal_if_ready(room, seats)


@transaction.atomic
def seat_free(*, room_id: int, player: Player, index: int) -> Seat:
    """Free seat `index`, whose player did not press 准备 in time: once the room's
    `ready_time` has run out (`room.ready_due`), any other seated player may.

    The freed player leaves the table and may watch: between hands that costs no points
    (RULES §8's −40 is for leaving a hand that has started, or a kick), but open 进贡
    debts turn into points, as for anyone leaving the room (RULES §7).
    """
    room = lock_room(room_id)
    open_room(room)
    if running_hand(room) is not None:
        raise ServiceError("hand_running", "Wait for the hand to end.")
    seats = table(room)
    mine = seat_of(seats, player)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < SEATS:
        raise ServiceError("bad_seat", f"Seats are numbered 0 to {SEATS - 1}.")
    seat = seats[index]
    if seat.player_id is None:
        raise ServiceError("seat_empty", "Nobody sits there.")
    if seat.index == mine.index:
        raise ServiceError("own_seat", "That is your own seat: leave it instead.")
    if seat.ready:
        raise ServiceError("seat_ready", "That player is ready.")
    if room.ready_due is None or timezone.now() < room.ready_due:
        raise ServiceError("too_early", "The time to press Ready has not run out yet.",
                           {"due": epoch_ms(room.ready_due)})
    _leave(room, seat, kicked=False, note="")
    return seat


def _check_seats_held(player: Player) -> None:
    """A person plays at most SEATS_PER_PLAYER tables at once (bots sit anywhere): one
    guest sitting in sixty rooms would hold up sixty tables."""
    limit = settings.SEATS_PER_PLAYER
    if player.is_bot:
        return
    held = Seat.objects.filter(player=player, left=False).exclude(room__status=Room.Status.DISSOLVED).count()
    if held >= limit:
        raise ServiceError("too_many_seats", f"You already sit at {held} tables (at most {limit}): leave one first.",
                           {"limit": limit})


def _leave(room: Room, seat: Seat, *, kicked: bool, note: str) -> None:
    """A player goes (caller holds the lock).

    Mid-hand the player pays −40 and the seat plays on under 托管 to the end of the hand
    (RULES §8): the player stays recorded on it, marked `left`. Between hands the seat is
    emptied and the player's open 进贡 debts become points. A kick always costs −40
    (**[decision]** RULES §8 names kicks without limiting them to running hands).
    """
    hand = running_hand(room)
    player = seat.player
    if hand is not None or kicked:
        scoring.leave_penalty(player=player, room=room, hand=hand, note=note)
    if hand is not None:
        if not seat.trustee:
            seat.trustee_entries += 1
            telemetry.trustee_entered("left")
        seat.trustee = True
        seat.left = True
        seat.online = False
        seat.save(update_fields=["trustee", "trustee_entries", "left", "online"])
        schedule.after_commit(hand, table(room))  # the 托管 policy may have to move now
    else:
        scoring.debts_convert(room=room, player=player)
        free_seat(seat)
        ready_clock(room, table(room))
    mark_attendance(room, table(room))
    what = "kicked" if kicked else "left"
    notify.room_changed(room_id=room.pk, change="seats", seat=seat.index, player=player.pk, what=what)


def _dissolve_if_empty(room: Room) -> None:
    seats = table(room)
    if all(seat.player_id is None for seat in seats):
        dissolve(room, seats, reason="empty")


@transaction.atomic
def seat_leave(*, room_id: int, player: Player) -> Seat:
    """Leave the room (强退 once a hand has started: −40 and 托管 to the end)."""
    room = lock_room(room_id)
    open_room(room)
    seat = seat_of(table(room), player)
    _leave(room, seat, kicked=False, note="left during a hand")
    _dissolve_if_empty(room)
    return seat


@transaction.atomic
def player_kick(*, room_id: int, player: Player, by: Player | None = None, note: str = "") -> Seat:
    """An administrator removes a player from the room: −40, as for leaving mid-hand."""
    room = lock_room(room_id)
    open_room(room)
    seat = seat_of(table(room), player)
    who = f" by {by}" if by is not None else ""
    _leave(room, seat, kicked=True, note=f"kicked{who}" + (f": {note}" if note else ""))
    _dissolve_if_empty(room)
    return seat


@transaction.atomic
def seat_online(*, room_id: int, player: Player, online: bool) -> Seat:
    """The player's socket connected or went away (no effect on play by itself)."""
    room = lock_room(room_id)
    return show_online(room, table(room), player, online)


def show_online(room: Room, seats: list[Seat], player: Player, online: bool) -> Seat:
    """`seat_online` on the room as the caller locked it and its seats as read (`table`)."""
    seat = seat_of(seats, player)
    if seat.online != online:
        seat.online = online
        seat.save(update_fields=["online"])
        mark_attendance(room, seats)
        notify.room_changed(room_id=room.pk, change="seats", seat=seat.index, player=player.pk,
                            what="online" if online else "offline")
    return seat


@transaction.atomic
def room_dissolve(*, room_id: int, by: Player | None = None) -> Room:
    """Close the room: abandon a running hand unscored, convert open debts, empty the seats."""
    room = lock_room(room_id)
    open_room(room)
    dissolve(room, table(room), reason="by administrator" if by is not None else "dissolved")
    return room


def rooms_close_abandoned(*, now=None) -> int:
    """Dissolve every room left with no seated player connected for
    `ABANDONED_ROOM_SECONDS`, between hands; returns how many.

    Dissolving converts the room's open 进贡 debts to points (RULES §7: everyone leaves the
    room) and takes it off the lobby's list. A running hand is never cut short: a table
    whose players all went away mid-hand plays on under 托管 (timeouts) and closes at its end.
    """
    cutoff = (now or timezone.now()) - timedelta(seconds=settings.ABANDONED_ROOM_SECONDS)
    candidates = Room.objects.filter(status=Room.Status.OPEN, unattended_since__lte=cutoff).values_list("pk", flat=True)
    return sum(_close_if_abandoned(room_id, cutoff) for room_id in candidates)


@transaction.atomic
def _close_if_abandoned(room_id: int, cutoff) -> bool:
    room = lock_room(room_id)  # checked again under the lock: someone may have come back
    if (room.status != Room.Status.OPEN or room.unattended_since is None or room.unattended_since > cutoff
            or running_hand(room) is not None):
        return False
    dissolve(room, table(room), reason="abandoned")
    return True


@transaction.atomic
def chat_say(*, room_id: int, player: Player, text: str, phrase: str | None = None) -> ChatMessage:
    """Say something at the table (text already checked by the caller): stored, then sent
    to the room after commit. Anyone signed in who may watch the room may talk
    (`may_watch`: in a room without spectators, its players and staff)."""
    room = Room.objects.filter(pk=room_id).first()
    if room is None:
        raise ServiceError("no_room", "There is no such room.")
    open_room(room)
    if not may_watch(room=room, user=player):
        raise ServiceError("spectators_not_allowed", "This room does not allow spectators: sit down to chat.")
    until = moderation.muted_until(player.pk)
    if until is not None:
        raise ServiceError("muted", f"A moderator muted your chat until {until:%Y-%m-%d %H:%M} UTC.")
    if limits.over("chat", str(player.pk)):  # one count for all the player's sockets
        raise ServiceError("chat_too_fast", "You are chatting too fast: wait a few seconds.")
    seat = Seat.objects.filter(room=room, player=player, left=False).values_list("index", flat=True).first()
    message = ChatMessage.objects.create(room=room, player=player, seat=seat, text=text, phrase=phrase or "")
    notify.chat_said(room_id=room.pk, record=chat_record(message))
    return message
