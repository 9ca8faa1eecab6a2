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
- ``preset``: ``"classic" | "lianzhong" | "qingdao"``.
- ``seed``: int or str, as given to `new_hand`.
- ``options``: ``{"hold_sixes": bool, "grab_solo": bool}`` (defaults filled in).
- ``version``: int, 0 after the deal, +1 per accepted action.
- ``phase``: ``"bidding"`` (choosing the emperor) → ``"declaring"`` (the declaration
  window) → ``"playing"`` → ``"ended"``; or ``"void"`` (黄庄 / everyone refused the
  throne: the room redeals with the same dealer; `result` says ``void: True``).

Cards (SECRET per seat: a view shows a seat only its own hand, others only counts)
- ``hands``: five lists of cards, each sorted (``cards.sort_hand``).
- ``dealt``: five ints, the counts dealt before any card changed hands.
- ``tribute_in``: the debts (contract "Debts" dicts) paid at this deal (qingdao; else []).
- ``tribute_paid``: the transfers that paid them, ``[{"from", "to", "cards": [...]}]``.
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
  - lianzhong / qingdao: ``{"bundle": [cards], "declines": int}`` — the cards travelling
    with the throne (``BJ*`` plus one card per later refusal, removed from the decliners'
    hands; public: every card in the bundle is shown face up), and how many refusals so far.
- ``turn``: the seat whose bid or play is awaited; None in ``declaring`` and after the end.

Roles (``guard`` and ``solo == "dark"`` are SECRET until ``revealed``)
- ``emperor``: seat or None (皇帝).
- ``guard``: seat or None (保皇派). None for a solo.
- ``called``: classic: the identity called (``"9S"``, ``"BJ"``); else None.
- ``guard_card``: the card whose play by the unrevealed guard reveals it: classic the
  called identity (suit matters, marks ignored), lianzhong ``"SJ*"``, qingdao ``"4H*"``.
- ``solo``: None | ``"dark"`` (暗独) | ``"open"`` (明独) | ``"seized"`` (classic 抢庄,
  lianzhong 抢独). Until the window closes, a solo emperor counts as ``"dark"``.
- ``revealed``: bool — whether the emperor side's make-up is public (always True for
  open / seized solos; set by 明保, 造反, playing ``guard_card``, or the end of the hand).
- ``declarations``: the declarations that took effect, the names `scoring.score_hand`
  takes: subset of ``"ming_bao"``, ``"rebel"`` (造反 succeeded), ``"niu"``, ``"ti"``.
- ``declared``: public log ``[{"seat", "what"}]`` of every declaration other than the
  silent ones (``none``, ``an_bao``, ``dark_solo`` are never logged).
- ``hoes``: seats that declared 反 (shown with a 锄头), successful or not.

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
- ``places``: five entries, ``places[k]`` is the seat in place k+1 (头科 … 大落) or None.
- ``menzan``: seats that were 闷 (闷三), in order.
- ``played``: five ints, how many sets each seat has played (for 托管 policies / views).

End
- ``result``: None until the hand ends (phase ``ended`` or ``void``), then the dict
  `result()` returns.

Events
------
`apply` returns ``(state, event)``. ``event`` is the full truth (never send it to a
client; ``views.event_view`` redacts it): ``{"version", "seat", "type", ...}`` with the
action's fields plus what followed from it:
- bidding: ``"bundle"`` (cards added), ``"to"`` (next decider), ``"emperor"``,
  ``"guard"`` (SECRET), ``"solo"`` (SECRET when "dark"), ``"forced"`` (逼庄 begins),
  ``"void"``.
- declaring: ``"what"``, ``"step"`` (the step answered), ``"step_done"`` with the
  step's public outcome ``{"declared": [...], "revealed": bool, "next_step": str|None}``.
- playing: ``"cards"``, ``"out"`` (place taken, 1–5) , ``"menzan"`` (seat 闷),
  ``"round_won"`` (seat), ``"next"`` (seat to act), ``"revealed"`` (guard seat when
  this play revealed it), ``"ended"`` (True with ``"places"``).
"""
