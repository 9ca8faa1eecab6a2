"""Hands stored by the engine before presets became data still replay to their results.

``data/stored_hands.json`` was recorded with the simulate players on the engine of commit
6e75b90 (the three rule fixes of issue 17, before the presets refactor): per preset a few
hands of one table (qingdao's carry their tribute), each with its seed, options, tribute,
actions (``"seat type [cards | card | what]"``) and result; the second hand of each table
also keeps the state stored halfway, as a room stores it, to be played on from there.
"""

import json
from pathlib import Path

import pytest

from baohuang.engine import apply, from_json, replay, to_json

STORED = json.loads((Path(__file__).parent / "data" / "stored_hands.json").read_text())
FIELD = {"play": "cards", "call": "card", "declare": "what"}


def action_of(text):
    seat, kind, *rest = text.split(" ", 2)
    action = {"seat": int(seat), "type": kind}
    if kind in FIELD:
        action[FIELD[kind]] = rest[0]
    return action


def stored_part(result, stored):
    """The result's keys that were stored: later versions may add keys (``explain``)."""
    return {key: result.get(key) for key in stored}


def label(hand):
    return f"{hand['preset']}-{hand['seed']}"


@pytest.mark.parametrize("hand", STORED, ids=label)
def test_a_stored_hand_replays_to_its_stored_result(hand):
    state = replay(hand["preset"], hand["seed"], [action_of(text) for text in hand["actions"]],
                   options=hand["options"], tribute=hand["tribute"])
    assert state["preset"] == hand["preset"]
    assert stored_part(state["result"], hand["result"]) == hand["result"]
    assert state["version"] == hand["version"]


@pytest.mark.parametrize("hand", [hand for hand in STORED if "stored_state" in hand], ids=label)
def test_a_state_stored_mid_hand_plays_on_to_its_stored_result(hand):
    state = from_json(json.dumps(hand["stored_state"]))
    for text in hand["actions"][hand["stored_at"]:]:
        state, _ = apply(state, action_of(text))
    assert stored_part(state["result"], hand["result"]) == hand["result"]
    assert from_json(to_json(state)) == state


def test_the_stored_hands_cover_every_preset_and_a_void_and_tribute():
    assert {hand["preset"] for hand in STORED} == {"classic", "lianzhong", "qingdao"}
    assert any(hand["result"]["void"] for hand in STORED)
    assert any(hand["tribute"] for hand in STORED)
