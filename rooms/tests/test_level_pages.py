"""Levels 入门 / 普通 / 高手 where people choose and read them: the lobby's quick start, the
room form and room list, the table's add-bot form, its words and the seats it is sent
(issue 18), in both languages."""

import pytest
from django.urls import reverse
from django.utils import translation

from rooms.models import Player, Room, Seat
from rooms.selectors import snapshot
from rooms.services import room_create, seat_add_bot
from rooms.table_text import table_text
from rooms.tests.test_pages import room_post

pytestmark = pytest.mark.django_db

ZH = {"novice": "入门", "normal": "普通", "expert": "高手"}
EN = {"novice": "Novice", "normal": "Normal", "expert": "Expert"}


def bot_levels(room: Room) -> dict[int, str]:
    return dict(Seat.objects.filter(room=room, player__is_bot=True).values_list("index", "player__bot_level"))


def test_play_with_bots_takes_the_level_chosen_in_the_lobby(client):
    page = client.get("/").content.decode()
    assert page.count('<select name="level"') == 4  # one per preset's quick start
    assert '<option value="normal" selected>普通</option>' in page and ">入门<" in page and ">高手<" in page
    client.post(reverse("rooms:quick_bots"), {"preset": "lianzhong", "level": "novice"})
    assert set(bot_levels(Room.objects.get()).values()) == {"novice"}


def test_play_with_bots_without_a_level_seats_normal_bots(client):
    client.post(reverse("rooms:quick_bots"), {"preset": "qingdao"})
    assert list(bot_levels(Room.objects.get()).values()) == ["normal"] * 4


def test_the_room_form_seats_its_bots_at_the_level_chosen_and_sets_the_trustee_level(client, alice):
    client.force_login(alice)
    client.post(reverse("rooms:room_new"), room_post(bots=2, bot_level="expert", trustee_level="normal"))
    room = Room.objects.get()
    assert bot_levels(room) == {1: "expert", 2: "expert"}
    assert room.options["trustee_level"] == "normal"


def test_the_room_form_refuses_an_unknown_level(client, alice):
    client.force_login(alice)
    assert client.post(reverse("rooms:room_new"), room_post(bots=1, bot_level="god")).status_code == 400
    assert client.post(reverse("rooms:room_new"), room_post(trustee_level="god")).status_code == 400
    assert not Room.objects.exists()


def test_the_tables_add_bot_form_fills_the_seat_named_at_the_level_chosen(client, alice):
    room = room_create(creator=alice, name="bots", preset="classic")
    client.force_login(alice)
    client.post(reverse("rooms:room_bot", args=[room.pk]), {"seat": "3", "level": "expert"})
    client.post(reverse("rooms:room_bot", args=[room.pk]), {})
    client.post(reverse("rooms:room_bot", args=[room.pk]), {"level": "nonsense"})
    assert bot_levels(room) == {3: "expert", 0: "normal"}  # the refused one left nothing behind
    assert Player.objects.filter(is_bot=True).count() == 2


@pytest.mark.parametrize("language, words", [("zh-hans", ZH), ("en", EN)])
def test_the_room_list_labels_the_bots_by_level(client, alice, language, words):
    room = room_create(creator=alice, name="bots", preset="classic")
    for level in ("expert", "novice", "expert"):
        seat_add_bot(room_id=room.pk, by=alice, level=level)
    listed = client.get(reverse("rooms:lobby_rooms"), headers={"accept-language": language}).content.decode()
    assert f'data-level="novice">{words["novice"]}</span>' in listed
    assert f'data-level="expert">{words["expert"]} ×2</span>' in listed
    assert words["normal"] not in listed


@pytest.mark.parametrize("language, words", [("zh-hans", ZH), ("en", EN)])
def test_the_tables_words_name_every_level(language, words):
    with translation.override(language):
        text = table_text()
    assert text["levels"] == words
    assert text["levelTitle"] == {"zh-hans": "机器人水平", "en": "Bot level"}[language]


def test_the_seats_sent_to_the_table_carry_each_bots_level(alice):
    room = room_create(creator=alice, name="bots", preset="classic")
    seat_add_bot(room_id=room.pk, by=alice, index=1, level="novice")
    seat_add_bot(room_id=room.pk, by=alice, index=2, level="expert")
    frame, _ = snapshot(room.pk, alice)
    players = [seat["player"] for seat in frame["seats"]]
    assert players[1]["bot"] and players[1]["level"] == "novice"
    assert players[2]["level"] == "expert"
    assert players[0] is None
