"""RULES §7 scoring, table by table. Seats: emperor 0, guard 2 unless a test says otherwise."""

import itertools

import pytest

from baohuang.engine.scoring import PLACE_NAMES, score_hand

EMPEROR, GUARD = 0, 2
REBELS = (1, 3, 4)


def finish(emperor_place, guard_place=None, *, emperor=EMPEROR, guard=GUARD):
    """The five seats in finishing order with the given places; rebels fill the rest by seat."""
    places = [None] * 5
    places[emperor_place - 1] = emperor
    if guard_place is not None:
        places[guard_place - 1] = guard
    others = iter(seat for seat in range(5) if seat not in places)
    return [seat if seat is not None else next(others) for seat in places]


def by_role(scores, emperor=EMPEROR, guard=GUARD):
    """(emperor, guard, rebels' scores) — guard None for a solo."""
    rebels = [scores[seat] for seat in range(5) if seat not in (emperor, guard)]
    return scores[emperor], (scores[guard] if guard is not None else None), rebels


def two_person(preset, emperor_place, guard_place, declarations=()):
    return score_hand(preset, emperor=EMPEROR, guard=GUARD, solo=None,
                      declarations=list(declarations), places=finish(emperor_place, guard_place))


def solo_hand(preset, solo, emperor_place, declarations=()):
    return score_hand(preset, emperor=EMPEROR, guard=None, solo=solo,
                      declarations=list(declarations), places=finish(emperor_place))


def test_place_names_run_from_first_out_to_last():
    assert PLACE_NAMES == ("头科", "二科", "三科", "二落", "大落")


# --- classic ---------------------------------------------------------------------------

@pytest.mark.parametrize("places, emperor, guard, rebel, outcome", [
    ((1, 4), 2, 1, -1, "win"),    # the seed's example: A = 6 - 3 = 3
    ((1, 2), 6, 3, -3, "win"),
    ((2, 3), 2, 1, -1, "win"),
    ((1, 5), 0, 0, 0, "draw"),
    ((3, 4), -2, -1, 1, "lose"),
    ((4, 5), -6, -3, 3, "lose"),
    ((5, 1), 0, 0, 0, "draw"),
])
def test_classic_emperor_takes_two_thirds_guard_one_third(places, emperor, guard, rebel, outcome):
    scores, result = two_person("classic", *places)
    assert by_role(scores) == (emperor, guard, [rebel] * 3)
    assert result == outcome


def test_classic_ming_bao_doubles_everything():
    scores, outcome = two_person("classic", 1, 4, ["ming_bao"])
    assert by_role(scores) == (4, 2, [-2, -2, -2])
    assert outcome == "win"


@pytest.mark.parametrize("solo, place, emperor, rebel, outcome", [
    ("dark", 1, 16, -4, "win"),
    ("dark", 2, 4, -1, "win"),
    ("dark", 3, 0, 0, "draw"),
    ("dark", 4, -4, 1, "lose"),
    ("dark", 5, -16, 4, "lose"),
    ("open", 1, 32, -8, "win"),
    ("open", 2, 8, -2, "win"),
    ("open", 3, 0, 0, "draw"),
    ("open", 4, -8, 2, "lose"),
    ("open", 5, -32, 8, "lose"),
])
def test_classic_solo_points_are_paid_by_the_four_others(solo, place, emperor, rebel, outcome):
    scores, result = solo_hand("classic", solo, place)
    assert by_role(scores, guard=None) == (emperor, None, [rebel] * 4)
    assert result == outcome


@pytest.mark.parametrize("place, emperor, rebel, outcome", [
    (1, 40, -10, "win"),
    (2, -40, 10, "lose"),
    (3, -40, 10, "lose"),
    (5, -40, 10, "lose"),
])
def test_classic_seized_throne_is_all_or_nothing_on_first_place(place, emperor, rebel, outcome):
    scores, result = solo_hand("classic", "seized", place)
    assert by_role(scores, guard=None) == (emperor, None, [rebel] * 4)
    assert result == outcome


# --- lianzhong: seed 002's table, lines a-j --------------------------------------------

SEED_002_TABLE = [
    # line, (place of 皇, place of 保), emperor, guard, each rebel
    ("a", (1, 2), 6, 3, -3),
    ("b", (1, 3), 4, 2, -2),
    ("c", (1, 4), 2, 1, -1),
    ("d", (1, 5), 0, 0, 0),
    ("e", (2, 3), 2, 1, -1),
    ("f", (2, 4), 0, 0, 0),
    ("g", (2, 5), -2, -1, 1),
    ("h", (3, 4), -2, -1, 1),
    ("i", (3, 5), -4, -2, 2),   # RULES: the seed's "3 and 4" here means places 3 and 5
    ("j", (4, 5), -6, -3, 3),
]


@pytest.mark.parametrize("line, places, emperor, guard, rebel", SEED_002_TABLE)
@pytest.mark.parametrize("swap", [False, True], ids=["emperor-ahead", "guard-ahead"])
def test_lianzhong_reproduces_seed_002_table(line, places, emperor, guard, rebel, swap):
    # The seed writes "皇（保）… 保（皇）": the line holds whichever of the two is ahead.
    emperor_place, guard_place = reversed(places) if swap else places
    scores, outcome = two_person("lianzhong", emperor_place, guard_place)
    assert by_role(scores) == (emperor, guard, [rebel] * 3)
    assert outcome == ("win" if emperor > 0 else "draw" if emperor == 0 else "lose")


@pytest.mark.parametrize("declarations, emperor, guard, rebel", [
    ([], 6, 3, -3),
    (["ming_bao"], 12, 6, -6),
    (["rebel"], 12, 6, -6),
    (["ming_bao", "rebel"], 12, 6, -6),             # both still double once
    (["ming_bao", "niu"], 18, 18, -12),             # 扭: the side's 36 split evenly
    (["rebel", "niu"], 18, 18, -12),
    (["ming_bao", "niu", "ti"], 36, 36, -24),       # 踢 doubles again
    (["rebel", "niu", "ti"], 36, 36, -24),
])
def test_lianzhong_multiplier_chain_and_even_split(declarations, emperor, guard, rebel):
    scores, outcome = two_person("lianzhong", 1, 2, declarations)
    assert by_role(scores) == (emperor, guard, [rebel] * 3)
    assert outcome == "win"


def test_lianzhong_even_split_also_applies_to_a_losing_side():
    scores, outcome = two_person("lianzhong", 4, 5, ["rebel", "niu"])
    assert by_role(scores) == (-18, -18, [12, 12, 12])
    assert outcome == "lose"


@pytest.mark.parametrize("solo, declarations, place, emperor, rebel, outcome", [
    ("dark", [], 1, 12, -3, "win"),
    ("dark", [], 2, 0, 0, "draw"),
    ("dark", [], 3, -12, 3, "lose"),
    ("dark", [], 5, -12, 3, "lose"),
    ("dark", ["rebel"], 1, 24, -6, "win"),          # 暗独被反
    ("dark", ["rebel"], 2, 0, 0, "draw"),
    ("dark", ["rebel"], 3, -24, 6, "lose"),
    ("dark", ["rebel", "ti"], 1, 48, -12, "win"),   # 被反又被踢
    ("dark", ["rebel", "ti"], 2, 0, 0, "draw"),
    ("dark", ["rebel", "ti"], 3, -48, 12, "lose"),
    ("open", [], 1, 24, -6, "win"),
    ("open", [], 2, -24, 6, "lose"),
    ("open", [], 4, -24, 6, "lose"),
    ("open", ["ti"], 1, 48, -12, "win"),            # 明独被踢
    ("open", ["ti"], 2, -48, 12, "lose"),
    ("seized", [], 1, 24, -6, "win"),               # 抢独 scores as 明独
    ("seized", [], 2, -24, 6, "lose"),
    ("seized", ["ti"], 1, 48, -12, "win"),
])
def test_lianzhong_solo_lines(solo, declarations, place, emperor, rebel, outcome):
    scores, result = solo_hand("lianzhong", solo, place, declarations)
    assert by_role(scores, guard=None) == (emperor, None, [rebel] * 4)
    assert result == outcome


# --- qingdao ---------------------------------------------------------------------------

def test_qingdao_scores_every_seat_by_its_own_place():
    places = [3, 0, 4, 2, 1]
    scores, outcome = score_hand("qingdao", emperor=0, guard=2, solo=None,
                                 declarations=[], places=places)
    assert scores == [2, -1, 0, 3, 1]
    assert outcome == "draw"  # emperor 2nd, guard 4th: 6 - (2 + 4) = 0
    assert sum(scores) == 5  # not zero-sum


@pytest.mark.parametrize("places, declarations, emperor, guard, rebels, outcome", [
    ((1, 2), [], 3, 2, [1, 0, -1], "win"),
    ((1, 2), ["ming_bao"], 6, 4, [1, 0, -1], "win"),      # 明保 and won: doubled
    ((2, 3), ["ming_bao"], 4, 2, [3, 0, -1], "win"),
    ((1, 5), ["ming_bao"], 3, -1, [2, 1, 0], "draw"),     # a draw is not doubled
    ((3, 4), ["ming_bao"], 1, 0, [3, 2, -1], "lose"),     # nor is a loss
    ((2, 5), [], 2, -1, [3, 1, 0], "lose"),
    ((2, 4), [], 2, 0, [3, 1, -1], "draw"),
])
def test_qingdao_two_person_outcome_and_ming_bao_doubling(places, declarations, emperor,
                                                         guard, rebels, outcome):
    scores, result = two_person("qingdao", *places, declarations)
    assert by_role(scores) == (emperor, guard, rebels)
    assert result == outcome


@pytest.mark.parametrize("solo, place, emperor, outcome", [
    ("dark", 1, 3, "win"),
    ("dark", 2, 2, "draw"),
    ("dark", 3, 1, "lose"),
    ("dark", 5, -1, "lose"),
    ("open", 1, 6, "win"),     # 明独 and won: doubled
    ("open", 2, 2, "lose"),
    ("open", 5, -1, "lose"),
])
def test_qingdao_solo_outcome_and_open_solo_doubling(solo, place, emperor, outcome):
    scores, result = solo_hand("qingdao", solo, place)
    assert scores[EMPEROR] == emperor
    assert sorted(scores[seat] for seat in range(1, 5)) == sorted(
        points for index, points in enumerate((3, 2, 1, 0, -1)) if index != place - 1)
    assert result == outcome


# --- properties ------------------------------------------------------------------------

CLASSIC_CASES = [(None, []), (None, ["ming_bao"]), ("dark", []), ("open", []), ("seized", [])]
LIANZHONG_CASES = [
    (None, []), (None, ["ming_bao"]), (None, ["rebel"]), (None, ["ming_bao", "niu"]),
    (None, ["rebel", "niu", "ti"]), ("dark", []), ("dark", ["rebel"]), ("dark", ["rebel", "ti"]),
    ("open", []), ("open", ["ti"]), ("seized", []),
]


@pytest.mark.parametrize("preset, solo, declarations",
                         [("classic", *case) for case in CLASSIC_CASES]
                         + [("lianzhong", *case) for case in LIANZHONG_CASES])
def test_classic_and_lianzhong_scores_are_zero_sum_for_every_finishing_order(
        preset, solo, declarations):
    for places in itertools.permutations(range(5)):
        for emperor, guard in ((0, 1), (3, 1), (4, 0)):
            scores, outcome = score_hand(preset, emperor=emperor,
                                         guard=None if solo else guard, solo=solo,
                                         declarations=declarations, places=list(places))
            assert sum(scores) == 0, (places, emperor, guard)
            side = scores[emperor] + (0 if solo else scores[guard])
            assert outcome == ("win" if side > 0 else "draw" if side == 0 else "lose")


# --- rejected inputs -------------------------------------------------------------------

@pytest.mark.parametrize("preset, kwargs, message", [
    ("bridge", {}, "unknown preset"),
    ("classic", {"places": [0, 1, 2, 3, 3]}, "places"),
    ("classic", {"guard": 0}, "guard other than the emperor"),
    ("classic", {"declarations": ["rebel"]}, "classic has no declaration"),
    ("lianzhong", {"declarations": ["niu"]}, "niu"),
    ("lianzhong", {"declarations": ["ming_bao", "ti"]}, "ti"),
    ("lianzhong", {"solo": "dark", "guard": None, "declarations": ["ming_bao"]}, "dark solo"),
    ("lianzhong", {"solo": "dark", "guard": None, "declarations": ["ti"]}, "kicked"),
    ("qingdao", {"solo": "seized", "guard": None}, "seized"),
    ("qingdao", {"solo": "open", "guard": 3}, "no guard"),
])
def test_impossible_hands_are_rejected_with_a_readable_message(preset, kwargs, message):
    hand = {"emperor": 0, "guard": 2, "solo": None, "declarations": [],
            "places": [0, 1, 2, 3, 4], **kwargs}
    with pytest.raises(ValueError, match=message):
        score_hand(preset, **hand)
