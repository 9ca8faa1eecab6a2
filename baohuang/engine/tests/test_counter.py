"""记牌器: what a seat has not seen yet, from public facts and its own hand only."""

import random

import pytest

from baohuang.engine import PRESETS, actors, apply, autoplay, new_hand, state_from_hands, view
from baohuang.engine.counter import totals, unseen


@pytest.mark.parametrize("preset, size", [("classic", 216), ("lianzhong", 165), ("qingdao", 205)])
def test_at_the_deal_the_counter_is_the_deck_minus_the_own_hand(preset, size):
    state = new_hand(preset, 11)
    deck = totals(preset)
    assert sum(deck.values()) == size
    for seat in range(5):
        counter = view(state, seat)["counter"]
        assert list(counter) == list(deck)  # high to low, the same keys for every seat
        assert sum(counter.values()) == size - len(state["hands"][seat])


def test_keys_run_high_to_low_with_the_qingdao_baozi_on_top():
    assert list(totals("qingdao"))[:4] == ["4H*", "BJ", "SJ", "2"]
    assert list(totals("lianzhong"))[-1] == "6" and "3" not in totals("lianzhong")
    assert totals("classic")["BJ"] == 4 and totals("qingdao")["4"] == 15  # 16 fours, one is the 保子


def test_the_counter_drops_as_jokers_are_played():
    hands = ["BJ BJ 7S", "SJ SJ 8S", "9S 9H 9D", "TS TH TD", "JS JH JD"]
    state = state_from_hands("classic", hands, emperor=0, guard=1, called="8S")
    before = view(state, 4)["counter"]
    state, _ = apply(state, {"seat": 0, "type": "play", "cards": "BJ BJ"})
    after = view(state, 4)["counter"]
    assert (before["BJ"], after["BJ"]) == (4, 2)
    assert after["SJ"] == before["SJ"] == 4
    assert view(state, 0)["counter"]["BJ"] == 2  # the player's own copies are gone from its hand


def test_a_spectator_gets_no_counter_and_the_room_option_turns_it_off():
    state = new_hand("classic", 3)
    assert "counter" not in view(state, None)
    assert "counter" not in view(new_hand("classic", 3, options={"card_counter": False}), 0)


def shuffled_hidden(state, seat, rng):
    """The same public state, with every other seat's cards dealt among them anew."""
    others = [other for other in range(5) if other != seat]
    pool = [card for other in others for card in state["hands"][other]]
    rng.shuffle(pool)
    hands = list(state["hands"])
    for other in others:
        size = len(hands[other])
        hands[other], pool = pool[:size], pool[size:]
    return {**state, "hands": hands}


@pytest.mark.parametrize("preset", PRESETS)
def test_the_counter_never_depends_on_another_seats_hidden_cards(preset):
    rng = random.Random(preset)
    state = new_hand(preset, 5)
    while state["phase"] not in ("ended", "void"):
        for seat in range(5):
            assert unseen(shuffled_hidden(state, seat, rng), seat) == unseen(state, seat)
        mover = actors(state)[0]
        state, _ = apply(state, autoplay(state, mover))
