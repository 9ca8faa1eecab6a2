"""The round log (this round and 上一轮) and 摊牌 at the end, in every preset's view."""

import pytest

from baohuang.engine import apply, event_view, state_from_hands, view

# Emperor 0, guard 1; nobody goes out in the first round of any of these.
POSITIONS = {
    "classic": ["7S 7H 9C KD", "8S 8H 9S QD", "8D JC JD 5C", "4C 4D 6C 6D", "5S 5H TC TD"],
    "lianzhong": ["7S 7H 9C KD", "8S 8H SJ* QD", "8D JC JD TC", "9D 9H QC QS", "TS TH KC KS"],
    "qingdao": ["7S 7H KD 3S", "8S 8H 4H* 3H", "8D JC JD 3C", "4C 4D 6C 3D", "5S 5H TC 3S"],
}
ROLES = {"classic": {"called": "9S"}, "lianzhong": {"options": {"hold_sixes": False}},
         "qingdao": {}}


def position(preset):
    return state_from_hands(preset, POSITIONS[preset], emperor=0, guard=1, **ROLES[preset])


def act(state, seat, kind, **fields):
    return apply(state, {"seat": seat, "type": kind, **fields})[0]


def first_round(preset):
    """0 leads a pair of 7s, 1 beats with 8s, 2..4 and 0 pass: 1 wins the round."""
    state = act(position(preset), 0, "play", cards="7S 7H")
    state = act(state, 1, "play", cards="8S 8H")
    for seat in (2, 3, 4, 0):
        state = act(state, seat, "pass")
    return state


PLAYS = [{"seat": 0, "type": "play", "cards": ["7S", "7H"]},
         {"seat": 1, "type": "play", "cards": ["8S", "8H"]}]
PASSES = [{"seat": seat, "type": "pass"} for seat in (2, 3, 4, 0)]


@pytest.mark.parametrize("preset", POSITIONS)
@pytest.mark.parametrize("viewer", [None, 0, 3])
def test_the_log_lists_the_round_in_order_for_everyone(preset, viewer):
    state = act(act(act(position(preset), 0, "play", cards="7S 7H"), 1, "play", cards="8S 8H"),
                2, "pass")
    log = view(state, viewer)["log"]
    assert log == {"round": PLAYS + [{"seat": 2, "type": "pass"}], "previous": None}


@pytest.mark.parametrize("preset", POSITIONS)
def test_a_won_round_becomes_the_previous_round(preset):
    state = first_round(preset)
    log = view(state, None)["log"]
    assert log["round"] == []
    assert log["previous"] == {"entries": PLAYS + PASSES, "winner": 1}
    lead = state["hands"][1][0]  # the winner leads the next round
    state = act(state, 1, "play", cards=lead)
    assert view(state, 4)["log"] == {"round": [{"seat": 1, "type": "play", "cards": [lead]}],
                                     "previous": {"entries": PLAYS + PASSES, "winner": 1}}


def test_yields_are_logged_too():
    state = act(act(position("classic"), 0, "play", cards="7S 7H"), 1, "yield")
    assert view(state, 2)["log"]["round"][-1] == {"seat": 1, "type": "yield"}


def test_showdown_reveals_the_cards_still_held_after_an_early_end():
    # lianzhong: emperor 0 and guard 1 go out first and second: the scores are fixed (g = 3)
    # whatever the order of the other three, so the hand ends with 2, 3, 4 holding cards.
    hands = ["AS", "AH", "8D JC JD TC", "9D 9H QC QS", "TS TH KC KS"]
    state = state_from_hands("lianzhong", hands, emperor=0, guard=1, options={"hold_sixes": False})
    state = act(state, 0, "play", cards="AS")
    for seat in (1, 2, 3, 4):
        state = act(state, seat, "pass")
    assert view(state, 2).get("showdown") is None  # 接风: the guard leads next
    state, event = apply(state, {"seat": 1, "type": "play", "cards": "AH"})
    assert state["phase"] == "ended"
    held = [[], [], ["JC", "JD", "TC", "8D"], ["QS", "QC", "9H", "9D"], ["KS", "KC", "TS", "TH"]]
    for viewer in (None, 0, 2):
        seen = view(state, viewer)
        assert seen["showdown"] == held
        assert seen["roles"]["guard"] == 1 and seen["roles"]["revealed"]
        assert event_view(event, viewer)["showdown"] == held
