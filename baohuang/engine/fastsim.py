"""A compact, fast simulator of the play phase (出牌), for search rollouts (issue 18).

The engine's state machine (`state.apply`) validates and copies a JSON state on every
action: a full hand through it costs tens of milliseconds. A search bot plays thousands
of hands per decision, so it simulates on this compact form instead:

- a hand is a list of 16 counts, one per tier (`sets`: naturals 0 (3) .. 12 (2), then
  SJ 13, BJ 14, 保子 15) — suits and marks never matter in play;
- a set is its composition ``(base, naturals, small, big, bao)`` (`sets.composition`);
- the table is the top composition and its owner, the passes and yields of the set or
  round, the finishing places, 闷三, and the roles (emperor, guard, solo, declarations)
  with whether the guard is known (``revealed``; `rollout` plays on what seats know).

Its legal plays are `sets`' own enumeration on counts (`sets.lead_compositions`,
`sets.follow_compositions`: beating and the last-set rules, qingdao's 3 and 憋6, written
once). The rest follows RULES §3–§4 as `play.py` does: turn order, passes (set- or
round-scoped), 让牌, 接风, going out, 闷三 and the early end once the result is fixed. A
finished hand is scored by `scoring.score_hand`, and the remaining players are ordered as
`play.order_remaining` orders them. Tests check that it agrees with the engine's legal
actions and results on random positions of every preset.

Roles are known to the simulator (a search bot builds one `Sim` per *sample* of the
hidden information). ``revealed`` tracks what the players know, not the rules of play or
the score: it turns on when the holder of the guard card (the guard, or a 暗独 emperor of
a fixed guard card) plays its last card of that card's tier — the marked card goes last
among its copies (`sets.legal_sets`), so that is when it is shown.
"""

from __future__ import annotations

import itertools
import random

from .cards import BAOZI_VALUE, BIG_JOKER_VALUE, SMALL_JOKER_VALUE, VALUES
from .presets import PRESET
from .scoring import score_hand
from .sets import THREE, composition, follow_compositions, forced_tiers, lead_compositions

TIERS = BAOZI_VALUE + 1  # 16
NATURALS = SMALL_JOKER_VALUE  # tiers 0..12
PASS, YIELD = "pass", "yield"


def tiers_of(cards, preset: str) -> list[int]:
    """A hand's counts per tier."""
    table = VALUES[preset]
    counts = [0] * TIERS
    for card in cards:
        counts[table[card]] += 1
    return counts


def comp_size(comp) -> int:
    return comp[1] + comp[2] + comp[3] + comp[4]


class Sim:
    """One hand in the play phase, every hand known. Mutable; `copy` before branching."""

    __slots__ = ("preset", "rules", "hands", "sizes", "turn", "top", "top_seat", "leader",
                 "passed", "yielded", "places", "emperor", "guard", "solo", "declarations",
                 "bound", "seed", "scores", "revealed", "marker", "marker_seat")

    def __init__(self, preset, hands, *, turn, top=None, top_seat=None, leader=None,
                 passed=(), yielded=(), places=(None,) * 5, emperor, guard, solo=None,
                 declarations=(), bound=(False,) * 5, seed=0, revealed=False, marker=None):
        self.preset = preset
        self.rules = PRESET[preset]
        self.hands = [list(hand) for hand in hands]
        self.sizes = [sum(hand) for hand in self.hands]
        self.turn = turn
        self.top = top
        self.top_seat = top_seat
        self.leader = turn if leader is None else leader
        self.passed = set(passed)
        self.yielded = set(yielded)
        self.places = list(places)
        self.emperor, self.guard, self.solo = emperor, guard, solo
        self.declarations = tuple(declarations)
        self.bound = list(bound)
        self.seed = seed
        self.scores = None  # the five scores once the hand has ended
        self.revealed = revealed
        self.marker = marker  # the guard card's tier, if a guard card is still hidden
        self.marker_seat = guard if guard is not None else (
            emperor if solo == "dark" and not self.rules.guard_by_call else None)

    def copy(self) -> Sim:
        other = object.__new__(Sim)
        other.preset, other.rules = self.preset, self.rules
        other.hands = [list(hand) for hand in self.hands]
        other.sizes = list(self.sizes)
        other.turn, other.top, other.top_seat, other.leader = (self.turn, self.top,
                                                               self.top_seat, self.leader)
        other.passed, other.yielded = set(self.passed), set(self.yielded)
        other.places = list(self.places)
        other.emperor, other.guard, other.solo = self.emperor, self.guard, self.solo
        other.declarations, other.bound, other.seed = self.declarations, self.bound, self.seed
        other.scores = self.scores
        other.revealed, other.marker, other.marker_seat = (self.revealed, self.marker,
                                                           self.marker_seat)
        return other

    # --- legal plays ---------------------------------------------------------------------

    def plays(self, seat: int) -> list[tuple]:
        """Every legal composition for ``seat`` now, in `sets.play_order` (`sets.legal_sets`'
        own enumeration, on the seat's counts)."""
        hand = self.hands[seat]
        forced = forced_tiers(hand, self.preset, leading=self.top is None, hold_sixes=self.bound[seat])
        if self.top is None:
            return list(lead_compositions(hand, forced))
        return list(follow_compositions(hand, forced, self.top))

    def actions(self, seat: int) -> list:
        """The legal actions of the seat to act: compositions, then ``PASS`` / ``YIELD``
        (as `state.legal_actions` lists them)."""
        actions = self.plays(seat)
        if self.top is not None:
            actions.append(PASS)
            if self.rules.yield_allowed and seat not in self.yielded:
                actions.append(YIELD)
        return actions

    # --- acting --------------------------------------------------------------------------

    def act(self, action) -> None:
        """Apply one action of the seat to act (a composition, ``PASS`` or ``YIELD``);
        the caller chooses among `actions` — nothing is validated here."""
        seat = self.turn
        if action == PASS:
            self.passed.add(seat)
            self._advance(seat)
        elif action == YIELD:
            self.yielded.add(seat)
            self._advance(seat)
        else:
            self._play(seat, action)

    def _play(self, seat, comp) -> None:
        hand = self.hands[seat]
        base, n, x, y, b = comp
        hand[base] -= n
        hand[SMALL_JOKER_VALUE] -= x
        hand[BIG_JOKER_VALUE] -= y
        hand[BAOZI_VALUE] -= b
        self.sizes[seat] -= n + x + y + b
        if (seat == self.marker_seat and not self.revealed and self.marker is not None
                and not hand[self.marker]):
            self.revealed = True  # its last card of the guard card's tier: the guard card
        changed = False
        if self.top is not None:
            changed = self._menzan_if_beaten(self.top_seat)
        if not self.sizes[seat]:
            self.places[self.places.index(None)] = seat
            changed = True
        self.top, self.top_seat = comp, seat
        if not self.rules.round_scoped_pass:
            self.passed = set()
        self.yielded = set()
        self._advance(seat)
        if changed:
            self._end_if_settled()

    def _menzan_if_beaten(self, owner) -> bool:
        """闷三: the top set's owner, left with only its 3, is beaten: it goes out last."""
        if self.sizes[owner] != 1 or not self.hands[owner][THREE] or not self.rules.three_goes_last:
            return False
        self.hands[owner][THREE] = 0
        self.sizes[owner] = 0
        last = max(i for i, placed in enumerate(self.places) if placed is None)
        self.places[last] = owner
        return True

    def _advance(self, seat) -> None:
        sizes, passed, following = self.sizes, self.passed, seat
        for _ in range(5):
            following = (following + 1) % 5
            if following != self.top_seat and sizes[following] and following not in passed:
                self.turn = following
                return
        leader = winner = self.top_seat  # the top set wins the round (扣牌); 接风 below
        while not sizes[leader]:
            leader = (leader + 1) % 5
            if leader == winner:
                break
        self.turn = self.leader = leader
        self.top = self.top_seat = None
        self.passed, self.yielded = set(), set()

    # --- the end of the hand ---------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.scores is not None

    def _end_if_settled(self) -> None:
        holders = [seat for seat in range(5) if self.sizes[seat]]
        if len(holders) > 1 and not self._fixed(holders):
            return
        if self.rules.random_remaining:
            order = sorted(holders)
            random.Random(f"{self.seed}:places").shuffle(order)
        else:
            start = self.turn
            order = sorted(holders, key=lambda seat: (self.sizes[seat], (seat - start) % 5))
        for seat in order:
            self.places[self.places.index(None)] = seat
        self.scores = self._score(self.places)[0]

    def _fixed(self, holders) -> bool:
        """`play.result_is_fixed`, memoised: can the holders no longer change the result?"""
        key = (self.preset, self.emperor, self.guard, self.solo, self.declarations,
               tuple(self.places), tuple(holders))
        fixed = _FIXED.get(key)
        if fixed is None:
            open_places = [i for i, seat in enumerate(self.places) if seat is None]
            seen = set()
            for order in itertools.permutations(holders):
                places = list(self.places)
                for index, seat in zip(open_places, order):
                    places[index] = seat
                scores, outcome = self._score(places)
                seen.add(outcome if self.rules.settled_by_outcome else tuple(scores))
                if len(seen) > 1:
                    break
            fixed = _FIXED[key] = len(seen) == 1
            if len(_FIXED) > 200_000:
                _FIXED.clear()
        return fixed

    def _score(self, places):
        return score_hand(self.preset, emperor=self.emperor, guard=self.guard, solo=self.solo,
                          declarations=self.declarations, places=places)


_FIXED: dict = {}


def from_state(state: dict) -> Sim:
    """The engine state (phase ``playing``) in compact form, every hand known."""
    preset = state["preset"]
    top = state["top"]
    return Sim(preset, [tiers_of(hand, preset) for hand in state["hands"]],
               turn=state["turn"], top=None if top is None else composition(top["cards"], preset),
               top_seat=None if top is None else top["seat"], leader=state["leader"],
               passed=state["passed"], yielded=state["yielded"], places=state["places"],
               emperor=state["emperor"], guard=state["guard"], solo=state["solo"],
               declarations=state["declarations"],
               bound=[bool(flag) for flag in state["six_bound"]], seed=state["seed"],
               revealed=state["revealed"], marker=guard_tier(preset, state["guard_card"]))


def guard_tier(preset: str, guard_card) -> int | None:
    """The tier of the guard card (fixed, or the called identity), None without one."""
    return None if guard_card is None else VALUES[preset][guard_card]
