"""The presence heartbeat of a server process (rooms/heartbeats.py): each beat renews the
Redis entries of all the process's live sockets, `CHUNK` a call, the calls spread over
the period, which keeps them live past their first entry's time; a socket that closes
leaves the beat."""

import asyncio
import contextlib
import threading

import pytest

from rooms import heartbeats, presence
from rooms.tests.test_consumer import joined
from tests.live import anyio_backend, db, isolated_prefix, no_lingering_connections, session_key  # noqa: F401

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("isolated_prefix")]


async def test_one_call_per_beat_keeps_every_socket_of_the_process_live(full_table, players, settings, monkeypatch):
    settings.PRESENCE_TTL_SECONDS = 3  # a beat a second; an entry not renewed is gone after 3 s
    room = await db(full_table)("classic")
    sessions = [await db(session_key)(player) for player in players[:3]]
    calls = []
    write = presence.sockets_alive

    def recorded(entries):
        calls.append(sorted(player for _room, player, _socket in entries))
        write(entries)

    monkeypatch.setattr(presence, "sockets_alive", recorded)
    clients = [await joined(room, session) for session in sessions]
    ids = sorted(player.pk for player in players[:3])
    pairs = [(room.pk, player.pk) for player in players[:3]]

    async def next_call() -> list[int]:
        seen = len(calls)
        for _ in range(200):
            if len(calls) > seen:
                return calls[-1]
            await asyncio.sleep(0.05)
        raise AssertionError("no heartbeat within 10 s")

    # Beats until the entries written at connect would have run out: only renewals kept them.
    started = asyncio.get_running_loop().time()
    while asyncio.get_running_loop().time() - started < settings.PRESENCE_TTL_SECONDS + 0.5:
        assert await next_call() == ids  # the three sockets, in one call
    assert await db(presence.live_sockets)(pairs) == [1, 1, 1]

    await clients[2].close()
    assert await db(presence.live_sockets)(pairs) == [1, 1, 0]
    left = sorted(player.pk for player in players[:2])
    assert await next_call() == left or await next_call() == left  # a beat already under way may name it once more
    for client in clients[:2]:
        await client.close()


async def test_a_beat_renews_the_sockets_a_chunk_a_call(full_table, players, settings, monkeypatch):
    settings.PRESENCE_TTL_SECONDS = 3
    monkeypatch.setattr(heartbeats, "CHUNK", 2)
    room = await db(full_table)("classic")
    calls = []
    monkeypatch.setattr(presence, "sockets_alive", lambda entries: calls.append(
        sorted(player for _room, player, _socket in entries)))
    clients = [await joined(room, await db(session_key)(player)) for player in players[:3]]
    calls.clear()  # the entries written at connect, one socket each
    ids = sorted(player.pk for player in players[:3])

    def one_beat() -> bool:  # a beat's two calls, one after the other (a beat under way may be cut)
        return any(sorted(first + second) == ids for first, second in zip(calls, calls[1:]))

    for _ in range(200):
        if one_beat():
            break
        await asyncio.sleep(0.05)
    assert one_beat() and max(map(len, calls)) == 2, calls
    for client in clients:
        await client.close()


async def test_a_beat_spreads_its_chunks_over_the_period_and_skips_closed_sockets(settings, monkeypatch):
    settings.PRESENCE_TTL_SECONDS = 3  # a beat a second: three chunks a third of a second apart
    monkeypatch.setattr(heartbeats, "CHUNK", 2)
    loop = asyncio.get_running_loop()
    calls = []
    monkeypatch.setattr(presence, "sockets_alive", lambda entries: calls.append(
        (loop.time(), [socket for _room, _player, socket in entries])))
    beat = heartbeats.Heartbeat()
    for number in range(6):
        beat.add(f"s{number}", room_id=1, player_id=number)
    started = loop.time()

    async def calls_made(count: int) -> None:
        async with asyncio.timeout(10):
            while len(calls) < count:
                await asyncio.sleep(0.01)

    await calls_made(2)
    beat.discard("s4")  # closed before its chunk's turn
    await calls_made(3)
    beat._task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await beat._task
    times = [started] + [at for at, _ in calls]
    assert [sockets for _, sockets in calls] == [["s0", "s1"], ["s2", "s3"], ["s5"]]
    assert all(later - earlier >= 0.3 for earlier, later in zip(times, times[1:])), times


async def test_sockets_that_join_while_a_beat_waits_are_renewed_before_their_entries_run_out(settings, monkeypatch):
    # A process whose sockets are connecting (after a restart, all of them at once): the beat
    # starts with the first, and the rest join while it waits. Each must be renewed within
    # two periods of joining, and again within two periods, or the presence sweep takes its
    # seat offline. Reckoning the pause from the one socket, the beat renewed the last of
    # these ten 5 s after they joined, past their 3 s.
    settings.PRESENCE_TTL_SECONDS = 3  # a period of 1 s
    monkeypatch.setattr(heartbeats, "CHUNK", 2)
    loop = asyncio.get_running_loop()
    renewed: dict[str, list[float]] = {}
    monkeypatch.setattr(presence, "sockets_alive", lambda entries: [
        renewed[socket].append(loop.time()) for _room, _player, socket in entries])
    beat = heartbeats.Heartbeat()
    joined_at = {}
    for number in range(10):
        socket = f"s{number}"
        renewed[socket], joined_at[socket] = [], loop.time()
        beat.add(socket, room_id=1, player_id=number)
        await asyncio.sleep(0.01 if number else 0.1)  # the beat has started with s0 alone
    await asyncio.sleep(2 * settings.PRESENCE_TTL_SECONDS)
    beat._task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await beat._task
    period = presence.heartbeat_seconds()
    for socket, times in renewed.items():
        gaps = [later - earlier for earlier, later in zip([joined_at[socket], *times], times)]
        assert len(times) >= 3 and max(gaps) <= 2 * period + 0.25, (socket, gaps)


async def test_a_beat_renews_the_entries_while_every_database_thread_is_busy(settings, monkeypatch):
    # Every table dealt at once keeps the database threads busy for many seconds: the
    # renewals must not wait behind that work, or the entries run out under live sockets.
    settings.PRESENCE_TTL_SECONDS = 3  # a beat a second
    loop = asyncio.get_running_loop()
    renewed = []
    monkeypatch.setattr(presence, "sockets_alive", lambda entries: renewed.append(loop.time()))
    release = threading.Event()
    blockers = [loop.run_in_executor(None, release.wait, 30) for _ in range(40)]  # more than the pool's threads
    beat = heartbeats.Heartbeat()
    try:
        beat.add("s0", room_id=1, player_id=1)
        async with asyncio.timeout(2 * presence.heartbeat_seconds() + 1):
            while len(renewed) < 2:
                await asyncio.sleep(0.05)
    finally:
        release.set()
        await asyncio.gather(*blockers)
        beat._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await beat._task
