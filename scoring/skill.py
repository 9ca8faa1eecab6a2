"""Skill ratings (技术分): the model, the two sides of a hand and how a result moves them.

The model is openskill's Plackett–Luce (Weng–Lin Bayesian rating) with its default
parameters: a new player starts at μ = 25, σ = 25/3, with β = 25/6, τ = 25/300 (σ grows a
little before each hand, so ratings keep moving) and κ = 0.0001. A rating is shown and
ranked by its ordinal `μ − 3σ` (0 for a new player): a player climbs by winning, and by
playing enough hands for σ to shrink.

A hand is a match of two sides: the emperor side (皇帝 with the guard, or the emperor alone
in a solo: 2 against 3, or 1 against 4) and the rebels (造反派), ranked by the hand's
outcome (win, draw, lose) — not by places or points, which the presets weigh differently.

[decision] Each side is as strong as the *mean* of its members, not their sum. Openskill
sums a team's μ, which makes three rebels the favourites over two (and four over a solo) at
equal skill: the emperor side would then gain on a draw and a solo would cost almost nothing
when lost. With means the duel is fair at equal skill. Openskill's models are compiled
classes that cannot be subclassed, so each seat is rated through the library's public
`rate` as a duel between its own side (the side's mean μ, at the seat's own σ) and the
other side (its mean μ and root-mean-square σ); the seat's μ moves by what its side's μ
moved, and its σ is the duel's new σ.

Pure Python over openskill: no Django (`scoring.services.hand_rate` stores the results).
"""

import math
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # the default parameters above; changing them needs `manage.py ratings_recompute --write`
ORDINAL_Z = 3.0
INITIAL_MU = MODEL.mu
INITIAL_SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - ORDINAL_Z * self.sigma


NEW = Skill(INITIAL_MU, INITIAL_SIGMA)


def sides(result: dict) -> tuple[list[int], list[int]] | None:
    """(emperor side, rebels) as seat lists, or None when the result is not rateable (void)."""
    if not result or result.get("void") or result.get("outcome") not in ("win", "draw", "lose"):
        return None
    emperor_side = sorted({result["emperor"], result.get("guard")} - {None})
    return emperor_side, [seat for seat in range(5) if seat not in emperor_side]


def ranks(outcome: str) -> list[int]:
    """Openskill ranks of (emperor side, rebels): 1 is first; a draw ranks both first."""
    return {"win": [1, 2], "draw": [1, 1], "lose": [2, 1]}[outcome]


def _mean_side(skills: list[Skill], sigma: float | None = None):
    mu = sum(skill.mu for skill in skills) / len(skills)
    if sigma is None:  # the root-mean-square σ of the side
        sigma = math.sqrt(sum(skill.sigma ** 2 for skill in skills) / len(skills))
    return MODEL.rating(mu=mu, sigma=sigma)


def rate(emperor_side: list[Skill], rebels: list[Skill], outcome: str) -> tuple[list[Skill], list[Skill]]:
    """The sides' new skills after a hand whose emperor side had `outcome`."""
    order = ranks(outcome)

    def rate_seat(skill: Skill, own: list[Skill], other: list[Skill], index: int) -> Skill:
        teams = [None, None]
        teams[index], teams[1 - index] = [_mean_side(own, sigma=skill.sigma)], [_mean_side(other)]
        duel = MODEL.rate(teams, ranks=list(order))[index][0]
        return Skill(skill.mu + (duel.mu - teams[index][0].mu), duel.sigma)

    return ([rate_seat(skill, emperor_side, rebels, 0) for skill in emperor_side],
            [rate_seat(skill, rebels, emperor_side, 1) for skill in rebels])
