"""Qingdao tribute (进贡) and 买3: debts from a result, paying them, buying threes."""

import copy

import pytest

from baohuang.engine.tribute import buy_threes, pay_tribute, tribute_debts


def hands_of(*texts):
    """Five hands in RULES §1 notation, one string per seat."""
    assert len(texts) == 5
    return [text.split() for text in texts]


def debt(payer, receiver, cards=1, kind="highest"):
    return {"from": payer, "to": receiver, "cards": cards, "kind": kind}


def debts_for(places, outcome, *, emperor=0, guard=2, solo=None, declarations=(),
              sold_three=()):
    return tribute_debts(emperor=emperor, guard=guard, solo=solo,
                         declarations=list(declarations), places=places, outcome=outcome,
                         sold_three=list(sold_three))


# --- debts from a result -----------------------------------------------------------------
# Emperor 0, guard 2; rebels 1, 3, 4 finish in the order the places list gives.

def test_winning_side_is_owed_each_rebels_highest_card_guard_first():
    debts = debts_for([0, 3, 2, 1, 4], "win")
    # List order is the receivers' priority: the guard gets the highest of the three.
    assert debts == [debt(3, 2), debt(1, 0), debt(4, 0)]


def test_losing_side_owes_two_from_the_emperor_and_one_from_the_guard_by_rebel_place():
    debts = debts_for([4, 3, 0, 1, 2], "lose")
    assert debts == [debt(0, 4), debt(0, 3), debt(2, 1)]


def test_a_draw_counts_as_a_loss_for_the_emperor_side():
    assert debts_for([1, 0, 3, 2, 4], "draw") == [debt(0, 1), debt(0, 3), debt(2, 4)]


@pytest.mark.parametrize("outcome, expected", [
    ("win", [debt(3, 2, 2), debt(1, 0, 2), debt(4, 0, 2)]),
    ("lose", [debt(0, 3, 2), debt(0, 1, 2), debt(2, 4, 2)]),
])
def test_ming_bao_doubles_the_tribute(outcome, expected):
    places = [3, 0, 1, 2, 4] if outcome == "win" else [3, 1, 0, 4, 2]
    assert debts_for(places, outcome, declarations=["ming_bao"]) == expected


@pytest.mark.parametrize("solo, per_seat", [("dark", 1), ("open", 2)])
def test_winning_solo_is_owed_a_two_by_every_other_seat(solo, per_seat):
    debts = debts_for([0, 4, 1, 3, 2], "win", guard=None, solo=solo)
    assert debts == [debt(seat, 0, per_seat, "two") for seat in (4, 1, 3, 2)]


def test_losing_solo_owes_a_two_to_every_seat_best_place_first():
    debts = debts_for([3, 1, 0, 4, 2], "lose", guard=None, solo="dark")
    assert debts == [debt(0, seat, 1, "two") for seat in (3, 1, 4, 2)]


def test_losing_solo_pays_seats_that_sold_a_three_last():
    debts = debts_for([3, 1, 0, 4, 2], "lose", guard=None, solo="dark", sold_three=[3, 4])
    assert debts == [debt(0, seat, 1, "two") for seat in (1, 2, 3, 4)]


def test_dark_solo_draw_in_second_place_pays_as_a_loss():
    debts = debts_for([1, 0, 2, 3, 4], "draw", guard=None, solo="dark")
    assert debts == [debt(0, seat, 1, "two") for seat in (1, 2, 3, 4)]


def test_open_solo_loss_doubles_the_twos_owed():
    debts = debts_for([1, 0, 2, 3, 4], "lose", guard=None, solo="open")
    assert debts == [debt(0, seat, 2, "two") for seat in (1, 2, 3, 4)]


def test_debts_reject_an_unknown_outcome():
    with pytest.raises(ValueError, match="unknown outcome"):
        debts_for([0, 1, 2, 3, 4], "won")


# --- paying the debts after the next deal ------------------------------------------------

def test_guard_receives_the_highest_of_the_three_rebel_cards():
    hands = hands_of("5S 6S", "AS 9H", "7C 8C", "BJ 4D", "2H 6D")
    new_hands, transfers = pay_tribute(hands, [debt(3, 2), debt(1, 0), debt(4, 0)])
    assert transfers == [
        {"from": 3, "to": 2, "card": "BJ"},
        {"from": 4, "to": 0, "card": "2H"},
        {"from": 1, "to": 0, "card": "AS"},
    ]
    assert new_hands == hands_of("5S 6S 2H AS", "9H", "7C 8C BJ", "4D", "6D")


def test_rebels_receive_the_losing_sides_cards_by_place_highest_first():
    hands = hands_of("SJ KS 5S", "7H", "2D 8D", "9C", "6H")
    new_hands, transfers = pay_tribute(hands, [debt(0, 4), debt(0, 3), debt(2, 1)])
    # Best-placed rebel (seat 4) gets the highest card paid, even though it is the
    # guard's card; seat 3 the next; seat 1 the last.
    assert [(t["to"], t["card"]) for t in transfers] == [(4, "SJ"), (3, "2D"), (1, "KS")]
    assert new_hands == hands_of("5S", "7H KS", "8D", "9C 2D", "6H SJ")


def test_doubled_tribute_gives_the_guard_the_two_highest_of_six():
    hands = hands_of("5S", "AS KS 9S", "6C", "2S QH 7H", "BJ 8D 7D")
    debts = [debt(3, 2, 2), debt(1, 0, 2), debt(4, 0, 2)]
    new_hands, transfers = pay_tribute(hands, debts)
    assert sorted(new_hands[2]) == sorted(["6C", "BJ", "2S"])
    assert sorted(new_hands[0]) == sorted(["5S", "AS", "KS", "QH", "8D"])


# [decision] RULES §7: the highest card in qingdao order, marked cards included; between
# BJ and BJ* the unmarked copy goes first. (payer's hand, cards owed, cards paid in order.)
@pytest.mark.parametrize("payer_hand, owed, paid", [
    ("BJ* 4H* 9S", 1, ["4H*"]),            # the 保子 is the highest card there is
    ("BJ 4H* 2S", 2, ["4H*", "BJ"]),
    ("BJ* BJ 9S", 1, ["BJ"]),              # the unmarked copy first
    ("BJ* BJ 9S", 2, ["BJ", "BJ*"]),
    ("BJ* SJ 2S", 1, ["BJ*"]),             # a lone BJ* is the payer's highest
    ("BJ* 4H*", 2, ["4H*", "BJ*"]),
])
def test_marked_cards_are_paid_like_any_other(payer_hand, owed, paid):
    hands = hands_of("5S", payer_hand, "6C", "7C", "8C")
    new_hands, transfers = pay_tribute(hands, [debt(1, 0, owed)])
    assert transfers == [{"from": 1, "to": 0, "card": card} for card in paid]
    assert sorted(new_hands[0]) == sorted(["5S", *paid])


def test_a_payer_without_a_two_pays_nothing_for_a_two_debt():
    hands = hands_of("5S", "BJ SJ AS", "2C 2H 9D", "7C", "8C")
    debts = [debt(seat, 0, 1, "two") for seat in (1, 2)]
    new_hands, transfers = pay_tribute(hands, debts)
    assert transfers == [{"from": 2, "to": 0, "card": "2H"}]
    assert new_hands == hands_of("5S 2H", "BJ SJ AS", "2C 9D", "7C", "8C")


def test_a_solo_short_of_twos_pays_the_first_receivers_in_order():
    hands = hands_of("2S 2D BJ 4H*", "5S", "6S", "7S", "8S")
    debts = [debt(0, seat, 1, "two") for seat in (3, 1, 4, 2)]
    new_hands, transfers = pay_tribute(hands, debts)
    assert [(t["to"], t["card"]) for t in transfers] == [(3, "2S"), (1, "2D")]
    assert new_hands[0] == ["BJ", "4H*"]
    assert new_hands[2] == ["6S"] and new_hands[4] == ["8S"]


def test_paying_tribute_does_not_mutate_the_hands_given():
    hands = hands_of("5S 6S", "AS 9H", "7C 8C", "BJ 4D", "2H 6D")
    before = copy.deepcopy(hands)
    pay_tribute(hands, [debt(3, 2), debt(1, 0), debt(4, 0)])
    assert hands == before


def test_an_unknown_debt_kind_is_rejected():
    with pytest.raises(ValueError, match="unknown tribute kind"):
        pay_tribute(hands_of("5S", "6S", "7S", "8S", "9S"), [debt(0, 1, 1, "best")])


# --- 买3 ---------------------------------------------------------------------------------

def test_every_seat_ends_with_exactly_one_three():
    hands = hands_of("3S 3H 3C 3D 3S 2H", "2C", "SJ", "BJ", "9S")
    new_hands, purchases = buy_threes(hands)
    assert [sum(card[0] == "3" for card in hand) for hand in new_hands] == [1] * 5
    assert [p["buyer"] for p in purchases] == [1, 2, 3, 4]
    assert {p["seller"] for p in purchases} == {0}
    assert sorted(card for hand in new_hands for card in hand) == sorted(
        card for hand in hands for card in hand)


def test_tied_sellers_go_to_the_nearest_seat_in_turn_order_after_the_buyer():
    hands = hands_of("3S 3H 2S 2H", "9S", "3C", "3D 3S 2D", "8S")
    new_hands, purchases = buy_threes(hands)
    # Seat 1 buys: seats 3 and 0 both hold two 3s, seat 3 comes first after seat 1.
    # Seat 4 buys: seat 0 (two 3s) beats seats 1, 2, 3 (one each now).
    assert purchases == [
        {"buyer": 1, "seller": 3, "paid": None},
        {"buyer": 4, "seller": 0, "paid": None},
    ]


@pytest.mark.parametrize("buyer_hand, paid", [
    ("BJ SJ 2D AS", "2D"),       # a 2 first
    ("BJ SJ AS", "SJ"),          # else a small joker
    ("BJ* BJ AS", "BJ"),         # else a big joker, never the marked one
    ("BJ* 4H* AS KS", None),     # nothing acceptable: the 3 is free
])
def test_a_three_is_paid_with_a_two_else_small_else_big_joker(buyer_hand, paid):
    hands = hands_of(buyer_hand, "3S 3H", "3C", "3D", "3S")
    new_hands, purchases = buy_threes(hands)
    assert purchases == [{"buyer": 0, "seller": 1, "paid": paid}]
    bought = [card for card in buyer_hand.split() if card != paid] + ["3S"]
    assert new_hands[0] == bought
    assert new_hands[1] == ["3H"] + ([paid] if paid else [])


def test_buying_threes_does_not_mutate_the_hands_given():
    hands = hands_of("3S 3H 3C 3D 3S", "2C", "SJ", "BJ", "9S")
    before = copy.deepcopy(hands)
    buy_threes(hands)
    assert hands == before


def test_a_deal_without_five_threes_is_rejected():
    with pytest.raises(ValueError, match="five 3s"):
        buy_threes(hands_of("3S 3H", "3C", "3D", "9S", "8S"))
