"""Bots (机器人): seats the server fills and plays at the level chosen for each (issue 5, 18).

A bot is a `Player` with ``is_bot=True`` and a `bot_level` (rooms.levels: 入门 novice,
普通 normal, 高手 expert), whose stored name is only its number in the room; people see it
worded in their language (机器人 3 / Bot 3, `rooms.models.shown_name`), and every reader can
tell it by that flag (leaderboards leave bots off). A bot is never under 托管: it plays its
own moves through `hand_act`, the service a human's client uses, after its think time
(rooms.think, queued by `rooms.services.schedule`; the Celery task `rooms.seat_move`
runs `rooms.services.timers.seat_move`, which calls `bot_move`).
"""

from django.conf import settings
from django.db import transaction

from baohuang import engine
from baohuang.errors import ServiceError
from rooms import levels
from rooms.models import Hand, Player, Seat
from rooms.services.common import lock_room, open_room, table
from rooms.services.acting import hand_act
from rooms.services.players import player_bot
from rooms.services.rooms import seat_take

# Refusals that only mean "someone else moved first": the bot simply has nothing to do.
MOVED_ON = frozenset({"stale_version", "no_hand", "not_your_turn", "hand_over", "wrong_phase"})


@transaction.atomic
def seat_add_bot(*, room_id: int, by: Player, index: int | None = None,
                 level: str = levels.DEFAULT_BOT_LEVEL) -> Seat:
    """The room's creator fills an empty seat (``index``, or the lowest free) with a bot
    of ``level``."""
    room = lock_room(room_id)
    open_room(room)
    if room.creator_id is None or room.creator_id != by.pk:
        raise ServiceError("not_creator", "Only the room's creator can add a bot.")
    if not room.options.get("allow_bots", True):
        raise ServiceError("bots_not_allowed", "This room does not allow bots.")
    number = sum(1 for seat in table(room) if seat.player_id and seat.player.is_bot) + 1
    bot = player_bot(number=number, level=level)
    # seat_take re-checks a free seat and a hand not running; its refusal rolls the bot back.
    return seat_take(room_id=room.pk, player=bot, index=index)


def bot_move(*, hand: Hand, seat: Seat, version: int):
    """The bot in ``seat`` plays its move at ``version``; None when there is nothing to do
    (the hand moved on, ended, or the seat holds no bot). `timers.seat_move` reads the
    rows and calls this. The bot decides at its level before any lock is
    taken (a search spends `BOT_SEARCH_SECONDS`); `hand_act` then refuses the move if the
    hand has moved past ``version`` meanwhile."""
    if not hand.running or hand.version != version or seat.index not in engine.actors(hand.state):
        return None
    if seat.player_id is None or not seat.player.is_bot:
        return None
    action = levels.decide(hand.state, seat.index, seat.player.level,
                           search_seconds=settings.BOT_SEARCH_SECONDS)
    try:
        return hand_act(hand_id=hand.pk, seat=seat.index, action=action, expected_version=version,
                        player=seat.player)
    except ServiceError as error:
        if error.code in MOVED_ON:
            return None
        raise
