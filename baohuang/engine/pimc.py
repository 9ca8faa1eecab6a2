"""Paired perfect-information Monte Carlo: weigh options over the same sampled worlds.

`compare(worlds, seat, ...)` calls ``worlds()`` once per sample; it returns one `fastsim.Sim`
per option — the same hidden cards and roles with that option taken — or None for an
option worth 0 (a void hand). Each is played out by the rollout policy, and the option
with the best total of ``seat``'s points wins (ties: the earlier option). Sampling stops
after ``iterations`` samples; without them, at the ``deadline`` (`time.perf_counter`):
no sample is begun that would likely end after it, and one that does is left out, so
only whole samples count (the first is always finished).
"""

from __future__ import annotations

import time

from .rollout import rollout


def compare(worlds, seat: int, *, deadline: float, iterations: int | None) -> int:
    clock = time.perf_counter
    timed = iterations is None
    totals, done, last = None, 0, 0.0
    while timed or done < iterations:
        began = clock()
        if timed and done and began + 1.2 * last > deadline:
            break
        points = []
        for sim in worlds():
            if timed and done and clock() > deadline:
                break  # out of time within this sample: it is left out
            points.append(0 if sim is None else rollout(sim)[seat])
        else:
            totals = points if totals is None else [a + b for a, b in zip(totals, points)]
            done += 1
            last = clock() - began
            continue
        break
    return max(range(len(totals)), key=lambda index: (totals[index], -index))
