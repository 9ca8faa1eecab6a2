"""Why a hand scored what it did: the terms of RULES §7 behind each seat's points.

`explain` returns plain data the score sheet words in either language (the page holds no
rules): which formula applied, the numbers it used and every multiplier, e.g. lianzhong's
``{"formula": "lianzhong_side", "base": 1, "emperor_place": 1, "guard_place": 4,
"multipliers": [{"why": "ming_bao", "factor": 2}], "factor": 2, ...}`` reads
``g = 6 − (1 + 4) = 1; 明保 ×2 → 皇 +4, 保 +2, 每人 −2``.

Formulas (``formula``):
- ``classic_side``: ``place_points`` of emperor and guard (6 / 3 / 0 / −3 / −6), their
  sum ``side`` (A), ×``factor``; emperor 2A/3, guard A/3, each rebel −A/3.
- ``classic_solo`` (独保): the emperor's ``place_points`` (16 / 4 / 0 / −4 / −16),
  ×``factor`` (明独 ×2); each rebel pays a quarter.
- ``classic_seized`` (抢庄): ``won`` (went out first) → +40 / −10 each, else −40 / +10.
- ``lianzhong_side``: base ``g = 6 − (p(E) + p(G))``, ×``factor``; ``split`` when 扭 or
  踢 made the side share its total evenly (each 3g·m/2), else emperor 2g·m, guard g·m;
  each rebel −g·m.
- ``lianzhong_solo``: 暗独 12 / 0 / −12, 明独 and 抢独 24 / −24 (``place_points``),
  ×``factor``; each rebel pays a quarter.
- ``qingdao``: every seat's ``place_points`` (3 / 2 / 1 / 0 / −1); ``doubled`` lists the
  seats whose points 明保 / 明独 doubled (a winning side only); ``outcome_by`` says how
  the outcome was decided: ``{"side_sum": p(E) + p(G)}`` (win below 6, draw at 6) or
  ``{"solo_place": p(E)}``.

Every explanation also carries ``emperor_place`` and ``guard_place`` (None for a solo),
and ``seats``: per seat its ``role`` (``emperor`` / ``guard`` /
``rebel``), ``place`` (1–5) and ``points`` — the hand's scores. The −40 for leaving and
tribute turned into points are ledger lines, not hand scores: the product lists them on
the sheet on their own (`scoring.selectors.hand_ledger_lines`); the tribute the next
hand pays is the result's ``tribute``.
"""

from __future__ import annotations

from .presets import preset_named
from .scoring import (CLASSIC_PLACE_POINTS, CLASSIC_SEIZED_POINTS, CLASSIC_SOLO_POINTS,
                      LIANZHONG_DARK_SOLO_POINTS, LIANZHONG_OPEN_SOLO_POINTS,
                      QINGDAO_PLACE_POINTS, qingdao_outcome)

def explain(preset: str, *, emperor, guard, solo, declarations, places, scores) -> dict:
    """The terms behind ``scores`` (one finished hand; ``places`` in finishing order)."""
    place_of = {seat: index + 1 for index, seat in enumerate(places)}
    declared = frozenset(declarations)
    guard_place = None if guard is None else place_of[guard]
    scoring = preset_named(preset).scoring  # the scoring procedure the preset names
    if scoring == "classic":
        terms = _classic(place_of[emperor], guard_place, solo, declared)
    elif scoring == "lianzhong":
        terms = _lianzhong(place_of[emperor], guard_place, solo, declared)
    else:
        terms = _qingdao(emperor, guard, solo, declared, place_of)
    terms.update(emperor_place=place_of[emperor], guard_place=guard_place)
    terms["seats"] = [{"role": _role(seat, emperor, guard), "place": place_of[seat],
                       "points": scores[seat]} for seat in range(5)]
    return terms


def _role(seat, emperor, guard) -> str:
    if seat == emperor:
        return "emperor"
    return "guard" if seat == guard else "rebel"


def _multiplied(terms: dict, multipliers: list[str]) -> dict:
    factor = 2 ** len(multipliers)
    terms.update(multipliers=[{"why": why, "factor": 2} for why in multipliers],
                 factor=factor)
    return terms


def _classic(emperor_place, guard_place, solo, declared) -> dict:
    if solo == "seized":
        won = emperor_place == 1
        return _multiplied({"formula": "classic_seized", "won": won,
                            "share": CLASSIC_SEIZED_POINTS if won else -CLASSIC_SEIZED_POINTS},
                           [])
    if solo is not None:
        return _multiplied({"formula": "classic_solo", "solo": solo,
                            "place_points": CLASSIC_SOLO_POINTS[emperor_place - 1]},
                           ["open"] if solo == "open" else [])
    points = {"emperor": CLASSIC_PLACE_POINTS[emperor_place - 1],
              "guard": CLASSIC_PLACE_POINTS[guard_place - 1]}
    return _multiplied({"formula": "classic_side", "place_points": points,
                        "side": points["emperor"] + points["guard"]},
                       ["ming_bao"] if "ming_bao" in declared else [])


def _lianzhong(emperor_place, guard_place, solo, declared) -> dict:
    if solo is not None:
        table = LIANZHONG_DARK_SOLO_POINTS if solo == "dark" else LIANZHONG_OPEN_SOLO_POINTS
        allowed = ("rebel", "ti") if solo == "dark" else ("ti",)  # 暗独被反, 被踢
        return _multiplied({"formula": "lianzhong_solo", "solo": solo,
                            "place_points": table[emperor_place - 1]},
                           [why for why in allowed if why in declared])
    first = [why for why in ("ming_bao", "rebel") if why in declared][:1]  # both: one ×2
    multipliers = first + [why for why in ("niu", "ti") if why in declared]
    return _multiplied({"formula": "lianzhong_side", "base": 6 - (emperor_place + guard_place),
                        "split": bool(declared & {"niu", "ti"})}, multipliers)


def _qingdao(emperor, guard, solo, declared, place_of) -> dict:
    points = [QINGDAO_PLACE_POINTS[place_of[seat] - 1] for seat in range(5)]
    outcome_by = ({"solo_place": place_of[emperor]} if solo is not None
                  else {"side_sum": place_of[emperor] + place_of[guard]})
    shown = ["ming_bao"] if "ming_bao" in declared else ["open"] if solo == "open" else []
    won = qingdao_outcome(emperor=emperor, guard=guard, solo=solo, place_of=place_of) == "win"
    terms = _multiplied({"formula": "qingdao", "place_points": points,
                         "outcome_by": outcome_by}, shown if won else [])
    # Only a winning side's points are doubled (RULES §7 [decision]).
    terms["doubled"] = sorted({emperor, guard} - {None}) if terms["factor"] > 1 else []
    return terms
