"""Service-level throughput of `hand_act`: plays whole hands through the service against the
configured database (DATABASE_URL / REDIS_URL) and prints actions/s, CPU per action and queries
per action.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bh_perf REDIS_URL=redis://127.0.0.1:6379/9 \
        .venv/bin/python bench/bench_hand_act.py --hands 10 [--profile]
"""

import argparse
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baohuang.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from baohuang import engine  # noqa: E402
from rooms.models import Hand  # noqa: E402
from rooms.services import player_guest, room_create, seat_take  # noqa: E402
from rooms.services.acting import hand_act  # noqa: E402
from rooms.services.hands import hand_start  # noqa: E402


def play(hands: int):
    actions = queries = 0
    elapsed = cpu = 0.0
    for number in range(hands):
        players = [player_guest(nickname=f"hb{number}-{s}") for s in range(5)]
        room = room_create(creator=players[0], name=f"hb {number}", preset="classic")
        for s, p in enumerate(players):
            seat_take(room_id=room.pk, player=p, index=s)
        hand = hand_start(room_id=room.pk)
        while True:
            hand = Hand.objects.get(pk=hand.pk)
            if not hand.running:
                break
            seat = engine.actors(hand.state)[0]
            action = engine.autoplay(hand.state, seat, "baseline")
            start, start_cpu = time.perf_counter(), time.process_time()
            connection.queries_log.clear()
            with CaptureQueriesContext(connection) as ctx:
                change = hand_act(hand_id=hand.pk, seat=seat, action=action, expected_version=hand.version,
                                  client_id=f"c{hand.version}")
            elapsed += time.perf_counter() - start
            cpu += time.process_time() - start_cpu
            queries += len(ctx.captured_queries)
            actions += 1
            if change.next_hand is not None:
                break
    return actions, queries, elapsed, cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    play(1)  # warm up
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    actions, queries, elapsed, cpu = play(args.hands)
    if profiler:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)
    print(f"{actions} actions in {elapsed:.2f}s: {actions / elapsed:.1f} actions/s, "
          f"{1000 * elapsed / actions:.2f} ms/action, CPU {1000 * cpu / actions:.2f} ms/action (this process; "
          f"on a loaded machine the wall clock also counts waiting), {queries / actions:.2f} queries/action")


if __name__ == "__main__":
    main()
