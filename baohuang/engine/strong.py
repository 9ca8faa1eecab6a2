"""The stronger 托管 policy (强托管): a card-play heuristic that a room may choose — RULES §8.

`strong(state, seat)` returns one legal action. It only reads what ``seat`` may know
(RULES §8 "Hidden information"): its own hand and 憋6 binding, every seat's card count,
the table, the public roles (and the emperor as its own partner when it is the guard),
and which cards have left play — the cards no longer in any hand were played face up
(or discarded by 闷三, also public), so the pool of *unseen* cards is the deck minus its
own hand minus those: the other four hands taken together, never one seat's cards.

Bidding and declarations take the sensible default, the baseline's (seed 002): accept
the throne or call a held triple, say nothing in the window. The play:

- **Keeps sets together.** A hand is seen as its natural groups (all cards of one rank)
  and its joker groups (SJ, BJ, 保子). A play that uses a whole group costs less than one
  that splits a group, since the group would otherwise need a lead of its own later.
- **Leads from its weakest sets**: the lowest group, whole and without jokers; but when
  at most one set left could be beaten by the unseen cards, it leads a set nobody can
  beat first (keeping the lead), so the weak set goes last, as a lead no one can refuse.
  It avoids leading a set of exactly the size of a near-out opponent's hand, and leads
  its smallest single when a known partner holds one card.
- **Beats cheaply**: it follows with the cheapest beating play (whole groups, low ranks,
  no jokers); a costly play is made only when it matters — an opponent owning the top
  set is close to going out, or winning the round leaves it one set from going out.
- **Saves jokers for when they decide a round**: a play that spends a joker is made only
  when it matters (as above) and nobody left can beat it.
- **Helps a known partner and does not overtake it**: it never beats a known partner's
  set unless that goes out.
- Where 让牌 is allowed it yields rather than passes while a costly beat is still
  possible, keeping its second look; in qingdao it never goes down to its lone 3 on a set
  the unseen cards could beat (闷三 would put it last).
"""

from __future__ import annotations

from collections import Counter

from .cards import BAOZI, BAOZI_VALUE, BIG_JOKER_VALUE, RANKS, SMALL_JOKER_VALUE, VALUES, build_deck
from .play import top_shape
from .policy import baseline
from .presets import PRESET, preset_of
from .sets import BIG, PLAIN, SMALL, SIX, THREE, Shape, composition, legal_sets, shape_of
from .state import hidden_identities

# Costs of a follow, in "leads": breaking a group leaves a set that still needs playing;
# jokers are the cards that decide rounds, the big ones above all.
BREAK_COST = 3.0
JOKER_COST = {SMALL_JOKER_VALUE: 4.0, BIG_JOKER_VALUE: 6.0, BAOZI_VALUE: 8.0}
HIGH_RANK_FROM = RANKS.index("J")  # Q, K, A, 2 are worth keeping a little
CHEAP = 2.0  # a follow at most this costly is made whenever it beats
NEAR_OUT = 5  # an opponent with this many cards or fewer may go out on its next lead
NO_PLAY = 100.0  # a play that loses the hand (qingdao 闷三): never


def strong(state: dict, seat: int) -> dict:
    """The stronger policy's action for ``seat`` (see the module docstring)."""
    if state["phase"] != "playing":
        return baseline(state, seat)
    seen = Sight(state, seat)
    if state["top"] is None:
        return _play(seat, lead(seen))
    return follow(seen)


def _play(seat: int, cards: list[str]) -> dict:
    return {"seat": seat, "type": "play", "cards": " ".join(cards)}


def strong_from_view(view: dict) -> dict:
    """`strong`'s action in the play phase for ``view["seat"]``, from `views.view` (built
    with the 记牌器) and nothing else — the search bot's default move. The other hands
    are filled with the unseen cards in their public counts: `Sight` reads them only
    pooled and by count, so any split of them gives the same answer."""
    seat, roles, table = view["seat"], view["roles"], view["table"]
    pool = [key if key in ("SJ", "BJ", BAOZI) else key + "S"  # a card of the key's tier
            for key, count in view["counter"].items() for _ in range(max(0, count))]
    hands, at = [], 0
    for other, count in enumerate(view["counts"]):
        if other == seat:
            hands.append(list(view["hand"]))
        else:
            hands.append(pool[at:at + count])
            at += count
    state = {"phase": "playing", "preset": view["preset"], "hands": hands,
             "six_bound": [bool(view["six_bound"]) and other == seat for other in range(5)],
             "top": table["top"], "yielded": table["yielded"],
             **{key: roles[key] for key in ("emperor", "guard", "solo", "revealed", "called")}}
    return strong(state, seat)


# --- what the seat knows ----------------------------------------------------------------------


_DECK_TIERS = {}


def _deck_tiers(preset: str) -> Counter:
    if preset not in _DECK_TIERS:
        _DECK_TIERS[preset] = Counter(VALUES[preset][card] for card in build_deck(preset))
    return _DECK_TIERS[preset]


class Sight:
    """What ``seat`` may know of the hand now, in the terms the policy thinks in."""

    def __init__(self, state: dict, seat: int):
        self.state = state
        self.seat = seat
        self.preset = preset = state["preset"]
        self.hand = state["hands"][seat]
        table = VALUES[preset]
        self.tiers = Counter(table[card] for card in self.hand)
        self.counts = [len(hand) for hand in state["hands"]]
        gone = _deck_tiers(preset) - Counter(table[card] for hand in state["hands"]
                                             for card in hand)
        # The other four hands pooled: public, since `gone` was all played face up.
        self.unseen = _deck_tiers(preset) - self.tiers - gone
        self.partners, self.opponents = known_sides(seat, state["emperor"], state["guard"],
                                                    state["solo"], state["revealed"])
        self.last_tier = _last_tier(state, seat, self.tiers)

    def legal(self, top) -> list[list[str]]:
        return legal_sets(self.hand, self.preset, top=top,
                          hold_sixes=self.state["six_bound"][self.seat],
                          avoid=hidden_identities(self.state, self.seat))

    def groups(self) -> list[tuple[int, int]]:
        """``(tier, count)`` of each set the hand falls into, low to high, leaving out the
        group that must go last (qingdao's 3, a 憋6 seat's 6s)."""
        return sorted((tier, count) for tier, count in self.tiers.items()
                      if count and tier != self.last_tier)

    def safe(self, shape: Shape) -> bool:
        """Can no seat still holding cards beat ``shape`` from the unseen cards?"""
        biggest = max((count for other, count in enumerate(self.counts)
                       if other != self.seat), default=0)
        return shape.size > biggest or not can_beat(self.unseen, shape)

    def near_out(self, seat: int) -> bool:
        return 0 < self.counts[seat] <= NEAR_OUT


def known_sides(seat: int, emperor: int, guard, solo, revealed: bool) -> tuple[set, set]:
    """(known partners, known opponents) of ``seat``; the other seats are unknown."""
    others = {other for other in range(5) if other != seat}
    if seat == emperor:
        if solo is not None:
            return set(), others  # alone, and it knows it
        if revealed:
            return {guard}, others - {guard}
        return set(), set()
    if seat == guard:
        return {emperor}, others - {emperor}  # the guard knows whom it guards
    if solo in ("open", "seized") or (revealed and guard is None):
        return others - {emperor}, {emperor}
    if revealed:
        return others - {emperor, guard}, {emperor, guard}
    return set(), {emperor}


def _last_tier(state: dict, seat: int, tiers: Counter) -> int | None:
    """The tier this seat must play as its final set: qingdao's 3, a bound seat's 6s."""
    if tiers[THREE] and preset_of(state).three_goes_last:
        return THREE
    if state["six_bound"][seat] and tiers[SIX]:
        return SIX
    return None


def can_beat(pool, top: Shape) -> bool:
    """Could some set made from ``pool`` (cards by tier: a Counter, or a list as the
    search's rollouts keep them) beat ``top``? (RULES §2)."""
    if top.cls == "bao":
        return False
    size = top.size
    smalls, bigs, baozi = pool[SMALL_JOKER_VALUE], pool[BIG_JOKER_VALUE], min(pool[BAOZI_VALUE], 1)
    for base in range(top.base + 1, BAOZI_VALUE + 1):
        naturals = pool[base]
        if not naturals:
            continue
        # Attachable jokers are the tiers above the base; 保子 is at most one.
        bao = baozi if base < BAOZI_VALUE else 0
        big = bigs if base < BIG_JOKER_VALUE else 0
        small = smalls if base < SMALL_JOKER_VALUE else 0
        if min(naturals, size) + small + big + bao < size:
            continue
        if top.cls == BIG and not bao:
            continue  # only a set with 保子 attached beats one with a big joker attached
        if top.cls == SMALL:
            high = big + bao + (min(naturals, size) if base >= BIG_JOKER_VALUE else 0)
            if high < top.small:
                continue
        return True
    return False


# --- leading (发牌) ---------------------------------------------------------------------------


def lead(seen: Sight) -> list[str]:
    """The cards to lead: see the module docstring."""
    options = seen.legal(None)
    if len(seen.hand) in map(len, options):
        return next(cards for cards in options if len(cards) == len(seen.hand))  # go out
    by_comp = {composition(cards, seen.preset): cards for cards in options}
    if any(seen.counts[partner] == 1 for partner in seen.partners):
        singles = [cards for cards in options if len(cards) == 1]
        if singles:
            return singles[0]  # the lowest single, for the partner's last card
    whole = [(tier, count) for tier, count in seen.groups() if (tier, count, 0, 0, 0) in by_comp]
    if not whole:
        return options[0]
    weak = [group for group in whole if not seen.safe(_plain_shape(*group))]
    must_lead_last = seen.last_tier is not None or len(whole) < len(seen.groups())
    strong_groups = [group for group in whole if group not in weak]
    if strong_groups and len(weak) + must_lead_last <= 1:
        tier, count = strong_groups[0]  # keep the lead: the weak set goes out last
        return by_comp[(tier, count, 0, 0, 0)]
    tier, count = _weakest(seen, weak or whole)
    return by_comp[(tier, count, 0, 0, 0)]


def _plain_shape(tier: int, count: int) -> Shape:
    return Shape(count, tier, PLAIN, count, 0, 0, 0)


def _weakest(seen: Sight, groups: list[tuple[int, int]]) -> tuple[int, int]:
    """The lowest group, preferring a size no near-out opponent could answer with its
    whole hand."""
    danger = {seen.counts[other] for other in seen.opponents if seen.near_out(other)}
    fitting = [group for group in groups if group[1] not in danger]
    return (fitting or groups)[0]


# --- following (跟牌) -------------------------------------------------------------------------


def follow(seen: Sight) -> dict:
    """Beat cheaply, save jokers, spare a partner; else pass (or yield, where allowed)."""
    state, seat = seen.state, seen.seat
    top = state["top"]
    shape = top_shape(seen.preset, top["cards"])
    options = seen.legal(shape)
    for cards in options:
        if len(cards) == len(seen.hand):
            return _play(seat, cards)  # going out beats everything, even for a partner
    owner = top["seat"]
    if options and owner not in seen.partners:
        urgent = owner in seen.opponents and seen.near_out(owner)
        best, cost = min(((cards, follow_cost(seen, cards)) for cards in options),
                         key=lambda pair: pair[1])
        if cost <= CHEAP:
            return _play(seat, best)
        if cost < NO_PLAY and (urgent or _wins_the_way_out(seen, best)):
            return _play(seat, best)
        if PRESET[seen.preset].yield_allowed and seat not in state["yielded"]:
            return {"seat": seat, "type": "yield"}  # look again once the others have acted
    return {"seat": seat, "type": "pass"}


def follow_cost(seen: Sight, cards: list[str]) -> float:
    """How much playing ``cards`` spends, in the units above (lower is cheaper)."""
    base, naturals, small, big, bao = composition(cards, seen.preset)
    cost = BREAK_COST if naturals < seen.tiers[base] else 0.0
    if base >= SMALL_JOKER_VALUE:
        cost += JOKER_COST[base] * naturals
    else:
        cost += max(0, base - HIGH_RANK_FROM)
    cost += (JOKER_COST[SMALL_JOKER_VALUE] * small + JOKER_COST[BIG_JOKER_VALUE] * big
             + JOKER_COST[BAOZI_VALUE] * bao)
    spends_joker = small or big or bao or base >= SMALL_JOKER_VALUE
    if (spends_joker or _leaves_lone_three(seen, cards)) and not seen.safe(
            shape_of(cards, seen.preset)):
        # A joker only where it decides the round; never go down to a lone qingdao 3 on a
        # set that can be beaten (闷三 would put the seat last).
        cost += NO_PLAY
    return cost


def _leaves_lone_three(seen: Sight, cards: list[str]) -> bool:
    return (PRESET[seen.preset].three_goes_last and seen.last_tier == THREE
            and len(seen.hand) - len(cards) == 1)


def _wins_the_way_out(seen: Sight, cards: list[str]) -> bool:
    """Would winning with ``cards`` leave one set, led next and going out? Only a set
    nobody can beat is sure to win the round."""
    left = Counter(seen.tiers)
    left.subtract(Counter(VALUES[seen.preset][card] for card in cards))
    sets_left = sum(1 for count in left.values() if count > 0)
    return sets_left <= 1 and seen.safe(shape_of(cards, seen.preset))
