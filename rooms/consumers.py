"""Live play over WebSockets: one `RoomConsumer` per socket (protocol: docs/protocol.md).

The consumer is a thin interface: it validates a frame, calls one service through
`database_sync_to_async` (an ordinary move first tries `rooms.services.quick`, which runs
on the event loop), and sends what the engine built for its recipient —
`engine.view` / `engine.event_view`, never the raw state or event. Writes and their
broadcasts belong to `rooms.services` / `rooms.notify`; this module only reads and relays.
"""

import asyncio
import json
import logging
import time
from collections import OrderedDict, deque

import orjson
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.consumer import get_handler_name

from baohuang import engine
from rooms import presence
from rooms.errors import ServiceError
from rooms.models import ChatMessage, Hand, HandEvent, Room
from rooms.notify import room_group
from rooms.selectors import may_watch
from rooms.services import chat_say, hand_act, hand_start, quick, seat_leave, trustee_set
from rooms.services.hands import epoch_ms
from rooms.services.rooms import chat_record

log = logging.getLogger(__name__)

MAX_FRAME = 4096  # bytes of UTF-8 per client frame
RATE_LIMIT = 20  # client messages per RATE_WINDOW seconds; one more closes with 1008
RATE_WINDOW = 1.0
CATCH_UP_MAX = 200  # events replayed on `sync`; further behind gets a snapshot
CHAT_MAX = 200
CHAT_HISTORY = 30  # the room's latest chat lines in every snapshot
CLIENT_ID_MAX = 64

CLOSE_POLICY = 1008
CLOSE_FORBIDDEN = 4403
CLOSE_NO_ROOM = 4404
CLOSE_GONE = 4410

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


def db(function):
    """Run a blocking database function off the event loop, on any pool thread.

    Not thread-sensitive: each service is one transaction with the room row locked, so
    rooms need not queue behind each other on a single thread.
    """
    return database_sync_to_async(function, thread_sensitive=False)


def now_ms() -> int:
    return int(time.time() * 1000)


class BadInput(Exception):
    """A client frame the protocol refuses before any service is called."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


# -- reading the room (blocking; run through `db`) ----------------------------------


def room_find(room_id: int) -> Room | None:
    return Room.objects.filter(pk=room_id).first()


def role_of(room: Room, seats: list, user) -> tuple[str, int | None]:
    """`player` (with its seat), `spectator` or `visitor` — see docs/protocol.md."""
    if user is not None and user.is_authenticated:
        for seat in seats:
            if seat.player_id == user.pk and not seat.left:
                return "player", seat.index
    if may_watch(room=room, user=user):
        return "spectator", None
    return "visitor", None


def snapshot(room_id: int, user) -> tuple[dict, dict | None]:
    """The whole picture for this user now (the `snapshot` frame), and the engine state it
    was built from (None without a hand), which the socket keeps for the next event."""
    room = Room.objects.get(pk=room_id)
    seats = list(room.seats.select_related("player").order_by("index"))
    role, seat = role_of(room, seats, user)
    hand = Hand.objects.filter(room=room).order_by("-number").first()
    signed_in = user is not None and user.is_authenticated
    frame = {
        "type": "snapshot",
        "server_time": now_ms(),
        "room": {"id": room.pk, "name": room.name, "preset": room.preset, "status": room.status,
                 "options": room.options},
        "you": {"player": {"id": user.pk, "name": str(user)} if signed_in else None, "seat": seat, "role": role},
        "seats": [presence.seat_record(each) for each in seats],
        "hand": None,
        "version": None,
        "phrases": PHRASES,
        "chat": [] if role == "visitor" else [chat_record(message) for message in reversed(
            ChatMessage.objects.filter(room=room).select_related("player").order_by("-id")[:CHAT_HISTORY])],
    }
    if hand is not None:
        frame["hand"] = {
            "id": hand.pk,
            "number": hand.number,
            "running": hand.running,
            "version": hand.version,
            "deadline": epoch_ms(hand.deadline),
            "view": None if role == "visitor" else engine.view(hand.state, seat),
        }
        frame["version"] = hand.version
    return frame, None if hand is None else hand.state


def missed_events(hand_id: int, since: int, until: int | None = None) -> dict | None:
    """The hand's version, and its stored events after `since` (up to `until`, else to the
    current version, with the current state and deadline) — or `events: None` when there
    are more than CATCH_UP_MAX (or `since` is ahead of the hand)."""
    hand = Hand.objects.filter(pk=hand_id).values("version", "state", "deadline").first()
    if hand is None:
        return None
    last = hand["version"] if until is None else min(until, hand["version"])
    if since > hand["version"] or last - since > CATCH_UP_MAX:
        return {"version": hand["version"], "events": None}
    events = list(HandEvent.objects.filter(hand_id=hand_id, version__gt=since, version__lte=last)
                  .order_by("version").values_list("version", "event"))
    return {"version": hand["version"], "events": events, "state": hand["state"] if until is None else None,
            "deadline": epoch_ms(hand["deadline"])}


# -- the engine state behind live events ----------------------------------------------


def state_at(hand_id: int, version: int, base: tuple | None) -> tuple[dict, int | None] | None:
    """The hand's engine state just after `version`, and the deadline then open.

    Usually the stored row is at that version. When play has already moved on, rebuild
    it: from `base` (an earlier `(version, state)` this process holds) plus the stored
    actions, or from the seed. The deadline of a superseded decision is None.
    """
    row = Hand.objects.filter(pk=hand_id).values(
        "version", "state", "deadline", "preset", "seed", "options", "tribute").first()
    if row is None or row["version"] < version:
        return None
    if row["version"] == version:
        return row["state"], epoch_ms(row["deadline"])
    start = base[0] if base is not None and base[0] < version else 0
    actions = list(HandEvent.objects.filter(hand_id=hand_id, version__gt=start, version__lte=version)
                   .order_by("version").values_list("action", flat=True))
    if start:
        state = base[1]
        for action in actions:
            state, _ = engine.apply(state, action)
    else:
        state = engine.replay(row["preset"], row["seed"], actions, options=row["options"],
                              tribute=tuple(row["tribute"]))
    return state, None


def action_of(event: dict) -> dict:
    """The action an engine event records (the event names everything the action said)."""
    action = {"seat": event["seat"], "type": event["type"]}
    if event["type"] == "play":
        action["cards"] = " ".join(event["cards"])
    elif event["type"] == "call":
        action["card"] = event["card"]
    elif event["type"] == "declare":
        action["what"] = event["what"]
    return action


def replayed(state: dict, event: dict) -> dict | None:
    """The state after `event`, worked out from the state before it — trusted only when
    the engine, replaying the action, produces exactly that event (the full truth)."""
    try:
        after, again = engine.apply(state, action_of(event))
    except (engine.IllegalAction, KeyError, TypeError, ValueError):
        return None
    return after if again == event else None


class HandStates:
    """The engine state of live hands at their recent versions, shared by every socket
    of this process.

    A broadcast event usually follows a version this process already holds: the engine
    replays it (no database read at all). Otherwise one read per process and version,
    shared by every socket that asks while it runs.
    """

    KEEP = 8  # versions kept per hand: enough for a recipient that lags a little

    def __init__(self):
        self._hands: OrderedDict[int, OrderedDict] = OrderedDict()
        self._loading: dict[tuple[int, int], asyncio.Future] = {}

    async def at(self, hand_id: int, version: int, item: dict | None = None):
        """`(state, deadline)` just after `version`, or None when the hand is gone.

        `item` is the broadcast `{"version", "event", "deadline"?}`: with the deadline
        it carries, the state can be replayed from the version before.
        """
        versions = self._hands.get(hand_id)
        if versions is not None and version in versions:
            return versions[version]
        if versions and version - 1 in versions and item is not None and "deadline" in item:
            after = replayed(versions[version - 1][0], item["event"])
            if after is not None:
                self.keep(hand_id, version, (after, item["deadline"]))
                return versions[version]
        key = (hand_id, version)
        future = self._loading.get(key)
        if future is None:
            base = None
            if versions:
                below = [each for each in versions if each < version]
                if below:
                    base = (max(below), versions[max(below)][0])
            future = asyncio.ensure_future(db(state_at)(hand_id, version, base))
            self._loading[key] = future
            future.add_done_callback(lambda done: self._loaded(key, done))
        return await asyncio.shield(future)

    def held(self, hand_id: int, version: int):
        """`(state, deadline)` at `version` if this process holds it, else None (no read)."""
        return self._hands.get(hand_id, {}).get(version)

    def _loaded(self, key, future) -> None:
        self._loading.pop(key, None)
        if not future.cancelled() and future.exception() is None and future.result() is not None:
            self.keep(*key, future.result())

    def keep(self, hand_id: int, version: int, loaded: tuple) -> None:
        versions = self._hands.setdefault(hand_id, OrderedDict())
        self._hands.move_to_end(hand_id)
        versions[version] = loaded
        while len(versions) > self.KEEP:
            versions.popitem(last=False)
        while len(self._hands) > 1000:  # rooms long finished
            self._hands.popitem(last=False)


STATES = HandStates()


# -- validating client frames -----------------------------------------------------------


def _int(message: dict, name: str, *, low: int | None = None, high: int | None = None, optional=False):
    value = message.get(name)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput("bad_field", f"`{name}` must be a whole number.")
    if (low is not None and value < low) or (high is not None and value > high):
        raise BadInput("bad_field", f"`{name}` must be from {low} to {high}." if high is not None
                       else f"`{name}` must be at least {low}.")
    return value


def _client_id(message: dict, *, required: bool) -> str | None:
    value = message.get("client_id")
    if value is None and not required:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= CLIENT_ID_MAX:
        raise BadInput("bad_field", f"`client_id` must be a string of 1 to {CLIENT_ID_MAX} characters.")
    return value


def _chat(message: dict) -> tuple[str, str | None]:
    """`(text, phrase id)` from a chat frame holding exactly one of `text` / `phrase`."""
    text, phrase = message.get("text"), message.get("phrase")
    if (text is None) == (phrase is None):
        raise BadInput("bad_field", "A chat message has either `text` or `phrase`.")
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in PHRASES:
            raise BadInput("bad_field", f"Unknown quick phrase; choose one of {', '.join(PHRASES)}.")
        return PHRASES[phrase], phrase
    if not isinstance(text, str):
        raise BadInput("bad_field", "`text` must be a string.")
    text = text.strip()
    if not 1 <= len(text) <= CHAT_MAX:
        raise BadInput("bad_field", f"A chat message has 1 to {CHAT_MAX} characters.")
    return text, None


def parse_frame(text_data: str | None) -> dict:
    if text_data is None:
        raise BadInput("bad_json", "Frames are JSON text, not binary.")
    if len(text_data) > MAX_FRAME or len(text_data.encode("utf-8")) > MAX_FRAME:
        raise BadInput("too_large", f"A frame holds at most {MAX_FRAME} bytes.")
    try:
        message = json.loads(text_data)
    except ValueError:
        raise BadInput("bad_json", "That frame is not valid JSON.") from None
    if not isinstance(message, dict):
        raise BadInput("bad_json", "A frame is a JSON object like {\"type\": \"ping\"}.")
    return message


# -- the consumer -----------------------------------------------------------------------


class DirectDispatch:
    """Dispatch without Channels' `aclose_old_connections()` before every message.

    That call is a hop through Channels' single sync thread for each frame and each group
    message — five per action at a full table. These consumers never touch the database
    on the event loop: every query runs through `db`, whose thread closes stale
    connections before and after, so the hop buys nothing.
    """

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class RoomConsumer(DirectDispatch, AsyncWebsocketConsumer):
    """One socket watching or playing in one room (`/ws/rooms/<id>/`)."""

    HANDLERS = ("sit", "leave", "start", "act", "trustee", "chat", "ping", "sync")

    async def connect(self):
        self.room_id = self.scope["url_route"]["kwargs"]["room_id"]
        self.group = room_group(self.room_id)
        user = self.scope.get("user")
        self.user = user if user is not None and user.is_authenticated else None
        self.role, self.seat, self.seats = "spectator", None, []
        self.hand_id, self.version = None, None
        self.joined = False
        self.recent = deque()  # arrival times of recent frames, for the rate limit
        self.closing = False
        self.heartbeat = None
        room = await db(room_find)(self.room_id)
        refusal = self._refusal(room)
        await self.accept()
        if refusal is not None:
            code, error, message = refusal
            await self.send_error(error, message)
            await self.close(code=code)
            return
        # Join before reading the snapshot, so nothing committed after it is missed
        # (anything up to the snapshot's version is dropped as a duplicate).
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.joined = True
        if self.user is not None:
            # Live first, then online: the presence sweep never sees this seat online
            # without a live socket behind it (rooms/presence.py).
            await self._alive()
            self.heartbeat = asyncio.create_task(self._beat())
            await db(presence.seat_connected)(room_id=self.room_id, player=self.user)
        await self.send_snapshot()

    def _refusal(self, room):
        if room is None:
            return CLOSE_NO_ROOM, "no_room", "There is no such room."
        if room.status == Room.Status.DISSOLVED:
            return CLOSE_GONE, "room_closed", "This room has been dissolved."
        if self.user is None and not room.options.get("allow_spectators", True):
            return CLOSE_FORBIDDEN, "spectators_not_allowed", "This room does not allow spectators: sign in to join."
        return None

    async def disconnect(self, code):
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        if self.joined:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            if self.user is not None:
                await self._presence_call(presence.socket_gone)
            if self.role == "player":
                await db(presence.seat_disconnected)(room_id=self.room_id, player=self.user)

    async def _alive(self) -> None:
        await self._presence_call(presence.socket_alive)

    async def _beat(self) -> None:
        """Renew this socket's live entry until it closes (rooms/presence.py)."""
        while True:
            await asyncio.sleep(presence.heartbeat_seconds())
            await self._alive()

    async def _presence_call(self, function) -> None:
        """A live-socket entry in Redis: a failure is logged, never allowed to cost the
        socket (the sweep errs towards showing a seat offline, which its socket repairs)."""
        try:
            await db(function)(room_id=self.room_id, player_id=self.user.pk, socket=self.channel_name)
        except Exception:
            log.warning("room %s: presence entry for player %s failed", self.room_id, self.user.pk, exc_info=True)

    # -- frames from the client ----------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        if self.closing:
            return
        if self._over_rate():
            self.closing = True
            await self.close(code=CLOSE_POLICY)
            return
        client_id = None
        try:
            message = parse_frame(text_data)
            if isinstance(message.get("client_id"), str):
                client_id = message["client_id"][:CLIENT_ID_MAX]
            kind = message.get("type")
            if kind not in self.HANDLERS:
                raise BadInput("unknown_type", f"Unknown message type {kind!r}; expected one of "
                               f"{', '.join(self.HANDLERS)}.")
            client_id = _client_id(message, required=kind == "act")
            await getattr(self, f"on_{kind}")(message, client_id)
        except BadInput as error:
            await self.send_error(error.code, error.message, client_id)
        except ServiceError as error:
            await self.send_error(error.code, error.message, client_id)
            if error.code == "stale_version":
                await self.send_snapshot()
        except Exception:
            log.exception("room %s: frame failed", self.room_id)
            await self.send_error("server_error", "Something went wrong on the server; nothing was changed.",
                                  client_id)

    def _over_rate(self) -> bool:
        now = time.monotonic()
        self.recent.append(now)
        while self.recent and self.recent[0] <= now - RATE_WINDOW:
            self.recent.popleft()
        return len(self.recent) > RATE_LIMIT

    def _player(self):
        if self.user is None:
            raise BadInput("not_signed_in", "Sign in to take part.")
        return self.user

    def _my_seat(self) -> int:
        self._player()
        if self.seat is None:
            raise BadInput("not_seated", "You are not seated in this room.")
        return self.seat

    async def on_sit(self, message, client_id):
        index = _int(message, "seat", low=0, high=4, optional=True)
        player = self._player()
        await db(presence.seat_take_online)(room_id=self.room_id, player=player, index=index)
        await self.send_ack(client_id)

    async def on_leave(self, message, client_id):
        self._my_seat()
        await db(seat_leave)(room_id=self.room_id, player=self.user)
        await self.send_ack(client_id)

    async def on_start(self, message, client_id):
        self._my_seat()
        hand = await db(hand_start)(room_id=self.room_id, player=self.user)
        await self.send_ack(client_id, hand.version)

    async def on_act(self, message, client_id):
        expected = _int(message, "expected_version", low=0)
        action = message.get("action")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise BadInput("bad_field", "`action` must be an object like {\"type\": \"pass\"}.")
        seat = self._my_seat()
        if self.hand_id is None:
            raise BadInput("no_hand", "No hand is being played.")
        if await self._quick_act(seat, action, expected, client_id):
            return
        change = await db(hand_act)(hand_id=self.hand_id, seat=seat, action=action, expected_version=expected,
                                    client_id=client_id, player=self.user)
        await self.send_ack(client_id, change.events[-1]["version"], repeated=change.repeated)

    async def _quick_act(self, seat: int, action: dict, expected: int, client_id: str) -> bool:
        """An ordinary move at the version this socket holds, stored without the ORM
        (`rooms.services.quick`); False when `hand_act` has to decide instead."""
        held = STATES.held(self.hand_id, expected) if expected == self.version else None
        if held is None or not quick.enabled():
            return False
        moved = await quick.quick_act(room_id=self.room_id, hand_id=self.hand_id, seat=seat, player_id=self.user.pk,
                                      action=action, expected_version=expected, client_id=client_id, state=held[0],
                                      deadline_ms=held[1], timers=self.timers)
        if moved is None:
            return False
        item, state = moved
        STATES.keep(self.hand_id, item["version"], (state, item["deadline"]))
        await self.send_ack(client_id, item["version"])
        return True

    async def on_trustee(self, message, client_id):
        on = message.get("on")
        if not isinstance(on, bool):
            raise BadInput("bad_field", "`on` must be true or false.")
        seat = self._my_seat()
        await db(trustee_set)(room_id=self.room_id, seat=seat, on=on, player=self.user)
        await self.send_ack(client_id)

    async def on_chat(self, message, client_id):
        text, phrase = _chat(message)
        await db(chat_say)(room_id=self.room_id, player=self._player(), text=text, phrase=phrase)
        await self.send_ack(client_id)

    async def on_ping(self, message, client_id):
        t = message.get("t")
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float))):
            raise BadInput("bad_field", "`t` must be a number.")
        await self.send_json({"type": "pong", "t": t, "server_time": now_ms()})

    async def on_sync(self, message, client_id):
        version = _int(message, "version", low=0)
        hand_id = _int(message, "hand", low=1, optional=True) or self.hand_id
        if hand_id is None or hand_id != self.hand_id:
            await self.send_snapshot()  # another (ended) hand, or none: start afresh
        elif version < self.version:
            await self._send_missed(hand_id, version)
        else:
            await self._catch_up(hand_id, version)
        await self.send_ack(client_id)

    async def _send_missed(self, hand_id: int, version: int) -> None:
        """The client is behind what this socket already sent (after a reconnect, the
        connect snapshot): the log of what it missed, in one `missed` frame."""
        missed = await db(missed_events)(hand_id, version, self.version)
        if missed is None or missed["events"] is None:
            await self.send_snapshot()
            return
        events = []
        for number, event in missed["events"]:
            entry = {"version": number}
            if self.role != "visitor" and (shown := engine.event_view(event, self.seat)) is not None:
                entry["event"] = shown
            events.append(entry)
        await self.send_json({"type": "missed", "hand": hand_id, "events": events})

    async def _catch_up(self, hand_id: int, since: int) -> None:
        """Send the stored events after `since` as `event` frames (the last with the view)."""
        missed = await db(missed_events)(hand_id, since)
        if missed is not None and since > missed["version"]:
            raise ServiceError("stale_version", "Your version is ahead of the hand's; here is a fresh picture.")
        if missed is None or missed["events"] is None:
            await self.send_snapshot()
            return
        events = [(number, event) for number, event in missed["events"] if number > self.version]
        for position, (number, event) in enumerate(events):
            last = position == len(events) - 1
            await self.send_json(self._event_frame(hand_id, number, event, missed["state"] if last else None,
                                                   missed["deadline"]))
        self.version = max(self.version, missed["version"])

    # -- messages from the room group ------------------------------------------------------

    async def hand_events(self, message):
        """`{"type": "hand.events", "hand", "events": [{"version", "event"}]}` from rooms.notify."""
        hand_id = message["hand"]
        for item in message["events"]:
            version = item["version"]
            if hand_id == self.hand_id and version <= self.version:
                continue  # already in the snapshot or sent
            if hand_id != self.hand_id:
                await self.send_snapshot()  # a hand we never heard dealt: start afresh
                return
            if version != self.version + 1:
                await self._catch_up(hand_id, self.version)  # a broadcast was lost: fill in
                continue
            loaded = await STATES.at(hand_id, version, item)
            if loaded is None:
                await self.send_snapshot()
                return
            state, deadline = loaded
            await self.send_json(self._event_frame(hand_id, version, item["event"], state, deadline))
            self.version = version

    def _event_frame(self, hand_id: int, version: int, event: dict, state: dict | None, deadline) -> dict:
        """One `event` frame, built by the engine for this socket's seat (or a spectator)."""
        frame = {"type": "event", "hand": hand_id, "version": version}
        if self.role == "visitor":
            if state is not None:
                frame["view"] = None
            return frame
        shown = engine.event_view(event, self.seat)
        if shown is not None:
            frame["event"] = shown
        if state is not None:
            frame["view"] = engine.view(state, self.seat)
            frame["deadline"] = deadline
        return frame

    async def room_changed(self, message):
        """`{"type": "room.changed", "change", ...}` from rooms.notify."""
        change = message["change"]
        if change == "seats" and message.get("what") in ("online", "offline"):
            online = message["what"] == "online"
            if (not online and self.role == "player" and message["seat"] == self.seat
                    and message.get("player") == self.user.pk):
                # Another socket of this player closed; this one is still here.
                await db(presence.seat_connected)(room_id=self.room_id, player=self.user)
            await self._send_presence(message["seat"], online=online)
        elif change == "trustee":
            await self._send_presence(message["seat"], trustee=message["on"], trustee_locked=message["locked"])
        else:
            await self.send_snapshot()  # the table changed shape: seats, a deal, an end

    async def _send_presence(self, index: int, **flags) -> None:
        if not 0 <= index < len(self.seats):
            return
        self.seats[index].update(flags)
        await self.send_json({"type": "presence", "seat": dict(self.seats[index])})

    async def chat_message(self, message):
        if self.role == "visitor":
            return  # the room's chat is for those who may watch it
        await self.send_json({key: message[key] for key in ("player", "seat", "text", "phrase", "at")}
                             | {"type": "chat"})

    # -- sending -------------------------------------------------------------------------

    async def send_json(self, frame: dict) -> None:
        await self.send(text_data=orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode())

    async def send_error(self, code: str, message: str, client_id: str | None = None) -> None:
        await self.send_json({"type": "error", "code": code, "message": message, "client_id": client_id})

    async def send_ack(self, client_id: str | None, version=..., *, repeated: bool = False) -> None:
        if client_id is None:
            return
        if version is ...:
            version = self.version
        await self.send_json({"type": "ack", "client_id": client_id, "version": version, "repeated": repeated})

    async def send_snapshot(self) -> None:
        frame, state = await db(snapshot)(self.room_id, self.user)
        self.role, self.seat = frame["you"]["role"], frame["you"]["seat"]
        self.seats = frame["seats"]
        self.timers = frame["room"]["options"]["timers"]
        hand = frame["hand"]
        self.hand_id, self.version = (hand["id"], hand["version"]) if hand else (None, None)
        if hand is not None and hand["running"]:
            STATES.keep(hand["id"], hand["version"], (state, hand["deadline"]))
        await self.send_json(frame)
