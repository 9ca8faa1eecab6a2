"""The baseline 托管 policy (RULES §8): seed 002's default answers, always legal."""

import pytest

from baohuang.engine import (IllegalAction, actors, apply, autoplay, check, new_hand,
                             state_from_hands)
from baohuang.engine.sets import composition


def act(state, seat, kind, **fields):
    state, _event = apply(state, {"seat": seat, "type": kind, **fields})
    return state


# --- bidding ----------------------------------------------------------------------------------


def test_classic_crown_holder_calls_its_highest_triple():
    state = state_from_hands("classic", ["BJ* 9S 9S 9S KD KD KD 5H", "9S", "KD", "8C", "6D"])
    assert autoplay(state, 0) == {"seat": 0, "type": "call", "card": "KD"}


def test_classic_crown_holder_without_a_triple_yields_the_crown():
    # Four of a kind is a solo call: the baseline never goes solo of its own accord.
    state = state_from_hands("classic", ["BJ* 9S 9S 9S 9S 5H", "4D", "7C", "8C", "6D"])
    assert autoplay(state, 0) == {"seat": 0, "type": "decline"}


def test_classic_forced_caller_calls():
    hands = ["BJ* 5H", "4D 8C", "7C 7C 7C", "8C 8C 8C 8D", "6D"]
    state = state_from_hands("classic", hands)
    for seat in (0, 4, 3, 2, 1):
        state = act(state, seat, "decline")
    assert autoplay(state, 3) == {"seat": 3, "type": "call", "card": "8C"}


@pytest.mark.parametrize("preset", ["lianzhong", "qingdao"])
def test_the_seat_offered_the_throne_accepts_it(preset):
    state = new_hand(preset, 2)
    seat = actors(state)[0]
    assert autoplay(state, seat) == {"seat": seat, "type": "accept"}


# --- declarations -----------------------------------------------------------------------------


def test_the_guard_stays_hidden_and_others_declare_nothing():
    state = act(state_from_hands("classic", ["BJ* 9S 9S 9S", "9S", "KD", "8C", "6D"]), 0,
                "call", card="9S")
    for seat in range(5):
        assert autoplay(state, seat) == {"seat": seat, "type": "declare", "what": "none"}


def test_a_solo_emperor_picks_the_dark_solo():
    state = act(state_from_hands("classic", ["BJ* 9S 9S 9S 9S", "4D", "KD", "8C", "6D"]), 0,
                "call", card="9S")
    assert autoplay(state, 0) == {"seat": 0, "type": "declare", "what": "dark_solo"}


def test_lianzhong_non_guards_do_not_rebel():
    state = new_hand("lianzhong", 4)
    while state["phase"] == "declaring" or state["phase"] == "bidding":
        seat = actors(state)[0]
        action = autoplay(state, seat)
        assert action["type"] in ("accept", "declare")
        assert action.get("what", "none") in ("none", "dark_solo")
        state, _ = apply(state, action)
    assert state["declarations"] == [] and state["hoes"] == []


# --- play -------------------------------------------------------------------------------------


def test_the_leader_plays_its_smallest_single():
    hands = ["BJ* 9S 9H 5H 5D SJ", "4D", "9S KC", "8C", "6D"]
    state = state_from_hands("classic", hands, emperor=0, guard=2, called="9S")
    assert autoplay(state, 0) == {"seat": 0, "type": "play", "cards": "5H"}


def test_an_unrevealed_classic_guard_leads_another_copy_than_the_called_card():
    hands = ["4D 8C", "BJ*", "9S 9H KC", "8C 8D", "6D 6H"]
    state = state_from_hands("classic", hands, emperor=1, guard=2, called="9S")
    state = act(state, 1, "play", cards="BJ*")
    for seat in (2, 3, 4, 0):
        state = act(state, seat, "pass")
    assert state["turn"] == 2  # 接风: the emperor went out, the next seat leads
    assert autoplay(state, 2) == {"seat": 2, "type": "play", "cards": "9H"}


def test_the_qingdao_three_waits_for_the_last_card():
    hands = ["BJ* 3S 7D 7H", "3H 8D", "3D 4H* KC", "3C 8C", "3S 6D"]
    state = state_from_hands("qingdao", hands, emperor=0, guard=2)
    assert autoplay(state, 0) == {"seat": 0, "type": "play", "cards": "7H"}


def test_a_leader_with_no_legal_single_plays_its_smallest_set():
    # 憋6: seat 0 holds only 6s, so its one legal lead is both of them together.
    hands = ["6S 6H", "BJ* 7D 8D 9D", "SJ* KC KD", "8C 9C TC", "TD JD QD"]
    state = state_from_hands("lianzhong", hands, emperor=0, guard=2)
    assert autoplay(state, 0) == {"seat": 0, "type": "play", "cards": "6S 6H"}


def test_a_follower_passes():
    hands = ["BJ* 5H 5D", "4D 7H", "9S KC", "8C 8D", "6D 6H"]
    state = state_from_hands("classic", hands, emperor=0, guard=2, called="9S")
    state = act(state, 0, "play", cards="5H")
    assert autoplay(state, 1) == {"seat": 1, "type": "pass"}


# --- always legal, errors -----------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "lianzhong", "qingdao"])
def test_a_table_of_baseline_players_finishes_every_hand_legally(preset):
    for seed in range(6):
        state = new_hand(preset, seed)
        while actors(state):
            seat = actors(state)[0]
            action = autoplay(state, seat)
            check(state, action)
            state, _ = apply(state, action)
        assert state["phase"] == "ended"  # the throne is always accepted or called
        assert sorted(state["places"]) == [0, 1, 2, 3, 4]


def test_a_lead_is_the_lowest_single_composition():
    state = state_from_hands("qingdao", ["BJ* 3S 2D 5C 5H", "3H 8D", "3D 4H* KC", "3C 8C",
                                         "3S 6D"], emperor=0, guard=2)
    cards = autoplay(state, 0)["cards"].split()
    assert composition(cards, "qingdao") == (2, 1, 0, 0, 0)  # a single 5


def test_an_unknown_policy_is_a_value_error():
    with pytest.raises(ValueError, match="unknown"):
        autoplay(new_hand("classic", 1), 0, policy="clever")


def test_the_strong_policy_is_available_by_name():
    state = new_hand("qingdao", 9)
    seat = actors(state)[0]
    action = autoplay(state, seat, policy="strong")
    check(state, action)


def test_a_seat_with_nothing_to_decide_is_refused():
    state = new_hand("lianzhong", 1)
    idle = (actors(state)[0] + 1) % 5
    with pytest.raises(IllegalAction) as err:
        autoplay(state, idle)
    assert err.value.code == "not_your_turn"
