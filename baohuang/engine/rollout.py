"""The rollout policy of the search bot: `strong`'s rules of thumb on the compact `Sim`.

Within one sample of the hidden cards every hand is known, but a rollout player acts on
the sides it would know at the table (`strong.known_sides`: a hidden guard is nobody's
known partner but the emperor's, until it is shown — `fastsim.Sim.revealed`), as the
strong policy does, so the rollouts play as the table would. The rules, cheap enough to
play a whole hand in a few milliseconds:

- go out when one set empties the hand;
- leading: its lowest whole group with nothing attached (not the group that must go
  last — qingdao's 3, a 憋6 seat's 6s), avoiding a size that a near-out opponent could
  answer with its whole hand; its lowest single for a partner on one card;
- following: never over a known partner; the cheapest beat by natural cards (whole groups,
  low ranks, `strong.follow_cost`'s units) when cheap; a costly beat — a broken group,
  a high rank, jokers — only when an opponent on the top set is near out or the beat
  leaves at most one set; never down to a lone qingdao 3 (闷三 would put it last);
  otherwise pass.

In the presets of ``AS_STRONG`` (qingdao) the rollout plays exactly as the strong policy
(`tests/test_rollout.py`): it leads a set nobody can beat first when at most one weak set
would be left to go last (the group that must go last counts), and whole joker groups; it
spends a joker, or goes down to a lone 3, only on a set nobody can beat, and beats costly
to leave one set only with such a set; where it does not beat, it yields as strong does,
since a pass there lasts the round. "Nobody can beat" is judged from the cards the seat
has not seen, pooled (`strong.can_beat`). With 16 worlds this raised the search's edge over
strong in qingdao by 0.39 points a hand (240 paired deals). Elsewhere the rollout keeps the
cruder rules above (jokers spent when urgent, lowest groups led): there the exact rules
were not measured to help — a classic sample of 50 deals turned on three 抢庄 solos (±40
each) — and they cost about twice the time per rollout.
"""

from __future__ import annotations

from .cards import BAOZI_VALUE, BIG_JOKER_VALUE, SMALL_JOKER_VALUE
from .fastsim import NATURALS, PASS, TIERS, YIELD, Sim, comp_size
from .sets import SIX, THREE, shape_of_composition
from .strong import BREAK_COST, CHEAP, HIGH_RANK_FROM, JOKER_COST, NEAR_OUT, can_beat, known_sides

MAX_ACTIONS = 3000  # a hand takes a few hundred actions; more would be a bug
AS_STRONG = frozenset({"qingdao"})  # presets whose rollouts play exactly as strong (below)


def rollout(sim: Sim, hero: int | None = None) -> list[int]:
    """Play ``sim`` to the end with `choose` for every seat; the five scores. ``hero``, the
    searching seat, plays its own part as the search does where the two differ most: alone
    (`lone_follow`)."""
    for _ in range(MAX_ACTIONS):
        if sim.scores is not None:
            return sim.scores
        seat = sim.turn
        action = choose(sim, seat)
        alone = seat == hero and seat == sim.emperor and sim.solo is not None
        if alone and action in (PASS, YIELD):
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
    exact = sim.preset in AS_STRONG
    groups = [tier for tier in range(TIERS if exact else NATURALS) if hand[tier] and tier != last]
    if partner_on_one and groups:
        return (groups[0], 1, 0, 0, 0)
    if not groups:
        return sim.plays(seat)[0]  # the forced last set alone, or (not exact) jokers only
    danger = {sim.sizes[other] for other in opponents if 0 < sim.sizes[other] <= NEAR_OUT}
    if not exact:
        tier = next((tier for tier in groups if hand[tier] not in danger), groups[0])
        return (tier, hand[tier], 0, 0, 0)
    allowed = 0 if last is not None else 1  # weak sets that may wait while it keeps the lead
    pool, weak, safe = _unseen(sim, seat), [], []
    for tier in groups:
        if _safe(sim, seat, (tier, hand[tier], 0, 0, 0), pool):
            safe.append(tier)
        else:
            weak.append(tier)
            if len(weak) > allowed and hand[tier] not in danger:
                break  # it will lead a weak set, and this one fits
    if safe and len(weak) <= allowed:
        return (safe[0], hand[safe[0]], 0, 0, 0)  # keep the lead: the weak set goes out last
    tier = next((tier for tier in weak if hand[tier] not in danger), weak[0])
    return (tier, hand[tier], 0, 0, 0)


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
    exact = sim.preset in AS_STRONG
    if not urgent and _sets_left(hand) - (_jokers_held(hand) if exact else 0) > 2:
        # no beat leaves at most one set
        if _decline(sim, seat) == YIELD and (
                best is not None or can_beat(hand, shape_of_composition(*top))):
            return YIELD  # a beat held back
        return PASS
    options = sim.plays(seat)
    if not options:
        return PASS
    if not exact:
        return _unless_lone_three(sim, seat, min(options, key=lambda comp: _cost(hand, comp)))
    pool = _unseen(sim, seat)
    comp, risky = min(((comp, _risky(sim, seat, comp, pool)) for comp in options),
                      key=lambda pair: (pair[1], _cost(hand, pair[0])))
    if not risky and (urgent or (_sets_left(hand) - _empties(hand, comp) <= 1
                                 and _safe(sim, seat, comp, pool))):
        return comp
    return _decline(sim, seat)


def _risky(sim: Sim, seat: int, comp, pool) -> bool:
    """`strong.follow_cost`'s never: a joker spent, or going down to a lone qingdao 3 (闷三
    would put it last), on a set another seat could still beat."""
    base, _n, x, y, b = comp
    lone_three = (sim.rules.three_goes_last and sim.hands[seat][THREE]
                  and sim.sizes[seat] - comp_size(comp) == 1)
    spends_joker = bool(x or y or b) or base >= SMALL_JOKER_VALUE
    return (spends_joker or lone_three) and not _safe(sim, seat, comp, pool)


def _jokers_held(hand) -> int:
    """The joker groups a play may empty besides its base group (attached to it)."""
    return (hand[SMALL_JOKER_VALUE] > 0) + (hand[BIG_JOKER_VALUE] > 0) + (hand[BAOZI_VALUE] > 0)


def _empties(hand, comp) -> int:
    """How many of the hand's groups ``comp`` plays whole."""
    base, n, x, y, b = comp
    return sum(1 for tier, count in ((base, n), (SMALL_JOKER_VALUE, x), (BIG_JOKER_VALUE, y),
                                     (BAOZI_VALUE, b)) if count and count == hand[tier])


def _decline(sim: Sim, seat: int):
    """Not beating a set it could beat: where a pass lasts the round (qingdao) the seat
    yields, as `strong.follow` does, and so may still beat a later set of the round (an
    opponent near out); elsewhere a pass lasts only the set, and it passes."""
    rules = sim.rules
    if rules.round_scoped_pass and rules.yield_allowed and seat not in sim.yielded:
        return YIELD
    return PASS


def _unless_lone_three(sim: Sim, seat: int, comp):
    """Never down to a lone qingdao 3 on a set another seat could beat (闷三 would put it
    last), as `strong.follow_cost`: on a set nobody can beat it leads the 3 next."""
    if (sim.rules.three_goes_last and sim.hands[seat][THREE]
            and sim.sizes[seat] - comp_size(comp) == 1 and not _safe(sim, seat, comp)):
        return _decline(sim, seat)
    return comp


def _safe(sim: Sim, seat: int, comp, pool=None) -> bool:
    """`strong.Sight.safe` in the sample: can no other seat holding cards beat ``comp``
    from the cards ``seat`` has not seen (``pool``: `_unseen`)?"""
    if comp_size(comp) > max(sim.sizes[:seat] + sim.sizes[seat + 1:]):
        return True  # no other hand holds as many cards
    return not can_beat(_unseen(sim, seat) if pool is None else pool, shape_of_composition(*comp))


def _unseen(sim: Sim, seat: int) -> list[int]:
    """The cards ``seat`` has not seen, by tier: the other hands pooled."""
    others = (sim.hands[other] for other in range(5) if other != seat)
    return [sum(counts) for counts in zip(*others)]


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
