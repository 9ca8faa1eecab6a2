"""Fixtures for the API's tests: a client, hands played to the end, ledger rows on given days."""

from datetime import datetime, timezone as tz
from unittest import mock

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from baohuang import engine
from rooms.models import Hand, HandEvent, Room, Seat
from rooms.services import hand_act, hand_act_for, hand_start
from scoring import services as scoring
from scoring.models import LedgerEntry


@pytest.fixture(autouse=True)
def api_only_urls(settings):
    """Only the API's URLs (mounted at /api/ as in production)."""
    settings.ROOT_URLCONF = "api.tests.urls"


@pytest.fixture
def api():
    return APIClient()


def play_to_end(hand_id: int, *, limit: int = 5000) -> Hand:
    """Every awaited seat plays the baseline 托管 policy's move through the services."""
    for _ in range(limit):
        hand = Hand.objects.get(pk=hand_id)
        if not hand.running:
            return hand
        seat = engine.actors(hand.state)[0]
        if Seat.objects.get(room_id=hand.room_id, index=seat).trustee:
            hand_act_for(hand_id=hand_id, seat=seat, version=hand.version, reason="trustee")
        else:
            hand_act(hand_id=hand_id, seat=seat, action=engine.autoplay(hand.state, seat),
                     expected_version=hand.version)
    raise AssertionError(f"hand {hand_id} did not end in {limit} moves")


def play_some(hand_id: int, moves: int) -> Hand:
    """Play `moves` moves of a running hand (it must not end meanwhile)."""
    for _ in range(moves):
        hand = Hand.objects.get(pk=hand_id)
        seat = engine.actors(hand.state)[0]
        hand_act(hand_id=hand_id, seat=seat, action=engine.autoplay(hand.state, seat), expected_version=hand.version)
    hand = Hand.objects.get(pk=hand_id)
    assert hand.running
    return hand


def record_to_end(hand_id: int) -> Hand:
    """Finish a dealt hand fast: the engine plays it in memory, its events are stored in bulk.

    Then it is scored as `rooms.services` does when a hand ends (`scoring.services.hand_score`
    writes the ledger). Playing ~500 moves through `hand_act` costs ~10 s; this ~0.2 s.
    `play_to_end` is the real path and one test uses it.
    """
    hand = Hand.objects.get(pk=hand_id)
    state, events = hand.state, []
    while engine.result(state) is None:
        seat = engine.actors(state)[0]
        action = engine.autoplay(state, seat)
        state, event = engine.apply(state, action)
        events.append(HandEvent(hand=hand, version=state["version"], seat=seat, action=action, event=event,
                                public=engine.event_view(event, None), by_trustee=True))
    HandEvent.objects.bulk_create(events)
    hand.state, hand.version, hand.phase = state, state["version"], state["phase"]
    hand.result, hand.ended, hand.deadline = engine.result(state), timezone.now(), None
    hand.scored = not hand.result["void"]
    hand.save()
    if hand.scored:
        scoring.hand_score(hand=hand, scores=hand.result["scores"])
    Room.objects.filter(pk=hand.room_id).update(status=Room.Status.OPEN)
    return hand


@pytest.fixture
def ended_hand(full_table):
    """A factory: a room of `preset` (options as keywords) whose first hand has ended, scored."""

    def make(preset="classic", **options):
        room = full_table(preset, **options)
        for _ in range(10):  # 黄庄 (everyone refused the throne) is rare: deal again
            hand = record_to_end(hand_start(room_id=room.pk).pk)
            if hand.scored:
                return hand
        raise AssertionError("ten void hands in a row")

    return make


def entry(player, points, *, preset="classic", won=None, kind=LedgerEntry.Kind.HAND_SCORE, when=None):
    """A ledger entry as the services would write it (with the running totals), dated `when`."""
    when = when or datetime.now(tz.utc)
    with mock.patch("django.utils.timezone.now", return_value=when):
        created = LedgerEntry.objects.create(player=player, points=points, preset=preset, kind=kind,
                                             won=won if kind == LedgerEntry.Kind.HAND_SCORE else None)
    scoring.totals_add([created])
    return created
