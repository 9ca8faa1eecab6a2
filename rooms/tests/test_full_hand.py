"""A whole hand played through the services writes the right ledger entries."""

import pytest

from baohuang import engine
from rooms.models import Room
from rooms.services import hand_start
from rooms.tests.play import actions_of, play_to_end
from scoring.models import LedgerEntry
from scoring.selectors import player_total


@pytest.mark.parametrize("preset", ["classic", "lianzhong", "qingdao"])
def test_full_hand_writes_one_hand_score_entry_per_seat(full_table, players, preset):
    room = full_table(preset)
    hand = play_to_end(hand_start(room_id=room.pk).pk)

    expected = engine.result(engine.replay(preset, hand.seed, actions_of(hand), options=hand.options))
    assert hand.result == expected
    assert hand.scored and hand.phase == "ended" and hand.deadline is None
    entries = LedgerEntry.objects.filter(hand=hand).order_by("note")
    assert [(e.player_id, e.kind, e.points) for e in entries] == [
        (player.pk, "hand_score", points) for player, points in zip(players, expected["scores"])
    ]
    room.refresh_from_db()
    assert room.status == Room.Status.OPEN


def test_totals_are_the_sum_of_entries_over_several_hands(full_table, players):
    room = full_table("classic")
    scores = [0] * 5
    for _ in range(2):
        hand = play_to_end(hand_start(room_id=room.pk).pk)
        scores = [total + points for total, points in zip(scores, hand.result["scores"])]
    assert [player_total(player=player) for player in players] == scores
    assert sum(scores) == 0  # classic hand scores are zero-sum (RULES §8)
