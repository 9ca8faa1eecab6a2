"""Service-level throughput of `hand_act`: plays whole hands through the service against a
scratch database (created and migrated on first use) and prints actions/s, CPU per action
and queries per action.

    .venv/bin/python bench/bench_hand_act.py --hands 10 [--profile]
    .venv/bin/python bench/bench_hand_act.py --database postgres://postgres@127.0.0.1:5432/bh_perf \
        --redis redis://127.0.0.1:6379/9
"""

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_live import django_on  # noqa: E402


def play(hands: int):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from baohuang import engine
    from rooms.models import Hand
    from rooms.services import player_guest, room_create, seat_take
    from rooms.services.acting import hand_act
    from rooms.services.hands import hand_start

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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/bh_perf")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/9")
    args = parser.parse_args()
    django_on(args.database, args.redis)
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
