from rooms.json_text import dumps


def test_frames_are_compact_json():
    assert dumps({"type": "event", "view": None, "hand": ["3S", "BJ*"]}) == '{"type":"event","view":null,"hand":["3S","BJ*"]}'


def test_keys_that_are_not_strings_become_strings_as_json_does():
    assert dumps({"seats": {0: "alice", 4: None}}) == '{"seats":{"0":"alice","4":null}}'
