"""Capacity at human pace: N tables on one Uvicorn process (or `--workers` processes, which
spread a room's sockets over them as least_conn would; or `--processes` K, each room's
sockets all on one of them, as deploy/'s nginx routes them), each making one move every
2 s (seeded jitter), five seated sockets per table plus one spectator per ten tables.

Run (PostgreSQL and Redis on this machine):

    .venv/bin/python bench/bench_capacity.py --tables 100 500 1000 2000 --seconds 20

For each N it seats five guests at N fresh tables (through the services, in this
process), starts the server with production settings, connects every socket, deals every
hand, then for `--seconds` lets each table's awaited seat play its next move (worked out
in advance) every 2 s ± 0.5 s (random.Random(--seed)), while every socket pings as the
table page does (static/js/connection.js): a `ping` after every `--ping` seconds (2) in
which it heard no frame; `--ping 0` sends none. It prints, per N: moves made, p50 / p99
from sending `act` until every socket of the table (five seats and its spectator) has that
version's `event`, errors (error frames, closed sockets, moves that never reached everyone
within 10 s), the `pong` round trip p50 / p99 and how many pongs took over 2 s (a page
would show 连接中断 meanwhile), the server's CPU (all its processes, in shares of one core,
over the playing period), the load generator's own CPU (this process: at 100% it, not the
server, is the limit), PostgreSQL's and Redis's CPU (all their processes on this machine,
whoever uses them) and the server's resident memory per socket (growth from before
connecting, all its processes) and its garbage collections while playing (their number, their
pauses added up, and how many paused the server over 100 ms). Then the p99 of the moves
sent in each 2 s window of play, which shows whether the slow ones are spread out or
bunched (at the start, say). The load generator keeps its own collector off while it
measures (`quiet_collector`), so its pauses are not counted as the server's latency.

deploy/'s Celery worker and beat run beside the server while the tables play, as
production runs them (`timers.py`): a move may queue its table's turn timer, which the
worker holds until it fires, and beat's sweeps read the hands every few seconds. Their CPU
is reported as Celery's; `--no-celery` leaves them out. Every table is dealt before any
plays, which takes a minute at 1,000 tables, so the worker starts after the deal, the
timers the deal queued are dropped, and each hand's first deadline is counted from the
start of play (`as_if_dealt_now`): otherwise the timers and the sweep would play the
first move of the tables dealt first, under 托管. The earlier runs' hands in the scratch
database are ended first, and their seats taken offline (`end_earlier_runs`).

With `--nginx` the sockets go through deploy/'s nginx site with TLS, as production runs
(its main config as the site file's header asks: a worker per core, 16,384 connections
each), and nginx's CPU is reported too.

The load generator runs on the same machine as the server, the database and Redis, so
on a small machine it competes with them for the CPU: read the figures as a lower bound.
"""

import argparse
import asyncio
import gc
import itertools
import json
import os
import random
import sys
import time
import urllib.request
from pathlib import Path

import orjson
import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_live import (deal, django_on, make_tables, percentile, server_cpu, server_rss,  # noqa: E402
                        services_cpu, vacuum)
from proxy import Proxy  # noqa: E402
from timers import Timers, drop_queue  # noqa: E402

WAIT = 10.0
# Connecting every socket and dealing every hand: a socket that never hears its snapshot
# (a CI run's server lost its Redis subscriber) ends the run, not hangs it.
SETUP_SECONDS = 60.0
SETUP_SECONDS_PER_SOCKET = 0.05
PACE = 2.0
JITTER = 0.5
SPECTATOR_EVERY = 10
# A table's seats answer the 表态 window one after another, PACE apart, where players answer
# it at once: four answers take up to 10 s, and the default 8 s would close it (RULES §8).
OPTIONS = {"timers": {"declare": 15}}


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 500, 1000, 2000])
    parser.add_argument("--seconds", type=float, default=20.0, help="playing time per N")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="Uvicorn worker processes")
    parser.add_argument("--processes", type=int, default=1,
                        help="Uvicorn processes on ports of their own, a room's sockets all on one "
                             "(room id mod K, as deploy/'s nginx hashes a room's URL)")
    parser.add_argument("--nginx", action="store_true",
                        help="the sockets through deploy/'s nginx site with TLS, as production runs "
                        "(one or two --processes; nginx's CPU is reported too)")
    parser.add_argument("--no-celery", dest="celery", action="store_false",
                        help="without deploy/'s Celery worker and beat (their CPU is then left out)")
    parser.add_argument("--ping", type=float, default=2.0, help="seconds between a socket's pings (0: none)")
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/bh_capacity_bench")
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/2"))
    return parser.parse_args()


# -- the clients ------------------------------------------------------------------------------


class Table:
    def __init__(self, room: int, watchers: int):
        self.room, self.expected = room, 5 + watchers
        self.seen: dict[int, int] = {}
        self.waiting: dict[int, asyncio.Future] = {}

    def arrived(self, version: int, now: float) -> None:
        self.seen[version] = self.seen.get(version, 0) + 1
        waiting = self.waiting.pop(version, None) if self.seen[version] == self.expected else None
        if waiting is not None and not waiting.done():  # done: its wait timed out (an error already)
            waiting.set_result(now)

    async def everyone(self, version: int) -> float:
        if self.seen.get(version, 0) >= self.expected:
            return time.perf_counter()
        future = asyncio.get_running_loop().create_future()
        self.waiting[version] = future
        return await asyncio.wait_for(future, WAIT)


class Socket:
    def __init__(self, url: str, session: str | None, table: Table, errors: list, tls=None):
        self.url, self.session, self.table, self.errors, self.tls = url, session, table, errors, tls
        self.snapshots = asyncio.Queue()
        self.pongs: list[float] = []  # seconds from each ping to its pong
        self.heard = 0.0  # when the last frame arrived

    async def open(self):
        import websockets

        headers = {"Cookie": f"sessionid={self.session}"} if self.session else {}
        # The page's origin is the server's own (same host and port; the server checks it).
        origin = "http" + self.url.removeprefix("ws").split("/ws/")[0]
        self.ws = await websockets.connect(self.url, origin=origin, additional_headers=headers,
                                           max_size=2**22, open_timeout=60, ping_interval=None, ssl=self.tls)
        self.reader = asyncio.create_task(self.read())

    async def read(self):
        try:
            async for text in self.ws:
                now = self.heard = time.perf_counter()
                frame = orjson.loads(text)  # the server's own parser: the generator's CPU is the server's too
                kind = frame.get("type")
                if kind == "event":
                    self.table.arrived(frame["version"], now)
                elif kind == "pong":
                    self.pongs.append(now - frame["t"])
                elif kind == "snapshot":
                    self.snapshots.put_nowait(frame)
                elif kind == "error":
                    self.errors.append(f"room {self.table.room}: {frame['code']}")
        except Exception as error:
            self.errors.append(f"room {self.table.room}: {error!r}")

    async def send(self, frame: dict):
        await self.ws.send(json.dumps(frame))

    async def close(self):
        self.reader.cancel()
        await self.ws.close()


async def play_table(table, seats, moves, start, hand, until, rng, latencies, errors):
    """Play the table's moves at human pace; each move's (time sent, seconds until every
    socket had it) goes in `latencies`."""
    version = start
    await asyncio.sleep(rng.uniform(0, PACE))  # tables start spread over one period
    for seat, action in moves:
        if time.perf_counter() >= until:
            return
        sent = time.perf_counter()
        await seats[seat].ws.send(json.dumps({"type": "act", "action": action, "expected_version": version,
                                              "client_id": f"{hand}-{version}"}))
        version += 1
        try:
            latencies.append((sent, await table.everyone(version) - sent))
        except asyncio.TimeoutError:
            errors.append(f"room {table.room}: version {version} never reached every socket")
            return
        await asyncio.sleep(max(0.0, PACE + rng.uniform(-JITTER, JITTER) - (time.perf_counter() - sent)))


async def keep_pinging(sockets, every: float, until: float, rng) -> None:
    """Ping as each page does until ``until``: a socket is looked at every half period, and
    sends a `ping` (its `t` echoed in the pong) once ``every`` seconds have passed with no
    frame heard and no ping sent. One task looks at all of them, a tenth of the half period
    at a time, each socket in a slice of its own (random): the pages' timers keep phases
    of their own too, and one task per socket woke the generator some 10,000 times a
    second at 5,000 sockets, CPU taken from the server's machine."""
    slices = 10
    groups = [[] for _ in range(slices)]
    for socket in sockets:
        groups[rng.randrange(slices)].append(socket)
    step = every / 2 / slices
    due = time.perf_counter()
    # As if each had last pinged at a moment of its own in the period before: every socket
    # has been silent since the deal, and would otherwise ping in the first half second.
    pinged = {socket: due - rng.uniform(0, every) for socket in sockets}
    for index in itertools.cycle(range(slices)):
        if (now := time.perf_counter()) >= until:
            return
        for socket in groups[index]:
            if now - max(pinged[socket], socket.heard) >= every:
                pinged[socket] = now
                await socket.ws.send(json.dumps({"type": "ping", "t": now}))
        due += step
        await asyncio.sleep(max(0.0, due - time.perf_counter()))


async def connect_all(sockets, batch: int = 100):
    for index in range(0, len(sockets), batch):
        await asyncio.gather(*(socket.open() for socket in sockets[index:index + batch]))
        await asyncio.gather(*(socket.snapshots.get() for socket in sockets[index:index + batch]))


async def measure(servers, specs, seconds: float, seed: int, ping: float, proxy=None, timers=None) -> dict:
    errors, latencies, tables = [], [], []
    tls = proxy.tls if proxy else None
    pids = [server.process.pid for server in servers]
    rss_before = sum(map(server_rss, pids))
    everyone = []
    for number, spec in enumerate(specs):
        watchers = 1 if number % SPECTATOR_EVERY == 0 else 0
        table = Table(spec["room"], watchers)
        front = proxy.ws_url if proxy else servers[spec["room"] % len(servers)].ws_url
        url = f"{front}/ws/rooms/{spec['room']}/"
        seats = [Socket(url, session, table, errors, tls) for session in spec["sessions"]]
        extra = [Socket(url, None, table, errors, tls) for _ in range(watchers)]
        tables.append((table, seats))
        everyone += seats + extra
    began, cpu_began = time.perf_counter(), sum(map(server_cpu, pids))
    try:
        async with asyncio.timeout(SETUP_SECONDS + SETUP_SECONDS_PER_SOCKET * len(everyone)):
            await connect_all(everyone)
            connect_seconds = time.perf_counter() - began
            connect_cpu = (sum(map(server_cpu, pids)) - cpu_began) / len(everyone)
            plans = await deal((seats for _, seats in tables), limit=int(seconds / (PACE - JITTER)) + 2)
            dealt_seconds = time.perf_counter() - began - connect_seconds
            if timers:
                await asyncio.to_thread(timers.start)
                await asyncio.to_thread(as_if_dealt_now, [hand for hand, _, _ in plans])
    except TimeoutError:
        raise SystemExit(f"N={len(specs)}: the tables were not all connected and dealt after "
                         f"{time.perf_counter() - began:.0f} s; errors: {errors[:5] or 'none'}") from None
    rss_connected = sum(map(server_rss, pids))
    gc_start = await asyncio.to_thread(gc_pauses, servers)
    quiet_collector()
    print(f"N={len(specs)}: playing for {seconds:g} s …", flush=True)  # a profiler may start now
    rng = random.Random(seed)
    celery_pids = timers.pids if timers else []
    cpu_start, client_start, wall_start = sum(map(server_cpu, pids)), time.process_time(), time.perf_counter()
    celery_start = sum(map(server_cpu, celery_pids))
    services_start = services_cpu()
    until = wall_start + seconds
    pings = [keep_pinging(everyone, ping, until, random.Random(rng.random()))] if ping else []
    await asyncio.gather(*(play_table(table, seats, moves, start, hand, until, random.Random(rng.random()),
                                      latencies, errors)
                           for (table, seats), (hand, moves, start) in zip(tables, plans)), *pings)
    wall = time.perf_counter() - wall_start
    gc.enable()
    cpu = (sum(map(server_cpu, pids)) - cpu_start) / wall
    celery = (sum(map(server_cpu, celery_pids)) - celery_start) / wall if timers else None
    client = (time.process_time() - client_start) / wall
    services = {name: (used - services_start[name]) / wall for name, used in services_cpu().items()}
    collections = [after - before for after, before in zip(await asyncio.to_thread(gc_pauses, servers), gc_start)]
    for socket in everyone:
        await socket.close()
    release_collector()
    return {"sockets": len(everyone), "connect_s": connect_seconds, "connect_cpu": connect_cpu, "dealt_s": dealt_seconds,
            "moves": len(latencies), "wall": wall, "celery": celery,
            "latencies": [latency for _, latency in latencies], "services": services, "windows": windows(latencies, wall_start),
            "errors": errors, "cpu": cpu, "client": client,
            "pongs": [pong for socket in everyone for pong in socket.pongs],
            "rss_per_socket": (rss_connected - rss_before) / len(everyone), "rss": rss_connected,
            "gc": collections, "through_nginx": proxy is not None}


def quiet_collector() -> None:
    """Keep the load generator's collector from pausing it while it measures: with
    CPython's defaults its full collections walked every client socket's objects and
    stopped it for 0.2–0.45 s, a dozen times in 30 s at 500 tables, which it counted as
    the server's latency. The sockets are all open now and live to the end: frozen, the
    collector leaves them alone, and it is off until play ends (30 s of garbage is little)."""
    gc.collect()
    gc.freeze()
    gc.disable()


def release_collector() -> None:
    """After play (the collector on again): what `quiet_collector` froze back in its care,
    and the closed sockets collected, so the next N of a series starts with none of them.
    Left frozen, the sockets of every earlier N stayed in memory; at 1,000 tables after 100
    and 500, the load generator took 44% of a core where runs of their own took 30–34%
    (one series: not shown to be the cause)."""
    gc.unfreeze()
    gc.collect()


def windows(latencies: list[tuple[float, float]], start: float, width: float = 2.0) -> list[float]:
    """p99 of the moves sent in each `width`-second window from `start`: where the slow ones are."""
    by_window: dict[int, list[float]] = {}
    for sent, latency in latencies:
        by_window.setdefault(int((sent - start) // width), []).append(latency)
    return [percentile(by_window[index], 0.99) for index in sorted(by_window)]


def gc_pauses(servers) -> list[float]:
    """[collections, their seconds, those over 0.1 s] the servers have counted so far
    (`baohuang_gc_pause_seconds` at /metrics; with `--workers`, of the worker that answers)."""
    from prometheus_client.parser import text_string_to_metric_families

    count = seconds = short = 0.0
    for server in servers:
        with urllib.request.urlopen(f"{server.url}/metrics", timeout=30) as response:
            families = text_string_to_metric_families(response.read().decode())
        for family in families:
            if family.name != "baohuang_gc_pause_seconds":
                continue
            for sample in family.samples:
                if sample.name.endswith("_count"):
                    count += sample.value
                elif sample.name.endswith("_sum"):
                    seconds += sample.value
                elif sample.name.endswith("_bucket") and float(sample.labels["le"]) == 0.1:
                    short += sample.value
    return [count, seconds, count - short]


def end_earlier_runs() -> None:
    """End the hands that earlier runs left running in the scratch database, and take their
    seats offline (a run cut short leaves them shown online): their sockets are gone, and
    the worker's sweeps would otherwise play those hands out and take those seats offline
    one by one while this run plays."""
    from django.utils import timezone

    from rooms.models import Hand, Seat

    Hand.objects.filter(ended__isnull=True).update(ended=timezone.now())
    Seat.objects.filter(online=True).update(online=False)


def as_if_dealt_now(hands: list[int]) -> None:
    """Move each hand's first deadline as far on as the time since its deal, so that the
    table has its first decision's whole time from the start of play."""
    from django.utils import timezone

    from rooms.models import Hand

    now = timezone.now()
    dealt = list(Hand.objects.filter(pk__in=hands).only("deadline", "started"))
    for hand in dealt:
        hand.deadline += now - hand.started
    Hand.objects.bulk_update(dealt, ["deadline"], batch_size=500)


def pong_figures(pongs: list[float]) -> str:
    if not pongs:
        return "no pings"
    late = sum(1 for pong in pongs if pong > 2.0)
    return (f"pong p50 {percentile(pongs, 0.5) * 1000:.1f} ms p99 {percentile(pongs, 0.99) * 1000:.1f} ms"
            f" ({late} of {len(pongs)} over 2 s)")


def report(n: int, result: dict) -> None:
    latencies = result["latencies"] or [float("nan")]
    print(f"N={n:5d} tables, {result['sockets']:6d} sockets (connected in {result['connect_s']:.1f} s, "
          f"{result['connect_cpu'] * 1000:.1f} ms of server CPU each; dealt in {result['dealt_s']:.1f} s): "
          f"{result['moves']} moves in {result['wall']:.1f} s = {result['moves'] / result['wall']:.1f}/s   "
          f"p50 {percentile(latencies, 0.5) * 1000:.1f} ms   p99 {percentile(latencies, 0.99) * 1000:.1f} ms   "
          f"errors {len(result['errors'])}   {pong_figures(result['pongs'])}   server CPU {result['cpu'] * 100:.0f}% of a core   "
          f"load generator CPU {result['client'] * 100:.0f}%   "
          + (f"Celery {result['celery'] * 100:.0f}%   " if result["celery"] is not None else "")
          + f"PostgreSQL {result['services']['postgres'] * 100:.0f}%   "
          f"Redis {result['services']['redis-server'] * 100:.0f}%   "
          + (f"nginx {result['services']['nginx'] * 100:.0f}%   " if result["through_nginx"] else "")
          + f"RSS {result['rss'] / 2**20:.0f} MiB = {result['rss_per_socket'] / 1024:.1f} KiB per socket   "
          f"GC {result['gc'][0]:.0f} collections, {result['gc'][1] * 1000:.0f} ms, {result['gc'][2]:.0f} over 100 ms",
          flush=True)
    print("   p99 by 2 s window (ms):", " ".join(f"{p99 * 1000:.0f}" for p99 in result["windows"]), flush=True)
    for error in result["errors"][:5]:
        print("   error:", error)


def main():
    args = parse_args()
    django_on(args.database, args.redis)
    from django.conf import settings

    from tests.live import Server, channel_prefix, server_env

    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; one move per table every "
          f"{PACE} s ± {JITTER} s; one spectator per {SPECTATOR_EVERY} tables; "
          + (f"a ping per socket every {args.ping:g} s" if args.ping else "no pings"), flush=True)
    for number, n in enumerate(args.tables):
        if number:
            vacuum(args.database)  # the first N's was made by django_on
        end_earlier_runs()
        prefix = channel_prefix()
        proxy = Proxy() if args.nginx else None
        env = server_env(database=args.database, redis=args.redis, prefix=prefix, CELERY_QUEUE=f"{prefix}celery",
                         DEBUG=0, SECRET_KEY=settings.SECRET_KEY, SECURE_SSL_REDIRECT=0,
                         METRICS_ALLOWED_ADDRESSES="127.0.0.1", **(proxy.env if proxy else {}))
        specs = make_tables(n, "classic", options=OPTIONS)
        servers = [Server(env=env, log_path=ROOT / "var" / f"bench_capacity_uvicorn{index}.log",
                          options=("--backlog", "4096",
                                   *(("--workers", str(args.workers)) if args.workers > 1 else ())))
                   for index in range(args.processes)]
        timers = Timers(env) if args.celery else None
        try:
            for server in servers:
                server.start()
            if proxy:
                proxy.start(servers)
            # uvloop (Uvicorn's own loop): the generator's CPU is taken from the server's machine
            result = uvloop.run(measure(servers, specs, args.seconds, args.seed, args.ping, proxy, timers))
        finally:
            if timers:
                timers.stop()
            if proxy:
                proxy.stop()
            for server in servers:
                server.stop()
            drop_queue(env)
        report(n, result)


if __name__ == "__main__":
    main()
