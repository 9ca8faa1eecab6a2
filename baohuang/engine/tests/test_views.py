"""What a seat or a spectator may see (RULES §8 Hidden information)."""

import json
from collections import Counter
import random

import pytest

from baohuang.engine import (actors, apply, autoplay, check, event_view, legal_actions, new_hand,
                             parse_cards, state_from_hands, view)
from baohuang.engine.cards import value
from baohuang.engine.policy import hint_order
from baohuang.engine.sets import composition

SPECTATOR = None


def act(state, seat, kind, **fields):
    return apply(state, {"seat": seat, "type": kind, **fields})


def answer_all(state, answers=None):
    answers = answers or {}
    events = []
    while state["phase"] == "declaring":
        seat = actors(state)[0]
        state, event = act(state, seat, "declare", what=answers.get(seat, "none"))
        events.append(event)
    return state, events


# Seat 0 holds BJ* and three 9S; seat 2 holds the fourth 9S.
CLASSIC = ["BJ* 9S 9S 9S 5H 5D", "4D 7H 8H", "9S KC KD", "8C 8D 2S", "6D 6H TC"]


def classic_called():
    state, event = act(state_from_hands("classic", CLASSIC), 0, "call", card="9S")
    return state, event


# --- cards ---------------------------------------------------------------------------------


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others():
    state = new_hand("classic", 7)
    for seat in range(5):
        seen = view(state, seat)
        assert seen["hand"] == state["hands"][seat]
        assert seen["counts"] == [len(hand) for hand in state["hands"]]
        text = json.dumps(seen)
        for other in range(5):
            if other != seat:
                assert json.dumps(state["hands"][other]) not in text


def test_a_spectator_sees_no_hand_and_no_choices():
    seen = view(new_hand("qingdao", 3), SPECTATOR)
    assert "hand" not in seen and "may" not in seen
    assert sum(seen["counts"]) == 205


def test_a_view_shares_no_list_with_the_state():
    state = new_hand("lianzhong", 5)
    seen = view(state, 1)
    seen["hand"].clear()
    seen["counts"][1] = 0
    assert len(state["hands"][1]) == 33


def test_a_viewer_must_be_a_seat_or_a_spectator():
    state = new_hand("classic", 1)
    for bad in (5, -1, "0", True):
        with pytest.raises(ValueError):
            view(state, bad)


# --- roles ---------------------------------------------------------------------------------


def test_the_emperor_and_called_card_are_public_but_an_unrevealed_guard_is_not():
    state, _ = classic_called()
    for seat in (SPECTATOR, 0, 1, 3, 4):
        roles = view(state, seat)["roles"]
        assert (roles["emperor"], roles["called"], roles["guard"]) == (0, "9S", None)
    assert view(state, 2)["roles"]["guard"] == 2


def test_the_guard_is_shown_to_all_once_it_plays_a_copy_of_the_called_card():
    hands = ["BJ* 9S 9S 9S 5H", "4D 7H 8H", "9S KC KD", "8C 8D 2S", "6D 6H TC"]
    state = state_from_hands("classic", hands, emperor=0, guard=2, called="9S")
    state, _ = act(state, 0, "play", cards="5H")
    state, _ = act(state, 1, "pass")
    state, event = act(state, 2, "play", cards="9S")
    assert event_view(event, SPECTATOR)["revealed"] == 2
    assert all(view(state, seat)["roles"]["guard"] == 2 for seat in (SPECTATOR, 0, 1, 3, 4))


def test_a_dark_solo_looks_like_a_team_to_everyone_but_the_emperor():
    hands = ["BJ* 9S 9S 9S 9S 5H", "4D 7H 8H", "8S KC KD", "8C 8D 2S", "6D 6H TC"]
    state, event = act(state_from_hands("classic", hands), 0, "call", card="9S")
    team, team_event = classic_called()
    assert view(state, 0)["roles"]["solo"] == "dark"
    assert event_view(event, 0)["solo"] == "dark"
    for seat in (SPECTATOR, 1, 3, 4):
        assert view(state, seat)["roles"] == view(team, seat)["roles"]
        assert event_view(event, seat) == event_view(team_event, seat)


def test_the_call_event_names_the_guard_only_to_the_guard():
    _, event = classic_called()
    assert event_view(event, 2)["guard"] == 2
    for seat in (SPECTATOR, 0, 1, 3, 4):
        assert "guard" not in event_view(event, seat)


# --- the declaration window ----------------------------------------------------------------


def test_a_silent_answer_is_shown_only_to_the_seat_that_gave_it():
    state, _ = classic_called()
    after_guard, guard_event = act(state, 2, "declare", what="an_bao")
    _, other_event = act(state, 1, "declare", what="none")
    if "what" in guard_event:
        assert event_view(guard_event, 2)["what"] == "an_bao"
    for seat in (SPECTATOR, 0, 3, 4):
        # The guard's 暗保 must look exactly like a non-guard's "none".
        guard_seen, other_seen = event_view(guard_event, seat), event_view(other_event, seat)
        assert "what" not in guard_seen
        assert {**guard_seen, "seat": 1} == other_seen
    assert view(after_guard, 0)["window"]["answered"] == [2]
    assert "an_bao" not in json.dumps(view(after_guard, 0))


def test_ming_bao_is_public_at_once():
    state, _ = classic_called()
    state, event = act(state, 2, "declare", what="ming_bao")
    assert event_view(event, 4)["revealed"] == 2
    assert view(state, 4)["roles"]["guard"] == 2
    assert view(state, SPECTATOR)["declared"] == [{"seat": 2, "what": "ming_bao"}]
    assert view(state, SPECTATOR)["declarations"] == ["ming_bao"]


def test_only_the_guard_is_offered_ming_bao():
    state, _ = classic_called()
    assert view(state, 2)["choices"] == {"declare": ["none", "an_bao", "ming_bao"]}
    for seat in (0, 1, 3, 4):
        assert view(state, seat)["choices"] == {"declare": ["none"]}


# --- bidding and play choices --------------------------------------------------------------


def test_classic_bidding_offers_calls_to_the_crown_holder_and_seizing_to_everyone():
    state = state_from_hands("classic", CLASSIC)
    deciding = view(state, 0)
    assert deciding["may"] == ["call", "decline", "seize"]
    assert deciding["choices"] == {"call": ["9S"]}
    assert view(state, 3)["may"] == ["seize"]
    assert view(state, SPECTATOR)["bidding"] == {"first_holder": 0, "crown": 0, "declined": [],
                                                "forced": False}


def test_the_lianzhong_bundle_is_face_up():
    state = new_hand("lianzhong", 11)
    first = state["turn"]
    state, event = act(state, first, "decline")
    state, event = act(state, state["turn"], "decline")
    assert event_view(event, SPECTATOR)["bundle"] == event["bundle"]
    assert view(state, SPECTATOR)["bidding"]["bundle"] == state["bidding"]["bundle"]


def test_the_table_shows_each_seats_last_move_this_round():
    hands = ["BJ* 5H 5D", "4D 7H 8H", "9S KC KD", "8C 8D 2S", "6D 6H TC"]
    state = state_from_hands("classic", hands, emperor=0, guard=2, called="9S")
    state, _ = act(state, 0, "play", cards="5H")
    state, _ = act(state, 1, "yield")
    state, _ = act(state, 2, "play", cards="KC")
    table = view(state, 3)["table"]
    assert table["top"] == {"seat": 2, "cards": ["KC"]}
    assert table["last"] == [{"type": "play", "cards": ["5H"]}, {"type": "yield"},
                             {"type": "play", "cards": ["KC"]}, None, None]
    assert view(state, 3)["may"] == ["play", "pass", "yield"]
    assert view(state, 4)["may"] == []


def test_a_follower_with_nothing_that_beats_may_only_pass_or_yield():
    hands = ["BJ* 2S 5D", "4D 7H 8H", "9S KC KD", "8C 8D 2S", "6D 6H TC"]
    state = state_from_hands("classic", hands, emperor=0, guard=2, called="9S")
    state, _ = act(state, 0, "play", cards="2S")
    assert view(state, 1)["may"] == ["pass", "yield"]


# --- qingdao deal and the end of the hand ----------------------------------------------------


def test_a_paid_baozi_names_its_receiver_as_guard_only_to_the_guard():
    debts = [{"from": 4, "to": 1, "cards": 1, "kind": "highest"}]
    state = new_hand("qingdao", 0, tribute=debts)  # seat 4 holds 4H* (see test_state)
    state, _ = apply(state, {"seat": state["turn"], "type": "accept"})
    assert state["guard"] == 1
    for seat in (None, 0, 2, 3, 4):
        assert view(state, seat)["roles"]["guard"] is None
    assert view(state, 1)["roles"]["guard"] == 1
    # Only payer and receiver see that the card paid was the 保子.
    for seat in (None, 0, 2, 3):
        assert view(state, seat)["deal"]["tribute_paid"] == [{"from": 4, "to": 1}]
    for seat in (1, 4):
        assert view(state, seat)["deal"]["tribute_paid"][0]["card"] == "4H*"


def test_a_tribute_card_is_shown_only_to_payer_and_receiver():
    debts = [{"from": 0, "to": 1, "cards": 1, "kind": "highest"}]
    state = new_hand("qingdao", 4, tribute=debts)
    paid = state["tribute_paid"][0]
    assert view(state, 0)["deal"]["tribute_paid"] == [paid]
    assert view(state, 1)["deal"]["tribute_paid"] == [paid]
    for seat in (SPECTATOR, 2, 3, 4):
        assert view(state, seat)["deal"]["tribute_paid"] == [{"from": 0, "to": 1}]


def test_the_final_view_holds_the_result_with_roles_revealed():
    state = new_hand("classic", 21)
    while actors(state):
        state, event = apply(state, autoplay(state, actors(state)[0]))
    assert state["phase"] == "ended"
    seen = view(state, SPECTATOR)
    assert seen["roles"]["guard"] == state["guard"] and seen["roles"]["revealed"]
    assert seen["result"]["places"] == state["places"]
    assert sum(seen["result"]["scores"]) == 0
    assert event_view(event, 3)["ended"] is True


def test_events_of_unknown_type_are_a_bare_version_bump():
    assert event_view({"version": 3, "seat": 1, "type": "deal", "hands": [[]]}, 1) is None


# --- hints (提示) ------------------------------------------------------------------------------


def random_positions(preset, seeds, rng):
    """Every position of hands played out with random legal actions."""
    for seed in seeds:
        state = new_hand(preset, seed)
        while actors(state):
            yield state
            seat = rng.choice(actors(state))
            state, _ = apply(state, rng.choice(legal_actions(state, seat)))


def play_base(cards, preset):
    return composition(cards, preset)[0]


@pytest.mark.parametrize("preset", ["classic", "lianzhong", "qingdao"])
def test_hints_are_plays_the_engine_accepts_one_per_rank_that_can_play(preset):
    rng = random.Random(preset)
    leads = follows = 0
    for state in random_positions(preset, range(6), rng):
        for seat in (*range(5), SPECTATOR):
            seen = view(state, seat)
            if seat is None:
                assert "hints" not in seen
            elif state["phase"] != "playing" or seat != state["turn"]:
                assert seen["hints"] == []
        if state["phase"] != "playing":
            continue
        seat = state["turn"]
        hints = view(state, seat)["hints"]
        for cards in hints:
            check(state, {"seat": seat, "type": "play", "cards": " ".join(cards)})
        plays = [parse_cards(action["cards"]) for action in legal_actions(state, seat)
                 if action["type"] == "play"]
        bases = [play_base(cards, preset) for cards in hints]
        assert sorted(bases) == sorted({play_base(cards, preset) for cards in plays})
        held = Counter(value(card, preset) for card in state["hands"][seat])
        keys = [hint_order(composition(cards, preset), held) for cards in hints]
        assert keys == sorted(keys)  # in the order 提示 offers them
        assert seen_cannot_beat(state, seat) == (state["top"] is not None and not plays)
        if state["top"] is None:
            leads += 1
        else:
            follows += 1
            # The cheapest beating set of its rank: no legal set of that rank has more
            # naturals (fewer jokers spent).
            for cards in hints:
                base, naturals = composition(cards, preset)[:2]
                assert naturals == max(composition(play, preset)[1] for play in plays
                                       if play_base(play, preset) == base)
    assert leads > 20 and follows > 20


def test_a_leader_is_hinted_each_whole_group_with_nothing_attached():
    hands = ["BJ* 5H 5D SJ", "4D 7H 8H", "9S KC KD", "8C 8D 2S", "6D 6H TC"]
    state = state_from_hands("classic", hands, emperor=0, guard=2, called="9S")
    assert view(state, 0)["hints"] == [["5H", "5D"], ["SJ"], ["BJ*"]]
    assert view(state, 1)["hints"] == []


def seen_cannot_beat(state, seat):
    return view(state, seat)["cannot_beat"]


def following(hand: str, top: str, preset="classic"):
    """Seat 1 holding ``hand`` is to follow ``top``, led by seat 0."""
    hands = [f"BJ* {top}", hand, "9S KC KD", "8C 8D", "6D 6H TC"]
    state = state_from_hands(preset, hands, emperor=0, guard=2, called="9S")
    state, _ = act(state, 0, "play", cards=top)
    return state


def test_a_follower_is_hinted_the_cheapest_set_of_each_rank_that_beats_jokers_last():
    state = following("4D 7H 8H 8D SJ BJ", "5H 5D")
    assert view(state, 1)["hints"] == [["8H", "8D"], ["SJ", "7H"], ["BJ", "SJ"]]


def test_against_three_queens_the_aces_come_before_the_kings_that_need_a_joker():
    state = following("AS AH AD KS KH BJ 4C", "QS QH QD")
    assert view(state, 1)["hints"][0] == ["AS", "AH", "AD"]
    assert view(state, 1)["hints"] == [["AS", "AH", "AD"], ["BJ", "KS", "KH"]]


def test_a_whole_group_comes_before_one_it_would_break_even_of_a_lower_rank():
    state = following("JS JH JD QS QH 4C", "9S 9H")
    assert view(state, 1)["hints"] == [["QS", "QH"], ["JS", "JH"]]


def test_twos_come_after_the_other_naturals_and_before_the_jokers():
    state = following("2S 2H KS KH SJ 7H", "5H 5D")
    assert view(state, 1)["hints"] == [["KS", "KH"], ["2S", "2H"], ["SJ", "7H"]]


def test_among_sets_spending_jokers_the_cheapest_jokers_come_first():
    state = following("7H 8H SJ BJ", "5H 5D")
    assert view(state, 1)["hints"] == [["SJ", "7H"], ["SJ", "8H"], ["BJ", "SJ"]]


def test_with_nothing_that_beats_the_view_says_cannot_beat():
    state = following("4C 7H", "BJ BJ")
    seen = view(state, 1)
    assert seen["hints"] == [] and seen["cannot_beat"] is True and "play" not in seen["may"]
    assert "pass" in seen["may"]
    assert view(state, 2)["cannot_beat"] is False  # not its turn
    assert view(following("AS 4C", "KS"), 1)["cannot_beat"] is False


def test_lianzhong_sixes_bound_to_go_last_are_not_hinted():
    # 6 is lianzhong's lowest rank, so the bound 6s are tested as a lead.
    hands = ["SJ* 7H 7D", "BJ* 6D 6H 9C", "9S KC KD", "8C 8D 2S", "7D 7H TC"]
    state = state_from_hands("lianzhong", hands, emperor=1, guard=0)
    assert view(state, 1)["hints"] == [["9C"], ["BJ*"]]
