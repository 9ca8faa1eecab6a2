"""A room without spectators: a signed-in visitor sees the seats (to sit down) and nothing
else — no hand, no chat, no room ledger — on the socket, the pages and the services."""

import pytest
from django.urls import reverse

from baohuang.errors import ServiceError
from rooms.models import ChatMessage, Player
from rooms.services import chat_say, player_guest, room_create, seat_take
from tests.live import (Client, anyio_backend, db, isolated_prefix,  # noqa: F401
                        no_lingering_connections, session_key)


@pytest.fixture
def private_room(players):
    room = room_create(creator=players[0], name="private", preset="classic", options={"allow_spectators": False})
    for index, player in enumerate(players[:4]):
        seat_take(room_id=room.pk, player=player, index=index)
    return room


@pytest.fixture
def frank(db):
    return player_guest(nickname="frank")


def test_a_visitor_may_not_chat_and_nothing_is_stored(private_room, frank):
    with pytest.raises(ServiceError) as refused:
        chat_say(room_id=private_room.pk, player=frank, text="hi")

    assert refused.value.code == "spectators_not_allowed"
    assert not ChatMessage.objects.filter(room=private_room).exists()


def test_players_and_staff_may_chat(private_room, players):
    staff = Player.objects.create_user(username="sam", password="x", is_staff=True)

    chat_say(room_id=private_room.pk, player=players[1], text="hi")
    chat_say(room_id=private_room.pk, player=staff, text="behave")

    assert ChatMessage.objects.filter(room=private_room).count() == 2


def test_the_room_ledger_is_for_its_players(client, private_room, players, frank):
    url = reverse("rooms:room_ledger", args=[private_room.pk])

    anonymous = client.get(url)
    client.force_login(frank)
    stranger = client.get(url)
    client.force_login(players[2])
    player = client.get(url)

    assert anonymous.status_code == stranger.status_code == 403
    assert stranger.json()["code"] == "spectators_not_allowed"
    assert player.status_code == 200


@pytest.mark.anyio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("isolated_prefix")
async def test_a_visitor_socket_gets_no_chat_and_may_not_say_anything(players):
    room = await db(room_create)(creator=players[0], name="private", preset="classic",
                                 options={"allow_spectators": False})
    await db(seat_take)(room_id=room.pk, player=players[0], index=0)
    await db(chat_say)(room_id=room.pk, player=players[0], text="secret plan")
    frank = await db(player_guest)(nickname="frank")
    visitor = Client(f"/ws/rooms/{room.pk}/", session=await db(session_key)(frank))
    alice = Client(f"/ws/rooms/{room.pk}/", session=await db(session_key)(players[0]))
    assert (await visitor.connect())[0] and (await alice.connect())[0]
    snap = await visitor.expect("snapshot")
    assert (await alice.expect("snapshot"))["chat"][0]["text"] == "secret plan"
    assert snap["you"]["role"] == "visitor" and snap["chat"] == []

    await visitor.send({"type": "chat", "text": "let me in", "client_id": "v"})
    assert (await visitor.expect("error", client_id="v"))["code"] == "spectators_not_allowed"
    await alice.send({"type": "chat", "text": "after", "client_id": "a"})
    await alice.expect("ack", client_id="a")
    await alice.expect("chat")
    await visitor.send({"type": "ping", "t": 1})
    await visitor.expect("pong")  # the chat frame would have come first

    assert not [frame for frame in visitor.frames if frame["type"] == "chat"]
    assert await db(ChatMessage.objects.filter(room=room).count)() == 2
    await visitor.close()
    await alice.close()
