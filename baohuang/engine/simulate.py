"""Simulated tables (模拟): five automatic players play hand after hand at one table.

`simulate(preset, hands, seed)` yields one summary per hand (the lines
``python -m baohuang.engine simulate`` prints). The players are seeded random players
with a sensible bias — mostly cheap plays that beat, sometimes a pass or a yield, and
now and then a refusal, a seizure or a declaration — so that a few hundred hands show
every situation of the rules: dark and open solos, 抢庄, 明保, 造反 with 扭 and 踢,
void deals and 闷三.

Each hand's seed is derived from the table's seed and the hand number (`hand_seed`); the
players' choices come from a random source seeded by the hand's seed, so any one hand
can be played again from its seed (and, in qingdao, the tribute it started with).
qingdao tribute carries from hand to hand: the debts of one hand's result are paid at the
next deal. [decision] A void hand (黄庄, everyone refused the throne) changes no debt: the
redeal pays the same debts again, as if the void deal never happened.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import bidding
from .presets import preset_of
from .state import actors, apply, legal_actions, new_hand

MAX_ACTIONS = 10_000  # a hand takes a few hundred; more means the engine loops


def hand_seed(table_seed, hand: int) -> int:
    """The seed of hand number ``hand`` (0-based) at a table seeded ``table_seed``."""
    return random.Random(f"table:{table_seed}:hand:{hand}").getrandbits(40)


@dataclass(frozen=True)
class Mood:
    """How one hand's players lean, drawn per hand so tables differ from hand to hand."""

    accept: float  # take the throne when offered (lianzhong / qingdao)
    call: float  # classic: call a card rather than yield the crown (让庄)
    solo_call: float  # classic: call a four-of-a-kind (独保) when holding one
    seize: float  # classic 抢庄: per bidding step, some seat grabs the crown
    declare: dict  # answer -> probability of saying it when offered
    pass_: float  # a follower who could beat passes anyway
    yield_: float  # … or yields (让牌) where allowed
    wild: float  # a play chosen among all legal sets, not only the cheap ones

    @classmethod
    def draw(cls, rng: random.Random) -> Mood:
        return cls(
            accept=rng.choice((0.15, 0.5, 0.85)),
            call=rng.choice((0.3, 0.7, 1.0)),
            solo_call=rng.choice((0.0, 0.5, 1.0)),
            seize=rng.choice((0.0, 0.0, 0.0, 0.04)),
            declare={"ming_bao": rng.choice((0.0, 0.3, 0.6)),
                     "open_solo": rng.choice((0.0, 0.4, 0.8)),
                     "rebel": rng.choice((0.1, 0.4, 0.7)),
                     "niu": rng.choice((0.2, 0.6)), "ti": rng.choice((0.2, 0.6)),
                     "grab_solo": rng.choice((0.0, 0.1))},
            pass_=rng.choice((0.05, 0.2, 0.4)),
            yield_=rng.choice((0.0, 0.1)),
            wild=rng.choice((0.0, 0.1)),
        )


def choose(state: dict, rng: random.Random, mood: Mood, *, legal=legal_actions) -> dict:
    """One automatic decision at this table: whoever acts next, and what they do.

    ``legal(state, seat)`` lists a seat's legal actions (tests pass a recording wrapper
    so they need not enumerate twice).
    """
    seats = actors(state)
    phase = state["phase"]
    if (phase == "bidding" and "seize" in bidding.procedure(state).actions
            and rng.random() < mood.seize):
        grabber = rng.randrange(5)
        if any(a["type"] == "seize" for a in legal(state, grabber)):
            return {"seat": grabber, "type": "seize"}
    seat = seats[0] if len(seats) == 1 else rng.choice(seats)
    options = legal(state, seat)
    if phase == "bidding":
        return _bid(state, options, rng, mood)
    if phase == "declaring":
        return _declare(options, rng, mood)
    return _play(state, options, rng, mood)


def _bid(state: dict, options: list[dict], rng: random.Random, mood: Mood) -> dict:
    by_type = _by_type(options)
    if "call" in bidding.procedure(state).actions and "accept" in by_type:
        return _bid_throne(by_type, rng, mood)
    if "accept" in by_type:
        return by_type["accept"][0] if rng.random() < mood.accept else by_type["decline"][0]
    calls = by_type.get("call", [])
    if calls and ("decline" not in by_type or rng.random() < mood.call):
        return rng.choice(calls)  # the engine lists triples and four-of-a-kinds alike
    return by_type["decline"][0]


def _bid_throne(by_type: dict, rng: random.Random, mood: Mood) -> dict:
    """lianzhong_classic: now and then 明独保 (accept with no call), else a call or 让位."""
    if rng.random() < mood.declare["open_solo"] / 8:
        return by_type["accept"][0]
    calls = by_type.get("call", [])
    if calls and ("decline" not in by_type or rng.random() < mood.call):
        return rng.choice(calls)
    return by_type["decline"][0]


def _declare(options: list[dict], rng: random.Random, mood: Mood) -> dict:
    loud = [action for action in options
            if action["what"] in mood.declare and rng.random() < mood.declare[action["what"]]]
    if loud:
        return loud[0]
    return options[0]  # "none" comes first


def _play(state: dict, options: list[dict], rng: random.Random, mood: Mood) -> dict:
    by_type = _by_type(options)
    plays = by_type.get("play", [])
    if state["top"] is not None:
        if "yield" in by_type and rng.random() < mood.yield_:
            return by_type["yield"][0]
        if not plays or rng.random() < mood.pass_:
            return by_type["pass"][0]
    if rng.random() < mood.wild:
        return rng.choice(plays)
    # Cheap first: the engine orders plays low to high; prefer those with no joker attached.
    plain = [action for action in plays if not _has_attached_joker(action["cards"])]
    pool = (plain or plays)[:4]
    return pool[0] if rng.random() < 0.6 else rng.choice(pool)


def _has_attached_joker(cards: str) -> bool:
    tokens = cards.split()
    return any(t[0] in "SB" and t[1] == "J" for t in tokens) and not all(
        t[1] == "J" for t in tokens)


def _by_type(options: list[dict]) -> dict:
    grouped: dict[str, list[dict]] = {}
    for action in options:
        grouped.setdefault(action["type"], []).append(action)
    return grouped


def play_hand(preset: str, seed, *, options=None, tribute=()):
    """Play one hand with automatic players; returns ``(final state, actions applied)``."""
    rng = random.Random(f"{seed}:players")
    mood = Mood.draw(rng)
    state = new_hand(preset, seed, options=options, tribute=tribute)
    actions = []
    while actors(state):
        if len(actions) >= MAX_ACTIONS:
            raise RuntimeError(f"{preset} hand {seed} did not end after {MAX_ACTIONS} actions")
        action = choose(state, rng, mood)
        state, _event = apply(state, action)
        actions.append(action)
    return state, actions


def summary(state: dict, hand: int, seed) -> dict:
    """One output line: the hand's result in the fields of the simulate CLI."""
    line = {"preset": state["preset"], "hand": hand, "seed": seed,
            "void": state["phase"] == "void", "dealt": list(state["dealt"])}
    if line["void"]:
        return line
    result = state["result"]
    line.update(emperor=result["emperor"], guard=result["guard"], solo=result["solo"],
                declarations=list(result["declarations"]), places=list(result["places"]),
                menzan=list(result["menzan"]), scores=list(result["scores"]),
                outcome=result["outcome"])
    if preset_of(state).tribute:
        line["tribute"] = [{"from": debt["from"], "to": debt["to"], "cards": debt["cards"]}
                           for debt in result["tribute"]]
    return line


def simulate(preset: str, hands: int, seed, *, options=None):
    """Yield ``(summary line, final state, actions)`` for ``hands`` hands at one table."""
    debts = []
    for hand in range(hands):
        this_seed = hand_seed(seed, hand)
        state, actions = play_hand(preset, this_seed, options=options, tribute=debts)
        if state["phase"] != "void":
            debts = list(state["result"]["tribute"])
        yield summary(state, hand, this_seed), state, actions
