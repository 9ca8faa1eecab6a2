"""The stronger 托管 policy (strong.py): keeps sets, leads weak, beats cheaply, saves jokers,
spares a partner — and only ever looks at what its seat may see."""

import random

import pytest

from baohuang.engine import actors, apply, check, new_hand, state_from_hands
from baohuang.engine.policy import baseline
from baohuang.engine.strong import strong


def act(state, seat, kind, **fields):
    state, _event = apply(state, {"seat": seat, "type": kind, **fields})
    return state


def played(action):
    assert action["type"] == "play", action
    return sorted(action["cards"].split())


# --- leading ----------------------------------------------------------------------------------


def test_the_leader_plays_its_weakest_set_whole():
    hands = ["BJ* 5S 5H 9C 9D 9S KH", "4D 6C 7D", "SJ* 8C 8D 8H", "JC QC 2D", "TD TH TS"]
    state = state_from_hands("lianzhong", hands, emperor=0, guard=2, options={"hold_sixes": False})
    assert played(strong(state, 0)) == ["5H", "5S"]
    assert baseline(state, 0)["cards"] == "5S"  # the baseline breaks the pair


def test_a_whole_hand_that_is_one_set_goes_out_at_once():
    hands = ["BJ* KS KH", "4D", "5C", "6H", "8C"]
    state = state_from_hands("classic", hands, emperor=0, guard=3, called="8C")
    assert played(strong(state, 0)) == ["BJ*", "KH", "KS"]


def test_with_one_weak_set_left_the_leader_keeps_the_lead_with_an_unbeatable_set():
    # Nobody else holds two cards, so K K cannot be beaten; the 7 then goes out as a lead.
    hands = ["KS KH 7S", "4D", "BJ* 5C", "6H", "8C"]
    state = dict(state_from_hands("classic", hands, emperor=2, guard=3, called="8C"),
                 turn=0, leader=0)
    assert played(strong(state, 0)) == ["KH", "KS"]
    assert baseline(state, 0)["cards"] == "7S"


def test_a_known_partner_with_one_card_gets_a_single():
    # Seat 2 is the guard (it knows the emperor, seat 0, holds one card).
    hands = ["BJ*", "4D 4H 5C", "9C 9H 9D KS KH", "7H 7D", "8C 8D"]
    state = dict(state_from_hands("classic", hands, emperor=0, guard=2, called="KS"),
                 turn=2, leader=2)
    assert played(strong(state, 2)) == ["9H"]  # not its weakest set, the 9 9 9


def test_the_leader_avoids_the_size_a_near_out_opponent_could_answer():
    # Seat 1 (an opponent of the guard) holds two cards: lead the single 5, not the pair 4s.
    hands = ["BJ* 3S", "AS AH", "4C 4D 5H 8S 8D 8H", "TC TD TH", "JD JC QH"]
    state = state_from_hands("classic", hands, emperor=0, guard=2, called="8S",
                             revealed=True)
    state = dict(state, turn=2, leader=2)
    assert played(strong(state, 2)) == ["5H"]


# --- following --------------------------------------------------------------------------------


def test_a_follower_beats_with_a_whole_group_rather_than_breaking_one():
    hands = ["BJ* 6H JD JC", "7S 7H 7D 9C TC TD", "8C 8D", "6C 6D", "QS QH"]
    state = state_from_hands("lianzhong", hands, emperor=0, guard=2, options={"hold_sixes": False})
    state = act(state, 0, "play", cards="6H")
    assert played(strong(state, 1)) == ["9C"]


def test_a_follower_keeps_jokers_and_pairs_when_nothing_is_at_stake():
    hands = ["BJ* 9S 4D 4C 5D 5C 7H 7D", "QH QD SJ BJ JC JD", "8C 8D 8S", "6C 6D TC", "TS TH KD"]
    state = state_from_hands("lianzhong", hands, emperor=0, guard=2, options={"hold_sixes": False})
    state = act(state, 0, "play", cards="9S")
    assert strong(state, 1) == {"seat": 1, "type": "pass"}


def test_a_follower_spends_a_joker_that_decides_the_round_when_the_owner_is_nearly_out():
    # The emperor (seat 0, revealed team) leads from three cards; the rebel's only beat is
    # its big joker, which nothing can beat in lianzhong.
    hands = ["BJ* 9S 4D", "BJ 8H 7C 5D", "SJ* 8C 8D 8S", "6C 6D TC", "TS TH KD"]
    state = state_from_hands("lianzhong", hands, emperor=0, guard=2, revealed=True,
                             options={"hold_sixes": False})
    state = act(state, 0, "play", cards="9S")
    assert played(strong(state, 1)) == ["BJ"]


def test_a_known_partners_set_is_not_overtaken():
    hands = ["BJ* 9S 4D", "QH QD", "SJ* KC 8C 8D", "6C 6D TC", "TS TH KD"]
    state = state_from_hands("lianzhong", hands, emperor=0, guard=2, options={"hold_sixes": False})
    state = act(state, 0, "play", cards="9S")
    state = act(state, 1, "pass")
    assert strong(state, 2) == {"seat": 2, "type": "pass"}


def test_a_partner_going_out_may_overtake():
    hands = ["BJ* 9S 4D", "QH QD", "SJ* KC", "6C 6D TC", "TS TH KD"]
    state = state_from_hands("lianzhong", hands, emperor=0, guard=2, options={"hold_sixes": False})
    state = act(state, 0, "play", cards="9S")
    state = act(state, 1, "pass")
    # SJ* KC is not one set; KC alone beats 9S but does not go out, so the guard passes.
    assert strong(state, 2) == {"seat": 2, "type": "pass"}
    hands[2] = "KC"
    state = state_from_hands("lianzhong", hands, emperor=0, guard=2, options={"hold_sixes": False})
    state = act(act(state, 0, "play", cards="9S"), 1, "pass")
    assert played(strong(state, 2)) == ["KC"]


def test_where_yielding_is_allowed_a_costly_beat_is_deferred_not_refused():
    hands = ["BJ* 9S 4D 4C 5D 5C 7H 7D", "QH QD SJ BJ JC JD", "8C 8D 8S", "6C 6D TC", "TS TH KD"]
    state = state_from_hands("classic", hands, emperor=0, guard=2, called="8C")
    state = act(state, 0, "play", cards="9S")
    assert strong(state, 1) == {"seat": 1, "type": "yield"}


def test_qingdao_never_goes_down_to_its_three_on_a_set_that_can_be_beaten():
    # Seat 1 holds K + 3: playing K on the 9 would leave the lone 3, and seat 3's A beats K.
    hands = ["BJ* 9S 4D 5D", "KH 3H", "4H* 8C 3D", "AC 6D 3C", "TS TH 3S"]
    state = state_from_hands("qingdao", hands, emperor=0, guard=2)
    state = act(state, 0, "play", cards="9S")
    assert strong(state, 1)["type"] in ("pass", "yield")


# --- bidding, declarations, legality ----------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "lianzhong", "qingdao"])
def test_bidding_and_declarations_take_the_baseline_default(preset):
    state = new_hand(preset, 7)
    while state["phase"] != "playing":
        seat = actors(state)[0]
        assert strong(state, seat) == baseline(state, seat)
        state, _ = apply(state, strong(state, seat))


@pytest.mark.parametrize("preset", ["classic", "lianzhong", "qingdao"])
def test_a_table_of_strong_players_finishes_every_hand_legally(preset):
    for seed in range(8):
        state = new_hand(preset, seed)
        for _ in range(5000):
            if not actors(state):
                break
            seat = actors(state)[0]
            action = strong(state, seat)
            check(state, action)
            state, _ = apply(state, action)
        assert state["phase"] == "ended"
        assert sorted(state["places"]) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("preset", ["classic", "lianzhong", "qingdao"])
def test_the_choice_depends_only_on_what_the_seat_may_see(preset):
    # Deal the other four hands' cards out again (same counts): nothing the seat may see
    # changes, so neither may its choice.
    rng = random.Random(preset)
    for seed in range(6):
        state = new_hand(preset, seed)
        for _ in range(rng.randrange(20, 120)):
            if state["phase"] in ("ended", "void"):
                break
            state, _ = apply(state, strong(state, actors(state)[0]))
        if state["phase"] != "playing":
            continue
        seat = actors(state)[0]
        others = [other for other in range(5) if other != seat]
        pool = [card for other in others for card in state["hands"][other]
                if card not in ("BJ*", "SJ*", "4H*")]  # marked cards name roles: keep them
        rng.shuffle(pool)
        hands = list(state["hands"])
        for other in others:
            keep = [card for card in hands[other] if card in ("BJ*", "SJ*", "4H*")]
            take = len(hands[other]) - len(keep)
            hands[other], pool = keep + pool[:take], pool[take:]
        assert strong(dict(state, hands=hands), seat) == strong(state, seat)
