"""The rule presets (规则), each described once as data — RULES §1–§7.

A `Preset` holds everything in which the presets differ: the deck, the deal, the guard
card, the round switches, the last-set rules, the bidding procedure, the declaration
window, the scoring and what passes between hands. The rest of the engine asks the
preset (``preset_of(state).yield_allowed``) instead of testing its name; the state keeps
only the name (``state["preset"]``), so a stored hand stays readable.

Procedures are named, and each name is a hook implemented once where its rule lives:
``bidding`` in `bidding.BIDDINGS`, ``window`` in `bidding.WINDOWS`, ``scoring`` in
`scoring.SCORERS`. A new preset is one new entry here plus the hooks it needs.
"""

from __future__ import annotations

from dataclasses import dataclass

EMPEROR_CARD = "BJ*"


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    title: str  # the Chinese name players know it by
    deal_size: int  # cards per seat
    # --- deck (RULES §5): four decks less these, with these copies marked
    removed_ranks: str = ""  # ranks the deck has none of
    thinned: tuple[tuple[str, int], ...] = ()  # (rank, copies kept): which suits is immaterial
    marked: tuple[str, ...] = (EMPEROR_CARD,)  # each replaces one copy of its card
    leftover_to_crown: bool = False  # classic: the card left over goes to the BJ* holder
    baozi_high: bool = False  # qingdao: 4H* is above BJ and not a 4 for play
    # --- roles (RULES §6)
    guard_card: str | None = None  # a fixed marked guard card; None: the emperor calls one
    bidding: str = "bundle"  # "call" 叫庄 | "bundle" 让皇 | "throne_call" 让位 + 叫牌
    max_refusals: int = 0  # bundle: refusals that void the hand
    bundle_adds: str = "two"  # bundle: "two" (如没有2则免) | "two_else_highest" (贴2)
    window: str = "declare"  # the declaration window's first step (bidding.WINDOWS)
    declarations: frozenset = frozenset({"ming_bao"})  # what can take effect (RULES §6)
    # --- rounds and last sets (RULES §2, §3)
    yield_allowed: bool = False  # 让牌
    round_scoped_pass: bool = False  # a pass lasts for the rest of the round
    three_goes_last: bool = False  # qingdao: the 3 goes alone, as a lead, as the last card
    sixes_option: bool = False  # the room option 憋6 applies
    grab_option: bool = False  # the room option 抢独 applies
    # --- the end of a hand and scoring (RULES §4, §7)
    scoring: str = "classic"  # scoring.SCORERS
    settled_by_outcome: bool = False  # qingdao: the hand ends once the outcome is fixed
    random_remaining: bool = False  # qingdao: the players left take the open places at random
    tribute: bool = False  # qingdao: 进贡 between hands and 买3 after the deal

    @property
    def guard_by_call(self) -> bool:
        """The guard is the holder of the called card's 4th copy (no fixed guard card)."""
        return self.guard_card is None

    @property
    def seizable(self) -> bool:
        """A seat may take the throne alone against the emperor's bidding (classic 抢庄,
        lianzhong 抢独 when the room allows it)."""
        return self.bidding == "call" or self.grab_option


CLASSIC = Preset(
    name="classic", title="叫庄保皇", deal_size=43, leftover_to_crown=True,
    bidding="call", window="declare", yield_allowed=True, scoring="classic")
LIANZHONG = Preset(
    name="lianzhong", title="皇保保皇", deal_size=33, removed_ranks="345", thinned=(("6", 13),),
    marked=(EMPEROR_CARD, "SJ*"), guard_card="SJ*", bidding="bundle", max_refusals=10,
    bundle_adds="two_else_highest", window="emperor",
    declarations=frozenset({"ming_bao", "rebel", "niu", "ti"}), sixes_option=True,
    grab_option=True, scoring="lianzhong")
QINGDAO = Preset(
    name="qingdao", title="青岛保皇", deal_size=41, thinned=(("3", 5),),
    marked=(EMPEROR_CARD, "4H*"), baozi_high=True, guard_card="4H*", bidding="bundle",
    max_refusals=6, bundle_adds="two", window="declare", yield_allowed=True,
    round_scoped_pass=True, three_goes_last=True, scoring="qingdao", settled_by_outcome=True,
    random_remaining=True, tribute=True)

LIANZHONG_CLASSIC = Preset(
    # 联众 经典玩法 (seed 002): lianzhong's deck, rounds, options and scoring; the emperor
    # calls one of its triples; no marked SJ* (a plain fourth small joker) and no 造反.
    name="lianzhong_classic", title="联众经典", deal_size=33, removed_ranks="345",
    thinned=(("6", 13),), bidding="throne_call", window="throne", sixes_option=True,
    grab_option=True, scoring="lianzhong")

PRESET = {preset.name: preset for preset in (CLASSIC, LIANZHONG, QINGDAO, LIANZHONG_CLASSIC)}
PRESETS = tuple(PRESET)


def preset_named(name: str) -> Preset:
    """The preset called ``name``; ``ValueError`` names the known ones."""
    try:
        return PRESET[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown preset {name!r}; expected one of {', '.join(PRESETS)}") from None


def preset_of(state: dict) -> Preset:
    """The preset a hand's state is played under."""
    return PRESET[state["preset"]]
