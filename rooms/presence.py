"""Presence (在线状态): which seated players have a live socket, and what a seat shows.

A seat's `online` flag lives on its `Seat` row, so every server process reads and writes
the same value and `rooms.services.seat_online` announces each change to the room group
after commit. A player may hold several sockets (two tabs, two server processes): when one
closes the seat goes offline, and every other socket of that player, on hearing it, marks
the seat online again (`RoomConsumer.room_changed`) — no connection counting to drift when
a process dies.
"""

from django.db import transaction

from rooms.errors import ServiceError
from rooms.models import Player, Seat
from rooms.services import seat_online, seat_take


def seat_record(seat: Seat) -> dict:
    """One seat as the protocol shows it (`snapshot.seats`, `presence.seat`)."""
    player = seat.player
    return {
        "index": seat.index,
        "player": None if player is None else {"id": player.pk, "name": str(player), "bot": player.is_bot},
        "online": seat.online,
        "trustee": seat.trustee,
        "trustee_locked": seat.trustee_locked,
        "left": seat.left,
    }


def seat_connected(*, room_id: int, player: Player) -> bool:
    """Mark the player's seat online; False (and nothing changed) when not seated."""
    try:
        seat_online(room_id=room_id, player=player, online=True)
    except ServiceError:
        return False
    return True


def seat_disconnected(*, room_id: int, player: Player) -> None:
    """Mark the player's seat offline (a no-op when the player has no seat any more)."""
    try:
        seat_online(room_id=room_id, player=player, online=False)
    except ServiceError:
        pass


@transaction.atomic
def seat_take_online(*, room_id: int, player: Player, index: int | None) -> Seat:
    """Sit down from a live socket: take the seat and show it online, in one transaction."""
    seat_take(room_id=room_id, player=player, index=index)
    return seat_online(room_id=room_id, player=player, online=True)
