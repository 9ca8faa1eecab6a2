"""The rules pages: /rules/ and one per preset, in Chinese (default) and English."""

import pytest

from rooms.forms import PRESET_LABELS
from rooms.rules import sections

ENGLISH = {"accept-language": "en"}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_preset_has_its_section_in_both_languages(language):
    _head, found = sections(language)
    presets = [preset for preset, _text in found if preset]
    assert sorted(presets) == sorted(set(presets))  # one section each
    assert set(PRESET_LABELS) <= set(presets)


def test_the_index_is_chinese_by_default_and_english_on_request(client):
    chinese = client.get("/rules/").content.decode()
    assert "保皇怎么玩" in chinese and "托管" in chinese and "How to play" not in chinese
    english = client.get("/rules/", headers=ENGLISH).content.decode()
    assert "How to play 保皇" in english and "Timers, 托管 and leaving" in english
    for preset in PRESET_LABELS:
        assert f'href="/rules/{preset}/"' in english


@pytest.mark.parametrize("preset", list(PRESET_LABELS))
def test_each_preset_page_shows_its_own_rules_and_the_common_ones(client, preset):
    page = client.get(f"/rules/{preset}/", headers=ENGLISH)
    assert page.status_code == 200
    text = page.content.decode()
    assert f"<code>{preset}</code>" in text  # its section's heading
    others = [other for other in PRESET_LABELS if other != preset and not other.startswith(preset)]
    assert not any(f"<h2><code>{other}</code>" in text for other in others)
    assert "Cards and sets" in text and "Timers, 托管 and leaving" in text


def test_sets_are_drawn_as_cards(client):
    text = client.get("/rules/qingdao/", headers=ENGLISH).content.decode()
    assert 'class="card suit-H red marked mark-baozi"' in text  # the 保子, 4H*
    assert 'class="card joker joker-big black"' in text
    assert "```" not in text and "<script" not in text


def test_an_unknown_preset_has_no_page(client):
    assert client.get("/rules/poker/").status_code == 404


def test_the_lobby_and_the_table_link_the_rules(client, django_user_model):
    assert 'href="/rules/"' in client.get("/").content.decode()
