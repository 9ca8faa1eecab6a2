"""The hand as a state machine: dealing, purity, versions, JSON, replay (RULES §5)."""

import random
from collections import Counter

import pytest

from baohuang.engine import (IllegalAction, actors, apply, check, decision_kind, from_json,
                             legal_actions, new_hand, replay, result, state_from_hands,
                             to_json)
from baohuang.engine.cards import build_deck


def random_hand(preset, seed, *, options=None, tribute=(), pick=None):
    """Play a whole hand choosing random legal actions; returns (state, actions)."""
    rng = random.Random(seed)
    state = new_hand(preset, seed, options=options, tribute=tribute)
    actions = []
    while actors(state):
        seat = rng.choice(actors(state))
        choices = [a for a in legal_actions(state, seat) if a["type"] != "seize"]
        plays = [a for a in choices if a["type"] in ("play", "accept", "call")]
        action = rng.choice(plays if plays and rng.random() < 0.7 else choices)
        state, _ = apply(state, action)
        actions.append(action)
    return state, actions


@pytest.mark.parametrize("preset, counts", [
    ("classic", [43, 43, 43, 43, 43]),
    ("lianzhong", [33] * 5),
    ("qingdao", [41] * 5),
])
def test_deal_gives_each_preset_its_counts(preset, counts):
    state = new_hand(preset, 7)
    holder = state["first_holder"]
    if preset == "classic":
        counts[holder] += 1  # the leftover card goes to the BJ* holder
    assert state["dealt"] == counts
    assert Counter(card for hand in state["hands"] for card in hand) == Counter(build_deck(preset))
    assert "BJ*" in state["hands"][holder] and actors(state) == [holder]
    assert state["phase"] == "bidding" and decision_kind(state) == "bid"
    assert state["version"] == 0 and result(state) is None


def test_a_leftover_crown_goes_to_seat_zero():
    # Seed 607 shuffles BJ* to the very end of the classic deck (RULES §5 leaves it open).
    state = new_hand("classic", 607)
    assert state["dealt"] == [44, 43, 43, 43, 43] and state["first_holder"] == 0
    assert "BJ*" in state["hands"][0] and actors(state) == [0]


def test_qingdao_deal_pays_tribute_then_everyone_holds_one_three():
    debts = [{"from": 0, "to": 1, "cards": 1, "kind": "highest"}]
    state = new_hand("qingdao", 3, tribute=debts)
    assert [sum(card[0] == "3" for card in hand) for hand in state["hands"]] == [1] * 5
    assert state["tribute_in"] == debts
    assert [(t["from"], t["to"]) for t in state["tribute_paid"]] == [(0, 1)]
    assert state["sold_three"] == sorted(set(state["sold_three"]), key=state["sold_three"].index)
    assert {p["seller"] for p in state["threes"]} == set(state["sold_three"])


def test_marked_cards_paid_as_tribute_carry_their_roles():
    # Seed 0 deals 4H* to seat 4 and BJ* (with no plain BJ) to seat 2. RULES §7
    # [decision]: each pays it as its highest card, and the role travels with the card.
    debts = [{"from": 4, "to": 1, "cards": 1, "kind": "highest"},
             {"from": 2, "to": 3, "cards": 1, "kind": "highest"}]
    state = new_hand("qingdao", 0, tribute=debts)
    assert state["tribute_paid"] == [{"from": 4, "to": 1, "card": "4H*"},
                                     {"from": 2, "to": 3, "card": "BJ*"}]
    assert state["first_holder"] == 3 and actors(state) == [3]  # first offered the throne
    state, event = apply(state, {"seat": 3, "type": "accept"})
    assert state["emperor"] == 3 and state["guard"] == 1 and event["guard"] == 1


def test_same_seed_same_deal_and_other_seed_other_deal():
    assert new_hand("classic", 11)["hands"] == new_hand("classic", 11)["hands"]
    assert new_hand("classic", 11)["hands"] != new_hand("classic", 12)["hands"]


def test_apply_never_mutates_and_bumps_the_version_by_one():
    state = new_hand("classic", 5)
    for _ in range(60):
        if not actors(state):
            break
        seat = actors(state)[0]
        action = next(a for a in legal_actions(state, seat) if a["type"] != "seize")
        before = to_json(state)
        new, event = apply(state, action)
        assert to_json(state) == before
        assert new["version"] == state["version"] + 1 == event["version"]
        state = new


@pytest.mark.parametrize("preset", ["classic", "lianzhong", "qingdao"])
def test_replay_rebuilds_the_hand_exactly(preset):
    for seed in range(4):
        options = {"grab_solo": True} if preset == "lianzhong" else None
        state, actions = random_hand(preset, seed, options=options)
        assert state["phase"] in ("ended", "void")
        assert to_json(replay(preset, seed, actions, options=options)) == to_json(state)
        assert from_json(to_json(state)) == state


@pytest.mark.parametrize("preset", ["classic", "lianzhong", "qingdao"])
def test_every_enumerated_action_passes_check(preset):
    rng = random.Random(preset)
    state = new_hand(preset, 9)
    while actors(state):
        for seat in range(5):
            for action in legal_actions(state, seat):
                check(state, action)
        seat = rng.choice(actors(state))
        state, _ = apply(state, rng.choice([a for a in legal_actions(state, seat)
                                            if a["type"] != "seize"]))
    assert legal_actions(state, 0) == [] and decision_kind(state) is None


def test_finished_hand_has_a_complete_result():
    state, _ = random_hand("classic", 21)
    outcome = result(state)
    if not outcome["void"]:
        assert sorted(outcome["places"]) == [0, 1, 2, 3, 4] and sum(outcome["scores"]) == 0
        assert outcome["outcome"] in ("win", "draw", "lose") and state["revealed"]


@pytest.mark.parametrize("action, code", [
    ("not a dict", "bad_action"),
    ({"seat": 7, "type": "decline"}, "bad_action"),
    ({"seat": True, "type": "decline"}, "bad_action"),
    ({"seat": 0, "type": "dance"}, "unknown_action"),
    ({"seat": 0, "type": "play", "cards": "5H"}, "wrong_phase"),
    ({"seat": 0, "type": "accept"}, "unknown_action"),
    ({"seat": 0, "type": "call"}, "bad_action"),
    ({"seat": 0, "type": "declare", "what": "none"}, "wrong_phase"),
])
def test_malformed_or_misplaced_actions_have_precise_codes(action, code):
    state = state_from_hands("classic", ["BJ* 9S 9S 9S 5H", "9S 4D", "7C", "8C", "6D"])
    with pytest.raises(IllegalAction) as err:
        check(state, action)
    assert err.value.code == code


def test_declare_outside_the_window_is_refused_and_unknown_answers_are_bad():
    state = state_from_hands("classic", ["BJ* 9S 9S 9S 5H", "9S 4D", "7C", "8C", "6D"])
    state, _ = apply(state, {"seat": 0, "type": "call", "card": "9S"})
    assert decision_kind(state) == "declare"
    with pytest.raises(IllegalAction) as err:
        check(state, {"seat": 2, "type": "declare", "what": "shout"})
    assert err.value.code == "bad_action"
    state, _ = apply(state, {"seat": 2, "type": "declare", "what": "none"})
    with pytest.raises(IllegalAction) as err:
        check(state, {"seat": 2, "type": "declare", "what": "none"})
    assert err.value.code == "not_your_turn"
    assert actors(state) == [0, 1, 3, 4]
