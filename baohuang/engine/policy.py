"""托管 (auto-play) policies: what the server plays for a seat it acts for — RULES §8.

`autoplay(state, seat, policy)` returns one action, always legal for ``seat`` now. The
room calls it when a decision's timer runs out or a seat is under 托管.

The baseline policy is seed 002's default answer everywhere:
- bidding: [decision] RULES §8: the seat offered the throne accepts it (lianzhong /
  qingdao), so a table of 托管 seats never loops on void deals; in classic it calls a
  triple it holds (the highest), else yields (让庄); under 逼庄 it calls. In
  lianzhong_classic it calls its highest triple, else yields (让位) — after a full circle,
  when it must accept, its highest four (暗独保); never 明独保.
- declarations: none of 明保, 反, 扭, 踢, 明独 or 抢独: it answers ``none``, and a solo
  emperor asked to choose picks 暗独 (``dark_solo``).
- play: the leader plays its smallest legal single (if it has none — its qingdao 3 is not
  its last card, or 憋6 binds its remaining cards — its smallest legal set); a follower
  passes.
"""

from __future__ import annotations

from collections import Counter
from importlib import import_module

from .bidding import answers_for, default_bid
from .cards import BAOZI_VALUE, BIG_JOKER_VALUE, RANKS, SMALL_JOKER_VALUE, value
from .errors import IllegalAction
from .play import top_shape
from .sets import legal_sets
from .state import actors, hidden_identities


TWO_VALUE = RANKS.index("2")


def autoplay(state: dict, seat: int, policy: str = "baseline", **options) -> dict:
    """The ``policy``'s action for ``seat``; raises ValueError for an unknown policy name
    and IllegalAction (``not_your_turn`` / ``hand_over``) when no decision is awaited.
    ``options`` go to the policy (the search's ``budget``, ``iterations``, ``seed``)."""
    choose = policy_named(policy)
    if state["phase"] in ("ended", "void"):
        raise IllegalAction("hand_over", "this hand is over")
    if seat not in actors(state):
        raise IllegalAction("not_your_turn", f"seat {seat} has no decision to take now")
    return choose(state, seat, **options)


def baseline(state: dict, seat: int) -> dict:
    """Seed 002's default answers (see the module docstring)."""
    phase = state["phase"]
    if phase == "bidding":
        return default_bid(state, seat)  # the preset's bidding procedure knows its default
    if phase == "declaring":
        return _baseline_declare(state, seat)
    if state["top"] is not None:
        return {"seat": seat, "type": "pass"}
    return {"seat": seat, "type": "play", "cards": " ".join(smallest_lead(state, seat))}


def _baseline_declare(state: dict, seat: int) -> dict:
    what = "dark_solo" if "dark_solo" in answers_for(state, seat) else "none"
    return {"seat": seat, "type": "declare", "what": what}


def silent_declaration(state: dict, seat: int) -> dict:
    """The answer a seat gives by saying nothing in the declaration window (RULES §8
    [decision]: silence is an answer): 暗保 (``an_bao``) for the guard, 暗独
    (``dark_solo``) for a solo emperor, ``none`` for everyone else. The room gives it for
    every seat still pending when the window's deadline passes, and never earlier: who
    has answered is public, so answering early for the seats with nothing to say would
    point at the guard."""
    answers = answers_for(state, seat)
    what = next((silent for silent in ("an_bao", "dark_solo") if silent in answers), "none")
    return {"seat": seat, "type": "declare", "what": what}


def smallest_lead(state: dict, seat: int) -> list[str]:
    """The leader's smallest legal single, else its smallest legal set (RULES §8)."""
    sets = legal_sets(state["hands"][seat], state["preset"], top=None,
                      hold_sixes=state["six_bound"][seat], avoid=hidden_identities(state, seat))
    singles = [cards for cards in sets if len(cards) == 1]
    return singles[0] if singles else sets[0]


def hints(state: dict, seat: int) -> list[list[str]]:
    """提示 (hints) for ``seat``: legal plays, one per base rank, in the order a player
    wants them when pressing 提示 again and again (the page cycles back to the first).

    Empty unless ``seat`` is to play in the playing phase. Each hint is one of
    ``legal_sets`` for the seat (same 憋6 binding and guard-hiding ``avoid`` as
    ``legal_actions``), so ``check`` accepts it. Per base rank (naturals 3..2, then the
    joker-only sets SJ, BJ, 保子) the cheapest play is chosen: the most natural cards, then
    the fewest 保子, big jokers, small jokers. Leading, that is the rank's whole group with
    nothing attached where legal (a forced last set — qingdao's 3, 憋6 — otherwise);
    following, the cheapest set of that rank that beats the top set.

    The order (`hint_order`): first the sets that spend no joker and no 2 and break no
    larger group (all the seat's cards of that rank), lowest rank first; then those that
    break a group (leave cards of their rank behind), lowest first; then sets of 2s; and
    last the sets that spend jokers (or 保子), the cheapest jokers first. So against
    ``QS QH QD`` a hand holding ``AS AH AD`` and ``KS KH BJ`` is hinted ``AS AH AD``
    first: the kings would need the big joker.
    """
    if state["phase"] != "playing" or seat != state["turn"]:
        return []
    preset, top, hand = state["preset"], state["top"], state["hands"][seat]
    held = Counter(value(card, preset) for card in hand)

    def pick(compositions: list[tuple]) -> list[tuple]:  # the cheapest per rank, in 提示's order
        return sorted(_cheapest_per_base(compositions), key=lambda comp: hint_order(comp, held))

    return legal_sets(hand, preset,
                      top=None if top is None else top_shape(preset, top["cards"]),
                      hold_sixes=state["six_bound"][seat], avoid=hidden_identities(state, seat), pick=pick)


def _cheapest_per_base(compositions: list[tuple]) -> list[tuple]:
    """Of each base tier's compositions the cheapest: the most naturals, then the fewest
    保子, big jokers, small jokers (`hints`)."""
    best: dict[int, tuple] = {}  # base tier -> (cost, composition)
    for comp in compositions:
        base, naturals, small, big, bao = comp
        cost = (-naturals, bao, big, small)
        if base not in best or cost < best[base][0]:
            best[base] = (cost, comp)
    return [comp for _cost, comp in best.values()]


def hint_order(comp: tuple, held: Counter) -> tuple:
    """Sort key of a hint (see `hints`) by its `composition`: (kind, jokers spent — 保子,
    big, small —, rank); ``held`` counts the seat's cards by value tier."""
    base, naturals, small, big, bao = comp
    # A set of jokers only has its lowest joker kind as base, counted as its naturals.
    spent = (bao + (naturals if base == BAOZI_VALUE else 0), big + (naturals if base == BIG_JOKER_VALUE else 0),
             small + (naturals if base == SMALL_JOKER_VALUE else 0))
    if any(spent):
        kind = 3  # spends jokers: last, the cheapest jokers first
    elif base == TWO_VALUE:
        kind = 2  # spends 2s, the strongest natural cards
    else:
        kind = 1 if naturals < held[base] else 0  # breaks a larger group, or plays it whole
    return (kind, *spent, base)


def policy_named(name: str):
    """The policy function called ``name``; ValueError names the known ones."""
    if name in LAZY_POLICIES and name not in POLICIES:
        # strong.py builds on this module, so it is imported on first use.
        module, attribute = LAZY_POLICIES[name]
        POLICIES[name] = getattr(import_module(module, __package__), attribute)
    try:
        return POLICIES[name]
    except (KeyError, TypeError):
        known = sorted(set(POLICIES) | set(LAZY_POLICIES))
        raise ValueError(f"unknown 托管 policy {name!r}; expected one of "
                         f"{', '.join(known)}") from None


POLICIES = {"baseline": baseline}
"""Policy name → function(state, seat) -> action."""
LAZY_POLICIES = {"strong": (".strong", "strong"), "search": (".search", "search")}
"""Policies in their own modules, loaded on first use: 强托管 (``strong``) and the search
bot (``search``, 高手: `search.decide` on the seat's view, about 1 s per decision)."""
