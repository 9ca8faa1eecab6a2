"""The compact simulator (fastsim.py) agrees with the engine: the same legal actions and
whether the guard is shown at every step, and the same places and scores at the end, over
random hands of every preset."""

import random

import pytest

from baohuang.engine import PRESETS, actors, apply, legal_actions
from baohuang.engine.fastsim import PASS, YIELD, from_state
from baohuang.engine.sets import composition
from baohuang.engine.simulate import Mood, choose, hand_seed, new_hand

HANDS_PER_PRESET = 12


def as_move(action, preset):
    if action["type"] == "play":
        return composition(action["cards"].split(), preset)
    return {"pass": PASS, "yield": YIELD}[action["type"]]


@pytest.mark.parametrize("preset", PRESETS)
def test_the_simulator_lists_the_engines_legal_actions_and_ends_with_its_result(preset):
    checked = ended = 0
    for number in range(HANDS_PER_PRESET):
        seed = hand_seed("fastsim", number)
        rng = random.Random(seed)
        mood = Mood.draw(rng)
        options = {"hold_sixes": number % 2 == 0}
        state = new_hand(preset, seed, options=options)
        sim = None
        while actors(state):
            action = choose(state, rng, mood)
            if state["phase"] == "playing":
                if sim is None or number % 3 == 0:
                    sim = from_state(state)  # also restart from the engine's position
                seat = state["turn"]
                assert sim.turn == seat
                engine_moves = [as_move(a, preset) for a in legal_actions(state, seat)]
                assert sim.actions(seat) == engine_moves
                assert sim.revealed == state["revealed"]  # the guard is shown as the engine shows it
                checked += 1
                sim.act(as_move(action, preset))
            state, _event = apply(state, action)
        if state["phase"] == "ended":
            ended += 1
            assert sim.over
            assert sim.places == state["result"]["places"]
            assert sim.scores == state["result"]["scores"]
    assert checked > 200 and ended >= HANDS_PER_PRESET // 2
