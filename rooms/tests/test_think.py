"""Think time (rooms.think): a seeded pause at the room's pace, longer on hard choices,
and none added to a search that took as long (issue 18)."""

import random

import pytest

from baohuang import engine
from rooms import think
from rooms.models import Hand, Seat
from rooms.services import schedule, seat_ready
from rooms.tests.test_bots import bot_room


def positions(preset: str, count: int, seed: int = 7):
    """(state, seat) at ``count`` decisions of hands played by the strong policy."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = engine.new_hand(preset, rng.randrange(2**31))
        while state["phase"] not in ("ended", "void") and len(found) < count:
            seat = rng.choice(engine.actors(state))
            found.append((state, seat))
            state, _ = engine.apply(state, engine.autoplay(state, seat, "strong"))
    return found


@pytest.mark.parametrize("preset", engine.PRESETS)
@pytest.mark.parametrize("pace", [1.0, 2.5])
def test_the_pause_is_within_its_bounds_for_the_kind_of_choice(preset, pace):
    kinds = set()
    for number, (state, seat) in enumerate(positions(preset, 300)):
        seconds = think.pause(state, seat, pace=pace, hand_id=number, version=0)
        options = len(engine.legal_actions(state, seat))
        if options == 1:
            low, high, kind = 0.3, 0.6, "forced"
        elif engine.decision_kind(state) in ("bid", "declare") or options >= think.HARD_OPTIONS:
            low, high, kind = 0.6 * 1.6, 1.5 * 1.6, "hard"
        else:
            low, high, kind = 0.6, 1.5, "ordinary"
        assert low * pace <= seconds <= high * pace, (kind, seconds)
        assert seconds <= think.longest(pace)
        kinds.add(kind)
    assert kinds == {"forced", "hard", "ordinary"}


def test_the_pause_is_seeded_by_hand_version_and_seat_and_varies_between_them():
    state, seat = next((s, seat) for s, seat in positions("classic", 200)
                       if len(engine.legal_actions(s, seat)) > 1)
    again = [think.pause(state, seat, pace=1.0, hand_id=5, version=9) for _ in range(3)]
    assert len(set(again)) == 1
    others = {think.pause(state, seat, pace=1.0, hand_id=5, version=version) for version in range(20)}
    assert len(others) == 20


def test_no_pause_at_pace_zero():
    for state, seat in positions("qingdao", 50):
        assert think.pause(state, seat, pace=0, hand_id=1, version=0) == 0


@pytest.mark.django_db
@pytest.mark.parametrize("level", ["novice", "normal", "expert"])
def test_a_searching_level_waits_only_for_what_its_search_leaves_of_the_pause(level, settings):
    settings.BOT_SEARCH_SECONDS = 1.0
    room, alice = bot_room("lianzhong", levels=(level,), trustee_delay=2.0)
    hand = seat_ready(room_id=room.pk, player=alice)  # bots are always ready
    for seat in Seat.objects.filter(room=room, index__gt=0).select_related("player", "room"):
        pause = think.pause(hand.state, seat.index, pace=2.0, hand_id=hand.pk, version=hand.version)
        countdown = schedule.move_countdown(Hand.objects.get(pk=hand.pk), seat)
        forced = think.forced(hand.state, seat.index)
        assert countdown == (max(0.0, pause - 1.0) if level == "expert" and not forced else pause)
    assert schedule.move_late_after(room) == think.longest(2.0)
    settings.BOT_SEARCH_SECONDS = 9.0
    assert schedule.move_late_after(room) == 9.0  # a search longer than any pause
