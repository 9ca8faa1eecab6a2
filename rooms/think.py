"""Think time: how long a bot or a 托管 seat pauses before its move (issue 18).

The room's ``trustee_delay`` (seconds, 0–10, default 1.0) is the pace: a move that is
forced (one legal action) comes after 0.3–0.6 × the pace, an ordinary one after
0.6–1.5 × it, a hard one — a bid, a declaration, or a play with many legal options —
after 1.6 times that. The pause counts the time the decision itself takes: a search
level that thinks for its budget waits only for the rest, and none when the search
takes longer than the pause. A pace of 0 moves at once (tests, bot-only tables).

Seeded by (hand, version, seat), so a pause is the same each time it is asked for and a
test can bound it.
"""

import random

from baohuang import engine

FORCED = (0.3, 0.6)  # × the pace
ORDINARY = (0.6, 1.5)
HARD_FACTOR = 1.6
HARD_OPTIONS = 12  # a play with at least this many legal options is a hard choice
HARD_KINDS = frozenset({"bid", "declare"})  # engine.decision_kind() values


def pause(state: dict, seat: int, *, pace: float, hand_id: int, version: int) -> float:
    """Seconds ``seat`` seems to think at this decision (before deducting compute time)."""
    if pace <= 0:
        return 0.0
    rng = random.Random(f"{hand_id}:{version}:{seat}")
    options = len(engine.legal_actions(state, seat))
    if options <= 1:
        return pace * rng.uniform(*FORCED)
    seconds = pace * rng.uniform(*ORDINARY)
    if engine.decision_kind(state) in HARD_KINDS or options >= HARD_OPTIONS:
        seconds *= HARD_FACTOR
    return seconds


def forced(state: dict, seat: int) -> bool:
    """One legal action: no policy needs to think (the search answers at once)."""
    return len(engine.legal_actions(state, seat)) <= 1


def longest(pace: float) -> float:
    """The longest pause at ``pace`` (the sweep waits this long before a move is late)."""
    return pace * ORDINARY[1] * HARD_FACTOR
