"""The simulate CLI: ``python -m baohuang.engine simulate --preset P --hands N --seed S``.

Each preset's table is run once in-process (a few hundred hands) and shared by the tests.
"""

import io
import json

import pytest

from baohuang.engine.__main__ import main
from baohuang.engine.simulate import hand_seed, simulate

HANDS = 250
SEED = 11
DECK = {"classic": 216, "lianzhong": 165, "qingdao": 205, "lianzhong_classic": 165}
KEYS = {"preset", "hand", "seed", "void", "dealt", "emperor", "guard", "solo", "declarations",
        "places", "menzan", "scores", "outcome"}
RUNS = {"classic": [], "lianzhong": ["--grab-solo"], "qingdao": [],
        "lianzhong_classic": ["--grab-solo"]}


def run_cli(*args):
    out = io.StringIO()
    assert main(["simulate", *args], out=out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.fixture(scope="module")
def tables():
    return {preset: run_cli("--preset", preset, "--hands", str(HANDS), "--seed", str(SEED),
                            *extra)
            for preset, extra in RUNS.items()}


def situations(lines):
    """What happened over a table's hands, as a set of names."""
    seen = set()
    for line in lines:
        if line["void"]:
            seen.add("void")
            continue
        seen.add(f"solo:{line['solo']}")
        seen.update(line["declarations"])
        if {"rebel", "niu", "ti"} <= set(line["declarations"]):
            seen.add("rebel+niu+ti")
        if line["menzan"]:
            seen.add("menzan")
    return seen


@pytest.mark.parametrize("preset, expected", [
    ("classic", {"solo:None", "solo:dark", "solo:open", "solo:seized", "ming_bao"}),
    ("lianzhong", {"solo:None", "solo:dark", "solo:open", "solo:seized", "ming_bao", "rebel",
                   "niu", "ti", "rebel+niu+ti", "void"}),
    ("qingdao", {"solo:None", "solo:dark", "solo:open", "ming_bao", "void", "menzan"}),
    ("lianzhong_classic", {"solo:None", "solo:dark", "solo:open", "solo:seized", "ming_bao",
                           "void"}),
])
def test_a_few_hundred_hands_show_every_situation(tables, preset, expected):
    assert expected <= situations(tables[preset])


@pytest.mark.parametrize("preset", list(RUNS))
def test_every_line_holds_the_required_fields(tables, preset):
    lines = tables[preset]
    assert [line["hand"] for line in lines] == list(range(HANDS))
    for line in lines:
        assert line["preset"] == preset
        assert line["seed"] == hand_seed(SEED, line["hand"])
        assert sum(line["dealt"]) == DECK[preset] and len(line["dealt"]) == 5
        if line["void"]:
            continue
        assert KEYS <= set(line)
        assert ("tribute" in line) == (preset == "qingdao")
        assert sorted(line["places"]) == [0, 1, 2, 3, 4]
        assert len(line["scores"]) == 5 and all(isinstance(s, int) for s in line["scores"])
        assert line["outcome"] in ("win", "draw", "lose")
        assert line["solo"] in (None, "dark", "open", "seized")
        assert (line["guard"] is None) == (line["solo"] is not None)
        assert set(line["declarations"]) <= {"ming_bao", "rebel", "niu", "ti"}
        # 闷 players take the worst places, the first 闷 the very last.
        assert line["places"][5 - len(line["menzan"]):] == line["menzan"][::-1]


def test_lianzhong_classic_tables_yield_and_force_acceptance_after_a_circle():
    declines = []
    for line, _state, actions in simulate("lianzhong_classic", 120, SEED):
        bids = [action["type"] for action in actions
                if action["type"] in ("call", "accept", "decline")]
        declines.append(bids.count("decline"))
        assert set(bids[:-1]) <= {"decline"}, bids
        # Accepted within two circles, or void after the tenth 让位.
        assert (bids[-1] == "decline") == line["void"] == (declines[-1] == 10), bids
    assert any(0 < count < 5 for count in declines)  # 让位 within the first circle
    assert any(5 <= count < 10 for count in declines)  # accepted only when it had to


@pytest.mark.parametrize("preset", ["classic", "lianzhong", "lianzhong_classic"])
def test_classic_and_lianzhong_hands_are_zero_sum(tables, preset):
    assert all(sum(line["scores"]) == 0 for line in tables[preset] if not line["void"])


def test_qingdao_tribute_lines_name_payer_receiver_and_count(tables):
    debts = [debt for line in tables["qingdao"] if not line["void"] for debt in line["tribute"]]
    assert debts
    for debt in debts:
        assert set(debt) == {"from", "to", "cards"} and debt["from"] != debt["to"]
        assert debt["cards"] in (1, 2)


def test_qingdao_tribute_carries_to_the_next_hand_even_past_a_void_deal():
    owed, carried, past_void = [], 0, False
    previous_void = False
    for line, state, _actions in simulate("qingdao", 40, 5):
        assert state["tribute_in"] == owed
        carried += bool(owed)
        past_void |= previous_void and bool(owed)
        previous_void = line["void"]
        if not line["void"]:
            owed = state["result"]["tribute"]
    assert carried > 30 and past_void


def test_the_same_seed_gives_the_same_lines():
    args = ("--preset", "qingdao", "--hands", "5", "--seed", "3")
    assert run_cli(*args) == run_cli(*args)
    assert run_cli(*args) != run_cli("--preset", "qingdao", "--hands", "5", "--seed", "4")


def test_a_void_hand_is_one_line_and_the_table_redeals(tables):
    lines = tables["lianzhong"]
    voids = [line["hand"] for line in lines if line["void"]]
    assert voids and all(set(lines[hand]) == {"preset", "hand", "seed", "void", "dealt"}
                         for hand in voids)
    assert any(hand + 1 < HANDS and not lines[hand + 1]["void"] for hand in voids)


def test_an_unknown_preset_is_refused():
    with pytest.raises(SystemExit):
        main(["simulate", "--preset", "tarot", "--hands", "1"], out=io.StringIO())
