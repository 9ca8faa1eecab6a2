"""The search bot (search.py): legal in every phase of every preset, within its budget,
deterministic given (view, seed, iterations), and reachable as the policy ``search``."""

import time

import pytest

from baohuang.engine import (PRESETS, actors, apply, autoplay, check, new_hand, pimc,
                             search_roles, state_from_hands, view)
from baohuang.engine.bidding import identity_counts, legal_bids
from baohuang.engine.fastsim import from_state
from baohuang.engine.policy import baseline
from baohuang.engine.search import decide, search
from baohuang.engine.sets import composition
from baohuang.engine.simulate import hand_seed
from baohuang.engine.strong import strong, strong_from_view


def _play_hand(preset, deal, hero, **search_options):
    """A hand with ``search`` at ``hero`` and strong elsewhere; every action checked."""
    state = new_hand(preset, deal)
    decisions = 0
    while actors(state):
        seat = actors(state)[0]
        if seat == hero:
            action = search(state, seat, **search_options)
            decisions += 1
        else:
            action = strong(state, seat)
        check(state, action)
        state, _event = apply(state, action)
    return state, decisions


@pytest.mark.parametrize("preset", PRESETS)
def test_the_search_bot_plays_whole_hands_legally(preset):
    state, decisions = _play_hand(preset, 11, hero=2, iterations=3, seed=1)
    assert state["phase"] in ("ended", "void") and decisions > 0


def test_the_decision_depends_only_on_view_seed_and_iterations():
    state = new_hand("classic", 5)
    while state["phase"] != "playing" or state["turn"] != 1 or state["top"] is None:
        seat = actors(state)[0]
        state, _event = apply(state, strong(state, seat))
    seen = view(state, 1)
    first = [decide(seen, iterations=6, seed=seed) for seed in range(4)]
    assert first == [decide(seen, iterations=6, seed=seed) for seed in range(4)]


def test_a_forced_choice_is_answered_at_once():
    # Seat 1 cannot beat the pair of 2s: lianzhong has no 让牌, so pass is its one action.
    hands = ["BJ* 2S 2H 7C", "8D 9C", "SJ* TC", "JC QC", "KD KH"]
    state = state_from_hands("lianzhong", hands, emperor=0, guard=2, options={"hold_sixes": False})
    state, _event = apply(state, {"seat": 0, "type": "play", "cards": "2S 2H"})
    started = time.perf_counter()
    assert search(state, 1, budget=5.0) == {"seat": 1, "type": "pass"}
    assert time.perf_counter() - started < 0.5


def test_the_budget_bounds_the_time_of_a_decision():
    state = new_hand("qingdao", 3)
    while state["phase"] != "playing":
        seat = actors(state)[0]
        state, _event = apply(state, strong(state, seat))
    started = time.perf_counter()
    action = search(state, state["turn"], budget=0.3)
    assert time.perf_counter() - started < 0.6
    check(state, action)


def test_the_policy_is_registered_as_search():
    hands = ["BJ* 2S 2H 7C", "8D 9C", "SJ* TC", "JC QC", "KD KH"]
    state = state_from_hands("lianzhong", hands, emperor=0, guard=2, options={"hold_sixes": False})
    state, _event = apply(state, {"seat": 0, "type": "play", "cards": "2S 2H"})
    assert autoplay(state, 1, "search") == {"seat": 1, "type": "pass"}


def _guard_asked(hands):
    """lianzhong: seat 0 takes the throne, says nothing; the window asks the guard, seat 1."""
    state = state_from_hands("lianzhong", hands, options={"hold_sixes": False})
    state, _event = apply(state, {"seat": 0, "type": "accept"})
    state, _event = apply(state, {"seat": 0, "type": "declare", "what": "none"})
    assert "ming_bao" in view(state, 1)["choices"]["declare"]
    return state


def test_a_guard_sure_to_win_declares_ming_bao_and_a_losing_one_stays_silent():
    winning = _guard_asked(["BJ* BJ 2S 2H AS", "SJ* BJ BJ 2C 2D", "7S 8S 9S TS JS",
                            "7H 8H 9H TH JH", "7C 8C 9C TC JD"])
    assert search(winning, 1, iterations=8, seed=0)["what"] == "ming_bao"
    # The emperor and the guard hold nine cards each, the rebels one: the side will lose,
    # and 明保 would double the loss.
    losing = _guard_asked(["BJ* 7S 8S 9S TS JS QS 7C 8C", "SJ* 7D 8D 9D TD JD QD 7H 8H",
                           "2S", "AS", "KS"])
    assert search(losing, 1, iterations=8, seed=0)["what"] in ("none", "an_bao")


def test_offered_the_throne_a_strong_hand_accepts_and_a_weak_guard_card_holder_declines():
    others = ["7S 8S 9S TS JS", "7H 8H 9H TH JH", "7C 8C 9C TC JD", "7D 8D 9D TD QD"]
    strong_hand = state_from_hands("lianzhong", ["BJ* BJ BJ 2S 2H"] + others,
                                   options={"hold_sixes": False})
    assert search(strong_hand, 0, iterations=8, seed=0)["type"] == "accept"
    # Seven cards with SJ* against four single cards: accepting would be a 暗独 sure to go
    # out after some of them (-12 from third place on); declining makes it its 上家's guard.
    weak = state_from_hands("lianzhong", ["BJ* SJ* 7S 8D 9S TH JC", "7H", "8H", "9H", "TC"],
                            options={"hold_sixes": False})
    assert search(weak, 0, iterations=12, seed=0)["type"] == "decline"


@pytest.mark.parametrize("preset", PRESETS)
def test_the_strong_move_read_from_the_view_is_the_strong_policys(preset):
    # The search's default move: strong's answer, from the seat's view alone.
    state = new_hand(preset, 4, options={"card_counter": True})
    checked = 0
    while actors(state):
        seat = actors(state)[0]
        action = strong(state, seat)
        if state["phase"] == "playing":
            assert strong_from_view(view(state, seat)) == action
            checked += 1
        state, _event = apply(state, action)
    assert checked > 20


def test_with_no_world_sampled_the_search_plays_the_strong_move():
    state = new_hand("qingdao", 8)
    moves = 0
    while actors(state):
        seat = actors(state)[0]
        action = strong(state, seat)
        if state["phase"] == "playing" and seat == 3:
            chosen = decide(view(state, seat), iterations=0, seed=1)
            assert _move(chosen, state) == _move(action, state)
            moves += 1
        state, _event = apply(state, action)
    assert moves > 5


def _move(action, state):
    if action["type"] != "play":
        return action["type"]
    return composition(action["cards"].split(), state["preset"])


def _bidding_positions(preset, count, label):
    """Bidding positions of ``preset``: a fresh deal after 0–6 refusals (让庄 / 让位; in
    classic five refusals bring 逼庄)."""
    for number in range(count):
        state = new_hand(preset, hand_seed(label, number))
        for _ in range(number % 7):
            if state["phase"] != "bidding" or "decline" not in view(state, state["turn"])["may"]:
                break
            state, _event = apply(state, {"seat": state["turn"], "type": "decline"})
        if state["phase"] == "bidding":
            yield state


@pytest.mark.parametrize("preset", ["classic", "lianzhong_classic"])
def test_with_no_world_sampled_the_search_bids_as_the_strong_policy(preset):
    # The default bid is strong's (= the baseline's); lianzhong_classic's accept (明独保)
    # without a call is not it.
    bids = 0
    for state in _bidding_positions(preset, 30, "strong-bid"):
        seat = state["turn"]
        assert decide(view(state, seat), iterations=0, seed=1) == strong(state, seat)
        bids += 1
    assert bids > 20


def _played_out_by_the_engine(state, option):
    """The engine's hand once ``option`` is bid and every later bid and answer is the
    baseline's, at the first lead (None if void)."""
    state, _event = apply(state, option)
    while state["phase"] in ("bidding", "declaring"):
        seat = actors(state)[0]
        state, _event = apply(state, baseline(state, seat))
    return state if state["phase"] == "playing" else None


@pytest.mark.parametrize("preset", ["classic", "lianzhong_classic"])
def test_the_bid_worlds_settle_the_bidding_as_the_engine_does(preset):
    # Dealt the true hands, each bid's world is the engine's hand after that bid and the
    # baseline's bids: the same hands by tier, emperor, guard (the called card's other
    # copy), solo, and whether the guard is known.
    compared = calls = declines = 0
    for state in _bidding_positions(preset, 24, "bid-worlds"):
        seat, seen = state["turn"], view(state, state["turn"])
        hands = [identity_counts(hand) for hand in state["hands"]]
        for option in legal_bids(state, seat):
            world = search_roles._settle(preset, hands, seen["bidding"], seat, option,
                                         state["six_bound"], 0)
            engine = _played_out_by_the_engine(state, option)
            if engine is None:
                assert world is None
                continue
            expected = from_state(engine)
            assert (world.hands, world.turn, world.emperor, world.guard, world.solo,
                    world.revealed, world.marker, world.bound) == (
                expected.hands, expected.turn, expected.emperor, expected.guard,
                expected.solo, expected.revealed, expected.marker, expected.bound)
            compared += 1
            calls += option["type"] == "call"
            declines += option["type"] == "decline"
    assert compared > 30 and calls > 5 and declines > 10


def _counted_worlds(state, options):
    """A ``worlds`` for `pimc.compare`: the same position each sample, one entry per option
    (a `Sim`, or None for an option worth 0); counts the samples drawn."""
    drawn = []

    def worlds():
        drawn.append(1)
        return [from_state(state) if option else None for option in options]
    return worlds, drawn


def test_a_timed_search_stops_early_when_the_choice_is_plain_and_a_counted_one_does_not():
    # The emperor and the guard hold every big card: seat 0 scores +6 in every rollout,
    # so the other option (worth 0) is plainly worse, and equal copies gain exactly 0.
    hands = ["BJ* BJ 2S 2H AS", "SJ* BJ BJ 2C 2D", "7S 8S 9S TS JS", "7H 8H 9H TH JH",
             "7C 8C 9C TC JD"]
    state = state_from_hands("lianzhong", hands, emperor=0, guard=1, options={"hold_sixes": False})
    far = time.perf_counter() + 600
    for options in ([True, False], [True, True]):
        worlds, drawn = _counted_worlds(state, options)
        assert pimc.compare(worlds, 0, deadline=far, iterations=None) == 0
        assert len(drawn) == pimc.SETTLED_AFTER
        worlds, drawn = _counted_worlds(state, options)
        assert pimc.compare(worlds, 0, deadline=far, iterations=40) == 0
        assert len(drawn) == 40
    # Where the other option is plainly better, the timed search is not cut short.
    worlds, drawn = _counted_worlds(state, [False, True])
    assert pimc.compare(worlds, 0, deadline=time.perf_counter() + 0.3, iterations=None) == 1
    assert len(drawn) > pimc.SETTLED_AFTER
