"""Spam limits, counted in a shared Redis cache by the trusted-proxy client address: new
guests, rooms and public page reads per address, seats per player, chat lines per player
across sockets."""

import uuid

import pytest
import redis
from django.urls import reverse

from baohuang.errors import ServiceError
from rooms.models import ChatMessage, Player, Room, Seat
from rooms.services import chat_say, player_bot, player_guest, room_create, room_dissolve, seat_take
from rooms.tests.test_pages import room_post

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def shared_cache(settings):
    """Counters in the real Redis, as several server processes would share them."""
    prefix = f"limits-{uuid.uuid4().hex[:8]}"
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": settings.REDIS_URL, "KEY_PREFIX": prefix}}
    settings.NUM_PROXIES = 1
    settings.LIMITS = {"guests": "3/h", "rooms": "2/h", "chat": "4/10s", "reads": "3/m"}
    store = redis.Redis.from_url(settings.REDIS_URL)
    yield lambda: store.keys(f"{prefix}:*")
    if keys := store.keys(f"{prefix}:*"):
        store.delete(*keys)


def from_address(client, address: str) -> dict:
    return {"HTTP_X_FORWARDED_FOR": f"6.6.6.{uuid.uuid4().int % 250}, {address}"}  # the left part is forged


def test_guests_per_address_are_limited_and_the_refused_one_is_not_created(client, shared_cache):
    answers = [client.post(reverse("rooms:guest"), {"nickname": f"g{n}"}, **from_address(client, "1.2.3.4"))
               for n in range(4)]
    elsewhere = client.post(reverse("rooms:guest"), {"nickname": "other"}, **from_address(client, "5.6.7.8"))

    assert [answer.status_code for answer in answers] == [302, 302, 302, 429]
    assert "你的网络地址操作太频繁" in answers[3].content.decode()  # the lobby, in Chinese by default
    assert not Player.objects.filter(display_name="g3").exists()
    assert elsewhere.status_code == 302
    assert shared_cache()  # the counters are in Redis, where every server process counts


def test_rooms_per_address_are_limited(client, alice, bob):
    client.force_login(alice)
    answers = [client.post(reverse("rooms:room_new"), room_post(), **from_address(client, "1.2.3.4")).status_code
               for _ in range(3)]
    client.force_login(bob)
    elsewhere = client.post(reverse("rooms:room_new"), room_post(), **from_address(client, "5.6.7.8"))

    assert answers == [302, 302, 429]
    assert Room.objects.filter(creator=alice).count() == 2
    assert elsewhere.status_code == 302


def test_one_tap_starts_count_as_new_guests_and_rooms(client):
    answers = [client.post(reverse("rooms:quick_bots"), {"preset": "classic"},
                           **from_address(client, "1.2.3.4")).status_code for _ in range(3)]

    assert answers == [302, 302, 429]
    assert Room.objects.count() == 2


def test_a_player_holds_at_most_three_seats_at_once(alice, bob, settings):
    rooms = [room_create(creator=bob, name=f"t{n}", preset="classic") for n in range(5)]
    for room in rooms[:3]:
        seat_take(room_id=room.pk, player=alice)

    with pytest.raises(ServiceError) as refused:
        seat_take(room_id=rooms[3].pk, player=alice)

    assert refused.value.code == "too_many_seats"
    assert not Seat.objects.filter(room=rooms[3], player=alice).exists()
    room_dissolve(room_id=rooms[0].pk)  # a dissolved room frees its seat
    seat_take(room_id=rooms[3].pk, player=alice)


def test_bots_are_not_limited_to_three_seats(bob):
    robot = player_bot(number=1)
    for n in range(5):
        seat_take(room_id=room_create(creator=bob, name=f"t{n}", preset="classic").pk, player=robot)

    assert Seat.objects.filter(player=robot).count() == 5


def test_a_creator_who_may_not_sit_leaves_no_empty_room(client, alice, bob):
    for n in range(3):
        seat_take(room_id=room_create(creator=bob, name=f"t{n}", preset="classic").pk, player=alice)
    client.force_login(alice)

    response = client.post(reverse("rooms:room_new"), room_post(name="fourth"), **from_address(client, "1.2.3.4"))

    assert response.status_code == 302 and not Room.objects.filter(name="fourth").exists()


def test_chat_is_limited_per_player_across_rooms_and_sockets(alice, bob, settings):
    # django-ratelimit counts in fixed windows: with "4/10s" a window that ended between
    # the fourth line and the fifth (a slow CI machine) let the fifth through.
    settings.LIMITS = {**settings.LIMITS, "chat": "4/d"}
    rooms = [room_create(creator=bob, name=f"t{n}", preset="classic") for n in range(2)]
    for number in range(4):
        chat_say(room_id=rooms[number % 2].pk, player=alice, text=f"line {number}")

    with pytest.raises(ServiceError) as refused:
        chat_say(room_id=rooms[0].pk, player=alice, text="one too many")
    chat_say(room_id=rooms[0].pk, player=bob, text="bob still talks")

    assert refused.value.code == "chat_too_fast"
    assert ChatMessage.objects.filter(player=alice).count() == 4


def test_public_reads_per_address_are_limited_together_and_say_why(client, alice):
    # Player pages and the leaderboard count together, per address; another address is free.
    player = reverse("rooms:player", args=[alice.pk])
    answers = [client.get(url, **from_address(client, "1.2.3.4")).status_code
               for url in (player, reverse("rooms:leaderboard"), player)]
    refused = client.get(player, **from_address(client, "1.2.3.4"))
    english = client.get(reverse("rooms:leaderboard"), HTTP_ACCEPT_LANGUAGE="en", **from_address(client, "1.2.3.4"))
    elsewhere = client.get(player, **from_address(client, "5.6.7.8"))

    assert answers == [200, 200, 200]
    assert refused.status_code == 429
    assert "你的网络地址操作太频繁" in refused.content.decode()
    assert english.status_code == 429
    assert "Too many at once from your address" in english.content.decode()
    assert elsewhere.status_code == 200


def test_hand_replays_count_as_public_reads(client, settings):
    settings.LIMITS = {**settings.LIMITS, "reads": "1/m"}
    replay = reverse("rooms:hand_replay", args=[999999])
    first = client.get(replay, **from_address(client, "1.2.3.4"))
    second = client.get(replay, **from_address(client, "1.2.3.4"))

    assert first.status_code == 404  # counted before the hand is looked up: no such hand
    assert second.status_code == 429
