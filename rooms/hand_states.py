"""The engine state of live hands at their recent versions, held by each server process.

A hand's state at a version never changes (the engine is deterministic and a version is
stored once), so any copy of it is as good as the stored row: sockets of this process use
it to build the views that go with each event without reading the database.
"""

import asyncio
import threading
from collections import OrderedDict

from baohuang import engine
from rooms import notify
from rooms.selectors import state_at
from rooms.threads import db


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

    A move written by this process leaves its new state here after commit, before the
    broadcast (`rooms.notify.on_hand_state`), so the engine runs once per move. An event
    written elsewhere usually follows a version this process holds: the engine replays it
    (no database read). Otherwise one read per process and version, shared by every
    socket that asks while it runs. Writers run on pool threads, hence the lock.
    """

    KEEP = 8  # versions kept per hand: enough for a recipient that lags a little
    HANDS = 1000  # hands kept: rooms long finished fall out

    def __init__(self):
        self._lock = threading.Lock()
        self._hands: OrderedDict[int, OrderedDict] = OrderedDict()
        self._loading: dict[tuple[int, int], asyncio.Future] = {}

    async def at(self, hand_id: int, version: int, item: dict | None = None):
        """`(state, deadline)` just after `version`, or None when the hand is gone.

        `item` is the broadcast `{"version", "event", "deadline"?}`: with the deadline
        it carries, the state can be replayed from the version before.
        """
        held, base = self._lookup(hand_id, version)
        if held is not None:
            return held
        if base is not None and base[0] == version - 1 and item is not None and "deadline" in item:
            after = replayed(base[1], item["event"])
            if after is not None:
                self.keep(hand_id, version, (after, item["deadline"]))
                return after, item["deadline"]
        key = (hand_id, version)
        future = self._loading.get(key)
        if future is None:
            future = asyncio.ensure_future(db(state_at)(hand_id, version, base))
            self._loading[key] = future
            future.add_done_callback(lambda done: self._loaded(key, done))
        return await asyncio.shield(future)

    def _lookup(self, hand_id: int, version: int) -> tuple[tuple | None, tuple | None]:
        """The held `(state, deadline)` at `version`, else None; and the latest earlier
        `(version, state)` held, to replay from (or None)."""
        with self._lock:
            versions = self._hands.get(hand_id) or {}
            if version in versions:
                return versions[version], None
            below = [each for each in versions if each < version]
            return None, (max(below), versions[max(below)][0]) if below else None

    def _loaded(self, key, future) -> None:
        self._loading.pop(key, None)
        if not future.cancelled() and future.exception() is None and future.result() is not None:
            self.keep(*key, future.result())

    def keep(self, hand_id: int, version: int, loaded: tuple) -> None:
        with self._lock:
            versions = self._hands.setdefault(hand_id, OrderedDict())
            self._hands.move_to_end(hand_id)
            versions[version] = loaded
            while len(versions) > self.KEEP:
                versions.popitem(last=False)
            while len(self._hands) > self.HANDS:
                self._hands.popitem(last=False)

    def written(self, *, hand_id: int, version: int, state: dict, deadline: int | None) -> None:
        """A move this process committed (called from the writer's thread)."""
        self.keep(hand_id, version, (state, deadline))


STATES = HandStates()
notify.on_hand_state(STATES.written)
