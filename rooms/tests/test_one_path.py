"""Every move takes one path (docs/architecture.md): validated and applied once by
`rooms.services.hands`, stored with contiguous versions from which the hand replays, and
broadcast after commit — on SQLite as on PostgreSQL."""

import sys

import pytest

import baohuang.engine
from baohuang import engine
from rooms.hand_states import STATES
from rooms.models import Hand, HandEvent
from rooms.services import hand_start
from scoring.models import LedgerEntry
from tests.live import (Client, anyio_backend, closed_at_the_end, db, isolated_prefix,  # noqa: F401
                        no_lingering_connections, play_hand, session_key)

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("isolated_prefix")]


async def table_of(full_table, players, preset: str = "classic"):
    """The room, its five seated sockets and the dealt hand (every socket has its snapshot)."""
    room = await db(full_table)(preset)
    clients = []
    for player in players:
        client = Client(f"/ws/rooms/{room.pk}/", session=await db(session_key)(player))
        assert (await client.connect())[0]
        await client.expect("snapshot")
        clients.append(client)
    hand = await db(hand_start)(room_id=room.pk)
    for client in clients:
        await client.expect("snapshot", where=lambda frame: frame["hand"] is not None)
    return room, clients, hand


def stored(hand_id: int) -> tuple[Hand, list[int], dict]:
    """The hand, its stored versions and its state rebuilt from the seed and the stored actions."""
    hand = Hand.objects.get(pk=hand_id)
    log = list(HandEvent.objects.filter(hand=hand).order_by("version").values_list("version", "action"))
    rebuilt = engine.replay(hand.preset, hand.seed, [action for _, action in log], options=hand.options,
                            tribute=tuple(hand.tribute), salt=hand.salt or None)
    return hand, [version for version, _ in log], rebuilt


@pytest.mark.parametrize("preset", engine.PRESETS)
async def test_a_whole_hand_applies_the_engine_once_per_move_and_replays_from_its_log(
        full_table, players, monkeypatch, preset):
    room, clients, hand = await table_of(full_table, players, preset)
    calls = []
    real_apply = baohuang.engine.apply

    def counted(state, action):
        caller = sys._getframe(1).f_globals["__name__"]
        if caller != "tests.live":  # the script following the hand on its own copy
            calls.append(caller)
        return real_apply(state, action)

    monkeypatch.setattr(baohuang.engine, "apply", counted)
    state, _ = await play_hand(clients, hand.pk, await db(lambda: Hand.objects.get(pk=hand.pk).state)())
    monkeypatch.setattr(baohuang.engine, "apply", real_apply)

    row, versions, rebuilt = await db(stored)(hand.pk)
    assert versions == list(range(1, row.version + 1)) and row.version == state["version"]
    assert rebuilt == row.state == state
    # The writer applied each move once; the sockets of its process built their views
    # from the state it left (no replay, no second application).
    assert calls == ["rooms.services.hands"] * row.version
    if not row.result.get("void"):
        assert await db(lambda: LedgerEntry.objects.filter(hand_id=hand.pk).count())() == 5


async def test_an_act_naming_another_seat_is_refused_with_bad_action_and_changes_nothing(full_table, players):
    room, clients, hand = await table_of(full_table, players)
    seat = engine.actors(hand.state)[0]
    action = engine.autoplay(hand.state, seat) | {"seat": (seat + 1) % 5}
    await clients[seat].send({"type": "act", "action": action, "expected_version": hand.version, "client_id": "x"})
    error = await clients[seat].expect("error")
    assert error["code"] == "bad_action" and error["client_id"] == "x"
    assert await db(lambda: HandEvent.objects.filter(hand_id=hand.pk).count())() == 0
    assert (await db(lambda: Hand.objects.get(pk=hand.pk))()).version == hand.version
    for client in clients:  # the acting socket stays open; a round trip on every socket
        await client.send({"type": "ping"})
        assert await client.expect("pong")
        assert not [frame for frame in client.frames if frame["type"] == "event"], "nothing was broadcast"


async def test_a_process_that_forgets_every_state_mid_hand_loses_nothing(full_table, players):
    """What a restarted server process knows: nothing but the database. The sockets
    reconnect, the hand goes on from the stored state, and the log stays contiguous."""
    room, clients, hand = await table_of(full_table, players, "qingdao")
    state, _ = await play_hand(clients, hand.pk, hand.state, moves=12)
    for client in clients:
        await client.close()
    STATES.__init__()
    clients = []
    for player in players:
        client = Client(f"/ws/rooms/{room.pk}/", session=await db(session_key)(player))
        assert (await client.connect())[0]
        snap = await client.expect("snapshot")
        assert snap["version"] == state["version"]
        clients.append(client)
    state, _ = await play_hand(clients, hand.pk, state)
    row, versions, rebuilt = await db(stored)(hand.pk)
    assert versions == list(range(1, row.version + 1)) and rebuilt == row.state == state
    assert engine.result(row.state) is not None
