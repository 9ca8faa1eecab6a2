"""The rollout policy of the search bot: `strong`'s rules of thumb on the compact `Sim`.

Within one sample of the hidden cards every hand is known, but a rollout player acts on
the sides it would know at the table (`strong.known_sides`: a hidden guard is nobody's
known partner but the emperor's, until it is shown — `fastsim.Sim.revealed`), as the
strong policy does, so the rollouts play as the table would. The rules, cheap enough to
play a whole hand in a few milliseconds:

- go out when one set empties the hand;
- leading: its lowest whole natural group with nothing attached (not the group that
  must go last — qingdao's 3, a 憋6 seat's 6s), avoiding a size that a near-out
  opponent could answer with its whole hand; its lowest single for a partner on one card;
- following: never over a known partner; the cheapest beat by natural cards (whole groups,
  low ranks, `strong.follow_cost`'s units) when cheap; a costly beat — a broken group,
  a high rank, jokers — only when an opponent on the top set is near out or the beat
  leaves at most one set; never down to a lone qingdao 3 (闷三 would put it last);
  otherwise pass.
"""

from __future__ import annotations

from .cards import BAOZI_VALUE, BIG_JOKER_VALUE, SMALL_JOKER_VALUE
from .fastsim import NATURALS, PASS, TIERS, Sim, comp_size
from .sets import SIX, THREE
from .strong import BREAK_COST, CHEAP, HIGH_RANK_FROM, JOKER_COST, NEAR_OUT, known_sides

MAX_ACTIONS = 3000  # a hand takes a few hundred actions; more would be a bug


def rollout(sim: Sim, hero: int | None = None) -> list[int]:
    """Play ``sim`` to the end with `choose` for every seat; the five scores. ``hero``, the
    searching seat, plays its own part as the search does where the two differ most: alone
    (`lone_follow`)."""
    for _ in range(MAX_ACTIONS):
        if sim.scores is not None:
            return sim.scores
        seat = sim.turn
        action = choose(sim, seat)
        if action == PASS and seat == hero and seat == sim.emperor and sim.solo is not None:
            action = lone_follow(sim, seat)
        sim.act(action)
    raise RuntimeError("a rollout did not end")


def lone_follow(sim: Sim, seat: int):
    """A soloist's follow where `follow` passes: its cheapest beat, whatever it costs.

    Alone against four, every round the rebels win is a lead they use to shed cards, and
    the search bot plays a solo so: as 抢庄 emperor from a classic deal it went out first in
    70 % of 40 hands against four strong seats, while its rollouts — `follow` for the
    soloist, which saves its jokers and big sets — said 28 %; with this follow they say
    57 %. The rollouts of the searching seat use it (`rollout`'s ``hero``) when it weighs a
    bid or a declaration (`pimc.compare`'s ``alone``), so a solo is weighed as the search
    will play it; the other seats keep `follow`. Not in a play's rollouts: there it made
    the search's own solo play worse (20 of the same 40 hands won).
    """
    options = sim.plays(seat)
    if not options:
        return PASS
    hand = sim.hands[seat]
    return _unless_lone_three(sim, seat, min(options, key=lambda comp: _cost(hand, comp)))


def choose(sim: Sim, seat: int):
    """The rollout action of the seat to act."""
    if sim.top is None:
        return lead(sim, seat)
    return follow(sim, seat)


_SIDES: dict = {}


def _sides(sim: Sim, seat: int) -> tuple[set, set]:
    """(known partners, known opponents) of ``seat`` in ``sim``, memoised."""
    key = (seat, sim.emperor, sim.guard, sim.solo, sim.revealed)
    sides = _SIDES.get(key)
    if sides is None:
        sides = _SIDES[key] = known_sides(*key)
    return sides


def _last_tier(sim: Sim, seat: int):
    hand = sim.hands[seat]
    if hand[THREE] and sim.rules.three_goes_last:
        return THREE
    if sim.bound[seat] and hand[SIX]:
        return SIX
    return None


def _whole_hand(sim: Sim, seat: int):
    """The one set that empties the hand, if it is one legal set now."""
    hand = sim.hands[seat]
    naturals = [tier for tier in range(NATURALS) if hand[tier]]
    if len(naturals) > 1:
        return None
    base = naturals[0] if naturals else next(tier for tier in range(TIERS) if hand[tier])
    comp = (base, hand[base], hand[SMALL_JOKER_VALUE] if base < SMALL_JOKER_VALUE else 0,
            hand[BIG_JOKER_VALUE] if base < BIG_JOKER_VALUE else 0,
            hand[BAOZI_VALUE] if base < BAOZI_VALUE else 0)
    return comp if comp in sim.plays(seat) else None


def lead(sim: Sim, seat: int):
    out = _whole_hand(sim, seat)
    if out is not None:
        return out
    hand = sim.hands[seat]
    partners, opponents = _sides(sim, seat)
    last = _last_tier(sim, seat)
    partner_on_one = any(sim.sizes[other] == 1 for other in partners)
    groups = [tier for tier in range(NATURALS) if hand[tier] and tier != last]
    if partner_on_one and groups:
        return (groups[0], 1, 0, 0, 0)
    danger = {sim.sizes[other] for other in opponents if 0 < sim.sizes[other] <= NEAR_OUT}
    for tier in groups:
        if hand[tier] not in danger:
            return (tier, hand[tier], 0, 0, 0)
    if groups:
        return (groups[0], hand[groups[0]], 0, 0, 0)
    return sim.plays(seat)[0]  # jokers only, or the forced last set


def follow(sim: Sim, seat: int):
    top, owner = sim.top, sim.top_seat
    hand, size = sim.hands[seat], comp_size(top)
    could_go_out = sim.sizes[seat] == size
    partners, opponents = _sides(sim, seat)
    if owner in partners:
        out = _whole_hand(sim, seat) if could_go_out else None
        return PASS if out is None else out
    best, best_cost = None, None
    if not top[2] and not top[3] and not top[4]:
        # A plain top set: natural beats, no jokers (the common case, without enumerating).
        for tier in range(top[0] + 1, NATURALS):
            count = hand[tier]
            if count >= size and not (sim.bound[seat] and tier == SIX):
                cost = (BREAK_COST if count > size else 0.0) + max(0, tier - HIGH_RANK_FROM)
                if best is None or cost < best_cost:
                    best, best_cost = (tier, size, 0, 0, 0), cost
                    if cost == 0:
                        break
    if best is not None and best_cost <= CHEAP:
        return _unless_lone_three(sim, seat, best)
    out = _whole_hand(sim, seat) if could_go_out else None
    if out is not None:
        return out
    urgent = owner in opponents and 0 < sim.sizes[owner] <= NEAR_OUT
    if not urgent and _sets_left(hand) > 2:
        return PASS
    options = sim.plays(seat)
    if not options:
        return PASS
    comp = min(options, key=lambda comp: _cost(hand, comp))
    return _unless_lone_three(sim, seat, comp)


def _unless_lone_three(sim: Sim, seat: int, comp):
    if sim.rules.three_goes_last and sim.hands[seat][THREE] and sim.sizes[seat] - comp_size(comp) == 1:
        return PASS
    return comp


def _sets_left(hand) -> int:
    return len(hand) - hand.count(0)


def _cost(hand, comp) -> float:
    base, n, x, y, b = comp
    cost = BREAK_COST if n < hand[base] else 0.0
    if base >= SMALL_JOKER_VALUE:
        cost += JOKER_COST[base] * n
    else:
        cost += max(0, base - HIGH_RANK_FROM)
    return (cost + JOKER_COST[SMALL_JOKER_VALUE] * x + JOKER_COST[BIG_JOKER_VALUE] * y
            + JOKER_COST[BAOZI_VALUE] * b)
