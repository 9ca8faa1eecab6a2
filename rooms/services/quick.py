"""Quick moves: an ordinary move stored in one round trip from the event loop.

Most moves of a hand are ordinary: a seated human plays, passes, bids or declares at the
version it saw, the hand goes on, the next seats to act are humans too, and the hand's
turn-timer message already covers the new deadline. For such a move `hand_act` does
nothing but append the event and store the new state. `quick_act` does exactly that,
without the ORM or a pool thread:

- the engine applies the action to the state the socket's process already holds for that
  version (`rooms.consumers.HandStates`), before any SQL;
- one prepared statement (`rooms_quick_move`, a PostgreSQL function made by migration
  0004) takes the room's lock, as every service does first, and then, on the hand and
  seats as they are once the lock is held, stores the new state and appends the event —
  only if everything `hand_act` would check still holds;
- after commit it announces the event (`rooms.notify.hand_events_now`).

Anything else returns None and changes nothing, and the caller uses `hand_act`, which then
gives the answer: an illegal action or a stale version (errors), a re-sent client_id
(`repeated`, the unique constraint refuses the copy here), a seat under 托管, left or not
the player's, a hand that ends (scoring), awaited 托管 or bot seats (their moves are
queued), a turn timer to queue, changed room timers. So the stored rows are those
`hand_act` would have written (rooms/tests/test_quick.py plays whole hands both ways and
compares them).

Why: one server process plays about 160 moves a second through `hand_act` (ORM queries,
model instances, a pool-thread hop and a commit per move) and about 690 this way
(`bench/bench_live.py --rooms 20`, with and without `--no-quick`).

PostgreSQL only (`enabled()`; SQLite, the embedded default, always uses `hand_act`).
Each process keeps a small pool of psycopg async connections per event loop, opened on
first use.
"""

import asyncio
import logging
from functools import cache, partial

import orjson

from django.conf import settings
from django.db import connections
from psycopg.errors import UniqueViolation
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from baohuang import engine
from rooms import notify, telemetry
from rooms.services.hands import decision_of, epoch_ms, keeps_deadline, new_deadline

log = logging.getLogger(__name__)

_dumps = partial(orjson.dumps, option=orjson.OPT_NON_STR_KEYS)

# The database half: rooms/migrations/0004_quick_move_function.py (one prepared statement).
MOVE_SQL = (
    "SELECT rooms_quick_move(%(room)s, %(hand)s, %(expected)s, %(seat)s, %(player)s, %(state)s, %(version)s, "
    "%(phase)s, %(keep)s, %(deadline)s, %(timers)s, %(awaited)s, %(action)s, %(event)s, %(public)s, %(client_id)s)"
)

POOL_SIZE = 8  # connections per process at most; a move holds one for a single round trip
POOL_WAIT = 5.0  # seconds a move waits for a connection before leaving the move to hand_act

_pools: dict[asyncio.AbstractEventLoop, asyncio.Future] = {}


def enabled() -> bool:
    return settings.QUICK_MOVES and _vendor() == "postgresql"


@cache
def _vendor() -> str:
    return connections["default"].vendor


async def pool() -> AsyncConnectionPool:
    """This event loop's pool of autocommit connections to the default database (opened
    once: moves arriving while it opens wait for it)."""
    loop = asyncio.get_running_loop()
    if loop not in _pools:
        _pools[loop] = loop.create_task(_open_pool())
    return await asyncio.shield(_pools[loop])


async def _open_pool() -> AsyncConnectionPool:
    database = connections["default"].settings_dict
    opened = AsyncConnectionPool(
        kwargs={"host": database["HOST"] or None, "port": database["PORT"] or None,
                "user": database["USER"] or None, "password": database["PASSWORD"] or None,
                "dbname": database["NAME"], "autocommit": True,
                **{key: value for key, value in database.get("OPTIONS", {}).items() if key == "sslmode"}},
        min_size=1, max_size=POOL_SIZE, timeout=POOL_WAIT, open=False, name="quick-moves")
    await opened.open()
    return opened


async def close_pool() -> None:
    """Close this event loop's pool (tests end their loop after each test)."""
    opening = _pools.pop(asyncio.get_running_loop(), None)
    if opening is not None:
        await (await opening).close()


async def quick_act(*, room_id: int, hand_id: int, seat: int, player_id: int, action: dict, expected_version: int,
                    client_id: str | None, state: dict, deadline_ms: int | None,
                    timers: dict) -> tuple[dict, dict] | None:
    """Store an ordinary move and announce it, or return None having changed nothing.

    `state` and `deadline_ms` are the hand's at `expected_version` (as this process holds
    them), `timers` the room's `options["timers"]` as the socket last saw them. Returns the
    broadcast item `{"version", "event", "deadline"}` and the state after it, as a pair.
    """
    action = {**action, "seat": seat}
    try:
        new_state, event = engine.apply(state, action)
    except engine.IllegalAction:
        return None
    if engine.result(new_state) is not None:
        return None  # the hand ends: scoring, debts and the next deal belong to hand_act
    if engine.decision_kind(new_state) is None:
        return None
    keep = keeps_deadline(new_state, decision_of(state, deadline_ms))
    version = new_state["version"]
    params = {
        "room": room_id, "hand": hand_id, "expected": expected_version, "seat": seat, "player": player_id,
        "state": Jsonb(new_state, _dumps), "version": version, "phase": new_state["phase"], "keep": keep,
        "deadline": new_deadline(timers, new_state), "timers": Jsonb(timers, _dumps),
        "awaited": engine.actors(new_state), "action": Jsonb(action, _dumps), "event": Jsonb(event, _dumps),
        "public": Jsonb(engine.event_view(event, None), _dumps), "client_id": client_id,
    }
    try:
        async with (await pool()).connection() as connection:
            cursor = await connection.execute(MOVE_SQL, params)
            (deadline,) = await cursor.fetchone()
    except UniqueViolation:  # a client_id already stored for this seat: hand_act answers `repeated`
        return None
    except Exception:  # the database went away, say: hand_act tries (and reports) again
        log.warning("quick move failed for hand %s v%s", hand_id, expected_version, exc_info=True)
        return None
    if deadline is None:
        return None
    item = {"version": version, "event": event, "deadline": epoch_ms(deadline)}
    telemetry.MOVES.labels("player", "quick").inc()
    await notify.hand_events_now(room_id=room_id, hand_id=hand_id, events=[item])
    return item, new_state
