"""Two clients act on the same version at the same moment: exactly one is applied.

Real threads with their own database connections (transaction=True), so the room row
lock (`select_for_update`) is what keeps them apart. Several rounds, since one round
can come out right by luck even without the lock.
"""

import threading

import pytest
from django.db import connection

from baohuang import engine
from baohuang.errors import ServiceError
from rooms.models import Hand, HandEvent
from rooms.services import hand_act, hand_start, player_guest, room_create, seat_take

ROUNDS = 6


def race(hand: Hand, seat: int, actions: list[dict]) -> dict:
    """Submit the actions from two threads released together; name → "applied" or error code."""
    barrier = threading.Barrier(len(actions))
    outcomes = {}

    def submit(index, action):
        try:
            barrier.wait()
            hand_act(hand_id=hand.pk, seat=seat, action=action, expected_version=hand.version)
            outcomes[index] = "applied"
        except ServiceError as error:
            outcomes[index] = error.code
        except Exception as error:  # e.g. IntegrityError if the lock were missing
            outcomes[index] = type(error).__name__
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=item) for item in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_two_threads_same_expected_version_exactly_one_applies():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises the whole database)")
    players = [player_guest(nickname=name) for name in ("alice", "bob", "charlie", "dave", "erin")]
    room = room_create(creator=players[0], name="race", preset="qingdao")
    for index, player in enumerate(players):
        seat_take(room_id=room.pk, player=player, index=index)
    hand = hand_start(room_id=room.pk)

    for _ in range(ROUNDS):
        hand.refresh_from_db()
        seat = engine.actors(hand.state)[0]
        legal = engine.legal_actions(hand.state, seat)
        pair = [legal[0], legal[-1]] if len(legal) > 1 else [legal[0], legal[0]]
        outcomes = race(hand, seat, pair)

        winner = pair[0] if outcomes[0] == "applied" else pair[1]
        event = HandEvent.objects.get(hand=hand, version=hand.version + 1)
        assert event.action == winner
        assert HandEvent.objects.filter(hand=hand).count() == hand.version + 1
        ended = Hand.objects.get(pk=hand.pk).ended is not None  # e.g. the fifth pass: 黄庄
        # The loser finds the hand moved on, or (when the winner ended it) over.
        assert sorted(outcomes.values()) == ["applied", "no_hand" if ended else "stale_version"]
        if ended:
            break
