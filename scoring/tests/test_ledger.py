"""The ledger only grows; a player's total is the sum of their entries."""

import pytest

from baohuang.errors import ServiceError
from scoring.models import AppendOnly, LedgerEntry
from scoring.selectors import player_total
from scoring.services import ledger_adjust


def test_an_entry_cannot_be_edited_or_deleted(alice):
    entry = ledger_adjust(player=alice, points=3, note="welcome")
    entry.points = 300
    with pytest.raises(AppendOnly):
        entry.save()
    with pytest.raises(AppendOnly):
        entry.delete()
    with pytest.raises(AppendOnly):
        LedgerEntry.objects.filter(player=alice).update(points=0)
    with pytest.raises(AppendOnly):
        LedgerEntry.objects.filter(player=alice).delete()
    assert LedgerEntry.objects.get(pk=entry.pk).points == 3


def test_total_is_the_sum_of_entries(alice, bob):
    ledger_adjust(player=alice, points=10, note="a")
    ledger_adjust(player=alice, points=-4, note="b")
    ledger_adjust(player=bob, points=-1, note="c")
    assert player_total(player=alice) == 6
    assert player_total(player=bob) == -1


def test_a_player_without_entries_has_zero(alice):
    assert player_total(player=alice) == 0


@pytest.mark.parametrize("points, note, code", [(0, "x", "bad_points"), (5, "  ", "note_required")])
def test_an_adjustment_needs_points_and_a_reason(alice, points, note, code):
    with pytest.raises(ServiceError) as error:
        ledger_adjust(player=alice, points=points, note=note)
    assert error.value.code == code
