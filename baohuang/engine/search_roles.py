"""The search bot's bidding (让皇, 叫庄, 让位) and declarations (明保, 明独), weighed by rollouts.

Each option is played out from the start of play over the same sampled worlds
(`determinize`, `pimc.compare`):

- 让皇 (lianzhong, qingdao): ``accept`` — the seat is emperor with the bundle, and the
  guard is whoever holds the guard card (itself: a 暗独) — against ``decline``: the bundle
  and the card it adds go to its 上家, who is taken to accept (as the baseline and strong
  policies do), or the hand is void (0 points) at the last refusal.
- the declaration window: a guard weighs 明保 (``ming_bao``, doubling) against silence, a
  soloist 明独 (``open_solo``) against 暗独. The other answers (反, 扭, 踢, 抢独) stay
  silent, as the baseline's.
- classic 叫庄 and lianzhong_classic 让位 (`call_bid`): every bid the seat may make —
  each card it may call, 让庄 / 让位, classic 抢庄, lianzhong_classic 明独保 — against the
  strong policy's (= the baseline's) bid, the default. A called card is an identity (9S,
  not any 9), so these worlds are dealt card by card: during the bidding no card has been
  played, and the cards the seat cannot see are exactly the deck less its own hand (the
  crown, BJ*, is with its public holder). The guard of a call is whoever holds the called
  card's other copy in that world; after a refusal the other seats bid as the baseline
  does (call the highest triple held; in lianzhong_classic, forced after one circle,
  also a four), until someone calls or the hand is void (worth 0).
"""

from __future__ import annotations

import random
from collections import Counter

from .bidding import THRONE_MAX_REFUSALS, _bundle_card, calls_of, first_with_triple, identity_counts
from .cards import EMPEROR_CARD, VALUES, deck_identities, identity
from .determinize import (_known_baozi_holder, deal_unseen, sample, six_binding,
                          unseen_pool)
from .fastsim import TIERS, Sim, guard_tier
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

    best = compare(worlds, view["seat"], deadline=deadline, iterations=iterations,
                   alone=True)
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

    best = compare(worlds, seat, deadline=deadline, iterations=iterations, alone=True)
    return _action(view, ("accept", "decline")[best])


def strong_bid(view: dict) -> dict:
    """The strong policy's (= the baseline's) bid, from the view: accept a throne offered
    (让皇), else call the highest triple held, else — when it must — the highest card it
    may call, else decline. (lianzhong_classic's ``accept`` is 明独保, which the baseline
    never bids.)"""
    may, calls = view["may"], view["choices"].get("call", [])  # calls: highest first
    if PRESET[view["preset"]].bidding == "bundle":
        return _action(view, "accept")  # 让皇 (lianzhong / qingdao): take the throne
    counts = identity_counts(view["hand"])
    held = [card for card in calls if counts[card] == 3]
    if held:
        return _action(view, "call", card=held[0])
    if calls and ((view.get("bidding") or {}).get("forced") or "decline" not in may):
        return _action(view, "call", card=calls[0])
    return _action(view, "decline" if "decline" in may else "accept")


def call_bid(view: dict, rng: random.Random, *, deadline: float, iterations) -> dict:
    """叫庄 / 让位: the bid that plays out best, the strong bid unless another is clearly
    better (`pimc.compare`)."""
    options = [_action(view, "call", card=card) for card in view["choices"].get("call", [])]
    options += [_action(view, kind) for kind in ("accept", "decline", "seize")
                if kind in view["may"]]
    default = strong_bid(view)
    if len(options) < 2 or default not in options:
        return default
    seat, preset = view["seat"], view["preset"]

    def worlds():
        hands = _deal_cards(view, rng)
        bound = _bound(view, hands)
        seed = rng.getrandbits(32)
        return [_settle(preset, hands, view["bidding"], seat, option, bound, seed)
                for option in options]

    best = compare(worlds, seat, deadline=deadline, iterations=iterations,
                   default=options.index(default), alone=True)
    return options[best]


def _deal_cards(view: dict, rng: random.Random) -> list[Counter]:
    """The five hands by identity (``{"9S": 2, "BJ": 1, …}``): the seat's own, and the rest
    of the deck dealt at random in the public counts, the crown's holder holding BJ."""
    seat, counts = view["seat"], view["counts"]
    own = identity_counts(view["hand"])
    pool = deck_identities(view["preset"]) - own
    hands = [Counter() for _ in range(5)]
    hands[seat] = own
    need = list(counts)
    need[seat] = 0
    crown = view["bidding"]["crown"]
    if crown != seat:
        pool[identity(EMPEROR_CARD)] -= 1
        hands[crown][identity(EMPEROR_CARD)] += 1
        need[crown] -= 1
    cards = sorted(pool.elements())  # a fixed order, so the deal depends on the rng alone
    rng.shuffle(cards)
    at = 0
    for other in range(5):
        hands[other].update(cards[at:at + need[other]])
        at += need[other]
    return hands


def _bound(view: dict, hands) -> list[bool]:
    """憋6 by identity hands: the viewer's own flag; another seat is bound if it holds a 6."""
    binds = PRESET[view["preset"]].sixes_option and view["options"].get("hold_sixes", False)
    return [bool(view["six_bound"]) if other == view["seat"]
            else binds and any(card[0] == "6" for card in hands[other])
            for other in range(5)]


def _settle(preset, hands, bidding, seat, option, bound, seed) -> Sim | None:
    """The hand after ``seat``'s bid ``option`` and the baseline's bids after it, at the
    first lead; None for a void hand. ``hands`` is not changed."""
    hands = [Counter(hand) for hand in hands]
    crown = bidding["crown"]
    kind = option["type"]
    if kind != "decline":
        return _crowned(preset, hands, crown, seat, kind, option.get("card"), bound, seed)
    declined, turn, forced = len(bidding["declined"]), seat, bidding["forced"]
    throne = PRESET[preset].bidding == "throne_call"
    while True:  # seat ``turn`` declines: the crown goes to its 上家
        declined += 1
        turn = prev_seat(turn)
        _pass_crown(hands, crown, turn)  # it may make a triple of BJ
        crown = turn
        if throne:
            forced = declined >= 5
            if declined >= THRONE_MAX_REFUSALS:
                return None
        elif declined >= 5:
            turn = first_with_triple(bidding["first_holder"], hands)
            if turn is None:
                return None  # 黄庄
            forced = True
        card = _baseline_call(preset, hands[turn], forced)
        if card is not None:
            return _crowned(preset, hands, crown, turn, "call", card, bound, seed)


def _pass_crown(hands, source: int, target: int) -> None:
    hands[source][identity(EMPEROR_CARD)] -= 1
    hands[target][identity(EMPEROR_CARD)] += 1


def _baseline_call(preset, hand: Counter, forced: bool) -> str | None:
    """The baseline's call (`bidding._default_call`, `_default_throne`), None to decline."""
    calls = calls_of(preset, hand, forced=forced)
    held = [card for card in calls if hand[card] == 3]
    if held:
        return held[0]
    return calls[0] if calls and forced else None


def _crowned(preset, hands, crown, emperor, kind, card, bound, seed) -> Sim:
    """The first lead once ``emperor`` has bid ``kind`` (call ``card``, 明独保 accept, 抢庄
    seize): it takes the crown from ``crown``; the guard holds the called card's other copy."""
    if crown != emperor:
        _pass_crown(hands, crown, emperor)
    guard, solo, marker = None, {"accept": "open", "seize": "seized"}.get(kind), None
    if kind == "call":
        marker = VALUES[preset][card]
        if hands[emperor][card] == 4:
            solo = "dark"
        else:
            guard = next(other for other in range(5) if other != emperor and hands[other][card])
    table, tiers = VALUES[preset], []
    for hand in hands:
        counts = [0] * TIERS
        for name, count in hand.items():
            counts[table[name]] += count
        tiers.append(counts)
    return Sim(preset, tiers, turn=emperor, emperor=emperor, guard=guard, solo=solo,
               bound=bound, seed=seed, revealed=solo in ("open", "seized"), marker=marker)


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
