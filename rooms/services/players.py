"""Creating players: guests from a nickname, and bots."""

import secrets
import unicodedata

from django.db import transaction
from django.db.models import Q

from baohuang.errors import ServiceError
from rooms import names
from rooms.levels import DEFAULT_BOT_LEVEL, LEVELS
from rooms.models import Player

NICKNAME_MAX = 20


def _clean_nickname(nickname: str) -> str:
    nickname = " ".join(str(nickname or "").split())
    if not nickname:
        raise ServiceError("bad_nickname", "Choose a nickname.", {"why": "empty"})
    if len(nickname) > NICKNAME_MAX:
        raise ServiceError("bad_nickname", f"A nickname has at most {NICKNAME_MAX} characters.",
                           {"why": "long", "max": NICKNAME_MAX})
    if names.has_controls(nickname):
        raise ServiceError("bad_nickname", "A nickname cannot hold control or direction characters.",
                           {"why": "controls"})
    return nickname


def _check_guest_nickname(nickname: str) -> None:
    """What a person may not call themself (rooms.names): reserved words, look-alike
    alphabets mixed, a look-alike of an existing player's name."""
    if names.reserved(nickname):
        raise ServiceError("reserved_nickname", "That nickname is reserved: choose another.")
    if names.mixed_scripts(nickname):
        raise ServiceError("bad_nickname", "A nickname cannot mix look-alike alphabets (such as Latin and Cyrillic).",
                           {"why": "mixed_scripts"})
    looks = names.skeleton(nickname)
    if looks != unicodedata.normalize("NFKC", nickname).casefold() and Player.objects.filter(
            Q(display_name__iexact=looks) | Q(username__iexact=looks)).exists():
        raise ServiceError("bad_nickname", "That nickname looks like another player's: choose another.",
                           {"why": "look_alike"})


def _new_player(*, prefix: str, display_name: str, is_bot: bool, bot_level: str = "") -> Player:
    # The username is only an internal unique handle; people see display_name.
    player = Player(username=f"{prefix}-{secrets.token_hex(6)}", display_name=display_name, is_bot=is_bot,
                    bot_level=bot_level)
    player.set_unusable_password()
    player.save()
    return player


@transaction.atomic
def player_guest(*, nickname: str) -> Player:
    """A guest: a Player with a nickname and no password."""
    nickname = _clean_nickname(nickname)
    _check_guest_nickname(nickname)
    return _new_player(prefix="guest", display_name=nickname, is_bot=False)


@transaction.atomic
def player_bot(*, number: int, level: str = DEFAULT_BOT_LEVEL) -> Player:
    """A bot player of ``level`` (rooms.levels; seated only in rooms that allow bots),
    stored by its number alone: its name is worded per language where it is shown
    (`rooms.models.shown_name`)."""
    if level not in LEVELS:
        raise ServiceError("bad_level", f"A bot's level is one of {', '.join(LEVELS)}.")
    return _new_player(prefix="bot", display_name=str(int(number)), is_bot=True, bot_level=level)
