"""A seat's own action: `hand_act` (from a thread: a bot, a test) and `ahand_act` (from a
socket's event loop). Both are one path — the same checks, the engine applied once, the
same writes and broadcast (`rooms.services.hands`) — in two steps:

1. *On the held table* (`rooms.services.held`): the action is checked and applied to the
   room, hand and seats as this process last wrote them, with no lock and no query.
2. *Stored*, fenced by that table's token, in one round trip. From the event loop, on
   PostgreSQL, for a move that leaves the hand running, the loop sends it itself on one
   of its own connections (`baohuang.loop_database`) and announces it (the Celery tasks
   it opens are queued from a thread: `baohuang.after_commit`); anything else is stored
   from a database thread (`_held_store`).

A table not held here, an action the held table refuses (the locked path gives the
answer, or finds a re-sent frame's first one) and a fence that failed take the locked
path (`_locked_act`): the room locked, the rows read, the action applied to them.
"""

from contextlib import nullcontext
from dataclasses import dataclass

import psycopg
from django.db import IntegrityError, transaction

from baohuang import engine, loop_database
from baohuang.after_commit import committed
from baohuang.errors import ServiceError
from rooms.event_frames import FRAMES
from rooms.models import Hand, HandEvent, Player, Room, Seat
from rooms.records import epoch_ms
from rooms.services import moves
from rooms.services.common import lock_table_of_hand
from rooms.services.hands import HandChange, act, advance, announce, store, stored, writes
from rooms.services.held import HELD, locked_token, token_of
from rooms.threads import db


def hand_act(*, hand_id: int, seat: int, action: dict, expected_version: int, client_id: str | None = None,
             player: Player | None = None) -> HandChange:
    """A seat plays, passes, bids or declares (`action` as in the engine contract).

    `expected_version` is the version the client saw: if the hand moved since, nothing is
    applied (`stale_version`). When `player` is given it must be the one in `seat`. An
    action re-sent with a `client_id` already applied for the seat gets the earlier result
    back (`repeated`), never applied twice.
    """
    arguments = _arguments(hand_id, seat, action, expected_version, client_id, player)
    return _settle(_on_held_table(**arguments), arguments)


async def ahand_act(*, hand_id: int, seat: int, action: dict, expected_version: int, client_id: str | None = None,
                    player: Player | None = None) -> HandChange:
    """`hand_act` from an event loop."""
    arguments = _arguments(hand_id, seat, action, expected_version, client_id, player)
    move = _on_held_table(**arguments)
    if move is not None and move.loop_may_store():
        change = await _loop_store(move)
        if change is not None:
            return change
        move = None  # nothing written: the locked path reads the rows
    return await db(_settle)(move, arguments)


def _arguments(hand_id, seat, action, expected_version, client_id, player) -> dict:
    if client_id is not None:
        client_id = str(client_id)[:64]
    return dict(hand_id=hand_id, seat=seat, action=action, expected_version=expected_version, client_id=client_id,
                player=player)


@dataclass
class _Move:
    """An action applied to the held table, not stored yet."""

    room: Room
    hand: Hand
    seats: list[Seat]
    action: dict
    event: dict
    arm: bool  # the decision now open needs a timer message
    fence: tuple  # the held table's token before the action
    client_id: str | None

    @property
    def last(self) -> bool:
        return engine.result(self.hand.state) is not None

    def loop_may_store(self) -> bool:
        """Whether the event loop may store and announce it itself: on PostgreSQL, when the
        hand goes on (its last move is scored in the move's transaction)."""
        return loop_database.usable() and not self.last


def _on_held_table(*, hand_id, seat, action, expected_version, client_id, player) -> _Move | None:
    """The action applied to the table as this process's last write left it, or None when
    no table is held or the held table refuses it. No query; the table leaves the cache."""
    held = HELD.take(hand_id)
    if held is None:
        return None
    room, hand, seats = held
    fence = token_of(room, hand, seats)
    try:
        _may_act(hand, seats, seat, expected_version, player)
        action = _action_for(seat, action)
        event, arm = advance(room, hand, seats, action)
    except ServiceError:
        return None
    return _Move(room, hand, seats, action, event, arm, fence, client_id)


async def _loop_store(move: _Move) -> HandChange | None:
    """Store `move` from the event loop, fenced, and announce it; None when nothing was
    written (the fence failed, the client_id is taken, or the connection failed — then
    whether it committed is unknown, and the locked path finds out). While PostgreSQL
    stores it, the loop builds its `event` frames (`rooms.event_frames`), kept only once
    it has committed."""
    hand, texts = move.hand, {}
    deadline = epoch_ms(hand.deadline)

    def build_frames():
        texts.update(FRAMES.ahead(hand.pk, hand.version, move.event, hand.state, deadline))

    try:
        if not await moves.astore_move(**writes(hand, move.action, move.event, client_id=move.client_id,
                                                by_trustee=False), fence=move.fence, meanwhile=build_frames):
            return None
    except (psycopg.IntegrityError, psycopg.OperationalError):
        return None
    FRAMES.keep(hand.pk, hand.version, deadline, texts)
    with committed():
        event = stored(hand, move.seats, move.action, move.event, by_trustee=False)
        return announce(move.room, hand, move.seats, HandChange(hand=hand, events=[event]), move.arm)


def _settle(move: _Move | None, arguments: dict) -> HandChange:
    """From a database thread: store `move` (`_held_store`), or take the locked path."""
    try:
        change = _held_store(move) if move is not None else None
        return change if change is not None else _locked_act(**arguments)
    except IntegrityError:
        # The client_id is already stored for this seat, though the rest of the re-sent
        # frame was acceptable now (an action legal again at a later version): the unique
        # constraint refused the second copy and rolled it back.
        client_id, seat = arguments["client_id"], arguments["seat"]
        if client_id is None:
            raise
        with transaction.atomic():
            _room, hand, _seats = lock_table_of_hand(arguments["hand_id"])
            repeated = _previous_answer(hand, seat, client_id)
        if repeated is None:
            raise
        return repeated


def _held_store(move: _Move) -> HandChange | None:
    """Store `move` fenced by its table's token, with no lock and no transaction of ours;
    the hand's last move takes the room lock instead, checks the token under it, then
    stores and scores the hand in one transaction. None, with nothing written, when the
    table changed since."""
    last = move.last
    with transaction.atomic() if last else nullcontext():
        if last and locked_token(move.hand.pk) != move.fence:
            return None
        event = store(move.hand, move.seats, move.action, move.event, client_id=move.client_id, by_trustee=False,
                      fence=None if last else move.fence)
        if event is None:
            return None
        return announce(move.room, move.hand, move.seats, HandChange(hand=move.hand, events=[event]), move.arm)


@transaction.atomic
def _locked_act(*, hand_id, seat, action, expected_version, client_id, player) -> HandChange:
    room, hand, seats = lock_table_of_hand(hand_id)
    # A re-sent frame carries the version it was first sent at: once applied, the hand
    # has moved past it. Only a frame that cannot be applied now searches the log for
    # its client_id, so a fresh action costs no lookup.
    if not hand.running or hand.version != expected_version:
        if (repeated := _previous_answer(hand, seat, client_id)) is not None:
            return repeated
    _may_act(hand, seats, seat, expected_version, player)
    try:
        return act(room, hand, seats, _action_for(seat, action), client_id=client_id)
    except ServiceError:  # the engine refused it (before anything was written)
        if (repeated := _previous_answer(hand, seat, client_id)) is not None:
            return repeated
        raise


def _may_act(hand: Hand, seats: list[Seat], seat: int, expected_version: int, player: Player | None) -> None:
    """Refuse an action the table cannot take from `seat` now (before the engine's checks)."""
    if not hand.running:
        raise ServiceError("no_hand", "This hand has ended.")
    if hand.version != expected_version:
        raise ServiceError("stale_version", f"The hand has moved on (version {hand.version}); refresh and try again.",
                           {"version": hand.version})
    if not isinstance(seat, int) or not 0 <= seat < len(seats):
        raise ServiceError("bad_seat", "Seats are numbered 0 to 4.")
    mine = seats[seat]
    if mine.left or (player is not None and mine.player_id != player.pk):
        raise ServiceError("not_seated", "You are not seated there.")
    if mine.trustee:
        # While 托管 is on the policy plays for the seat; the player turns it off first.
        if mine.trustee_locked:
            raise ServiceError("trustee_locked", "托管 is locked on for the rest of this hand.")
        raise ServiceError("trustee_on", "托管 is on: turn it off to play yourself.")


def _action_for(seat: int, action) -> dict:
    if not isinstance(action, dict):
        raise ServiceError("bad_action", "An action is an object like {\"type\": \"pass\"}.")
    if action.get("seat", seat) != seat:
        raise ServiceError("bad_action", "The action names another seat.")
    return {**action, "seat": seat}


def _previous_answer(hand: Hand, seat: int, client_id: str | None) -> HandChange | None:
    """A re-sent action (same client_id from the same seat) gets the earlier result back."""
    if client_id is None:
        return None
    earlier = HandEvent.objects.filter(hand=hand, seat=seat, client_id=client_id).first()
    if earlier is None:
        return None
    # Its decision's deadline is known only while the hand still waits at that version.
    deadline = epoch_ms(hand.deadline) if earlier.version == hand.version else None
    return HandChange(hand=hand, events=[{"version": earlier.version, "event": earlier.event, "deadline": deadline}],
                      repeated=True)
