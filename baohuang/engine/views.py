"""What a seat or a spectator may see — RULES §8 "Hidden information" (隐藏信息).

This is the only place that turns engine state or events into a client payload:
`view(state, seat)` for a whole picture, `event_view(event, seat)` for one step.
``seat=None`` is a spectator (旁观), who sees only public information.

What is public: every seat's card count, the table (top set, what each seat did last this
round), whose turn it is and the phase, the bidding (classic, lianzhong_classic: who holds
``BJ*``, who refused and whether a call is forced, with ``throne`` for lianzhong_classic's
让位; lianzhong / qingdao: the face-up bundle), the emperor, the called
card (classic, lianzhong_classic), public declarations and 锄头 marks, places, 闷三,
qingdao's debts and who sold a 3, and the result once the hand is over.

What is secret: the cards in a hand (only its owner sees them); who the guard is under
暗保 and that an emperor is alone under 暗独 (only that seat knows) until ``revealed`` —
by 明保 / 明独 / 造反, by the guard card being played, or at the end of the hand; what a
seat answered silently in the declaration window (``none`` / ``an_bao`` / ``dark_solo``,
which would name the guard or the soloist); which card a tribute or a 3 was paid with
(only payer and receiver know — the payer of a 保子 thereby knows this hand's guard, as
the rules have it: RULES §7); whether a seat is bound by 憋6 (it tells that the seat
holds a 6); the seed and salt of the deal until the hand is over (`fairness`).

Once a hand has ended everything is shown (摊牌): every seat's remaining cards
(``showdown``, also after an early end, RULES §4) and the roles.

Views are built from scratch on every call and share no lists with the state, so a
caller may mutate them freely. They are kept small: they go over a websocket on every
action (no legal-set lists, only which action types a seat may take, and for the seat to
play a few ``hints``).

Public keys built for the issue "what happened": ``log`` (the current round's plays,
passes and yields in order, and ``previous``, the last round won — 上一轮), ``fair`` (the
deal's commitment; seed and salt once over) and, once ended, ``showdown``.

Keys of a seat's view beyond the public ones: ``hand``, ``six_bound``, ``counter`` (记牌器,
`counter.unseen`, when the room option ``card_counter`` is on), ``may`` (action
types), ``choices`` (options of ``call`` / ``declare``), ``hints`` — for the seat to
play in the playing phase, 提示: legal plays as card lists, one per base rank, in the
order a player presses 提示 for them (`policy.hints`: no joker, no 2, no broken group
first; jokers last); empty for everyone else — and ``cannot_beat`` (要不起): true when
the seat is to follow and nothing it holds beats the top set (it may only pass or
yield). A spectator's view has none of these.
"""

from __future__ import annotations

import marshal

from .bidding import SILENT, answers_for, legal_bids, public_bidding
from .counter import unseen
from .fairness import disclosure
from .policy import hints
from .presets import preset_of
from .state import actors

SEATS = range(5)


def view(state: dict, seat: int | None = None) -> dict:
    """What ``seat`` (0–4) or a spectator (``None``) may see of ``state`` now: the
    `public_view`, the same for every viewer, and the viewer's own `seat_view`."""
    return public_view(state) | seat_view(state, seat)


def public_view(state: dict) -> dict:
    """The part of `view` that every viewer, seat or spectator, is shown alike. Built once
    for all the recipients of a move (`rooms.event_frames`); no key of it is in a
    `seat_view`."""
    phase = state["phase"]
    payload = {
        "version": state["version"],
        "preset": state["preset"],
        "options": dict(state["options"]),
        "phase": phase,
        "counts": [len(hand) for hand in state["hands"]],
        "turn": state["turn"],
        "actors": actors(state),
        "declared": [dict(entry) for entry in state["declared"]],
        "declarations": list(state["declarations"]),
        "hoes": list(state["hoes"]),
        "places": list(state["places"]),
        "menzan": list(state["menzan"]),
        "log": _log(state),
    }
    fair = disclosure(state)
    if fair is not None:
        payload["fair"] = fair
    if phase == "bidding":
        payload["bidding"] = public_bidding(state)
    elif phase == "declaring":
        payload["window"] = _window(state)
    elif phase == "playing":
        payload["table"] = _table(state)
    if state["result"] is not None:
        payload["result"] = _copy(state["result"])
    if phase == "ended":
        payload["showdown"] = [list(hand) for hand in state["hands"]]  # 摊牌
    return payload


def seat_view(state: dict, seat: int | None = None) -> dict:
    """The part of `view` that depends on who looks: the viewer's seat and what the roles
    show it; a seat's own hand, 记牌器, hints and choices; qingdao's deal (a tribute's card
    is shown to its payer and receiver only)."""
    _check_viewer(seat)
    phase = state["phase"]
    payload = {"seat": seat, "roles": _roles(state, seat)}
    if seat is not None:
        payload["hand"] = list(state["hands"][seat])
        payload["six_bound"] = state["six_bound"][seat]
        if state["options"].get("card_counter", True):
            payload["counter"] = unseen(state, seat)
        payload["hints"] = hints(state, seat)
        payload["may"], payload["choices"] = _choices(state, seat, payload["hints"])
        # 要不起: the seat is to follow and no legal set of its beats the top set.
        payload["cannot_beat"] = (phase == "playing" and seat == state["turn"] and state["top"] is not None
                                  and not payload["hints"])
    if preset_of(state).tribute:
        payload["deal"] = _qingdao_deal(state, seat)
    return payload


def _log(state: dict) -> dict:
    """The round log: this round's public entries in order, and the last round won."""
    return {"round": _copy(state["round"]), "previous": _copy(state.get("previous_round"))}


def _check_viewer(seat) -> None:
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)
                             or seat not in SEATS):
        raise ValueError(f"a viewer is a seat 0-4 or None (spectator), got {seat!r}")


def _roles(state: dict, seat: int | None) -> dict:
    """The emperor is public at once; the guard and a 暗独 only to themselves until shown."""
    known = state["revealed"] or state["phase"] == "ended"
    guard = state["guard"]
    solo = state["solo"]
    if not known:
        if seat is None or seat != guard:
            guard = None
        if solo == "dark" and (seat is None or seat != state["emperor"]):
            solo = None  # to everyone else a 暗独 looks like any 暗保 hand
    return {"emperor": state["emperor"], "called": state["called"],
            "guard_card": state["guard_card"], "guard": guard, "solo": solo,
            "revealed": known, "first_side": _copy(state["first_side"])}


def _choices(state: dict, seat: int, hints: list) -> tuple[list[str], dict]:
    """The action types ``seat`` may take now, and the options of those that have some.

    Bidding: ``call`` lists the identities the seat may call (classic); declaring:
    ``declare`` lists the seat's answers (a guard sees its own 明保 option — only in its
    own view). Playing lists types only; the sets to suggest are the view's ``hints``.
    """
    phase = state["phase"]
    if phase == "bidding":
        return _bid_choices(state, seat)
    if phase == "declaring":
        answers = answers_for(state, seat)
        return (["declare"], {"declare": answers}) if answers else ([], {})
    if phase != "playing" or seat != state["turn"]:
        return [], {}
    top = state["top"]
    if top is None:
        return ["play"], {}  # a leader always holds some legal set
    types = ["play"] if hints else []  # one hint per rank with a legal play
    types.append("pass")
    if preset_of(state).yield_allowed and seat not in state["yielded"]:
        types.append("yield")
    return types, {}


def _bid_choices(state: dict, seat: int) -> tuple[list[str], dict]:
    """The bid types ``seat`` may take, in the procedure's order; ``call`` lists the
    identities it may call."""
    types, options = [], {}
    for action in legal_bids(state, seat):
        if action["type"] not in types:
            types.append(action["type"])
        if action["type"] == "call":
            options.setdefault("call", []).append(action["card"])
    return types, options


def _window(state: dict) -> dict:
    """Who is asked and who has answered — never what a silent answer was."""
    window = state["window"]
    return {"step": window["step"], "pending": list(window["pending"]),
            "answered": sorted(int(seat) for seat in window["answers"])}


def _table(state: dict) -> dict:
    """The current round: the set to beat and what each seat did last in this round."""
    last = [None] * 5
    for entry in state["round"]:
        last[entry["seat"]] = ({"type": "play", "cards": list(entry["cards"])}
                               if entry["type"] == "play" else {"type": entry["type"]})
    top = state["top"]
    return {"top": None if top is None else {"seat": top["seat"], "cards": list(top["cards"])},
            "leader": state["leader"], "last": last, "passed": list(state["passed"]),
            "yielded": list(state["yielded"]), "played": list(state["played"])}


def _qingdao_deal(state: dict, seat: int | None) -> dict:
    """Tribute paid at the deal and 买3: who gave to whom is public, the card is not."""
    def transfer(entry, giver, taker, card):
        # giver pays ``card`` to taker; only the two of them see which card it was.
        shown = {giver: entry[giver], taker: entry[taker]}
        if seat is not None and seat in (entry[giver], entry[taker]):
            shown[card] = entry[card]
        return shown

    return {"tribute_in": _copy(state["tribute_in"]),
            "tribute_paid": [transfer(entry, "from", "to", "card")
                             for entry in state["tribute_paid"]],
            "threes": [transfer(entry, "buyer", "seller", "paid") for entry in state["threes"]],
            "sold_three": list(state["sold_three"])}


def _copy(value):
    """A deep copy of plain JSON data (lists and dicts), so views share nothing. Through
    `marshal` (C, the values are plain JSON types): several times faster than walking
    the data in Python, and a view is built for every recipient of every move."""
    return marshal.loads(marshal.dumps(value))


# --- events ---------------------------------------------------------------------------

# Event keys anyone may see. Anything not listed (and not handled below) is dropped, so a
# new secret key added to events stays hidden until someone decides it is public.
PUBLIC_EVENT_KEYS = frozenset({
    "version", "seat", "type",
    # bidding
    "card", "bundle", "taken", "to", "emperor", "forced", "void", "step_next",
    # declaring
    "step", "step_done", "revealed",
    # playing
    "cards", "out", "menzan", "menzan_place", "round_won", "next", "ended", "places",
    "result", "showdown",
})
KNOWN_EVENT_TYPES = frozenset({"call", "decline", "accept", "seize", "declare", "play", "pass",
                               "yield"})


def event_view(event: dict, seat: int | None = None) -> dict | None:
    """What ``seat`` (or a spectator) may see of ``event``; None = a bare version bump.

    Secret parts: the guard named when the emperor is chosen (shown to the guard only),
    a 暗独 (shown to the emperor only), a silent declaration answer (shown to the seat that
    gave it). Everything else an event carries follows from public moves.
    """
    _check_viewer(seat)
    if event.get("type") not in KNOWN_EVENT_TYPES:
        return None
    shown = {key: _copy(item) for key, item in event.items() if key in PUBLIC_EVENT_KEYS}
    if "guard" in event and event["guard"] is not None and seat == event["guard"]:
        shown["guard"] = event["guard"]
    if "solo" in event:
        solo = event["solo"]
        # Everyone else sees None, exactly as for a two-person side: no key may differ.
        hidden = solo == "dark" and seat != event.get("emperor", event["seat"])
        shown["solo"] = None if hidden else solo
    if "what" in event:
        if event["what"] not in SILENT or seat == event["seat"]:
            shown["what"] = event["what"]
    return shown
