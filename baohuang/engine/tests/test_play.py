"""Rounds, turn order, going out, 闷三 and the end of a hand (RULES §2–§4)."""

import pytest

from baohuang.engine import (IllegalAction, actors, apply, check, legal_actions, result,
                             state_from_hands)


def act(state, seat, kind, **fields):
    state, _event = apply(state, {"seat": seat, "type": kind, **fields})
    return state


def event_of(state, seat, kind, **fields):
    return apply(state, {"seat": seat, "type": kind, **fields})


def refusal(state, seat, kind, **fields):
    with pytest.raises(IllegalAction) as err:
        apply(state, {"seat": seat, "type": kind, **fields})
    return err.value.code


# Classic, emperor 0 with guard 1 (called 9S); nobody can go out in one play.
CLASSIC = ["7S 7H 9C KD", "8S 8H 9S QD", "8D JC JD 5C", "4C 4D 6C 6D", "5S 5H TC TD"]


def classic(hands=CLASSIC, **roles):
    return state_from_hands("classic", hands, emperor=0, guard=1, called="9S", **roles)


def test_the_emperor_leads_and_a_leader_cannot_pass():
    state = classic()
    assert state["phase"] == "playing" and actors(state) == [0]
    assert refusal(state, 0, "pass") == "cannot_pass"
    assert refusal(state, 0, "yield") == "cannot_yield"


@pytest.mark.parametrize("seat, cards, code", [
    (1, "QD QD", "not_in_hand"),
    (1, "8S", "wrong_size"),
    (2, "JC JD", "not_your_turn"),
    (1, "8S 9S", "illegal_set"),
])
def test_a_follower_must_beat_the_top_set_with_its_own_cards(seat, cards, code):
    state = act(classic(), 0, "play", cards="7S 7H")
    assert refusal(state, seat, "play", cards=cards) == code


def test_a_set_of_equal_rank_does_not_beat():
    hands = ["7S 7H 9C KD", "7C 7D 9S QD", *CLASSIC[2:]]
    state = act(classic(hands), 0, "play", cards="7S 7H")
    assert refusal(state, 1, "play", cards="7C 7D") == "does_not_beat"


def test_malformed_cards_are_a_bad_action():
    assert refusal(classic(), 0, "play", cards="7S ZZ") == "bad_action"
    assert refusal(classic(), 0, "play") == "bad_action"


@pytest.mark.parametrize("preset, cards, named", [
    ("classic", "SJ*", "SJ*"),
    ("classic", "4H*", "4H*"),
    ("classic", "7S 7S 7S 7S 7S", "7S"),
    ("lianzhong", "3S", "3S"),
    ("lianzhong", "BJ* BJ*", "BJ*"),
    ("qingdao", "SJ*", "SJ*"),
])
def test_check_names_a_card_the_preset_does_not_hold(preset, cards, named):
    hands = {"classic": CLASSIC, "qingdao": QINGDAO,
             "lianzhong": ["BJ* 7S 7H", "8S 8H SJ*", "9D TC", "JC JD", "QS QH"]}[preset]
    state = state_from_hands(preset, hands, emperor=0, guard=1,
                             called="9S" if preset == "classic" else None)
    with pytest.raises(IllegalAction) as err:
        check(state, {"seat": 0, "type": "play", "cards": cards})
    assert err.value.code == "bad_action" and named in err.value.message


def test_a_yielder_gets_a_second_turn_and_must_then_play_or_pass():
    state = act(classic(), 0, "play", cards="7S")
    state = act(state, 1, "yield")
    for seat in (2, 3, 4):
        state = act(state, seat, "pass")
    assert actors(state) == [1]
    assert refusal(state, 1, "yield") == "cannot_yield"
    assert {"seat": 1, "type": "yield"} not in legal_actions(state, 1)
    state, event = event_of(state, 1, "pass")
    assert event["round_won"] == 0 and actors(state) == [0] and state["top"] is None


# [decision] RULES §3: a lone yielder's second turn comes at once; a yield never ends a
# round. (seat that leads, the seats that pass, the yielder.)
@pytest.mark.parametrize("preset, leader, passers, yielder", [
    ("classic", 0, (1, 2, 3), 4),
    ("classic", 0, (2, 3, 4), 1),
    ("qingdao", 0, (1, 2, 3), 4),
    ("qingdao", 0, (1, 3, 4), 2),
])
def test_a_lone_yield_gives_the_yielder_its_second_turn_at_once(preset, leader, passers,
                                                                 yielder):
    state = classic() if preset == "classic" else qingdao()
    state = act(state, leader, "play", cards="7S")
    for seat in range(leader + 1, leader + 5):
        seat %= 5
        state, event = event_of(state, seat, "yield" if seat == yielder else "pass")
    assert "round_won" not in event and event["next"] == yielder
    assert actors(state) == [yielder] and state["top"] == {"seat": leader, "cards": ["7S"]}
    assert refusal(state, yielder, "yield") == "cannot_yield"
    state, event = event_of(state, yielder, "pass")
    assert event["round_won"] == leader and actors(state) == [leader] and state["top"] is None


def test_a_lone_yielder_may_beat_on_its_second_turn():
    state = act(classic(), 0, "play", cards="7S")
    state = act(state, 1, "pass")
    state = act(state, 2, "pass")
    state = act(state, 3, "pass")
    state = act(state, 4, "yield")
    state = act(state, 4, "play", cards="TC")
    assert state["top"] == {"seat": 4, "cards": ["TC"]} and actors(state) == [0]


def test_yielders_who_then_beat_reset_the_round():
    state = act(classic(), 0, "play", cards="7S")
    state = act(state, 1, "yield")
    state = act(state, 2, "play", cards="8D")
    assert state["yielded"] == [] and actors(state) == [3]


def test_lianzhong_has_no_yield():
    hands = ["BJ* 7S 7H", "8S 8H SJ*", "9D TC", "JC JD", "QS QH"]
    state = state_from_hands("lianzhong", hands, emperor=0, guard=1)
    state = act(state, 0, "play", cards="7S")
    assert refusal(state, 1, "yield") == "cannot_yield"


def test_classic_pass_lasts_only_for_the_top_set():
    state = act(classic(), 0, "play", cards="7S")
    state = act(state, 1, "pass")
    state = act(state, 2, "play", cards="8D")
    state = act(state, 3, "pass")
    state = act(state, 4, "pass")
    state = act(state, 0, "pass")
    assert actors(state) == [1]  # 过牌可上: its pass was on 7S, not on 8D


QINGDAO = ["7S 7H KD 3S", "8S 8H 4H* 3H", "8D JC JD 3C", "4C 4D 6C 3D", "5S 5H TC 3S"]


def qingdao(hands=QINGDAO, **roles):
    return state_from_hands("qingdao", hands, emperor=0, guard=1, **roles)


def test_qingdao_pass_lasts_for_the_rest_of_the_round():
    state = act(qingdao(), 0, "play", cards="7S")
    state = act(state, 1, "pass")
    state = act(state, 2, "play", cards="8D")
    state = act(state, 3, "pass")
    state = act(state, 4, "pass")
    state, event = event_of(state, 0, "pass")
    assert event["round_won"] == 2 and actors(state) == [2]


def test_the_three_goes_last_alone_as_a_lead():
    assert refusal(qingdao(), 0, "play", cards="3S") == "three_goes_last"


def test_jiefeng_the_next_holder_leads_when_the_winner_is_out():
    hands = ["AS", "8S 8H 9S QD", "8D JC JD 5C", "4C 4D 6C 6D", "5S 5H TC TD"]
    state, event = event_of(classic(hands), 0, "play", cards="AS")
    assert event["out"] == 1 and state["places"][0] == 0
    for seat in (1, 2, 3):
        state = act(state, seat, "pass")
    state, event = event_of(state, 4, "pass")
    assert event["round_won"] == 0 and actors(state) == [1] and state["leader"] == 1


def test_menzan_takes_the_worst_open_place_and_discards_the_three():
    hands = ["5D 7S 7H KD 3S", "8S 8H 4H* 3H", "9S 3C", "TS JD 3D", "5S 5H TC 3S"]
    state = act(qingdao(hands), 0, "play", cards="5D")
    state = act(state, 1, "pass")
    state = act(state, 2, "play", cards="9S")  # seat 2 is left with only its 3
    state, event = event_of(state, 3, "play", cards="TS")
    assert event["menzan"] == 2 and event["menzan_place"] == 5
    assert state["places"] == [None, None, None, None, 2]
    assert state["hands"][2] == [] and state["discarded"] == ["3C"] and state["menzan"] == [2]
    assert state["phase"] == "playing"


def test_unbeaten_last_set_lets_the_three_be_led_out():
    hands = ["5D 7S 7H KD 3S", "8S 8H 4H* 3H", "9S 3C", "TS JD 3D", "5S 5H TC 3S"]
    state = act(qingdao(hands), 0, "play", cards="5D")
    state = act(state, 1, "pass")
    state = act(state, 2, "play", cards="9S")
    for seat in (3, 4, 0):  # seat 1 passed earlier in this round (qingdao)
        state = act(state, seat, "pass")
    assert actors(state) == [2]
    state, event = event_of(state, 2, "play", cards="3C")
    assert event["out"] == 1 and state["menzan"] == []


def test_hand_ends_as_soon_as_the_result_is_fixed():
    # Emperor and guard go out 1st and 2nd: the rebels' order cannot change the scores.
    hands = ["AS", "KS", "5C 6C 7C", "4C", "4D 5D"]
    state = act(classic(hands), 0, "play", cards="AS")
    for seat in (1, 2, 3, 4):
        state = act(state, seat, "pass")
    assert actors(state) == [1]
    state, event = event_of(state, 1, "play", cards="KS")
    assert event["ended"] and state["phase"] == "ended" and actors(state) == []
    # Fewest cards first: seat 3 (1 card), seat 4 (2), seat 2 (3).
    assert result(state)["places"] == [0, 1, 3, 4, 2]
    assert result(state)["scores"] == [6, 3, -3, -3, -3] and result(state)["outcome"] == "win"
    assert refusal(state, 2, "pass") == "hand_over"


def test_remaining_ties_are_ordered_from_the_player_to_act():
    hands = ["AS", "KS", "5C", "4C", "4D"]
    state = act(classic(hands), 0, "play", cards="AS")
    for seat in (1, 2, 3, 4):
        state = act(state, seat, "pass")
    state = act(state, 1, "play", cards="KS")
    assert result(state)["places"] == [0, 1, 2, 3, 4]


def test_hand_goes_on_while_the_order_still_matters():
    hands = ["AS", "KS 3S", "5C 6C 7C", "4C", "4D 5D"]
    state = act(classic(hands), 0, "play", cards="AS")
    assert state["phase"] == "playing" and state["places"] == [0, None, None, None, None]


def test_qingdao_ends_when_the_emperor_side_outcome_is_fixed():
    # Emperor 0 and guard 1 take 1st and 2nd: a win whatever the rest do.
    hands = ["5D 3S", "8S 3H", "9S 4C 3C", "TS JD 3D", "5S 5H TC 3S"]
    state = act(qingdao(hands), 0, "play", cards="5D")
    for seat in (1, 2, 3, 4):
        state = act(state, seat, "pass")
    state = act(state, 0, "play", cards="3S")  # out 1st
    state = act(state, 1, "play", cards="8S")
    for seat in (2, 3, 4):
        state = act(state, seat, "pass")
    state, event = event_of(state, 1, "play", cards="3H")
    assert state["phase"] == "ended" and result(state)["outcome"] == "win"
    assert result(state)["places"][:2] == [0, 1]
    assert sorted(result(state)["places"][2:]) == [2, 3, 4]
    assert result(state)["tribute"]  # the rebels owe tribute next hand


def test_the_guard_shows_itself_by_playing_the_called_card():
    hands = ["7S 7H 9C KD", "8S 9H 9S QD", *CLASSIC[2:]]
    state = act(classic(hands), 0, "play", cards="7S")
    plays = [a["cards"] for a in legal_actions(state, 1) if a["type"] == "play"]
    assert "9H" in plays and "9S" not in plays  # enumerated plays keep the guard hidden
    state, event = event_of(state, 1, "play", cards="9H")
    assert not state["revealed"] and "revealed" not in event
    state = act(classic(hands), 0, "play", cards="7S")
    state, event = event_of(state, 1, "play", cards="9S")
    assert state["revealed"] and event["revealed"] == 1


def test_qingdao_guard_shows_itself_with_the_baozi():
    state = act(qingdao(), 0, "play", cards="KD")
    state, event = event_of(state, 1, "play", cards="4H*")
    assert state["revealed"] and event["revealed"] == 1


def test_hold_sixes_keeps_a_dealt_six_for_the_last_set():
    hands = ["BJ* 7S 7H", "6S 6H 9C", "9D TC", "JC JD", "QS QH"]
    state = state_from_hands("lianzhong", hands, emperor=1, guard=2)
    assert refusal(state, 1, "play", cards="6S") == "sixes_go_last"
    assert refusal(state, 1, "play", cards="6S 6H") == "sixes_go_last"
    assert act(state, 1, "play", cards="9C")["hands"][1] == ["6S", "6H"]
    free = state_from_hands("lianzhong", hands, emperor=1, guard=2,
                            options={"hold_sixes": False})
    assert act(free, 1, "play", cards="6S")["hands"][1] == ["9C", "6H"]


def test_an_open_solo_ends_when_anyone_else_goes_out_first():
    hands = ["BJ* SJ* 7S 7H", "AS", "9D TC", "JC JD", "QS"]
    state = state_from_hands("lianzhong", hands, emperor=0, guard=None, solo="open")
    state = act(state, 0, "play", cards="7S")
    state, event = event_of(state, 1, "play", cards="AS")
    assert event["ended"] and result(state)["places"] == [1, 4, 2, 3, 0]
    assert result(state)["scores"] == [-24, 6, 6, 6, 6] and result(state)["outcome"] == "lose"
