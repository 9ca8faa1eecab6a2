"""The search bot's bidding (让皇) and declarations (明保, 明独), weighed by rollouts.

Each option is played out from the start of play over the same sampled worlds
(`determinize`, `pimc.compare`):

- 让皇 (lianzhong, qingdao): ``accept`` — the seat is emperor with the bundle, and the
  guard is whoever holds the guard card (itself: a 暗独) — against ``decline``: the bundle
  and the card it adds go to its 上家, who is taken to accept (as the baseline and strong
  policies do), or the hand is void (0 points) at the last refusal.
- the declaration window: a guard weighs 明保 (``ming_bao``, doubling) against silence, a
  soloist 明独 (``open_solo``) against 暗独. The other answers (反, 扭, 踢, 抢独) stay
  silent, as the baseline's.

Classic 叫庄 and lianzhong_classic 让位 keep the baseline's bidding (`search._bid`).
"""

from __future__ import annotations

import random

from .bidding import _bundle_card
from .cards import EMPEROR_CARD, VALUES
from .determinize import (_known_baozi_holder, deal_unseen, sample, six_binding,
                          unseen_pool)
from .fastsim import Sim, guard_tier
from .pimc import compare
from .play import prev_seat
from .presets import PRESET

LOUD = {"ming_bao": "an_bao", "open_solo": "dark_solo"}  # a loud answer → its silent one


def declare(view: dict, rng: random.Random, *, deadline: float, iterations) -> dict:
    """The window answer: a loud one only where rollouts prefer it."""
    answers = view["choices"].get("declare", ["none"])
    silent = "dark_solo" if "dark_solo" in answers else "none"
    loud = [what for what in LOUD if what in answers]
    options = [silent] + loud
    if len(options) == 1:
        return _action(view, "declare", what=silent)

    def worlds():
        world = sample(view, rng)
        sims = [world]
        for what in loud:
            sim = world.copy()
            if what == "ming_bao":
                sim.declarations = (*sim.declarations, "ming_bao")
            else:
                sim.solo = "open"
            sim.revealed = True  # both are said aloud
            sims.append(sim)
        return sims

    best = compare(worlds, view["seat"], deadline=deadline, iterations=iterations)
    return _action(view, "declare", what=options[best])


def bundle_bid(view: dict, rng: random.Random, *, deadline: float, iterations) -> dict:
    """让皇: accept or decline, whichever plays out better."""
    preset, seat = view["preset"], view["seat"]
    rules, table = PRESET[preset], VALUES[preset]
    bidding = view["bidding"]
    bundle = [table[card] for card in bidding["bundle"]]
    declines = bidding["declines"]
    added_cards = ([EMPEROR_CARD] if EMPEROR_CARD in view["hand"] else []) if declines == 0 \
        else _bundle_card(view["hand"], preset)
    added = [table[card] for card in added_cards]
    voids = declines + 1 >= rules.max_refusals
    upper = prev_seat(seat)

    def worlds():
        pool = unseen_pool(view)
        for tier in bundle:
            pool.remove(tier)  # face up in the bundle, not in a hand
        hands, guard = deal_unseen(view, rng, pool, _candidates(view))
        bound = six_binding(view, hands)
        taken = [list(hand) for hand in hands]
        for tier in bundle:
            taken[seat][tier] += 1
        sims = [_start(preset, taken, seat, guard, bound, rng)]
        if voids:
            return sims + [None]
        for tier in bundle + added:
            hands[upper][tier] += 1
        for tier in added:
            hands[seat][tier] -= 1
        return sims + [_start(preset, hands, upper, guard, bound, rng)]

    best = compare(worlds, seat, deadline=deadline, iterations=iterations)
    return _action(view, ("accept", "decline")[best])


def _candidates(view: dict) -> list[tuple[int, float]]:
    """Where the guard card is during the bidding: the viewer's hand, a seat it paid its
    保子 to, or any other seat alike."""
    seat = view["seat"]
    if PRESET[view["preset"]].guard_card in view["hand"]:
        return [(seat, 1.0)]
    known = _known_baozi_holder(view)
    if known is not None:
        return [(known, 1.0)]
    return [(other, 1.0) for other in range(5) if other != seat]


def _start(preset, hands, emperor, guard, bound, rng) -> Sim:
    """The first lead of a hand whose emperor is ``emperor`` (alone if it is the guard)."""
    solo = "dark" if guard == emperor else None
    return Sim(preset, hands, turn=emperor, emperor=emperor,
               guard=None if solo else guard, solo=solo, bound=bound, seed=rng.getrandbits(32),
               marker=guard_tier(preset, PRESET[preset].guard_card))


def _action(view: dict, kind: str, **fields) -> dict:
    return {"seat": view["seat"], "type": kind, **fields}
