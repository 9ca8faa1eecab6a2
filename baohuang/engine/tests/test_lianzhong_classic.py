"""lianzhong_classic (联众经典): the emperor calls one of its triples — RULES §6, §7.

Bidding paths (accept with a triple, 让位, forced acceptance after a circle, void after
the second circle, 暗独保, 明独保, 抢独), the window, revealing the guard, the views,
托管 and every scoring case.
"""

import pytest

from baohuang.engine import (IllegalAction, actors, apply, autoplay, event_view,
                             legal_actions, state_from_hands, view)
from baohuang.engine.scoring import score_hand

PRESET = "lianzhong_classic"
# Seat 0 holds BJ* and three 9S (the fourth is seat 1's); seat 4 holds three KS
# (the fourth is seat 2's); seats 1 and 3 hold no triple.
HANDS = ["BJ* 9S 9S 9S 7H", "9S 8H 8D", "KS TS TH", "JS JH 7D", "QS QH KS KS KS"]


def deal(hands=HANDS, **options):
    return state_from_hands(PRESET, hands, options=options or None)


def act(state, seat, kind, **fields):
    state, _event = apply(state, {"seat": seat, "type": kind, **fields})
    return state


def refusal(state, seat, kind, **fields):
    with pytest.raises(IllegalAction) as err:
        apply(state, {"seat": seat, "type": kind, **fields})
    return err.value.code


def decline_round(state, seats):
    for seat in seats:
        state = act(state, seat, "decline")
    return state


# --- bidding --------------------------------------------------------------------------


def test_the_crown_holder_is_offered_the_throne_and_may_call_accept_or_yield():
    state = deal()
    assert state["phase"] == "bidding" and actors(state) == [0]
    assert legal_actions(state, 0) == [{"seat": 0, "type": "call", "card": "9S"},
                                       {"seat": 0, "type": "accept"},
                                       {"seat": 0, "type": "decline"}]
    assert legal_actions(state, 3) == []  # no 抢庄 in this preset


def test_calling_a_triple_makes_the_fourth_copy_holder_guard():
    state, event = apply(deal(), {"seat": 0, "type": "call", "card": "9S"})
    assert (state["emperor"], state["guard"], state["solo"], state["called"]) == (0, 1, None,
                                                                                  "9S")
    assert state["guard_card"] == "9S" and not state["revealed"]
    assert event["step_next"] == "guard"
    assert state["window"]["step"] == "guard" and actors(state) == [1, 2, 3, 4]


@pytest.mark.parametrize("card, code", [
    ("8H", "not_your_turn"),  # asked of seat 1 below
    ("7H", "cannot_call"),    # one copy
    ("BJ", "cannot_call"),    # jokers may not be called
])
def test_a_call_names_a_natural_card_held_three_or_four_times(card, code):
    seat = 1 if code == "not_your_turn" else 0
    assert refusal(deal(), seat, "call", card=card) == code


def test_jokers_may_not_be_called_even_as_a_triple():
    hands = ["BJ* SJ SJ SJ 7H", "SJ 8H", "TS", "JS", "QS"]
    state = deal(hands)
    assert refusal(state, 0, "call", card="SJ") == "cannot_call"
    assert [a["type"] for a in legal_actions(state, 0)] == ["accept", "decline"]


def test_a_triple_without_a_fourth_copy_in_the_deck_cannot_be_called():
    # The deck keeps thirteen 6s: 6S four times, 6H / 6C / 6D three times each.
    state = deal(["BJ* 6H 6H 6H 7H", "8H", "TS", "JS", "QS"])
    assert refusal(state, 0, "call", card="6H") == "cannot_call"


def test_yield_hands_the_crown_to_the_upper_seat_with_no_card_added():
    state, event = apply(deal(), {"seat": 0, "type": "decline"})
    assert event["to"] == 4 and actors(state) == [4]
    assert state["hands"][0] == ["9S", "9S", "9S", "7H"]
    assert state["hands"][4] == ["BJ*", "KS", "KS", "KS", "QS", "QH"]  # 经典玩法中不贴2
    assert state["bidding"] == {"declined": [0], "forced": False}


def test_after_a_full_circle_a_seat_that_can_call_must_accept():
    state = decline_round(deal(), [0, 4, 3, 2, 1])
    assert actors(state) == [0] and state["bidding"]["forced"]
    assert refusal(state, 0, "decline") == "must_call"
    assert {"seat": 0, "type": "decline"} not in legal_actions(state, 0)
    state = act(state, 0, "call", card="9S")
    assert state["emperor"] == 0 and state["guard"] == 1


def test_in_the_second_circle_a_seat_that_cannot_call_passes_it_on():
    hands = ["BJ* 9S 7H", "9S 8H 8D", "KS TS TH", "JS JH 7D", "QS QH KS KS KS"]
    state = decline_round(deal(hands), [0, 4, 3, 2, 1])
    state = act(state, 0, "decline")  # seat 0 holds no triple
    assert refusal(state, 4, "decline") == "must_call"  # seat 4 holds three KS
    state = act(state, 4, "call", card="KS")
    assert (state["emperor"], state["guard"]) == (4, 2)


def test_a_second_circle_with_nobody_able_to_accept_voids_the_hand():
    hands = ["BJ* 9S 7H", "9S 8H 8D", "KS TS TH", "JS JH 7D", "QS QH KS KS"]
    state = decline_round(deal(hands), [0, 4, 3, 2, 1, 0, 4, 3, 2])
    assert state["phase"] == "bidding" and actors(state) == [1]
    state, event = apply(state, {"seat": 1, "type": "decline"})
    assert state["phase"] == "void" and event["void"] and state["result"]["void"]


def test_calling_all_four_copies_is_a_dark_solo():
    hands = ["BJ* 9S 9S 9S 9S", "8H 8D", "KS TS TH", "JS JH 7D", "QS QH"]
    state = act(deal(hands), 0, "call", card="9S")
    assert (state["emperor"], state["guard"], state["solo"]) == (0, None, "dark")
    # The window asks the same four seats as for a team, so nothing shows the solo.
    assert state["window"]["step"] == "guard" and actors(state) == [1, 2, 3, 4]
    for seat in (1, 2, 3, 4):
        assert [a["what"] for a in legal_actions(state, seat)] == ["none"]


def test_accepting_with_no_call_is_an_open_solo_and_play_starts():
    state, event = apply(deal(), {"seat": 0, "type": "accept"})
    assert (state["emperor"], state["guard"], state["solo"]) == (0, None, "open")
    assert state["revealed"] and state["phase"] == "playing" and actors(state) == [0]
    assert event["next"] == 0 and event_view(event, 3)["solo"] == "open"


def test_an_open_solo_leaves_no_grab_even_when_the_room_allows_it():
    state = act(deal(grab_solo=True), 0, "accept")
    assert state["phase"] == "playing"


def test_grab_solo_makes_the_nearest_grabber_in_upper_direction_emperor():
    state = act(deal(grab_solo=True), 0, "call", card="9S")
    assert state["window"]["step"] == "grab" and actors(state) == [1, 2, 3, 4]
    for seat, what in ((1, "grab_solo"), (2, "none"), (3, "grab_solo"), (4, "none")):
        state = act(state, seat, "declare", what=what)
    # 上家 direction from the emperor 0: seat 4, then 3 — seat 3 is the nearest grabber.
    assert (state["emperor"], state["guard"], state["solo"]) == (3, None, "seized")
    assert state["phase"] == "playing" and actors(state) == [3]


def test_without_a_grab_the_guard_step_follows():
    state = act(deal(grab_solo=True), 0, "call", card="9S")
    for seat in (1, 2, 3, 4):
        state = act(state, seat, "declare", what="none")
    assert state["window"]["step"] == "guard"


def test_the_guard_may_reveal_and_nobody_may_rebel():
    state = act(deal(), 0, "call", card="9S")
    assert [a["what"] for a in legal_actions(state, 1)] == ["none", "an_bao", "ming_bao"]
    for seat in (2, 3, 4):
        assert [a["what"] for a in legal_actions(state, seat)] == ["none"]
        assert refusal(state, seat, "declare", what="rebel") == "cannot_declare"
    state = act(state, 1, "declare", what="ming_bao")
    for seat in (2, 3, 4):
        state = act(state, seat, "declare", what="none")
    assert state["declarations"] == ["ming_bao"] and state["revealed"]
    assert state["phase"] == "playing" and actors(state) == [0]


# --- revealing and views -----------------------------------------------------------------


def playing(hands, called, emperor=0, guard=1, **roles):
    return state_from_hands(PRESET, hands, emperor=emperor, guard=guard, called=called,
                            **roles)


def test_the_guard_is_revealed_by_playing_the_called_cards_fourth_copy():
    hands = ["BJ* 9S 9S 9S 7H", "9S 8H 8D", "KS TS TH", "JS JH 7D", "QS QH"]
    state = playing(hands, "9S")
    assert state["guard_card"] == "9S"
    state = act(state, 0, "play", cards="7H")
    state, event = apply(state, {"seat": 1, "type": "play", "cards": "9S"})
    assert event["revealed"] == 1 and state["revealed"]
    assert view(state, 3)["roles"]["guard"] == 1


def test_the_emperor_playing_the_called_cards_shows_nothing():
    hands = ["BJ* 9S 9S 9S 7H", "9S 8H 8D", "KS TS TH", "JS JH 7D", "QS QH"]
    state, event = apply(playing(hands, "9S"), {"seat": 0, "type": "play", "cards": "9S"})
    assert "revealed" not in event and not state["revealed"]


def test_an_unrevealed_guard_is_not_hinted_the_called_copy_first():
    hands = ["BJ* 9S 9S 9S 7H", "9S 9H 8D", "KS TS TH", "JS JH 7D", "QS QH"]
    state = act(playing(hands, "9S"), 0, "play", cards="7H")
    assert [a["cards"] for a in legal_actions(state, 1) if a["type"] == "play"][1] == "9H"


def test_the_called_card_is_public_and_the_guard_only_known_to_itself():
    state, event = apply(deal(), {"seat": 0, "type": "call", "card": "9S"})
    for seat in (None, 0, 2, 3, 4):
        assert view(state, seat)["roles"]["guard"] is None
        assert "guard" not in event_view(event, seat)
        assert view(state, seat)["roles"]["called"] == "9S"
    assert view(state, 1)["roles"]["guard"] == 1 and event_view(event, 1)["guard"] == 1


def test_a_dark_solo_looks_like_a_team_to_everyone_else():
    hands = ["BJ* 9S 9S 9S 9S", "8H 8D", "KS TS TH", "JS JH 7D", "QS QH"]
    state, event = apply(deal(hands), {"seat": 0, "type": "call", "card": "9S"})
    assert view(state, 0)["roles"]["solo"] == "dark" and event_view(event, 0)["solo"] == "dark"
    for seat in (None, 1, 2, 3, 4):
        assert view(state, seat)["roles"]["solo"] is None
        assert event_view(event, seat)["solo"] is None


def test_the_bidding_view_shows_the_crown_and_who_yielded():
    state = act(deal(), 0, "decline")
    public = view(state, None)["bidding"]
    assert public == {"first_holder": 0, "crown": 4, "declined": [0], "forced": False, "throne": True}
    seat_view = view(state, 4)
    assert seat_view["may"] == ["call", "accept", "decline"]
    assert seat_view["choices"] == {"call": ["KS"]}
    assert view(state, 0)["may"] == []


# --- 托管 ----------------------------------------------------------------------------------


def test_autoplay_calls_the_highest_triple_else_yields():
    state = deal()
    assert autoplay(state, 0) == {"seat": 0, "type": "call", "card": "9S"}
    state = act(state, 0, "decline")
    state = act(state, 4, "decline")
    assert autoplay(state, 3) == {"seat": 3, "type": "decline"}  # never 明独保


def test_autoplay_under_forced_acceptance_calls_four_copies_when_it_has_no_triple():
    hands = ["BJ* 9S 9S 9S 9S", "8H 8D", "KS TS TH", "JS JH 7D", "QS QH"]
    state = deal(hands)
    assert autoplay(state, 0) == {"seat": 0, "type": "decline"}  # not yet forced
    state = decline_round(state, [0, 4, 3, 2, 1])
    assert autoplay(state, 0) == {"seat": 0, "type": "call", "card": "9S"}


# --- scoring (RULES §7: lianzhong's, with no 造反, 扭 or 踢) ---------------------------------


def score(places, *, emperor=0, guard=1, solo=None, declarations=()):
    return score_hand(PRESET, emperor=emperor, guard=guard, solo=solo,
                      declarations=list(declarations), places=places)


@pytest.mark.parametrize("places, declarations, expected, outcome", [
    ([0, 1, 2, 3, 4], (), [6, 3, -3, -3, -3], "win"),           # g = 6 - (1 + 2) = 3
    ([0, 2, 1, 3, 4], (), [4, 2, -2, -2, -2], "win"),           # places 1 and 3
    ([0, 2, 3, 1, 4], (), [2, 1, -1, -1, -1], "win"),           # places 1 and 4
    ([0, 2, 3, 4, 1], (), [0, 0, 0, 0, 0], "draw"),             # places 1 and 5
    ([2, 0, 3, 4, 1], (), [-2, -1, 1, 1, 1], "lose"),           # places 2 and 5
    ([2, 3, 4, 1, 0], (), [-6, -3, 3, 3, 3], "lose"),           # places 5 and 4
    ([0, 1, 2, 3, 4], ("ming_bao",), [12, 6, -6, -6, -6], "win"),
    ([2, 3, 4, 1, 0], ("ming_bao",), [-12, -6, 6, 6, 6], "lose"),
])
def test_a_team_scores_the_two_person_formula_doubled_by_ming_bao(places, declarations,
                                                                  expected, outcome):
    assert score(places, declarations=declarations) == (expected, outcome)


@pytest.mark.parametrize("solo, place, share", [
    ("dark", 1, 12), ("dark", 2, 0), ("dark", 3, -12), ("dark", 5, -12),   # 暗独保
    ("open", 1, 24), ("open", 2, -24), ("open", 5, -24),                   # 明独保
    ("seized", 1, 24), ("seized", 3, -24),                                 # 抢独
])
def test_solos_score_as_lianzhongs_dark_and_open_solo(solo, place, share):
    places = [1, 2, 3, 4]
    places.insert(place - 1, 0)
    scores, outcome = score(places, guard=None, solo=solo)
    assert scores == [share] + [-share // 4] * 4
    assert outcome == ("win" if share > 0 else "draw" if share == 0 else "lose")


@pytest.mark.parametrize("declarations", [("rebel",), ("ming_bao", "niu"), ("niu", "ti")])
def test_there_is_no_rebellion_niu_or_ti(declarations):
    with pytest.raises(ValueError, match="has no declaration"):
        score([0, 1, 2, 3, 4], declarations=declarations)
