"""Choosing the emperor (皇帝) and guard (保皇派), and the declaration window — RULES §6.

Bidding, per preset (phase ``bidding``; ``state["turn"]`` decides):

- classic 叫庄: the seat holding ``BJ*`` may ``call`` an identity it holds exactly 3 of
  (guard = holder of the 4th copy, 暗保 by default) or all 4 of (独保: emperor alone,
  暗独 until declared), or ``decline`` (让庄: ``BJ*`` goes to its 上家, who decides the
  same). Any seat may ``seize`` (抢庄) at any time during bidding: it takes ``BJ*`` and
  is emperor with no guard. Once all five declined comes 逼庄: from the first holder
  through each 上家, the first seat holding exactly three copies of some card must call
  one of them; [decision] ``BJ*`` moves to that seat, so the emperor always holds the
  crown. No such seat: 黄庄, the hand is void.
- lianzhong 让皇: ``accept`` or ``decline``; the bundle (``BJ*``, then one card per later
  refusal: a 2, else the highest non-joker card) travels to the 上家; the seat that
  accepts takes it. Ten refusals (two full circles): void. Guard = holder of ``SJ*``.
- qingdao: the same, each later decliner adding a 2 only if it has one; after five
  refusals the bundle is back with the first holder, whose second refusal voids the hand.
  Guard = holder of ``4H*``.
- lianzhong_classic 让位 (联众 经典玩法): the holder of ``BJ*`` may ``call`` a natural
  identity it holds 3 of (guard = holder of the 4th copy) or 4 of (暗独保), ``accept``
  with no call (明独保, open at once), or ``decline`` (让位: ``BJ*`` to the 上家, no card
  added). After one full circle a seat that can call must; ten refusals: void.

Each procedure is a `Bidding` in ``BIDDINGS``, named by the preset (`presets.Preset`).

The declaration window (phase ``declaring``) is a sequence of sub-steps. In each step
``window["pending"]`` are the actors; each answers once with ``declare``; the step
resolves when nobody is pending (the room's timer answers ``none`` for the rest).
Hidden information (RULES §8): which steps exist and who is asked never depends on who
the guard is or whether a solo is dark — every seat that could be asked is asked, and
non-guards answer ``none``. Silent answers (``none``, ``an_bao``, ``dark_solo``) change
nothing and are never logged publicly.

- classic and qingdao: one step ``declare``, all five seats: the emperor of a solo
  answers ``dark_solo`` (= ``none``) or ``open_solo``; the guard ``an_bao`` (= ``none``)
  or ``ming_bao``; everyone else ``none``. (A classic 抢庄 has no window.)
- lianzhong_classic: ``grab`` (as lianzhong's, only with ``grab_solo`` and no 明独保;
  a grab ends the window), then ``guard`` — the four non-emperor seats, the guard
  ``ming_bao`` / ``an_bao`` / ``none``, the others ``none``. No 反, 扭 or 踢 (RULES §6).
  A 明独保 without ``grab_solo`` has no window.
- lianzhong:
  1. ``emperor`` — the emperor alone: a soloist (holding ``SJ*``) ``dark_solo`` /
     ``open_solo``, otherwise ``none``.
  2. ``grab`` — only with option ``grab_solo`` and no 明独: the four other seats answer
     ``grab_solo`` or ``none``; among the grabbers the nearest to the emperor in 上家
     direction becomes emperor of a seized solo (抢独, scored as 明独), with no guard.
     The emperor's own 明独 has priority (no ``grab`` step follows it). [decision] A
     silent 暗独 emperor does not block a grab: blocking it would show the dark solo.
  3. ``open`` — team or dark solo: the four non-emperor seats; the guard ``ming_bao`` /
     ``an_bao`` / ``none``, the others ``rebel`` (反) / ``none``. [decision] 明保 wins
     over a simultaneous 造反 as the side that spoke first (both still double once).
     Then: 明保 → ``niu`` by the rebels; two or more 反 on a team → 造反, guard shown,
     ``niu`` by emperor and guard; two or more 反 on a dark solo → solo shown, ``ti`` by
     the soloist; otherwise the window closes. A single 反 only marks its declarer (锄头).
  4. ``kick`` — open or seized solo: the four others answer ``ti`` / ``none``; two or
     more ``ti`` kick it (明独被踢).
  5. ``niu`` — the other side answers ``niu`` / ``none``; [decision] one 扭 from the side
     suffices; then ``ti`` by the first side.
  6. ``ti`` — ``ti`` / ``none``; one 踢 from the side suffices.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable

from .cards import EMPEROR_CARD, RANKS, SUITS, deck_identities, identity, sort_hand, value
from .errors import IllegalAction
from .play import next_seat, prev_seat, start_play, void_result
from .presets import preset_named, preset_of

SILENT = frozenset({"none", "an_bao", "dark_solo"})
DECLARE_WHATS = ("none", "ming_bao", "an_bao", "dark_solo", "open_solo", "rebel", "niu", "ti",
                 "grab_solo")


def holder_of(hands, card: str) -> int:
    return next(seat for seat in range(5) if card in hands[seat])


@dataclass(frozen=True)
class Bidding:
    """A bidding procedure: the action types it takes and one hook per step.

    ``checks[type](state, action)`` validates and returns the detail its transition
    needs; ``transitions[type](state, seat, detail, event)`` applies it to the fresh
    state; ``legal(state, seat)`` lists a seat's bids; ``public(state)`` is what every
    viewer sees of the bidding; ``default(state, seat)`` is the 托管 answer (RULES §8).
    """

    start: Callable[[dict], dict]
    checks: dict
    transitions: dict
    legal: Callable[[dict, int], list]
    public: Callable[[dict], dict]
    default: Callable[[dict, int], dict]

    @property
    def actions(self) -> frozenset:
        return frozenset(self.checks)


def procedure(state: dict) -> Bidding:
    """The bidding procedure of the hand's preset."""
    return BIDDINGS[preset_of(state).bidding]


def start_bidding(state: dict) -> None:
    """The seat holding ``BJ*`` opens the bidding. Mutates the fresh ``state``."""
    first = holder_of(state["hands"], EMPEROR_CARD)
    state.update(phase="bidding", first_holder=first, turn=first,
                 bidding=procedure(state).start(state))


def check_bid(state: dict, action: dict):
    """Validate a bidding action under the preset's procedure; returns its detail."""
    check = procedure(state).checks.get(action["type"])
    if check is None:
        raise IllegalAction("unknown_action", f"{state['preset']} bidding has no "
                            f"{action['type']}: {' / '.join(sorted(procedure(state).actions))}",
                            {"action": action["type"]})
    return check(state, action)


def do_bid(state: dict, seat: int, detail, event: dict) -> None:
    procedure(state).transitions[event["type"]](state, seat, detail, event)


def legal_bids(state: dict, seat: int) -> list[dict]:
    return procedure(state).legal(state, seat)


def public_bidding(state: dict) -> dict:
    return {"first_holder": state["first_holder"], **procedure(state).public(state)}


def default_bid(state: dict, seat: int) -> dict:
    return procedure(state).default(state, seat)


# --- classic 叫庄 ---------------------------------------------------------------------


def identity_counts(hand) -> Counter:
    return Counter(identity(card) for card in hand)


def triples(hand) -> list[str]:
    """Identities held exactly three times, in the hand's order (what 逼庄 forces)."""
    counts = identity_counts(hand)
    return sorted((ident for ident, count in counts.items() if count == 3),
                  key=lambda ident: -value(ident, "classic"))


def callable_identities(state: dict, seat: int) -> list[str]:
    """What ``seat`` may call now (`calls_of`)."""
    return calls_of(state["preset"], identity_counts(state["hands"][seat]),
                    forced=_call_forced_to_triple(state))


def calls_of(preset: str, counts: Counter, *, forced: bool) -> list[str]:
    """What a hand holding ``counts`` (by identity) may call, highest first: triples
    always, four-of-a-kind unless forced (classic 逼庄: a lianzhong_classic seat forced after
    a circle may still call a four); in lianzhong_classic natural cards only (jokers may
    not be called); never a card the deck holds fewer than four of."""
    throne = BIDDINGS[preset_named(preset).bidding] is THRONE_CALL
    allowed = (3,) if forced and not throne else (3, 4)
    deck = deck_identities(preset)
    return sorted((ident for ident, count in counts.items()
                   if count in allowed and deck[ident] == 4
                   and not (throne and not _is_natural(ident))),
                  key=lambda ident: -value(ident, "classic"))


def _call_forced_to_triple(state: dict) -> bool:
    return procedure(state) is CALL and state["bidding"]["forced"]


def _is_natural(ident: str) -> bool:
    return len(ident) == 2 and ident[0] in RANKS and ident[1] in SUITS


def check_call(state: dict, action: dict) -> str:
    seat = action["seat"]
    _check_bidder(state, seat)
    card = action.get("card")
    if not isinstance(card, str):
        raise IllegalAction("bad_action",
                            "a call needs 'card', an identity such as \"9S\" or \"BJ\"")
    ident = identity(card.strip().upper())
    if procedure(state) is THRONE_CALL and not _is_natural(ident):
        raise IllegalAction("cannot_call", f"call a natural card such as 9S; jokers may not "
                            f"be called ({ident})", {"card": ident, "held": 0, "forced": False})
    count = identity_counts(state["hands"][seat])[ident]
    if _call_forced_to_triple(state) and count != 3:
        raise IllegalAction("cannot_call", f"逼庄: you must call a card you hold exactly three "
                            f"of, and you hold {count} of {ident}", {"card": ident, "held": count, "forced": True})
    if count not in (3, 4):
        raise IllegalAction("cannot_call", f"you can call only a card you hold 3 or 4 copies of; "
                            f"you hold {count} of {ident}", {"card": ident, "held": count, "forced": False})
    if deck_identities(state["preset"])[ident] != 4:
        # [decision] lianzhong's deck keeps only three copies of some 6s: such a triple has
        # no fourth copy, so nobody would be the guard; it cannot be called.
        held_by_deck = deck_identities(state["preset"])[ident]
        raise IllegalAction("cannot_call", f"the {state['preset']} deck holds only "
                            f"{held_by_deck} of {ident}: call a card with a fourth copy",
                            {"card": ident, "held": count, "forced": False})
    return ident


def do_call(state: dict, seat: int, ident: str, event: dict) -> None:
    """叫庄: ``seat`` is emperor; the holder of the 4th copy is the guard (独保 with all 4)."""
    hands = state["hands"]
    if EMPEROR_CARD not in hands[seat]:
        _move_card(state, EMPEROR_CARD, holder_of(hands, EMPEROR_CARD), seat)  # 逼庄
        hands = state["hands"]
    solo = identity_counts(hands[seat])[ident] == 4
    guard = None if solo else next(
        other for other in range(5)
        if other != seat and any(identity(card) == ident for card in hands[other]))
    state.update(emperor=seat, guard=guard, called=ident, guard_card=ident, bidding=None,
                 solo="dark" if solo else None, revealed=False)
    event.update(card=ident, emperor=seat, guard=guard, solo=state["solo"])
    open_window(state, event)


def check_decline(state: dict, action: dict) -> None:
    _check_bidder(state, action["seat"])
    if _call_forced_to_triple(state):
        raise IllegalAction("must_call", "逼庄: you hold three of a card and must call one")


def do_decline_classic(state: dict, seat: int, event: dict) -> None:
    """让庄: hand ``BJ*`` to the 上家; after five refusals comes 逼庄 or 黄庄."""
    declined = state["bidding"]["declined"] + [seat]
    _move_card(state, EMPEROR_CARD, seat, prev_seat(seat))
    state["bidding"] = {"declined": declined, "forced": False}
    if len(declined) < 5:
        state["turn"] = event["to"] = prev_seat(seat)
        return
    forced = forced_caller(state)
    if forced is None:
        make_void(state, event)  # 黄庄
        return
    state["bidding"] = {"declined": declined, "forced": True}
    state["turn"] = event["to"] = forced
    event["forced"] = forced


def forced_caller(state: dict) -> int | None:
    """逼庄 (`first_with_triple`)."""
    return first_with_triple(state["first_holder"], [identity_counts(hand) for hand in state["hands"]])


def first_with_triple(first_holder: int, counts: list[Counter]) -> int | None:
    """逼庄: from the first holder through each 上家, the first seat holding three of an
    identity (``counts``: each seat's hand by identity)."""
    seat = first_holder
    for _ in range(5):
        if 3 in counts[seat].values():
            return seat
        seat = prev_seat(seat)
    return None


def check_seize(state: dict, action: dict) -> None:
    if state["bidding"]["forced"] and action["seat"] == state["turn"]:
        raise IllegalAction("must_call", "逼庄: you hold three of a card and must call one")


def do_seize(state: dict, seat: int, event: dict) -> None:
    """抢庄: take ``BJ*`` and rule alone with no guard (抢杠 scoring); no window."""
    holder = holder_of(state["hands"], EMPEROR_CARD)
    if holder != seat:
        _move_card(state, EMPEROR_CARD, holder, seat)
    state.update(emperor=seat, guard=None, called=None, guard_card=None, solo="seized",
                 revealed=True)
    event.update(emperor=seat, solo="seized")
    start_play(state)
    event["next"] = seat


def _legal_calls(state: dict, seat: int) -> list[dict]:
    return [{"seat": seat, "type": "call", "card": ident}
            for ident in callable_identities(state, seat)]


def _legal_classic(state: dict, seat: int) -> list[dict]:
    actions = []
    forced = state["bidding"]["forced"]
    if seat == state["turn"]:
        actions += _legal_calls(state, seat)
        if not forced:
            actions.append({"seat": seat, "type": "decline"})
    if not (forced and seat == state["turn"]):
        actions.append({"seat": seat, "type": "seize"})  # 抢庄, open to every seat
    return actions


def _crown_holder(state: dict) -> int:
    # The crown (BJ*) travels openly from hand to hand: its holder is public.
    return holder_of(state["hands"], EMPEROR_CARD)


def _public_classic(state: dict) -> dict:
    bidding = state["bidding"]
    return {"crown": _crown_holder(state), "declined": list(bidding["declined"]),
            "forced": bidding["forced"]}


def _default_call(state: dict, seat: int) -> dict:
    """Call the highest triple held, else decline (让庄 / 让位)."""
    held = triples(state["hands"][seat])  # highest first
    if held:
        return {"seat": seat, "type": "call", "card": held[0]}
    return {"seat": seat, "type": "decline"}


# --- lianzhong / qingdao 让皇 --------------------------------------------------------


def check_accept(state: dict, action: dict) -> None:
    _check_bidder(state, action["seat"])


def do_accept(state: dict, seat: int, event: dict) -> None:
    """Take the throne and the bundle; the guard is the holder of the guard card."""
    bundle = state["bidding"]["bundle"]
    if bundle:
        hands = list(state["hands"])
        hands[seat] = sort_hand(hands[seat] + bundle, state["preset"])
        state["hands"] = hands
    guard_card = preset_of(state).guard_card
    guard = holder_of(state["hands"], guard_card)
    solo = guard == seat
    state.update(emperor=seat, guard=None if solo else guard, called=None, bidding=None,
                 guard_card=guard_card, solo="dark" if solo else None, revealed=False)
    event.update(emperor=seat, taken=bundle, guard=state["guard"], solo=state["solo"])
    open_window(state, event)


def do_decline_bundle(state: dict, seat: int, event: dict) -> None:
    """让皇: pass the bundle to the 上家, adding a card after the first refusal."""
    bidding = state["bidding"]
    declines = bidding["declines"] + 1
    hand = state["hands"][seat]
    if declines == 1:
        added = [EMPEROR_CARD] if EMPEROR_CARD in hand else []
    else:
        added = _bundle_card(hand, state["preset"])
    if added:
        hands = list(state["hands"])
        hands[seat] = list(hand)
        hands[seat].remove(added[0])  # removing keeps the hand sorted
        state["hands"] = hands
    state["bidding"] = {"bundle": bidding["bundle"] + added, "declines": declines}
    event["bundle"] = added
    if declines >= preset_of(state).max_refusals:
        make_void(state, event)
        return
    state["turn"] = event["to"] = prev_seat(seat)


def _bundle_card(hand, preset: str) -> list[str]:
    """The card a later decliner adds: a 2; in lianzhong, without one, the highest
    non-joker card (贴2); in qingdao nothing (如没有2则免)."""
    twos = [card for card in hand if card[0] == "2"]
    if twos:
        return [twos[0]]
    if preset_named(preset).bundle_adds != "two_else_highest":
        return []
    naturals = [card for card in hand if card[1] in "SHCD"]
    return [max(naturals, key=lambda card: value(card, preset))] if naturals else []


def _legal_bundle(state: dict, seat: int) -> list[dict]:
    if seat != state["turn"]:
        return []
    return [{"seat": seat, "type": "accept"}, {"seat": seat, "type": "decline"}]


def _public_bundle(state: dict) -> dict:
    bidding = state["bidding"]
    return {"bundle": list(bidding["bundle"]), "declines": bidding["declines"]}


# --- lianzhong_classic 让位 and 叫牌 ---------------------------------------------------
# The holder of BJ* (权杖) calls one of its triples (guard = holder of the 4th copy), or
# calls four copies as 暗独保, or declares 明独保 (``accept``) with no call; or 让位:
# ``decline`` hands BJ* to its 上家 with no card added (经典玩法中不贴2). After one full
# circle every seat offered the throne must accept if it can call; a second circle with
# nobody able to: [decision] RULES §6, the hand is void (两轮之内仍然没有决定谁是皇帝).

THRONE_MAX_REFUSALS = 10  # two full circles of 让位


def _throne_must_accept(state: dict, seat: int) -> bool:
    return state["bidding"]["forced"] and bool(callable_identities(state, seat))


def check_throne_decline(state: dict, action: dict) -> None:
    seat = action["seat"]
    _check_bidder(state, seat)
    if _throne_must_accept(state, seat):
        raise IllegalAction("must_call", "after a full circle of 让位 you must take the "
                            "throne: call a card you hold three (or four) of")


def do_throne_decline(state: dict, seat: int, event: dict) -> None:
    """让位: hand ``BJ*`` to the 上家; after one circle acceptance is forced, after two void."""
    declined = state["bidding"]["declined"] + [seat]
    _move_card(state, EMPEROR_CARD, seat, prev_seat(seat))
    forced = len(declined) >= 5
    state["bidding"] = {"declined": declined, "forced": forced}
    if len(declined) >= THRONE_MAX_REFUSALS:
        make_void(state, event)
        return
    state["turn"] = event["to"] = prev_seat(seat)
    if forced:
        event["forced"] = state["turn"]  # must accept if it can call


def do_open_solo_accept(state: dict, seat: int, event: dict) -> None:
    """明独保: take the throne with no call, one against four, shown at once."""
    state.update(emperor=seat, guard=None, called=None, guard_card=None, bidding=None,
                 solo="open", revealed=True)
    event.update(emperor=seat, guard=None, solo="open")
    open_window(state, event)


def _legal_throne(state: dict, seat: int) -> list[dict]:
    if seat != state["turn"]:
        return []
    actions = _legal_calls(state, seat) + [{"seat": seat, "type": "accept"}]
    if not _throne_must_accept(state, seat):
        actions.append({"seat": seat, "type": "decline"})
    return actions


def _public_throne(state: dict) -> dict:
    """As classic's, and ``throne``: declining is 让位 and ``forced`` means the seat offered
    BJ* must take the throne if it can call (not classic's 逼庄 of one seat)."""
    return {**_public_classic(state), "throne": True}


def _default_throne(state: dict, seat: int) -> dict:
    """Call the highest triple, else (when it must accept) its highest four, else 让位."""
    calls = callable_identities(state, seat)  # highest first
    counts = identity_counts(state["hands"][seat])
    held = [ident for ident in calls if counts[ident] == 3]
    if held:
        return {"seat": seat, "type": "call", "card": held[0]}
    if calls and state["bidding"]["forced"]:
        return {"seat": seat, "type": "call", "card": calls[0]}
    return {"seat": seat, "type": "decline"}


# --- shared bidding helpers ------------------------------------------------------------


def _check_bidder(state: dict, seat: int) -> None:
    if seat != state["turn"]:
        raise IllegalAction("not_your_turn", f"seat {state['turn']} decides now, not seat {seat}",
                            {"turn": state["turn"]})


def _move_card(state: dict, card: str, source: int, target: int) -> None:
    hands = list(state["hands"])
    giving = list(hands[source])
    giving.remove(card)
    hands[source] = giving
    hands[target] = sort_hand(hands[target] + [card], state["preset"])
    state["hands"] = hands


def make_void(state: dict, event: dict) -> None:
    state.update(phase="void", turn=None)
    state["result"] = void_result(state)
    event["void"] = True


def _transition(do):
    """A transition that takes no detail (the check returned None)."""
    return lambda state, seat, _detail, event: do(state, seat, event)


CALL = Bidding(
    start=lambda state: {"declined": [], "forced": False},
    checks={"call": check_call, "decline": check_decline, "seize": check_seize},
    transitions={"call": do_call, "decline": _transition(do_decline_classic),
                 "seize": _transition(do_seize)},
    legal=_legal_classic, public=_public_classic, default=_default_call)
BUNDLE = Bidding(
    start=lambda state: {"bundle": [], "declines": 0},
    checks={"accept": check_accept, "decline": check_accept},
    transitions={"accept": _transition(do_accept), "decline": _transition(do_decline_bundle)},
    legal=_legal_bundle, public=_public_bundle,
    default=lambda state, seat: {"seat": seat, "type": "accept"})
THRONE_CALL = Bidding(
    start=lambda state: {"declined": [], "forced": False},
    checks={"call": check_call, "accept": check_accept, "decline": check_throne_decline},
    transitions={"call": do_call, "accept": _transition(do_open_solo_accept),
                 "decline": _transition(do_throne_decline)},
    legal=_legal_throne, public=_public_throne, default=_default_throne)
BIDDINGS = {"call": CALL, "bundle": BUNDLE, "throne_call": THRONE_CALL}
"""The bidding procedures a preset may name (`presets.Preset.bidding`)."""


# --- the declaration window -------------------------------------------------------------


def open_window(state: dict, event: dict) -> None:
    """Open the preset's declaration window, or start play when it has no step to ask."""
    state["phase"] = "declaring"
    state["turn"] = None
    first = WINDOWS[preset_of(state).window](state)
    if first is None:
        start_play(state)
        event["next"] = state["turn"]
        return
    event["step_next"] = first


def _window_declare(state: dict) -> str:
    # classic and qingdao: one step, all five seats.
    _enter(state, "declare", list(range(5)))
    return "declare"


def _window_emperor(state: dict) -> str:
    # lianzhong: the emperor chooses first (暗独 / 明独), then grab, open, kick, 扭, 踢.
    _enter(state, "emperor", [state["emperor"]])
    return "emperor"


def _window_throne(state: dict) -> str | None:
    # lianzhong_classic: 抢独 (room option) unless the emperor declared 明独保, then the
    # guard's 明保. A 明独保 without 抢独 has nothing to ask: play starts.
    if state["solo"] == "open":
        return None
    return _grab_or(state, _guard_step)


def _grab_or(state: dict, then) -> str | None:
    if state["options"]["grab_solo"] and state["solo"] != "open":
        _enter(state, "grab", _others(state, state["emperor"]))
        return "grab"
    return then(state)


def _guard_step(state: dict) -> str:
    # Every seat but the emperor is asked, so the step never shows whether there is a guard.
    _enter(state, "guard", _others(state, state["emperor"]))
    return "guard"


WINDOWS = {"declare": _window_declare, "emperor": _window_emperor, "throne": _window_throne}
"""The declaration windows a preset may name (`presets.Preset.window`): each enters its
first step and returns its name, or None when there is nothing to ask."""


def _enter(state: dict, step: str, seats) -> None:
    state["window"] = {"step": step, "pending": sorted(seats), "answers": {}}


def answers_for(state: dict, seat: int) -> list[str]:
    """Every answer ``seat`` may give in the current step (empty if not asked)."""
    window = state["window"]
    if window is None or seat not in window["pending"]:
        return []
    step = window["step"]
    emperor, guard, solo = state["emperor"], state["guard"], state["solo"]
    if step in ("declare", "emperor") and seat == emperor:
        return ["none", "dark_solo", "open_solo"] if solo == "dark" else ["none"]
    if step in ("declare", "guard"):
        return ["none", "an_bao", "ming_bao"] if seat == guard else ["none"]
    if step == "grab":
        return ["none", "grab_solo"]
    if step == "open":
        return ["none", "an_bao", "ming_bao"] if seat == guard else ["none", "rebel"]
    if step == "kick":
        return ["none", "ti"]
    return ["none", step]  # niu / ti


def check_declare(state: dict, action: dict) -> str:
    seat = action["seat"]
    what = action.get("what")
    if what not in DECLARE_WHATS:
        raise IllegalAction("bad_action",
                            f"declare needs 'what', one of {', '.join(DECLARE_WHATS)}")
    if seat not in state["window"]["pending"]:
        raise IllegalAction("not_your_turn", f"seat {seat} is not asked to declare now")
    if what not in answers_for(state, seat):
        raise IllegalAction("cannot_declare", f"you cannot declare {what} now", {"what": what})
    return what


def do_declare(state: dict, seat: int, what: str, event: dict) -> None:
    """Record one answer; the step resolves when nobody is pending."""
    window = state["window"]
    step = window["step"]
    answers = dict(window["answers"])
    answers[str(seat)] = what
    pending = [other for other in window["pending"] if other != seat]
    state["window"] = {"step": step, "pending": pending, "answers": answers}
    event["step"] = step
    event["what"] = what
    if what not in SILENT:
        state["declared"] = state["declared"] + [{"seat": seat, "what": what}]
        _apply_at_once(state, seat, what, event)
    if pending:
        return
    nxt = RESOLVE[step](state, answers)
    event["step_done"] = {"step": step, "revealed": state["revealed"], "next_step": nxt}
    if nxt is None:
        start_play(state)
        event["next"] = state["turn"]
        event["emperor"] = state["emperor"]


def _apply_at_once(state: dict, seat: int, what: str, event: dict) -> None:
    """明保 and 明独 show themselves the moment they are said."""
    if what == "ming_bao":
        _effect(state, "ming_bao")
        state["revealed"] = True
        event["revealed"] = seat
    elif what == "open_solo":
        state["solo"] = "open"
        state["revealed"] = True
        event["revealed"] = seat
    elif what == "rebel":
        state["hoes"] = state["hoes"] + [seat]


def _effect(state: dict, name: str) -> None:
    if name not in state["declarations"]:
        state["declarations"] = state["declarations"] + [name]


def _said(answers: dict, what: str) -> list[int]:
    return sorted(int(seat) for seat, said in answers.items() if said == what)


def _others(state: dict, *excluded) -> list[int]:
    return [seat for seat in range(5) if seat not in excluded]


def _resolve_declare(state: dict, answers: dict) -> str | None:
    return None  # classic / qingdao: 明保 and 明独 took effect when said


def _resolve_emperor(state: dict, answers: dict) -> str | None:
    return _grab_or(state, _after_solo_choice)


def _after_solo_choice(state: dict) -> str:
    emperor = state["emperor"]
    if state["solo"] in ("open", "seized"):
        _enter(state, "kick", _others(state, emperor))
        return "kick"
    _enter(state, "open", _others(state, emperor))
    return "open"


def _resolve_grab(state: dict, answers: dict) -> str | None:
    grabbers = _said(answers, "grab_solo")
    if grabbers:
        # The grabber nearest the emperor in 上家 direction wins (seed 002).
        seat = prev_seat(state["emperor"])
        while seat not in grabbers:
            seat = prev_seat(seat)
        state.update(emperor=seat, guard=None, solo="seized", revealed=True)
    if "ti" not in preset_of(state).declarations:
        # lianzhong_classic: no 踢 on a grabbed solo; a team or dark solo meets 明保.
        return None if grabbers else _guard_step(state)
    return _after_solo_choice(state)


def _resolve_open(state: dict, answers: dict) -> str | None:
    emperor, guard = state["emperor"], state["guard"]
    rebels = _said(answers, "rebel")
    if len(rebels) >= 2:
        _effect(state, "rebel")  # 造反 succeeds: the guard (or the dark soloist) is shown
        state["revealed"] = True
    if guard is None:
        if len(rebels) >= 2:
            _enter(state, "ti", [emperor])  # 暗独被反: the soloist may 踢
            return "ti"
        return None
    if _said(answers, "ming_bao"):
        state["first_side"] = [emperor, guard]
        _enter(state, "niu", _others(state, emperor, guard))
        return "niu"
    if len(rebels) >= 2:
        state["first_side"] = _others(state, emperor, guard)
        _enter(state, "niu", [emperor, guard])
        return "niu"
    return None


def _resolve_kick(state: dict, answers: dict) -> str | None:
    if len(_said(answers, "ti")) >= 2:
        _effect(state, "ti")  # 明独被踢 needs two seats
    return None


def _resolve_niu(state: dict, answers: dict) -> str | None:
    if not _said(answers, "niu"):
        return None
    _effect(state, "niu")
    _enter(state, "ti", state["first_side"])
    return "ti"


def _resolve_ti(state: dict, answers: dict) -> str | None:
    if _said(answers, "ti"):
        _effect(state, "ti")
    return None


RESOLVE = {"declare": _resolve_declare, "guard": _resolve_declare, "emperor": _resolve_emperor, "grab": _resolve_grab,
           "open": _resolve_open, "kick": _resolve_kick, "niu": _resolve_niu, "ti": _resolve_ti}
