"""Nicknames, room names and chat text: reserved words, look-alikes, control characters."""

import pytest

from baohuang.errors import ServiceError
from rooms.frames import BadInput, read
from rooms.models import Player, Room
from rooms.names import chat_refusal, mixed_scripts, reserved, skeleton
from rooms.services import player_bot, player_guest, room_create

CYRILLIC_A = "\u0430"
RLO = "\u202e"


def test_look_alike_letters_fold_to_latin():
    assert skeleton(f"{CYRILLIC_A}dmin") == "admin"
    assert skeleton("ＡＤＭＩＮ") == "admin"  # full-width, folded by NFKC
    assert skeleton("小明") == "小明"


def test_reserved_words_are_found_in_any_dress():
    for name in ("admin", "Admin_1", f"{CYRILLIC_A}dmin", "ＡＤＭＩＮ", "管理员", "客服 01"):
        assert reserved(name), name
    assert not reserved("adminton") and not reserved("小明")


def test_chinese_with_latin_is_one_alphabet_but_latin_with_cyrillic_is_two():
    assert not mixed_scripts("小明abc") and not mixed_scripts("алёна") and not mixed_scripts("Zoë")
    assert mixed_scripts(f"b{CYRILLIC_A}b") and mixed_scripts(f"小明{CYRILLIC_A}b")


@pytest.mark.parametrize("nickname, code", [
    ("admin", "reserved_nickname"), (f"{CYRILLIC_A}dmin", "reserved_nickname"), ("管理员", "reserved_nickname"),
    (f"b{CYRILLIC_A}rt", "bad_nickname"), (f"alice{RLO}", "bad_nickname"), ("a\u200bb", "bad_nickname"),
    ("nul\x00", "bad_nickname"),
])
def test_refused_nicknames_create_no_player(db, nickname, code):
    with pytest.raises(ServiceError) as refused:
        player_guest(nickname=nickname)

    assert refused.value.code == code
    assert not Player.objects.exists()


def test_a_look_alike_of_an_existing_name_is_refused_but_the_name_itself_is_not(db):
    cyrillic_coco = "\u0441\u043e\u0441\u043e"  # с о с о: all one alphabet, reads "coco"
    player_guest(nickname="Coco")

    with pytest.raises(ServiceError) as refused:
        player_guest(nickname=cyrillic_coco)

    assert refused.value.code == "bad_nickname" and "looks like" in refused.value.message
    assert player_guest(nickname="coco").display_name == "coco"  # the same text is no look-alike
    assert Player.objects.count() == 2


def test_a_bot_is_stored_by_its_number_and_worded_per_language(db):
    from django.utils import translation

    bot = player_bot(number=3)
    assert bot.is_bot and bot.display_name == "3"
    with translation.override("en"):
        assert str(bot) == "Bot 3"
    with translation.override("zh-hans"):
        assert str(bot) == "机器人 3"


@pytest.mark.parametrize("nickname", ["Bot 3", "bot", "机器人3", "机器人 1", "ＢＯＴ_2"])
def test_nobody_passes_for_a_bot(db, nickname):
    with pytest.raises(ServiceError) as refused:
        player_guest(nickname=nickname)
    assert refused.value.code == "reserved_nickname"


def test_room_names_refuse_direction_and_control_characters(alice):
    for name in (f"table{RLO}gnp.exe", "tab\x07le", "a\u2066b"):
        with pytest.raises(ServiceError) as refused:
            room_create(creator=alice, name=name, preset="classic")
        assert refused.value.code == "bad_name"
    assert not Room.objects.exists()


@pytest.mark.parametrize("text", [f"hi{RLO}", "nul\x00byte", "bell\x07", "a\u2067b"])
def test_chat_text_with_controls_is_refused(text):
    assert chat_refusal(text) is not None
    with pytest.raises(BadInput) as refused:
        read('{"type": "chat", "text": ' + _json(text) + ', "client_id": "c"}')

    assert refused.value.code == "bad_text" and refused.value.client_id == "c"


def test_a_lone_surrogate_is_not_even_json():
    assert chat_refusal("\ud800") is not None
    with pytest.raises(BadInput) as refused:
        read('{"type": "chat", "text": "\\ud800", "client_id": "c"}')

    assert refused.value.code == "bad_json"


def test_chat_keeps_emoji_sequences_and_ordinary_text():
    assert chat_refusal("👨\u200d👩\u200d👧 好牌！ well played") is None


def _json(text: str) -> str:
    import json

    return json.dumps(text)
