"""Sets, the beating rule, last-set rules and legal-set enumeration (RULES §2)."""

import itertools
import random
import re
from collections import Counter

import pytest

from baohuang.engine.cards import PRESETS, VALUES, build_deck, parse_cards
from baohuang.engine.errors import IllegalAction
from baohuang.engine.sets import (Shape, beats, beats_shape, check_play, composition,
                                  legal_sets, play_order, shape_of)


def cards(text):
    return parse_cards(text)


# --- shapes ----------------------------------------------------------------------

@pytest.mark.parametrize("text, preset, size, rank, cls, naturals, small, big, bao", [
    ("9S", "classic", 1, "9", "plain", 1, 0, 0, 0),
    ("9S 9H 9D", "classic", 3, "9", "plain", 3, 0, 0, 0),
    ("9S 9H 9D SJ SJ", "classic", 5, "9", "small", 3, 2, 0, 0),
    ("8S 8H 8D SJ", "classic", 4, "8", "small", 3, 1, 0, 0),
    ("4S 4H 4D 4C BJ", "classic", 5, "4", "big", 4, 0, 1, 0),
    ("9S SJ BJ", "classic", 3, "9", "big", 1, 1, 1, 0),
    ("SJ SJ BJ", "classic", 3, "SJ", "big", 2, 0, 1, 0),   # RULES §2 example
    ("BJ BJ", "classic", 2, "BJ", "plain", 2, 0, 0, 0),     # RULES §2 example
    ("SJ* SJ", "lianzhong", 2, "SJ", "plain", 2, 0, 0, 0),
    ("BJ* BJ SJ", "classic", 3, "SJ", "big", 1, 0, 2, 0),
    ("4H*", "qingdao", 1, "4H*", "plain", 1, 0, 0, 0),
    ("4H* 4S", "classic", 2, "4", "plain", 2, 0, 0, 0),     # outside qingdao 4H* is a 4
    ("4H* 4S", "qingdao", 2, "4", "bao", 1, 0, 0, 1),
    ("9S 9H 4H*", "qingdao", 3, "9", "bao", 2, 0, 0, 1),
    ("BJ 4H*", "qingdao", 2, "BJ", "bao", 1, 0, 0, 1),
    ("SJ BJ 4H*", "qingdao", 3, "SJ", "bao", 1, 0, 1, 1),
    ("3S", "qingdao", 1, "3", "plain", 1, 0, 0, 0),
    ("3S 3H SJ", "classic", 3, "3", "small", 2, 1, 0, 0),
])
def test_shape_of_sets(text, preset, size, rank, cls, naturals, small, big, bao):
    shape = shape_of(cards(text), preset)
    assert (shape.size, shape.rank, shape.cls, shape.naturals, shape.small, shape.big,
            shape.bao) == (size, rank, cls, naturals, small, big, bao)


@pytest.mark.parametrize("text, preset", [
    ("", "classic"),
    ("9S TH", "classic"),
    ("9S 9H TH SJ", "classic"),
    ("4H* 5S", "classic"),
    ("3S 9S", "qingdao"),
    ("3S SJ", "qingdao"),
    ("3S 3H", "qingdao"),
])
def test_shape_of_rejects_what_is_not_a_set(text, preset):
    with pytest.raises(IllegalAction) as err:
        shape_of(cards(text), preset)
    assert err.value.code == "illegal_set"


def test_shape_is_a_frozen_value():
    shape = shape_of(cards("9S 9H"), "classic")
    assert shape == Shape(2, shape.base, "plain", 2, 0, 0, 0)
    with pytest.raises(AttributeError):
        shape.size = 3


def test_composition_ignores_suits_and_marks():
    assert composition(cards("9S 9H BJ*"), "classic") == composition(cards("9D 9C BJ"), "classic")
    assert composition(cards("SJ*"), "lianzhong") == composition(cards("SJ"), "lianzhong")
    assert composition(cards("4H*"), "qingdao") != composition(cards("4H"), "qingdao")


# --- beating (RULES §2 and seeds 002, 003) ----------------------------------------

BEATS = [
    # plain sets: same size, higher rank; suits never matter
    ("TS", "9S", "classic", True),
    ("9H", "9S", "classic", False),
    ("8S", "9S", "classic", False),
    ("2S", "AS", "classic", True),
    ("SJ", "2S", "classic", True),
    ("BJ", "SJ", "classic", True),
    ("BJ", "BJ*", "classic", False),
    ("SJ", "SJ*", "lianzhong", False),
    ("TS TH", "9S 9H 9D", "classic", False),          # sizes differ
    ("8S 8H 8D 8C", "7S 7H 7D 7C", "classic", True),   # seed 002: 8888 > 7777
    ("8S 8H 8D 8C 8S", "7S 7H 7D 7C 7S", "classic", True),
    # a plain set falls to any class
    ("TS SJ", "9S 9H", "classic", True),
    ("TS BJ", "9S 9H", "classic", True),
    ("SJ SJ", "AS AH", "classic", True),
    ("BJ BJ", "SJ SJ", "classic", True),
    # seeds 003/004: 2 SJ + 3×9 needs as many BJ, as base or attached
    ("JS JH JD BJ BJ", "9S 9H 9D SJ SJ", "classic", True),
    ("JS JH BJ BJ BJ", "9S 9H 9D SJ SJ", "classic", True),
    ("JS JH JD JC BJ", "9S 9H 9D SJ SJ", "classic", False),
    ("JS JH JD JC JS", "9S 9H 9D SJ SJ", "classic", False),
    ("JS JH JD SJ SJ", "9S 9H 9D SJ SJ", "classic", False),
    ("JS JH JD BJ SJ", "9S 9H 9D SJ SJ", "classic", False),
    ("8S 8H 8D BJ BJ", "9S 9H 9D SJ SJ", "classic", False),  # rank must be higher too
    ("BJ BJ BJ", "AS AH SJ", "classic", True),
    ("SJ SJ SJ", "AS AH SJ", "classic", False),
    ("SJ SJ BJ", "AS AH SJ", "classic", True),
    # seed 002: 9999 does not beat 888 + small joker; 5×8 + BJ beats 5×7 + SJ
    ("9S 9H 9D 9C", "8S 8H 8D SJ", "classic", False),
    ("8S 8H 8D 8C 8S BJ", "7S 7H 7D 7C 7S SJ", "classic", True),
    ("8S 8H 8D 8C 8S 8H", "7S 7H 7D 7C 7S SJ", "classic", False),
    # 挂大花的牌是最大的: a big joker attached is unbeatable
    ("5S 5H 5D 5C BJ", "4S 4H 4D 4C BJ", "classic", False),
    ("BJ BJ BJ BJ* SJ", "4S 4H 4D 4C BJ", "classic", False),
    ("BJ BJ", "SJ BJ", "classic", False),
    ("BJ BJ BJ", "9S SJ BJ", "lianzhong", False),
    # qingdao 保子: above the big joker, not a 4; a 保子 set beats a big-joker set
    ("4H*", "BJ", "qingdao", True),
    ("BJ", "4H*", "qingdao", False),
    ("5S", "4H*", "qingdao", False),
    ("TS TH 4H*", "9S 9H BJ", "qingdao", True),
    ("TS BJ 4H*", "9S 9H BJ", "qingdao", True),
    ("TS BJ BJ", "9S 9H BJ", "qingdao", False),
    ("8S 8H 4H*", "9S 9H BJ", "qingdao", False),     # still needs a higher rank
    ("TS TH 4H*", "9S 9H SJ", "qingdao", True),       # 保子 counts against small jokers
    ("BJ 4H*", "SJ SJ", "qingdao", True),
    ("BJ 4H*", "BJ BJ", "qingdao", False),            # same base rank BJ
    ("TS TH BJ", "9S 9H 4H*", "qingdao", False),      # a 保子 set is unbeatable
    ("BJ BJ 4H*", "9S 9H 4H*", "qingdao", False),
    # qingdao 3: the lowest single
    ("4S", "3S", "qingdao", True),
]


@pytest.mark.parametrize("new, old, preset, expected", BEATS)
def test_beats(new, old, preset, expected):
    assert beats(new, old, preset) is expected


@pytest.mark.parametrize("new, old", [("9S TS", "8S 8H"), ("9S", ""), ("9Z", "8S")])
def test_beats_rejects_malformed_or_invalid_sets_with_value_error(new, old):
    with pytest.raises(ValueError):
        beats(new, old, "classic")


# [decision] RULES §2: a card the preset's deck does not hold makes the text malformed.
NOT_IN_DECK = [
    ("3S", "4S", "lianzhong", "3S"),            # lianzhong has no 3, 4 or 5
    ("6S", "5D", "lianzhong", "5D"),
    ("SJ*", "SJ", "classic", "SJ*"),            # the marked small joker is lianzhong's
    ("SJ*", "SJ", "qingdao", "SJ*"),
    ("5S", "4H*", "classic", "4H*"),            # the 保子 is qingdao's
    ("4H*", "BJ", "lianzhong", "4H*"),
    ("BJ* BJ*", "SJ SJ", "classic", "BJ*"),     # a second copy of a marked card
    ("9S 9S 9S 9S 9S", "8S 8H 8D 8C 8S", "classic", "9S"),  # a fifth copy
    ("BJ BJ BJ BJ", "SJ SJ SJ SJ", "qingdao", "BJ"),  # the fourth BJ is BJ*
    ("SJ SJ SJ SJ", "9S 9H 9D 9C", "lianzhong", "SJ"),  # the fourth SJ is SJ*
    ("4S 4S 4S 4H 4H 4H", "3S 3S 3S 3H 3H 3H", "qingdao", "3"),  # five 3s in qingdao
]


@pytest.mark.parametrize("new, old, preset, card", NOT_IN_DECK)
def test_beats_rejects_a_card_the_preset_does_not_hold(new, old, preset, card):
    with pytest.raises(ValueError, match=re.escape(card)):
        beats(new, old, preset)


@pytest.mark.parametrize("text, preset", [
    ("6H 6H 6H 6H", "lianzhong"),  # which three 6s were removed is immaterial (RULES §5)
    ("3H 3H 3H", "qingdao"),
    ("SJ SJ SJ SJ", "classic"),
    ("BJ* BJ BJ BJ", "lianzhong"),
])
def test_parse_for_a_preset_accepts_what_its_deck_holds(text, preset):
    assert parse_cards(text, preset) == text.split()


def test_beats_shape_needs_a_strictly_higher_base():
    old = shape_of(cards("9S 9H"), "classic")
    assert not beats_shape(shape_of(cards("9D 9C"), "classic"), old)
    assert beats_shape(shape_of(cards("TD TC"), "classic"), old)


# --- concrete plays and last-set rules --------------------------------------------

CHECKS = [
    # (play, hand, preset, top, hold_sixes, error code or None)
    ("9S 9H", "9S 9H TD", "classic", None, False, None),
    ("9S 9S", "9S 9H TD", "classic", None, False, "not_in_hand"),
    ("BJ*", "BJ TD", "classic", None, False, "not_in_hand"),
    ("", "9S", "classic", None, False, "illegal_set"),
    ("9S TD", "9S 9H TD", "classic", None, False, "illegal_set"),
    ("TD", "9S 9H TD", "classic", "9S 9H", False, "wrong_size"),
    ("9S 9H", "9S 9H TD", "classic", "9D 9C", False, "does_not_beat"),
    ("JS JH JD JC BJ", "JS JH JD JC BJ", "classic", "9S 9H 9D SJ SJ", False, "does_not_beat"),
    ("JS JH JD BJ BJ*", "JS JH JD BJ BJ* 3S", "classic", "9S 9H 9D SJ SJ", False, None),
    # qingdao: a 3 only alone, as a lead, as the last card
    ("3S", "3S", "qingdao", None, False, None),
    ("3S", "3S 9H", "qingdao", None, False, "three_goes_last"),
    ("3S", "3S", "qingdao", "3H", False, "three_goes_last"),
    ("3S 9H", "3S 9H", "qingdao", None, False, "three_goes_last"),
    ("9H", "3S 9H", "qingdao", None, False, None),
    ("3S", "3S 9H", "classic", None, False, None),
    # lianzhong 憋6: the 6s go last, together, jokers allowed
    ("6S", "6S 6H 9D", "lianzhong", None, True, "sixes_go_last"),
    ("6S 6H", "6S 6H 9D", "lianzhong", None, True, "sixes_go_last"),
    ("6S SJ", "6S SJ 9D", "lianzhong", None, True, "sixes_go_last"),
    ("9D", "6S 6H 9D", "lianzhong", None, True, None),
    ("6S 6H", "6S 6H", "lianzhong", None, True, None),
    ("6S 6H BJ", "6S 6H BJ", "lianzhong", None, True, None),
    ("6S", "6S 6H", "lianzhong", None, True, "sixes_go_last"),
    ("BJ", "6S 6H BJ", "lianzhong", None, True, None),
    ("6S", "6S 6H 9D", "lianzhong", None, False, None),   # option off
    ("6S", "6S 6H 9D", "classic", None, True, None),      # 憋6 is lianzhong only
    ("6S 6H", "6S 6H", "lianzhong", "TS TH", True, "does_not_beat"),
]


@pytest.mark.parametrize("play, hand, preset, top, hold_sixes, code", CHECKS)
def test_check_play(play, hand, preset, top, hold_sixes, code):
    top_cards = None if top is None else cards(top)
    if code is None:
        shape = check_play(cards(play), cards(hand), preset, top=top_cards, hold_sixes=hold_sixes)
        assert shape == shape_of(cards(play), preset)
    else:
        with pytest.raises(IllegalAction) as err:
            check_play(cards(play), cards(hand), preset, top=top_cards, hold_sixes=hold_sixes)
        assert err.value.code == code
        assert str(err.value) == err.value.message


def test_not_in_hand_names_the_card():
    with pytest.raises(IllegalAction, match="QS") as err:
        check_play(cards("QS"), cards("9S 9H"), "classic", top=None)
    assert err.value.params == {"card": "QS", "held": 0, "wanted": 1}


def test_does_not_beat_explains_the_small_joker_rule():
    with pytest.raises(IllegalAction, match="has 2 small jokers attached; it takes at least 2 big jokers") as err:
        check_play(cards("JS JH JD JC BJ"), cards("JS JH JD JC BJ"), "classic",
                   top=cards("9S 9H 9D SJ SJ"))
    assert err.value.params == {"cards": ["JS", "JH", "JD", "JC", "BJ"], "size": 5, "top_size": 5,
                                "why": "small_attached", "jokers": 2}
    with pytest.raises(IllegalAction, match="has 1 small joker attached; it takes at least 1 big joker or"):
        check_play(cards("JS JH JD JC"), cards("JS JH JD JC"), "classic", top=cards("9S 9H 9D SJ"))


@pytest.mark.parametrize("play, top, code, why", [
    ("4H", "5S 5H", "wrong_size", "size"),
    ("5D", "5S", "does_not_beat", "rank"),
    ("AS AH", "9S BJ", "does_not_beat", "big_attached"),
])
def test_a_refused_follow_carries_what_the_page_needs_to_word_it(play, top, code, why):
    with pytest.raises(IllegalAction) as err:
        check_play(cards(play), cards(play), "classic", top=cards(top))
    assert err.value.code == code
    assert err.value.params["why"] == why and err.value.params["cards"] == cards(play)
    assert (err.value.params["size"], err.value.params["top_size"]) == (len(cards(play)), len(cards(top)))


# --- enumeration --------------------------------------------------------------------

def texts(sets):
    return [" ".join(s) for s in sets]


def test_legal_sets_lead_lists_one_play_per_composition_low_to_high():
    assert texts(legal_sets(cards("9S 9H SJ"), "classic")) == [
        "9S", "SJ 9S", "9S 9H", "SJ 9S 9H", "SJ"]


def test_legal_sets_follow_only_what_beats_the_top():
    hand = cards("TS TH BJ SJ 8S")
    assert texts(legal_sets(hand, "classic", top=cards("9S 9H"))) == [
        "SJ TS", "BJ TS", "TS TH", "BJ SJ"]
    assert texts(legal_sets(hand, "classic", top=cards("9S SJ"))) == ["BJ TS", "BJ SJ"]
    assert legal_sets(hand, "classic", top=cards("9S BJ")) == []


@pytest.mark.parametrize("top", [None, "9S 9H", "9S SJ"])
def test_legal_sets_pick_builds_only_the_picked_compositions(top):
    hand = cards("TS TH BJ SJ 8S 9D 9C")
    top = None if top is None else cards(top)
    every = legal_sets(hand, "classic", top=top)
    seen = []

    def pick(compositions):
        seen.extend(compositions)
        return compositions[1::2]

    assert legal_sets(hand, "classic", top=top, pick=pick) == every[1::2]
    assert seen == [composition(play, "classic") for play in every]


def test_top_may_be_cards_text_or_a_shape():
    hand = cards("TS TH JS")
    as_cards = legal_sets(hand, "classic", top=cards("9S"))
    assert legal_sets(hand, "classic", top="9S") == as_cards
    assert legal_sets(hand, "classic", top=shape_of(cards("9S"), "classic")) == as_cards
    assert check_play(["JS"], hand, "classic", top="TD").rank == "J"


def test_legal_sets_prefers_unmarked_copies():
    assert legal_sets(cards("BJ* BJ SJ* SJ"), "lianzhong", top=cards("2S")) == [["SJ"], ["BJ"]]


def test_legal_sets_prefers_copies_not_in_avoid():
    hand = cards("9S 9H 9D")
    assert legal_sets(hand, "classic", avoid={"9S"})[0] == ["9H"]
    assert legal_sets(hand, "classic", avoid={"9S", "9H"})[1] == ["9D", "9S"]
    assert legal_sets(hand, "classic")[0] == ["9S"]


def test_legal_sets_qingdao_three_only_as_last_lead():
    assert texts(legal_sets(cards("3S 9H"), "qingdao")) == ["9H"]
    assert texts(legal_sets(cards("3S"), "qingdao")) == ["3S"]
    assert legal_sets(cards("3S"), "qingdao", top=cards("3H")) == []
    assert texts(legal_sets(cards("3S 9H"), "classic")) == ["3S", "9H"]


def test_legal_sets_hold_sixes_only_whole_hand():
    assert texts(legal_sets(cards("6S 6H 9D SJ"), "lianzhong", hold_sixes=True)) == [
        "9D", "SJ 9D", "SJ"]
    assert texts(legal_sets(cards("6S 6H SJ"), "lianzhong", hold_sixes=True)) == [
        "SJ 6S 6H", "SJ"]
    assert texts(legal_sets(cards("6S 6H SJ"), "lianzhong", top=cards("SJ 7S 7H"),
                            hold_sixes=True)) == []
    assert texts(legal_sets(cards("6S 6H SJ"), "lianzhong", top=cards("TS"),
                            hold_sixes=True)) == ["SJ"]


def test_legal_sets_qingdao_baozi_beats_a_big_joker_set():
    hand = cards("TS TH BJ 4H*")
    assert texts(legal_sets(hand, "qingdao", top=cards("9S 9H BJ"))) == [
        "4H* BJ TS", "4H* TS TH"]
    assert legal_sets(hand, "qingdao", top=cards("9S 9H 4H*")) == []


def test_legal_sets_worst_case_hand_counts():
    # 44 cards, all 8 jokers: 36 naturals over 12 ranks, 3 of each.
    hand = [rank + suit for rank in "3456789TJQKA" for suit in "SHC"] + ["SJ"] * 4 + \
           ["BJ"] * 3 + ["BJ*"]
    assert len(hand) == 44
    # each natural rank: 3 counts × 5 SJ options × 5 BJ options; SJ base 4 × 5; BJ base 4
    assert len(legal_sets(hand, "classic")) == 12 * 3 * 25 + 20 + 4


# --- property: enumeration agrees with check_play ---------------------------------

def _brute_force(hand, preset, top, hold_sixes):
    """Every sub-multiset of the hand by tier, through check_play: the oracle."""
    table = VALUES[preset]
    by_tier = {}
    for card in hand:
        by_tier.setdefault(table[card], []).append(card)
    tiers = sorted(by_tier)
    legal = set()
    for counts in itertools.product(*(range(len(by_tier[t]) + 1) for t in tiers)):
        play = [card for t, k in zip(tiers, counts) for card in by_tier[t][:k]]
        try:
            shape = check_play(play, hand, preset, top=top, hold_sixes=hold_sixes)
        except IllegalAction:
            continue
        legal.add(shape.composition)
    return legal


def _random_position(rng, preset):
    deck = build_deck(preset)
    rng.shuffle(deck)
    hand = deck[:rng.randint(1, 11)]
    if preset == "qingdao" and rng.random() < 0.3:
        hand = [card for card in hand if card[0] != "3"] + ["3S"]
        if rng.random() < 0.3:
            hand = ["3S"]
    if preset == "lianzhong" and rng.random() < 0.3:
        hand = rng.sample(["6S", "6H", "6D", "SJ", "BJ", "SJ*", "BJ*", "9S", "6C"], rng.randint(1, 5))
    top = None
    if rng.random() < 0.7:
        other = deck[20:32] + rng.sample(["SJ", "BJ", "SJ", "BJ", "BJ"], 2)
        other = [card for card in other if card[0] != "3"]
        options = legal_sets(other, preset)
        top = rng.choice(options) if options else None
    return hand, top


@pytest.mark.parametrize("preset", PRESETS)
def test_legal_sets_matches_a_brute_force_oracle_on_random_positions(preset):
    rng = random.Random(f"oracle-{preset}")
    for _ in range(300):
        hand, top = _random_position(rng, preset)
        hold_sixes = rng.random() < 0.5
        enumerated = legal_sets(hand, preset, top=top, hold_sixes=hold_sixes)
        comps = [composition(play, preset) for play in enumerated]
        assert len(comps) == len(set(comps)), (hand, top)
        assert comps == sorted(comps, key=play_order)
        for play in enumerated:
            check_play(play, hand, preset, top=top, hold_sixes=hold_sixes)
        assert set(comps) == _brute_force(hand, preset, top, hold_sixes), (hand, top)


@pytest.mark.parametrize("preset", PRESETS)
def test_random_subsets_of_big_hands_pass_check_play_iff_enumerated(preset):
    rng = random.Random(f"subsets-{preset}")
    deck = build_deck(preset)
    for _ in range(60):
        rng.shuffle(deck)
        hand = deck[:len(deck) // 5]
        top = rng.choice([None, None, legal_sets(deck[60:90], preset)[rng.randrange(10)]])
        hold_sixes = rng.random() < 0.5
        comps = {composition(play, preset)
                 for play in legal_sets(hand, preset, top=top, hold_sixes=hold_sixes)}
        jokers = [card for card in hand if VALUES[preset][card] >= 13]
        for _ in range(200):
            rank = rng.choice(hand)[0]
            naturals = [card for card in hand if card[0] == rank and card not in jokers]
            play = rng.sample(naturals, rng.randint(0, len(naturals))) + \
                rng.sample(jokers, rng.randint(0, min(3, len(jokers))))
            try:
                check_play(play, hand, preset, top=top, hold_sixes=hold_sixes)
            except IllegalAction:
                legal = False
            else:
                legal = True
            assert legal == (bool(play) and _composition_or_none(play, preset) in comps), play


def _composition_or_none(play, preset):
    try:
        return composition(play, preset)
    except IllegalAction:
        return None
