"""Choosing the emperor and guard, and the declaration window (RULES §6, §8)."""

import pytest

from baohuang.engine import IllegalAction, actors, apply, legal_actions, result, state_from_hands


def act(state, seat, kind, **fields):
    state, _event = apply(state, {"seat": seat, "type": kind, **fields})
    return state


def refused(state, seat, kind, code, **fields):
    with pytest.raises(IllegalAction) as err:
        apply(state, {"seat": seat, "type": kind, **fields})
    return err.value.code == code


def answer_all(state, answers=None):
    """Every pending seat answers (``none`` unless told otherwise)."""
    answers = answers or {}
    while state["phase"] == "declaring":
        seat = actors(state)[0]
        state = act(state, seat, "declare", what=answers.get(seat, "none"))
    return state


# --- classic 叫庄 -----------------------------------------------------------------------

CLASSIC_CALL = ["BJ* 9S 9S 9S 5H", "9S 4D", "7C 7C 7C", "8C", "6D"]


def test_call_of_a_triple_makes_the_fourth_copy_holder_guard():
    state = act(state_from_hands("classic", CLASSIC_CALL), 0, "call", card="9S")
    assert (state["emperor"], state["guard"], state["solo"]) == (0, 1, None)
    assert state["phase"] == "declaring" and actors(state) == [0, 1, 2, 3, 4]


def test_call_of_all_four_copies_is_a_dark_solo():
    state = state_from_hands("classic", ["BJ* 9S 9S 9S 9S", "4D", "7C", "8C", "6D"])
    state = act(state, 0, "call", card="9S")
    assert (state["emperor"], state["guard"], state["solo"]) == (0, None, "dark")


def test_call_needs_three_or_four_copies():
    state = state_from_hands("classic", ["BJ* 9S 9S 5H", "9S 9S", "7C", "8C", "6D"])
    assert refused(state, 0, "call", "cannot_call", card="9S")


def test_jokers_can_be_called_including_the_crown():
    state = state_from_hands("classic", ["BJ* BJ BJ 5H", "BJ", "7C", "8C", "6D"])
    state = act(state, 0, "call", card="BJ")
    assert (state["emperor"], state["guard"]) == (0, 1)


def test_decline_hands_the_crown_to_the_upper_seat():
    state = act(state_from_hands("classic", CLASSIC_CALL), 0, "decline")
    assert "BJ*" in state["hands"][4] and "BJ*" not in state["hands"][0]
    assert actors(state) == [4]
    assert refused(state, 0, "decline", "not_your_turn")


def test_forced_call_goes_from_the_first_holder_through_each_upper_seat():
    # Seats 3 and 2 hold triples (8D 8C 8C 8C: suits count); 逼庄 goes from seat 0 to 4 to 3.
    hands = ["BJ* 5H", "4D 8C", "7C 7C 7C", "8C 8C 8C 8D", "6D"]
    state = state_from_hands("classic", hands)
    for seat in (0, 4, 3, 2, 1):
        state = act(state, seat, "decline")
    assert state["bidding"]["forced"] and actors(state) == [3]
    assert legal_actions(state, 3) == [{"seat": 3, "type": "call", "card": "8C"}]
    assert refused(state, 3, "decline", "must_call")
    assert refused(state, 3, "seize", "must_call")
    state = act(state, 3, "call", card="8C")
    assert state["emperor"] == 3 and state["guard"] == 1 and "BJ*" in state["hands"][3]


def test_forced_call_refuses_a_four_of_a_kind():
    hands = ["BJ* 5H", "4D", "7C 7C 7C 9D 9D 9D 9D", "8C", "6D"]
    state = state_from_hands("classic", hands)
    for seat in (0, 4, 3, 2, 1):
        state = act(state, seat, "decline")
    assert actors(state) == [2]
    assert refused(state, 2, "call", "cannot_call", card="9D")


def test_nobody_holding_a_triple_voids_the_hand():
    state = state_from_hands("classic", ["BJ* 5H", "4D 4D", "7C", "8C", "6D"])
    for seat in (0, 4, 3, 2, 1):
        state = act(state, seat, "decline")
    assert state["phase"] == "void" and actors(state) == []
    assert result(state)["void"] is True


def test_any_seat_may_seize_the_crown_out_of_turn():
    state = act(state_from_hands("classic", CLASSIC_CALL), 3, "seize")
    assert (state["emperor"], state["guard"], state["solo"]) == (3, None, "seized")
    assert "BJ*" in state["hands"][3] and state["phase"] == "playing" and actors(state) == [3]


def test_seize_is_classic_only():
    state = state_from_hands("qingdao", ["BJ* 3S", "3H", "3C", "3D", "3S 4H*"])
    assert refused(state, 1, "seize", "unknown_action")


# --- classic / qingdao declarations: one step, five answers ----------------------------


def test_window_looks_the_same_for_a_guard_and_a_dark_solo():
    team = act(state_from_hands("classic", CLASSIC_CALL), 0, "call", card="9S")
    solo = act(state_from_hands("classic", ["BJ* 9S 9S 9S 9S", "4D", "7C", "8C", "6D"]),
               0, "call", card="9S")
    for state in (team, solo):
        assert state["window"]["step"] == "declare" and actors(state) == [0, 1, 2, 3, 4]


def test_guard_ming_bao_is_shown_and_counts():
    state = act(state_from_hands("classic", CLASSIC_CALL), 0, "call", card="9S")
    assert refused(state, 2, "declare", "cannot_declare", what="ming_bao")
    state = answer_all(state, {1: "ming_bao"})
    assert state["declarations"] == ["ming_bao"] and state["revealed"]
    assert state["declared"] == [{"seat": 1, "what": "ming_bao"}]
    assert state["phase"] == "playing" and actors(state) == [0]


def test_an_bao_leaves_no_public_trace():
    state = act(state_from_hands("classic", CLASSIC_CALL), 0, "call", card="9S")
    state = answer_all(state, {1: "an_bao"})
    assert state["declarations"] == [] and state["declared"] == [] and not state["revealed"]


def test_four_copy_emperor_may_open_the_solo():
    state = act(state_from_hands("classic", ["BJ* 9S 9S 9S 9S", "4D", "7C", "8C", "6D"]),
                0, "call", card="9S")
    state = answer_all(state, {0: "open_solo"})
    assert state["solo"] == "open" and state["revealed"]


# --- lianzhong 让皇 ---------------------------------------------------------------------

LIANZHONG = ["BJ* 2S 7C", "2H 9D", "AS 9C", "SJ* 8D", "2D KC"]


def test_refused_throne_bundle_grows_by_a_two_or_the_highest_card():
    state = state_from_hands("lianzhong", LIANZHONG)
    state = act(state, 0, "decline")  # the first refusal passes only the crown
    assert state["bidding"]["bundle"] == ["BJ*"] and actors(state) == [4]
    state = act(state, 4, "decline")  # adds its 2
    state = act(state, 3, "decline")  # no 2 and SJ* is a joker: adds its highest, 8D
    assert state["bidding"]["bundle"] == ["BJ*", "2D", "8D"]
    assert state["hands"][3] == ["SJ*"]
    state = act(state, 2, "accept")
    assert state["emperor"] == 2 and {"BJ*", "2D", "8D"} <= set(state["hands"][2])
    assert state["bidding"] is None
    assert state["guard"] == 3 and state["solo"] is None


def test_two_circles_of_refusals_void_the_hand():
    state = state_from_hands("lianzhong", LIANZHONG)
    seat = 0
    for _ in range(9):
        state = act(state, seat, "decline")
        seat = (seat + 4) % 5
    assert state["phase"] == "bidding"
    state = act(state, seat, "decline")
    assert state["phase"] == "void" and result(state)["void"]


def test_emperor_holding_the_guard_card_is_a_dark_solo():
    state = state_from_hands("lianzhong", ["BJ* SJ* 7C", "2H", "AS", "9C", "KC"])
    state = act(state, 0, "accept")
    assert state["solo"] == "dark" and state["guard"] is None
    assert state["window"]["step"] == "emperor" and actors(state) == [0]
    assert [a["what"] for a in legal_actions(state, 0)] == ["none", "dark_solo", "open_solo"]


def accepted(hands=LIANZHONG, seat=0, **options):
    state = state_from_hands("lianzhong", hands, options=options or None)
    return act(state, seat, "accept")


def test_open_step_asks_the_same_seats_for_a_team_and_a_dark_solo():
    team = act(accepted(), 0, "declare", what="none")
    solo = act(accepted(["BJ* SJ* 7C", "2H", "AS", "9C", "KC"]), 0, "declare", what="none")
    for state in (team, solo):
        assert state["window"]["step"] == "open" and actors(state) == [1, 2, 3, 4]


def test_single_rebel_only_marks_its_declarer():
    state = answer_all(accepted(), {2: "rebel"})
    assert state["phase"] == "playing" and state["declarations"] == []
    assert state["hoes"] == [2] and not state["revealed"]


def test_two_rebels_succeed_and_show_the_guard():
    state = act(accepted(), 0, "declare", what="none")
    state = act(state, 1, "declare", what="rebel")
    state = act(state, 2, "declare", what="rebel")
    state = act(state, 3, "declare", what="none")
    state = act(state, 4, "declare", what="none")
    assert state["declarations"] == ["rebel"] and state["revealed"]
    assert state["window"]["step"] == "niu" and actors(state) == [0, 3]


def test_guard_cannot_rebel():
    state = act(accepted(), 0, "declare", what="none")
    assert refused(state, 3, "declare", "cannot_declare", what="rebel")


def test_ming_bao_then_niu_then_ti():
    state = act(accepted(), 0, "declare", what="none")
    for seat, what in ((1, "none"), (2, "none"), (3, "ming_bao"), (4, "none")):
        state = act(state, seat, "declare", what=what)
    assert state["window"]["step"] == "niu" and actors(state) == [1, 2, 4]
    state = act(state, 1, "declare", what="niu")
    state = act(state, 2, "declare", what="none")
    state = act(state, 4, "declare", what="none")
    assert state["window"]["step"] == "ti" and actors(state) == [0, 3]
    state = answer_all(state, {0: "ti"})
    assert state["declarations"] == ["ming_bao", "niu", "ti"]
    assert state["phase"] == "playing" and actors(state) == [0]


def test_no_niu_closes_the_window_after_ming_bao():
    state = answer_all(accepted(), {3: "ming_bao"})
    assert state["declarations"] == ["ming_bao"] and state["phase"] == "playing"


def test_dark_solo_rebelled_by_two_may_be_kicked_by_the_soloist():
    state = accepted(["BJ* SJ* 7C", "2H", "AS", "9C", "KC"])
    state = act(state, 0, "declare", what="none")
    for seat, what in ((1, "rebel"), (2, "none"), (3, "none"), (4, "rebel")):
        state = act(state, seat, "declare", what=what)
    assert state["window"]["step"] == "ti" and actors(state) == [0]
    state = act(state, 0, "declare", what="ti")
    assert state["declarations"] == ["rebel", "ti"] and state["solo"] == "dark"


def test_open_solo_is_kicked_only_by_two_seats():
    hands = ["BJ* SJ* 7C", "2H", "AS", "9C", "KC"]
    one = answer_all(accepted(hands), {0: "open_solo", 2: "ti"})
    two = answer_all(accepted(hands), {0: "open_solo", 2: "ti", 3: "ti"})
    assert one["solo"] == "open" and one["declarations"] == []
    assert two["declarations"] == ["ti"]


def test_grab_solo_goes_to_the_grabber_nearest_the_emperor_upwards():
    state = accepted(grab_solo=True)
    state = act(state, 0, "declare", what="none")
    assert state["window"]["step"] == "grab" and actors(state) == [1, 2, 3, 4]
    # Upwards from emperor 0: 4, 3, 2, 1 — seat 2 is nearer than seat 1.
    for seat, what in ((1, "grab_solo"), (2, "grab_solo"), (3, "none"), (4, "none")):
        state = act(state, seat, "declare", what=what)
    assert (state["emperor"], state["guard"], state["solo"]) == (2, None, "seized")
    assert state["window"]["step"] == "kick" and actors(state) == [0, 1, 3, 4]


# --- qingdao --------------------------------------------------------------------------

QINGDAO = ["BJ* 3S 5C", "3H 2S 6D", "3C 7D", "3D 2H 8S", "3S 4H* 9D"]


def test_qingdao_refusals_add_a_two_only_when_held():
    state = state_from_hands("qingdao", QINGDAO)
    for seat in (0, 4, 3, 2, 1):
        state = act(state, seat, "decline")
    assert state["bidding"]["bundle"] == ["BJ*", "2H", "2S"]
    assert actors(state) == [0]  # back to the first holder, who decides again
    state = act(state, 0, "decline")
    assert state["phase"] == "void" and result(state)["void"]


def test_qingdao_guard_is_the_baozi_holder():
    state = act(state_from_hands("qingdao", QINGDAO), 0, "accept")
    assert (state["emperor"], state["guard"]) == (0, 4)
    state = answer_all(state, {4: "ming_bao"})
    assert state["declarations"] == ["ming_bao"] and state["phase"] == "playing"


def test_qingdao_emperor_with_baozi_plays_alone():
    state = state_from_hands("qingdao", QINGDAO)
    state = act(state, 0, "decline")
    state = act(state, 4, "accept")
    assert state["solo"] == "dark" and state["guard"] is None
    assert "BJ*" in state["hands"][4]


# --- hidden information: the window's shape never depends on the secret -----------------


def window_trace(state):
    """The public shape of a silent window: each step's name and who is asked."""
    trace = []
    while state["phase"] == "declaring":
        trace.append((state["window"]["step"], tuple(actors(state))))
        state, event = apply(state, {"seat": actors(state)[0], "type": "declare", "what": "none"})
        assert set(event) <= {"version", "seat", "type", "what", "step", "step_done", "next",
                              "emperor"}
    return trace, state


@pytest.mark.parametrize("preset, team, solo, bid", [
    ("classic", CLASSIC_CALL, ["BJ* 9S 9S 9S 9S", "4D", "7C", "8C", "6D"],
     {"type": "call", "card": "9S"}),
    ("lianzhong", LIANZHONG, ["BJ* SJ* 7C", "2H", "AS", "9C", "KC"], {"type": "accept"}),
    ("qingdao", QINGDAO, ["BJ* 4H* 3S", "3H", "3C", "3D", "3S"], {"type": "accept"}),
])
def test_a_silent_window_looks_the_same_for_a_hidden_guard_and_a_dark_solo(
        preset, team, solo, bid):
    traces = []
    for hands in (team, solo):
        state, event = apply(state_from_hands(preset, hands), {"seat": 0, **bid})
        trace, state = window_trace(state)
        traces.append(trace)
        assert state["phase"] == "playing" and not state["revealed"]
        assert state["declared"] == [] and state["declarations"] == []
    assert traces[0] == traces[1]
