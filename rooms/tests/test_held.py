"""The writer's held table (`rooms.services.held`): a move after this process's own write
is only its writes, fenced by the held table's token, and any change another writer made
since — a move, 托管, a seat — is seen, never hidden by the objects held."""

import copy
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from baohuang import engine
from baohuang.errors import ServiceError
from rooms.models import Hand, HandEvent, Room, Seat
from rooms.services import hand_act, hand_start, seat_ready
from rooms.services.held import HELD

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def nothing_held():
    HELD.clear()
    yield
    HELD.clear()


def move(hand_id: int, capture, seat: int | None = None, *, expected: int | None = None):
    """The awaited seat's policy move through `hand_act`, its after-commit work run;
    returns the change and the statements it ran."""
    hand = Hand.objects.get(pk=hand_id)
    seat = engine.actors(hand.state)[0] if seat is None else seat
    action = engine.autoplay(hand.state, seat)
    with capture(execute=True), CaptureQueriesContext(connection) as queries:
        change = hand_act(hand_id=hand_id, seat=seat, action=action,
                          expected_version=hand.version if expected is None else expected)
    return change, [query["sql"] for query in queries.captured_queries
                    if query["sql"] not in ("BEGIN", "COMMIT") and not query["sql"].startswith("SAVEPOINT")
                    and not query["sql"].startswith("RELEASE SAVEPOINT")]


def writes() -> int:
    """Statements a move's two writes take: one on PostgreSQL (`moves.store_move`), two on SQLite.
    On the held table the one statement also takes the lock on PostgreSQL."""
    return 1 if connection.vendor == "postgresql" else 2


def stored_state(hand_id: int) -> dict:
    hand = Hand.objects.get(pk=hand_id)
    log = list(hand.events.order_by("version").values_list("action", flat=True))
    assert engine.replay(hand.preset, hand.seed, log, options=hand.options, tribute=tuple(hand.tribute),
                         salt=hand.salt or None) == hand.state
    return hand.state


def test_the_move_after_this_process_wrote_is_only_its_fenced_writes(full_table, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        hand = hand_start(room_id=full_table().pk)
    _, first = move(hand.pk, django_capture_on_commit_callbacks)
    HELD.clear()  # as after a restart, or when another process wrote last
    _, unheld = move(hand.pk, django_capture_on_commit_callbacks)
    _, next_ = move(hand.pk, django_capture_on_commit_callbacks)
    # Nothing held: the locking token read, then the seats and the hand read back; then the event and the hand written.
    assert len(unheld) == 3 + writes()
    assert "FOR UPDATE" in unheld[0].upper() or not connection.features.has_select_for_update
    # After this process's deal or move: the writes only, fenced by the held table's token.
    assert len(first) == writes() and len(next_) == writes()
    written = " ".join(next_)
    if connection.features.has_select_for_update:
        assert written.upper().startswith("SELECT 1 FROM") and "FOR UPDATE" in written.upper()
    assert written.index("INSERT") < written.rindex("UPDATE") and written.count("EXISTS") == 2
    stored_state(hand.pk)


def test_the_first_move_after_a_deal_by_ready_is_only_its_fenced_writes(full_table, django_capture_on_commit_callbacks):
    room = full_table()
    for seat in Seat.objects.filter(room=room).select_related("player"):
        with django_capture_on_commit_callbacks(execute=True):
            hand = seat_ready(room_id=room.pk, player=seat.player)
    _, first = move(hand.pk, django_capture_on_commit_callbacks)
    assert len(first) == writes()
    stored_state(hand.pk)


def test_a_move_stored_by_another_process_is_read_not_overwritten(full_table, django_capture_on_commit_callbacks):
    hand = hand_start(room_id=full_table().pk)
    move(hand.pk, django_capture_on_commit_callbacks)
    # What this process holds now, a move behind once another process has written.
    behind = copy.deepcopy(HELD._tables)
    move(hand.pk, django_capture_on_commit_callbacks)
    HELD._tables.clear()
    HELD._tables.update(behind)
    version = Hand.objects.get(pk=hand.pk).version
    with pytest.raises(ServiceError) as refused:
        # The held table takes the move, its fence fails, the locked path refuses it.
        move(hand.pk, django_capture_on_commit_callbacks, expected=version - 1)
    assert refused.value.code == "stale_version"
    assert Hand.objects.get(pk=hand.pk).version == version and not HELD._tables
    HELD._tables.update(behind)
    change, statements = move(hand.pk, django_capture_on_commit_callbacks)
    assert change.events[-1]["version"] == version + 1 and len(statements) == 3 + writes()  # read back
    assert stored_state(hand.pk) == change.hand.state


def test_trustee_set_elsewhere_is_seen_by_the_next_move(full_table, django_capture_on_commit_callbacks):
    hand = hand_start(room_id=full_table().pk)
    move(hand.pk, django_capture_on_commit_callbacks)
    seat = engine.actors(Hand.objects.get(pk=hand.pk).state)[0]
    # Another process turns 托管 on for the awaited seat (one statement, nothing held here changes).
    Seat.objects.filter(room_id=hand.room_id, index=seat).update(trustee=True, trustee_entries=1)
    with pytest.raises(ServiceError) as refused:
        move(hand.pk, django_capture_on_commit_callbacks, seat)
    assert refused.value.code == "trustee_on"


def test_a_seat_taken_over_elsewhere_is_seen_by_the_next_move(full_table, players, django_capture_on_commit_callbacks):
    hand = hand_start(room_id=full_table().pk)
    move(hand.pk, django_capture_on_commit_callbacks)
    seat = engine.actors(Hand.objects.get(pk=hand.pk).state)[0]
    Seat.objects.filter(room_id=hand.room_id, index=seat).update(left=True)
    with pytest.raises(ServiceError) as refused:
        move(hand.pk, django_capture_on_commit_callbacks, seat)
    assert refused.value.code == "not_seated"


def test_the_hand_a_service_returned_is_not_changed_by_the_next_move(full_table, django_capture_on_commit_callbacks):
    # The caller (a socket's 准备, a test) still holds the dealt hand while the next move,
    # on another thread, takes the held table: it takes a copy.
    with django_capture_on_commit_callbacks(execute=True):
        dealt = hand_start(room_id=full_table().pk)
    change, statements = move(dealt.pk, django_capture_on_commit_callbacks)
    assert len(statements) == writes()  # the held table was used
    assert dealt.version == 0 and change.hand.version == 1
    move(dealt.pk, django_capture_on_commit_callbacks)
    assert change.hand.version == 1


@pytest.mark.parametrize("elsewhere", [
    lambda hand: Room.objects.filter(pk=hand.room_id).update(updated=timezone.now()),
    lambda hand: Hand.objects.filter(pk=hand.pk).update(timer_at=timezone.now() + timedelta(hours=1)),
    lambda hand: Seat.objects.filter(room_id=hand.room_id, index=4).update(trustee_entries=2),
], ids=["room saved", "timer queued", "a seat's 托管 count"])
def test_any_change_to_the_token_fails_the_fence_and_the_move_reads_the_rows(full_table, elsewhere,
                                                                              django_capture_on_commit_callbacks):
    hand = hand_start(room_id=full_table().pk)
    move(hand.pk, django_capture_on_commit_callbacks)
    elsewhere(Hand.objects.get(pk=hand.pk))  # another process, behind this one's back
    change, statements = move(hand.pk, django_capture_on_commit_callbacks)
    # The fenced attempt wrote nothing; then the locked path: token, seats and hand read, the writes.
    assert len(statements) == 1 + 3 + writes()
    assert HandEvent.objects.filter(hand_id=hand.pk).count() == change.hand.version == 2
    assert stored_state(hand.pk) == change.hand.state

@pytest.mark.django_db(transaction=True)
def test_a_fenced_move_waits_for_the_room_lock_and_sees_what_its_holder_wrote(full_table):
    """Another writer holds the room lock and turns 托管 on; the move on the held table
    waits for that lock, then compares the token with what the other writer committed."""
    if not connection.features.has_select_for_update:
        pytest.skip("SQLite's transactions take its one write lock at BEGIN: nothing waits inside a statement")
    hand = hand_start(room_id=full_table().pk)  # committed, so the table is held
    hand = Hand.objects.get(pk=hand.pk)
    seat = engine.actors(hand.state)[0]
    action = engine.autoplay(hand.state, seat)
    assert hand.pk in HELD._tables
    locked, release = threading.Event(), threading.Event()

    def other_writer():
        try:
            with transaction.atomic():
                Room.objects.select_for_update().get(pk=hand.room_id)
                Seat.objects.filter(room_id=hand.room_id, index=seat).update(trustee=True, trustee_entries=1)
                locked.set()
                release.wait(30)
        finally:
            connections.close_all()

    writer = threading.Thread(target=other_writer)
    writer.start()
    assert locked.wait(30)
    mover = threading.Thread(target=lambda: outcome.append(act_in_thread(hand, seat, action)))
    outcome = []
    mover.start()
    try:
        wait_for_a_lock_wait()
    finally:
        release.set()
        writer.join(30)
        mover.join(30)
    assert outcome == ["trustee_on"]
    assert Hand.objects.get(pk=hand.pk).version == hand.version


def act_in_thread(hand, seat, action) -> str:
    try:
        hand_act(hand_id=hand.pk, seat=seat, action=action, expected_version=hand.version)
        return "applied"
    except ServiceError as refused:
        return refused.code
    finally:
        connections.close_all()


def wait_for_a_lock_wait(seconds: float = 30) -> None:
    """Until some other session of this database waits for a row lock."""
    with connection.cursor() as cursor:
        for _ in range(int(seconds * 100)):
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND wait_event_type = 'Lock'")
            if cursor.fetchone()[0]:
                return
            time.sleep(0.01)
    raise AssertionError("no session waited for a lock")
