"""The consumer's per-process hand states: replaying a broadcast event from the state
before it gives exactly the stored state, and anything doubtful is refused (RoomConsumer
then reads the database instead)."""

import random

import pytest

from baohuang import engine
from rooms.hand_states import action_of, replayed


def random_hand(preset: str, seed: int):
    """(state before, event, state after) for every action of a randomly played hand."""
    rng = random.Random(seed)
    state = engine.new_hand(preset, seed)
    while engine.result(state) is None:
        seat = rng.choice(engine.actors(state))
        after, event = engine.apply(state, rng.choice(engine.legal_actions(state, seat)))
        yield state, event, after
        state = after


@pytest.mark.parametrize("preset", engine.PRESETS)
def test_replaying_each_event_gives_the_engine_state_after_it(preset):
    # The first random hand from seed 7 on that has a declaration window (a lianzhong_classic
    # emperor who takes the throne 明独保 without 抢独 opens none).
    steps = next(steps for seed in range(7, 100) for steps in [list(random_hand(preset, seed))]
                 if {event["type"] for _, event, _ in steps} >= {"play", "pass", "declare"})
    for before, event, after in steps:
        assert replayed(before, event) == after


def test_an_event_that_does_not_follow_from_the_state_is_refused():
    before, event, _ = next(step for seed in range(1, 50) for step in random_hand("classic", seed)
                            if step[1]["type"] == "call")
    assert action_of(event) == {"seat": event["seat"], "type": "call", "card": event["card"]}
    assert replayed(before, {**event, "guard": (event["guard"] or 0) + 1}) is None  # not what happened
    assert replayed(before, {**event, "seat": (event["seat"] + 1) % 5}) is None  # not that seat's turn
    assert replayed(before, {**event, "type": "fly"}) is None
