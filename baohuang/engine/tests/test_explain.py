"""The score sheet's terms (`explain`): every scoring case of RULES §7, reproducing the scores."""

import pytest

from baohuang.engine import PRESETS
from baohuang.engine.explain import explain
from baohuang.engine.scoring import score_hand

EMPEROR, GUARD = 0, 1


def order(emperor_place, guard_place=None):
    """Finishing order putting seat 0 (emperor) and seat 1 (guard) at the given places."""
    places = [None] * 5
    places[emperor_place - 1] = EMPEROR
    if guard_place is not None:
        places[guard_place - 1] = GUARD
    rest = iter(seat for seat in range(5) if seat not in places)
    return [seat if seat is not None else next(rest) for seat in places]


def explained(preset, places, *, solo=None, declarations=()):
    guard = None if solo else GUARD
    scores, _ = score_hand(preset, emperor=EMPEROR, guard=guard, solo=solo,
                           declarations=declarations, places=places)
    return explain(preset, emperor=EMPEROR, guard=guard, solo=solo,
                   declarations=declarations, places=places, scores=scores), scores


def whys(terms):
    return [step["why"] for step in terms["multipliers"]]


# Seed 002's table, lines a-j (test_scoring.SEED_002_TABLE): places of 皇 and 保 and g.
LINES = [("a", 1, 2, 3), ("b", 1, 3, 2), ("c", 1, 4, 1), ("d", 1, 5, 0), ("e", 2, 3, 1),
         ("f", 2, 4, 0), ("g", 2, 5, -1), ("h", 3, 4, -1), ("i", 3, 5, -2), ("j", 4, 5, -3)]


@pytest.mark.parametrize("preset", ["lianzhong", "lianzhong_classic"])
@pytest.mark.parametrize("line, emperor_place, guard_place, base", LINES)
def test_lianzhong_lines_a_to_j_give_the_base_and_its_shares(preset, line, emperor_place,
                                                             guard_place, base):
    if preset not in PRESETS:
        pytest.skip(f"{preset} is not a preset of this engine yet")
    terms, scores = explained(preset, order(emperor_place, guard_place))
    assert terms["formula"] == "lianzhong_side" and terms["base"] == base
    assert (terms["emperor_place"], terms["guard_place"]) == (emperor_place, guard_place)
    assert terms["factor"] == 1 and not terms["split"]
    assert scores[EMPEROR] == 2 * base and scores[GUARD] == base
    assert [seat["points"] for seat in terms["seats"]] == scores
    assert [seat["role"] for seat in terms["seats"]] == ["emperor", "guard", "rebel", "rebel", "rebel"]


@pytest.mark.parametrize("declarations, expected, split", [
    (["ming_bao"], ["ming_bao"], False),
    (["rebel"], ["rebel"], False),
    (["ming_bao", "rebel"], ["ming_bao"], False),  # both at once double once
    (["ming_bao", "niu"], ["ming_bao", "niu"], True),
    (["rebel", "niu", "ti"], ["rebel", "niu", "ti"], True),
])
def test_lianzhong_multipliers_are_listed_in_order(declarations, expected, split):
    terms, scores = explained("lianzhong", order(1, 4), declarations=declarations)
    assert whys(terms) == expected and terms["factor"] == 2 ** len(expected)
    assert terms["split"] is split
    base = terms["base"] * terms["factor"]
    assert scores[EMPEROR] == (3 * base // 2 if split else 2 * base)
    assert scores[2] == -base


@pytest.mark.parametrize("solo, declarations, place, points, factor", [
    ("dark", [], 1, 12, 1), ("dark", [], 2, 0, 1), ("dark", [], 3, -12, 1),
    ("dark", ["rebel"], 1, 12, 2), ("dark", ["rebel", "ti"], 5, -12, 4),
    ("open", [], 1, 24, 1), ("open", ["ti"], 2, -24, 2), ("seized", [], 1, 24, 1),
])
def test_lianzhong_solos_name_their_points_and_multipliers(solo, declarations, place, points, factor):
    terms, scores = explained("lianzhong", order(place), solo=solo, declarations=declarations)
    assert terms["formula"] == "lianzhong_solo" and terms["solo"] == solo
    assert terms["place_points"] == points and terms["factor"] == factor
    assert scores[EMPEROR] == points * factor and scores[1] == -points * factor // 4
    assert terms["guard_place"] is None


@pytest.mark.parametrize("emperor_place, guard_place, declarations, side, factor", [
    (1, 4, [], 3, 1), (1, 4, ["ming_bao"], 3, 2), (5, 4, [], -9, 1), (3, 2, ["ming_bao"], 3, 2),
])
def test_classic_side_sums_the_two_place_points(emperor_place, guard_place, declarations, side,
                                               factor):
    terms, scores = explained("classic", order(emperor_place, guard_place), declarations=declarations)
    assert terms["formula"] == "classic_side" and terms["side"] == side
    assert terms["place_points"]["emperor"] + terms["place_points"]["guard"] == side
    assert terms["factor"] == factor
    assert scores[EMPEROR] == 2 * side * factor // 3 and scores[GUARD] == side * factor // 3


@pytest.mark.parametrize("solo, place, points, factor", [
    ("dark", 1, 16, 1), ("dark", 2, 4, 1), ("dark", 5, -16, 1), ("open", 1, 16, 2), ("open", 4, -4, 2),
])
def test_classic_solo_doubles_when_open(solo, place, points, factor):
    terms, scores = explained("classic", order(place), solo=solo)
    assert (terms["formula"], terms["place_points"], terms["factor"]) == ("classic_solo", points, factor)
    assert whys(terms) == (["open"] if solo == "open" else [])
    assert scores[EMPEROR] == points * factor


@pytest.mark.parametrize("place, won, share", [(1, True, 40), (2, False, -40), (5, False, -40)])
def test_classic_seized_throne_is_all_or_nothing(place, won, share):
    terms, scores = explained("classic", order(place), solo="seized")
    assert (terms["formula"], terms["won"], terms["share"]) == ("classic_seized", won, share)
    assert scores[EMPEROR] == share and scores[3] == -share // 4


@pytest.mark.parametrize("emperor_place, guard_place, declarations, side_sum, doubled", [
    (1, 2, [], 3, []),
    (1, 2, ["ming_bao"], 3, [EMPEROR, GUARD]),  # a winning side after 明保 doubles
    (3, 4, ["ming_bao"], 7, []),                # a losing side does not
    (2, 4, ["ming_bao"], 6, []),                # nor a draw
])
def test_qingdao_place_points_and_doubling(emperor_place, guard_place, declarations, side_sum, doubled):
    terms, scores = explained("qingdao", order(emperor_place, guard_place), declarations=declarations)
    assert terms["formula"] == "qingdao" and terms["outcome_by"] == {"side_sum": side_sum}
    assert terms["doubled"] == doubled
    assert whys(terms) == (["ming_bao"] if doubled else [])
    for seat in range(5):
        assert scores[seat] == terms["place_points"][seat] * (2 if seat in doubled else 1)


@pytest.mark.parametrize("solo, place, doubled", [("open", 1, [EMPEROR]), ("open", 2, []),
                                                  ("dark", 1, [])])
def test_qingdao_solo_outcome_is_by_the_emperors_place(solo, place, doubled):
    terms, scores = explained("qingdao", order(place), solo=solo)
    assert terms["outcome_by"] == {"solo_place": place} and terms["doubled"] == doubled
    assert scores[EMPEROR] == terms["place_points"][EMPEROR] * (2 if doubled else 1)
