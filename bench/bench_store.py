"""The event loop's write of a move, two ways in the same run: as the server stores it
(`rooms.services.moves.astore_move`: three prepared statements in one pipeline,
`baohuang.loop_database.run`) against the same statements as one query string with
client-side binding (what a database thread sends, `store_move`), on an asynchronous
psycopg connection of its own; and, as the floor of both, a bare write: one row's
`UPDATE` committed from the event loop (`rooms.bench_consumers.TOUCH_SQL`, the write of
`bench_live`'s `loop` echo).

Run (PostgreSQL on this machine):

    .venv/bin/python bench/bench_store.py --hands 18

It plays whole hands through `ahand_act` on the held table, with no sockets, the ways
taking turns hand by hand (in a bare write's hand the loop stores each move untimed, and a
bare write follows it), and prints for each: writes, the round trip (p50, mean), this
process's CPU per write and PostgreSQL's CPU per write (all its processes on this machine,
whoever uses them; not for the bare write, whose hands also store their moves), then the
loop's figures as a share of the query string's, and its round trip against the bare
write's: what a move's statements add to PostgreSQL's part of its latency.
"""

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_live import django_on, services_cpu  # noqa: E402


class Way:
    """One way of writing a move, timed."""

    def __init__(self, name: str, write):
        self.name, self.write = name, write
        self.walls: list[float] = []
        self.cpu = self.postgres = 0.0

    async def __call__(self, **arguments) -> bool:
        wall, cpu = time.perf_counter(), time.process_time()
        written = await self.write(**arguments)
        self.walls.append(time.perf_counter() - wall)
        self.cpu += time.process_time() - cpu
        return written


async def one_string(**arguments) -> bool:
    """The three statements as one query string, client-side binding (`store_move`'s SQL)."""
    import psycopg

    from baohuang import loop_database
    from rooms.services import moves

    if not STRING_CONNECTION:
        STRING_CONNECTION.append(await psycopg.AsyncConnection.connect(
            **loop_database._parameters(), cursor_factory=psycopg.AsyncClientCursor))
    fence, meanwhile = arguments.pop("fence"), arguments.pop("meanwhile", None)
    if meanwhile is not None:
        meanwhile()  # the move's frames (none here, with no sockets): this way cannot build them during the wait
    hand = arguments["hand"]
    sql, parameters = moves._fenced_string(hand, fence, moves._values(**arguments, moment=moves._as_is))
    async with STRING_CONNECTION[0].cursor() as cursor:
        await cursor.execute(sql, parameters)
        cursor.nextset()
        cursor.nextset()  # the UPDATE's result
        return cursor.rowcount == 1


STRING_CONNECTION: list = []


async def bare_write(*, room_id: int) -> bool:
    from baohuang import loop_database
    from rooms.bench_consumers import TOUCH_SQL

    await loop_database.run([(TOUCH_SQL, [room_id])])
    return True


def deal(number: int):
    from rooms.services import player_guest, room_create, seat_take
    from rooms.services.hands import hand_start

    players = [player_guest(nickname=f"bs{number}-{seat}-{os.getpid()}") for seat in range(5)]
    room = room_create(creator=players[0], name=f"bench store {number}", preset="classic")
    for seat, player in enumerate(players):
        seat_take(room_id=room.pk, player=player, index=seat)
    return hand_start(room_id=room.pk)


async def play(hands: int) -> list[Way]:
    """Play `hands` timed hands (and one more per way, to warm it up); returns the ways."""
    from rooms.services import moves

    store = moves.astore_move
    ways = [Way("query string", one_string), Way("loop (prepared)", store), Way("bare write", bare_write)]
    try:
        await play_with(ways, hands, store)
    finally:
        moves.astore_move = store
        if STRING_CONNECTION:
            await STRING_CONNECTION.pop().close()
    return ways


async def play_with(ways: list[Way], hands: int, store) -> None:
    from baohuang import engine
    from rooms.services import moves
    from rooms.services.acting import ahand_act
    from rooms.threads import db

    for number in range(hands + len(ways)):  # the first hand of each way warms it up
        way = ways[number % len(ways)]
        bare = way.write is bare_write
        moves.astore_move = store if bare else way  # what ahand_act calls
        hand = await db(deal)(number)
        state, version = hand.state, hand.version
        before = services_cpu()["postgres"]
        count = len(way.walls)
        while engine.result(state) is None:
            seat = engine.actors(state)[0]
            change = await ahand_act(hand_id=hand.pk, seat=seat, action=engine.autoplay(state, seat),
                                     expected_version=version, client_id=f"b{version}")
            state, version = change.hand.state, change.hand.version
            if bare and engine.result(state) is None:
                await way(room_id=hand.room_id)
        if number < len(ways):
            way.walls.clear()
            way.cpu = 0.0
        elif not bare:
            way.postgres += services_cpu()["postgres"] - before
        assert len(way.walls) > count or number < len(ways), "no move was written by the way timed"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=18)
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/bh_store_bench")
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/2"))
    args = parser.parse_args()
    django_on(args.database, args.redis)
    ways = asyncio.run(play(args.hands))
    figures = {}
    for way in ways:
        writes = len(way.walls)
        figures[way.name] = (statistics.median(way.walls), statistics.mean(way.walls), way.cpu / writes,
                             way.postgres / writes)
        p50, mean, cpu, postgres = figures[way.name]
        postgres = "-" if way.write is bare_write else f"{postgres * 1000:.3f} ms/write"
        print(f"{way.name:16} {writes:5} writes  round trip p50 {p50 * 1000:.3f} ms  mean {mean * 1000:.3f} ms   "
              f"CPU here {cpu * 1000:.3f} ms/write   PostgreSQL {postgres}")
    base, loop, bare = figures["query string"], figures["loop (prepared)"], figures["bare write"]
    print("loop / query string: round trip p50 {:.2f}×, CPU here {:.2f}×, PostgreSQL {:.2f}×".format(
        loop[0] / base[0], loop[2] / base[2], loop[3] / base[3]))
    print("loop / bare write: round trip p50 {:.2f}× (+{:.3f} ms: what a move's statements add)".format(
        loop[0] / bare[0], (loop[0] - bare[0]) * 1000))


if __name__ == "__main__":
    main()
