"""Client frames are checked without a socket: each type's fields, and every refusal's
code and the client_id it echoes (docs/protocol.md)."""

import json

import pytest

from rooms.frames import CHAT_MAX, CLIENT_ID_MAX, MAX_FRAME, PHRASES, BadInput, Frame, read


def text(**fields) -> str:
    return json.dumps(fields)


def refusal(text_data) -> BadInput:
    with pytest.raises(BadInput) as caught:
        read(text_data)
    return caught.value


def test_an_act_gives_its_action_version_and_client_id():
    frame = read(text(type="act", action={"type": "pass"}, expected_version=3, client_id="a1"))
    assert frame == Frame(type="act", client_id="a1", fields={"action": {"type": "pass"}, "expected_version": 3})


def test_each_type_gives_the_handlers_keyword_arguments():
    assert read(text(type="sit")).fields == {"index": None}
    assert read(text(type="sit", seat=4)).fields == {"index": 4}
    assert read(text(type="leave")).fields == {}
    assert read(text(type="ready")).fields == {"on": True} and read(text(type="ready", on=False)).fields == {"on": False}
    assert read(text(type="free", seat=3)).fields == {"index": 3}
    assert read(text(type="trustee", on=False)).fields == {"on": False}
    assert read(text(type="ping", t=1.5)).fields == {"t": 1.5}
    assert read(text(type="sync", version=0)).fields == {"version": 0, "hand": None}
    assert read(text(type="chat", text="  好  ")).fields == {"text": "好", "phrase": None}
    assert read(text(type="chat", phrase="nice")).fields == {"text": PHRASES["nice"], "phrase": "nice"}


@pytest.mark.parametrize("data, code", [
    (None, "bad_json"),
    ("{", "bad_json"),
    ("[1]", "bad_json"),
    ("x" * (MAX_FRAME + 1), "too_large"),
    (json.dumps({"type": "chat", "text": "好" * 1400}), "too_large"),  # under 4096 characters, over 4096 bytes
    (text(type="dance"), "unknown_type"),
    (text(type="start"), "unknown_type"),  # 准备 (`ready`) deals now
    (text(type="ready", on="yes"), "bad_field"),
    (text(type="free"), "bad_field"),
    (text(type="free", seat=5), "bad_field"),
    (text(type=["act"]), "unknown_type"),
    (text(), "unknown_type"),
])
def test_frames_that_are_not_protocol_objects_are_refused(data, code):
    assert refusal(data).code == code


@pytest.mark.parametrize("fields", [
    {"type": "act", "action": {"type": "pass"}, "expected_version": 0},  # an act needs a client_id
    {"type": "act", "action": {"type": "pass"}, "expected_version": 0, "client_id": ""},
    {"type": "act", "action": {"type": "pass"}, "expected_version": 0, "client_id": "x" * (CLIENT_ID_MAX + 1)},
    {"type": "act", "action": {"type": "pass"}, "expected_version": -1, "client_id": "a"},
    {"type": "act", "action": {"type": "pass"}, "expected_version": True, "client_id": "a"},
    {"type": "act", "action": {"type": "pass"}, "expected_version": "3", "client_id": "a"},
    {"type": "act", "action": "pass", "expected_version": 0, "client_id": "a"},
    {"type": "act", "action": {"type": 5}, "expected_version": 0, "client_id": "a"},
    {"type": "sit", "seat": 5},
    {"type": "sit", "seat": 1.0},
    {"type": "trustee", "on": "yes"},
    {"type": "ping", "t": "now"},
    {"type": "ping", "t": False},
    {"type": "sync"},
    {"type": "sync", "version": 1, "hand": 0},
    {"type": "chat"},
    {"type": "chat", "text": "a", "phrase": "nice"},
    {"type": "chat", "text": "   "},
    {"type": "chat", "text": "x" * (CHAT_MAX + 1)},
    {"type": "chat", "text": 5},
    {"type": "chat", "phrase": "insult"},
    {"type": "leave", "client_id": 7},
])
def test_bad_fields_are_refused_with_bad_field(fields):
    refused = refusal(json.dumps(fields))
    assert refused.code == "bad_field"
    # The field is named for the page (a missing one too).
    assert refused.params["field"] in ("client_id", "expected_version", "action", "seat", "on", "t", "version",
                                       "hand", "text", "phrase")


def test_a_field_out_of_range_says_its_range():
    assert refusal(text(type="sit", seat=5)).params == {"field": "seat", "low": 0, "high": 4}


def test_a_refusal_echoes_the_frames_client_id_cut_to_size():
    long_id = "k" * (CLIENT_ID_MAX + 10)
    assert refusal(text(type="act", action="pass", expected_version=0, client_id="mine")).client_id == "mine"
    assert refusal(text(type="dance", client_id=long_id)).client_id == long_id[:CLIENT_ID_MAX]
    assert refusal(text(type="act", expected_version=0, client_id=long_id)).client_id == long_id[:CLIENT_ID_MAX]
    assert refusal(text(type="chat", client_id=3)).client_id is None
