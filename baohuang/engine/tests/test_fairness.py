"""Provably fair deals: the commitment at the deal, the seed and salt at the end, `verify`."""

import hashlib
import io
import json

import pytest

from baohuang.engine import PRESETS, apply, autoplay, actors, new_hand, view
from baohuang.engine.__main__ import main
from baohuang.engine.fairness import commitment, new_salt, verify
from baohuang.engine.state import deal

SALT = "00112233445566778899aabbccddeeff"


def play_out(state):
    while state["phase"] not in ("ended", "void"):
        seat = actors(state)[0]
        state, _ = apply(state, autoplay(state, seat))
    return state


def test_the_commitment_is_the_sha256_of_seed_and_salt():
    assert commitment(42, SALT) == hashlib.sha256(f"42:{SALT}".encode()).hexdigest()
    assert commitment(42, SALT) != commitment(43, SALT) != commitment(42, new_salt())


@pytest.mark.parametrize("preset", PRESETS)
def test_views_show_the_commitment_at_the_deal_and_the_seed_only_at_the_end(preset):
    state = new_hand(preset, 9, salt=SALT)
    for seat in (None, 0, 1, 2, 3, 4):
        seen = view(state, seat)
        assert seen["fair"] == {"commitment": commitment(9, SALT)}
        assert SALT not in json.dumps(seen)
    ended = play_out(state)
    assert view(ended, None)["fair"] == {"commitment": commitment(9, SALT), "seed": "9", "salt": SALT}


def test_a_hand_dealt_without_a_salt_shows_no_commitment():
    assert "fair" not in view(new_hand("classic", 9), 0)


@pytest.mark.parametrize("preset", PRESETS)
def test_verify_confirms_the_commitment_and_redeals_the_hands(preset):
    state = new_hand(preset, 123456789, salt=SALT)
    checked = verify(preset, 123456789, SALT, commitment(123456789, SALT))
    assert checked["commitment_ok"]
    assert checked["dealt"] == deal(preset, 123456789)
    if preset != "qingdao":  # qingdao's tribute and 买3 move cards after the deal
        assert checked["dealt"] == state["hands"]
    assert sum(len(hand) for hand in checked["dealt"]) == sum(state["dealt"])
    assert not verify(preset, 123456788, SALT, commitment(123456789, SALT))["commitment_ok"]


def test_the_verify_command_prints_the_deal_and_fails_on_a_wrong_commitment():
    out = io.StringIO()
    good = commitment(77, SALT)
    assert main(["verify", "--preset", "lianzhong", "--seed", "77", "--salt", SALT,
                 "--commitment", good.upper()], out) == 0
    line = json.loads(out.getvalue())
    assert line["commitment_ok"] and line["commitment"] == good and len(line["dealt"]) == 5
    assert line["dealt"][0] == " ".join(deal("lianzhong", 77)[0])
    assert main(["verify", "--preset", "lianzhong", "--seed", "78", "--salt", SALT,
                 "--commitment", good], io.StringIO()) == 1
