"""A socket's move from the event loop (`rooms.services.acting.ahand_act`): on PostgreSQL
a move on the held table is stored by the loop itself, on its own connections
(`baohuang.loop_database`); everything else, and everything on SQLite, by the same
services on a database thread."""

import asyncio
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from baohuang import broadcast, engine, loop_database
from rooms import notify
from rooms.event_frames import FRAMES, EventFrames
from rooms.models import Hand, HandEvent, Room
from rooms.services import ahand_act, hand_start, moves
from rooms.services.held import HELD
from tests.live import anyio_backend, db, isolated_prefix, no_lingering_connections  # noqa: F401

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("isolated_prefix")]

on_postgresql = pytest.mark.skipif("connection.vendor != 'postgresql'",
                                   reason="SQLite's moves are stored from a database thread")


def read(hand_id: int) -> Hand:
    return Hand.objects.get(pk=hand_id)


async def next_move(hand_id: int, client_id: str | None = None):
    """The awaited seat's policy move through `ahand_act`; returns the change."""
    hand = await db(read)(hand_id)
    seat = engine.actors(hand.state)[0]
    return await ahand_act(hand_id=hand_id, seat=seat, action=engine.autoplay(hand.state, seat),
                           expected_version=hand.version, client_id=client_id)


def replayed(hand_id: int) -> Hand:
    """The hand, checked against a replay of its stored events (versions 1, 2, … with no gap)."""
    hand = read(hand_id)
    events = list(hand.events.order_by("version").values_list("version", "action"))
    assert [version for version, _ in events] == list(range(1, hand.version + 1))
    assert engine.replay(hand.preset, hand.seed, [action for _, action in events], options=hand.options,
                         tribute=tuple(hand.tribute), salt=hand.salt or None) == hand.state
    return hand


def no_thread(monkeypatch):
    """Fail a move that would go to a database thread from now on."""
    import rooms.services.acting

    def refused(function):
        raise AssertionError(f"{function.__name__} was sent to a database thread")

    monkeypatch.setattr(rooms.services.acting, "db", refused)


@on_postgresql
async def test_the_loops_datetimes_go_as_djangos_postgresql_adapter_gives_them():
    """`moves._as_is` stands for Django's adapter of datetimes on PostgreSQL, which the
    loop's statements skip (a lookup of `connection` each): a Django that changed it fails here."""
    moment = timezone.now()
    for value in (moment, moment.astimezone(timezone.get_fixed_timezone(480)), None):
        assert moves._as_is(value) is connection.ops.adapt_datetimefield_value(value)


@on_postgresql
async def test_a_move_on_the_held_table_is_stored_and_announced_from_the_loop(full_table, monkeypatch):
    from rooms.services import schedule

    room = await db(full_table)()
    hand = await db(hand_start)(room_id=room.pk)
    # The hand's timer message has fired (timer_at passed): the first move queues a new one.
    past = timezone.now() - timedelta(seconds=1)
    await db(lambda: Hand.objects.filter(pk=hand.pk).update(timer_at=past))()
    HELD._tables[hand.pk][1].timer_at = past  # as the process that wrote it would hold it
    queued, loop_thread = [], threading.current_thread()
    monkeypatch.setattr(schedule, "send", lambda task, args, countdown: queued.append(
        (task, args, threading.current_thread() is loop_thread)))
    no_thread(monkeypatch)
    heard = []
    await broadcast.join(notify.room_group(room.pk), heard.append)
    try:
        for version in (1, 2, 3):
            change = await next_move(hand.pk, client_id=f"c{version}")
            assert change.events[0]["version"] == change.hand.version == version
            assert hand.pk in HELD._tables  # held again for the next move
    finally:
        await broadcast.leave(notify.room_group(room.pk), heard.append)
    stored = await db(replayed)(hand.pk)
    assert stored.version == 3 and stored.state == change.hand.state and stored.timer_at > timezone.now()
    assert [message["events"][0]["version"] for message in heard if message["type"] == "hand.events"] == [1, 2, 3]
    # Queueing a Celery task may wait on the broker: the loop leaves it to a thread.
    async with asyncio.timeout(10):
        while not queued:
            await asyncio.sleep(0.01)
    assert queued == [("rooms.decision_timeout", (hand.pk,), False)]


@pytest.mark.parametrize("preset", list(engine.PRESETS))
async def test_whole_hands_of_every_preset_through_the_loop(full_table, preset):
    room = await db(full_table)(preset)
    hand = await db(hand_start)(room_id=room.pk)
    while not (change := await next_move(hand.pk)).ended:
        pass
    stored = await db(replayed)(hand.pk)
    assert stored.ended is not None and stored.result is not None and stored.version == change.hand.version


@on_postgresql
async def test_the_frames_of_a_move_are_built_while_it_is_stored_for_the_kinds_this_process_serves(full_table,
                                                                                                     monkeypatch):
    room = await db(full_table)()
    hand = await db(hand_start)(room_id=room.pk)
    first = await next_move(hand.pk)
    deadline = first.events[0]["deadline"]
    for kind in (0, 2, None):  # this process's sockets were sent the first move's frames
        FRAMES.text(hand.pk, 1, first.events[0]["event"], first.hand.state, deadline, kind)
    built = []

    def keep(hand_id, version, deadline, texts):
        built.append((version, set(texts)))
        EventFrames.keep(FRAMES, hand_id, version, deadline, texts)

    monkeypatch.setattr(FRAMES, "keep", keep)
    second = await next_move(hand.pk)
    assert built == [(2, {0, 2, None})]
    (item,) = second.events
    for kind in (0, 2, None):  # what a socket of each kind is sent: the frame built ahead
        text = FRAMES.text(hand.pk, 2, item["event"], second.hand.state, item["deadline"], kind)
        assert text == EventFrames().text(hand.pk, 2, item["event"], second.hand.state, item["deadline"], kind)


@on_postgresql
async def test_a_table_changed_elsewhere_fails_the_loop_fence_and_the_locked_path_stores_the_move(full_table,
                                                                                                  monkeypatch):
    from rooms.services import moves

    written = []

    async def spied(**arguments):
        written.append(await store(**arguments))
        return written[-1]

    store = moves.astore_move
    monkeypatch.setattr(moves, "astore_move", spied)
    kept = []
    monkeypatch.setattr(FRAMES, "keep", lambda hand_id, version, deadline, texts: kept.append(version))
    room = await db(full_table)()
    hand = await db(hand_start)(room_id=room.pk)
    await next_move(hand.pk)
    await db(lambda: Room.objects.get(pk=room.pk).save())()  # another process saved the room: a new token
    change = await next_move(hand.pk)
    assert written == [True, False]  # the second move's fence failed
    assert kept == [1]  # and the frames built while it was sent were dropped
    assert change.hand.version == 2
    assert (await db(replayed)(hand.pk)).version == 2


async def test_a_client_id_stored_before_is_answered_again_not_applied(full_table):
    room = await db(full_table)()
    hand = await db(hand_start)(room_id=room.pk)
    first = await next_move(hand.pk, client_id="same")
    seat = first.events[0]["event"]["seat"]
    while True:  # play on until that seat is awaited again, the table held all along
        hand = await db(read)(hand.pk)
        if engine.actors(hand.state)[0] == seat:
            break
        await next_move(hand.pk)
    assert hand.pk in HELD._tables
    again = await ahand_act(hand_id=hand.pk, seat=seat, action=engine.autoplay(hand.state, seat),
                            expected_version=hand.version, client_id="same")
    assert again.repeated and again.events[0]["version"] == 1
    assert (await db(read)(hand.pk)).version == hand.version
    assert await db(lambda: HandEvent.objects.filter(hand_id=hand.pk, client_id="same").count())() == 1


@on_postgresql
async def test_a_lost_loop_connection_costs_nothing(full_table):
    room = await db(full_table)()
    hand = await db(hand_start)(room_id=room.pk)
    await next_move(hand.pk)
    (idle,) = loop_database._of_this_loop().idle
    pid = idle.pgconn.backend_pid

    def terminate():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])

    await db(terminate)()
    change = await next_move(hand.pk)  # the loop's write fails; the locked path stores it
    assert change.hand.version == 2
    assert (await db(replayed)(hand.pk)).version == 2
    assert loop_database._of_this_loop().idle == []  # the broken connection was not kept
    await next_move(hand.pk)  # a new one
    assert len(loop_database._of_this_loop().idle) == 1
