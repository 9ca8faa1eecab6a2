"""Paired perfect-information Monte Carlo: weigh options over the same sampled worlds.

`compare(worlds, seat, ...)` calls ``worlds()`` once per sample; it returns one `fastsim.Sim`
per option — the same hidden cards and roles with that option taken — or None for an
option worth 0 (a void hand). Each is played out by the rollout policy, and the option
with the best total of ``seat``'s points wins (ties: the earlier option). Sampling stops
after ``iterations`` samples, or, without them, before ``budget`` seconds are spent.
"""

from __future__ import annotations

import time

from .rollout import rollout


def compare(worlds, seat: int, *, budget: float, iterations: int | None) -> int:
    totals = None
    started = time.perf_counter()
    done, last = 0, 0.0
    while True:
        if iterations is not None:
            if done >= iterations:
                break
        elif done and time.perf_counter() - started + 1.5 * last > budget:
            break
        began = time.perf_counter()
        sims = worlds()
        if totals is None:
            totals = [0.0] * len(sims)
        for index, sim in enumerate(sims):
            if sim is not None:
                totals[index] += rollout(sim)[seat]
        done += 1
        last = time.perf_counter() - began
    return max(range(len(totals)), key=lambda index: (totals[index], -index))
