"""Writes to the ledger and the tribute debts.

Room services call these inside their own transaction (with the room row locked); the
functions are atomic themselves too, so they are safe to call alone (admin adjustments).
"""

from django.db import connection, transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone

from rooms.errors import ServiceError
from scoring.models import LedgerEntry, LedgerTotal, TributeDebt

LEAVE_PENALTY = -40  # RULES §8 (seed 002): leaving once a hand has started, or being kicked


def _entry(*, player_id, kind, points, room=None, hand=None, note="", won=None) -> LedgerEntry:
    # `preset` and `won` are copied onto the entry so the leaderboard aggregates one table.
    # Callers add the entries they wrote to the totals with `totals_add`.
    preset = hand.preset if hand is not None else room.preset if room is not None else ""
    return LedgerEntry.objects.create(
        player_id=player_id, kind=kind, points=points, room=room, hand=hand, note=note, preset=preset, won=won
    )


def totals_add(entries: list[LedgerEntry]) -> None:
    """Add entries to their players' `LedgerTotal` rows (an upsert that adds, per row).

    Rows are touched in (player, preset) order, so two calls that write totals of the same
    players lock them in the same order and do not deadlock each other. (A transaction
    making two calls — a kick between hands: the penalty, then the kicked player's debts —
    can still meet another in the opposite order; PostgreSQL then aborts one of the two
    and its client retries, as after any refused write.)
    """
    sums: dict[tuple[int, str], list[int]] = {}
    for entry in entries:
        row = sums.setdefault((entry.player_id, entry.preset), [0, 0, 0])
        row[0] += entry.points
        row[1] += entry.kind == LedgerEntry.Kind.HAND_SCORE
        row[2] += entry.won is True
    table = LedgerTotal._meta.db_table
    with connection.cursor() as cursor:
        for (player_id, preset), (points, hands, wins) in sorted(sums.items()):
            cursor.execute(
                f"INSERT INTO {table} (player_id, preset, points, hands, wins) VALUES (%s, %s, %s, %s, %s) "
                f"ON CONFLICT (player_id, preset) DO UPDATE SET points = {table}.points + excluded.points, "
                f"hands = {table}.hands + excluded.hands, wins = {table}.wins + excluded.wins",
                [player_id, preset, points, hands, wins],
            )


@transaction.atomic
def totals_rebuild() -> int:
    """Recompute every `LedgerTotal` from the ledger (after a bulk import); returns the row count."""
    LedgerTotal.objects.all().delete()
    rows = (LedgerEntry.objects.order_by().values("player_id", "preset")
            .annotate(sum_points=Sum("points"), sum_hands=Count("id", filter=Q(kind=LedgerEntry.Kind.HAND_SCORE)),
                      sum_wins=Count("id", filter=Q(won=True))))
    totals = [LedgerTotal(player_id=row["player_id"], preset=row["preset"], points=row["sum_points"],
                          hands=row["sum_hands"], wins=row["sum_wins"]) for row in rows]
    LedgerTotal.objects.bulk_create(totals, batch_size=2000)
    return len(totals)


def seat_won(result: dict | None, seat: int) -> bool | None:
    """Whether `seat`'s side won the hand (None when the result names no outcome).

    The emperor side (皇帝 and 保皇派: emperor and guard, or the emperor alone) wins on
    outcome "win"; the rebels (造反派) win on "lose"; on a draw nobody wins.
    """
    if not result or result.get("outcome") not in ("win", "draw", "lose"):
        return None
    emperor_side = {result.get("emperor"), result.get("guard")} - {None}
    if result["outcome"] == "draw":
        return False
    return (seat in emperor_side) == (result["outcome"] == "win")


@transaction.atomic
def hand_score(*, hand, scores: list[int]) -> list[LedgerEntry]:
    """One `hand_score` entry per seat, for the player dealt into it."""
    if len(scores) != len(hand.players):
        raise ValueError(f"{len(scores)} scores for {len(hand.players)} seats")
    entries = [
        _entry(
            player_id=player_id,
            kind=LedgerEntry.Kind.HAND_SCORE,
            points=points,
            room=hand.room,
            hand=hand,
            note=f"hand {hand.number}, seat {seat}",
            won=seat_won(hand.result, seat),
        )
        for seat, (player_id, points) in enumerate(zip(hand.players, scores))
    ]
    totals_add(entries)
    return entries


@transaction.atomic
def leave_penalty(*, player, room, hand, note: str) -> LedgerEntry:
    entry = _entry(
        player_id=player.pk, kind=LedgerEntry.Kind.LEAVE_PENALTY, points=LEAVE_PENALTY, room=room, hand=hand, note=note
    )
    totals_add([entry])
    return entry


@transaction.atomic
def ledger_adjust(*, player, points: int, note: str, room=None) -> LedgerEntry:
    """An administrator's correction: a new entry, never an edit of an old one."""
    if not isinstance(points, int) or isinstance(points, bool) or points == 0:
        raise ServiceError("bad_points", "An adjustment must be a non-zero whole number of points.")
    if not note.strip():
        raise ServiceError("note_required", "Say why the points are adjusted.")
    entry = _entry(player_id=player.pk, kind=LedgerEntry.Kind.ADJUSTMENT, points=points, room=room, note=note.strip())
    totals_add([entry])
    return entry


@transaction.atomic
def debts_create(*, hand, debts: list[dict]) -> list[TributeDebt]:
    """Record the 进贡 owed for the next hand from the engine's `result["tribute"]`."""
    return [
        TributeDebt.objects.create(
            room=hand.room,
            hand=hand,
            payer_id=hand.players[debt["from"]],
            receiver_id=hand.players[debt["to"]],
            payer_seat=debt["from"],
            receiver_seat=debt["to"],
            cards=debt["cards"],
            kind=debt["kind"],
        )
        for debt in debts
        if debt["cards"] > 0
    ]


@transaction.atomic
def debts_mark_paid(*, debts: list[TributeDebt], hand) -> None:
    """The deal of `hand` paid these debts in cards (the engine moved the cards)."""
    now = timezone.now()
    for debt in debts:
        debt.status = TributeDebt.Status.PAID
        debt.paid_in = hand
        debt.settled = now
        debt.save(update_fields=["status", "paid_in", "settled"])


@transaction.atomic
def debts_convert(*, room, player=None) -> list[TributeDebt]:
    """Convert open debts to points (seed 003: 一张贡折合成一分).

    Those of `player` (as payer or receiver) when a player leaves the room, or every open
    debt of the room when it is dissolved. Each owed card is one point from payer to
    receiver: a `tribute_points` entry of −n and one of +n.
    """
    # The caller holds the room's row lock, which serialises every write to its debts.
    debts = TributeDebt.objects.filter(room=room, status=TributeDebt.Status.OPEN).select_related("hand")
    if player is not None:
        debts = debts.filter(Q(payer=player) | Q(receiver=player))
    converted, entries = [], []
    now = timezone.now()
    for debt in debts.order_by("id"):
        note = f"进贡 from hand {debt.hand.number}: {debt.cards} card(s) converted to points"
        entries.append(_entry(player_id=debt.payer_id, kind=LedgerEntry.Kind.TRIBUTE_POINTS, points=-debt.cards,
                              room=room, hand=debt.hand, note=note))
        entries.append(_entry(player_id=debt.receiver_id, kind=LedgerEntry.Kind.TRIBUTE_POINTS, points=debt.cards,
                              room=room, hand=debt.hand, note=note))
        debt.status = TributeDebt.Status.CONVERTED
        debt.settled = now
        debt.save(update_fields=["status", "settled"])
        converted.append(debt)
    totals_add(entries)
    return converted
