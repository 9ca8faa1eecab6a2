"""Reads of players, rooms, seats and hands (services do the writing), including the
pictures live sockets are sent: the `snapshot` and the events a client missed."""

import time
from dataclasses import dataclass

from baohuang import engine
from rooms.frames import PHRASES
from rooms.models import ChatMessage, Hand, HandEvent, Player, Room, Seat
from rooms.records import chat_record, epoch_ms, player_record, seat_record

CATCH_UP_MAX = 200  # events replayed on `sync`; further behind gets a snapshot
CHAT_HISTORY = 30  # the room's latest chat lines in every snapshot


def rooms_open():
    """Rooms a player can look at in the lobby, newest first."""
    return Room.objects.exclude(status=Room.Status.DISSOLVED).order_by("-created")


def bot_levels(room_ids: list[int]):
    """(room id, level) for each bot seated in those rooms."""
    return (Seat.objects.filter(room_id__in=room_ids, player__is_bot=True)
            .values_list("room_id", "player__bot_level"))


def may_watch(*, room: Room, user, hand: Hand | None = None, seats: list[Seat] | None = None) -> bool:
    """Whether `user` may follow the room's play from outside a seat: its spectator view,
    events and chat — on every path (socket, pages, API).

    Everyone when the room's option `allow_spectators` is on (the default). Off, only
    staff, the room's players (a seat, also one left mid-hand) and the players dealt into
    `hand`; a signed-in visitor sees the seats, to sit down, and nothing else. Given the
    room's `seats` (all of them, as read with the room), no query is made.
    """
    if room.options.get("allow_spectators", True):
        return True
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or (hand is not None and user.pk in hand.players):
        return True
    if seats is not None:
        return any(seat.player_id == user.pk for seat in seats)
    return Seat.objects.filter(room=room, player=user).exists()


def record_visible(hand: Hand, user) -> bool:
    """An ended hand's full record and replay: its players and staff, or everyone if the
    room keeps public records (option `public_records`). A running hand has none."""
    if hand.running:
        return False
    if hand.room.options.get("public_records", False):
        return True
    return bool(user is not None and user.is_authenticated and (user.is_staff or user.pk in hand.players))


def seat_of_player(*, room: Room, player) -> Seat | None:
    """The seat the player plays in this room (also while it plays on under 托管 after leaving)."""
    return Seat.objects.filter(room=room, player=player).first()


def hand_replay(*, hand: Hand) -> dict:
    """Rebuild the hand from its seed and stored actions (restart safety, admin check)."""
    actions = list(HandEvent.objects.filter(hand=hand).order_by("version").values_list("action", flat=True))
    return engine.replay(hand.preset, hand.seed, actions, options=hand.options, tribute=tuple(hand.tribute),
                         salt=hand.salt or None)


def hand_players(*, hand: Hand, seats: list[Seat]) -> list[dict | None]:
    """Who played the hand, by seat (`{"id", "name", "bot"}`): the score sheet names them
    even after the room is dissolved and its seats emptied. The room's `seats`, read with
    their players, usually hold them all; only the others are read."""
    found = {seat.player_id: seat.player for seat in seats if seat.player_id is not None}
    missing = [pk for pk in hand.players if pk and pk not in found]
    if missing:
        found |= {player.pk: player for player in Player.objects.filter(pk__in=missing)}
    return [None if pk not in found else player_record(found[pk]) for pk in hand.players]


def played_seat(*, hand: Hand, user) -> int | None:
    """The seat ``user`` played in an ended hand (None: not one of its players) — a player
    who left or whose room was dissolved still sees the end of its own hand."""
    if hand.running or user is None or not user.is_authenticated or user.pk not in hand.players:
        return None
    return hand.players.index(user.pk)


def now_ms() -> int:
    return int(time.time() * 1000)


def room_find(room_id: int) -> Room | None:
    return Room.objects.filter(pk=room_id).first()


def role_of(room: Room, seats: list, user) -> tuple[str, int | None]:
    """`player` (with its seat), `spectator` or `visitor` — see docs/protocol.md."""
    if user is not None and user.is_authenticated:
        for seat in seats:
            if seat.player_id == user.pk and not seat.left:
                return "player", seat.index
    if may_watch(room=room, user=user, seats=seats):
        return "spectator", None
    return "visitor", None


@dataclass(frozen=True)
class RoomPicture:
    """What every socket of a room is shown alike, read once (`room_picture`): the room,
    its seats with their players, its latest hand, the chat and who played that hand.
    Each socket's `snapshot` is made from it for its user (`snapshot_of`), with no query."""

    room: Room
    seats: list[Seat]
    hand: Hand | None
    chat: list[dict]  # the latest CHAT_HISTORY lines, oldest first
    players: list[dict | None] | None  # the hand's players by seat (`hand_players`)


def room_picture(room_id: int) -> RoomPicture:
    room = Room.objects.get(pk=room_id)
    return picture_of(room, list(room.seats.select_related("player").order_by("index")))


def picture_of(room: Room, seats: list[Seat]) -> RoomPicture:
    """`room_picture` of the room and its seats (by index, with their players) as the caller
    read them — a socket opening reads them once, under the lock that shows its seat online
    (`rooms.presence.seat_connected_picture`)."""
    hand = Hand.objects.filter(room=room).order_by("-number").first()
    return RoomPicture(
        room=room,
        seats=seats,
        hand=hand,
        chat=[chat_record(message) for message in reversed(
            ChatMessage.objects.filter(room=room).select_related("player").order_by("-id")[:CHAT_HISTORY])],
        players=None if hand is None else hand_players(hand=hand, seats=seats),
    )


def snapshot(room_id: int, user) -> tuple[dict, dict | None]:
    """The whole picture for this user now (the `snapshot` frame), and the engine state it
    was built from (None without a hand), which the socket keeps for the next event."""
    return snapshot_of(room_picture(room_id), user)


def snapshot_of(picture: RoomPicture, user) -> tuple[dict, dict | None]:
    """`snapshot` from a picture already read: the frame is the user's own (its seats are
    new dicts), the picture is not changed."""
    room, seats, hand = picture.room, picture.seats, picture.hand
    role, seat = role_of(room, seats, user)
    signed_in = user is not None and user.is_authenticated
    frame = {
        "type": "snapshot",
        "server_time": now_ms(),
        "room": {"id": room.pk, "name": room.name, "preset": room.preset, "status": room.status,
                 "options": room.options, "ready_due": epoch_ms(room.ready_due)},
        "you": {"player": player_record(user) if signed_in else None, "seat": seat, "role": role},
        "seats": [seat_record(each) for each in seats],
        "hand": None,
        "version": None,
        "phrases": PHRASES,
        "chat": [] if role == "visitor" else picture.chat,
    }
    if hand is not None:
        # An ended hand is shown as its own players saw it (the seat they played, even
        # after leaving it or the room's dissolution), never through a seat taken since.
        played = seat if hand.running else played_seat(hand=hand, user=user)
        frame["hand"] = {
            "id": hand.pk,
            "number": hand.number,
            "running": hand.running,
            "version": hand.version,
            "deadline": epoch_ms(hand.deadline),
            "players": picture.players,
            "seat": played,
            "dissolves": hand.running and any(each.trustee for each in seats),
            "view": None if role == "visitor" and played is None else engine.view(hand.state, played),
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


def state_at(hand_id: int, version: int, base: tuple | None) -> tuple[dict, int | None] | None:
    """The hand's engine state just after `version`, and the deadline then open.

    Usually the stored row is at that version. When play has already moved on, rebuild
    it: from `base` (an earlier `(version, state)` this process holds) plus the stored
    actions, or from the seed. The deadline of a superseded decision is None.
    """
    row = Hand.objects.filter(pk=hand_id).values(
        "version", "state", "deadline", "preset", "seed", "salt", "options", "tribute").first()
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
                              tribute=tuple(row["tribute"]), salt=row["salt"] or None)
    return state, None
