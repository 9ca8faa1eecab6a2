"""Sets (一套牌), the beating rule (上牌), last-set rules and legal-set enumeration (RULES §2).

A set is ``n`` natural cards of one rank plus ``x`` small jokers, ``y`` big jokers and, in
qingdao, at most one 保子 (``4H*``). Every card falls in a *tier*: natural ranks 0..12
(3..2), then SJ 13, BJ 14, 保子 15 — the same integers as ``cards.value``. A set's
*composition* is ``(base, naturals, small, big, bao)``: the base tier, how many cards of
it, and how many small jokers, big jokers and 保子 are attached (挂花).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .cards import (BAOZI_VALUE, BIG_JOKER_VALUE, RANKS, SMALL_JOKER_VALUE, SUITS, VALUES,
                    check_preset, format_cards, identity, is_marked, parse_cards)
from .errors import IllegalAction
from .presets import PRESET

THREE = RANKS.index("3")  # qingdao: the 3 goes last, alone, as a lead
SIX = RANKS.index("6")  # lianzhong 憋6: the 6s go last, together
_TIER_NAMES = tuple(RANKS) + ("SJ", "BJ", "4H*")
PLAIN, SMALL, BIG, BAO = "plain", "small", "big", "bao"


@dataclass(frozen=True, slots=True)
class Shape:
    """What matters about a set for play: size, base rank and attachment class (挂花).

    ``naturals`` counts the base-rank cards (with no natural card, the lowest joker tier
    present); ``small``/``big``/``bao`` count the attached SJ / BJ / 保子.
    """

    size: int
    base: int
    cls: str
    naturals: int
    small: int
    big: int
    bao: int

    @property
    def rank(self) -> str:
        """The base rank as text: ``"9"``, ``"T"``, ``"2"``, ``"SJ"``, ``"BJ"``, ``"4H*"``."""
        return _TIER_NAMES[self.base]

    @property
    def high_jokers(self) -> int:
        """Cards from BJ/保子, as base or attached: what beats attached small jokers."""
        as_base = self.naturals if self.base >= BIG_JOKER_VALUE else 0
        return as_base + self.big + self.bao

    @property
    def composition(self) -> tuple[int, int, int, int, int]:
        return (self.base, self.naturals, self.small, self.big, self.bao)


def _attachment_class(small: int, big: int, bao: int) -> str:
    return BAO if bao else BIG if big else SMALL if small else PLAIN


def shape_of_composition(base: int, naturals: int, small: int, big: int, bao: int) -> Shape:
    """The shape of a set given as its `composition`."""
    return Shape(naturals + small + big + bao, base, _attachment_class(small, big, bao),
                 naturals, small, big, bao)


def _tiers(cards, preset: str) -> Counter:
    table = VALUES[check_preset(preset)]
    try:
        return Counter(table[card] for card in cards)
    except KeyError as err:
        raise ValueError(f"bad card {err.args[0]!r}") from None


def shape_of(cards: list[str], preset: str) -> Shape:
    """The shape of a set, or ``IllegalAction("illegal_set")`` when it is not a set."""
    if not cards:
        raise IllegalAction("illegal_set", "a set needs at least one card")
    tiers = _tiers(cards, preset)
    naturals = sorted(tier for tier in tiers if tier < SMALL_JOKER_VALUE)
    if len(naturals) > 1:
        raise IllegalAction("illegal_set", f"{format_cards(cards, preset)} mixes naturals of "
                            f"two ranks ({' and '.join(_TIER_NAMES[t] for t in naturals)})",
                            {"cards": list(cards), "why": "two_ranks"})
    if THREE in tiers and len(cards) > 1 and PRESET[preset].three_goes_last:
        raise IllegalAction("illegal_set", f"{format_cards(cards, preset)}: a 3 can only be played alone",
                            {"cards": list(cards), "why": "three_alone"})
    if tiers[BAOZI_VALUE] > 1:
        raise IllegalAction("illegal_set", "there is only one 保子 (4H*)", {"cards": list(cards), "why": "one_baozi"})
    # With no natural card the lowest joker tier present is the base (SJ < BJ < 保子).
    base = naturals[0] if naturals else min(tiers)
    return shape_of_composition(
        base, tiers[base],
        tiers[SMALL_JOKER_VALUE] if base < SMALL_JOKER_VALUE else 0,
        tiers[BIG_JOKER_VALUE] if base < BIG_JOKER_VALUE else 0,
        tiers[BAOZI_VALUE] if base < BAOZI_VALUE else 0)


def composition(cards: list[str], preset: str) -> tuple[int, int, int, int, int]:
    """``(base, naturals, small, big, bao)``: equal for sets that differ only in suits or marks."""
    return shape_of(cards, preset).composition


def play_order(comp: tuple[int, int, int, int, int]) -> tuple[int, int, int, int, int]:
    """Sort key of ``legal_sets``, low to high: base rank, naturals, then the cheaper
    attachment first (保子 spent last, then big jokers, then small jokers)."""
    base, naturals, small, big, bao = comp
    return (base, naturals, bao, big, small)


# --- beating (上牌 / 顺牌) ----------------------------------------------------------

def why_not_beats(new: Shape, old: Shape) -> tuple[str, str] | None:
    """``None`` when ``new`` beats ``old``, else why not: ``(why, words)``, ``why`` one of
    ``size``, ``rank``, ``small_attached``, ``big_attached``, ``bao_attached``."""
    if new.size != old.size:
        return "size", f"it has {new.size} cards and the set on the table has {old.size}"
    if new.base <= old.base:
        return "rank", f"its rank {new.rank} is not higher than {old.rank}"
    if old.cls == PLAIN:
        return None
    if old.cls == SMALL:
        # The seed's "2 SJ + 3×9 falls to 2 BJ + 3×J": one BJ/保子 per attached small joker.
        if new.high_jokers >= old.small:
            return None
        jokers = "joker" if old.small == 1 else "jokers"
        return "small_attached", (f"the set on the table has {old.small} small {jokers} attached; it takes "
                                  f"at least {old.small} big {jokers} or 保子")
    if old.cls == BIG:
        # 挂大花的牌是最大的 — except that in qingdao 保子 beats it (a class only qingdao has).
        if new.cls == BAO:
            return None
        return "big_attached", "a set with a big joker attached can only be beaten by one with 保子 attached"
    return "bao_attached", "a set with 保子 attached cannot be beaten"


def beats_shape(new: Shape, old: Shape) -> bool:
    """T beats S (RULES §2): same size, higher base rank, and S's attachment class allows it."""
    return why_not_beats(new, old) is None


def beats(new: str, old: str, preset: str) -> bool:
    """Does the set written ``new`` beat the set written ``old``? (``"JS JH BJ BJ"``, …)

    Malformed text — including a card the preset's deck does not hold (RULES §2) — or a
    card list that is not a set raises ``ValueError``.
    """
    return beats_shape(shape_of(parse_cards(new, preset), preset),
                       shape_of(parse_cards(old, preset), preset))


# --- concrete plays -------------------------------------------------------------

def _as_shape(top, preset: str) -> Shape | None:
    """The top set as a shape: given as cards, as set text, or already a ``Shape``."""
    if top is None or isinstance(top, Shape):
        return top
    return shape_of(parse_cards(top, preset) if isinstance(top, str) else list(top), preset)


def _holds_sixes_rule(preset: str, hold_sixes: bool) -> bool:
    # 憋6 is a room option of the presets that have it; it means nothing in the others.
    return hold_sixes and PRESET[preset].sixes_option


def check_play(cards: list[str], hand: list[str], preset: str, *, top, hold_sixes: bool = False
               ) -> Shape:
    """Validate playing ``cards`` from ``hand`` on ``top`` (``None`` = a lead, 发牌).

    Returns the set's shape, or raises ``IllegalAction`` with code ``not_in_hand``,
    ``illegal_set``, ``three_goes_last``, ``sixes_go_last``, ``wrong_size`` or ``does_not_beat``.
    """
    if not cards:
        raise IllegalAction("illegal_set", "a play needs at least one card")
    held = Counter(hand)
    for card, count in Counter(cards).items():
        if held[card] < count:
            raise IllegalAction("not_in_hand", f"{card} is not in your hand" if not held[card]
                                else f"you hold only {held[card]} of {card}",
                                {"card": card, "held": held[card], "wanted": count})
    table = VALUES[check_preset(preset)]
    tiers = {table[card] for card in cards}
    if THREE in tiers and PRESET[preset].three_goes_last and (
            len(cards) > 1 or top is not None or len(hand) > 1):
        raise IllegalAction("three_goes_last",
                            "a 3 may only be played alone, as a lead, as your last card", {"cards": list(cards)})
    shape = shape_of(cards, preset)
    if _holds_sixes_rule(preset, hold_sixes) and SIX in tiers and len(cards) != len(hand):
        raise IllegalAction("sixes_go_last", "憋6: your 6s go last, all together as your "
                            "final set (jokers may be attached)", {"cards": list(cards)})
    old = _as_shape(top, preset)
    if old is not None:
        refused = why_not_beats(shape, old)
        if refused is not None:
            why, reason = refused
            code = "wrong_size" if why == "size" else "does_not_beat"
            raise IllegalAction(code, f"{format_cards(cards, preset)} does not beat the set on "
                                f"the table: {reason}",
                                {"cards": list(cards), "size": shape.size, "top_size": old.size, "why": why,
                                 "jokers": old.small})
    return shape


# --- enumeration -----------------------------------------------------------------

def _grouped(hand, preset: str, avoid) -> list[list[str]]:
    """The hand's cards by tier, each tier in the order we prefer to play its copies.

    Unmarked copies first, then copies whose identity is not in ``avoid``, so an
    enumerated play never shows a marked card or a called card without need.
    """
    table = VALUES[check_preset(preset)]
    groups: list[list[str]] = [[] for _ in range(BAOZI_VALUE + 1)]
    try:
        for card in hand:
            groups[table[card]].append(card)
    except KeyError as err:
        raise ValueError(f"bad card {err.args[0]!r} in hand") from None
    for group in groups:
        if len(group) > 1:
            group.sort(key=lambda card: (is_marked(card), identity(card) in avoid,
                                         SUITS.find(card[1]), card))
    return groups


def lead_compositions(counts, forced):
    """Every composition a lead can take from a hand of ``counts`` (its cards per tier), in
    ``play_order``: (base, n, x, y, b). ``forced`` is `forced_tiers`' answer."""
    count_x, count_y, count_b = counts[SMALL_JOKER_VALUE], counts[BIG_JOKER_VALUE], counts[BAOZI_VALUE]
    for base, count in enumerate(counts):
        if not count:
            continue
        if base in forced:
            if forced[base] is not None:
                yield forced[base]
            continue
        max_x = count_x if base < SMALL_JOKER_VALUE else 0
        max_y = count_y if base < BIG_JOKER_VALUE else 0
        max_b = count_b if base < BAOZI_VALUE else 0
        for n in range(1, count + 1):
            for b in range(max_b + 1):
                for y in range(max_y + 1):
                    for x in range(max_x + 1):
                        yield (base, n, x, y, b)


def follow_compositions(counts, forced, top: tuple[int, int, int, int, int]):
    """Every composition from a hand of ``counts`` that beats the composition ``top``, in
    ``play_order`` (`why_not_beats`, on counts)."""
    top_base, top_naturals, top_small, top_big, top_bao = top
    if top_bao:
        return  # 保子 attached: unbeatable
    size = top_naturals + top_small + top_big
    need_bao = top_big > 0  # a big joker attached falls only to 保子 attached
    need_high = 0 if need_bao else top_small  # one BJ / 保子 per attached small joker
    count_x, count_y, count_b = counts[SMALL_JOKER_VALUE], counts[BIG_JOKER_VALUE], counts[BAOZI_VALUE]
    for base in range(top_base + 1, BAOZI_VALUE + 1):
        count = counts[base]
        if not count:
            continue
        if base in forced:
            comp = forced[base]
            if comp is not None and beats_shape(shape_of_composition(*comp), shape_of_composition(*top)):
                yield comp
            continue
        max_x = count_x if base < SMALL_JOKER_VALUE else 0
        max_y = count_y if base < BIG_JOKER_VALUE else 0
        max_b = count_b if base < BAOZI_VALUE else 0
        base_is_high = base >= BIG_JOKER_VALUE
        for n in range(1, min(count, size) + 1):
            rest = size - n
            for b in range(1 if need_bao else 0, min(max_b, rest) + 1):
                for y in range(min(max_y, rest - b) + 1):
                    x = rest - b - y
                    if x > max_x:
                        continue
                    if need_high and y + b + (n if base_is_high else 0) < need_high:
                        continue
                    yield (base, n, x, y, b)


def forced_tiers(counts, preset: str, *, leading: bool, hold_sixes: bool) -> dict:
    """Tiers the last-set rules restrict in a hand of ``counts``: tier → the one composition
    allowed, or None."""
    forced = {}
    if counts[THREE] and PRESET[preset].three_goes_last:
        # The 3 goes alone, as a lead, as the last card.
        forced[THREE] = (THREE, 1, 0, 0, 0) if leading and sum(counts) == 1 else None
    if counts[SIX] and _holds_sixes_rule(preset, hold_sixes):
        # 憋6: the only set with a 6 is the whole hand — all the 6s plus every joker held.
        only_sixes = not any(counts[tier] for tier in range(SMALL_JOKER_VALUE) if tier != SIX)
        forced[SIX] = ((SIX, counts[SIX], counts[SMALL_JOKER_VALUE], counts[BIG_JOKER_VALUE],
                        counts[BAOZI_VALUE]) if only_sixes else None)
    return forced


def legal_sets(hand: list[str], preset: str, *, top=None, hold_sixes: bool = False,
               avoid=frozenset(), pick=None) -> list[list[str]]:
    """Every legal play from ``hand`` on ``top`` (``None`` = lead), one per composition.

    Ordered low to high by ``play_order``. Each play lists its cards high to low,
    choosing copies canonically (see ``_grouped``). ``pick``, when given, chooses the
    plays to build from the list of their compositions (`composition`, in that order):
    a lead from a full hand has hundreds, and a caller that wants a few of them need
    not have every one built.
    """
    groups = _grouped(hand, preset, avoid)
    counts = [len(group) for group in groups]
    old = _as_shape(top, preset)
    forced = forced_tiers(counts, preset, leading=old is None, hold_sixes=hold_sixes)
    comps = (lead_compositions(counts, forced) if old is None
             else follow_compositions(counts, forced, old.composition))
    if pick is not None:
        comps = pick(list(comps))
    # Prefix lists per tier, so each play is three list concatenations.
    prefixes = [[group[:i] for i in range(len(group) + 1)] for group in groups]
    small, big, bao = (prefixes[SMALL_JOKER_VALUE], prefixes[BIG_JOKER_VALUE],
                       prefixes[BAOZI_VALUE])
    return [bao[b] + big[y] + small[x] + prefixes[base][n] for base, n, x, y, b in comps]
