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


def frame_text(hand_id: int, version: int, event: dict, state: dict | None, deadline, kind, public: str | None) -> str:
    """One `event` frame's text; `public` is the encoded `engine.public_view` of `state`
    when the frame carries the recipient's view (a seat's or a spectator's, with a state)."""
    text = encode(event_head(hand_id, version, event, state, deadline, kind))
    if public is not None:
        text = joined(text, f'{{"view":{joined(public, encode(engine.seat_view(state, kind)))}}}')
    return text


class EventFrames:
    """Encoded `event` frames of recent versions, by recipient kind.

    A view is `engine.public_view` and the recipient's `engine.seat_view`: the public part
    is built and encoded once per version for all kinds, each kind adds its own part.

    A move this process stores from its event loop has its frames built while PostgreSQL
    stores it (`ahead`), for the kinds of recipient the hand's last frames went to here,
    and kept once it has committed (`keep`): the sockets then find them built. The loop
    would otherwise wait idle for the database, then build them while the table waits."""

    SIZE = 20_000  # frames kept: 6 kinds × a few versions of every live table
    PUBLIC_SIZE = 4_000  # public views kept: a few versions of every live table
    HANDS = 2_000  # hands whose recipient kinds are remembered: more than the live tables

    def __init__(self):
        self._texts: OrderedDict[tuple, str] = OrderedDict()
        self._public: OrderedDict[tuple, str] = OrderedDict()
        self._kinds: OrderedDict[int, tuple[int, set]] = OrderedDict()  # hand → (version, kinds sent a view)

    def text(self, hand_id: int, version: int, event: dict, state: dict | None, deadline, kind) -> str:
        key = (hand_id, version, kind, state is not None, deadline)
        text = self._texts.get(key)
        if text is None:
            viewed = kind != VISITOR and state is not None
            public = self._public_text(hand_id, version, state, deadline) if viewed else None
            text = frame_text(hand_id, version, event, state, deadline, kind, public)
            self._keep(key, text)
        if state is not None:
            self._sent(hand_id, version, kind)
        return text

    def ahead(self, hand_id: int, version: int, event: dict, state: dict, deadline) -> dict:
        """`version`'s frames (with the view) for each kind of recipient that this process
        sent the hand's previous version to, built but not kept: `{kind: text}`."""
        sent_version, kinds = self._kinds.get(hand_id, (None, ()))
        if sent_version != version - 1:
            return {}
        public = encode(engine.public_view(state))  # not kept: the move may yet fail
        return {kind: frame_text(hand_id, version, event, state, deadline, kind, None if kind == VISITOR else public)
                for kind in kinds}

    def keep(self, hand_id: int, version: int, deadline, texts: dict) -> None:
        """Keep frames built by `ahead`, once their move has committed."""
        for kind, text in texts.items():
            self._keep((hand_id, version, kind, True, deadline), text)

    def _keep(self, key: tuple, text: str) -> None:
        self._texts[key] = text
        if len(self._texts) > self.SIZE:
            self._texts.popitem(last=False)

    def _sent(self, hand_id: int, version: int, kind) -> None:
        """Remember that `kind` was sent `version` of the hand with a view."""
        sent = self._kinds.get(hand_id)
        if sent is None or sent[0] < version:
            sent = self._kinds[hand_id] = (version, set())
            self._kinds.move_to_end(hand_id)
            if len(self._kinds) > self.HANDS:
                self._kinds.popitem(last=False)
        if sent[0] == version:
            sent[1].add(kind)

    def _public_text(self, hand_id: int, version: int, state: dict, deadline) -> str:
        key = (hand_id, version, deadline)  # keyed as the frames are
        text = self._public.get(key)
        if text is None:
            text = self._public[key] = encode(engine.public_view(state))
            if len(self._public) > self.PUBLIC_SIZE:
                self._public.popitem(last=False)
        return text


FRAMES = EventFrames()
