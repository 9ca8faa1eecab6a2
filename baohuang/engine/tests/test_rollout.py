"""The rollout policy (rollout.py): in qingdao it plays as the strong policy does, and the
searching seat plays a solo as the search does."""

import pytest

from baohuang.engine import actors, apply, new_hand
from baohuang.engine.fastsim import PASS, TIERS, YIELD, Sim, from_state
from baohuang.engine.rollout import AS_STRONG, choose, lone_follow, rollout
from baohuang.engine.sets import composition
from baohuang.engine.simulate import hand_seed
from baohuang.engine.strong import strong


def _tiers(*pairs):
    hand = [0] * TIERS
    for tier, count in pairs:
        hand[tier] += count
    return hand


def _seized(emperor_hand, **roles):
    """classic: seat 0 rules alone (抢庄) and seat 4 has led a single K (tier 10)."""
    rebels = _tiers((2, 3), (3, 3), (5, 2), (6, 2), (10, 1))
    hands = [emperor_hand] + [list(rebels) for _ in range(4)]
    sim = Sim("classic", hands, turn=4, emperor=0, **({"guard": None, "solo": "seized",
                                                        "revealed": True} | roles))
    sim.act((10, 1, 0, 0, 0))  # seat 4 leads a K: seat 0 follows
    return sim


def test_alone_the_searching_seat_beats_where_the_rollout_policy_would_pass():
    # Four sets and only BJ (tier 14) beats the K: the rollout policy keeps its joker,
    # the soloist searching spends it to win the round.
    sim = _seized(_tiers((1, 1), (4, 1), (9, 1), (14, 1)))
    assert sim.turn == 0
    assert choose(sim, 0) == PASS
    assert lone_follow(sim, 0) == (14, 1, 0, 0, 0)


def test_with_nothing_that_beats_the_soloist_passes():
    sim = _seized(_tiers((1, 1), (4, 1), (9, 1)))
    assert lone_follow(sim, 0) == PASS


def test_only_the_searching_soloist_plays_so():
    # Another hero seat (a rebel), or an emperor with a guard, plays the rollout policy.
    hand = _tiers((1, 1), (4, 1), (9, 1), (14, 1))
    assert rollout(_seized(list(hand)), hero=2) == rollout(_seized(list(hand)))
    team = _seized(list(hand), solo=None, guard=2, revealed=False)
    assert rollout(team.copy(), hero=0) == rollout(team.copy())


@pytest.mark.parametrize("preset", sorted(AS_STRONG))
def test_the_rollout_policy_plays_as_the_strong_policy(preset):
    # Every play of three hands of five strong seats: the rollout's choice on the compact
    # form is strong's, a yield included.
    for number in range(3):
        state = new_hand(preset, hand_seed("rollout-agrees", number))
        while actors(state):
            seat = actors(state)[0]
            action = strong(state, seat)
            if state["phase"] == "playing":
                expected = ({"pass": PASS, "yield": YIELD}.get(action["type"])
                            or composition(action["cards"].split(), preset))
                assert choose(from_state(state), seat) == expected, (number, state["hands"][seat])
            state, _event = apply(state, action)
