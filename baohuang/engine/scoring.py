"""Hand scores and the emperor side's outcome — RULES §7 for every preset.

`score_hand` is the one entry point: it takes the roles, the declarations that took
effect and the finishing order, and returns the five seats' points with the outcome
("win" / "draw" / "lose") of the emperor (皇帝) side. It is pure arithmetic: no cards,
no state. Tribute (进贡) lives in `tribute.py`.
"""

from .presets import preset_named

PLACE_NAMES = ("头科", "二科", "三科", "二落", "大落")
"""Finishing places 1..5: first out, second, third, second-to-last (二落), last (大落)."""

SOLOS = (None, "dark", "open", "seized")
"""None: emperor and guard are two people; "dark" 暗独; "open" 明独; "seized" classic
抢庄 (抢杠) or lianzhong 抢独."""

# Place points indexed by place - 1.
CLASSIC_PLACE_POINTS = (6, 3, 0, -3, -6)
CLASSIC_SOLO_POINTS = (16, 4, 0, -4, -16)  # 独保, the emperor's share
CLASSIC_SEIZED_POINTS = 40  # 抢庄 (抢杠): the emperor's share, 10 from or to each rebel
LIANZHONG_DARK_SOLO_POINTS = (12, 0, -12, -12, -12)  # 暗独
LIANZHONG_OPEN_SOLO_POINTS = (24, -24, -24, -24, -24)  # 明独 and 抢独
QINGDAO_PLACE_POINTS = (3, 2, 1, 0, -1)


def score_hand(preset, *, emperor, guard, solo, declarations, places):
    """Score one finished hand.

    `places` lists the five seats in finishing order (头科 first). `guard` is None for a
    solo. `declarations` holds those that took effect ("ming_bao", "rebel" = 造反,
    "niu" = 扭, "ti" = 踢). Returns `(scores by seat, outcome of the emperor side)`.
    """
    rules = preset_named(preset)
    _check_hand(rules, emperor, guard, solo, declarations, places)
    declared = frozenset(declarations)
    place_of = {seat: index + 1 for index, seat in enumerate(places)}
    return SCORERS[rules.scoring](emperor, guard, solo, declared, place_of)


def outcome_of(total):
    """The emperor side's outcome from the sign of its total."""
    if total > 0:
        return "win"
    return "draw" if total == 0 else "lose"


def exact_div(numerator, denominator):
    """Integer division the rules guarantee to be exact; a remainder is a bug."""
    assert numerator % denominator == 0, f"{numerator}/{denominator} is not exact"
    return numerator // denominator


# --- classic 叫庄保皇 -------------------------------------------------------------------


def _score_classic(emperor, guard, solo, declared, place_of):
    emperor_place = place_of[emperor]
    if solo == "seized":
        # 抢庄: all or nothing on going out first.
        won = emperor_place == 1
        share = CLASSIC_SEIZED_POINTS if won else -CLASSIC_SEIZED_POINTS
        return _emperor_against_four(emperor, share), outcome_of(share)
    if solo is not None:
        # 独保: the emperor's points, paid by the four others in equal parts; 明独 doubles.
        share = CLASSIC_SOLO_POINTS[emperor_place - 1] * (2 if solo == "open" else 1)
        return _emperor_against_four(emperor, share), outcome_of(share)
    side = CLASSIC_PLACE_POINTS[emperor_place - 1] + CLASSIC_PLACE_POINTS[place_of[guard] - 1]
    multiplier = 2 if "ming_bao" in declared else 1
    scores = [exact_div(-side * multiplier, 3)] * 5
    scores[emperor] = exact_div(2 * side * multiplier, 3)
    scores[guard] = exact_div(side * multiplier, 3)
    return scores, outcome_of(side)


# --- lianzhong 皇保保皇 -----------------------------------------------------------------


def _score_lianzhong(emperor, guard, solo, declared, place_of):
    if solo is not None:
        return _score_lianzhong_solo(emperor, solo, declared, place_of[emperor])
    base = 6 - (place_of[emperor] + place_of[guard])
    multiplier = 1
    if "ming_bao" in declared or "rebel" in declared:
        multiplier *= 2  # 明保 or 造反; both at once still double once
    if "niu" in declared:
        multiplier *= 2  # 扭
    if "ti" in declared:
        multiplier *= 2  # 踢
    scores = [-base * multiplier] * 5
    if "niu" in declared or "ti" in declared:
        # Seed 002: "扭和踢时输赢的分数要由皇和保平均分担" — the side's total is split evenly.
        scores[emperor] = scores[guard] = exact_div(3 * base * multiplier, 2)
    else:
        scores[emperor] = 2 * base * multiplier
        scores[guard] = base * multiplier
    return scores, outcome_of(3 * base * multiplier)


def _score_lianzhong_solo(emperor, solo, declared, emperor_place):
    if solo == "dark":
        share = LIANZHONG_DARK_SOLO_POINTS[emperor_place - 1]
        if "rebel" in declared:
            share *= 2  # 暗独被反
        if "ti" in declared:
            share *= 2  # 被反又被踢
    else:
        # 明独, and 抢独 which scores as 明独.
        share = LIANZHONG_OPEN_SOLO_POINTS[emperor_place - 1]
        if "ti" in declared:
            share *= 2  # 明独被踢
    return _emperor_against_four(emperor, share), outcome_of(share)


# --- qingdao 青岛保皇 -------------------------------------------------------------------


def _score_qingdao(emperor, guard, solo, declared, place_of):
    scores = [QINGDAO_PLACE_POINTS[place_of[seat] - 1] for seat in range(5)]
    outcome = qingdao_outcome(emperor=emperor, guard=guard, solo=solo, place_of=place_of)
    # [decision] RULES §7: after 明保 or 明独 a winning emperor side scores its place
    # points doubled (seed 003: 胜则得分翻番); a losing or drawn side is not doubled.
    if outcome == "win" and ("ming_bao" in declared or solo == "open"):
        for seat in {emperor, guard} - {None}:
            scores[seat] *= 2
    return scores, outcome


def qingdao_outcome(*, emperor, guard, solo, place_of):
    """The emperor side's outcome in qingdao, which is not the sign of any score."""
    emperor_place = place_of[emperor]
    if solo is None:
        return outcome_of(6 - (emperor_place + place_of[guard]))
    if emperor_place == 1:
        return "win"
    if emperor_place == 2 and solo == "dark":
        return "draw"
    return "lose"


# --- shared helpers ---------------------------------------------------------------------


def _emperor_against_four(emperor, share):
    """A solo emperor's share, paid (or received) by the four others in equal parts."""
    scores = [exact_div(-share, 4)] * 5
    scores[emperor] = share
    return scores


def _check_hand(rules, emperor, guard, solo, declarations, places):
    """Reject inputs the rules cannot produce, naming the bad value."""
    if sorted(places) != [0, 1, 2, 3, 4]:
        raise ValueError(f"places must list seats 0-4 once each, got {places!r}")
    if emperor not in range(5):
        raise ValueError(f"emperor must be a seat 0-4, got {emperor!r}")
    if solo not in SOLOS:
        raise ValueError(f"unknown solo {solo!r}; expected one of {SOLOS}")
    if solo == "seized" and not rules.seizable:
        raise ValueError(f"{rules.name} has no seized solo (抢庄 / 抢独)")
    if solo is None and (guard not in range(5) or guard == emperor):
        raise ValueError(f"a two-person side needs a guard other than the emperor, got {guard!r}")
    if solo is not None and guard not in (None, emperor):
        raise ValueError(f"a solo emperor has no guard, got guard {guard!r}")
    unknown = set(declarations) - rules.declarations
    if unknown:
        raise ValueError(f"{rules.name} has no declaration {sorted(unknown)!r}")
    _check_declaration_order(solo, frozenset(declarations))


def _check_declaration_order(solo, declared):
    """扭 answers 明保 / 造反 and 踢 answers 扭; on a solo only 反 and 踢 exist (RULES §6)."""
    if solo is None:
        if "niu" in declared and not declared & {"ming_bao", "rebel"}:
            raise ValueError("niu (扭) needs ming_bao (明保) or rebel (造反) first")
        if "ti" in declared and "niu" not in declared:
            raise ValueError("ti (踢) needs niu (扭) first")
        return
    allowed = {"dark": {"rebel", "ti"}, "open": {"ti"}, "seized": {"ti"}}[solo]
    if not declared <= allowed:
        raise ValueError(f"a {solo} solo allows only {sorted(allowed)}, got {sorted(declared)}")
    if solo == "dark" and "ti" in declared and "rebel" not in declared:
        raise ValueError("a dark solo is kicked (踢) only after rebel (反)")


SCORERS = {"classic": _score_classic, "lianzhong": _score_lianzhong, "qingdao": _score_qingdao}
"""The scoring procedures a preset may name (`presets.Preset.scoring`)."""
