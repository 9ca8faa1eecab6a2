"""The only code that writes rooms, seats, hands and (through scoring) the ledger.

Every service is keyword-only, writes with the room's row locked (`select_for_update()`,
or, for a move on the table its process holds, the same lock taken by its one fenced
statement string: `rooms.services.acting`; the room row is the single lock for everything
in the room, so services never deadlock on lock order), and raises
`ServiceError(code, message)`. Broadcasts and the timer hook run after commit
(`rooms.notify`, `baohuang.after_commit`).
"""

from baohuang.errors import ServiceError
from rooms.services.acting import ahand_act, hand_act
from rooms.services.bots import seat_add_bot
from rooms.services.hands import HandChange, hand_act_for, hand_start, hand_window_close
from rooms.services.moderation import player_moderate
from rooms.services.players import player_bot, player_guest
from rooms.services.rooms import (chat_say, player_kick, room_create, room_dissolve, rooms_close_abandoned, seat_free,
                                  seat_leave, seat_online, seat_ready, seat_take)
from rooms.services.trustee import trustee_set

__all__ = [
    "HandChange",
    "ServiceError",
    "ahand_act",
    "chat_say",
    "hand_act",
    "hand_act_for",
    "hand_start",
    "hand_window_close",
    "player_bot",
    "player_guest",
    "player_kick",
    "player_moderate",
    "room_create",
    "room_dissolve",
    "rooms_close_abandoned",
    "seat_add_bot",
    "seat_free",
    "seat_leave",
    "seat_online",
    "seat_ready",
    "seat_take",
    "trustee_set",
]
