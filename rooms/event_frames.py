"""`event` frames, built once per recipient kind and event in each server process.

Every socket of a room hears the same broadcast. What it is sent depends only on who it
is — one of the five seats, a spectator, or a visitor of a room without spectators — so
the frame text is built (engine views, then JSON) the first time a socket of that kind
asks, and the others of that kind get the same text.
"""

from collections import OrderedDict

from baohuang import engine
from rooms.json_text import dumps

VISITOR = "visitor"  # recipient kind of a signed-in visitor (sees that play goes on, nothing of it)


def event_frame(hand_id: int, version: int, event: dict, state: dict | None, deadline, kind) -> dict:
    """One `event` frame for `kind` (a seat 0–4, None for a spectator, or VISITOR); with
    `state` (the hand after the event) it carries the recipient's view and the deadline."""
    frame = {"type": "event", "hand": hand_id, "version": version}
    if kind == VISITOR:
        if state is not None:
            frame["view"] = None
        return frame
    shown = engine.event_view(event, kind)
    if shown is not None:
        frame["event"] = shown
    if state is not None:
        frame["view"] = engine.view(state, kind)
        frame["deadline"] = deadline
    return frame


def encode(frame: dict) -> str:
    return dumps(frame)


class EventFrames:
    """Encoded `event` frames of recent versions, by recipient kind."""

    SIZE = 20_000  # frames kept: 6 kinds × a few versions of every live table

    def __init__(self):
        self._texts: OrderedDict[tuple, str] = OrderedDict()

    def text(self, hand_id: int, version: int, event: dict, state: dict | None, deadline, kind) -> str:
        key = (hand_id, version, kind, state is not None, deadline)
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = encode(event_frame(hand_id, version, event, state, deadline, kind))
            if len(self._texts) > self.SIZE:
                self._texts.popitem(last=False)
        return text


FRAMES = EventFrames()
