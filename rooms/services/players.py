"""Creating players: guests from a nickname, and bots."""

import secrets
import unicodedata

from django.db import transaction

from rooms.errors import ServiceError
from rooms.models import Player

NICKNAME_MAX = 20


def _clean_nickname(nickname: str) -> str:
    nickname = " ".join(str(nickname or "").split())
    if not nickname:
        raise ServiceError("bad_nickname", "Choose a nickname.")
    if len(nickname) > NICKNAME_MAX:
        raise ServiceError("bad_nickname", f"A nickname has at most {NICKNAME_MAX} characters.")
    if any(unicodedata.category(char).startswith("C") for char in nickname):
        raise ServiceError("bad_nickname", "A nickname cannot hold control characters.")
    return nickname


def _new_player(*, prefix: str, display_name: str, is_bot: bool) -> Player:
    # The username is only an internal unique handle; people see display_name.
    player = Player(username=f"{prefix}-{secrets.token_hex(6)}", display_name=display_name, is_bot=is_bot)
    player.set_unusable_password()
    player.save()
    return player


@transaction.atomic
def player_guest(*, nickname: str) -> Player:
    """A guest: a Player with a nickname and no password."""
    return _new_player(prefix="guest", display_name=_clean_nickname(nickname), is_bot=False)


@transaction.atomic
def player_bot(*, name: str) -> Player:
    """A bot player (seated only in rooms that allow bots)."""
    return _new_player(prefix="bot", display_name=_clean_nickname(name), is_bot=True)
