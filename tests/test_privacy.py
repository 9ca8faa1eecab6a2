"""Who sees what, for every page and endpoint with private parts: anonymous, another
player, the owner (alice, who played) and staff. A refusal changes nothing and says why."""

import pytest

from api.tests.conftest import record_to_end
from rooms.models import Player
from rooms.services import hand_start, player_guest
from scoring.services import ledger_adjust

pytestmark = pytest.mark.django_db
VIEWERS = ("anonymous", "other", "owner", "staff")
NOTE = "admin carol: refund after a crash"


@pytest.fixture
def world(full_table, players):
    played = full_table("classic")
    for _ in range(10):  # 黄庄 (a void deal) is rare: deal again
        ended = record_to_end(hand_start(room_id=played.pk).pk)
        if ended.scored:
            break
    ledger_adjust(player=players[0], points=7, note=NOTE)
    private = full_table("lianzhong", allow_spectators=False)
    running = hand_start(room_id=private.pk)
    gone = player_guest(nickname="gone")
    ledger_adjust(player=gone, points=3, note="test")
    gone.is_active = False
    gone.save()
    users = {"anonymous": None, "other": player_guest(nickname="frank"), "owner": players[0],
             "staff": Player.objects.create_user(username="sam", password="x", is_staff=True)}
    return {"ended": ended, "running": running, "private": private, "alice": players[0], "gone": gone,
            "users": users}


def as_viewer(client, world, viewer):
    if world["users"][viewer] is not None:
        client.force_login(world["users"][viewer])
    return client


@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_players_ledger_notes_are_for_the_owner_and_staff(client, world, viewer):
    as_viewer(client, world, viewer)
    alice = world["alice"].pk

    page = client.get(f"/players/{alice}/")
    profile = client.get(f"/api/players/{alice}/")
    ledger = client.get(f"/api/players/{alice}/ledger/")

    private = viewer in ("owner", "staff")
    assert page.status_code == profile.status_code == 200
    assert (NOTE in page.content.decode()) is private
    assert NOTE not in profile.content.decode()
    assert ledger.status_code == {"anonymous": 401, "other": 403}.get(viewer, 200)
    assert (NOTE in ledger.content.decode()) is private


@pytest.mark.parametrize("viewer", VIEWERS)
def test_an_ended_hands_record_and_replay_are_for_its_players_and_staff(client, world, viewer):
    as_viewer(client, world, viewer)
    hand = world["ended"].pk

    record = client.get(f"/api/hands/{hand}/record/")
    replay = client.get(f"/hands/{hand}/")

    assert record.status_code == {"anonymous": 401, "other": 403}.get(viewer, 200)
    assert replay.status_code == {"anonymous": 403, "other": 403}.get(viewer, 200)
    assert ('"seed"' in record.content.decode()) is (viewer in ("owner", "staff"))


@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_room_without_spectators_shows_its_play_to_its_players_and_staff(client, world, viewer):
    as_viewer(client, world, viewer)
    hand, room = world["running"].pk, world["private"].pk

    answers = [client.get(url).status_code for url in
               (f"/api/hands/{hand}/", f"/api/hands/{hand}/events/", f"/rooms/{room}/ledger/")]

    expected = {"anonymous": [401, 401, 403], "other": [403, 403, 403]}.get(viewer, [200, 200, 200])
    assert answers == expected


@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_deactivated_player_has_no_page_no_profile_and_no_rank(client, world, viewer):
    as_viewer(client, world, viewer)
    gone = world["gone"]

    assert client.get(f"/players/{gone.pk}/").status_code == 404
    assert client.get(f"/api/players/{gone.pk}/").status_code == 404
    ranked = [row["player"]["id"] for row in client.get("/api/leaderboard/").json()["results"]]
    assert world["alice"].pk in ranked and gone.pk not in ranked and "gone" not in client.get("/leaderboard/").content.decode()
