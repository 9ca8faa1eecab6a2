"""Paired perfect-information Monte Carlo: weigh options over the same sampled worlds.

`compare(worlds, seat, ...)` calls ``worlds()`` once per sample; it returns one `fastsim.Sim`
per option — the same hidden cards and roles with that option taken — or None for an
option worth 0 (a void hand). Each is played out by the rollout policy and scored for
``seat``.

The ``default`` option (the rule-of-thumb choice) is kept unless another one beats it
clearly: by more than ``MARGIN`` standard errors of the paired per-sample differences.
With few samples PIMC's estimates are noisy, and the best-looking of eight options is
often just the luckiest; this keeps the search from trading a sound choice for noise.

With ``alone`` (bids and declarations) the seat's own rollouts play a solo as the search
will (`rollout.lone_follow`); a play's rollouts keep the rollout policy for every seat.

Sampling stops after ``iterations`` samples; without them, at the ``deadline``
(`time.perf_counter`): no sample is begun that would likely end after it, and one still
running then is left out, so only whole samples count. With no whole sample the default
stands. A timed search also stops early when the choice is plain (`_settled`): after
``SETTLED_AFTER`` samples, every other option is below the default by ``MARGIN`` standard
errors or more (or equal to it in every sample), so more samples would almost surely
keep the default. That is what makes an obvious decision quick.
"""

from __future__ import annotations

import math
import time

from .rollout import rollout

MARGIN = 2.0  # standard errors by which an option must beat the default (at 1.0 the
# luckiest of ~8 candidates displaced the strong move too often, and lost points)
SETTLED_AFTER = 24  # samples before a timed search may stop early on a plain choice


def compare(worlds, seat: int, *, deadline: float, iterations: int | None, default: int = 0,
            alone: bool = False) -> int:
    clock = time.perf_counter
    timed = iterations is None
    sums = squares = None
    done, last = 0, 0.0
    while timed or done < iterations:
        began = clock()
        if timed and done and began + 1.2 * last > deadline:
            break
        points = []
        for sim in worlds():
            if timed and clock() > deadline:
                break  # out of time within this sample: it is left out
            points.append(0 if sim is None else rollout(sim, seat if alone else None)[seat])
        else:
            gains = [value - points[default] for value in points]
            if sums is None:
                sums, squares = [0.0] * len(gains), [0.0] * len(gains)
            for index, gain in enumerate(gains):
                sums[index] += gain
                squares[index] += gain * gain
            done += 1
            last = clock() - began
            if timed and done >= SETTLED_AFTER and _settled(sums, squares, done, default):
                break
            continue
        break
    if not done:
        return default
    return max(range(len(sums)), key=lambda index: (_clear_gain(sums[index], squares[index], done),
                                                     index == default, -index))


def _settled(sums: list[float], squares: list[float], count: int, default: int) -> bool:
    """Is every other option's gain over the default ``MARGIN`` standard errors below 0,
    or 0 in every sample?"""
    return all(_upper_gain(total, square, count) <= 0
               for index, (total, square) in enumerate(zip(sums, squares)) if index != default)


def _upper_gain(total: float, squares: float, count: int) -> float:
    mean = total / count
    return mean + MARGIN * _standard_error(mean, squares, count)


def _standard_error(mean: float, squares: float, count: int) -> float:
    return math.sqrt(max(0.0, squares / count - mean * mean) / max(1, count - 1))


def _clear_gain(total: float, squares: float, count: int) -> float:
    """The mean gain over the default if it exceeds ``MARGIN`` standard errors, else 0."""
    mean = total / count
    spread = _standard_error(mean, squares, count)
    return mean if mean > MARGIN * spread and mean > 0 else 0.0
