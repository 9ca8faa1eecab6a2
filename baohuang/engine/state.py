"""The hand (一局) as a pure state machine: `new_hand`, `check`, `apply`, `actors` …

A state is plain JSON data (ints, strings, bools, None, lists, dicts with string keys;
cards in RULES §1 notation such as ``"9S"``, ``"BJ*"``). `apply` never mutates its
input: it returns a new state sharing the parts it did not change, so treat every state
as read-only. Every accepted action bumps ``version`` by exactly one. All randomness
comes from ``seed`` (``random.Random(f"{seed}:deal")`` for the deal,
``random.Random(f"{seed}:places")`` for qingdao's random placing of the remaining
players), so ``replay(preset, seed, actions)`` rebuilds the state exactly.

State keys
----------
Identity and options
- ``preset``: a name of `presets.PRESETS` (``"classic" | "lianzhong" | "qingdao" |
  "lianzhong_classic"``); the rules it stands for are `presets.preset_of(state)`.
- ``seed``: int or str, as given to `new_hand`. SECRET until the hand is over.
- ``salt``: str or None, the per-hand salt of the seed's commitment (`fairness`). SECRET
  until the hand is over.
- ``options``: ``{"hold_sixes": bool, "grab_solo": bool, "card_counter": bool}``
  (defaults filled in).
- ``version``: int, 0 after the deal, +1 per accepted action.
- ``phase``: ``"bidding"`` (choosing the emperor) → ``"declaring"`` (the declaration
  window) → ``"playing"`` → ``"ended"``; or ``"void"`` (黄庄 / everyone refused the
  throne: the room redeals with the same dealer; `result` says ``void: True``).

Cards (SECRET per seat: a view shows a seat only its own hand, others only counts)
- ``hands``: five lists of cards, each sorted (``cards.sort_hand``).
- ``dealt``: five ints, the counts dealt before any card changed hands.
- ``tribute_in``: the debts (contract "Debts" dicts) paid at this deal (qingdao; else []).
- ``tribute_paid``: the transfers that paid them, one per card: ``[{"from", "to", "card"}]``.
- ``threes``: qingdao 买3 transfers ``[{"buyer", "seller", "paid": card | None}]``.
- ``sold_three``: seats that sold a 3 in 买3 (qingdao; else []).
- ``six_bound``: five bools — lianzhong 憋6: the seat was dealt a 6 and must play all
  its 6s as its final set (False everywhere when the option is off or in other presets).
- ``discarded``: cards that left play without being played (a 闷三 player's 3).

Bidding (phase ``bidding``; ``turn`` is the deciding seat)
- ``first_holder``: the seat that held ``BJ*`` when bidding began.
- ``bidding``: a dict, None once the emperor is known:
  - classic: ``{"declined": [seats in order of 让庄], "forced": bool}``. ``BJ*`` is in
    the deciding seat's hand (让庄 moves it to the 上家). ``forced`` is True during 逼庄:
    the seat to act must call one of its triples.
  - lianzhong_classic: as classic, ``forced`` True after a full circle of 让位 (a seat
    that can call must accept).
  - lianzhong / qingdao: ``{"bundle": [cards], "declines": int}`` — the cards travelling
    with the throne (``BJ*`` plus one card per later refusal, removed from the decliners'
    hands; public: every card in the bundle is shown face up), and how many refusals so far.
- ``turn``: the seat whose bid or play is awaited; None in ``declaring`` and after the end.

Roles (``guard`` and ``solo == "dark"`` are SECRET until ``revealed``)
- ``emperor``: seat or None (皇帝).
- ``guard``: seat or None (保皇派). None for a solo.
- ``called``: classic / lianzhong_classic: the identity called (``"9S"``, ``"BJ"``); else None.
- ``guard_card``: the card whose play by the unrevealed guard reveals it: classic and
  lianzhong_classic the called identity (suit matters, marks ignored), lianzhong ``"SJ*"``,
  qingdao ``"4H*"``.
- ``solo``: None | ``"dark"`` (暗独) | ``"open"`` (明独) | ``"seized"`` (classic 抢庄,
  lianzhong 抢独). Until the window closes, a solo emperor counts as ``"dark"``.
- ``revealed``: bool — whether the emperor side's make-up is public (always True for
  open / seized solos; set by 明保, 造反, playing ``guard_card``, or the end of the hand).
- ``declarations``: the declarations that took effect, the names `scoring.score_hand`
  takes: subset of ``"ming_bao"``, ``"rebel"`` (造反 succeeded), ``"niu"``, ``"ti"``.
- ``declared``: public log ``[{"seat", "what"}]`` of every declaration other than the
  silent ones (``none``, ``an_bao``, ``dark_solo`` are never logged).
- ``hoes``: seats that declared 反 (shown with a 锄头), successful or not.
- ``first_side``: lianzhong: the seats of the side whose 明保 / 造反 opened 扭 / 踢
  (public), else None.

Declaration window (phase ``declaring``, see ``bidding.py`` for the sub-steps)
- ``window``: ``{"step": str, "pending": [seats], "answers": {"<seat>": what}}`` or None.
  ``pending`` are the actors; ``answers`` holds the truth of who said what in this step
  (SECRET: a view shows only which seats have answered, never a silent answer's content).

Play (phase ``playing``)
- ``top``: ``{"seat": int, "cards": [...]}`` the set to beat, or None when ``turn`` leads.
- ``leader``: the seat that led the current round.
- ``passed``: seats whose pass still holds (set-scoped in classic / lianzhong, cleared by
  a new top set; round-scoped in qingdao, cleared by a new round).
- ``yielded``: seats that yielded (让牌) on the current top set (cleared by a new top set).
- ``round``: public log of the current round: ``[{"seat", "type": "play"|"pass"|"yield",
  "cards": [...]}]`` (``cards`` only for plays).
- ``previous_round``: the last round won (上一轮), ``{"entries": [as round], "winner": seat}``,
  or None before the first is won.
- ``gone``: public tally of cards out of play (played, or discarded by 闷三) by counter
  key (`counter.counter_key`: rank, ``"SJ"``, ``"BJ"``, qingdao ``"4H*"``).
- ``places``: five entries, ``places[k]`` is the seat in place k+1 (头科 … 大落) or None.
- ``menzan``: seats that were 闷 (闷三), in order.
- ``played``: five ints, how many sets each seat has played (for 托管 policies / views).

End
- ``result``: None until the hand ends (phase ``ended`` or ``void``), then the dict
  `result()` returns.

Events
------
`apply` returns ``(state, event)``. ``event`` is the full truth (never send it to a
client; ``views.event_view`` redacts it): ``{"version", "seat", "type"}`` plus:
- ``call``: ``"card"``, ``"emperor"``, ``"guard"`` (SECRET), ``"solo"`` (SECRET when
  ``"dark"``), ``"step_next"`` (the window's first step).
- ``decline``: ``"to"`` (next decider), ``"bundle"`` (cards added, lianzhong / qingdao;
  public), ``"forced"`` (逼庄: the seat that must call), ``"void"`` (True: 黄庄 / all refused).
- ``accept``: ``"emperor"``, ``"taken"`` (the bundle), ``"guard"`` and ``"solo"`` (SECRET
  as for ``call``), ``"step_next"``.
- ``seize``: ``"emperor"``, ``"solo": "seized"``, ``"next"``.
- ``declare``: ``"what"`` (SECRET when silent: ``none``/``an_bao``/``dark_solo``),
  ``"step"``, ``"revealed"`` (seat, when 明保 / 明独 shows it at once), ``"step_done"``
  ``{"step", "revealed": bool, "next_step": str | None}`` when the step resolved (public),
  and when the window closed ``"next"`` (the emperor, who leads) and ``"emperor"``.
- ``play``: ``"cards"``, ``"out"`` (place taken, 1–5), ``"menzan"`` / ``"menzan_place"``
  (the seat that was 闷 and the place it took), ``"revealed"`` (the guard or dark soloist
  shown by this play), ``"round_won"`` (seat), ``"next"`` (seat to act), ``"ended"``
  (True, with ``"places"`` and ``"showdown"`` — every seat's remaining cards, 摊牌 — when
  the hand ended).
- ``pass`` / ``yield``: ``"round_won"``, ``"next"``.
"""

from __future__ import annotations

import json
import random

from . import bidding, play
from .cards import build_deck, parse_cards, sort_hand
from .errors import IllegalAction
from .presets import preset_named, preset_of
from .sets import legal_sets

# card_counter: whether a seat's view carries its 记牌器 (`counter.unseen`).
DEFAULT_OPTIONS = {"hold_sixes": True, "grab_solo": False, "card_counter": True}

# Which action types each phase accepts; anything else is wrong_phase.
PHASE_ACTIONS = {
    "bidding": frozenset({"call", "decline", "accept", "seize"}),
    "declaring": frozenset({"declare"}),
    "playing": frozenset({"play", "pass", "yield"}),
}
ACTION_TYPES = frozenset().union(*PHASE_ACTIONS.values())
DECISION_KIND = {"bidding": "bid", "declaring": "declare", "playing": "play"}


# --- a new hand ---------------------------------------------------------------------


def new_hand(preset: str, seed, *, options=None, tribute=(), salt=None) -> dict:
    """Deal a hand from ``seed`` (RULES §5) and open the bidding.

    classic: 43 cards each and the leftover to the ``BJ*`` holder; lianzhong 33 each;
    qingdao 41 each, then the open ``tribute`` debts are paid in cards, then 买3.
    ``salt`` (`fairness.new_salt`) makes the deal provably fair: views show a commitment to
    the seed at once, and the seed and salt once the hand is over.
    """
    options = _options(preset, options)
    state = _base_state(preset, seed, options, deal(preset, seed))
    state["salt"] = salt
    if preset_named(preset).tribute:
        _tribute_and_threes(state, [dict(debt) for debt in tribute])
    return _opened(state)


def deal(preset: str, seed) -> list[list[str]]:
    """The five hands as the seeded shuffle deals them, before any card changes hands."""
    rules = preset_named(preset)
    deck = build_deck(preset)
    random.Random(f"{seed}:deal").shuffle(deck)
    size = rules.deal_size
    hands = [deck[size * seat:size * (seat + 1)] for seat in range(5)]
    if rules.leftover_to_crown:
        # [decision] RULES §5: the one card left over goes to the seat holding BJ*. When
        # the leftover is BJ* itself (1 deal in 216) it goes to seat 0, where dealing one
        # card at a time would have put the 216th card.
        leftover = deck[size * 5:]
        holder = 0 if "BJ*" in leftover else bidding.holder_of(hands, "BJ*")
        hands[holder] += leftover
    return [sort_hand(hand, preset) for hand in hands]


def _options(preset: str, options) -> dict:
    preset_named(preset)  # ValueError naming the known presets
    merged = dict(DEFAULT_OPTIONS)
    for key, flag in (options or {}).items():
        if key not in DEFAULT_OPTIONS or not isinstance(flag, bool):
            raise ValueError(f"unknown option {key}={flag!r}; expected booleans "
                             f"{', '.join(DEFAULT_OPTIONS)}")
        merged[key] = flag
    return merged


def _base_state(preset: str, seed, options: dict, hands) -> dict:
    hands = [sort_hand(hand, preset) for hand in hands]
    return {
        "preset": preset, "seed": seed, "salt": None, "options": options, "version": 0,
        "phase": "bidding",
        "hands": hands, "dealt": [len(hand) for hand in hands], "tribute_in": [],
        "tribute_paid": [], "threes": [], "sold_three": [], "six_bound": [False] * 5,
        "discarded": [], "first_holder": None, "bidding": None, "turn": None,
        "emperor": None, "guard": None, "called": None, "guard_card": None, "solo": None,
        "revealed": False, "declarations": [], "declared": [], "hoes": [],
        "first_side": None, "window": None, "top": None, "leader": None, "passed": [],
        "yielded": [], "round": [], "previous_round": None, "gone": {}, "places": [None] * 5,
        "menzan": [], "played": [0] * 5, "result": None,
    }


def _tribute_and_threes(state: dict, debts: list) -> None:
    """qingdao: pay last hand's tribute (进贡) in cards, then 买3 (RULES §5)."""
    from .tribute import buy_threes, pay_tribute

    hands, transfers = pay_tribute(state["hands"], debts)
    hands, purchases = buy_threes(hands)
    sellers = []
    for purchase in purchases:
        if purchase["seller"] not in sellers:
            sellers.append(purchase["seller"])
    state.update(hands=[sort_hand(hand, state["preset"]) for hand in hands], tribute_in=debts,
                 tribute_paid=transfers, threes=purchases, sold_three=sellers)


def _opened(state: dict) -> dict:
    _bind_sixes(state)
    bidding.start_bidding(state)
    return state


def _bind_sixes(state: dict) -> None:
    if preset_of(state).sixes_option and state["options"]["hold_sixes"]:
        # 憋6 binds a seat dealt any 6 (RULES §2).
        state["six_bound"] = [any(card[0] == "6" for card in hand) for hand in state["hands"]]


def state_from_hands(preset: str, hands, *, seed=0, options=None, emperor=None, guard=None,
                     solo=None, called=None, revealed=None, declarations=()) -> dict:
    """A hand dealt as given (tests, fixtures): ``hands`` are five notation strings.

    Without ``emperor`` the bidding opens as after a deal (``BJ*`` must be in a hand).
    With ``emperor`` the roles are set as given and play starts with the emperor's lead.
    """
    cards = [parse_cards(hand) if isinstance(hand, str) else list(hand) for hand in hands]
    state = _base_state(preset, seed, _options(preset, options), cards)
    if emperor is None:
        return _opened(state)
    _bind_sixes(state)
    guard_card = preset_named(preset).guard_card or called
    state.update(emperor=emperor, guard=guard, solo=solo, called=called, guard_card=guard_card,
                 declarations=list(declarations),
                 revealed=solo in ("open", "seized") if revealed is None else revealed)
    play.start_play(state)
    return state


# --- the state machine ----------------------------------------------------------------


def actors(state: dict) -> list[int]:
    """The seats whose decision is awaited now (several only in a declaration window)."""
    phase = state["phase"]
    if phase == "declaring":
        return list(state["window"]["pending"])
    if phase in ("bidding", "playing"):
        return [state["turn"]]
    return []


def decision_kind(state: dict) -> str | None:
    """``"bid" | "declare" | "play"`` for the room's timers; None once the hand is over."""
    return DECISION_KIND.get(state["phase"])


def check(state: dict, action) -> None:
    """Raise `IllegalAction` with a precise code if ``action`` is not legal now."""
    _validate(state, action)


def apply(state: dict, action) -> tuple[dict, dict]:
    """Validate and apply ``action``; returns ``(new_state, event)``. ``state`` is untouched."""
    kind, detail = _validate(state, action)
    new = dict(state)
    new["version"] = state["version"] + 1
    seat = action["seat"]
    event = {"version": new["version"], "seat": seat, "type": kind}
    TRANSITIONS[kind](new, seat, detail, event)
    return new, event


def _validate(state: dict, action):
    """Common shape and phase checks, then the action's own rule; returns its detail."""
    if not isinstance(action, dict):
        raise IllegalAction("bad_action", "an action is an object with 'seat' and 'type'")
    seat, kind = action.get("seat"), action.get("type")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 5:
        raise IllegalAction("bad_action", f"'seat' must be a seat number 0-4, got {seat!r}")
    if kind not in ACTION_TYPES:
        raise IllegalAction("unknown_action", f"unknown action type {kind!r}", {"action": str(kind)[:20]})
    phase = state["phase"]
    if phase in ("ended", "void"):
        raise IllegalAction("hand_over", "this hand is over")
    if kind not in PHASE_ACTIONS[phase]:
        raise IllegalAction("wrong_phase", f"cannot {kind} during {phase}", {"action": kind, "phase": phase})
    return kind, CHECKS[kind](state, action)


CHECKS = {
    "call": bidding.check_bid,
    "decline": bidding.check_bid,
    "accept": bidding.check_bid,
    "seize": bidding.check_bid,
    "declare": bidding.check_declare,
    "play": play.check_play_action,
    "pass": play.check_pass,
    "yield": play.check_yield,
}
TRANSITIONS = {
    "call": bidding.do_bid,
    "decline": bidding.do_bid,
    "accept": bidding.do_bid,
    "seize": bidding.do_bid,
    "declare": lambda state, seat, what, event: bidding.do_declare(state, seat, what, event),
    "play": lambda state, seat, cards, event: play.do_play(state, seat, cards, event),
    "pass": lambda state, seat, _detail, event: play.do_pass(state, seat, event),
    "yield": lambda state, seat, _detail, event: play.do_yield(state, seat, event),
}


# --- enumerating legal actions -----------------------------------------------------------


def legal_actions(state: dict, seat: int) -> list[dict]:
    """Every legal action for ``seat`` now (one ``play`` per distinct composition)."""
    phase = state["phase"]
    if phase == "bidding":
        return bidding.legal_bids(state, seat)
    if phase == "declaring":
        return [{"seat": seat, "type": "declare", "what": what}
                for what in bidding.answers_for(state, seat)]
    if phase != "playing" or seat != state["turn"]:
        return []
    top = state["top"]
    if top is not None:
        top = play.top_shape(state["preset"], top["cards"])
    sets = legal_sets(state["hands"][seat], state["preset"], top=top,
                      hold_sixes=state["six_bound"][seat],
                      avoid=hidden_identities(state, seat))
    actions = [{"seat": seat, "type": "play", "cards": " ".join(cards)} for cards in sets]
    if top is not None:
        actions.append({"seat": seat, "type": "pass"})
        if preset_of(state).yield_allowed and seat not in state["yielded"]:
            actions.append({"seat": seat, "type": "yield"})
    return actions


def hidden_identities(state: dict, seat: int) -> frozenset:
    """Identities whose play would reveal an unrevealed guard of a called card (marked
    cards are always chosen last by `legal_sets`)."""
    if preset_of(state).guard_by_call and seat == state["guard"] and not state["revealed"]:
        return frozenset((state["called"],))
    return frozenset()


# --- result, serialisation, replay ----------------------------------------------------------


def result(state: dict) -> dict | None:
    """The hand's result once it has ended or was void; None while it runs."""
    return state["result"]


def to_json(state: dict) -> str:
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"))


def from_json(text: str) -> dict:
    return json.loads(text)


def replay(preset: str, seed, actions, *, options=None, tribute=(), salt=None) -> dict:
    """Rebuild a hand from its seed (and salt) and the actions applied to it, in order."""
    state = new_hand(preset, seed, options=options, tribute=tribute, salt=salt)
    for action in actions:
        state, _ = apply(state, action)
    return state
