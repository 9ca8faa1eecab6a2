"""Live play over WebSockets: one `RoomConsumer` per socket (protocol: docs/protocol.md).

The consumer is a thin interface: it reads a frame (`rooms.frames`), calls one service
through `db`, and sends what the engine built for its recipient — `engine.view` /
`engine.event_view`, never the raw state or event. Writes and their broadcasts belong to
`rooms.services` / `rooms.notify`, reads to `rooms.selectors`.
"""

import asyncio
import logging
import time
import uuid
from collections import deque

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer

from baohuang import broadcast, engine
from baohuang.errors import ServiceError
from rooms import frames, openings, presence, telemetry
from rooms.event_frames import FRAMES, VISITOR, encode
from rooms.heartbeats import heartbeat
from rooms.hand_states import STATES
from rooms.models import Room
from rooms.notify import room_group
from rooms.room_pictures import PICTURES
from rooms.selectors import RoomPicture, missed_events, now_ms, room_find, snapshot, snapshot_of
from rooms.services import ahand_act, chat_say, seat_free, seat_leave, seat_ready, trustee_set
from rooms.services.moderation import ban_refusal
from rooms.threads import db, presence_thread

log = logging.getLogger(__name__)

RATE_LIMIT = 20  # client messages per RATE_WINDOW seconds; one more closes with 1008
RATE_WINDOW = 1.0

CLOSE_POLICY = 1008
CLOSE_FORBIDDEN = 4403
CLOSE_NO_ROOM = 4404
CLOSE_GONE = 4410


class InboxConsumer(AsyncWebsocketConsumer):
    """A socket whose frames and group broadcasts (`baohuang.broadcast`, delivered to
    `inbox`) wait in one queue, so the consumer handles them one at a time, in the order
    they came. A frame is read off the connection as it arrives and passed to `arrival`
    first. The consumer leaves its group (`self.group`) when it ends, however it ends.

    It takes the place of Channels' `AsyncConsumer.__call__`, which waits on its one
    source through `await_many_dispatch`: a new task and an `asyncio.wait` for every
    message, a tenth of the server's CPU per move here. With no channel layer there is
    one queue to read, so the consumer simply awaits it.

    It dispatches without Channels' `aclose_old_connections()` before every message: that
    is a hop through Channels' single sync thread for each frame and each broadcast. These
    consumers never touch the database on the event loop: every query runs through `db`,
    whose thread closes stale connections before and after, so the hop buys nothing."""

    joined = False  # a member of `self.group`
    gone = False  # the client's disconnect has arrived (it may still wait in the queue)

    async def __call__(self, scope, receive, send):
        self.scope = scope
        self.channel_layer = None  # broadcasts come through `baohuang.broadcast`
        self.base_send = send
        queue: asyncio.Queue = asyncio.Queue()
        self.inbox = queue.put_nowait

        async def pump():
            try:
                while True:
                    message = await self.arrival(await receive())
                    if message is None:
                        continue
                    queue.put_nowait(message)
                    if message["type"] == "websocket.disconnect":
                        self.gone = True
                        return
            except Exception:
                queue.put_nowait({"type": "websocket.disconnect", "code": 1011})  # end the consumer too
                raise

        reader = asyncio.create_task(pump())
        try:
            while True:
                await self.dispatch(await queue.get())
        except StopConsumer:
            pass
        finally:
            reader.cancel()
            await self.leave_group()

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def arrival(self, message: dict) -> dict | None:
        """The message as it goes into the queue, or None when it was dealt with already."""
        return message

    async def join_group(self, group: str) -> None:
        self.group = group
        await broadcast.join(group, self.inbox)
        self.joined = True

    async def leave_group(self) -> None:
        if self.joined:
            self.joined = False
            await broadcast.leave(self.group, self.inbox)


class RoomConsumer(InboxConsumer):
    """One socket watching or playing in one room (`/ws/rooms/<id>/`)."""

    async def connect(self):
        self.room_id = self.scope["url_route"]["kwargs"]["room_id"]
        self.socket_id = uuid.uuid4().hex  # names this socket's presence entry in Redis
        user = self.scope.get("user")
        self.user = user if user is not None and user.is_authenticated else None
        self.role, self.seat, self.seats = "spectator", None, []
        self.hand_id, self.version, self.hand_running = None, None, False
        self.ready = False
        self.recent = deque()  # arrival times of recent frames, for the rate limit
        self.closing = False
        self.counted = False  # in telemetry.OPEN_SOCKETS
        async with openings.gate():  # accepted when its snapshot is a moment away
            if not self.gone:  # else its page gave up waiting: the disconnect is next
                await self._open()

    async def _open(self):
        room = await db(room_find)(self.room_id)
        refusal = self._refusal(room)
        await self.accept()
        self.counted = True
        telemetry.OPEN_SOCKETS.inc()
        if refusal is not None:
            code, error, message = refusal
            await self.send_error(error, message)
            await self.close(code=code)
            return
        # Join before reading the snapshot, so nothing committed after it is missed
        # (anything up to the snapshot's version is dropped as a duplicate).
        await self.join_group(room_group(self.room_id))
        if self.user is not None:
            # Live first, then online: the presence sweep never sees this seat online
            # without a live socket behind it (rooms/presence.py).
            await self._presence_call(presence.socket_alive)
            heartbeat().add(self.socket_id, room_id=self.room_id, player_id=self.user.pk)
            await self.send_snapshot(picture=await db(presence.seat_connected_picture)(
                room_id=self.room_id, player=self.user))
        else:
            await self.send_snapshot()
        self.ready = True  # pings may be answered as they arrive (`_answer_ping`)

    def _refusal(self, room):
        banned = ban_refusal(self.user)
        if banned is not None:
            return (CLOSE_FORBIDDEN, *banned)
        if room is None:
            return CLOSE_NO_ROOM, "no_room", "There is no such room."
        if room.status == Room.Status.DISSOLVED:
            return CLOSE_GONE, "room_closed", "This room has been dissolved."
        if self.user is None and not room.options.get("allow_spectators", True):
            return CLOSE_FORBIDDEN, "spectators_not_allowed", "This room does not allow spectators: sign in to join."
        return None

    async def disconnect(self, code):
        if self.counted:
            telemetry.OPEN_SOCKETS.dec()
        if self.joined:
            await self.leave_group()
            if self.user is not None:
                heartbeat().discard(self.socket_id)
                await self._presence_call(presence.socket_gone)
            if self.role == "player":
                await db(presence.seat_disconnected)(room_id=self.room_id, player=self.user)

    async def _presence_call(self, function) -> None:
        """A live-socket entry in Redis: a failure is logged, never allowed to cost the
        socket (the sweep errs towards showing a seat offline, which its socket repairs)."""
        try:
            await presence_thread(function)(room_id=self.room_id, player_id=self.user.pk, socket=self.socket_id)
        except Exception:
            log.warning("room %s: presence entry for player %s failed", self.room_id, self.user.pk, exc_info=True)

    # -- frames from the client ----------------------------------------------------------

    async def arrival(self, message: dict) -> dict | None:
        """Each frame is stamped with its arrival time: the rate limit counts arrivals, not
        the moments a busy consumer gets round to them (a lag must not turn a steady 18/s
        into a burst of 21). A ping is answered at once (`_answer_ping`)."""
        message = {**message, "arrived": time.monotonic()}
        if message["type"] == "websocket.receive" and await self._answer_ping(message):
            return None
        return message

    async def _answer_ping(self, message) -> bool:
        """A well-formed `ping` is answered as it arrives, ahead of frames still waiting for
        the database, so a page whose move is slow to store never mistakes the wait for a
        cut line (docs/protocol.md "Heartbeat"). It counts towards the rate limit like any
        frame. True when answered; anything else goes to `receive` in order."""
        text = message.get("text")
        if not getattr(self, "ready", False) or self.closing or not text or len(text) > 200 or "ping" not in text:
            return False
        try:
            frame = frames.read(text)
        except frames.BadInput:
            return False  # `receive` answers the refusal
        if frame.type != "ping" or self._over_rate(message["arrived"]):
            return False  # over the limit, `receive` closes the socket
        await self.on_ping(frame.client_id, **frame.fields)
        return True

    async def websocket_receive(self, message):
        self.arrived = message["arrived"]
        await super().websocket_receive(message)

    async def close(self, code=None, reason=None):
        self.closing = True  # nothing more is sent on this socket: no frame may follow the close
        await super().close(code=code, reason=reason)

    async def receive(self, text_data=None, bytes_data=None):
        if self.closing:
            return
        if self._over_rate(self.arrived):
            await self.close(code=CLOSE_POLICY)
            return
        client_id = None
        try:
            frame = frames.read(text_data)
            client_id = frame.client_id
            started = time.monotonic()
            await getattr(self, f"on_{frame.type}")(client_id, **frame.fields)
            if frame.type == "act":
                telemetry.ACTION_SECONDS.observe(time.monotonic() - started)
        except frames.BadInput as error:  # the frame's own (read) or a handler's (not_seated, …)
            await self.send_error(error.code, error.message, error.client_id or client_id, error.params)
        except ServiceError as error:
            await self.send_error(error.code, error.message, client_id, error.params)
            if error.code == "stale_version":
                await self.send_snapshot()
        except Exception:
            log.exception("room %s: frame failed", self.room_id)
            await self.send_error("server_error", "Something went wrong on the server; nothing was changed.",
                                  client_id)

    def _over_rate(self, now: float) -> bool:
        """Count a frame that reached the server at `now` (`__call__`'s stamp)."""
        self.recent.append(now)
        while self.recent and self.recent[0] <= now - RATE_WINDOW:
            self.recent.popleft()
        return len(self.recent) > RATE_LIMIT

    def _player(self):
        if self.user is None:
            raise frames.BadInput("not_signed_in", "Sign in to take part.")
        return self.user

    def _my_seat(self) -> int:
        self._player()
        if self.seat is None:
            raise frames.BadInput("not_seated", "You are not seated in this room.")
        return self.seat

    async def on_sit(self, client_id, *, index):
        await db(presence.seat_take_online)(room_id=self.room_id, player=self._player(), index=index)
        await self.send_ack(client_id)

    async def on_leave(self, client_id):
        self._my_seat()
        await db(seat_leave)(room_id=self.room_id, player=self.user)
        await self.send_ack(client_id)

    async def on_ready(self, client_id, *, on):
        self._my_seat()
        hand = await db(seat_ready)(room_id=self.room_id, player=self.user, on=on)
        if hand is None:
            await self.send_ack(client_id)
        else:
            await self.send_ack(client_id, hand.version)  # the last to be ready dealt it

    async def on_free(self, client_id, *, index):
        self._my_seat()
        await db(seat_free)(room_id=self.room_id, player=self.user, index=index)
        await self.send_ack(client_id)

    async def on_act(self, client_id, *, action, expected_version):
        seat = self._my_seat()
        if self.hand_id is None:
            raise frames.BadInput("no_hand", "No hand is being played.")
        change = await ahand_act(hand_id=self.hand_id, seat=seat, action=action, expected_version=expected_version,
                                 client_id=client_id, player=self.user)
        if client_id is None:
            return
        # The table hears the move before its mover's ack (docs/protocol.md: either order):
        # the ack joins this socket's inbox once the sockets that the broadcast woke have
        # had their turn, so it is not sent while the table waits for the move.
        answer = {"type": "act.answered", "client_id": client_id, "version": change.events[-1]["version"],
                  "repeated": change.repeated}
        asyncio.get_running_loop().call_soon(self.inbox, answer)

    async def act_answered(self, message):
        await self.send_ack(message["client_id"], message["version"], repeated=message["repeated"])

    async def on_trustee(self, client_id, *, on):
        seat = self._my_seat()
        await db(trustee_set)(room_id=self.room_id, seat=seat, on=on, player=self.user)
        await self.send_ack(client_id)

    async def on_chat(self, client_id, *, text, phrase):
        await db(chat_say)(room_id=self.room_id, player=self._player(), text=text, phrase=phrase)
        await self.send_ack(client_id)

    async def on_ping(self, client_id, *, t):
        await self.send_json({"type": "pong", "t": t, "server_time": now_ms()})

    async def on_sync(self, client_id, *, version, hand):
        hand_id = hand or self.hand_id
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
            await self.send_text(self._event_text(hand_id, number, event, missed["state"] if last else None,
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
            await self.send_text(self._event_text(hand_id, version, item["event"], state, deadline))
            self.version = version

    def _event_text(self, hand_id: int, version: int, event: dict, state: dict | None, deadline) -> str:
        """One `event` frame for this socket's kind of recipient, as text (shared by every
        socket of that kind in this process: `rooms.event_frames`)."""
        kind = VISITOR if self.role == "visitor" else self.seat
        return FRAMES.text(hand_id, version, event, state, deadline, kind)

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
        elif change == "ready":
            await self._send_presence(message["seat"], ready=message["on"])
        elif change == "trustee":
            await self._send_presence(message["seat"], trustee=message["on"], trustee_locked=message["locked"],
                                      trustee_entries=message["entries"])
        else:
            await self.send_snapshot(after=message)  # the table changed shape: seats, a deal, an end

    async def _send_presence(self, index: int, **flags) -> None:
        if not 0 <= index < len(self.seats):
            return
        self.seats[index].update(flags)
        dissolves = self.hand_running and any(seat["trustee"] for seat in self.seats)
        await self.send_json({"type": "presence", "seat": dict(self.seats[index]), "dissolves": dissolves})

    async def chat_message(self, message):
        if self.role == "visitor":
            return  # the room's chat is for those who may watch it
        await self.send_json({key: message[key] for key in ("player", "seat", "text", "phrase", "at")}
                             | {"type": "chat"})

    # -- sending -------------------------------------------------------------------------

    async def send_json(self, frame: dict) -> None:
        await self.send_text(encode(frame))

    async def send_text(self, text: str) -> None:
        if self.closing:
            return  # e.g. a presence broadcast reaching a socket just closed with 1008
        await self.send(text_data=text)

    async def send_error(self, code: str, message: str, client_id: str | None = None,
                         params: dict | None = None) -> None:
        telemetry.ERRORS.labels(code).inc()
        await self.send_json({"type": "error", "code": code, "message": message, "params": params or {},
                              "client_id": client_id})

    async def send_ack(self, client_id: str | None, version=..., *, repeated: bool = False) -> None:
        if client_id is None:
            return
        if version is ...:
            version = self.version
        await self.send_json({"type": "ack", "client_id": client_id, "version": version, "repeated": repeated})

    async def send_snapshot(self, after: dict | None = None, picture: RoomPicture | None = None) -> None:
        """A new snapshot for this socket; `after` a broadcast, from the room as read once
        for all the sockets of this process it reached (`rooms.room_pictures`); from
        `picture` when the caller has read the room."""
        if picture is not None:
            frame, state = snapshot_of(picture, self.user)
        elif after is None:
            frame, state = await db(snapshot)(self.room_id, self.user)
        else:
            frame, state = snapshot_of(await PICTURES.after(after, self.room_id), self.user)
        self.role, self.seat = frame["you"]["role"], frame["you"]["seat"]
        self.seats = frame["seats"]
        hand = frame["hand"]
        self.hand_id, self.version = (hand["id"], hand["version"]) if hand else (None, None)
        self.hand_running = hand is not None and hand["running"]
        if hand is not None and hand["running"]:
            STATES.keep(hand["id"], hand["version"], (state, hand["deadline"]))
        await self.send_json(frame)
