"""Timing of legal_sets, the enumeration run on every decision of every hand.

Run: .venv/bin/python bench/bench_legal.py
Prints median and p99 (microseconds) over (a) random positions per preset — dealt hands
of random size, leading or following a random legal set — and (b) the worst case: a
44-card classic hand holding all 8 jokers, as a lead and as a follow. Target: p99 < 2 ms.
"""

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from baohuang.engine.cards import build_deck  # noqa: E402
from baohuang.engine.presets import PRESET, PRESETS  # noqa: E402
from baohuang.engine.sets import legal_sets  # noqa: E402

WORST_HAND = ([rank + suit for rank in "3456789TJQKA" for suit in "SHC"]
              + ["SJ"] * 4 + ["BJ"] * 3 + ["BJ*"])
WORST_TOPS = [None, ["3D"], ["3D", "3D"], ["3D", "3D", "3D"], ["3D"] * 4, ["3D"] * 5,
              ["3D"] * 6, ["3D", "3D", "SJ"], ["3D", "3D", "SJ", "SJ"]]


def timed(call, repeat: int) -> list[float]:
    """Microseconds per call, one sample per call."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        call()
        samples.append((time.perf_counter_ns() - start) / 1000)
    return samples


def summary(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"median {statistics.median(ordered):7.1f} us   p99 {p99:7.1f} us   max {ordered[-1]:7.1f} us"


def random_positions(preset: str, count: int, rng: random.Random):
    deck = build_deck(preset)
    for _ in range(count):
        rng.shuffle(deck)
        hand = deck[:rng.randint(1, PRESET[preset].deal_size)]
        top = None
        if rng.random() < 0.6:
            other = [card for card in deck[60:100] if card[0] != "3"]
            top = rng.choice(legal_sets(other, preset))
        yield hand, top, PRESET[preset].sixes_option and rng.random() < 0.5


def main() -> None:
    rng = random.Random(2026)
    for preset in PRESETS:
        samples = []
        for hand, top, hold_sixes in random_positions(preset, 3000, rng):
            samples += timed(lambda: legal_sets(hand, preset, top=top, hold_sixes=hold_sixes), 1)
        print(f"(a) {preset:10s} random positions   {summary(samples)}")
    assert len(WORST_HAND) == 44
    for top in WORST_TOPS:
        found = len(legal_sets(WORST_HAND, "classic", top=top))
        samples = timed(lambda: legal_sets(WORST_HAND, "classic", top=top), 2000)
        label = "lead" if top is None else "on " + " ".join(top)
        print(f"(b) worst 44 cards, {label:20s} {found:4d} sets  {summary(samples)}")


if __name__ == "__main__":
    main()
