"""Rendered in Chinese (the default language), no page shows engine English or raw card
notation (RULES §1 `BJ*`, `4H`, …): the table (its markup and the words catalogue its
script uses), the lobby, a player page with its ledger, and the leaderboard — after a
hand was played, so every ledger line and badge has something to show."""

import json
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from rooms.models import Player, Room
from rooms.services import hand_start
from rooms.tests.play import play_to_end
from scoring.services import ledger_adjust

pytestmark = pytest.mark.django_db

# Card notation: a marked card, a joker, or a rank followed by a suit letter.
NOTATION = re.compile(r"(?<![A-Za-z0-9])(?:BJ\*?|SJ\*?|4H\*|[2-9TJQKA][SHCD])(?![A-Za-z0-9])")
# English: any Latin word (the players and the room have Chinese names here).
ENGLISH = re.compile(r"[A-Za-z]{2,}")
ALLOWED = {"EN", "English", "openskill"}  # the language switch's labels; the rating library's name
PLACEHOLDER = re.compile(r"%\(\w+\)s")
NAMES = ("阿强81", "小红", "老王", "大刘", "晓燕")


class Visible(HTMLParser):
    """The text a reader sees (and attribute texts read aloud), not code or styles."""

    def __init__(self):
        super().__init__()
        self.texts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs:
            if name in ("title", "aria-label", "placeholder", "alt") and value:
                self.texts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.texts.append(data.strip())


def visible_texts(html: str) -> list[str]:
    parser = Visible()
    parser.feed(html)
    return parser.texts


def catalogue_texts(value) -> list[str]:
    """Every sentence of the table's words catalogue (the `table-text` JSON)."""
    if isinstance(value, dict):
        return [text for item in value.values() for text in catalogue_texts(item)]
    if isinstance(value, list):
        return [text for item in value for text in catalogue_texts(item)]
    return [value] if isinstance(value, str) else []


def offending(texts) -> list[str]:
    found = []
    for text in texts:
        text = PLACEHOLDER.sub("", text)
        english = [run for run in ENGLISH.findall(text) if run not in ALLOWED]
        if NOTATION.search(text) or english:
            found.append(text)
    return found


@pytest.fixture
def played(full_table, players, client):
    """A classic hand played to its end at alice … erin's table, alice signed in, and an
    administrator's adjustment in her ledger."""
    room = full_table("classic")
    Room.objects.filter(pk=room.pk).update(name="阿强的牌桌")
    for player, name in zip(players, NAMES):
        Player.objects.filter(pk=player.pk).update(display_name=name)
    play_to_end(hand_start(room_id=room.pk).pk)
    ledger_adjust(player=players[0], points=3, note="补分", room=room)
    client.force_login(players[0])
    return room, players


def test_the_chinese_table_page_and_its_words_have_no_english_and_no_notation(client, played):
    room, _players = played
    html = client.get(reverse("rooms:table", args=[room.pk])).content.decode()
    words = json.loads(re.search(r'<script id="table-text" type="application/json">(.*?)</script>', html,
                                 re.S).group(1))
    assert offending(visible_texts(html)) == []
    assert offending(catalogue_texts(words)) == []


@pytest.mark.parametrize("page", ["lobby", "player", "leaderboard"])
def test_the_chinese_pages_have_no_english_and_no_notation(client, played, page):
    _room, players = played
    url = reverse(f"rooms:{page}", args=[players[0].pk] if page == "player" else [])
    html = client.get(url).content.decode()
    texts = visible_texts(html)
    assert texts and offending(texts) == []


def test_the_check_itself_finds_english_and_notation():
    assert offending(["拿着皇（BJ*）", "本局结束 hand 1, seat 0", "红桃4"]) == ["拿着皇（BJ*）", "本局结束 hand 1, seat 0"]
