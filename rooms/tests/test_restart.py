"""Restart safety: everything in memory can go; the database alone carries a hand on.

Play part of a hand through the services, drop every object and every database
connection (as a restarted server would), rebuild the hand from its seed and stored
events, then play on to the end: the result is the one an uninterrupted engine run from
the same seed and actions gives.
"""

import pytest
from django.db import connections

from baohuang import engine
from rooms import selectors
from rooms.models import Hand
from rooms.services import hand_start, player_guest, room_create, seat_take
from rooms.tests.play import actions_of, play_to_end, step


def table(preset):
    players = [player_guest(nickname=name) for name in ("alice", "bob", "charlie", "dave", "erin")]
    room = room_create(creator=players[0], name="restart", preset=preset)
    for index, player in enumerate(players):
        seat_take(room_id=room.pk, player=player, index=index)
    return room


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("preset", ["classic", "qingdao"])
def test_a_hand_rebuilt_from_the_database_plays_on_to_the_same_result(preset):
    hand_id = hand_start(room_id=table(preset).pk).pk
    for _ in range(60):
        step(hand_id)

    connections.close_all()  # the "restart": nothing survives but the database

    hand = Hand.objects.get(pk=hand_id)
    rebuilt = selectors.hand_replay(hand=hand)
    assert rebuilt == hand.state and rebuilt["version"] == 60 == hand.version
    assert engine.from_json(engine.to_json(hand.state)) == hand.state

    hand = play_to_end(hand_id)
    uninterrupted = engine.replay(preset, hand.seed, actions_of(hand), options=hand.options, salt=hand.salt)
    assert hand.result == engine.result(uninterrupted)
    assert hand.state == uninterrupted

