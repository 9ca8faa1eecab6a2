"""The replay page of a finished hand: who may watch, and that it ends in the stored result."""

import json
import re

import pytest
from django.contrib.auth import get_user_model

from baohuang.engine.fairness import commitment
from rooms.services import hand_start
from rooms.tests.play import play_to_end

pytestmark = pytest.mark.django_db


def config_of(response) -> dict:
    found = re.search(r'<script id="replay-config" type="application/json">(.*?)</script>',
                      response.content.decode(), re.S)
    return json.loads(found.group(1))


@pytest.fixture
def ended(full_table):
    return play_to_end(hand_start(room_id=full_table("qingdao").pk).pk)


@pytest.fixture
def frank(db):
    return get_user_model().objects.create_user("frank", display_name="frank")


@pytest.mark.parametrize("preset", ["classic", "lianzhong", "qingdao"])
def test_a_player_replays_the_hand_to_its_stored_result(client, full_table, players, preset):
    hand = play_to_end(hand_start(room_id=full_table(preset).pk).pk)
    client.force_login(players[3])
    response = client.get(f"/hands/{hand.pk}/")
    assert response.status_code == 200
    config = config_of(response)
    steps = config["steps"]
    assert len(steps) == hand.version + 1 and steps[0]["event"] is None
    assert steps[-1]["view"]["result"] == hand.result == config["stored"]
    assert steps[-1]["hands"] == hand.state["hands"]
    assert config["names"] == ["alice", "bob", "charlie", "dave", "erin"]
    fair = config["fair"]
    assert fair["commitment"] == commitment(hand.seed, hand.salt) and fair["commitment_ok"]
    assert (fair["seed"], fair["salt"]) == (str(hand.seed), hand.salt)
    assert fair["deal_ok"] is (None if preset == "qingdao" else True)


def test_others_may_not_watch_unless_the_room_keeps_public_records(client, full_table, ended, frank):
    assert client.get(f"/hands/{ended.pk}/").status_code == 403  # anonymous
    client.force_login(frank)
    assert client.get(f"/hands/{ended.pk}/").status_code == 403
    frank.is_staff = True
    frank.save()
    assert client.get(f"/hands/{ended.pk}/").status_code == 200
    public = play_to_end(hand_start(room_id=full_table("classic", public_records=True).pk).pk)
    client.logout()
    assert client.get(f"/hands/{public.pk}/").status_code == 200


def test_a_running_hand_is_never_replayable(client, full_table, players):
    hand = hand_start(room_id=full_table("classic", public_records=True).pk)
    client.force_login(players[0])
    assert client.get(f"/hands/{hand.pk}/").status_code == 404
    assert hand.salt not in client.get(f"/rooms/{hand.room_id}/").content.decode()
