"""What the page needs for the 托管 banner and the score sheet of a dissolved room, over
the real socket (docs/protocol.md): whether a seat may still cancel 托管, that the room
will be dissolved at the end of the hand, and — once it is — every seat's score sheet
with the players' names, for the seats turned spectators too (RULES §8).

The hand is a short lianzhong deal in RULES §1 notation put in place of the random one;
the 托管 seat's moves are made by calling the service the worker would call.
"""

import pytest
from django.db import transaction

from baohuang import engine
from rooms.models import Hand, Room
from rooms.services import hand_act, hand_act_for, hand_start, room_create, seat_leave, seat_take
from rooms.tests.play import deal_instead
from rooms.tests.test_consumer import close_all, path, seated
from tests.live import Client, anyio_backend, db, isolated_prefix, no_lingering_connections, session_key  # noqa: F401

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("isolated_prefix")]

SHORT_DEAL = ["BJ* 9S 7D", "8C 8H", "SJ* KC", "7C TC", "TS JD"]  # emperor 0, guard 2
NAMES = ["alice", "bob", "charlie", "dave", "erin"]


@pytest.fixture
def table(players):
    room = room_create(creator=players[0], name="托管", preset="lianzhong", options={"hold_sixes": False})
    for index, player in enumerate(players):
        seat_take(room_id=room.pk, player=player, index=index)
    return room, [session_key(player) for player in players]


def short_hand(room) -> Hand:
    with transaction.atomic():
        hand = hand_start(room_id=room.pk)
        state = engine.state_from_hands("lianzhong", SHORT_DEAL, emperor=0, guard=2, options={"hold_sixes": False})
        deal_instead(hand, state)
    return hand


def play_out(hand_id: int, trustee: set[int]) -> None:
    """Play the hand to its end: 托管 seats through `hand_act_for`, the others their
    baseline move."""
    while (hand := Hand.objects.get(pk=hand_id)).running:
        seat = engine.actors(hand.state)[0]
        if seat in trustee:
            hand_act_for(hand_id=hand_id, seat=seat, version=hand.version, reason="trustee")
        else:
            action = engine.autoplay(hand.state, seat)
            hand_act(hand_id=hand_id, seat=seat, action=action, expected_version=hand.version)


async def test_trustee_frames_say_whether_the_seat_may_cancel_and_that_the_room_will_dissolve(table):
    room, sessions = table
    clients = await seated(room, sessions)
    hand = await db(short_hand)(room)
    for client in clients:
        await client.expect("snapshot", where=lambda f: f["hand"] and f["hand"]["id"] == hand.pk)
    await clients[1].send({"type": "trustee", "on": True})

    frame = await clients[0].expect("presence", where=lambda f: f["seat"]["trustee"])
    assert frame["dissolves"] is True
    assert frame["seat"]["trustee_entries"] == 1
    assert frame["seat"]["trustee_locked"] is False  # one entry: bob may still cancel
    watcher = Client(path(room))
    assert (await watcher.connect())[0]
    snap = await watcher.expect("snapshot")
    assert snap["hand"]["dissolves"] is True and snap["hand"]["seat"] is None
    assert snap["seats"][1]["trustee"] and snap["seats"][1]["trustee_entries"] == 1

    await clients[1].send({"type": "trustee", "on": False})
    frame = await clients[0].expect("presence", where=lambda f: not f["seat"]["trustee"])
    assert frame["dissolves"] is False
    await close_all(clients, watcher)


async def test_when_the_room_dissolves_every_seat_gets_the_score_sheet_with_names(table, players):
    room, sessions = table
    clients = await seated(room, sessions)
    hand = await db(short_hand)(room)
    for client in clients:
        await client.expect("snapshot", where=lambda f: f["hand"] and f["hand"]["id"] == hand.pk)
    await clients[1].send({"type": "trustee", "on": True})
    await clients[1].expect("presence", where=lambda f: f["seat"]["trustee"])
    await db(seat_leave)(room_id=room.pk, player=players[3])  # dave leaves mid-hand: a spectator now

    await db(play_out)(hand.pk, {1, 3})

    for seat, client in enumerate(clients):
        snap = await client.expect("snapshot", where=lambda f: f["room"]["status"] == Room.Status.DISSOLVED)
        assert snap["you"]["role"] == "spectator" and snap["you"]["seat"] is None
        ended = snap["hand"]
        assert ended["id"] == hand.pk and not ended["running"] and ended["dissolves"] is False
        assert [player["name"] for player in ended["players"]] == NAMES
        assert ended["seat"] == seat and ended["view"]["seat"] == seat  # its own end of the hand
        assert ended["view"]["result"]["places"] and len(ended["view"]["result"]["scores"]) == 5
        assert all(each["player"] is None for each in snap["seats"])  # the seats were emptied
    await close_all(clients)
