"""Samples of the hidden cards (determinize.py) agree with everything the seat sees."""

import random
from collections import Counter

import pytest

from baohuang.engine import PRESETS, actors, apply, view
from baohuang.engine.determinize import marker_tier, sample, unseen_pool
from baohuang.engine.fastsim import tiers_of
from baohuang.engine.sets import THREE
from baohuang.engine.simulate import Mood, choose, hand_seed, new_hand


def playing_positions(preset, count):
    for number in range(count):
        seed = hand_seed("determinize", number)
        rng = random.Random(seed)
        mood = Mood.draw(rng)
        state = new_hand(preset, seed)
        for _ in range(rng.randrange(3, 80)):
            if not actors(state):
                break
            state, _event = apply(state, choose(state, rng, mood))
        if state["phase"] == "playing":
            yield state


@pytest.mark.parametrize("preset", PRESETS)
def test_a_sample_keeps_the_seats_hand_the_counts_the_unseen_cards_and_the_known_roles(preset):
    rng = random.Random(7)
    for state in playing_positions(preset, 10):
        seat = state["turn"]
        seen = view(state, seat)
        unseen = Counter(unseen_pool(seen))
        for _ in range(5):
            world = sample(seen, rng)
            assert world.hands[seat] == tiers_of(state["hands"][seat], preset)
            assert world.sizes == [len(hand) for hand in state["hands"]]
            dealt = Counter()
            for other in range(5):
                if other != seat:
                    dealt.update({tier: n for tier, n in enumerate(world.hands[other]) if n})
            assert dealt == unseen  # every unseen card dealt once, nothing else
            assert world.emperor == state["emperor"]
            known = seen["roles"]
            if known["revealed"] or known["guard"] is not None:
                assert (world.guard, world.solo) == (state["guard"], state["solo"])
            elif world.guard is not None:
                tier = marker_tier(seen)
                assert world.hands[world.guard][tier] >= 1  # it still holds the guard card
            if preset == "qingdao":
                assert all(world.hands[other][THREE] == 1 for other in range(5) if world.sizes[other])


def test_a_qingdao_seat_that_paid_its_baozi_as_tribute_knows_the_guard():
    from baohuang.engine.bidding import holder_of
    from baohuang.engine.policy import baseline
    from baohuang.engine.state import deal

    for seed in range(50):
        payer = holder_of(deal("qingdao", seed), "4H*")
        receiver = (payer + 1) % 5
        debt = {"from": payer, "to": receiver, "cards": 1, "kind": "highest"}
        state = new_hand("qingdao", seed, tribute=[debt])
        while state["phase"] in ("bidding", "declaring"):
            state, _event = apply(state, baseline(state, actors(state)[0]))
        if state["phase"] == "playing" and state["emperor"] not in (payer, receiver):
            break
    assert state["guard"] == receiver
    seen = view(state, payer)
    assert seen["roles"]["guard"] is None  # not shown to the table
    rng = random.Random(1)
    assert {sample(seen, rng).guard for _ in range(20)} == {receiver}
