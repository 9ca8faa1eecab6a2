"""The engine state of live hands at their recent versions, held by each server process.

A hand's state at a version never changes (the engine is deterministic and a version is
stored once), so any copy of it is as good as the stored row: sockets of this process use
it to build the views that go with each event without reading the database.
"""

import asyncio
from collections import OrderedDict

from baohuang import engine
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
