"""Timing of GET /api/leaderboard/ on a big ledger, per period (issue 7).

Run (PostgreSQL; the database, `DATABASE_URL` or bh_api on this machine, is created, migrated
and seeded on first use, then reused):

    .venv/bin/python bench/bench_leaderboard.py

Seeds 1,000 players (50 of them bots, who must not be ranked) and 200,000 ledger entries
in bulk (one INSERT … SELECT over generate_series: 90 % hand scores, the rest leave
penalties, 进贡 points and adjustments, in three presets, spread over the last 365 days),
rebuilds the running totals (`LedgerTotal`, which the services keep on every write and
the all-time board reads) and gives each player a skill rating per preset, then sends
200 requests (`--requests`) per period to the in-process Django app (Django's test
client, no network, throttling off) and prints median and p99 in milliseconds, plus the
database's plan for a period's board with --explain PERIOD. Goal: p99 < 50 ms all time.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baohuang.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bh_api")

import django  # noqa: E402

django.setup()

from bench_live import prepare_database  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client, override_settings  # noqa: E402

from scoring import leaderboard  # noqa: E402
from rooms.models import Player  # noqa: E402
from scoring.models import LedgerEntry, Rating  # noqa: E402
from scoring.services import totals_rebuild  # noqa: E402

PLAYERS, BOTS, ENTRIES, REQUESTS = 1_000, 50, 200_000, 200
PREFIX = "bench-"
CASES = [("all", {}), ("30d", {"period": "30d"}), ("7d", {"period": "7d"}), ("today", {"period": "today"}),
         ("all, qingdao", {"preset": "qingdao"}), ("all, page 10", {"page": 10, "page_size": 50}),
         ("all, 100+ hands", {"min_hands": 100}),
         # By skill rating (each player's `Rating` per preset): one preset, then the best of three.
         ("rating, classic", {"order": "rating", "preset": "classic"}), ("rating, all", {"order": "rating"}),
         ("rating, 30d", {"order": "rating", "period": "30d"})]


def seeded() -> bool:
    players = Player.objects.filter(username__startswith=PREFIX)
    return (players.count() == PLAYERS
            and LedgerEntry.objects.filter(player__username__startswith=PREFIX).count() == ENTRIES
            and Rating.objects.filter(player__username__startswith=PREFIX).count() == 3 * PLAYERS)


@transaction.atomic
def seed() -> None:
    ledger, player_table = LedgerEntry._meta.db_table, Player._meta.db_table
    with connection.cursor() as cursor:
        # The ledger refuses deletes through the ORM (append-only); a benchmark's own rows go by SQL.
        cursor.execute(f"DELETE FROM {ledger} WHERE player_id IN "
                       f"(SELECT id FROM {player_table} WHERE username LIKE %s)", [PREFIX + "%"])
    Player.objects.filter(username__startswith=PREFIX).delete()
    Player.objects.bulk_create(
        Player(username=f"{PREFIX}{n:04d}", display_name=f"player {n}", is_bot=n < BOTS, password="!")
        for n in range(PLAYERS))
    with connection.cursor() as cursor:
        cursor.execute(f"""
            WITH ids AS (SELECT array_agg(id ORDER BY id) AS ids FROM {player_table} WHERE username LIKE %(prefix)s),
                 rows AS (SELECT random() AS r, random() AS kind_r, g FROM generate_series(1, %(entries)s) g)
            INSERT INTO {ledger} (player_id, kind, points, note, created, preset, won)
            SELECT ids.ids[1 + floor(rows.r * %(players)s)::int],
                   CASE WHEN kind_r < 0.90 THEN 'hand_score' WHEN kind_r < 0.95 THEN 'tribute_points'
                        WHEN kind_r < 0.99 THEN 'leave_penalty' ELSE 'adjustment' END,
                   CASE WHEN kind_r < 0.99 THEN floor(random() * 13)::int - 6 ELSE 10 END,
                   'bench',
                   now() - random() * interval '365 days',
                   (ARRAY['classic', 'lianzhong', 'qingdao'])[1 + (g %% 3)],
                   CASE WHEN kind_r < 0.90 THEN random() < 0.5 END
              FROM rows, ids
        """, {"prefix": PREFIX + "%", "entries": ENTRIES, "players": PLAYERS})
    totals_rebuild()  # the bulk insert bypassed the services that keep the running totals
    with connection.cursor() as cursor:  # a rating per player and preset
        cursor.execute(f"DELETE FROM {Rating._meta.db_table} WHERE player_id IN "
                       f"(SELECT id FROM {player_table} WHERE username LIKE %s)", [PREFIX + "%"])
        cursor.execute(f"""
            INSERT INTO {Rating._meta.db_table} (player_id, preset, mu, sigma, ordinal, hands, updated)
            SELECT p.id, preset, 25 + m, 3, 16 + m, 60, now()
              FROM {player_table} p, unnest(ARRAY['classic', 'lianzhong', 'qingdao']) preset,
                   LATERAL (SELECT random() * 20 - 10 + 0 * p.id AS m) r
             WHERE p.username LIKE %s
        """, [PREFIX + "%"])


def analyze() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM ANALYZE {LedgerEntry._meta.db_table}")
        cursor.execute(f"VACUUM ANALYZE {Player._meta.db_table}")
        cursor.execute(f"VACUUM ANALYZE {Rating._meta.db_table}")


def timed(client: Client, params: dict, requests: int) -> list[float]:
    samples = []
    for _ in range(requests):
        start = time.perf_counter()
        response = client.get("/api/leaderboard/", params, HTTP_HOST="localhost")
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.content[:300]
    return samples


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def explain(period: str) -> None:
    since = leaderboard.period_start(period)
    sql = leaderboard._sql(order="points", since=since is not None, preset=False)
    params = {"since": since, "preset": None, "hand_score": "hand_score", "bot": False, "limit": 50, "offset": 0,
              "min_hands": 0}
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
        print("\n".join(row[0] for row in cursor.fetchall()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reseed", action="store_true", help="seed again even if the data is there")
    parser.add_argument("--explain", choices=leaderboard.PERIODS, help="print the plan of that period's board")
    parser.add_argument("--requests", type=int, default=REQUESTS, help="requests per case")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Set DATABASE_URL to a PostgreSQL database (the seeding uses generate_series).")
    prepare_database(os.environ["DATABASE_URL"])
    if args.reseed or not seeded():
        start = time.perf_counter()
        seed()
        analyze()
        print(f"seeded {PLAYERS} players and {ENTRIES} ledger entries in {time.perf_counter() - start:.1f} s")
    total = LedgerEntry.objects.count()
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"ledger: {total} entries; {args.requests} requests per case, in process; times in ms; "
          f"load average {load} on {os.cpu_count()} CPUs")
    rates = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None}}
    with override_settings(REST_FRAMEWORK=rates):
        client = Client()
        for _ in range(10):  # warm the connection, caches and the plan
            client.get("/api/leaderboard/", HTTP_HOST="localhost")
        print(f"{'case':<16}{'median':>9}{'p99':>9}{'max':>9}")
        for label, params in CASES:
            samples = timed(client, params, args.requests)
            print(f"{label:<16}{statistics.median(samples):9.2f}{p99(samples):9.2f}{max(samples):9.2f}")
    if args.explain:
        explain(args.explain)


if __name__ == "__main__":
    main()
