"""Moderation: a mute refuses chat until it ends, a ban refuses sockets and pages with the
reason; each is written with a reason to the append-only moderation log."""

from datetime import timedelta

import pytest
from django.utils import timezone

from baohuang.errors import ServiceError
from rooms.models import ChatMessage, ModerationEntry, Player
from rooms.services import chat_say, player_moderate
from tests.live import (Client, anyio_backend, db, isolated_prefix, no_lingering_connections,  # noqa: F401
                        session_key)


@pytest.fixture
def staff(db):
    return Player.objects.create_user(username="olga", password="moderator-pass-1", is_staff=True,
                                      is_superuser=True, display_name="Olga")


@pytest.fixture
def room(full_table):
    return full_table("classic")


def test_a_mute_refuses_chat_until_it_ends(room, alice, staff):
    entry = player_moderate(player=alice, staff=staff, action="mute", minutes=60, reason="spam in chat")
    with pytest.raises(ServiceError) as refused:
        chat_say(room_id=room.pk, player=alice, text="buy gold")
    assert refused.value.code == "muted" and not ChatMessage.objects.exists()
    assert entry.until > timezone.now() + timedelta(minutes=59)
    Player.objects.filter(pk=alice.pk).update(chat_muted_until=timezone.now() - timedelta(seconds=1))
    chat_say(room_id=room.pk, player=alice, text="sorry")  # the mute has ended
    assert ChatMessage.objects.count() == 1


def test_unmute_and_unban_undo_and_every_step_is_logged(room, alice, staff):
    player_moderate(player=alice, staff=staff, action="mute", minutes=5, reason="flooding")
    player_moderate(player=alice, staff=staff, action="unmute", reason="apologised")
    player_moderate(player=alice, staff=staff, action="ban", reason="cheating with a friend")
    alice.refresh_from_db()
    assert alice.banned and alice.ban_reason == "cheating with a friend" and alice.chat_muted_until is None
    player_moderate(player=alice, staff=staff, action="unban", reason="appeal accepted")
    alice.refresh_from_db()
    assert not alice.banned and alice.ban_reason == ""
    log = list(ModerationEntry.objects.order_by("id").values_list("action", "reason", "staff__username"))
    assert log == [("mute", "flooding", "olga"), ("unmute", "apologised", "olga"),
                   ("ban", "cheating with a friend", "olga"), ("unban", "appeal accepted", "olga")]


@pytest.mark.parametrize("kwargs, code", [
    ({"action": "ban", "reason": "   "}, "bad_reason"),
    ({"action": "mute", "reason": "spam"}, "bad_duration"),
    ({"action": "mute", "reason": "spam", "minutes": 0}, "bad_duration"),
    ({"action": "shout", "reason": "spam"}, "bad_action"),
])
def test_refusals_change_nothing(alice, staff, kwargs, code):
    with pytest.raises(ServiceError) as refused:
        player_moderate(player=alice, staff=staff, **kwargs)
    assert refused.value.code == code
    alice.refresh_from_db()
    assert not alice.banned and alice.chat_muted_until is None and not ModerationEntry.objects.exists()


def test_a_banned_player_s_pages_say_why(client, alice, staff):
    player_moderate(player=alice, staff=staff, action="ban", reason="abusive names")
    client.force_login(alice)
    response = client.get("/")
    assert response.status_code == 403 and "abusive names" in response.content.decode()
    assert client.post("/logout/").status_code == 302  # logging out still works


@pytest.mark.anyio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("isolated_prefix")
async def test_a_banned_player_s_socket_is_refused_with_the_reason(room, alice, staff):
    session = await db(session_key)(alice)
    await db(player_moderate)(player=alice, staff=staff, action="ban", reason="abusive names")
    client = Client(f"/ws/rooms/{room.pk}/", session=session)
    await client.connect()
    error = await client.expect("error")
    assert error["code"] == "banned" and "abusive names" in error["message"]
    assert (await client.expect("_closed"))["code"] == 4403
    await Client.close_all()
