"""The search bot (高手, policy ``search``): determinized search from the seat's view only.

`decide(view, *, budget=1.0, iterations=None, seed=None)` takes `views.view(state, seat)`
— nothing else — and returns one legal action for that seat. In the play phase it runs
perfect-information Monte Carlo (PIMC): it samples worlds consistent with the view
(`determinize.sample`: the unseen cards dealt to the other seats in their counts, the
roles as the seat may know them), plays every candidate move in each world and finishes
the hand with the fast rollout policy (`rollout`, on the compact `fastsim.Sim`), and
keeps the strong policy's move (强托管, read from the view: `strong.strong_from_view`)
unless another candidate gains clearly more of its own points over the worlds
(`pimc.compare`). Every candidate is tried in the same worlds, so the comparison is
paired; with no world sampled the search plays as the strong policy.

Candidates (kept few, to fit the budget): the 提示 hints (one play per base rank, the
cheapest), the strong policy's move, the lowest single when leading, and pass
(and 让牌 where allowed) when following. One legal action is returned at once.

Budget: by default at most ``budget`` seconds of search (1 s, on one core; sampling stops
at 90 % of it, and sooner when the choice is plain: `pimc`); with
``iterations`` the search samples exactly that many worlds and ignores the clock, so the
decision depends only on ``(view, seed, iterations)`` — what tests use. ``seed=None``
draws a fresh seed.

Bidding and declarations (`search_roles`): 让皇 (lianzhong, qingdao) weighs accepting
against declining; classic 叫庄 weighs each card the seat may call against 让庄 and 抢庄,
and lianzhong_classic 让位 each call against 明独保 and 让位 — over worlds dealt card by
card, since the guard is whoever holds the called card's other copy; the window weighs
明保 / 明独 against silence — all by the same paired rollouts from the start of play,
with the strong policy's answer (= the baseline's) as the default. There the seat's own
rollouts play a solo as the search plays it (`rollout.lone_follow`: every round it can
take), not as the rollout policy would. 反, 扭, 踢 and 抢独 stay silent, as the strong
policy does.
"""

from __future__ import annotations

import random
import time

from . import search_roles
from .determinize import sample
from .fastsim import PASS, YIELD
from .pimc import compare
from .play import top_shape
from .presets import PRESET
from .sets import composition, legal_sets
from .strong import strong_from_view

DEFAULT_BUDGET = 1.0  # seconds per decision
SEARCHED_SHARE = 0.9  # of the budget spent sampling: the rest is headroom, so a decision
# stays within its budget when a busy core delays the last sample or the answer
MAX_HINTS = 6  # hints kept as candidates: the cheapest ones and the two strongest


def decide(view: dict, *, budget: float = DEFAULT_BUDGET, iterations: int | None = None,
           seed=None) -> dict:
    """The search bot's action for ``view["seat"]`` (see the module docstring)."""
    deadline = time.perf_counter() + SEARCHED_SHARE * budget
    rng = random.Random(random.getrandbits(64) if seed is None else seed)
    if view["phase"] == "bidding":
        if PRESET[view["preset"]].bidding == "bundle" and "decline" in view["may"]:
            return search_roles.bundle_bid(view, rng, deadline=deadline, iterations=iterations)
        if PRESET[view["preset"]].bidding == "bundle":
            return search_roles.strong_bid(view)  # 让皇 on the last offer: accept
        return search_roles.call_bid(view, rng, deadline=deadline, iterations=iterations)
    if view["phase"] == "declaring":
        return search_roles.declare(view, rng, deadline=deadline, iterations=iterations)
    legal = legal_plays(view)
    candidates = candidate_moves(view, legal)
    if len(candidates) == 1:
        return candidates[0][0]
    default = _add_strong_choice(view, candidates)

    def worlds():
        world = sample(view, rng)
        branches = []
        for _action, move in candidates:
            branch = world.copy()
            branch.act(move)
            branches.append(branch)
        return branches

    best = compare(worlds, view["seat"], deadline=deadline, iterations=iterations, default=default)
    return candidates[best][0]


def candidate_moves(view: dict, legal: list[list[str]]) -> list[tuple[dict, object]]:
    """``(action, fastsim move)`` pairs: the hints, the lowest single when leading, pass
    and yield when following — each once. ``legal`` is `legal_plays(view)`."""
    preset, seat = view["preset"], view["seat"]
    top = view["table"]["top"]
    hints = view["hints"]
    kept = hints if len(hints) <= MAX_HINTS + 2 else hints[:MAX_HINTS] + hints[-2:]
    plays = [list(cards) for cards in kept]
    if top is None:
        singles = [cards for cards in legal if len(cards) == 1]
        if singles and singles[0] not in plays:
            plays.append(singles[0])
        if not plays:  # no hint: a forced last set (qingdao's 3, 憋6)
            plays.append(legal[0])
    moves = [(_play(view, cards), composition(cards, preset)) for cards in plays]
    if top is not None:
        moves.append((_action(view, "pass"), PASS))
        if PRESET[preset].yield_allowed and seat not in view["table"]["yielded"]:
            moves.append((_action(view, "yield"), YIELD))
    return moves


def _add_strong_choice(view, candidates) -> int:
    """The index of the strong policy's move (`strong.strong_from_view`) among the
    candidates, added if it is not among them yet: the search's default."""
    action = strong_from_view(view)
    move = composition(action["cards"].split(), view["preset"]) if action["type"] == "play" \
        else {"pass": PASS, "yield": YIELD}[action["type"]]
    for index, (_action, known) in enumerate(candidates):
        if known == move:
            return index
    candidates.append((action, move))
    return len(candidates) - 1


def legal_plays(view: dict) -> list[list[str]]:
    """Every legal play of the seat, as `state.legal_actions` enumerates them (the same
    copies: a 暗保 guard of a called card avoids showing it)."""
    preset, roles = view["preset"], view["roles"]
    top = view["table"]["top"]
    avoid = (frozenset((roles["called"],)) if PRESET[preset].guard_by_call
             and roles["guard"] == view["seat"] and not roles["revealed"] else frozenset())
    return legal_sets(view["hand"], preset,
                      top=None if top is None else top_shape(preset, top["cards"]),
                      hold_sixes=view["six_bound"], avoid=avoid)


def _play(view: dict, cards: list[str]) -> dict:
    return _action(view, "play", cards=" ".join(cards))


def _action(view: dict, kind: str, **fields) -> dict:
    return {"seat": view["seat"], "type": kind, **fields}


# --- the policy ``search`` (policy.LAZY_POLICIES) ----------------------------------------


def search(state: dict, seat: int, *, budget: float = DEFAULT_BUDGET,
           iterations: int | None = None, seed=None) -> dict:
    """`autoplay(state, seat, "search")`: `decide` on ``view(state, seat)`` and nothing
    else. The view is built with the 记牌器 on whatever the room option says: a bot
    remembers every card played face up, which is public (RULES §8)."""
    from .views import view  # views.py builds on policy.py, which loads this module lazily

    if not state["options"].get("card_counter", True):
        state = {**state, "options": {**state["options"], "card_counter": True}}
    started = time.perf_counter()
    seen = view(state, seat)
    spent = time.perf_counter() - started  # building the view counts against the budget
    return decide(seen, budget=max(0.0, budget - spent), iterations=iterations, seed=seed)
