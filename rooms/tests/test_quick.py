"""Quick moves (rooms/services/quick.py) store exactly what `hand_act` would, or nothing.

PostgreSQL only, like the quick path itself; the real channel layer takes the broadcasts.
"""

import pytest
from django.db import connection

from baohuang import engine
from rooms.models import Hand, HandEvent, Player, Room, Seat
from rooms.services import hand_act, hand_start, quick
from rooms.services.hands import epoch_ms
from scoring.models import LedgerEntry
from tests.live import (Client, anyio_backend, closed_at_the_end, db, isolated_channel_layer,  # noqa: F401
                        no_lingering_connections, quick_action, session_key)

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("isolated_channel_layer")]


@pytest.fixture(autouse=True)
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("quick moves are PostgreSQL only")


@pytest.fixture
def same_seed(monkeypatch):
    """Every hand dealt from seed 7, so two rooms get the same cards."""
    monkeypatch.setattr("rooms.services.hands.new_seed", lambda: 7)


def held(hand_id: int) -> dict:
    """What a socket's process holds for the hand now: state and deadline at its version."""
    hand = Hand.objects.get(pk=hand_id)
    return {"hand": hand, "state": hand.state, "deadline_ms": epoch_ms(hand.deadline)}


async def quick_move(room: Room, players: list, hand_id: int, *, action: dict | None = None, seat=None,
                     player=None, client_id: str | None = None, expected: int | None = None, **held_now):
    """`quick_act` for the seat now awaited (or `seat`), as the consumer calls it."""
    now = await db(held)(hand_id)
    state = held_now.get("state", now["state"])
    seat = engine.actors(state)[0] if seat is None else seat
    action = quick_action(state, seat) if action is None else action
    return await quick.quick_act(
        room_id=room.pk, hand_id=hand_id, seat=seat, player_id=(player or players[seat]).pk, action=action,
        expected_version=now["hand"].version if expected is None else expected, client_id=client_id,
        state=state, deadline_ms=held_now.get("deadline_ms", now["deadline_ms"]),
        timers=held_now.get("timers", room.options["timers"]))


def stored(hand_id: int) -> tuple[dict, list]:
    """The hand's row and event log, without ids and clock times."""
    hand = Hand.objects.get(pk=hand_id)
    row = {field: getattr(hand, field) for field in ("state", "version", "phase", "result", "scored")}
    row["timed"] = (hand.deadline is not None, hand.timer_at is not None)
    events = list(HandEvent.objects.filter(hand_id=hand_id).order_by("version").values(
        "version", "seat", "action", "event", "public", "client_id", "by_trustee"))
    return row, events


def ledger(hand_id: int) -> list:
    return sorted(LedgerEntry.objects.filter(hand_id=hand_id).values_list("player_id", "kind", "points"))


@pytest.mark.parametrize("preset", ["classic", "lianzhong", "qingdao"])
async def test_a_whole_hand_stored_by_quick_moves_equals_the_same_hand_stored_by_the_service(
        full_table, players, same_seed, preset):
    # Timers as long as each other: a shorter one before a longer one (the default 8 s
    # declaration window before a 20 s play) sends its move to the service for a new timer.
    timers = {"play": 20, "bid": 20, "declare": 20}
    rooms = [await db(full_table)(preset, timers=timers), await db(full_table)(preset, timers=timers)]
    service_hand, quick_hand = [(await db(hand_start)(room_id=room.pk)).pk for room in rooms]
    quick_moves = moves = 0
    while True:
        before = await db(held)(service_hand)
        state = before["state"]
        if engine.result(state) is not None:
            break
        seat = engine.actors(state)[0]
        action = quick_action(state, seat)
        client_id = f"c{state['version']}"
        await db(hand_act)(hand_id=service_hand, seat=seat, action=action, expected_version=state["version"],
                           client_id=client_id, player=players[seat])
        quick_before = await db(held)(quick_hand)
        moved = await quick_move(rooms[1], players, quick_hand, action=action, client_id=client_id)
        if moved is None:
            await db(hand_act)(hand_id=quick_hand, seat=seat, action=action, expected_version=state["version"],
                               client_id=client_id, player=players[seat])
        else:
            item, new_state = moved
            assert item["version"] == state["version"] + 1 and item["event"]["seat"] == seat
            quick_moves += 1
        moves += 1
        # A declaration step keeps its deadline on both paths alike.
        service_after, quick_after = await db(held)(service_hand), await db(held)(quick_hand)
        assert ((service_after["deadline_ms"] == before["deadline_ms"])
                == (quick_after["deadline_ms"] == quick_before["deadline_ms"]))
        if moved is not None:
            assert new_state == quick_after["state"] and item["deadline"] == quick_after["deadline_ms"]
    assert await db(stored)(quick_hand) == await db(stored)(service_hand)
    assert await db(ledger)(quick_hand) == await db(ledger)(service_hand) != []
    # Every move but the last (the hand ends: scoring belongs to the service) was quick.
    assert quick_moves == moves - 1


@pytest.fixture
async def dealt(full_table):
    room = await db(full_table)("classic")
    hand = await db(hand_start)(room_id=room.pk)
    return room, hand.pk


async def refused(room, players, hand_id, **move) -> None:
    before = await db(stored)(hand_id)
    assert await quick_move(room, players, hand_id, **move) is None
    assert await db(stored)(hand_id) == before


async def test_an_illegal_action_or_a_stale_version_is_left_to_the_service(dealt, players):
    room, hand_id = dealt
    await refused(room, players, hand_id, action={"type": "play", "cards": "3"})
    start = await db(held)(hand_id)
    assert await quick_move(room, players, hand_id) is not None
    await refused(room, players, hand_id, expected=start["hand"].version, state=start["state"],
                  deadline_ms=start["deadline_ms"])


async def test_a_move_for_a_seat_by_someone_else_is_left_to_the_service(dealt, players):
    room, hand_id = dealt
    seat = engine.actors((await db(held)(hand_id))["state"])[0]
    await refused(room, players, hand_id, player=players[(seat + 1) % 5])


@pytest.mark.parametrize("change", [{"trustee": True}, {"left": True}])
async def test_a_seat_under_trustee_or_left_is_left_to_the_service(dealt, players, change):
    room, hand_id = dealt
    seat = engine.actors((await db(held)(hand_id))["state"])[0]
    await db(lambda: Seat.objects.filter(room=room, index=seat).update(**change))()
    await refused(room, players, hand_id)


@pytest.mark.parametrize("who", ["trustee", "bot"])
async def test_a_move_after_which_the_server_plays_is_left_to_the_service(dealt, players, who):
    """The service queues the moves of 托管 seats and bots when they are awaited."""
    room, hand_id = dealt
    state = (await db(held)(hand_id))["state"]
    seat = engine.actors(state)[0]
    after, _ = engine.apply(state, {**quick_action(state, seat), "seat": seat})
    following = [index for index in engine.actors(after) if index != seat][0]
    if who == "trustee":
        await db(lambda: Seat.objects.filter(room=room, index=following).update(trustee=True))()
    else:
        await db(lambda: Player.objects.filter(pk=players[following].pk).update(is_bot=True))()
    await refused(room, players, hand_id)


async def test_a_move_whose_deadline_no_queued_timer_covers_is_left_to_the_service(dealt, players):
    room, hand_id = dealt
    await db(lambda: Hand.objects.filter(pk=hand_id).update(timer_at=None))()
    await refused(room, players, hand_id)


async def test_a_move_under_changed_room_timers_is_left_to_the_service(dealt, players):
    room, hand_id = dealt
    await refused(room, players, hand_id, timers={**room.options["timers"], "play": 99})


async def test_a_client_id_the_seat_already_used_is_left_to_the_service(dealt, players):
    room, hand_id = dealt
    seat = engine.actors((await db(held)(hand_id))["state"])[0]
    assert await quick_move(room, players, hand_id, client_id="same") is not None
    while engine.actors((await db(held)(hand_id))["state"])[0] != seat:
        assert await quick_move(room, players, hand_id) is not None
    await refused(room, players, hand_id, client_id="same")
    change = await db(hand_act)(hand_id=hand_id, seat=seat, action=quick_action((await db(held)(hand_id))["state"], seat),
                                expected_version=(await db(held)(hand_id))["hand"].version, client_id="same")
    assert change.repeated


async def test_the_move_that_ends_the_hand_is_left_to_the_service(dealt, players):
    room, hand_id = dealt
    while True:
        state = (await db(held)(hand_id))["state"]
        seat = engine.actors(state)[0]
        action = quick_action(state, seat)
        if engine.result(engine.apply(state, {**action, "seat": seat})[0]) is not None:
            break
        assert await quick_move(room, players, hand_id, action=action) is not None
    await refused(room, players, hand_id, action=action)


async def test_sockets_store_ordinary_moves_without_the_service(full_table, players, monkeypatch):
    import rooms.consumers

    room = await db(full_table)("classic")
    clients = [Client(f"/ws/rooms/{room.pk}/", session=await db(session_key)(player)) for player in players]
    for client in clients:
        assert (await client.connect())[0]
        await client.expect("snapshot")
    hand_id = (await db(hand_start)(room_id=room.pk)).pk
    for client in clients:
        await client.expect("snapshot")

    def refuse(**kwargs):
        raise AssertionError("an ordinary move went through hand_act")

    monkeypatch.setattr(rooms.consumers, "hand_act", refuse)
    for _ in range(6):
        state = (await db(held)(hand_id))["state"]
        seat = engine.actors(state)[0]
        await clients[seat].send({"type": "act", "action": quick_action(state, seat),
                                  "expected_version": state["version"], "client_id": f"q{state['version']}"})
        ack = await clients[seat].expect("ack")
        assert ack["version"] == state["version"] + 1 and not ack["repeated"]
        for client in clients:
            await client.until_version(hand_id, ack["version"])
    hand = await db(lambda: Hand.objects.get(pk=hand_id))()
    for index, client in enumerate(clients):
        assert (await client.until_version(hand_id, 6))["view"] == engine.view(hand.state, index)


async def test_moves_arriving_while_the_pool_opens_wait_for_it_and_share_it():
    import asyncio

    await quick.close_pool()

    async def first_moves():
        pool = await quick.pool()
        async with pool.connection() as conn:
            return pool, await (await conn.execute("SELECT 1")).fetchone()

    results = await asyncio.gather(*(first_moves() for _ in range(5)))
    assert all(pool is results[0][0] and row == (1,) for pool, row in results)
