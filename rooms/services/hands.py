"""Hands: deal, apply and store actions, act for an absent seat (托管 / timeout), and
finish (a seat's own action comes through `rooms.services.acting`).

The engine (`baohuang.engine`) decides everything about the game; these services store
its state and events, keep the seats' 托管 flags, write the ledger when a hand ends and
announce changes after commit.
"""

import secrets
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from baohuang import engine
from baohuang.engine.fairness import new_salt
from baohuang.errors import ServiceError
from rooms import levels, notify, telemetry
from rooms.levels import DEFAULT_TRUSTEE_LEVEL
from rooms.models import Hand, Room, Seat
from rooms.options import engine_options
from rooms.records import epoch_ms
from rooms.services import moves, schedule
from rooms.services.common import (dissolve, lock_room, lock_table_of_hand, open_room, ready_clock, running_hand,
                                   table)
from rooms.services.held import HELD
from scoring import services as scoring
from scoring.selectors import open_debts

ACT_FOR_REASONS = ("timeout", "trustee")


@dataclass
class HandChange:
    """What a hand service changed.

    `events` are `{"version", "event", "deadline"}` dicts (`event` is the full engine
    truth: redact before sending; `deadline` is when the decision then open times out, in
    epoch ms, or None);
    `next_hand` is the redeal after a void hand (黄庄); `repeated` is True when a re-sent
    client_id returned the earlier result without applying anything.
    """

    hand: Hand
    events: list[dict] = field(default_factory=list)
    next_hand: Hand | None = None
    repeated: bool = False

    @property
    def ended(self) -> bool:
        return not self.hand.running


# -- deadlines ---------------------------------------------------------------------


def decision_of(state: dict, deadline=None) -> tuple:
    """What identifies an open decision: its kind, declaration step, actors (and deadline)."""
    window = state.get("window") or {}
    return engine.decision_kind(state), window.get("step"), set(engine.actors(state)), deadline


def _deadline(room: Room, state: dict, previous: tuple | None = None):
    """When the decision now open times out (None when nothing is awaited).

    Inside one step of the declaration window the deadline stays put while the remaining
    seats answer: the step is one decision with one timer (RULES §6: the window closes
    when every seat has answered or its timer ends), not one timer per answer.
    """
    if previous is not None and keeps_deadline(state, previous):
        return previous[3]
    return new_deadline(room.options["timers"], state)


def keeps_deadline(state: dict, previous: tuple) -> bool:
    """Does the decision now open keep the deadline of `previous` (see `_deadline`)?"""
    kind, step, actors, _ = decision_of(state)
    old_kind, old_step, old_actors, old_deadline = previous
    return bool(kind == old_kind == "declare" and step == old_step and actors <= old_actors and old_deadline)


def new_deadline(timers: dict, state: dict):
    """A fresh deadline for the decision now open, from the room's timers (or None)."""
    kind = engine.decision_kind(state)
    return None if kind is None else timezone.now() + timedelta(seconds=timers[kind])


# -- dealing -----------------------------------------------------------------------


def new_seed() -> int:
    """A fresh deal's random seed (stored with the hand, which replays from it)."""
    return secrets.randbits(62)


def _deal(room: Room, seats: list[Seat], *, tribute: list[dict]) -> Hand:
    """Create the room's next hand (caller holds the lock)."""
    number = (Hand.objects.filter(room=room).aggregate(n=Max("number"))["n"] or 0) + 1
    seed, salt = new_seed(), new_salt()
    options = engine_options(room.options)
    state = engine.new_hand(room.preset, seed, options=options, tribute=tuple(tribute), salt=salt)
    hand = Hand(
        room=room,
        number=number,
        seed=seed,
        salt=salt,
        preset=room.preset,
        options=options,
        tribute=list(tribute),
        players=[seat.player_id for seat in seats],
        state=state,
        version=state["version"],
        phase=state["phase"],
        deadline=_deadline(room, state),
    )
    arm = schedule.timer_needed(hand, seats)
    if arm:
        hand.timer_at = hand.deadline
    hand.save(force_insert=True)
    telemetry.hand_started(hand)
    notify.room_changed(room_id=room.pk, change="hand_started", hand=hand.pk, number=number)
    schedule.after_commit(hand, seats, arm=arm)
    HELD.keep_after_commit(room, hand, seats)  # the hand's first move here need not read them back
    return hand


@transaction.atomic
def hand_start(*, room_id: int) -> Hand:
    """Deal the next hand now, ready or not, once five players sit (players deal by
    pressing 准备: `deal_if_ready`); pays open 进贡 debts in cards (qingdao)."""
    room = lock_room(room_id)
    open_room(room)
    if running_hand(room) is not None:
        raise ServiceError("hand_running", "A hand is already being played.")
    seats = table(room)
    if any(seat.player_id is None for seat in seats):
        raise ServiceError("not_full", "The table needs five players.")
    return _deal_next(room, seats)


def deal_if_ready(room: Room, seats: list[Seat]) -> Hand | None:
    """准备: deal, in the caller's transaction, when all five seats are taken and ready
    (bots always are). Caller holds the lock and has checked that no hand runs."""
    if all(seat.player_id is not None and seat.ready for seat in seats):
        return _deal_next(room, seats)
    return None


def _deal_next(room: Room, seats: list[Seat]) -> Hand:
    for seat in seats:  # 托管 entries are counted per hand; 准备 is asked again after it
        seat.trustee = False
        seat.trustee_entries = 0
        seat.ready = seat.player.is_bot
        seat.save(update_fields=["trustee", "trustee_entries", "ready"])
    seat_index = {seat.player_id: seat.index for seat in seats}
    debts = list(open_debts(room=room)) if engine.preset_named(room.preset).tribute else []
    hand = _deal(room, seats, tribute=[debt.as_engine_debt(seat_index) for debt in debts])
    scoring.debts_mark_paid(debts=debts, hand=hand)
    room.status = Room.Status.PLAYING
    room.ready_due = None
    room.save(update_fields=["status", "ready_due", "updated"])
    return hand


# -- acting ------------------------------------------------------------------------


def advance(room: Room, hand: Hand, seats: list[Seat], action: dict) -> tuple[dict, bool]:
    """Apply one action to `hand` through the engine: its state, version, phase, deadline
    and timer. Returns the engine's event, and whether the decision now open needs a new
    timer message (`rooms.services.schedule.timer_needed`; its time is stored with the state)."""
    state = hand.state
    previous = decision_of(state, hand.deadline)
    try:
        new_state, event = engine.apply(state, action)
    except engine.IllegalAction as error:
        raise ServiceError(error.code, error.message, error.params) from None
    hand.state = new_state
    hand.version = new_state["version"]
    hand.phase = new_state["phase"]
    hand.deadline = _deadline(room, new_state, previous)
    arm = schedule.timer_needed(hand, seats)
    if arm:
        hand.timer_at = hand.deadline
    return event, arm


def store(hand: Hand, seats: list[Seat], action: dict, event: dict, *, client_id: str | None, by_trustee: bool,
          fence: tuple | None = None) -> dict | None:
    """Append the action's event and store the hand as `advance` left it (with `fence`,
    only if the stored table still has that token: `moves.store_move`). Returns the event
    as broadcast, or None when the fence failed and nothing was written."""
    if not moves.store_move(**writes(hand, action, event, client_id=client_id, by_trustee=by_trustee), fence=fence):
        return None
    return stored(hand, seats, action, event, by_trustee=by_trustee)


def writes(hand: Hand, action: dict, event: dict, *, client_id: str | None, by_trustee: bool) -> dict:
    """`moves.store_move`'s arguments for the action `advance` applied to `hand`."""
    return dict(hand=hand, seat=action["seat"], action=action, event=event, public=engine.event_view(event, None),
                client_id=client_id, by_trustee=by_trustee)


def stored(hand: Hand, seats: list[Seat], action: dict, event: dict, *, by_trustee: bool) -> dict:
    """The action's writes are stored: count it (after commit), and give its event as broadcast."""
    player = seats[action["seat"]].player
    telemetry.move_stored(by="trustee" if by_trustee else "bot" if player and player.is_bot else "player")
    # The deadline rides with the broadcast so live sockets can show the countdown without
    # reading the hand back.
    return {"version": hand.version, "event": event, "deadline": epoch_ms(hand.deadline)}


def _finish(room: Room, hand: Hand, seats: list[Seat]) -> Hand | None:
    """The hand has ended: score it, record debts, dissolve or reopen; redeal a void hand.

    Returns the redealt hand after a void one (黄庄, RULES §5), else None.
    """
    result = engine.result(hand.state)
    hand.result = result
    hand.ended = timezone.now()
    hand.deadline = None
    if result.get("void"):
        hand.save(update_fields=["result", "ended", "deadline"])
        telemetry.hand_finished(hand)
        notify.room_changed(room_id=room.pk, change="hand_ended", hand=hand.pk, void=True)
        # Same table, same debts: the cards they paid in the void deal went back in the
        # deck, so the redeal pays them again and the debts count as paid by it.
        redeal = _deal(room, seats, tribute=hand.tribute)
        hand.debts_paid.update(paid_in=redeal)
        return redeal
    # RULES §8 [decision]: a hand that ends with every seat under 托管 is not scored, and
    # so creates no 进贡 debts either (tribute is part of the hand's score).
    hand.scored = not all(seat.trustee for seat in seats)
    hand.save(update_fields=["result", "ended", "deadline", "scored"])
    telemetry.hand_finished(hand)
    if hand.scored:
        scoring.hand_score(hand=hand, scores=result["scores"])
        if engine.preset_named(hand.preset).tribute:
            scoring.debts_create(hand=hand, debts=result.get("tribute") or [])
    notify.room_changed(room_id=room.pk, change="hand_ended", hand=hand.pk, void=False, scored=hand.scored)
    if any(seat.trustee for seat in seats):
        dissolve(room, seats, reason="a seat was under 托管 at the end of the hand")  # RULES §8
    else:
        room.status = Room.Status.OPEN
        # 准备 for the next hand (the deal reset the flags), in the same UPDATE
        ready_clock(room, seats, saving=("status", "updated"), running=False)
    return None


def act(room: Room, hand: Hand, seats: list[Seat], *actions: dict, client_id=None, by_trustee=False) -> HandChange:
    """Apply and store ``actions`` one after the other (the room locked), then announce them."""
    change = HandChange(hand=hand)
    for action in actions:
        event, arm = advance(room, hand, seats, action)
        change.events.append(store(hand, seats, action, event, client_id=client_id, by_trustee=by_trustee))
    return announce(room, hand, seats, change, arm)


def announce(room: Room, hand: Hand, seats: list[Seat], change: HandChange, arm: bool) -> HandChange:
    """After storing `change`'s events: announce them, then finish the hand or open what comes next."""
    notify.hand_events(room_id=room.pk, hand_id=hand.pk, events=change.events, state=hand.state)
    if engine.result(hand.state) is not None:
        change.next_hand = _finish(room, hand, seats)
    else:
        schedule.after_commit(hand, seats, arm=arm)
        HELD.keep_after_commit(room, hand, seats)  # the next move here need not read them back
    return change


@transaction.atomic
def hand_window_close(*, hand_id: int, version: int) -> HandChange | None:
    """表态 window: its step's deadline has passed, so every seat still pending answers
    with its silent choice (`engine.silent_declaration`), in seat order, and the step
    closes. RULES §8 [decision]: silence is an answer — nobody enters 托管 for it, and
    the events are the seats' own answers (`by_trustee` False).

    A no-op returning None when the hand moved past `version`, has ended or is not in the
    declaration window. Only the deadline calls this: answering early for the seats with
    nothing to say would show who has something to say (the guard).
    """
    try:
        room, hand, seats = lock_table_of_hand(hand_id)
    except ServiceError:
        return None
    if not hand.running or hand.version != version or engine.decision_kind(hand.state) != "declare":
        return None
    silent = [engine.silent_declaration(hand.state, seat) for seat in engine.actors(hand.state)]
    return act(room, hand, seats, *silent)


def hand_act_for(*, hand_id: int, seat: int, version: int, reason: str) -> HandChange | None:
    """Act for a seat with the room's 托管 level (`rooms.levels`, room option ``trustee_level``).

    For timers of bids and plays (`reason="timeout"`: the seat's deadline passed, so it
    enters 托管; a declaration deadline is `hand_window_close`'s) and for
    seats already under 托管 (`reason="trustee"`). A no-op returning None when the hand
    moved past `version`, has ended, the seat is not awaited, or (for "trustee") 托管 was
    turned off meanwhile — so a late or duplicated timer message is harmless.

    The level decides first, from the hand as read, with no lock held and outside any
    transaction of ours (a search spends `BOT_SEARCH_SECONDS`: the table must not wait
    for it); the move is then stored only if the hand is still at `version`.
    """
    if reason not in ACT_FOR_REASONS:
        raise ServiceError("bad_reason", f"reason must be one of {', '.join(ACT_FOR_REASONS)}.")
    hand = Hand.objects.select_related("room").filter(pk=hand_id).first()
    if hand is None or not hand.running or hand.version != version or seat not in engine.actors(hand.state):
        return None
    if reason == "trustee" and not Seat.objects.filter(room_id=hand.room_id, index=seat, trustee=True).exists():
        return None
    level = hand.room.options.get("trustee_level", DEFAULT_TRUSTEE_LEVEL)
    action = levels.decide(hand.state, seat, level, search_seconds=settings.BOT_SEARCH_SECONDS,
                           paced=reason == "trustee")  # a timeout's deadline has passed already
    return _act_for(hand_id=hand_id, seat=seat, version=version, reason=reason, action=action)


@transaction.atomic
def _act_for(*, hand_id: int, seat: int, version: int, reason: str, action: dict) -> HandChange | None:
    """Store ``action``, decided for ``seat`` at ``version``, if the hand is still there."""
    try:
        room, hand, seats = lock_table_of_hand(hand_id)
    except ServiceError:
        return None
    if not hand.running or hand.version != version or seat not in engine.actors(hand.state):
        return None
    mine = seats[seat]
    if reason == "trustee" and not mine.trustee:
        return None
    if reason == "timeout" and not mine.trustee:
        mine.trustee = True  # RULES §8: a timeout puts the seat under 托管
        mine.trustee_entries += 1
        mine.save(update_fields=["trustee", "trustee_entries"])
        telemetry.trustee_entered("timeout")
        notify.room_changed(room_id=room.pk, change="trustee", seat=seat, on=True, locked=mine.trustee_locked,
                            entries=mine.trustee_entries)
    return act(room, hand, seats, action, by_trustee=True)
