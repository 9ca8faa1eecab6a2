"""The table page's shell: the words it embeds in both languages, the web app manifest
and its icons (static/), and the page's own files — nothing linked from outside."""

import json
import re
from pathlib import Path

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import translation

from rooms.table_text import table_text

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"

pytestmark = pytest.mark.django_db


def flatten(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from flatten(item)
    elif isinstance(value, list):
        for item in value:
            yield from flatten(item)
    else:
        yield value


def test_every_table_word_is_plain_english_and_has_a_chinese_text():
    with translation.override("en"):
        english = list(flatten(table_text()))
    with translation.override("zh-hans"):
        chinese = list(flatten(table_text()))
    han = re.compile("[\u3400-\u9fff]")
    assert not [text for text in english if han.search(text)]  # no Chinese left in the English page
    untranslated = [en for en, zh in zip(english, chinese) if en == zh and re.search("[A-Za-z]{2,}", en)]
    assert not untranslated


def test_a_counted_text_has_its_plural_forms_in_english_and_one_form_in_chinese():
    with translation.override("en"):
        english = table_text()
    with translation.override("zh-hans"):
        chinese = table_text()
    assert english["tributeCards"] == {"one": "%(from)s → %(to)s: %(n)s card", "other": "%(from)s → %(to)s: %(n)s cards"}
    assert chinese["tributeCards"] == {"one": "%(from)s → %(to)s：%(n)s 张", "other": "%(from)s → %(to)s：%(n)s 张"}
    points = english["ledgerLines"]["tribute_points"]
    assert points["one"].endswith("tribute card never paid (someone left the room first), one point")
    assert points["other"].endswith("tribute cards never paid (someone left the room first), one point each")
    assert not [text for text in flatten(english) if re.search(r"\w\(s\)", text)]  # no "card(s)" left


def test_the_manifest_opens_the_table_full_screen_with_icons_shipped_here(client):
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["display"] == "fullscreen" and manifest["orientation"] == "any"
    for icon in manifest["icons"]:
        assert (STATIC / icon["src"]).is_file(), icon
        assert "://" not in icon["src"]
    page = client.get(reverse("rooms:lobby")).content.decode()
    assert 'rel="manifest" href="/static/manifest.webmanifest"' in page


@override_settings(DEBUG=True)
def test_the_table_page_loads_only_its_own_files(client, alice):
    from rooms.services import room_create

    room = room_create(creator=alice, name="t", preset="classic")
    client.force_login(alice)
    page = client.get(reverse("rooms:table", args=[room.pk])).content.decode()
    links = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert links and not [link for link in links if "://" in link or link.startswith("//")]
    for source in [path for path in (STATIC / "js").rglob("*.js") if "tests" not in path.parts]:
        imports = re.findall(r'^import .* from "([^"]+)";$', source.read_text(encoding="utf-8"), re.M)
        assert all(target.startswith(".") for target in imports), source  # relative modules only
        for target in imports:
            assert (source.parent / target).resolve().is_file(), (source, target)
