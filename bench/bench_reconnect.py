"""A server process coming back: every page of N tables reconnecting at once.

Run (PostgreSQL and Redis on this machine):

    .venv/bin/python bench/bench_reconnect.py --tables 300 1000

For each N it seats five guests at N fresh tables and deals every hand (through the
services, in this process), starts the server with production settings, then opens every
table's five seats' sockets and one spectator's per ten tables all at once, as their pages
do when the process they were on comes back. Each socket follows the page's rules
(static/js/connection.js): a `ping` after every 2 s in which it heard nothing; a socket
that has heard nothing for `DROP_AFTER` seconds is closed and opened again, as is one whose
opening failed, after the page's back-off. A socket with its snapshot stays open, reading
and pinging as the page does, until every socket has had its own (a page does not leave
once it has its table; its socket closing would be a seat going offline, for the server to
show, in the middle of the storm). It prints how long until every socket had its
snapshot (p50 and p99 of each socket's wait from the start, and the last), how many
openings that took (more than the sockets: pages that gave up and tried again), the
server's CPU per socket, how many seats the server shows online once every socket has had
its snapshot (all of them: no page has left), and errors (error frames; sockets still
without a snapshot after `LIMIT` seconds; a socket closed after its snapshot). With
`--nginx` the sockets go through deploy/'s nginx site with TLS, as they do in production
(each opening a TLS handshake), and nginx's CPU per socket is printed too.
"""

import argparse
import asyncio
import os
import random
import sys
import time
from pathlib import Path

import orjson
import uvloop
from asgiref.sync import sync_to_async

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_live import django_on, make_tables, percentile, server_cpu, services_cpu  # noqa: E402
from proxy import Proxy  # noqa: E402

# The page's rules (static/js/connection.js)
PING_EVERY = 2.0
DROP_AFTER = 6.0
BACKOFF_FIRST, BACKOFF_MAX = 0.5, 5.0
SPECTATOR_EVERY = 10
LIMIT = 600.0  # seconds: a socket without its snapshot by then is an error


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[300, 1000])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/bh_capacity_bench")
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/2"))
    parser.add_argument("--nginx", action="store_true",
                        help="the sockets through deploy/'s nginx site with TLS, as production runs "
                        "(nginx's CPU is reported too)")
    return parser.parse_args()


def backoff(retries: int, rng: random.Random) -> float:
    """The page's wait before its next opening (`Connection.backoff`)."""
    return min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** retries) * rng.uniform(0.5, 1.0)


class Page:
    """One page's socket to its room, reconnecting as the page does until it has a snapshot."""

    def __init__(self, url: str, session: str | None, rng: random.Random, tally: dict, tls=None):
        self.url, self.session, self.rng, self.tally, self.tls = url, session, rng, tally, tls
        self.origin = "http" + url.removeprefix("ws").split("/ws/")[0]  # the page's own (the server checks it)
        self.waited = asyncio.get_running_loop().create_future()  # seconds from the start to its snapshot

    async def open_until(self, began: float, everyone: asyncio.Event) -> None:
        """Open the page's socket, again as the page does, until it has its snapshot (then
        `waited` has the time it took, or what went wrong); keep it open, as the page does,
        until `everyone`."""
        try:
            await self._open_until(began, everyone)
        except Exception as error:  # reported with the errors, not left unread in the task
            if self.waited.done():
                self.tally["errors"].append(repr(error))
            else:
                self.waited.set_exception(error)

    async def _open_until(self, began: float, everyone: asyncio.Event) -> None:
        import websockets

        headers = {"Cookie": f"sessionid={self.session}"} if self.session else {}
        retries = 0
        while True:
            self.tally["openings"] += 1
            try:
                async with websockets.connect(self.url, origin=self.origin, additional_headers=headers,
                                              max_size=2**22, open_timeout=None, ping_interval=None,
                                              ssl=self.tls) as ws:
                    retries = 0  # as the page: reset when the socket opens
                    if await self.heard_snapshot(ws):
                        self.waited.set_result(time.perf_counter() - began)
                        await self.stay_open(ws, everyone)
                        return
                    self.tally["dropped"] += 1
            except (OSError, websockets.exceptions.WebSocketException):
                if self.waited.done():  # closed after its snapshot (a page would open again), or as it left
                    if not everyone.is_set():
                        self.tally["errors"].append("a socket closed after its snapshot")
                    return
                self.tally["failed"] += 1
            await asyncio.sleep(backoff(retries, self.rng))
            retries += 1

    async def stay_open(self, ws, everyone: asyncio.Event) -> None:
        """Read what comes, pinging after each PING_EVERY of silence, until `everyone`."""
        heard = time.perf_counter()
        while not everyone.is_set():
            try:
                self.tally_errors(orjson.loads(await asyncio.wait_for(ws.recv(), 0.5)))
                heard = time.perf_counter()
            except TimeoutError:
                if time.perf_counter() - heard >= PING_EVERY:
                    await ws.send(orjson.dumps({"type": "ping", "t": time.time()}).decode())
                    heard = time.perf_counter()

    def tally_errors(self, frame: dict) -> None:
        if frame.get("type") == "error":
            self.tally["errors"].append(frame["code"])

    async def heard_snapshot(self, ws) -> bool:
        """Read until the snapshot, pinging after each PING_EVERY of silence; False once silent for
        DROP_AFTER seconds (the page closes the socket)."""
        heard = time.perf_counter()
        while True:
            quiet = time.perf_counter() - heard
            if quiet >= DROP_AFTER:
                return False
            try:
                text = await asyncio.wait_for(ws.recv(), min(PING_EVERY, DROP_AFTER - quiet))
            except TimeoutError:
                await ws.send(orjson.dumps({"type": "ping", "t": time.time()}).decode())
                continue
            heard = time.perf_counter()
            frame = orjson.loads(text)
            if frame.get("type") == "snapshot":
                return True
            self.tally_errors(frame)


async def storm(url: str, specs: list[dict], pid: int, seed: int, tls=None) -> dict:
    rng = random.Random(seed)
    tally = {"openings": 0, "dropped": 0, "failed": 0, "errors": []}
    pages = []
    for number, spec in enumerate(specs):
        room_url = f"{url}/ws/rooms/{spec['room']}/"
        sessions = spec["sessions"] + ([None] if number % SPECTATOR_EVERY == 0 else [])
        pages += [Page(room_url, session, random.Random(rng.random()), tally, tls) for session in sessions]
    cpu, nginx, began, everyone = server_cpu(pid), services_cpu()["nginx"], time.perf_counter(), asyncio.Event()
    tasks = [asyncio.ensure_future(page.open_until(began, everyone)) for page in pages]
    done, late = await asyncio.wait([page.waited for page in pages], timeout=LIMIT)
    cpu, nginx = (server_cpu(pid) - cpu) / len(pages), (services_cpu()["nginx"] - nginx) / len(pages)
    online = await sync_to_async(seats_online)([spec["room"] for spec in specs])
    everyone.set()  # the pages close
    _, stuck = await asyncio.wait(tasks, timeout=PING_EVERY * 5)
    for task in stuck:
        task.cancel()
    tally["errors"] += [f"{len(late)} sockets without a snapshot after {LIMIT:g} s"] if late else []
    tally["errors"] += [repr(waited.exception()) for waited in done if waited.exception() is not None]
    waits = [waited.result() for waited in done if waited.exception() is None]
    return {"sockets": len(pages), "waits": waits, "cpu": cpu, "nginx": nginx if tls else None, "online": online,
            **tally}


def seats_online(rooms: list[int]) -> str:
    """How many of the rooms' seats the server shows online, "N of M"."""
    from rooms.models import Seat

    seats = Seat.objects.filter(room_id__in=rooms, player__isnull=False)
    return f"{seats.filter(online=True).count()} of {seats.count()}"


def report(n: int, result: dict) -> None:
    waits = result["waits"] or [float("nan")]
    print(f"N={n:5d} tables, {result['sockets']:6d} sockets: {len(result['waits'])} had their snapshot, "
          f"the last after {max(waits):.1f} s (p50 {percentile(waits, 0.5):.1f} s, "
          f"p99 {percentile(waits, 0.99):.1f} s)   "
          f"{result['openings']} openings ({result['dropped']} dropped silent, {result['failed']} failed)   "
          f"seats online {result['online']}   "
          f"server CPU {result['cpu'] * 1000:.1f} ms a socket   "
          + ("" if result["nginx"] is None else f"nginx CPU {result['nginx'] * 1000:.1f} ms a socket   ")
          + f"errors {len(result['errors'])}", flush=True)
    for error in result["errors"][:5]:
        print("   error:", error)


def deal_all(specs: list[dict]) -> None:
    """A hand running at every table (its timers queued on this script's own queue)."""
    from rooms.services import hand_start

    for spec in specs:
        hand_start(room_id=spec["room"])


def main():
    args = parse_args()
    os.environ["CELERY_QUEUE"] = queue = f"bench-reconnect-{os.getpid()}"
    django_on(args.database, args.redis)
    from django.conf import settings

    from tests.live import Server, channel_prefix, server_env

    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; every socket opening at once, "
          f"dropped after {DROP_AFTER:g} s of silence as the page does", flush=True)
    for n in args.tables:
        prefix = channel_prefix()
        proxy = Proxy() if args.nginx else None
        env = server_env(database=args.database, redis=args.redis, prefix=prefix, CELERY_QUEUE=f"{prefix}celery",
                         DEBUG=0, SECRET_KEY=settings.SECRET_KEY, SECURE_SSL_REDIRECT=0, **(proxy.env if proxy else {}))
        specs = make_tables(n, "classic")
        deal_all(specs)
        server = Server(env=env, log_path=ROOT / "var" / "bench_reconnect_uvicorn.log",
                        options=("--backlog", "4096"))
        try:
            server.start()
            if proxy:
                proxy.start([server])
            result = uvloop.run(storm(proxy.ws_url if proxy else server.ws_url, specs, server.process.pid, args.seed,
                                      proxy.tls if proxy else None))
        finally:
            if proxy:
                proxy.stop()
            server.stop()
            import redis

            redis.Redis.from_url(args.redis).delete(f"{prefix}celery", queue)
        report(n, result)


if __name__ == "__main__":
    main()
