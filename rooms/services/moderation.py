"""Moderation by staff: mute a player's chat for a while, ban a player; each with a reason,
recorded in the append-only moderation log (`ModerationEntry`).

A mute refuses `chat_say` until it ends. A ban refuses the player's sockets (`banned`,
closed at once) and pages (rooms/middleware.py) with the reason; seats keep playing
under 托管 as for any player who is gone. Sockets already open when the ban is written
are closed by their next connect, not at once.
"""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from baohuang.errors import ServiceError
from rooms.models import ModerationEntry, Player

REASON_MAX = 200
MUTE_MAX_MINUTES = 60 * 24 * 365
Action = ModerationEntry.Action


@transaction.atomic
def player_moderate(*, player: Player, staff: Player, action: str, reason: str,
                    minutes: int | None = None) -> ModerationEntry:
    """Apply ``action`` (mute for ``minutes``, unmute, ban, unban) and log it."""
    reason = " ".join(str(reason or "").split())
    if not reason or len(reason) > REASON_MAX:
        raise ServiceError("bad_reason", f"Give a reason of 1 to {REASON_MAX} characters: it is kept in the log.")
    if action not in Action.values:
        raise ServiceError("bad_action", f"The action is one of {', '.join(Action.values)}.")
    target = Player.objects.select_for_update().get(pk=player.pk)
    until = None
    if action == Action.MUTE:
        if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= MUTE_MAX_MINUTES:
            raise ServiceError("bad_duration", f"A mute lasts 1 to {MUTE_MAX_MINUTES} minutes.")
        until = timezone.now() + timedelta(minutes=minutes)
        target.chat_muted_until = until
    elif action == Action.UNMUTE:
        target.chat_muted_until = None
    else:
        target.banned = action == Action.BAN
        target.ban_reason = reason if target.banned else ""
    target.save(update_fields=["chat_muted_until", "banned", "ban_reason"])
    return ModerationEntry.objects.create(player=target, staff=staff, action=action, until=until, reason=reason)


def muted_until(player_id: int):
    """The end of the player's mute, or None when they may chat."""
    return Player.objects.filter(pk=player_id, chat_muted_until__gt=timezone.now()).values_list(
        "chat_muted_until", flat=True).first()


def ban_refusal(player) -> tuple[str, str] | None:
    """(code, message) refusing a banned player, else None."""
    if player is None or not getattr(player, "banned", False):
        return None
    return "banned", f"You are banned from this server: {player.ban_reason}"
