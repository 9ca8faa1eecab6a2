"""The stronger 托管 policy against the baseline, and the search bot against strong, over
simulated hands (issues 5 and 18).

Run: .venv/bin/python bench/bench_policy.py [--hands 2000] [--field baseline|strong]
     [--presets classic lianzhong qingdao]  (run presets as separate processes to use cores)
     [--first K]  (start at deal number K: split one preset over processes, e.g. K = 0, 500)
     .venv/bin/python bench/bench_policy.py --hero search --deals 200 [--budget 1.0 |
     --iterations N]  (the search bot in one seat among four strong seats)

Each hand is dealt twice from the same seed. In the *trial* the hero seat (hand number
mod 5, so every seat takes its turn) plays the strong policy and the other four play the
field's policy; in the *control* all five play the field's policy. The table gives, per
preset, the hero seat's mean points per hand in the trial and in the control, and the
paired difference with its 95% confidence interval (normal approximation,
1.96 · sd / √n). The same deal on both sides removes most of the luck of the cards.

`--field baseline` (default): one strong seat among four baseline seats — the issue's
measure. `--field strong`: one *baseline* seat among four strong ones is the trial, so
the difference is what a seat loses by playing the baseline at a strong table (sign
flipped, so positive still means "strong is better").

`--hero search` (issue 18): the trial puts the search bot (`search.search`, at
``--budget`` seconds per decision, or exactly ``--iterations`` sampled worlds) in the hero
seat among four strong seats; the control is five strong seats. The difference is the
search seat's points minus a strong seat's on the same deal and seat. It also prints the
search bot's decision time, median and p99 (wall clock, and CPU time of the process: on
a loaded machine the wall clock also counts waiting for a core), over every decision it
took, bidding and declarations included, and how many worlds it sampled per searched
decision (forced ones sample none; the last world begun at the deadline is counted).

Hands are independent: no qingdao tribute carries between them, and the baseline
accepts every throne, so no hand is void.
"""

import argparse
import itertools
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from baohuang.engine import PRESETS, actors, apply, new_hand, search_roles  # noqa: E402
from baohuang.engine import search as search_module  # noqa: E402
from baohuang.engine.policy import baseline  # noqa: E402
from baohuang.engine.simulate import hand_seed  # noqa: E402
from baohuang.engine.search import search  # noqa: E402
from baohuang.engine.strong import strong  # noqa: E402

POLICIES = {"baseline": baseline, "strong": strong}
DECISION_TIMES: list[float] = []  # wall-clock seconds per search decision, this process
DECISION_CPU: list[float] = []  # CPU seconds of this process per search decision
WORLDS: list[int] = []  # worlds sampled per searched decision


def _counting(compare):
    """`pimc.compare` that records in WORLDS how many worlds it drew."""
    def counted(worlds, *args, **kwargs):
        drawn = 0

        def counted_worlds():
            nonlocal drawn
            drawn += 1
            return worlds()
        try:
            return compare(counted_worlds, *args, **kwargs)
        finally:
            WORLDS.append(drawn)
    return counted


for _module in (search_module, search_roles):
    _module.compare = _counting(_module.compare)


def timed_search(budget: float, iterations):
    """The search policy at this budget, recording each decision's time; its seeds are
    0, 1, 2, … in decision order, so a run with ``--iterations`` repeats exactly."""
    seeds = itertools.count()

    def policy(state, seat):
        started, cpu = time.perf_counter(), time.process_time()
        action = search(state, seat, budget=budget, iterations=iterations, seed=next(seeds))
        DECISION_TIMES.append(time.perf_counter() - started)
        DECISION_CPU.append(time.process_time() - cpu)
        return action
    return policy
TABLE_SEED = "bench-policy"


def play(preset: str, seed: int, policies) -> list[int]:
    """One hand with ``policies[seat]`` deciding for each seat; the five scores."""
    state = new_hand(preset, seed)
    while actors(state):
        seat = actors(state)[0]
        state, _event = apply(state, policies[seat](state, seat))
    return state["result"]["scores"]


def dealable(preset: str, seed: int) -> bool:
    """Can the engine deal this seed? Engines before commit 8dc7047 failed a classic deal
    whose one leftover card was BJ* (StopIteration, about 1 deal in 216); the bench skips
    any seed it cannot deal and says how many."""
    try:
        new_hand(preset, seed)
    except StopIteration:
        return False
    return True


def one_hand(args) -> tuple[int, int]:
    """(hero's points in the trial, hero's points in the control) for hand ``number``."""
    preset, number, field, odd = args
    seed = hand_seed(TABLE_SEED, number)
    hero = number % 5
    other = POLICIES[field]
    trial = play(preset, seed, [odd if seat == hero else other for seat in range(5)])
    control = play(preset, seed, [other] * 5)
    return trial[hero], control[hero]


def _median_p99(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return f"{statistics.median(ordered):.3f} / {p99:.3f}"


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and 95% half-width."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", "--deals", type=int, default=2000)
    parser.add_argument("--field", choices=sorted(POLICIES), default="baseline")
    parser.add_argument("--hero", choices=("strong", "search"), default="strong")
    parser.add_argument("--budget", type=float, default=1.0, help="search: seconds per decision")
    parser.add_argument("--iterations", type=int, default=None, help="search: worlds per decision")
    parser.add_argument("--presets", nargs="*", default=list(PRESETS))
    parser.add_argument("--first", type=int, default=0, help="the first deal number")
    options = parser.parse_args()
    if options.hero == "search":
        options.field = "strong"
        odd_policy = timed_search(options.budget, options.iterations)
        odd = (f"search ({options.iterations} worlds)" if options.iterations
               else f"search ({options.budget:g} s)")
        heading = "search − strong"
    else:
        odd = "baseline" if options.field == "strong" else "strong"
        odd_policy = POLICIES[odd]
        heading = "strong − baseline"
    print(f"{options.hands} hands per preset; trial: one {odd} seat among four "
          f"{options.field}; control: five {options.field}; points per hand of that seat")
    print(f"{'preset':<18} {'trial':>8} {'control':>8} {heading:>18} "
          f"{'95% CI':>18} {'s/hand':>7} {'decision median / p99 (wall, CPU)':>36}")
    for preset in options.presets:
        started = time.perf_counter()
        numbers, number = [], options.first
        while len(numbers) < options.hands:
            if dealable(preset, hand_seed(TABLE_SEED, number)):
                numbers.append(number)
            number += 1
        DECISION_TIMES.clear()
        DECISION_CPU.clear()
        WORLDS.clear()
        rows = []
        for n in numbers:
            rows.append(one_hand((preset, n, options.field, odd_policy)))
            if len(rows) % 10 == 0 and len(rows) < len(numbers):
                so_far, half = interval([a - b for a, b in rows])
                print(f"  {preset}: {len(rows)} hands, trial − control {so_far:+.3f} "
                      f"± {half:.3f}", file=sys.stderr, flush=True)
        seconds = (time.perf_counter() - started) / options.hands
        trial = [row[0] for row in rows]
        control = [row[1] for row in rows]
        # positive: the odd policy is better (strong over baseline, search over strong)
        sign = -1 if odd == "baseline" else 1
        gain, half = interval([sign * (a - b) for a, b in rows])
        times = ""
        if DECISION_TIMES:
            times = f"{_median_p99(DECISION_TIMES)} s (CPU {_median_p99(DECISION_CPU)})"
        print(f"{preset:<18} {statistics.fmean(trial):>8.3f} {statistics.fmean(control):>8.3f} "
              f"{gain:>+18.3f} {f'[{gain - half:+.3f}, {gain + half:+.3f}]':>18} {seconds:>7.3f}"
              f" {times:>36}", flush=True)
        if WORLDS:
            ordered = sorted(WORLDS)
            p1 = ordered[int(0.01 * len(ordered))]
            print(f"{'':<10} worlds per searched decision: min {ordered[0]}, p1 {p1}, "
                  f"median {statistics.median(ordered):g}, max {ordered[-1]} "
                  f"({len(ordered)} decisions)", flush=True)
        skipped = number - options.first - options.hands
        if skipped:
            print(f"{'':<10} ({skipped} seeds skipped: the engine could not deal them)")


if __name__ == "__main__":
    main()
