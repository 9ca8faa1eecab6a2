"""The table's room panel (rooms/room_info.py) and the score sheet's other ledger lines
(`room_ledger?hand=`): the room's settings in the page's language, the replays of its
finished hands for who may watch them, −40 for leaving and 进贡 turned into points."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from rooms.room_info import room_settings
from rooms.services import hand_start, seat_leave
from rooms.tests.play import play_to_end, step
from scoring.models import TributeDebt
from tests.live import session_key

pytestmark = pytest.mark.django_db


def settings_of(room) -> dict:
    return {row["key"]: row["value"] for row in room_settings(room)}


def signed_in(player) -> Client:
    client = Client()
    client.cookies["sessionid"] = session_key(player)
    return client


def test_the_settings_shown_are_the_rooms_options_and_only_those_its_preset_has(full_table):
    lianzhong = full_table("lianzhong", timers={"play": 30, "bid": 12, "declare": 6}, grab_solo=True,
                           card_counter=False, trustee_level="expert", allow_spectators=False, public_records=True)
    with translation.override("en"):
        shown = settings_of(lianzhong)
    assert shown == {"preset": "Lianzhong 皇保保皇", "timer_play": "30s", "timer_bid": "12s", "timer_declare": "6s",
                     "ready_time": "30s", "hold_sixes": "On", "grab_solo": "On", "card_counter": "Off", "trustee_level": "Expert",
                     "trustee_delay": "1s", "allow_bots": "On", "allow_spectators": "Off", "public_records": "On"}


def test_the_settings_in_chinese_and_no_sixes_or_grab_where_the_preset_has_none(full_table):
    room = full_table("qingdao")
    with translation.override("zh-hans"):
        rows = room_settings(room)
    keys = [row["key"] for row in rows]
    assert "hold_sixes" not in keys and "grab_solo" not in keys
    shown = {row["key"]: row for row in rows}
    assert shown["preset"]["value"] == "青岛保皇" and shown["card_counter"] == {
        "key": "card_counter", "label": "记牌器", "value": "开"}
    assert shown["timer_play"]["value"] == "20 秒"
    assert not any(re.search(r"[A-Za-z]{2,}", row["label"] + row["value"]) for row in rows)


def test_a_room_stored_before_an_option_existed_shows_its_default(full_table):
    room = full_table("classic")
    room.options = {key: value for key, value in room.options.items() if key not in ("card_counter", "public_records")}
    with translation.override("en"):
        shown = settings_of(room)
    assert shown["card_counter"] == "On" and shown["public_records"] == "Off"


def test_the_table_page_lists_the_settings_and_the_replays_its_viewer_may_watch(full_table, players):
    room = full_table("classic")
    hand = play_to_end(hand_start(room_id=room.pk).pk)
    running = hand_start(room_id=room.pk)  # the next hand: running, never listed
    page = signed_in(players[1]).get(reverse("rooms:table", args=[room.pk])).content.decode()
    assert 'id="room-settings"' in page and 'data-option="timer_play"' in page
    assert reverse("rooms:hand_replay", args=[hand.pk]) in page
    assert reverse("rooms:hand_replay", args=[running.pk]) not in page

    visitor = Client().get(reverse("rooms:table", args=[room.pk])).content.decode()
    assert 'data-option="preset"' in visitor  # the settings are public
    assert reverse("rooms:hand_replay", args=[hand.pk]) not in visitor  # the record is not (no public records)


def test_a_public_room_lists_its_replays_to_a_visitor(full_table):
    room = full_table("classic", public_records=True)
    hand = play_to_end(hand_start(room_id=room.pk).pk)
    visitor = Client().get(reverse("rooms:table", args=[room.pk])).content.decode()
    assert reverse("rooms:hand_replay", args=[hand.pk]) in visitor


def test_the_sheet_reads_the_minus_40_and_the_tribute_turned_into_points_as_lines_of_their_own(full_table, players):
    room = full_table("qingdao")
    hand = hand_start(room_id=room.pk)
    for _ in range(5):
        step(hand.pk)
    seat_leave(room_id=room.pk, player=players[1])  # bob forces an exit mid-hand: −40, 托管 to the end
    hand = play_to_end(hand.pk)  # a seat still under 托管 at the end: the room is dissolved
    debts = list(TributeDebt.objects.filter(hand=hand).order_by("id"))
    assert debts and all(debt.status == TributeDebt.Status.CONVERTED for debt in debts)

    url = reverse("rooms:room_ledger", args=[room.pk])
    ledger = signed_in(players[0]).get(url, {"hand": hand.pk}).json()
    assert ledger["lines"] == [{"kind": "leave_penalty", "seat": 1, "points": -40}] + [
        {"kind": "tribute_points", "from": debt.payer_seat, "to": debt.receiver_seat, "cards": debt.cards}
        for debt in debts]
    totals = {row["id"]: row["points"] for row in ledger["players"]}
    bob_score = hand.result["scores"][1]
    bob_tribute = sum(debt.cards for debt in debts if debt.receiver_seat == 1) - sum(
        debt.cards for debt in debts if debt.payer_seat == 1)
    assert totals[players[1].pk] == bob_score - 40 + bob_tribute

    assert signed_in(players[0]).get(url).json()["lines"] == []  # no hand asked
    assert signed_in(players[0]).get(url, {"hand": "x1"}).json()["lines"] == []


def test_a_running_hand_has_no_lines_yet(full_table, players):
    room = full_table("classic")
    running = hand_start(room_id=room.pk)
    for _ in range(3):
        step(running.pk)
    seat_leave(room_id=room.pk, player=players[2])
    url = reverse("rooms:room_ledger", args=[room.pk])
    assert signed_in(players[0]).get(url, {"hand": running.pk}).json()["lines"] == []  # not ended yet
    play_to_end(running.pk)
    assert signed_in(players[0]).get(url, {"hand": running.pk}).json()["lines"] == [
        {"kind": "leave_penalty", "seat": 2, "points": -40}]


def test_the_replay_links_of_the_room_panel_and_the_player_page_open_the_replay(full_table, players):
    room = full_table("classic")
    hand = play_to_end(hand_start(room_id=room.pk).pk)
    bob = signed_in(players[1])
    for page in (reverse("rooms:table", args=[room.pk]), reverse("rooms:player", args=[players[0].pk])):
        links = set(re.findall(r'href="(/hands/\d+/)"', bob.get(page).content.decode()))
        assert links == {reverse("rooms:hand_replay", args=[hand.pk])}, page
        for link in links:
            replay = bob.get(link)
            assert replay.status_code == 200 and 'id="replay"' in replay.content.decode()
    assert Client().get(reverse("rooms:hand_replay", args=[hand.pk])).status_code == 403  # not for strangers
