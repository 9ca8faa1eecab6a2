"""The consumer's per-process hand states: replaying a broadcast event from the state
before it gives exactly the stored state, and anything doubtful is refused (RoomConsumer
then reads the database instead, `state_at`)."""

import random

import pytest

from baohuang import engine
from rooms.hand_states import action_of, replayed
from rooms.models import Hand
from rooms.records import epoch_ms
from rooms.selectors import state_at
from rooms.services import hand_start
from rooms.tests.play import step


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


@pytest.mark.django_db
def test_the_state_at_an_earlier_version_is_rebuilt_from_the_seed_or_from_a_state_held(full_table):
    """What a socket more than `HandStates.KEEP` versions behind reads (`state_at`): the stored
    row at its own version, else the seed or an earlier state held plus the stored actions."""
    hand = hand_start(room_id=full_table("qingdao").pk)
    seen = {hand.version: hand.state}
    for _ in range(12):
        step(hand.pk)
        row = Hand.objects.get(pk=hand.pk)
        seen[row.version] = row.state
    now = max(seen)
    assert state_at(hand.pk, now, None) == (seen[now], epoch_ms(row.deadline))
    for version in sorted(seen)[1:-1]:
        assert state_at(hand.pk, version, None) == (seen[version], None)  # a superseded decision: no deadline
        base = version - 3
        if base in seen:
            assert state_at(hand.pk, version, (base, seen[base])) == (seen[version], None)
    assert state_at(hand.pk, now + 1, None) is None  # not written yet
    assert state_at(hand.pk + 1, 1, None) is None  # no such hand
