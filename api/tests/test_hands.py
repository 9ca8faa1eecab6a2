"""Hands: a running hand shows only public information; an ended hand's record is for its players."""

import pytest

from baohuang import engine
from baohuang.engine.bidding import SILENT
from api.tests.conftest import play_some, play_to_end
from rooms.models import HandEvent
from rooms.services import hand_start, player_guest
from scoring.models import LedgerEntry


@pytest.fixture
def running_hand(full_table):
    room = full_table("lianzhong")
    return play_some(hand_start(room_id=room.pk).pk, 12)


def test_a_running_hand_shows_the_spectators_view_and_no_cards(api, running_hand):
    body = api.get(f"/api/hands/{running_hand.pk}/").json()

    assert body["view"] == engine.view(running_hand.state, None)
    assert "hand" not in body["view"] and body["view"]["seat"] is None
    assert body["ended"] is None and body["record_visible"] is False
    assert [entry["seat"] for entry in body["players"]] == [0, 1, 2, 3, 4]


def test_a_running_hands_events_are_redacted_for_spectators(api, running_hand):
    body = api.get(f"/api/hands/{running_hand.pk}/events/").json()

    stored = list(HandEvent.objects.filter(hand=running_hand).order_by("version"))
    assert [row["version"] for row in body] == [event.version for event in stored] == list(range(1, 13))
    assert [row["event"] for row in body] == [engine.event_view(event.event, None) for event in stored]
    for row, event in zip(body, stored):
        if event.event.get("what") in SILENT:  # 暗保 / 暗独 / no answer look alike from outside
            assert "what" not in row["event"]
        assert "hand" not in (row["event"] or {})


def test_events_since_a_version_are_only_the_later_ones(api, running_hand):
    body = api.get(f"/api/hands/{running_hand.pk}/events/", {"since": 10}).json()

    assert [row["version"] for row in body] == [11, 12]


def test_a_running_hand_has_no_record_yet_even_for_its_players(api, players, running_hand):
    api.force_login(players[0])

    response = api.get(f"/api/hands/{running_hand.pk}/record/")

    assert response.status_code == 409 and response.json()["code"] == "hand_running"


def test_an_unknown_hand_is_not_found(api, db):
    for suffix in ("", "events/", "record/"):
        assert api.get(f"/api/hands/987654/{suffix}").status_code == 404


@pytest.fixture
def ended(ended_hand):
    return ended_hand("classic")


def test_an_ended_hands_record_replays_exactly_for_its_players(api, players, ended):
    api.force_login(players[2])

    response = api.get(f"/api/hands/{ended.pk}/record/")

    assert response.status_code == 200
    record = response.json()
    actions = [row["action"] for row in record["actions"]]
    assert engine.replay(record["preset"], int(record["seed"]), actions, options=record["options"],
                         salt=record["salt"]) == ended.state
    assert record["salt"] == ended.salt != ""
    dealt = engine.new_hand("classic", ended.seed, options=ended.options)
    assert record["deal"] == {"hands": dealt["hands"]}
    assert [row["version"] for row in record["actions"]] == list(range(1, ended.version + 1))
    assert record["result"]["places"] == ended.result["places"]
    scores = dict(LedgerEntry.objects.filter(hand=ended).values_list("player_id", "points"))
    assert [scores[entry["player"]["id"]] for entry in record["players"]] == record["result"]["scores"]
    assert api.get(f"/api/hands/{ended.pk}/").json()["record_visible"] is True


def test_an_ended_hands_record_is_refused_to_others(api, ended):
    stranger = player_guest(nickname="frank")

    anonymous = api.get(f"/api/hands/{ended.pk}/record/")
    api.force_login(stranger)
    other = api.get(f"/api/hands/{ended.pk}/record/")

    assert anonymous.status_code == 401
    assert other.status_code == 403 and other.json()["code"] == "permission_denied"


def test_an_ended_hand_shows_its_result_to_spectators(api, ended):
    body = api.get(f"/api/hands/{ended.pk}/").json()

    assert body["view"]["result"] == ended.result and body["record_visible"] is False


def test_a_room_with_public_records_shows_them_to_everyone(api, ended_hand):
    hand = ended_hand("qingdao", public_records=True)

    record = api.get(f"/api/hands/{hand.pk}/record/").json()

    dealt = engine.new_hand("qingdao", hand.seed, options=hand.options)
    assert record["deal"] == {"hands": dealt["hands"], "tribute_paid": [], "threes": dealt["threes"]}
    assert record["result"]["tribute"] == hand.result["tribute"]


def test_each_seats_ledger_entry_records_whether_its_side_won(full_table):
    room = full_table("lianzhong")  # the shortest deck
    ended = play_to_end(hand_start(room_id=room.pk).pk)  # the real path: every move through hand_act
    result = ended.result
    side = {result["emperor"], result["guard"]} - {None}
    expected = {player: (seat in side) == (result["outcome"] == "win") and result["outcome"] != "draw"
                for seat, player in enumerate(ended.players)}

    entries = LedgerEntry.objects.filter(hand=ended, kind=LedgerEntry.Kind.HAND_SCORE)

    assert {entry.player_id: entry.won for entry in entries} == expected
    assert {entry.preset for entry in entries} == {"lianzhong"}


def test_a_rooms_hands_are_listed_newest_first(api, ended):
    second = hand_start(room_id=ended.room_id)

    rows = api.get(f"/api/rooms/{ended.room_id}/hands/").json()["results"]

    assert [(row["id"], row["phase"]) for row in rows] == [(second.pk, "bidding"), (ended.pk, "ended")]
