"""准备 (ready) over live sockets: every seated human marks ready (bots always are), the hand
deals when all five are; the marks are asked again after each hand; a full table waits the
room's `ready_time`, then another seated player may free a seat that is still not ready."""

from datetime import timedelta

import pytest
from django.utils import timezone

from baohuang.errors import ServiceError
from rooms.models import Hand, Room, Seat
from rooms.services import player_guest, room_create, seat_add_bot, seat_free, seat_leave, seat_ready, seat_take
from rooms.tests.play import play_to_end
from scoring.models import LedgerEntry
from tests.live import (Client, anyio_backend, closed_at_the_end, db, isolated_prefix,  # noqa: F401
                        no_lingering_connections, ready_all, session_key)

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("isolated_prefix")]


async def joined(room, session=None) -> Client:
    client = Client(f"/ws/rooms/{room.pk}/", session=session)
    assert (await client.connect())[0]
    await client.expect("snapshot")
    return client


def hands_of(room) -> int:
    return Hand.objects.filter(room=room).count()


def ready_marks(room) -> list[bool]:
    return list(Seat.objects.filter(room=room).order_by("index").values_list("ready", flat=True))


async def test_bots_count_as_ready_and_a_mark_can_be_taken_back(players):
    alice, bob = players[:2]
    room = await db(room_create)(creator=alice, name="two and bots", preset="lianzhong")
    await db(seat_take)(room_id=room.pk, player=alice, index=0)
    await db(seat_take)(room_id=room.pk, player=bob, index=1)
    for _ in range(3):
        await db(seat_add_bot)(room_id=room.pk, by=alice)
    assert await db(ready_marks)(room) == [False, False, True, True, True]
    a, b = [await joined(room, await db(session_key)(player)) for player in (alice, bob)]
    await b.send({"type": "ready", "client_id": "b1"})
    await b.expect("ack", client_id="b1")
    await a.expect("presence", where=lambda f: f["seat"]["index"] == 1 and f["seat"]["ready"])
    await b.send({"type": "ready", "on": False, "client_id": "b2"})  # 取消准备, before the deal
    await b.expect("ack", client_id="b2")
    assert await db(ready_marks)(room) == [False, False, True, True, True]
    await a.send({"type": "ready", "client_id": "a1"})
    assert (await a.expect("ack", client_id="a1"))["version"] is None  # bob took his back: no deal
    assert await db(hands_of)(room) == 0
    await b.send({"type": "ready", "client_id": "b3"})
    assert (await b.expect("ack", client_id="b3"))["version"] == 0  # the last human ready deals
    for client in (a, b):
        snap = await client.expect("snapshot", where=lambda f: f["hand"] is not None)
        assert snap["hand"]["running"]


async def test_every_human_is_asked_again_after_a_hand(full_table, players):
    room = await db(full_table)("classic", ready_time=45)
    clients = [await joined(room, await db(session_key)(player)) for player in players]
    assert (await ready_all(clients))["version"] == 0
    hand = await db(Hand.objects.get)(room=room)
    before_end = timezone.now()
    await db(play_to_end)(hand.pk)
    snap = await clients[0].expect("snapshot", where=lambda f: f["hand"]["id"] == hand.pk and not f["hand"]["running"])
    assert [seat["ready"] for seat in snap["seats"]] == [False] * 5
    due = snap["room"]["ready_due"]  # the wait for ready starts at the end, for the room's 45 s
    assert before_end.timestamp() * 1000 + 45_000 <= due <= timezone.now().timestamp() * 1000 + 45_000
    await ready_all(clients[:4])
    assert await db(hands_of)(room) == 1  # erin is not ready yet
    await clients[4].send({"type": "ready", "client_id": "last"})
    assert (await clients[4].expect("ack", client_id="last"))["version"] == 0
    assert await db(hands_of)(room) == 2


async def test_a_late_seat_may_be_freed_by_another_player_once_the_ready_time_is_over(full_table, players):
    room = await db(full_table)("classic", ready_time=10)
    clients = [await joined(room, await db(session_key)(player)) for player in players]
    watcher_player = await db(player_guest)(nickname="frank")
    watcher = await joined(room, await db(session_key)(watcher_player))
    await ready_all(clients[:4])  # erin (seat 4) never presses 准备
    await clients[1].send({"type": "free", "seat": 4, "client_id": "f1"})
    refusal = await clients[1].expect("error", client_id="f1")
    due = (await db(Room.objects.get)(pk=room.pk)).ready_due
    assert refusal["code"] == "too_early" and refusal["params"] == {"due": int(due.timestamp() * 1000)}
    assert timezone.now() < due

    # The room's ten seconds pass (moved back rather than waited for).
    await db(Room.objects.filter(pk=room.pk).update)(ready_due=timezone.now() - timedelta(seconds=1))
    for client, frame, code in [
        (watcher, {"type": "free", "seat": 4}, "not_seated"),  # only a seated player may
        (clients[4], {"type": "free", "seat": 4}, "own_seat"),
        (clients[1], {"type": "free", "seat": 0}, "seat_ready"),  # alice is ready
    ]:
        await client.send({**frame, "client_id": "f2"})
        assert (await client.expect("error", client_id="f2"))["code"] == code
    await clients[1].send({"type": "free", "seat": 4, "client_id": "f3"})
    await clients[1].expect("ack", client_id="f3")
    snap = await clients[4].expect("snapshot", where=lambda f: f["seats"][4]["player"] is None)
    assert snap["you"]["player"]["id"] == players[4].pk and snap["you"]["seat"] is None
    assert snap["you"]["role"] == "spectator"
    assert snap["room"]["ready_due"] is None  # no full table, no wait
    assert await db(lambda: LedgerEntry.objects.filter(player=players[4]).count())() == 0  # no −40 between hands
    await clients[0].send({"type": "free", "seat": 4, "client_id": "f4"})
    assert (await clients[0].expect("error", client_id="f4"))["code"] == "seat_empty"

    # frank takes the seat: a fresh wait, and his 准备 deals.
    await watcher.send({"type": "sit", "seat": 4})
    snap = await watcher.expect("snapshot", where=lambda f: f["you"]["role"] == "player")
    assert snap["room"]["ready_due"] > snap["server_time"]
    assert [seat["ready"] for seat in snap["seats"]] == [True, True, True, True, False]
    await watcher.send({"type": "ready", "client_id": "go"})
    assert (await watcher.expect("ack", client_id="go"))["version"] == 0



async def test_a_bot_taking_the_last_seat_of_a_ready_table_deals(players):
    def fill():
        alice, bob = players[:2]
        room = room_create(creator=alice, name="almost", preset="qingdao")
        for index, player in enumerate((alice, bob)):
            seat_take(room_id=room.pk, player=player, index=index)
            seat_ready(room_id=room.pk, player=player)
        seat_add_bot(room_id=room.pk, by=alice)
        seat_add_bot(room_id=room.pk, by=alice)
        assert hands_of(room) == 0
        seat_add_bot(room_id=room.pk, by=alice)  # the fifth seat: everyone is ready
        assert Hand.objects.get(room=room).running

    await db(fill)()


async def test_the_wait_for_ready_runs_only_while_the_table_is_full_and_keeps_its_end(full_table, players):
    def wait():
        room = full_table("classic")
        due = Room.objects.get(pk=room.pk).ready_due
        assert due is not None
        seat_ready(room_id=room.pk, player=players[0])
        seat_ready(room_id=room.pk, player=players[0], on=False)  # taking a mark back restarts nothing
        assert Room.objects.get(pk=room.pk).ready_due == due
        seat_leave(room_id=room.pk, player=players[4])
        assert Room.objects.get(pk=room.pk).ready_due is None
        with pytest.raises(ServiceError) as refused:
            seat_free(room_id=room.pk, player=players[0], index=3)
        assert refused.value.code == "too_early" and refused.value.params == {"due": None}

    await db(wait)()
