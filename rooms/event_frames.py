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


def event_head(hand_id: int, version: int, event: dict, state: dict | None, deadline, kind) -> dict:
    """One `event` frame for `kind` (a seat 0–4, None for a spectator, or VISITOR), but for
    the view of a seat or spectator, which `EventFrames` adds: with `state` (the hand after
    the event) a frame carries the recipient's view (`engine.view`) and the deadline."""
    frame = {"type": "event", "hand": hand_id, "version": version}
    if kind == VISITOR:
        if state is not None:
            frame["view"] = None
        return frame
    shown = engine.event_view(event, kind)
    if shown is not None:
        frame["event"] = shown
    if state is not None:
        frame["deadline"] = deadline
    return frame


def encode(frame: dict) -> str:
    return dumps(frame)


def joined(first: str, second: str) -> str:
    """The JSON text of two objects' keys in one object (the objects share no key)."""
    return f"{first[:-1]},{second[1:]}"


class EventFrames:
    """Encoded `event` frames of recent versions, by recipient kind.

    A view is `engine.public_view` and the recipient's `engine.seat_view`: the public part
    is built and encoded once per version for all kinds, each kind adds its own part."""

    SIZE = 20_000  # frames kept: 6 kinds × a few versions of every live table
    PUBLIC_SIZE = 4_000  # public views kept: a few versions of every live table

    def __init__(self):
        self._texts: OrderedDict[tuple, str] = OrderedDict()
        self._public: OrderedDict[tuple, str] = OrderedDict()

    def text(self, hand_id: int, version: int, event: dict, state: dict | None, deadline, kind) -> str:
        key = (hand_id, version, kind, state is not None, deadline)
        text = self._texts.get(key)
        if text is None:
            text = encode(event_head(hand_id, version, event, state, deadline, kind))
            if kind != VISITOR and state is not None:
                public = self._public_text(hand_id, version, state, deadline)
                view = joined(public, encode(engine.seat_view(state, kind)))
                text = joined(text, f'{{"view":{view}}}')
            self._texts[key] = text
            if len(self._texts) > self.SIZE:
                self._texts.popitem(last=False)
        return text

    def _public_text(self, hand_id: int, version: int, state: dict, deadline) -> str:
        key = (hand_id, version, deadline)  # keyed as the frames are
        text = self._public.get(key)
        if text is None:
            text = self._public[key] = encode(engine.public_view(state))
            if len(self._public) > self.PUBLIC_SIZE:
                self._public.popitem(last=False)
        return text


FRAMES = EventFrames()
