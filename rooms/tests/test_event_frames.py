"""`event` frames are built in parts — the head, the public view once per version, each
recipient's own view — and each frame is exactly the head with `engine.view` for its
recipient, for every kind, every version and every preset."""

import json

import pytest

from baohuang import engine
from rooms.event_frames import VISITOR, EventFrames, event_head

KINDS = [0, 1, 2, 3, 4, None, VISITOR]


def played_hand(preset: str, seed: int):
    """Each version of a whole hand played by the baseline policy: (state, event) pairs."""
    state = engine.new_hand(preset, seed)
    while engine.actors(state):
        state, event = engine.apply(state, engine.autoplay(state, engine.actors(state)[0]))
        yield state, event


@pytest.mark.parametrize("preset", engine.PRESETS)
def test_every_frame_is_its_head_and_the_recipients_whole_view(preset):
    frames = EventFrames()
    checked = 0
    for state, event in played_hand(preset, seed=f"frames-{preset}"):
        version = state["version"]
        assert not set(engine.public_view(state)) & set(engine.seat_view(state, 0))
        for kind in KINDS:
            for with_state in (state, None):  # the last event of a batch carries the view
                text = frames.text(7, version, event, with_state, 1234, kind)
                expected = event_head(7, version, event, with_state, 1234, kind)
                if kind != VISITOR and with_state is not None:
                    expected["view"] = engine.view(state, kind)
                assert json.loads(text) == json.loads(json.dumps(expected))
                checked += 1
    assert checked > 7 * 2 * 50


def test_frames_built_ahead_are_those_of_the_kinds_sent_the_previous_version_and_kept_only_when_told():
    frames = EventFrames()
    (before, _), (after, event) = list(played_hand("classic", seed="ahead"))[:2]
    version = after["version"]
    assert frames.ahead(7, version, event, after, 1234) == {}  # nothing of the hand sent here yet
    for kind in (0, 3, None):
        frames.text(7, version - 1, {}, before, 99, kind)
    frames.text(7, version - 1, {}, None, 99, 4)  # without a view: not a kind to build ahead for
    ahead = frames.ahead(7, version, event, after, 1234)
    assert set(ahead) == {0, 3, None}
    for kind, text in ahead.items():
        assert text == EventFrames().text(7, version, event, after, 1234, kind)
    assert frames.ahead(7, version + 1, event, after, 1234) == {}  # not the version after the one sent
    # Not kept until told: a move that failed leaves nothing of its own behind.
    other = {**event, "seat": (event["seat"] + 1) % 5}
    assert frames.text(7, version, other, after, 1234, 0) != ahead[0]
    frames.keep(7, version, 1234, ahead)
    assert frames.text(7, version, other, after, 1234, 3) == ahead[3]  # once kept, the frame is the one built
