"""No peeking, proven: the search bot decides the same for two states that differ only in
what its seat cannot see — the other hands (shuffled among the unseen seats), who an
unrevealed 暗保 guard is, whether the emperor is a 暗独 — over many positions of every
preset, at a fixed number of iterations and a fixed seed."""

import random

import pytest

from baohuang.engine import PRESETS, actors, apply, preset_named, view
from baohuang.engine.cards import EMPEROR_CARD, identity, sort_hand
from baohuang.engine.search import search
from baohuang.engine.simulate import Mood, choose, hand_seed, new_hand

POSITIONS = 12


def hidden_twin(state: dict, seat: int, rng: random.Random) -> dict:
    """``state`` with the other seats' cards dealt again at random (same counts), and the
    roles that follow from where the guard card went (while they are still hidden)."""
    rules = preset_named(state["preset"])
    fixed = {seat}
    if rules.guard_by_call and state["emperor"] is not None:
        fixed.add(state["emperor"])  # the emperor called the card it holds three of
    def movable(card):
        # BJ* travels openly (bidding) or is the emperor's; qingdao's 3s stay one a seat.
        return card != EMPEROR_CARD and not (rules.three_goes_last and card[0] == "3")
    pool = [card for other in range(5) if other not in fixed
            for card in state["hands"][other] if movable(card)]
    rng.shuffle(pool)
    hands = []
    for other in range(5):
        if other in fixed:
            hands.append(list(state["hands"][other]))
            continue
        kept = [card for card in state["hands"][other] if not movable(card)]
        need = len(state["hands"][other]) - len(kept)
        hands.append(sort_hand(kept + pool[:need], state["preset"]))
        pool = pool[need:]
    if not rules.guard_by_call and rng.random() < 0.5:
        _move_guard_card(state, hands, fixed, movable, rng)
    twin = dict(state, hands=hands)
    if state["options"]["hold_sixes"] and rules.sixes_option:
        twin["six_bound"] = [state["six_bound"][other] if other == seat
                             else any(card[0] == "6" for card in hands[other]) for other in range(5)]
    if state["emperor"] is not None and not state["revealed"] and state["solo"] in (None, "dark"):
        twin.update(_roles_from_cards(twin))
    return twin


def _move_guard_card(state, hands, fixed, movable, rng) -> None:
    """Swap the fixed guard card (SJ*, 4H*) between the emperor and another unseen seat, so
    a team becomes a 暗独 or a 暗独 a team."""
    emperor, card = state["emperor"], state["guard_card"]
    if emperor is None or emperor in fixed or state["revealed"]:
        return
    holder = next((other for other in range(5) if card in hands[other]), None)
    if holder is None or holder in fixed:
        return
    target = emperor if holder != emperor else rng.choice(
        [other for other in range(5) if other not in fixed and other != emperor and hands[other]])
    swaps = [other_card for other_card in hands[target] if movable(other_card) and other_card != card]
    if not swaps:
        return
    given = rng.choice(swaps)
    hands[holder] = sort_hand([c for c in hands[holder] if c != card] + [given], state["preset"])
    taken = list(hands[target])
    taken.remove(given)
    hands[target] = sort_hand(taken + [card], state["preset"])


def _roles_from_cards(state: dict) -> dict:
    emperor, guard_card = state["emperor"], state["guard_card"]
    by_call = preset_named(state["preset"]).guard_by_call
    holders = [other for other in range(5)
               if any((identity(card) if by_call else card) == guard_card for card in state["hands"][other])
               and not (by_call and other == emperor)]
    if by_call:
        if state["solo"] == "dark" or not holders:
            return {}  # a classic 暗独 held all four: nothing else could hold the card
        return {"guard": holders[0]}
    if not holders:
        return {}  # the guard card was played: shown already
    holder = holders[0]
    return {"guard": None, "solo": "dark"} if holder == emperor else {"guard": holder, "solo": None}


@pytest.mark.parametrize("preset", PRESETS)
def test_the_search_bot_decides_from_its_view_only(preset):
    compared = changed_guard = changed_solo = 0
    for number in range(POSITIONS):
        seed = hand_seed("no-peek", number)
        rng = random.Random(seed)
        mood = Mood.draw(rng)
        state = new_hand(preset, seed, options={"hold_sixes": number % 2 == 0})
        stop = rng.randrange(2, 60)
        for _ in range(stop):
            if not actors(state):
                break
            state, _event = apply(state, choose(state, rng, mood))
        if not actors(state):
            continue
        seat = actors(state)[0]
        twin = hidden_twin(state, seat, rng)
        assert twin["hands"] != state["hands"] or sum(map(len, state["hands"])) < 10
        assert view(twin, seat) == view(state, seat)
        changed_guard += twin["guard"] != state["guard"]
        changed_solo += twin["solo"] != state["solo"]
        assert (search(twin, seat, iterations=4, seed=number)
                == search(state, seat, iterations=4, seed=number))
        compared += 1
    assert compared >= POSITIONS // 2
    assert changed_guard > 0, "no position moved the hidden guard"
    if not preset_named(preset).guard_by_call:
        assert changed_solo > 0, "no position turned a team into a 暗独 or back"


@pytest.mark.parametrize("preset", ["classic", "lianzhong_classic"])
def test_the_search_bot_bids_from_its_view_only(preset):
    # 叫庄 / 让位, searched over worlds dealt card by card: the same bid when the other
    # hands are dealt again — after 0–6 refusals, so classic's 逼庄 and lianzhong_classic's
    # forced second circle come up too.
    compared = choices = 0
    for number in range(POSITIONS * 2):
        seed = hand_seed("no-peek-bid", number)
        rng = random.Random(seed)
        state = new_hand(preset, seed, options={"hold_sixes": number % 2 == 0})
        for _ in range(number % 7):
            if state["phase"] != "bidding" or "decline" not in view(state, state["turn"])["may"]:
                break
            state, _event = apply(state, {"seat": state["turn"], "type": "decline"})
        if state["phase"] != "bidding":
            continue
        seat = state["turn"]
        twin = hidden_twin(state, seat, rng)
        assert twin["hands"] != state["hands"]
        assert view(twin, seat) == view(state, seat)
        assert (search(twin, seat, iterations=4, seed=number)
                == search(state, seat, iterations=4, seed=number))
        compared += 1
        choices += len(view(state, seat)["choices"].get("call", [])) > 0
    assert compared >= POSITIONS and choices >= POSITIONS // 2
