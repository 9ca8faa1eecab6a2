"""The beat task closing abandoned rooms, run by a real Celery worker."""

from datetime import timedelta

from django.utils import timezone

from rooms import presence
from rooms.models import Room
from rooms.services import player_guest, seat_online
from rooms.tests.abandoned import room_with_debt
from rooms.tests.worker import celery_workers, wait_for, worker  # noqa: F401  (fixtures)
from scoring.models import LedgerEntry, TributeDebt

NAMES = ("alice", "bob", "charlie", "dave", "erin")


def test_the_worker_closes_an_abandoned_room_and_keeps_one_with_a_connected_player(worker):
    players = [player_guest(nickname=name) for name in NAMES]
    abandoned = room_with_debt(players, name="abandoned")
    kept = room_with_debt(players, name="kept")
    # Nobody has been at `abandoned` for 11 minutes; erin is at `kept` with a live socket
    # (the presence sweep, run by the same beat, would take a seat without one offline).
    Room.objects.filter(pk=abandoned.pk).update(unattended_since=timezone.now() - timedelta(minutes=11))
    Room.objects.filter(pk=kept.pk).update(unattended_since=timezone.now() - timedelta(minutes=11))
    presence.socket_alive(room_id=kept.pk, player_id=players[4].pk, socket="test-socket")
    seat_online(room_id=kept.pk, player=players[4], online=True)

    wait_for(lambda: Room.objects.get(pk=abandoned.pk).status == Room.Status.DISSOLVED, seconds=90)

    assert TributeDebt.objects.get(room=abandoned).status == TributeDebt.Status.CONVERTED
    assert LedgerEntry.objects.filter(room=abandoned, kind=LedgerEntry.Kind.TRIBUTE_POINTS).count() == 2
    kept.refresh_from_db()
    assert kept.status == Room.Status.OPEN and kept.unattended_since is None
    assert TributeDebt.objects.get(room=kept).status == TributeDebt.Status.OPEN
    assert "rooms.close_abandoned" in worker.log()
