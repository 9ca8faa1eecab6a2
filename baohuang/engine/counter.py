"""记牌器 (the card counter): how many copies of each rank a seat has not seen yet.

For one seat, a rank's count is the preset's copies of it, minus those in the seat's own
hand, minus those that left play in public — played, or discarded by 闷三 (a 闷 player's
one card is known to be its 3). A card paid to the seat as tribute (进贡) or for a 3
(买3) is in its hand, so it is counted as seen.

[decision] The counter uses only these public counts and the seat's own hand. It does
not follow cards the seat saw change hands (a 让皇 bundle, a tribute it paid): commercial
apps' 记牌器 show "still out", and so does this one.

Keys, high to low: in qingdao ``"4H*"`` (保子, the one card above the big joker), then
``"BJ"`` and ``"SJ"`` (a marked joker counts as a joker of its kind), then the natural
ranks ``"2"``, ``"A"``, … down to the lowest rank the preset's deck holds.
"""

from __future__ import annotations

from functools import cache

from .cards import BAOZI, RANKS, build_deck, identity
from .presets import PRESET


@cache  # a few hundred (card, preset) pairs; the counter asks it for every card of a hand per view
def counter_key(card: str, preset: str) -> str:
    """Which counter a card counts in: its rank, its joker kind, or qingdao's 保子."""
    if card == BAOZI and PRESET[preset].baozi_high:
        return BAOZI
    card = identity(card)
    return card if card in ("SJ", "BJ") else card[0]


_TOTALS: dict = {}


def totals(preset: str) -> dict[str, int]:
    """Copies of each counter key in ``preset``'s deck, high to low (memoised)."""
    if preset not in _TOTALS:
        counts: dict[str, int] = {}
        for card in build_deck(preset):
            key = counter_key(card, preset)
            counts[key] = counts.get(key, 0) + 1
        order = [BAOZI, "BJ", "SJ", *reversed(RANKS)]
        _TOTALS[preset] = {key: counts[key] for key in order if key in counts}
    return dict(_TOTALS[preset])


def gone_after(gone: dict | None, cards, preset: str) -> dict:
    """The public tally of cards out of play once ``cards`` leave it (a new dict)."""
    tally = dict(gone or {})
    for card in cards:
        key = counter_key(card, preset)
        tally[key] = tally.get(key, 0) + 1
    return tally


def unseen(state: dict, seat: int) -> dict[str, int]:
    """The counter for ``seat``: copies of each key neither in its hand nor out of play."""
    preset = state["preset"]
    counts = totals(preset)
    # .get: a hand set up by `state_from_hands` may hold cards its preset's deck lacks.
    for card in state["hands"][seat]:
        key = counter_key(card, preset)
        counts[key] = counts.get(key, 0) - 1
    for key, number in (state.get("gone") or {}).items():
        counts[key] = counts.get(key, 0) - number
    return counts
