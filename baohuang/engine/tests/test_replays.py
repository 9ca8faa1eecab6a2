"""Replays: every step of a finished hand from its seed and actions, ending in its result."""

import pytest

from baohuang.engine import PRESETS, replay
from baohuang.engine.replays import steps
from baohuang.engine.simulate import simulate


@pytest.mark.parametrize("preset", PRESETS)
def test_a_replay_runs_from_the_deal_to_the_stored_result(preset):
    (_line, ended, actions), = simulate(preset, 1, 17)
    found = steps(preset, ended["seed"], actions, options=ended["options"],
                  tribute=tuple(ended["tribute_in"]))
    assert [step["version"] for step in found] == list(range(len(actions) + 1))
    assert found[0]["event"] is None and found[0]["hands"] == replay(preset, ended["seed"], [],
                                                                     options=ended["options"],
                                                                     tribute=tuple(ended["tribute_in"]))["hands"]
    last = found[-1]
    assert last["view"]["result"] == ended["result"]
    assert last["hands"] == ended["hands"] and last["view"]["showdown"] == ended["hands"]
    for step, action in zip(found[1:], actions):
        assert (step["event"]["seat"], step["event"]["type"]) == (action["seat"], action["type"])
        assert sum(len(hand) for hand in step["hands"]) == sum(step["view"]["counts"])
