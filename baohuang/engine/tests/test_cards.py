"""Card notation, order and decks (RULES §1, §2, §5)."""

import random
from collections import Counter

import pytest

from baohuang.engine.cards import (ALL_CARDS, PRESETS, RANKS, build_deck, format_cards,
                                   identity, is_marked, parse_card, parse_cards, sort_hand,
                                   value)


@pytest.mark.parametrize("token, card", [
    ("9S", "9S"), ("9s", "9S"), ("TH", "TH"), ("10h", "TH"), ("10H", "TH"), ("ad", "AD"),
    ("2C", "2C"), ("sj", "SJ"), ("BJ", "BJ"), ("bj*", "BJ*"), ("SJ*", "SJ*"), ("4h*", "4H*"),
    (" QD ", "QD"),
])
def test_parse_card_normalises(token, card):
    assert parse_card(token) == card


@pytest.mark.parametrize("token", ["9X", "1S", "11S", "9S*", "BJ**", "SJJ", "J", "", "XJ",
                                   "4S*", "大王"])
def test_parse_card_rejects_malformed_token_by_name(token):
    with pytest.raises(ValueError) as err:
        parse_card(token)
    assert repr(token) in str(err.value)


def test_parse_cards_names_the_bad_token_in_a_set():
    with pytest.raises(ValueError, match="'9Z'"):
        parse_cards("9S 9H 9Z SJ")


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_parse_cards_of_empty_text_is_no_cards(text):
    assert parse_cards(text) == []


def test_parse_cards_splits_on_any_whitespace():
    assert parse_cards(" 9S\tTH\n bj* ") == ["9S", "TH", "BJ*"]


def test_every_card_round_trips_through_notation():
    for card in ALL_CARDS:
        assert parse_card(card) == card
        assert parse_cards(format_cards([card])) == [card]


@pytest.mark.parametrize("text, canonical", [
    ("9S SJ TH 9H BJ 2D", "BJ SJ 2D TH 9S 9H"),
    ("9D 9C 9H 9S", "9S 9H 9C 9D"),
    ("BJ* BJ SJ SJ*", "BJ BJ* SJ SJ*"),
    ("3S 4H* 4S", "4S 4H* 3S"),
])
def test_format_cards_orders_high_to_low_then_suit(text, canonical):
    assert format_cards(parse_cards(text)) == canonical


def test_format_and_parse_round_trip_a_whole_deck():
    deck = build_deck("classic")
    assert Counter(parse_cards(format_cards(deck))) == Counter(deck)


def test_single_card_order_from_three_to_big_joker():
    order = [rank + "S" for rank in RANKS] + ["SJ", "BJ"]
    for preset in PRESETS:
        values = [value(card, preset) for card in order]
        assert values == sorted(values) and len(set(values)) == len(values)


def test_suits_never_matter_for_value():
    for rank in RANKS:
        assert len({value(rank + suit, "classic") for suit in "SHCD"}) == 1


def test_baozi_is_above_the_big_joker_in_qingdao_and_not_a_four():
    assert value("4H*", "qingdao") > value("BJ", "qingdao")
    assert value("4H*", "qingdao") != value("4H", "qingdao")


@pytest.mark.parametrize("preset", ["classic", "lianzhong"])
def test_marked_four_of_hearts_outside_qingdao_is_just_a_four(preset):
    assert value("4H*", preset) == value("4S", preset)


@pytest.mark.parametrize("marked, plain", [("BJ*", "BJ"), ("SJ*", "SJ")])
def test_marked_jokers_play_as_their_rank(marked, plain):
    for preset in PRESETS:
        assert value(marked, preset) == value(plain, preset)


@pytest.mark.parametrize("card, ident, marked", [
    ("BJ*", "BJ", True), ("SJ*", "SJ", True), ("4H*", "4H", True),
    ("BJ", "BJ", False), ("9S", "9S", False),
])
def test_identity_drops_the_mark(card, ident, marked):
    assert identity(card) == ident
    assert is_marked(card) is marked


def test_value_of_unknown_preset_is_an_error():
    with pytest.raises(ValueError, match="preset"):
        value("9S", "shanghai")


# --- decks (RULES §5) ---------------------------------------------------------

@pytest.mark.parametrize("preset, size, per_seat, marks", [
    ("classic", 216, 43, {"BJ*"}),
    ("lianzhong", 165, 33, {"BJ*", "SJ*"}),
    ("qingdao", 205, 41, {"BJ*", "4H*"}),
    ("lianzhong_classic", 165, 33, {"BJ*"}),  # a plain fourth small joker, no SJ*
])
def test_deck_size_and_marks_per_preset(preset, size, per_seat, marks):
    deck = build_deck(preset)
    assert len(deck) == size
    assert size // 5 == per_seat
    assert {card for card in deck if is_marked(card)} == marks
    assert all(Counter(deck)[mark] == 1 for mark in marks)
    assert all(card in ALL_CARDS for card in deck)


@pytest.mark.parametrize("preset", PRESETS)
def test_four_decks_hold_four_copies_of_every_identity_but_removed_ranks(preset):
    copies = Counter(identity(card) for card in build_deck(preset))
    assert copies["BJ"] == 4 and copies["SJ"] == 4
    removed = {"classic": "", "lianzhong": "3456", "qingdao": "3",
               "lianzhong_classic": "3456"}[preset]
    for rank in RANKS:
        if rank not in removed:
            assert all(copies[rank + suit] == 4 for suit in "SHCD"), rank


@pytest.mark.parametrize("preset, rank, count", [
    ("classic", "3", 16), ("lianzhong", "3", 0), ("lianzhong", "4", 0), ("lianzhong", "5", 0),
    ("lianzhong", "6", 13), ("qingdao", "3", 5), ("qingdao", "4", 16),
    ("lianzhong_classic", "5", 0), ("lianzhong_classic", "6", 13),
])
def test_deck_rank_counts(preset, rank, count):
    assert sum(card[0] == rank for card in build_deck(preset)) == count


def test_decks_are_deterministic_so_a_seeded_shuffle_replays():
    for preset in PRESETS:
        first, second = build_deck(preset), build_deck(preset)
        assert first == second
        random.Random(7).shuffle(first)
        random.Random(7).shuffle(second)
        assert first == second


def test_sort_hand_high_to_low_with_baozi_first_in_qingdao():
    hand = parse_cards("3S 4H* BJ 2D 4S SJ*")
    assert sort_hand(hand, "qingdao") == ["4H*", "BJ", "SJ*", "2D", "4S", "3S"]
    assert sort_hand(hand, "classic") == ["BJ", "SJ*", "2D", "4S", "4H*", "3S"]


def test_illegal_action_carries_a_code_and_a_readable_message():
    import pickle

    from baohuang.engine.errors import IllegalAction

    err = IllegalAction("not_in_hand", "QS is not in your hand")
    assert isinstance(err, ValueError)
    assert (err.code, err.message, str(err)) == ("not_in_hand", "QS is not in your hand",
                                                 "QS is not in your hand")
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.code, copy.message) == (err.code, err.message)
    assert err.params == {}
    worded = pickle.loads(pickle.dumps(IllegalAction("not_in_hand", "…", {"card": "QS", "held": 0})))
    assert worded.params == {"card": "QS", "held": 0}
