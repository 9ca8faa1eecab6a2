"""Reads of the ledger and the tribute debts."""

from django.db.models import Sum

from scoring.models import LedgerEntry, TributeDebt


def player_total(*, player) -> int:
    """A player's points: the sum of their ledger entries (RULES §8)."""
    return LedgerEntry.objects.filter(player=player).aggregate(total=Sum("points"))["total"] or 0


def player_entries(*, player, limit: int = 50):
    return LedgerEntry.objects.filter(player=player).select_related("room", "hand")[:limit]


def room_totals(*, room) -> dict[int, int]:
    """Points won or lost in one room, by player id."""
    rows = LedgerEntry.objects.filter(room=room).values("player_id").annotate(total=Sum("points"))
    return {row["player_id"]: row["total"] for row in rows}


def open_debts(*, room):
    return TributeDebt.objects.filter(room=room, status=TributeDebt.Status.OPEN).order_by("id")
