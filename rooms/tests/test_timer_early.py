"""A turn timer that fires before its decision is due (`timers.hand_timer_fire`) waits for
the deadline now open — or leaves it to a message a move queued that fires first — and
writes nothing, so the table's next move keeps the held table (rooms.services.held)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from rooms.models import Hand
from rooms.services import hand_start, timers
from rooms.services.held import HELD
from rooms.tests.test_held import move, writes

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    calls = []
    monkeypatch.setattr(timers, "send", lambda task, args, countdown: calls.append((task, args, countdown)))
    return calls


@pytest.fixture
def dealt(full_table, django_capture_on_commit_callbacks):
    HELD.clear()
    with django_capture_on_commit_callbacks(execute=True):
        hand = hand_start(room_id=full_table().pk)
    yield hand
    HELD.clear()


def fired(hand: Hand) -> None:
    """The deal's message has fired: the stored `timer_at`, and the held one, have passed."""
    past = timezone.now() - timedelta(seconds=1)
    Hand.objects.filter(pk=hand.pk).update(timer_at=past)
    HELD._tables[hand.pk][1].timer_at = past  # as the process that wrote it holds it


def test_a_timer_that_fires_early_queues_itself_for_the_deadline_and_writes_nothing(dealt, sent):
    fired(dealt)
    before = Hand.objects.get(pk=dealt.pk)
    with CaptureQueriesContext(connection) as queries:
        assert timers.hand_timer_fire(hand_id=dealt.pk) == "early"
    assert [query["sql"] for query in queries.captured_queries if not query["sql"].startswith("SELECT")] == []
    [(task, args, countdown)] = sent
    assert (task, args) == ("rooms.decision_timeout", (dealt.pk,))
    assert abs(countdown - (before.deadline - timezone.now()).total_seconds()) < 1
    assert Hand.objects.get(pk=dealt.pk).timer_at == before.timer_at


def test_a_timer_that_fires_early_leaves_the_deadline_to_a_message_a_move_queued_to_fire_first(dealt, sent):
    Hand.objects.filter(pk=dealt.pk).update(timer_at=dealt.deadline - timedelta(seconds=1))
    assert timers.hand_timer_fire(hand_id=dealt.pk) == "early"
    assert sent == []


def test_the_move_after_an_early_timer_keeps_the_held_table_and_queues_its_own(dealt, sent,
                                                                                django_capture_on_commit_callbacks):
    fired(dealt)
    timers.hand_timer_fire(hand_id=dealt.pk)
    change, statements = move(dealt.pk, django_capture_on_commit_callbacks)
    assert len(statements) == writes()  # the held table's fenced writes, no rows read back
    stored = Hand.objects.get(pk=dealt.pk)
    assert stored.version == 1 and timezone.now() < stored.timer_at == stored.deadline  # the move queued one
