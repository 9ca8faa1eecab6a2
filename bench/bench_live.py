"""Live play under load: N rooms × 5 scripted clients over real WebSockets, against the bare
echo consumer on the same server and broadcasts (the ceiling of this stack).

Run (PostgreSQL and Redis on this machine):

    .venv/bin/python bench/bench_live.py --rooms 20
    .venv/bin/python bench/bench_live.py --rooms 1 --runs 7   # the runs' medians too
    .venv/bin/python bench/bench_live.py --rooms 20 --redis redis://127.0.0.1:6379/2 \
        --database postgres://postgres@127.0.0.1:5432/bh_live_bench

It creates (or reuses) the scratch database, migrates it, starts Uvicorn on a free port with
`BENCH_ECHO=1` (its own Redis prefix, so other users of the Redis are not heard),
seats five guests in each room and deals one hand per room. Each hand's moves are worked
out before the clock starts (the largest legal set, else the 托管 policy's answer), so the
clients spend no time thinking. Then, for every room at once:

- game: the awaited seat sends `act`; latency = from sending until every seat of the room
  has received that version's `event`;
- echo: the same number of messages per room, sent by the seats in turn to
  `/ws/echo/<room>/`; latency = from sending until all five sockets have it.
- write: the same through `/ws/echo-write/<room>/`, which commits one write to the room's
  row through the ORM on a pool thread before the group send, as every service writes: the
  floor of a move kept in the database this way (no locking, no rules, no per-seat views);
- raw: that write as hand-written SQL, still on the pool thread (rooms/bench_consumers.py);
- loop: that SQL prepared and committed from the event loop, the way a player's move is
  stored (`baohuang.loop_database`): the floor of the game's own path.

Prints actions per second, p50 / p99 latency of each and their p50 as a multiple of echo's,
the server process's CPU per message (what bounds throughput on a shared machine) and the
load generator's (this process), plus errors (error frames, closed sockets, waits over
10 s). Goal: within 2× at 20 rooms. For the game it adds up the CPU a move costs the
machine — the server's, PostgreSQL's, Redis's and the load generator's — and the moves a
second the machine's cores could do at that cost: with every room's next move sent as
soon as the last one arrived, the rooms keep the server busy, and p50 is about the rooms
divided by that rate.

The load generator shares the machine's cores with the server, PostgreSQL and Redis, so it
runs on uvloop (Uvicorn's own loop) and reads frames with orjson: on the standard loop with
the standard library's json it took 0.36 ms of CPU per move at 20 rooms (0.27 ms now), CPU
the server then did not have.

The server runs as in production (DEBUG off, pooled database connections); each
scripted socket keeps within the server's rate limit (`tests.live.Pace`: at most 18
frames a second), as a person's pace does — else a seat moving several times in a row is
closed with 1008.
"""

import argparse
import asyncio
import contextlib
import functools
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import orjson
import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WAIT = 10.0  # seconds before a missing frame counts as an error
SERVICES = ("postgres", "redis-server", "nginx")  # command names of the database's, the broker's and the proxy's processes


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--preset", default="classic", choices=("classic", "lianzhong", "qingdao"))
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/bh_live_bench")
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/2"))
    parser.add_argument("--pool", type=int, default=10, help="the server's DB_POOL_MAX (pooled connections)")
    parser.add_argument("--workers", type=int, default=1, help="Uvicorn worker processes")
    parser.add_argument("--url", help="a running server to measure instead (ws://host:port, started with "
                        "BENCH_ECHO=1 against --database and --redis); default: start one")
    parser.add_argument("--runs", type=int, default=1,
                        help="play and echo this many times on the same server, each with new rooms, then "
                        "print the runs' medians (one run at one room varied by ±20%% on this machine)")
    parser.add_argument("--profile", metavar="PATH",
                        help="record a py-spy profile of the server (only the thread holding the GIL) while "
                        "the first run's game plays, into PATH, for bench/cpu_split.py (py-spy: "
                        "requirements-dev.txt); the sampling slows that run's game")
    return parser.parse_args()


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


# -- setup (Django, in this process, against the scratch database) -------------------------


def prepare_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{name}"')
    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run([sys.executable, "manage.py", "migrate", "--verbosity", "0"], cwd=ROOT, env=env, check=True)
    vacuum(url)


def vacuum(url: str) -> None:
    """VACUUM ANALYZE the scratch database's tables that hold rows (`tables_with_rows`),
    before each run. A PostgreSQL without autovacuum (this machine's) keeps every dead
    version of the rows that each move updates, and every run then played slower than the
    one before: at one room the game's p50 was 1.86 ms before a vacuum and 1.24 ms after it."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        for table in tables_with_rows(connection):
            connection.execute(f'VACUUM ANALYZE "{table}"')


def tables_with_rows(connection) -> list[str]:
    """The public tables that hold a row. An empty table is left unanalysed: analysed while
    empty, its statistics say it is empty, and a statement the server's event loop prepares
    then keeps a plan that scans it (the move's look-up of its event in the log scanned the
    whole log on every move, for as long as the connection lived). Never analysed, the
    planner supposes it holds some rows and uses its index, as on a new site, where
    autovacuum first analyses a table once it has 50 rows."""
    names = [name for (name,) in connection.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()]
    return [name for name in names if connection.execute(f'SELECT EXISTS (SELECT 1 FROM "{name}")').fetchone()[0]]


def django_on(database: str, redis: str) -> None:
    """Create and migrate the scratch database, and set up this process's Django on it
    and on ``redis`` (the tables are made here, through the services)."""
    prepare_database(database)
    os.environ["DATABASE_URL"] = database
    os.environ["REDIS_URL"] = redis
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baohuang.settings")
    import django

    django.setup()


def make_tables(rooms: int, preset: str, options: dict | None = None) -> list[dict]:
    """Rooms (with ``options``) with five seated guests each, and a signed-in session per guest."""
    from rooms.services import player_guest, room_create, seat_take
    from tests.live import session_key

    tables = []
    for number in range(rooms):
        players = [player_guest(nickname=f"bench{number}-{seat}") for seat in range(5)]
        room = room_create(creator=players[0], name=f"bench {number}", preset=preset, options=options)
        for seat, player in enumerate(players):
            seat_take(room_id=room.pk, player=player, index=seat)
        tables.append({"room": room.pk, "sessions": [session_key(player) for player in players]})
    analyze()
    return tables


def analyze() -> None:
    """Bring PostgreSQL's planner statistics of the tables that hold rows up to date
    (`tables_with_rows`), as autovacuum keeps them on a live site. This machine's
    PostgreSQL runs without autovacuum: the statistics of the tables' first run stayed, and
    with 40,000 players where they said 2,000, reading a room's seats hashed the whole
    player table (20 ms instead of 0.06 ms; each run connected slower)."""
    import psycopg

    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as connection:  # set by django_on
        for table in tables_with_rows(connection):
            connection.execute(f'ANALYZE "{table}"')


def moves_of(hand_id: int, limit: int | None = None) -> tuple[list[tuple[int, dict]], int]:
    """The hand worked out in advance: [(seat, action)] (the whole hand, or its first
    ``limit`` moves), and the dealt version."""
    from baohuang import engine
    from rooms.models import Hand
    from tests.live import quick_action

    state = Hand.objects.get(pk=hand_id).state
    start, moves = state["version"], []
    while engine.result(state) is None and len(moves) != limit:
        seat = engine.actors(state)[0]
        action = quick_action(state, seat)
        moves.append((seat, action))
        state, _ = engine.apply(state, {**action, "seat": seat})
    return moves, start


# -- the clients ------------------------------------------------------------------------------


class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.cpu: float | None = None  # the server's CPU seconds over the run (all its processes)
        self.client = 0.0  # this process's CPU seconds over the run (the load generator's)
        self.services: dict[str, float] = {}  # PostgreSQL's and Redis's CPU seconds over the run


def server_processes(pid: int) -> list[int]:
    """The server process and those it started (Uvicorn's `--workers`), from Linux /proc."""
    found, at = [pid], 0
    while at < len(found):
        children = Path(f"/proc/{found[at]}/task/{found[at]}/children")
        found += [int(child) for child in children.read_text().split()] if children.exists() else []
        at += 1
    return found


def process_stat(pid: int) -> tuple[str, float]:
    """A process's command name and the CPU seconds (user + system) it has used so far (Linux /proc)."""
    head, tail = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)
    fields = tail.split()
    return head.split("(", 1)[1], (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) the server's processes have used so far (Linux /proc)."""
    return sum(process_stat(process)[1] for process in server_processes(pid))


def server_rss(pid: int) -> int:
    """Resident bytes of the server's processes together (Linux /proc)."""
    total = 0
    for process in server_processes(pid):
        for line in Path(f"/proc/{process}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
    return total


def services_cpu() -> dict[str, float]:
    """CPU seconds used so far by every process of this machine's PostgreSQL, Redis and nginx
    (Linux /proc, by command name): the database's, the broker's and the proxy's share."""
    totals = dict.fromkeys(SERVICES, 0.0)
    for process in Path("/proc").glob("[0-9]*"):
        try:
            name, seconds = process_stat(int(process.name))
        except OSError:  # the process ended meanwhile
            continue
        if name in totals:
            totals[name] += seconds
    return totals


class Socket:
    """One client: reads every frame, wakes whoever waits for a version (or an echo)."""

    def __init__(self, url: str, session: str | None, stats: Stats, table: "Table", seat: int):
        from tests.live import Pace

        self.url, self.session, self.stats, self.table, self.seat = url, session, stats, table, seat
        self.snapshots = asyncio.Queue()
        self.pace = Pace()

    async def open(self):
        import websockets

        headers = {"Cookie": f"sessionid={self.session}"} if self.session else {}
        origin = "http" + self.url.removeprefix("ws").split("/ws/")[0]  # the server's own page
        self.ws = await websockets.connect(self.url, origin=origin, additional_headers=headers,
                                           max_size=2**22)
        self.reader = asyncio.create_task(self.read())

    async def read(self):
        try:
            async for text in self.ws:
                now = time.perf_counter()
                frame = orjson.loads(text)
                kind = frame.get("type")
                if kind == "event":
                    self.table.arrived(frame["version"], now)
                elif kind == "echo":
                    self.table.arrived(frame["n"], now)
                elif kind == "snapshot":
                    self.snapshots.put_nowait(frame)
                elif kind == "error":
                    self.stats.errors.append(f"room {self.table.room} seat {self.seat}: {frame['code']}")
        except Exception as error:  # a socket closed under us
            self.stats.errors.append(f"room {self.table.room} seat {self.seat}: {error!r}")

    async def send(self, frame: dict):
        await self.ws.send(orjson.dumps(frame).decode())

    async def close(self):
        self.reader.cancel()
        await self.ws.close()


class Table:
    """One room's five sockets; `arrived` counts who has seen each version."""

    def __init__(self, room: int):
        self.room = room
        self.seen: dict[int, int] = {}
        self.waiting: dict[int, asyncio.Future] = {}

    def arrived(self, key: int, now: float) -> None:
        self.seen[key] = self.seen.get(key, 0) + 1
        waiting = self.waiting.pop(key, None) if self.seen[key] == 5 else None
        if waiting is not None and not waiting.done():  # done: its wait timed out (an error already)
            waiting.set_result(now)

    async def all_five(self, key: int) -> float:
        if self.seen.get(key, 0) >= 5:
            return time.perf_counter()
        future = asyncio.get_running_loop().create_future()
        self.waiting[key] = future
        return await asyncio.wait_for(future, WAIT)


async def play_room(table: Table, sockets: list[Socket], moves, start: int, hand: int, stats: Stats):
    version = start
    for seat, action in moves:
        await sockets[seat].pace.wait()
        sent = time.perf_counter()
        await sockets[seat].send({"type": "act", "action": action, "expected_version": version,
                                  "client_id": f"{hand}-{version}"})
        version += 1
        try:
            stats.latencies.append(await table.all_five(version) - sent)
        except asyncio.TimeoutError:
            stats.errors.append(f"room {table.room}: version {version} never reached every seat")
            return


async def echo_room(table: Table, sockets: list[Socket], count: int, stats: Stats):
    for n in range(1, count + 1):
        await sockets[n % 5].pace.wait()
        sent = time.perf_counter()
        await sockets[n % 5].send({"type": "echo", "n": n, "pad": "x" * 200})
        try:
            stats.latencies.append(await table.all_five(n) - sent)
        except asyncio.TimeoutError:
            stats.errors.append(f"echo {table.room}: message {n} never reached every socket")
            return


async def deal(tables, limit: int | None = None) -> list[tuple[int, list[tuple[int, dict]], int]]:
    """准备 from every seat of every table (each table's five seated sockets, whose
    `snapshots` queue their snapshots; the last seat's 准备 deals), then each table's hand
    id, moves (up to ``limit``) and first version (`moves_of`), once every seat has the
    dealt hand."""
    from asgiref.sync import sync_to_async

    tables = [list(sockets) for sockets in tables]
    for sockets in tables:
        for socket in sockets:
            await socket.send({"type": "ready"})
    plans = []
    for sockets in tables:
        for socket in sockets:
            while (snap := await socket.snapshots.get())["hand"] is None:
                pass
        plans.append((snap["hand"]["id"], *await sync_to_async(moves_of)(snap["hand"]["id"], limit)))
    return plans


async def run(server_url: str, tables: list[dict], cpu=lambda: None, during_game=contextlib.nullcontext):
    """Play, then the echo runs; `cpu()` is the server's CPU seconds so far (None: unknown),
    `during_game()` a context the game is played in."""
    # Connect every seat of every room, and deal (not timed).
    game, rooms = Stats(), []
    for spec in tables:
        table = Table(spec["room"])
        sockets = [Socket(f"{server_url}/ws/rooms/{spec['room']}/", session, game, table, seat)
                   for seat, session in enumerate(spec["sessions"])]
        for socket in sockets:
            await socket.open()
            await socket.snapshots.get()
        rooms.append((table, sockets))
    plans = await deal(sockets for _, sockets in rooms)

    print(f"playing {len(rooms)} hands …", flush=True)
    began, used, client, services = time.perf_counter(), cpu(), time.process_time(), services_cpu()
    with during_game():
        await asyncio.gather(*(play_room(table, sockets, moves, start, hand, game)
                               for (table, sockets), (hand, moves, start) in zip(rooms, plans)))
    game_seconds = time.perf_counter() - began
    game.cpu = None if used is None else cpu() - used
    game.client = time.process_time() - client
    game.services = {name: seconds - services[name] for name, seconds in services_cpu().items()}
    for _, sockets in rooms:
        for socket in sockets:
            await socket.close()

    runs = {"game": (game, game_seconds),
            "echo": await run_echo(rooms, plans, lambda index, room: f"{server_url}/ws/echo/bench{index}/", cpu)}
    for name in ("write", "raw", "loop"):
        path = "echo-write" if name == "write" else f"echo-{name}"
        runs[name] = await run_echo(rooms, plans, lambda index, room, path=path: f"{server_url}/ws/{path}/{room}/",
                                    cpu)
    return runs


async def run_echo(rooms, plans, url_of, cpu) -> tuple[Stats, float]:
    """As many echo messages per room as the game had moves, every room at once;
    `url_of(index, room id)` is the echo socket's address."""
    echo, echo_rooms = Stats(), []
    for index, (game_table, _) in enumerate(rooms):
        table = Table(game_table.room)
        sockets = [Socket(url_of(index, game_table.room), None, echo, table, seat) for seat in range(5)]
        for socket in sockets:
            await socket.open()
        echo_rooms.append((table, sockets))
    await asyncio.sleep(0.5)  # group_add has reached Redis for every socket
    began, used, client = time.perf_counter(), cpu(), time.process_time()
    await asyncio.gather(*(echo_room(table, sockets, len(moves), echo)
                           for (table, sockets), (_, moves, _) in zip(echo_rooms, plans)))
    seconds = time.perf_counter() - began
    echo.cpu = None if used is None else cpu() - used
    echo.client = time.process_time() - client
    for _, sockets in echo_rooms:
        for socket in sockets:
            await socket.close()
    return echo, seconds


def report(rooms: int, runs: dict) -> dict:
    """Print a run's figures; returns each line's p50 (ms) and the game's moves a second."""
    def line(name, stats, seconds):
        count = len(stats.latencies)
        p50, p99 = percentile(stats.latencies, 0.5) * 1000, percentile(stats.latencies, 0.99) * 1000
        cpu = "" if stats.cpu is None else f"   server CPU {stats.cpu / count * 1000:5.2f} ms/msg"
        cpu += f"   load generator {stats.client / count * 1000:5.2f} ms/msg"
        print(f"{name:5} {count:6d} msgs in {seconds:6.2f} s = {count / seconds:7.1f}/s   "
              f"p50 {p50:7.2f} ms   p99 {p99:7.2f} ms   mean {statistics.fmean(stats.latencies) * 1000:7.2f} ms"
              f"   errors {len(stats.errors)}{cpu}")
        return p50

    load = os.getloadavg()[0]
    print(f"{rooms} rooms × 5 clients, one hand each (latency: sent → all five seats have it); "
          f"load average {load:.1f} on {os.cpu_count()} cores")
    p50 = {name: line(name, *run) for name, run in runs.items()}
    print(f"game p50 / echo p50 = {p50['game'] / p50['echo']:.2f}×  (goal ≤ 2×)")
    game, _ = runs["game"]
    if game.cpu is not None:
        count = len(game.latencies)
        parts = {"server": game.cpu, "PostgreSQL": game.services["postgres"], "Redis": game.services["redis-server"],
                 "load generator": game.client}
        total = sum(parts.values()) / count
        shares = " + ".join(f"{name} {seconds / count * 1000:.2f}" for name, seconds in parts.items())
        print(f"game, CPU per move: {shares} = {total * 1000:.2f} ms; the machine's {os.cpu_count()} cores "
              f"do at most {os.cpu_count() / total:,.0f} moves/s at that cost")
    print("one committed write per message, p50 / echo p50: "
          + ",  ".join(f"{name} {p50[name] / p50['echo']:.2f}×" for name in ("write", "raw", "loop")))
    for error in [error for stats, _ in runs.values() for error in stats.errors][:10]:
        print("  error:", error)
    return {**p50, "rate": len(game.latencies) / runs["game"][1]}


def summary(figures: list[dict]) -> None:
    """The medians of several runs' figures (`report`'s), with their range."""
    def spread(values: list[float], unit: str = "") -> str:
        return f"{statistics.median(values):.2f}{unit} ({min(values):.2f}–{max(values):.2f})"

    print(f"over {len(figures)} runs, median (range): game p50 {spread([f['game'] for f in figures], ' ms')}, "
          f"echo p50 {spread([f['echo'] for f in figures], ' ms')}, "
          f"game {statistics.median([f['rate'] for f in figures]):,.0f} moves/s")
    print("  p50 / echo p50 in the same run: "
          + ",  ".join(f"{name} {spread([f[name] / f['echo'] for f in figures], '×')}"
                       for name in ("game", "write", "raw", "loop")))


@contextlib.contextmanager
def profiled(pid: int, path: str):
    """py-spy records the server process `pid` (this machine's) into `path` meanwhile."""
    recorder = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "--pid", str(pid),
                                 "--rate", "250", "--gil", "--format", "raw", "--output", path],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        yield
    finally:
        recorder.send_signal(signal.SIGINT)  # py-spy writes what it recorded, then exits
        _, errors = recorder.communicate()
        if recorder.returncode != 0 or not Path(path).exists():
            print(f"py-spy failed: {errors.decode()[-500:]}", flush=True)


def main():
    args = parse_args()
    if args.profile and (args.url or args.workers > 1):
        sys.exit("--profile records the one server process this script starts: not with --url or --workers")
    django_on(args.database, args.redis)
    from tests.live import Server, channel_prefix, server_env

    prefix = channel_prefix()
    from django.conf import settings

    # Production settings (the sessions made here are signed with this process's key).
    env = server_env(database=args.database, redis=args.redis, prefix=prefix, BENCH_ECHO=1,
                     DB_POOL_MAX=args.pool, CELERY_QUEUE=f"{prefix}celery", DEBUG=0,
                     SECRET_KEY=settings.SECRET_KEY, SECURE_SSL_REDIRECT=0)
    figures = []

    def measure(url: str, cpu=lambda: None, pid: int | None = None) -> None:
        for number in range(args.runs):
            if number:
                vacuum(args.database)  # the first run's was made by django_on
            profiling = args.profile and number == 0
            during_game = functools.partial(profiled, pid, args.profile) if profiling else contextlib.nullcontext
            figures.append(report(args.rooms, uvloop.run(run(url, make_tables(args.rooms, args.preset), cpu,
                                                             during_game))))

    if args.url:
        measure(args.url)
    else:
        options = ("--workers", str(args.workers)) if args.workers > 1 else ()
        server = Server(env=env, log_path=ROOT / "var" / "bench_live_uvicorn.log", options=options).start()
        try:
            measure(server.ws_url, lambda: server_cpu(server.process.pid), server.process.pid)
        finally:
            server.stop()
            import redis

            redis.Redis.from_url(args.redis).delete(f"{prefix}celery")  # timers nobody will run
    if len(figures) > 1:
        summary(figures)


if __name__ == "__main__":
    main()
