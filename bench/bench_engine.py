"""Engine benchmark: legal-action enumeration per decision, actions and hands per second.

Run: .venv/bin/python bench/bench_engine.py [--hands N] [--profile]
Prints figures only (no asserts). Goals (issue 2): enumeration p99 under 2 ms, at least
50,000 actions applied per second on one core with validation included.

Per preset:
- (a) ``legal_actions`` per decision over the positions of random play (the simulator's
  automatic players): median / p99 / max, for all decisions and for play decisions only;
- (b) worst case: a 44-card classic hand holding all 8 jokers, leading and following;
- (c) ``apply`` throughput: the recorded actions of those hands replayed from a fresh deal
  (validation included, as ``apply`` always validates) — actions/s and hands/s;
- (d) whole simulated hands per second, the automatic players' choices included.
Timings are CPU time of this thread (``time.thread_time_ns``), so a busy machine that
preempts the process does not inflate them.
``--profile`` adds a cProfile of simulated play (top functions by own time).
"""

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from baohuang.engine import actors, apply, legal_actions, new_hand, state_from_hands  # noqa: E402
from baohuang.engine.cards import PRESETS  # noqa: E402
from baohuang.engine.simulate import Mood, choose, hand_seed, play_hand  # noqa: E402

CLOCK = time.thread_time_ns
# 44 cards: 3..A in three suits and all eight jokers (four SJ, three BJ and BJ*).
WORST_HAND = " ".join([rank + suit for rank in "3456789TJQKA" for suit in "SHC"]
                      + ["SJ"] * 4 + ["BJ"] * 3 + ["BJ*"])
# Sets of 3s as a deck holds them (at most four copies of a card, RULES §2).
WORST_TOPS = [None, "3D", "3D 3D", "3D 3D 3D", "3D 3D 3D 3D", "3D 3D 3D 3D 3C",
              "3D 3D 3D SJ", "3D 3D SJ SJ", "3D 3D 3D 3D 3C 3C 3C 3C"]


def percentiles(samples_us: list[float]) -> str:
    ordered = sorted(samples_us)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"median {statistics.median(ordered):7.1f} us  p99 {p99:7.1f} us  "
            f"max {ordered[-1]:7.1f} us  (n={len(ordered)})")


def record_hands(preset: str, hands: int, seed: int):
    """Random hands: ``(seed, actions, decision states)`` with every decision's state."""
    played = []
    for hand in range(hands):
        this_seed = hand_seed(seed, hand)
        rng = random.Random(f"{this_seed}:players")
        mood = Mood.draw(rng)
        state = new_hand(preset, this_seed)
        actions, positions = [], []
        while actors(state):
            positions.append(state)
            action = choose(state, rng, mood)
            state, _ = apply(state, action)
            actions.append(action)
        played.append((this_seed, actions, positions))
    return played


def time_enumeration(played) -> tuple[list[float], list[float]]:
    every, plays = [], []
    for _seed, _actions, positions in played:
        for state in positions:
            for seat in actors(state):
                start = CLOCK()
                legal_actions(state, seat)
                elapsed = (CLOCK() - start) / 1000
                every.append(elapsed)
                if state["phase"] == "playing":
                    plays.append(elapsed)
    return every, plays


def time_worst_case() -> None:
    hands = [WORST_HAND, "4D", "5D", "6D", "7D"]
    for top in WORST_TOPS:
        state = state_from_hands("classic", hands, emperor=0, guard=1, called="4D")
        if top is not None:
            # Seat 4 (the emperor's 上家) sets the top; seat 0 then follows it.
            state = state_from_hands("classic", [WORST_HAND, "4D", "5D", "6D", top + " 7D"],
                                     emperor=4, guard=1, called="4D")
            state, _ = apply(state, {"seat": 4, "type": "play", "cards": top})
        seat = state["turn"]
        assert seat == 0, state["turn"]
        found = len(legal_actions(state, seat))
        samples = []
        for _ in range(300):
            start = CLOCK()
            legal_actions(state, seat)
            samples.append((CLOCK() - start) / 1000)
        label = "lead" if top is None else "on " + top
        print(f"  (b) worst 44 cards {label:26s} {found:5d} actions  {percentiles(samples)}")


def time_apply(preset: str, played) -> None:
    dealing = applying = 0
    count = 0
    for seed, actions, _positions in played:
        start = CLOCK()
        state = new_hand(preset, seed)
        dealt = CLOCK()
        for action in actions:
            state, _ = apply(state, action)
        done = CLOCK()
        dealing += dealt - start
        applying += done - dealt
        count += len(actions)
    hands = len(played)
    print(f"  (c) apply (validated), replaying {hands} hands: "
          f"{count / (applying / 1e9):9.0f} actions/s; with the deal "
          f"{hands / ((dealing + applying) / 1e9):7.1f} hands/s "
          f"({count / hands:.0f} actions per hand, deal {dealing / hands / 1000:.0f} us)")


def time_simulation(preset: str, hands: int, seed: int) -> None:
    start = CLOCK()
    count = 0
    for hand in range(hands):
        _state, actions = play_hand(preset, hand_seed(seed, hand))
        count += len(actions)
    seconds = (CLOCK() - start) / 1e9
    print(f"  (d) simulated hands with automatic players: {hands / seconds:7.1f} hands/s  "
          f"{count / seconds:9.0f} actions/s (choices and enumeration included)")


def profile_simulation(preset: str, hands: int, seed: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for hand in range(hands):
        play_hand(preset, hand_seed(seed, hand))
    profiler.disable()
    print(f"  cProfile of {hands} simulated {preset} hands, top 12 by own time:")
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(12)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60, help="hands per preset (default 60)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    for preset in PRESETS:
        print(f"{preset}:")
        played = record_hands(preset, args.hands, args.seed)
        every, plays = time_enumeration(played)
        print(f"  (a) legal_actions, every decision      {percentiles(every)}")
        print(f"  (a) legal_actions, play decisions only {percentiles(plays)}")
        if preset == "classic":
            time_worst_case()
        time_apply(preset, played)
        time_simulation(preset, max(10, args.hands // 2), args.seed + 1)
        if args.profile:
            profile_simulation(preset, max(5, args.hands // 6), args.seed + 2)


if __name__ == "__main__":
    main()
