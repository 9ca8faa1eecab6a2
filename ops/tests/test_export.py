"""`manage.py export_player`: a player's ledger, hands, chat and moderation as JSON."""

import json

import pytest
from django.core.management import CommandError, call_command

from rooms.models import Player
from rooms.services import chat_say, hand_start, player_moderate
from rooms.tests.play import play_to_end, step


@pytest.mark.django_db(transaction=True)  # chat and scoring after commit, as in play
def test_export_holds_the_player_s_ledger_hands_chat_and_moderation(full_table, players, tmp_path, capsys):
    alice, bob = players[0], players[1]
    room = full_table("classic")
    finished = play_to_end(hand_start(room_id=room.pk).pk)
    running = hand_start(room_id=room.pk)
    step(running.pk)
    chat_say(room_id=room.pk, player=alice, text="好牌")
    chat_say(room_id=room.pk, player=bob, text="not alice's")
    staff = Player.objects.create_user(username="olga", password="x", is_staff=True)
    player_moderate(player=alice, staff=staff, action="mute", minutes=5, reason="shouting")

    call_command("export_player", str(alice.pk), output=str(tmp_path / "alice.json"))
    data = json.loads((tmp_path / "alice.json").read_text(encoding="utf-8"))

    assert data["player"]["id"] == alice.pk and data["player"]["display_name"] == "alice"
    assert [entry["hand"] for entry in data["ledger"]] == [finished.pk]
    assert [entry["points"] for entry in data["ledger"]] == [finished.result["scores"][0]]
    done, now = data["hands"]
    assert done["id"] == finished.pk and done["seat"] == 0 and done["seed"] == finished.seed
    assert done["actions"] and {action["action"]["seat"] for action in done["actions"]} == {0}
    assert now == {key: now[key] for key in ("id", "room", "room_name", "number", "preset", "seat", "started",
                                              "ended")}  # running: no seed, result or actions
    assert [line["text"] for line in data["chat"]] == ["好牌"]
    assert [(entry["action"], entry["reason"]) for entry in data["moderation"]] == [("mute", "shouting")]


def test_an_unknown_player_is_an_error(db):
    with pytest.raises(CommandError, match="no player"):
        call_command("export_player", "nobody")
