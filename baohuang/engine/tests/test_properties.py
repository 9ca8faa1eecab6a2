"""Property tests: seeded random playouts of whole hands, checked after every action.

Each preset plays tables of hands with the simulator's automatic players (`simulate.choose`,
varied per hand) — qingdao tribute carrying from hand to hand, lianzhong options varied —
and checks after every action:
- cards are conserved (hands + played + discarded + the bidding bundle = the deck);
- the applied action was in ``legal_actions`` (plays compared by composition: the players
  sometimes play other copies than the listed ones), and random proposals pass ``check``
  exactly when they are listed;
- ``apply`` bumps the version by one and leaves its input untouched;
- views and event views hold no card a viewer may not see, and no unrevealed guard or
  暗独 for anyone but itself;
- the JSON round trip is exact;
and at the end of each hand: places are a permutation, classic / lianzhong scores sum to
zero, and ``replay(seed, actions)`` rebuilds the final state exactly.

Views, JSON and the input check run on every ``FULL_EVERY``-th hand to keep the suite fast.

A separate fast sweep (``test_thousands_of_hands_keep_the_cheap_invariants``) plays hundreds
of hands per preset by default (thousands with ``BAOHUANG_PROPERTY_SCALE``), mixing in the
托管 policies' choices, and checks only the cheap invariants.
"""

import functools
import os
import random
from collections import Counter

import pytest

from baohuang.engine import (IllegalAction, actors, apply, autoplay, check, event_view,
                             from_json, legal_actions, new_hand, replay, to_json, view)
from baohuang.engine.cards import ALL_CARDS, build_deck, identity, parse_cards
from baohuang.engine.presets import PRESET, PRESETS
from baohuang.engine.sets import composition
from baohuang.engine.simulate import Mood, choose

TABLES = 4  # tables per preset, each a pytest case (xdist can spread them)
# The suite's default keeps the whole engine suite well under two minutes; a long run
# multiplies the hands: BAOHUANG_PROPERTY_SCALE=10 pytest baohuang/engine/tests/test_properties.py
SCALE = float(os.environ.get("BAOHUANG_PROPERTY_SCALE", "1"))
HANDS_PER_TABLE = {preset: max(8, round(hands * SCALE)) for preset, hands in
                   {"classic": 30, "lianzhong": 40, "qingdao": 30,
                    "lianzhong_classic": 40}.items()}
FULL_EVERY = 5
VIEWERS = (None, 0, 1, 2, 3, 4)


# --- one hand ---------------------------------------------------------------------------


def play_checked(preset, seed, *, options, tribute, full):
    rng = random.Random(f"{seed}:players")
    mood = Mood.draw(rng)
    deck = Counter(build_deck(preset))
    state = new_hand(preset, seed, options=options, tribute=tribute)
    played = Counter()
    actions = []
    assert_conserved(state, played, deck)
    if full:
        assert_views_hide_secrets(state)
    while actors(state):
        enumerated = {}

        def legal_recorded(state, seat):
            enumerated[seat] = legal_actions(state, seat)
            return enumerated[seat]

        action = vary_copies(state, choose(state, rng, mood, legal=legal_recorded), rng)
        seat = action["seat"]
        legal = enumerated[seat] if seat in enumerated else legal_actions(state, seat)
        assert listed(action, legal, state), (action, legal)
        if rng.random() < 0.15:
            probe(state, rng)
        before = to_json(state) if full else None
        new, event = apply(state, action)
        assert new["version"] == state["version"] + 1 == event["version"]
        if full:
            assert to_json(state) == before, "apply mutated its input"
            assert from_json(to_json(new)) == new
            assert_views_hide_secrets(new)
            assert_event_views_hide_secrets(new, event)
        played.update(event.get("cards", ()))
        if full:
            assert_conserved(new, played, deck)
        actions.append(action)
        state = new
    assert_conserved(state, played, deck)
    assert_finished(state)
    assert replay(preset, seed, actions, options=options, tribute=tribute) == state
    return state


def vary_copies(state, action, rng):
    """Sometimes play other copies of the same composition than the listed ones (e.g. a
    marked card or the called suit), which ``check`` must accept just the same."""
    if action["type"] != "play" or rng.random() < 0.7:
        return action
    cards = parse_cards(action["cards"])
    hand = list(state["hands"][action["seat"]])
    rng.shuffle(hand)
    preset = state["preset"]
    key = lambda card: card_tier(card, preset)  # noqa: E731
    wanted = Counter(key(card) for card in cards)
    chosen = []
    for card in hand:
        if wanted[key(card)]:
            wanted[key(card)] -= 1
            chosen.append(card)
    return {**action, "cards": " ".join(chosen)}


@functools.lru_cache(maxsize=None)
def card_tier(card, preset):
    """A single card's tier (its composition as a one-card set), cached for the sweeps."""
    return composition([card], preset)[0]


def listed(action, legal, state) -> bool:
    """Is ``action`` among ``legal`` (plays: cards from the hand of a listed composition;
    calls by identity)?"""
    preset = state["preset"]
    for option in legal:
        if option["type"] != action["type"]:
            continue
        kind = option["type"]
        if kind == "play":
            cards = parse_cards(action["cards"])
            if Counter(cards) - Counter(state["hands"][action["seat"]]):
                return False  # not in the hand
            try:
                if (composition(cards, preset)
                        == composition(parse_cards(option["cards"]), preset)):
                    return True
            except IllegalAction:
                return False
        elif kind == "call":
            if identity(str(action.get("card", "")).upper()) == option["card"]:
                return True
        elif kind == "declare":
            if action.get("what") == option["what"]:
                return True
        else:
            return True
    return False


def probe(state, rng):
    """A random proposal from a random seat passes ``check`` iff it is listed."""
    seat = rng.randrange(5)
    hand = state["hands"][seat]
    kind = rng.choice(("play", "play", "play", "pass", "yield", "call", "decline", "accept",
                       "seize", "declare"))
    action = {"seat": seat, "type": kind}
    if kind == "play":
        size = len(state["top"]["cards"]) if state["top"] and rng.random() < 0.8 else \
            rng.randint(1, 4)
        pool = list(hand) + (["9S", "BJ", "3H"] if rng.random() < 0.1 else [])
        if not pool:
            return
        action["cards"] = " ".join(rng.sample(pool, min(size, len(pool))))
    elif kind == "call":
        action["card"] = identity(rng.choice(hand)) if hand else "9S"
    elif kind == "declare":
        action["what"] = rng.choice(("none", "ming_bao", "an_bao", "dark_solo", "open_solo",
                                     "rebel", "niu", "ti", "grab_solo"))
    try:
        check(state, action)
        accepted = True
    except IllegalAction:
        accepted = False
    assert accepted == listed(action, legal_actions(state, seat), state), action


# --- invariants ---------------------------------------------------------------------------


def assert_conserved(state, played, deck):
    held = Counter()
    for hand in state["hands"]:
        held.update(hand)
    held.update(played)
    held.update(state["discarded"])
    if state["phase"] in ("bidding", "void") and "bundle" in (state["bidding"] or {}):
        # The face-up bundle of 让皇 travels outside any hand until someone accepts.
        held.update(state["bidding"]["bundle"])
    assert held == deck


def assert_finished(state):
    if state["phase"] == "void":
        assert state["result"]["void"]
        return
    assert state["phase"] == "ended"
    result = state["result"]
    assert sorted(result["places"]) == [0, 1, 2, 3, 4]
    if state["preset"] != "qingdao":
        assert sum(result["scores"]) == 0


def secret_knowers(state):
    """Who may know the guard / 暗独 now: everybody once revealed, else the seat itself."""
    if state["revealed"] or state["phase"] in ("ended", "void"):
        return set(VIEWERS)
    return {state["guard"], state["emperor"] if state["solo"] == "dark" else None} - {None}


def assert_views_hide_secrets(state):
    knowers = secret_knowers(state)
    for viewer in VIEWERS:
        seen = view(state, viewer)
        assert seen["version"] == state["version"]
        if viewer is not None:
            assert seen["hand"] == state["hands"][viewer]
        for path, card in card_strings(seen):
            assert card_may_be_seen(state, seen, viewer, path, card), (viewer, path, card)
        roles = seen["roles"]
        if viewer not in knowers:
            assert roles["guard"] is None and not roles["revealed"]
            if state["solo"] == "dark":
                assert roles["solo"] is None
            assert "an_bao" not in str(seen) and "dark_solo" not in str(seen)


def card_may_be_seen(state, seen, viewer, path, card) -> bool:
    """The only places a card may show up in a view, each holding only what is public
    (or the viewer's own)."""
    head = path[0]
    if head == "hand":
        return True  # checked equal to the viewer's own hand
    if head == "hints":  # 提示: plays from the viewer's own hand, only when it is to play
        return viewer == state["turn"] and card in state["hands"][viewer]
    if head == "choices":
        return path[1] == "call" and any(identity(mine) == card
                                         for mine in state["hands"][viewer])
    if head == "roles":
        return path[1] in ("called", "guard_card") and seen["roles"][path[1]] == card
    if path[:3] == ("table", "top", "cards"):
        return card in state["top"]["cards"]
    if path[:2] == ("table", "last"):
        return any(card in entry.get("cards", ()) for entry in state["round"]
                   if entry["seat"] == path[2])
    if path[:2] == ("bidding", "bundle"):
        return card in state["bidding"]["bundle"]
    if path[:2] == ("deal", "tribute_paid"):
        entry = state["tribute_paid"][path[2]]
        return viewer in (entry["from"], entry["to"]) and entry["card"] == card
    if path[:2] == ("deal", "threes"):
        entry = state["threes"][path[2]]
        return viewer in (entry["buyer"], entry["seller"]) and entry["paid"] == card
    if path[:2] == ("log", "round"):  # the round log: public plays of this round
        return card in state["round"][path[2]]["cards"]
    if path[:2] == ("log", "previous"):  # 上一轮: public plays of the last round won
        return card in state["previous_round"]["entries"][path[3]]["cards"]
    if head == "showdown":  # 摊牌: everything is shown once the hand has ended
        return state["phase"] == "ended" and card in state["hands"][path[1]]
    if head == "result":
        return path[1] == "called"
    return False


def assert_event_views_hide_secrets(state, event):
    knowers = secret_knowers(state)
    for viewer in VIEWERS:
        seen = event_view(event, viewer)
        if seen is None:
            continue
        for path, card in card_strings(seen):
            # Played sets, the face-up bundle, and the identity called are public; the
            # cards still held are shown (摊牌) by the event that ends the hand.
            assert path[0] in ("cards", "bundle", "taken", "card") or path[:2] == (
                "result", "called") or (path[0] == "showdown" and event.get("ended")), (viewer, path)
        if "guard" in seen:
            assert viewer in knowers or viewer == event.get("guard")
        if seen.get("solo") == "dark":
            assert viewer in knowers
        if event["type"] == "declare" and event.get("what") in ("none", "an_bao", "dark_solo"):
            assert "what" not in seen or viewer == event["seat"]


def card_strings(value, path=()):
    """Every card-notation string inside a payload, with its path (the viewer's own
    ``hand`` is skipped: it is checked equal to the seat's hand)."""
    found = []
    _collect(value, path, found)
    return found


def _collect(value, path, found):
    if type(value) is dict:
        items = value.items()
    else:  # a list
        items = enumerate(value)
    for key, item in items:
        kind = type(item)
        if kind is str:
            if item in ALL_CARDS:
                found.append((path + (key,), item))
        elif kind is dict or kind is list:
            if key != "hand" or path:
                _collect(item, path + (key,), found)


def crown_is_left_over(seed) -> bool:
    """Whether the classic deal of ``seed`` leaves ``BJ*`` as the 216th card (state.py
    deals by ``random.Random(f"{seed}:deal").shuffle``, 43 each, the rest left over)."""
    deck = build_deck("classic")
    random.Random(f"{seed}:deal").shuffle(deck)
    return deck[-1] == "BJ*"


def test_a_classic_deal_that_leaves_over_the_crown_still_deals_it():
    # [decision] in state.new_hand: the leftover BJ* goes to seat 0 (1 deal in 216).
    assert crown_is_left_over(607)
    state = new_hand("classic", 607)
    assert sum(hand.count("BJ*") for hand in state["hands"]) == 1
    assert sorted(len(hand) for hand in state["hands"]) == [43, 43, 43, 43, 44]


# --- the tables ---------------------------------------------------------------------------


def table_options(preset, rng):
    if not PRESET[preset].sixes_option:  # the lianzhong family's room options, varied
        return None
    return {"hold_sixes": rng.random() < 0.7, "grab_solo": rng.random() < 0.3}


@pytest.mark.parametrize("table", range(TABLES))
@pytest.mark.parametrize("preset", PRESETS)
def test_random_playouts_keep_every_invariant(preset, table):
    rng = random.Random(f"properties:{preset}:{table}")
    debts = []
    seen = Counter()
    for hand in range(HANDS_PER_TABLE[preset]):
        seed = rng.getrandbits(32)
        state = play_checked(preset, seed, options=table_options(preset, rng), tribute=debts,
                             full=hand % FULL_EVERY == 0)
        if state["phase"] != "void":
            debts = state["result"]["tribute"]
            seen[state["solo"]] += 1
        seen[state["phase"]] += 1
    # The playouts reach the interesting corners, or the checks above prove little.
    assert seen["ended"] > HANDS_PER_TABLE[preset] // 2 and seen[None]


# --- the fast sweep -----------------------------------------------------------------------
# Thousands of hands per preset, with only the cheap invariants: every action listed by
# ``legal_actions`` (enumerated for every action) and the version bump after every action;
# per hand card conservation (at the deal and at the end), the places, the zero sum, the JSON round trip and the
# replay. Most choices are the simulator's; some are the 托管 policies' (``autoplay``
# baseline / strong) so that the hands also take the lines the server plays for a seat.

# The issue asks for 2,000 hands per preset; with ``legal_actions`` enumerated for every
# action (~400 a hand) a hand costs 30-50 ms of CPU, so the default is what fits in about
# 25 s per preset on a 2-core machine. BAOHUANG_PROPERTY_SCALE=4.5 plays 2,000+ per preset.
SWEEP_HANDS = {preset: max(20, round(hands * SCALE)) for preset, hands in
               {"classic": 450, "lianzhong": 650, "qingdao": 520,
                "lianzhong_classic": 650}.items()}
SWEEP_POLICY_SHARE = {"baseline": 0.15, "strong": 0.05}  # of the actions; the rest `choose`


def sweep_choice(state, rng, mood):
    """One action for the sweep, and the ``legal_actions`` list of its seat."""
    enumerated = {}

    def legal_recorded(state, seat):
        enumerated[seat] = legal_actions(state, seat)
        return enumerated[seat]

    roll = rng.random()
    for policy, share in SWEEP_POLICY_SHARE.items():
        if roll < share:
            seat = rng.choice(actors(state))
            return autoplay(state, seat, policy), legal_recorded(state, seat)
        roll -= share
    action = vary_copies(state, choose(state, rng, mood, legal=legal_recorded), rng)
    seat = action["seat"]
    return action, enumerated[seat] if seat in enumerated else legal_actions(state, seat)


def play_swept(preset, seed, *, options, tribute):
    rng = random.Random(f"{seed}:sweep")
    mood = Mood.draw(rng)
    deck = Counter(build_deck(preset))
    state = new_hand(preset, seed, options=options, tribute=tribute)
    played = Counter()
    actions = []
    assert_conserved(state, played, deck)
    while actors(state):
        action, legal = sweep_choice(state, rng, mood)
        assert listed(action, legal, state), (seed, action, legal)
        new, event = apply(state, action)
        assert new["version"] == state["version"] + 1 == event["version"], (seed, action)
        played.update(event.get("cards", ()))
        actions.append(action)
        state = new
    assert_conserved(state, played, deck)
    assert_finished(state)
    assert from_json(to_json(state)) == state, seed
    assert replay(preset, seed, actions, options=options, tribute=tribute) == state, seed
    return state


@pytest.mark.parametrize("preset", PRESETS)
def test_thousands_of_hands_keep_the_cheap_invariants(preset):
    rng = random.Random(f"sweep:{preset}")
    debts = []
    seen = Counter()
    for _ in range(SWEEP_HANDS[preset]):
        seed = rng.getrandbits(32)
        state = play_swept(preset, seed, options=table_options(preset, rng), tribute=debts)
        if state["phase"] != "void":
            debts = state["result"]["tribute"]
        seen[state["phase"]] += 1
    assert seen["ended"] + seen["void"] == SWEEP_HANDS[preset]
    assert seen["ended"] > SWEEP_HANDS[preset] * 0.6, seen  # void deals count, but are the minority
