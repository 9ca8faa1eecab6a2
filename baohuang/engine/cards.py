"""Cards, their notation and order, and each preset's deck (RULES §1, §2, §5).

A card is a short string: rank + suit (``"9S"``, ``"TH"``), a joker (``"SJ"`` 小王,
``"BJ"`` 大王), or a marked copy carrying ``*``: ``"BJ*"`` the emperor card (皇),
``"SJ*"`` the lianzhong guard card (保), ``"4H*"`` the qingdao 保子.
A marked card is still one of the four copies of its card.
"""

from __future__ import annotations

from collections import Counter

from .presets import PRESET, PRESETS, preset_named

RANKS = "3456789TJQKA2"
SUITS = "SHCD"

SMALL_JOKER = "SJ"
BIG_JOKER = "BJ"
EMPEROR_CARD = "BJ*"
LIANZHONG_GUARD_CARD = "SJ*"
BAOZI = "4H*"  # 保子, the qingdao guard card
MARKED_CARDS = (EMPEROR_CARD, LIANZHONG_GUARD_CARD, BAOZI)

# Value tiers for play. Natural ranks are 0 (3) .. 12 (2); the joker tiers follow.
SMALL_JOKER_VALUE = len(RANKS)  # 13
BIG_JOKER_VALUE = SMALL_JOKER_VALUE + 1  # 14
BAOZI_VALUE = BIG_JOKER_VALUE + 1  # 15: in qingdao 保子 sits above the big joker

_NATURALS = tuple(rank + suit for rank in RANKS for suit in SUITS)
ALL_CARDS = frozenset(_NATURALS + (SMALL_JOKER, BIG_JOKER) + MARKED_CARDS)


def _value_table(preset: str) -> dict[str, int]:
    table = {card: RANKS.index(card[0]) for card in _NATURALS}
    table.update({SMALL_JOKER: SMALL_JOKER_VALUE, BIG_JOKER: BIG_JOKER_VALUE,
                  EMPEROR_CARD: BIG_JOKER_VALUE, LIANZHONG_GUARD_CARD: SMALL_JOKER_VALUE,
                  BAOZI: RANKS.index("4")})
    if PRESET[preset].baozi_high:
        # 保子 is above the big joker and is not a 4 for play (seed 003).
        table[BAOZI] = BAOZI_VALUE
    return table


VALUES = {preset: _value_table(preset) for preset in PRESETS}


def check_preset(preset: str) -> str:
    return preset_named(preset).name


# --- notation ---------------------------------------------------------------

def parse_card(token: str) -> str:
    """``"9s"`` → ``"9S"``, ``"10h"`` → ``"TH"``, ``"bj*"`` → ``"BJ*"``.

    Raises ``ValueError`` naming the token when it is not a card of RULES §1.
    """
    card = token.strip().upper()
    if card.startswith("10"):
        card = "T" + card[2:]
    if card not in ALL_CARDS:
        raise ValueError(
            f"bad card {token!r}: expected rank+suit like 9S or TH, SJ, BJ, "
            f"or a marked BJ*, SJ*, 4H*")
    return card


def parse_cards(text: str, preset: str | None = None) -> list[str]:
    """Whitespace-separated cards, e.g. ``"9S 9H SJ"``; empty text is no cards.

    With ``preset``, the cards must also be cards of that preset's deck (`check_in_deck`).
    """
    cards = [parse_card(token) for token in text.split()]
    if preset is not None:
        check_in_deck(cards, preset)
    return cards


def sort_key(card: str, preset: str = "classic"):
    """High to low by value, then by suit (S H C D), an unmarked copy before a marked one."""
    suit = card[1] if card[1] in SUITS else "S"
    return (-VALUES[preset][card], SUITS.index(suit), card.endswith("*"))


def sort_hand(cards, preset: str) -> list[str]:
    """The cards high to low for ``preset`` (in qingdao 保子 comes first)."""
    check_preset(preset)
    return sorted(cards, key=lambda card: sort_key(card, preset))


def format_cards(cards, preset: str = "classic") -> str:
    """Canonical text of a set or a hand: high to low by value, then suit."""
    return " ".join(sort_hand(cards, preset))


# --- single cards -------------------------------------------------------------

def value(card: str, preset: str) -> int:
    """Single-card order: 3 < 4 < … < A < 2 < SJ < BJ (< 4H* in qingdao)."""
    try:
        return VALUES[preset][card]
    except KeyError:
        check_preset(preset)
        raise ValueError(f"bad card {card!r}") from None


def identity(card: str) -> str:
    """The card without its mark (``"BJ*"`` → ``"BJ"``): what classic 叫庄 names."""
    return card[:-1] if card.endswith("*") else card


def is_marked(card: str) -> bool:
    return card.endswith("*")


# --- decks ------------------------------------------------------------------

def _mark_first(deck: list[str], marked: str) -> None:
    deck[deck.index(identity(marked))] = marked


def _drop(deck: list[str], rank: str, keep: int) -> list[str]:
    """Keep only the first ``keep`` cards of ``rank`` (suits never matter in play)."""
    kept: list[str] = []
    for card in deck:
        if card[0] == rank and card not in (SMALL_JOKER, BIG_JOKER):
            if keep == 0:
                continue
            keep -= 1
        kept.append(card)
    return kept


def build_deck(preset: str) -> list[str]:
    """The preset's cards in a fixed order, so a seeded shuffle is reproducible.

    Four decks with the preset's marked copies, less its removed ranks and the copies of
    its thinned ranks (`presets.Preset`): classic 216 (BJ*), lianzhong 165 (no 3 4 5,
    three 6s removed, BJ* and SJ*), qingdao 205 (eleven 3s removed, BJ* and 4H*).
    """
    spec = preset_named(preset)
    deck = (list(_NATURALS) + [SMALL_JOKER, BIG_JOKER]) * 4
    for marked in spec.marked:
        _mark_first(deck, marked)
    if spec.removed_ranks:
        deck = [card for card in deck if card[0] not in spec.removed_ranks]
    for rank, keep in spec.thinned:
        deck = _drop(deck, rank, keep)
    return deck


# --- what a deck holds ----------------------------------------------------------------

_IDENTITY_COUNTS: dict[str, Counter] = {}


def deck_identities(preset: str) -> Counter:
    """How many copies of each identity (marks ignored) the preset's deck holds."""
    counts = _IDENTITY_COUNTS.get(preset)
    if counts is None:
        counts = _IDENTITY_COUNTS[preset] = Counter(map(identity, build_deck(preset)))
    return counts


_DECK_LIMITS: dict[str, tuple[dict[str, int], dict[str, int]]] = {}


def _deck_limits(preset: str) -> tuple[dict[str, int], dict[str, int]]:
    """``(copies per card, copies per thinned rank)`` of the preset's deck.

    A rank the deck holds only partly (lianzhong's thirteen 6s, qingdao's five 3s) is
    limited by its total, each suit by four copies: which copies were removed is
    immaterial (RULES §5), so no suit of such a rank is singled out as missing.
    """
    limits = _DECK_LIMITS.get(preset)
    if limits is None:
        held = Counter(build_deck(preset))
        thinned = {}
        for rank in RANKS:
            total = sum(count for card, count in held.items() if card[0] == rank)
            if 0 < total < 4 * len(SUITS):
                thinned[rank] = total
                held.update({rank + suit: 4 - held[rank + suit] for suit in SUITS})
        limits = _DECK_LIMITS[preset] = (dict(held), thinned)
    return limits


def check_in_deck(cards, preset: str) -> None:
    """[decision] RULES §2: a card the preset's deck does not hold is not a card of that
    preset — ``3S`` in lianzhong, ``SJ*`` outside lianzhong, ``4H*`` outside qingdao, a
    fifth copy, a second copy of a marked card. Raises ``ValueError`` naming the card."""
    per_card, thinned = _deck_limits(check_preset(preset))
    counts = Counter(cards)
    for card, count in counts.items():
        limit = per_card.get(card, 0)
        if count > limit:
            raise ValueError(f"{card} is not a card of {preset}" if not limit else
                             f"{count} × {card}: the {preset} deck holds {limit}")
    for rank, limit in thinned.items():
        count = sum(counts[rank + suit] for suit in SUITS)
        if count > limit:
            raise ValueError(f"{count} cards of rank {rank}: the {preset} deck holds {limit}")
