"""托管 (auto-play) switched on or off by the player's button."""

from django.db import transaction

from baohuang import engine
from baohuang.errors import ServiceError
from rooms import notify, telemetry
from rooms.models import Player, Seat
from rooms.services import schedule
from rooms.services.common import lock_room, open_room, running_hand, table


@transaction.atomic
def trustee_set(*, room_id: int, seat: int, on: bool, player: Player | None = None) -> Seat:
    """Turn 托管 on or off for a seat during a hand.

    Entering counts; after more than three entries in one hand 托管 is locked on
    (RULES §8), and a seat whose player left can never turn it off.
    """
    room = lock_room(room_id)
    open_room(room)
    hand = running_hand(room)
    if hand is None:
        raise ServiceError("no_hand", "托管 only applies while a hand is being played.")
    seats = table(room)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
        raise ServiceError("bad_seat", "Seats are numbered 0 to 4.")
    mine = seats[seat]
    if mine.left or mine.player_id is None or (player is not None and mine.player_id != player.pk):
        raise ServiceError("not_seated", "You are not seated there.")
    if on == mine.trustee:
        return mine
    if not on and mine.trustee_locked:
        raise ServiceError("trustee_locked", "托管 is locked on for the rest of this hand.")
    mine.trustee = on
    if on:
        mine.trustee_entries += 1
        telemetry.trustee_entered("asked")
    mine.save(update_fields=["trustee", "trustee_entries"])
    notify.room_changed(room_id=room.pk, change="trustee", seat=seat, on=on, locked=mine.trustee_locked,
                        entries=mine.trustee_entries)
    if on and seat in engine.actors(hand.state):
        schedule.after_commit(hand, seats)  # the policy may have to move now
    return mine
