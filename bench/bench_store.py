"""The event loop's write of a move, two ways in the same run: as the server stores it
(`rooms.services.moves.astore_move`: three prepared statements in one pipeline,
`baohuang.loop_database.run`) against the same statements as one query string with
client-side binding (what a database thread sends, `store_move`), on an asynchronous
psycopg connection of its own.

Run (PostgreSQL on this machine):

    .venv/bin/python bench/bench_store.py --hands 16

It plays whole hands through `ahand_act` on the held table, with no sockets, the two
ways taking turns hand by hand, and prints for each: moves, the write's round trip
(p50, mean), this process's CPU per write and PostgreSQL's CPU per move (all its
processes on this machine, whoever uses them), then the loop's figures as a share of the
query string's.
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

from bench_live import django_on, process_stat  # noqa: E402


def postgres_cpu() -> float:
    """CPU seconds used so far by every PostgreSQL process of this machine (Linux /proc)."""
    total = 0.0
    for process in Path("/proc").glob("[0-9]*"):
        try:
            name, seconds = process_stat(int(process.name))
        except OSError:  # the process ended meanwhile
            continue
        if name == "postgres":
            total += seconds
    return total


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
    fence = arguments.pop("fence")
    hand = arguments["hand"]
    sql, parameters = moves._fenced_string(hand, fence, moves._values(**arguments))
    async with STRING_CONNECTION[0].cursor() as cursor:
        await cursor.execute(sql, parameters)
        cursor.nextset()
        cursor.nextset()  # the UPDATE's result
        return cursor.rowcount == 1


STRING_CONNECTION: list = []


def deal(number: int):
    from rooms.services import player_guest, room_create, seat_take
    from rooms.services.hands import hand_start

    players = [player_guest(nickname=f"bs{number}-{seat}-{os.getpid()}") for seat in range(5)]
    room = room_create(creator=players[0], name=f"bench store {number}", preset="classic")
    for seat, player in enumerate(players):
        seat_take(room_id=room.pk, player=player, index=seat)
    return hand_start(room_id=room.pk)


async def play(hands: int) -> list[Way]:
    from baohuang import engine
    from rooms.services import moves
    from rooms.services.acting import ahand_act
    from rooms.threads import db

    ways = [Way("query string", one_string), Way("loop (prepared)", moves.astore_move)]
    for number in range(hands + 2):  # the first two warm both ways up
        way = ways[number % 2]
        moves.astore_move = way  # what ahand_act calls
        hand = await db(deal)(number)
        state, version = hand.state, hand.version
        before = postgres_cpu()
        count = len(way.walls)
        while engine.result(state) is None:
            seat = engine.actors(state)[0]
            change = await ahand_act(hand_id=hand.pk, seat=seat, action=engine.autoplay(state, seat),
                                     expected_version=version, client_id=f"b{version}")
            state, version = change.hand.state, change.hand.version
        if number < 2:
            way.walls.clear()
            way.cpu = 0.0
        else:
            way.postgres += postgres_cpu() - before
        assert len(way.walls) > count or number < 2, "no move was written by the way timed"
    return ways


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=16)
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/bh_store_bench")
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/2"))
    args = parser.parse_args()
    django_on(args.database, args.redis)
    ways = asyncio.run(play(args.hands))
    figures = {}
    for way in ways:
        moves = len(way.walls)
        figures[way.name] = (statistics.median(way.walls), statistics.mean(way.walls), way.cpu / moves,
                             way.postgres / moves)
        p50, mean, cpu, postgres = figures[way.name]
        print(f"{way.name:16} {moves:5} moves   round trip p50 {p50 * 1000:.3f} ms  mean {mean * 1000:.3f} ms   "
              f"CPU here {cpu * 1000:.3f} ms/move   PostgreSQL {postgres * 1000:.3f} ms/move")
    base, loop = figures["query string"], figures["loop (prepared)"]
    print("loop / query string: round trip p50 {:.2f}×, CPU here {:.2f}×, PostgreSQL {:.2f}×".format(
        loop[0] / base[0], loop[2] / base[2], loop[3] / base[3]))


if __name__ == "__main__":
    main()
