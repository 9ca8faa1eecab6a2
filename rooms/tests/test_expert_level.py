"""The 高手 (expert) level: the search decides in the task that runs the move, within
`BOT_SEARCH_SECONDS`, with no lock held, and a move the hand left behind meanwhile is
never stored (issue 18). A bot at that level, and a 托管 seat of a room at that level.

The deal is a short position written in RULES §1 notation, put in place of the random
deal right after the deal (test-only): seat 0 leads with several choices.
"""

import threading
import time

import pytest
from django.db import transaction

from baohuang import engine
from rooms import levels
from rooms.models import Hand, HandEvent, Room, Seat
from rooms.services import hand_act, hand_act_for, hand_start, player_guest, room_create, seat_take, trustee_set
from rooms.services.bots import seat_add_bot
from rooms.services.timers import seat_move
from rooms.tests.play import deal_instead

BUDGET = 0.3
# lianzhong, emperor 0 and guard 2 (SJ*): seat 0 leads, and may lead a pair or a single.
POSITION = ["BJ* KS KH 7S 9D", "6C 8H", "SJ* KC", "7C TC", "TS JD"]
# Seat 0 goes out at once with all three cards, and its guard (1) holds every big card:
# the search sees that no other lead comes near after `pimc.SETTLED_AFTER` worlds, a
# fraction of a second, and stops (lianzhong, emperor 0, guard 1).
PLAIN = ["BJ* 7S 7H", "SJ* BJ BJ 2C 2D", "8S 9S TS JS QS", "8H 9H TH JH QH", "8C 9C TC JD QD"]
PLAIN_BUDGET = 3.0  # far beyond what the search needs for PLAIN, even on a loaded machine


def expert_table(*, seat_zero: str):
    """A lianzhong room at POSITION with seat 0 an expert bot (``seat_zero="bot"``) or
    alice under 托管 in a room whose 托管 level is expert (``"trustee"``), or alice playing
    herself there (``"human"``); normal bots in the other seats, moving at once."""
    alice = player_guest(nickname="alice")
    room = room_create(creator=alice, name="高手", preset="lianzhong",
                       options={"hold_sixes": False, "trustee_level": "expert", "trustee_delay": 0})
    if seat_zero == "bot":
        seat_add_bot(room_id=room.pk, by=alice, index=0, level="expert")
    else:
        seat_take(room_id=room.pk, player=alice, index=0)
    for index in range(1, 5):
        seat_add_bot(room_id=room.pk, by=alice, index=index)
    # Five bots deal as the fifth sits (bots are always ready); with alice, she deals.
    hand = Hand.objects.filter(room=room).first() or hand_start(room_id=room.pk)
    state = engine.state_from_hands("lianzhong", POSITION, emperor=0, guard=2, options={"hold_sixes": False})
    deal_instead(hand, state)
    if seat_zero == "trustee":
        trustee_set(room_id=room.pk, seat=0, on=True, player=alice)
    hand.refresh_from_db()
    assert len(engine.legal_actions(hand.state, 0)) > 1  # a real choice: the search thinks
    return room, hand, alice


@pytest.mark.django_db
@pytest.mark.parametrize("seat_zero", ["bot", "trustee"])
def test_the_expert_level_searches_in_the_task_for_its_budget(seat_zero, settings):
    settings.BOT_SEARCH_SECONDS = BUDGET
    room, hand, _alice = expert_table(seat_zero=seat_zero)
    started = time.monotonic()
    assert seat_move(hand_id=hand.pk, version=hand.version, seat=0) == "acted:trustee"
    took = time.monotonic() - started
    event = HandEvent.objects.get(hand=hand, version=hand.version + 1)
    assert event.seat == 0 and event.action in engine.legal_actions(hand.state, 0)
    assert event.by_trustee == (seat_zero == "trustee")
    # It took its budget (the other levels answer in milliseconds), and no longer (plus the
    # write, with room for a loaded machine).
    assert BUDGET <= took <= BUDGET + 1.5, took


def test_a_plain_choice_searched_in_a_moment_still_takes_the_whole_budget():
    # The search settles soon (PLAIN), and the expert then waits out the budget the
    # schedule took from its think time.
    state = engine.state_from_hands("lianzhong", PLAIN, emperor=0, guard=1, options={"hold_sixes": False})
    assert len(engine.legal_actions(state, 0)) > 1
    started = time.monotonic()
    action = levels.decide(state, 0, "expert", search_seconds=PLAIN_BUDGET)
    assert time.monotonic() - started >= PLAIN_BUDGET
    assert action == {"seat": 0, "type": "play", "cards": "BJ* 7S 7H"}


@pytest.mark.django_db
def test_a_timed_out_seat_moves_as_soon_as_its_plain_choice_is_searched(settings):
    # alice's turn timer ran out in a room whose 托管 level is expert: the deadline has
    # passed, so the search's quick answer is played at once instead of waiting out the budget.
    settings.BOT_SEARCH_SECONDS = PLAIN_BUDGET
    room, hand, _alice = expert_table(seat_zero="human")
    state = engine.state_from_hands("lianzhong", PLAIN, emperor=0, guard=1, options={"hold_sixes": False})
    deal_instead(hand, state)
    started = time.monotonic()
    change = hand_act_for(hand_id=hand.pk, seat=0, version=hand.version, reason="timeout")
    assert time.monotonic() - started < PLAIN_BUDGET * 0.75  # the search alone stops at 90 %
    assert change is not None and change.events[-1]["event"]["cards"] == ["BJ*", "7S", "7H"]
    assert Seat.objects.get(room=room, index=0).trustee  # the timeout put her under 托管


@pytest.mark.django_db(transaction=True)
def test_a_slow_decision_holds_no_lock_and_a_move_made_meanwhile_wins(settings, monkeypatch):
    # alice is under 托管 at the expert level; while the search thinks she takes 托管 off
    # and plays herself. The room is not locked meanwhile, and the search's move, decided
    # at the version she moved past, is never stored.
    settings.BOT_SEARCH_SECONDS = 5.0
    room, hand, alice = expert_table(seat_zero="trustee")
    searching = threading.Event()
    decide = levels.decide

    def observed(*args, **kwargs):
        searching.set()
        return decide(*args, **kwargs)

    monkeypatch.setattr(levels, "decide", observed)
    outcome = {}

    def trustee_move():
        try:
            outcome["change"] = hand_act_for(hand_id=hand.pk, seat=0, version=hand.version, reason="trustee")
        finally:
            from django.db import connection

            connection.close()

    thread = threading.Thread(target=trustee_move)
    thread.start()
    assert searching.wait(10)
    with transaction.atomic():  # the room's row is not locked while the search thinks
        Room.objects.select_for_update(nowait=True).get(pk=room.pk)
    trustee_set(room_id=room.pk, seat=0, on=False, player=alice)
    hand_act(hand_id=hand.pk, seat=0, action={"type": "play", "cards": "7S"}, expected_version=hand.version,
             player=alice)
    assert thread.is_alive()  # still searching: her move came in the middle of it
    thread.join(20)
    assert not thread.is_alive()
    assert outcome["change"] is None  # the search's move came too late: not stored
    events = list(HandEvent.objects.filter(hand=hand).order_by("version"))
    assert [(event.seat, event.action["cards"], event.by_trustee) for event in events] == [(0, "7S", False)]
    assert not Seat.objects.get(room=room, index=0).trustee
