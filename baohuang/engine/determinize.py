"""Samples of the hidden cards and roles, from one seat's view only (determinization).

`sample(view, rng)` returns a `fastsim.Sim`: the seat's own hand as it is, the cards it
has not seen (the 记牌器 counts, `counter.unseen`: the deck less its own hand less every
card that left play face up) dealt at random to the other seats in their public counts,
and roles the view allows:

- the emperor is public; a revealed guard or solo is public (明保, 造反, the guard card
  played, 明独, 抢独);
- a 暗保 guard knows itself and the emperor; a 暗独 emperor knows it is alone;
- otherwise the guard is one of the seats that could be it — any non-emperor seat other
  than the viewer, or, for a viewer who is not the emperor, the emperor itself (暗独,
  with a small prior `DARK_SOLO_PRIOR`) — and it is dealt a card of the guard card's
  tier (lianzhong SJ*, qingdao 保子, the called card's rank where the emperor calls it),
  since playing the guard card would have revealed it;
- in qingdao every seat still holding cards holds one 3 (买3 gave each seat one, and a
  3 is played only as the last card);
- in qingdao a seat that paid its 保子 (4H*) as tribute or for a 3 knows who received
  it: the transfers carry the card only in the views of payer and receiver.

Passes, plays and bids are not used to infer more (each sample is equally likely given
the counts): the search does not read opponents' minds, only the table.
"""

from __future__ import annotations

import random

from .cards import BAOZI, RANKS, VALUES
from .fastsim import TIERS, Sim
from .presets import PRESET
from .sets import SIX, THREE, composition

DARK_SOLO_PRIOR = 0.1  # weight of "the emperor is alone" against 1 per possible guard


def counter_tier(key: str, preset: str) -> int:
    """The tier of a 记牌器 key (``"9"``, ``"SJ"``, ``"BJ"``, ``"4H*"``)."""
    if key in ("SJ", "BJ", BAOZI):
        return VALUES[preset][key]
    return RANKS.index(key)


def unseen_pool(view: dict) -> list[int]:
    """The unseen cards as a list of tiers (one entry per card)."""
    preset, pool = view["preset"], []
    if "counter" not in view:
        raise ValueError("the search bot needs the view's 记牌器 (counter): build the view "
                         "with the option card_counter on, as search.search does")
    for key, count in view["counter"].items():
        pool.extend([counter_tier(key, preset)] * max(0, count))
    return pool


def marker_tier(view: dict) -> int | None:
    """The tier of the card an unrevealed guard must still hold."""
    preset, roles = view["preset"], view["roles"]
    card = PRESET[preset].guard_card or roles["called"]
    return None if card is None else VALUES[preset][card]


def _known_baozi_holder(view: dict) -> int | None:
    """qingdao: the seat the viewer paid its 保子 to (tribute or 买3), if it did."""
    deal = view.get("deal") or {}
    for entry in deal.get("tribute_paid", ()):
        if entry.get("card") == BAOZI and entry["from"] == view["seat"]:
            return entry["to"]
    for entry in deal.get("threes", ()):
        if entry.get("paid") == BAOZI and entry["buyer"] == view["seat"]:
            return entry["seller"]
    return None


def guard_candidates(view: dict) -> list[tuple[int, float]]:
    """``(seat, weight)`` of each seat the guard may be, as this viewer knows; a single
    entry when it knows. The emperor as candidate means a 暗独 (no guard)."""
    seat, roles = view["seat"], view["roles"]
    emperor = roles["emperor"]
    if roles["revealed"] or roles["solo"] is not None:
        return [(roles["guard"] if roles["guard"] is not None else emperor, 1.0)]
    if roles["guard"] is not None:
        return [(roles["guard"], 1.0)]  # the viewer is the guard
    known = _known_baozi_holder(view)
    if known is not None:
        return [(known, 1.0)]
    others = [(other, 1.0) for other in range(5) if other not in (seat, emperor)]
    if seat != emperor:
        others.append((emperor, DARK_SOLO_PRIOR))
    return others


def own_tiers(view: dict) -> list[int]:
    hand = [0] * TIERS
    for card in view["hand"]:
        hand[VALUES[view["preset"]][card]] += 1
    return hand


def deal_unseen(view: dict, rng: random.Random, pool: list[int], candidates) -> tuple[list, int]:
    """The five hands with ``pool`` (the unseen tiers) dealt at random to the other seats
    in their public counts, and the guard's seat drawn from ``candidates`` (`guard_candidates`)
    — dealt a card of the guard card's tier while it is still hidden. ``pool`` is consumed."""
    seat, preset = view["seat"], view["preset"]
    hands = [[0] * TIERS for _ in range(5)]
    hands[seat] = own_tiers(view)
    need = list(view["counts"])
    need[seat] = 0
    guard = _pick(candidates, rng) if len(candidates) > 1 else candidates[0][0]
    tier = marker_tier(view)
    if len(candidates) > 1 and tier is not None and tier in pool and need[guard]:
        pool.remove(tier)  # the unrevealed guard still holds its guard card
        hands[guard][tier] += 1
        need[guard] -= 1
    if PRESET[preset].three_goes_last:
        # qingdao: after 买3 every seat holds one 3, played only as its last card; a seat
        # is never dealt a second one (it could never lead).
        threes = pool.count(THREE)
        pool = [tier for tier in pool if tier != THREE]
        for other in range(5):
            if need[other] and threes:
                threes -= 1
                hands[other][THREE] += 1
                need[other] -= 1
    rng.shuffle(pool)
    at = 0
    for other in range(5):
        for drawn in pool[at:at + need[other]]:
            hands[other][drawn] += 1
        at += need[other]
    return hands, guard


def six_binding(view: dict, hands) -> list[bool]:
    """憋6 for each seat: the viewer's own flag; another seat is bound when it holds a 6."""
    binds = PRESET[view["preset"]].sixes_option and view["options"].get("hold_sixes", False)
    return [bool(view["six_bound"]) if other == view["seat"] else binds and hands[other][SIX] > 0
            for other in range(5)]


def sample(view: dict, rng: random.Random, *, declarations=None, solo=None) -> Sim:
    """One world consistent with ``view`` — in the play phase, or in the declaration
    window (play then starts with the emperor's lead) — hands and roles complete.
    ``declarations`` / ``solo`` override the view's (a declaration being weighed)."""
    preset, roles = view["preset"], view["roles"]
    emperor = roles["emperor"]
    hands, guard = deal_unseen(view, rng, unseen_pool(view), guard_candidates(view))
    solo = solo or roles["solo"]
    if guard == emperor:
        guard, solo = None, solo or "dark"
    table = view.get("table") or {"top": None, "leader": emperor, "passed": [], "yielded": []}
    top = table["top"]
    return Sim(preset, hands, turn=emperor if view["turn"] is None else view["turn"],
               top=None if top is None else composition(top["cards"], preset),
               top_seat=None if top is None else top["seat"], leader=table["leader"],
               passed=table["passed"], yielded=table["yielded"], places=view["places"],
               emperor=emperor, guard=guard, solo=solo,
               declarations=view["declarations"] if declarations is None else declarations,
               bound=six_binding(view, hands), seed=rng.getrandbits(32),
               revealed=roles["revealed"], marker=marker_tier(view))


def _pick(candidates, rng: random.Random) -> int:
    total = sum(weight for _seat, weight in candidates)
    point = rng.random() * total
    for seat, weight in candidates:
        point -= weight
        if point < 0:
            return seat
    return candidates[-1][0]
