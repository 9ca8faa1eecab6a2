"""Client frames of the live-play protocol (docs/protocol.md), checked before any service runs.

`read(text)` turns one WebSocket text frame into a `Frame`: its type, its `client_id` and
its fields, each of the right kind and range. Anything else raises `BadInput` with a
stable code and a message a player can read; the consumer sends it back as an `error`
frame (with the frame's `client_id` when one could be read) and changes nothing. Whether
a move is legal, whose turn it is or which seat it names is for the services to say.
"""

from dataclasses import dataclass, field

import orjson

from rooms import names

MAX_FRAME = 4096  # bytes of UTF-8 per client frame
MAX_DEPTH = 8  # nested objects and arrays: a real frame needs 3 ({"action": {"cards": …}})
CLIENT_ID_MAX = 64
CHAT_MAX = 200

# Quick phrases (快捷语): a fixed list so they can be shown in any language later.
PHRASES = {
    "hello": "大家好",
    "hurry": "快点吧，等得花都谢了",
    "nice": "好牌！",
    "thanks": "谢谢",
    "sorry": "不好意思",
    "well_played": "打得好",
    "again": "再来一局",
    "bye": "再见",
}


class BadInput(Exception):
    """A client frame the protocol refuses before any service is called."""

    def __init__(self, code: str, message: str, client_id: str | None = None, params: dict | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.client_id = client_id
        self.params = params or {}


@dataclass(frozen=True)
class Frame:
    type: str
    client_id: str | None = None
    fields: dict = field(default_factory=dict)


def read(text_data: str | None) -> Frame:
    """The frame `text_data` holds, checked (raises `BadInput`)."""
    message = _json_object(text_data)
    # Echoed with an error even when it is itself invalid, cut to size.
    loose_id = message["client_id"][:CLIENT_ID_MAX] if isinstance(message.get("client_id"), str) else None
    try:
        kind = message.get("type")
        if not isinstance(kind, str) or kind not in FIELDS:
            raise BadInput("unknown_type", f"Unknown message type {kind!r}; expected one of {', '.join(FIELDS)}.")
        client_id = _client_id(message, required=kind == "act")
        return Frame(type=kind, client_id=client_id, fields=FIELDS[kind](message))
    except BadInput as error:
        error.client_id = loose_id
        raise


def _json_object(text_data: str | None) -> dict:
    if text_data is None:
        raise BadInput("bad_json", "Frames are JSON text, not binary.")
    if len(text_data) > MAX_FRAME or len(text_data.encode("utf-8")) > MAX_FRAME:
        raise BadInput("too_large", f"A frame holds at most {MAX_FRAME} bytes.", params={"max": MAX_FRAME})
    try:
        # orjson refuses what the rest could not carry: lone surrogates (`"\ud800"`), NaN and
        # infinities; integers past 64 bits become floats, which no whole-number field takes.
        message = orjson.loads(text_data)
    except orjson.JSONDecodeError:
        raise BadInput("bad_json", "That frame is not valid JSON (UTF-8 text, no lone surrogates).") from None
    if not isinstance(message, dict):
        raise BadInput("bad_json", "A frame is a JSON object like {\"type\": \"ping\"}.")
    if _depth(message) > MAX_DEPTH:
        raise BadInput("bad_json", f"A frame nests objects and arrays at most {MAX_DEPTH} deep.")
    return message


def _depth(value) -> int:
    """How deeply `value` nests objects and arrays (iteratively: no recursion limit to hit)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, level + 1) for child in children)
    return deepest


# -- fields --------------------------------------------------------------------------------


def _int(message: dict, name: str, *, low: int | None = None, high: int | None = None, optional=False):
    value = message.get(name)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput("bad_field", f"`{name}` must be a whole number.", params={"field": name})
    if (low is not None and value < low) or (high is not None and value > high):
        raise BadInput("bad_field", f"`{name}` must be from {low} to {high}." if high is not None
                       else f"`{name}` must be at least {low}.", params={"field": name, "low": low, "high": high})
    return value


def _client_id(message: dict, *, required: bool) -> str | None:
    value = message.get("client_id")
    if value is None and not required:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= CLIENT_ID_MAX or names.has_controls(value):
        raise BadInput("bad_field", f"`client_id` must be a string of 1 to {CLIENT_ID_MAX} printable characters.",
                       params={"field": "client_id", "low": 1, "high": CLIENT_ID_MAX})
    return value


# -- one reader per frame type (its fields become the handler's keyword arguments) ---------


def _sit(message: dict) -> dict:
    return {"index": _int(message, "seat", low=0, high=4, optional=True)}


def _nothing(message: dict) -> dict:
    return {}


def _act(message: dict) -> dict:
    expected = _int(message, "expected_version", low=0)
    action = message.get("action")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise BadInput("bad_field", "`action` must be an object like {\"type\": \"pass\"}.", params={"field": "action"})
    return {"action": action, "expected_version": expected}


def _ready(message: dict) -> dict:
    """准备: `on` true (the default) marks ready, false takes it back."""
    on = message.get("on", True)
    if not isinstance(on, bool):
        raise BadInput("bad_field", "`on` must be true or false.", params={"field": "on"})
    return {"on": on}


def _free(message: dict) -> dict:
    return {"index": _int(message, "seat", low=0, high=4)}


def _trustee(message: dict) -> dict:
    on = message.get("on")
    if not isinstance(on, bool):
        raise BadInput("bad_field", "`on` must be true or false.", params={"field": "on"})
    return {"on": on}


def _chat(message: dict) -> dict:
    """`text` and `phrase` (its id, or None) from a chat frame holding exactly one of them."""
    text, phrase = message.get("text"), message.get("phrase")
    if (text is None) == (phrase is None):
        raise BadInput("bad_field", "A chat message has either `text` or `phrase`.", params={"field": "text"})
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in PHRASES:
            raise BadInput("bad_field", f"Unknown quick phrase; choose one of {', '.join(PHRASES)}.",
                           params={"field": "phrase"})
        return {"text": PHRASES[phrase], "phrase": phrase}
    if not isinstance(text, str):
        raise BadInput("bad_field", "`text` must be a string.", params={"field": "text"})
    text = text.strip()
    if not 1 <= len(text) <= CHAT_MAX:
        raise BadInput("bad_field", f"A chat message has 1 to {CHAT_MAX} characters.",
                       params={"field": "text", "low": 1, "high": CHAT_MAX})
    if (refusal := names.chat_refusal(text)) is not None:  # NUL, bidi overrides, other controls
        raise BadInput("bad_text", refusal, params={"field": "text"})
    return {"text": text, "phrase": None}


def _ping(message: dict) -> dict:
    t = message.get("t")
    if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float))):
        raise BadInput("bad_field", "`t` must be a number.", params={"field": "t"})
    return {"t": t}


def _sync(message: dict) -> dict:
    return {"version": _int(message, "version", low=0), "hand": _int(message, "hand", low=1, optional=True)}


FIELDS = {
    "sit": _sit,
    "leave": _nothing,
    "ready": _ready,
    "free": _free,
    "act": _act,
    "trustee": _trustee,
    "chat": _chat,
    "ping": _ping,
    "sync": _sync,
}
