"""Bot and 托管 levels (issue 18): 入门 novice, 普通 normal, 高手 expert.

A level names the engine policy that decides for a seat the server plays: a bot (its
`Player.bot_level`, chosen when the bot is added) or a seat under 托管 (the room's
``trustee_level`` option). The labels people read are in `rooms.table_text` (the table)
and `rooms.forms` (the lobby), both from `LABELS`.
"""

import time

from django.utils.translation import gettext_lazy as _

from baohuang import engine
from rooms import think

LEVELS = ("novice", "normal", "expert")
POLICY = {"novice": "baseline", "normal": "strong", "expert": "search"}
SEARCH_LEVELS = frozenset({"expert"})  # levels whose decision spends the search budget
LABELS = {"novice": _("Novice"), "normal": _("Normal"), "expert": _("Expert")}  # 入门, 普通, 高手
DEFAULT_BOT_LEVEL = "normal"
DEFAULT_TRUSTEE_LEVEL = "novice"  # RULES §8: the baseline policy plays for a seat that timed out


def playing_level(stored: str) -> str:
    """The level a bot plays at, from its stored `Player.bot_level`: a bot made without
    one (say in the admin) plays the default bot level."""
    return stored or DEFAULT_BOT_LEVEL


def decide(state: dict, seat: int, level: str, *, search_seconds: float, paced: bool = True) -> dict:
    """The action ``level``'s policy takes for ``seat`` (always legal). The search level
    takes ``search_seconds`` unless the move is forced or not ``paced``: the search stops
    sooner on a plain choice (`engine.pimc`), and a paced move then waits for the rest,
    because the schedule counts the whole budget in the seat's think time
    (`schedule.move_countdown`). A move past the seat's deadline (a turn timer's) is not
    paced: the table has waited enough. Slow at the search level: call it outside any
    transaction, then apply the action fenced by the version it was read at."""
    policy = POLICY[level]
    if level not in SEARCH_LEVELS:
        return engine.autoplay(state, seat, policy)
    started = time.monotonic()
    action = engine.autoplay(state, seat, policy, budget=search_seconds)
    if paced and not think.forced(state, seat):
        time.sleep(max(0.0, search_seconds - (time.monotonic() - started)))
    return action
