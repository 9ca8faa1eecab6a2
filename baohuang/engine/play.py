"""Rounds of play (一轮), going out, places, 闷三 and the end of a hand — RULES §3, §4.

Every function here takes a state in phase ``playing``. Validators (`check_*`) raise
`IllegalAction` and return what the transition needs; transitions (`do_*`) take a
*fresh shallow copy* of the state (``dict(state)``) and replace — never mutate — the
lists and dicts they change, so the input state is left untouched.

Turn order (RULES §3): after a set is played each other player still holding cards acts
in turn order ``next(i) = (i+1) % 5``; the next to act is the first seat after the one
that just acted that still holds cards, does not own the top set and has not passed
(a pass lasts for the top set in classic / lianzhong, for the rest of the round in
qingdao). A seat that yielded (让牌) comes round again on the same top set and then
must play or pass. When nobody is left to act the top set wins the round (扣牌).
"""

from __future__ import annotations

import itertools
import random

from .cards import identity, parse_cards
from .counter import gone_after
from .explain import explain
from .errors import IllegalAction
from .presets import preset_of
from .scoring import score_hand
from .sets import check_play, shape_of

PLACES = 5


def next_seat(seat: int) -> int:
    """i's 下家, the next to act."""
    return (seat + 1) % 5


def prev_seat(seat: int) -> int:
    """i's 上家, where a refused role (让庄, 让皇) goes."""
    return (seat + 4) % 5


def is_three(card: str) -> bool:
    return card[0] == "3"


def start_play(state: dict) -> None:
    """Open the first round: the emperor leads (皇帝先出). Mutates the fresh ``state``."""
    state.update(phase="playing", window=None, bidding=None, turn=state["emperor"],
                 leader=state["emperor"], top=None, passed=[], yielded=[], round=[])


# --- validation ---------------------------------------------------------------------


def check_turn(state: dict, seat: int) -> None:
    if seat != state["turn"]:
        raise IllegalAction("not_your_turn",
                            f"it is seat {state['turn']}'s turn, not seat {seat}'s", {"turn": state["turn"]})


def check_play_action(state: dict, action: dict) -> list[str]:
    """A ``play`` action's cards, validated against the hand and the top set."""
    seat = action["seat"]
    check_turn(state, seat)
    cards = parse_action_cards(action, state["preset"])
    top = state["top"]
    check_play(cards, state["hands"][seat], state["preset"],
               top=None if top is None else top_shape(state["preset"], top["cards"]),
               hold_sixes=state["six_bound"][seat])
    return cards


_TOP_SHAPES: dict = {}


def top_shape(preset: str, cards: list[str]):
    """The top set's shape, memoised: every follower on a set compares against it."""
    key = (preset, *cards)
    shape = _TOP_SHAPES.get(key)
    if shape is None:
        if len(_TOP_SHAPES) > 50_000:
            _TOP_SHAPES.clear()  # a bound, not an eviction policy: sets repeat a lot
        shape = _TOP_SHAPES[key] = shape_of(cards, preset)
    return shape


def parse_action_cards(action: dict, preset: str) -> list[str]:
    """The cards of a ``play``: malformed text or a card ``preset`` does not hold is a
    ``bad_action`` naming the card (RULES §2)."""
    raw = action.get("cards")
    try:
        if isinstance(raw, str):
            return parse_cards(raw, preset)
        if isinstance(raw, list) and all(isinstance(card, str) for card in raw):
            return parse_cards(" ".join(raw), preset)
    except ValueError as err:
        raise IllegalAction("bad_action", f"cannot read the cards: {err}") from None
    raise IllegalAction("bad_action", "a play needs 'cards', a set such as \"9S 9H SJ\"")


def check_pass(state: dict, action: dict) -> None:
    check_turn(state, action["seat"])
    if state["top"] is None:
        raise IllegalAction("cannot_pass", "you lead this round: play a set (发牌)")


def check_yield(state: dict, action: dict) -> None:
    seat = action["seat"]
    check_turn(state, seat)
    if not preset_of(state).yield_allowed:
        raise IllegalAction("cannot_yield", f"{state['preset']} has no 让牌: play or pass", {"why": "no_yield"})
    if state["top"] is None:
        raise IllegalAction("cannot_yield", "you lead this round: play a set (发牌)", {"why": "leading"})
    if seat in state["yielded"]:
        raise IllegalAction("cannot_yield", "you already yielded on this set: play or pass", {"why": "yielded"})


# --- transitions --------------------------------------------------------------------


def do_play(state: dict, seat: int, cards: list[str], event: dict) -> None:
    """Play ``cards`` from ``seat``: new top set, going out, 闷三, revealing, the end."""
    event["cards"] = cards
    hands = list(state["hands"])
    hand = list(hands[seat])
    for card in cards:
        hand.remove(card)
    hands[seat] = hand
    state["hands"] = hands
    played = list(state["played"])
    played[seat] += 1
    state["played"] = played
    state["gone"] = gone_after(state.get("gone"), cards, state["preset"])
    top = state["top"]
    if top is not None:
        _menzan_if_beaten(state, top["seat"], event)
    if not hand:
        event["out"] = _take_place(state, seat, best=True)
    _reveal_if_shown(state, seat, cards, event)
    state["top"] = {"seat": seat, "cards": cards}
    if not preset_of(state).round_scoped_pass:
        state["passed"] = []
    state["yielded"] = []
    state["round"] = state["round"] + [{"seat": seat, "type": "play", "cards": cards}]
    _advance(state, seat, event)
    if "out" in event or "menzan" in event:
        _end_if_settled(state, event)


def do_pass(state: dict, seat: int, event: dict) -> None:
    state["passed"] = state["passed"] + [seat]
    state["round"] = state["round"] + [{"seat": seat, "type": "pass"}]
    _advance(state, seat, event)


def do_yield(state: dict, seat: int, event: dict) -> None:
    state["yielded"] = state["yielded"] + [seat]
    state["round"] = state["round"] + [{"seat": seat, "type": "yield"}]
    _advance(state, seat, event)


def _menzan_if_beaten(state: dict, seat: int, event: dict) -> None:
    """闷三 (qingdao): a player left holding only their 3 whose last set is beaten goes
    out at once into the worst open place, and the 3 is discarded."""
    hand = state["hands"][seat]
    if len(hand) != 1 or not is_three(hand[0]) or not preset_of(state).three_goes_last:
        return
    hands = list(state["hands"])
    hands[seat] = []
    state["hands"] = hands
    state["discarded"] = state["discarded"] + [hand[0]]
    state["gone"] = gone_after(state.get("gone"), hand, state["preset"])
    state["menzan"] = state["menzan"] + [seat]
    event["menzan"] = seat
    event["menzan_place"] = _take_place(state, seat, best=False)


def _take_place(state: dict, seat: int, *, best: bool) -> int:
    """Put ``seat`` in the best (going out) or worst (闷) open place; returns it, 1–5."""
    places = list(state["places"])
    order = range(PLACES) if best else range(PLACES - 1, -1, -1)
    index = next(i for i in order if places[i] is None)
    places[index] = seat
    state["places"] = places
    return index + 1


def _reveal_if_shown(state: dict, seat: int, cards: list[str], event: dict) -> None:
    """Playing the guard card shows who the guard is (RULES §8): where the emperor calls
    it, any copy of the called identity played by the guard (the emperor holds the other
    three); a fixed guard card (lianzhong, qingdao) by the marked card itself; a dark
    soloist is shown by the same."""
    if state["revealed"] or seat not in (state["guard"], state["emperor"]):
        return
    if seat == state["emperor"] and state["solo"] is None:
        return  # the emperor of a two-person side holds the called cards openly
    guard_card = state["guard_card"]
    if preset_of(state).guard_by_call:
        if seat == state["emperor"]:
            return  # a 暗独 emperor's copies could be the called three: nothing is shown
        shown = any(identity(card) == guard_card for card in cards)
    else:
        shown = guard_card in cards
    if shown:
        state["revealed"] = True
        event["revealed"] = seat


def _advance(state: dict, seat: int, event: dict) -> None:
    """Hand the turn on, or close the round (扣牌) and open the next one."""
    top = state["top"]
    hands = state["hands"]
    passed = state["passed"]
    following = seat
    # Five steps, so the seat that just acted is the last one looked at: it can still act
    # only after a yield (a player owns its set and a pass holds). [decision] RULES §3:
    # a lone yielder's second turn comes at once; a yield never ends a round.
    for _ in range(5):
        following = next_seat(following)
        if following != top["seat"] and hands[following] and following not in passed:
            state["turn"] = following
            event["next"] = following
            return
    winner = top["seat"]
    event["round_won"] = winner
    leader = winner
    # 接风: if the winner has gone out, the first player after them with cards leads.
    while not hands[leader]:
        leader = next_seat(leader)
        if leader == winner:
            break
    state.update(turn=leader, leader=leader, top=None, passed=[], yielded=[], round=[],
                 previous_round={"entries": state["round"], "winner": winner})
    event["next"] = leader


# --- the end of a hand (RULES §4) ---------------------------------------------------


def _end_if_settled(state: dict, event: dict) -> None:
    holders = [seat for seat in range(5) if state["hands"][seat]]
    if len(holders) > 1 and not result_is_fixed(state, holders):
        return
    finish(state, order_remaining(state, holders), event)


def result_is_fixed(state: dict, holders: list[int]) -> bool:
    """Can the players still holding cards no longer change the result?

    classic / lianzhong: every order of them gives the same scores; qingdao: the emperor
    side's outcome is the same whatever the order.
    """
    open_places = [i for i, seat in enumerate(state["places"]) if seat is None]
    seen = None
    for order in itertools.permutations(holders):
        places = list(state["places"])
        for index, seat in zip(open_places, order):
            places[index] = seat
        scores, outcome = _score(state, places)
        outcome_only = outcome if preset_of(state).settled_by_outcome else scores
        if seen is None:
            seen = outcome_only
        elif outcome_only != seen:
            return False
    return True


def order_remaining(state: dict, holders: list[int]) -> list[int]:
    """The order in which the players still holding cards take the open places.

    [decision] RULES §4: classic / lianzhong fewest cards first, ties in turn order from
    the player to act; qingdao at random from the hand's seeded source (seed 003: 系统随机).
    """
    if preset_of(state).random_remaining:
        order = sorted(holders)
        random.Random(f"{state['seed']}:places").shuffle(order)
        return order
    start = state["turn"]
    return sorted(holders, key=lambda seat: (len(state["hands"][seat]), (seat - start) % 5))


def finish(state: dict, remaining: list[int], event: dict) -> None:
    """Close the hand: the remaining players take the open places, the truth is shown."""
    places = list(state["places"])
    for seat in remaining:
        places[places.index(None)] = seat
    state.update(places=places, phase="ended", turn=None, top=None, revealed=True)
    state["result"] = build_result(state)
    event["ended"] = True
    event["places"] = places
    # 摊牌: the cards still held (an early end, RULES §4) are shown to everyone.
    event["showdown"] = [list(hand) for hand in state["hands"]]
    event.pop("next", None)


def _score(state: dict, places: list[int]):
    return score_hand(state["preset"], emperor=state["emperor"], guard=state["guard"],
                      solo=state["solo"], declarations=state["declarations"], places=places)


def build_result(state: dict) -> dict:
    """The hand's result once it has ended (the dict `state.result` returns)."""
    scores, outcome = _score(state, state["places"])
    tribute = []
    if preset_of(state).tribute:
        from .tribute import tribute_debts  # qingdao only; keeps the other presets light

        tribute = tribute_debts(emperor=state["emperor"], guard=state["guard"],
                                solo=state["solo"], declarations=state["declarations"],
                                places=state["places"], outcome=outcome,
                                sold_three=state["sold_three"])
    return {"void": False, "emperor": state["emperor"], "guard": state["guard"],
            "solo": state["solo"], "called": state["called"],
            "declarations": list(state["declarations"]), "declared": list(state["declared"]),
            "hoes": list(state["hoes"]), "places": list(state["places"]),
            "menzan": list(state["menzan"]), "scores": scores, "outcome": outcome,
            "tribute": tribute, "sold_three": list(state["sold_three"]),
            "explain": explain(state["preset"], emperor=state["emperor"], guard=state["guard"],
                               solo=state["solo"], declarations=state["declarations"],
                               places=state["places"], scores=scores)}


def void_result(state: dict) -> dict:
    """黄庄 / every seat refused the throne: nobody scores, the same dealer redeals."""
    return {"void": True, "emperor": None, "guard": None, "solo": None, "called": None,
            "declarations": [], "declared": [], "hoes": [], "places": [None] * 5,
            "menzan": [], "scores": [0] * 5, "outcome": None, "tribute": [],
            "sold_three": list(state["sold_three"])}
