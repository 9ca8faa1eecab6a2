"""Writes to the ledger, the tribute debts and the skill ratings.

Room services call these inside their own transaction (with the room row locked); the
functions are atomic themselves too, so they are safe to call alone (admin adjustments).
Those the end of a hand calls (`hand_score`, `hand_rate`, `debts_create`) make no savepoint
inside the caller's transaction (`savepoint=False`): nothing there recovers from their errors,
which roll back the whole move, as they must, and the savepoints were four more round trips
in the transaction that holds the room's lock.
"""

import math

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone

from baohuang.errors import ServiceError
from scoring import skill
from scoring.models import LedgerEntry, LedgerTotal, Rating, RatingChange, TributeDebt

LEAVE_PENALTY = -40  # RULES §8 (seed 002): leaving once a hand has started, or being kicked


def _entry(*, player_id, kind, points, room=None, hand=None, note="", won=None, staff=None) -> LedgerEntry:
    """A new entry, not stored yet (`_entries_write` stores a call's entries together)."""
    # `preset` and `won` are copied onto the entry so the leaderboard aggregates one table.
    preset = hand.preset if hand is not None else room.preset if room is not None else ""
    entry = LedgerEntry(player_id=player_id, kind=kind, points=points, room=room, hand=hand, note=note, preset=preset,
                        won=won, staff=staff)
    if room is None and hand is not None:
        entry.room_id = hand.room_id  # the hand's room, with no read of it
    return entry


def _entries_write(entries: list[LedgerEntry]) -> list[LedgerEntry]:
    """Store new entries in one `INSERT` and add them to their players' totals."""
    LedgerEntry.objects.bulk_create(entries)
    totals_add(entries)
    return entries


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
    _upsert(table, ("points", "hands", "wins"), [(*key, *sum_row) for key, sum_row in sorted(sums.items())],
            f"points = {table}.points + excluded.points, hands = {table}.hands + excluded.hands, "
            f"wins = {table}.wins + excluded.wins")


def _upsert(table: str, columns: tuple[str, ...], rows: list[tuple], updates: str) -> None:
    """One statement: insert `rows` of (player_id, preset, *columns) into `table`, or, where
    that player and preset have a row, apply `updates` to it; the rows in the order given."""
    if not rows:
        return
    names = ("player_id", "preset", *columns)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(names)}) VALUES "
            f"{', '.join(['(' + ', '.join(['%s'] * len(names)) + ')'] * len(rows))} "
            f"ON CONFLICT (player_id, preset) DO UPDATE SET {updates}",
            [value for row in rows for value in row],
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


@transaction.atomic(savepoint=False)
def hand_score(*, hand, scores: list[int]) -> list[LedgerEntry]:
    """One `hand_score` entry per seat, for the player dealt into it."""
    if len(scores) != len(hand.players):
        raise ValueError(f"{len(scores)} scores for {len(hand.players)} seats")
    entries = _entries_write([
        _entry(
            player_id=player_id,
            kind=LedgerEntry.Kind.HAND_SCORE,
            points=points,
            hand=hand,
            note=f"hand {hand.number}, seat {seat}",
            won=seat_won(hand.result, seat),
        )
        for seat, (player_id, points) in enumerate(zip(hand.players, scores))
    ])
    hand_rate(hand=hand)
    return entries


def _rated(hand, bots: set[int]) -> tuple[list[int], list[int]] | None:
    """The sides of `hand` to rate (emperor side, rebels: seat lists), or None if not rated.

    Rated: every scored hand with an outcome and at least one human. Not rated: void hands
    (no sides), hands ended with every seat under 托管 (not scored, RULES §8) and hands of
    bots only. [decision] In a hand with humans and bots, the bots are rated too, as their
    own entries (so beating strong bots counts more than beating weak ones); no board shows them.
    """
    teams = skill.sides(hand.result)
    if not hand.scored or teams is None or set(hand.players) <= bots:
        return None
    return teams


def _rate_seats(hand, teams, skill_of) -> dict[int, skill.Skill]:
    emperor_side, rebels = teams
    new_emperor_side, new_rebels = skill.rate([skill_of(hand.players[seat]) for seat in emperor_side],
                                              [skill_of(hand.players[seat]) for seat in rebels], hand.result["outcome"])
    return dict(zip(emperor_side + rebels, new_emperor_side + new_rebels))


def _bots(player_ids) -> set[int]:
    return set(get_user_model().objects.filter(pk__in=player_ids, is_bot=True).values_list("pk", flat=True))


@transaction.atomic(savepoint=False)
def hand_rate(*, hand) -> list[RatingChange]:
    """Move the skill ratings of a scored hand's players (`scoring.skill`); [] if not rated.

    The players' `Rating` rows are created if new, then locked in player order, so two hands
    ending at once with a player in common rate one after the other.
    """
    teams = _rated(hand, _bots(hand.players))
    if teams is None:
        return []
    Rating.objects.bulk_create(
        [Rating(player_id=player_id, preset=hand.preset, mu=skill.NEW.mu, sigma=skill.NEW.sigma,
                ordinal=skill.NEW.ordinal) for player_id in sorted(hand.players)], ignore_conflicts=True)
    ratings = {rating.player_id: rating for rating in
               Rating.objects.select_for_update().filter(player_id__in=hand.players, preset=hand.preset)
               .order_by("player_id")}
    after = _rate_seats(hand, teams, lambda player_id: skill.Skill(ratings[player_id].mu, ratings[player_id].sigma))
    changes = []
    for seat, player_id in enumerate(hand.players):
        rating = ratings[player_id]
        changes.append(RatingChange(hand=hand, player_id=player_id, preset=hand.preset, seat=seat,
                                    mu_before=rating.mu, sigma_before=rating.sigma,
                                    mu=after[seat].mu, sigma=after[seat].sigma))
        rating.mu, rating.sigma, rating.ordinal = after[seat].mu, after[seat].sigma, after[seat].ordinal
        rating.hands += 1
    _ratings_write(ratings.values())
    return RatingChange.objects.bulk_create(changes)


def _ratings_write(ratings) -> None:
    """Store locked `Rating` rows' new values in one statement: an upsert whose rows all
    exist. (Five `save`s cost ten times its CPU on PostgreSQL, and `bulk_update`, which
    builds a `CASE` per column, 2.5 times theirs.)"""
    moment = connection.ops.adapt_datetimefield_value(timezone.now())
    columns = ("mu", "sigma", "ordinal", "hands", "updated")
    _upsert(Rating._meta.db_table, columns,
            [(rating.player_id, rating.preset, rating.mu, rating.sigma, rating.ordinal, rating.hands, moment)
             for rating in ratings],
            ", ".join(f"{column} = excluded.{column}" for column in columns))


def ratings_recompute(*, write: bool = False) -> tuple[int, int]:
    """Rate every scored hand again from scratch, in the order the hands ended.

    Returns (hands rated, stored changes that differ from the recomputed ones — missing or
    extra rows count too). With `write`, replaces every stored change and rating with the
    recomputed ones (after the model's parameters change): run it with the servers stopped.
    """
    hand_model = apps.get_model("rooms", "Hand")  # scoring's models name rooms' only as strings
    current: dict[tuple[int, str], skill.Skill] = {}
    changes, hands_rated = [], 0
    hands = hand_model.objects.filter(scored=True).exclude(result=None).order_by("ended", "id")
    bots = _bots(player_id for players in hands.values_list("players", flat=True) for player_id in players)
    for hand in hands.only("id", "preset", "players", "result", "scored").iterator():
        teams = _rated(hand, bots)
        if teams is None:
            continue
        hands_rated += 1
        before = {seat: current.get((player_id, hand.preset), skill.NEW) for seat, player_id in enumerate(hand.players)}
        after = _rate_seats(hand, teams, lambda player_id: current.get((player_id, hand.preset), skill.NEW))
        for seat, player_id in enumerate(hand.players):
            current[(player_id, hand.preset)] = after[seat]
            changes.append(RatingChange(hand_id=hand.pk, player_id=player_id, preset=hand.preset, seat=seat,
                                        mu_before=before[seat].mu, sigma_before=before[seat].sigma,
                                        mu=after[seat].mu, sigma=after[seat].sigma))
    stored = {(c.hand_id, c.player_id): c for c in RatingChange.objects.all()}
    fresh = {(c.hand_id, c.player_id): c for c in changes}
    differ = sum(1 for key in stored.keys() | fresh.keys()
                 if key not in stored or key not in fresh or not _same_change(stored[key], fresh[key]))
    ratings = {(r.player_id, r.preset): r for r in Rating.objects.all()}
    differ += sum(1 for key in ratings.keys() | current.keys()
                  if key not in ratings or key not in current or not math.isclose(ratings[key].mu, current[key].mu)
                  or not math.isclose(ratings[key].sigma, current[key].sigma))
    if write:
        _ratings_replace(changes, current)
    return hands_rated, differ


def _same_change(a: RatingChange, b: RatingChange) -> bool:
    return (a.seat, a.preset) == (b.seat, b.preset) and all(
        math.isclose(getattr(a, name), getattr(b, name), rel_tol=1e-9, abs_tol=1e-9)
        for name in ("mu_before", "sigma_before", "mu", "sigma"))


@transaction.atomic
def _ratings_replace(changes: list[RatingChange], current: dict[tuple[int, str], skill.Skill]) -> None:
    hands = {}
    for change in changes:
        hands[(change.player_id, change.preset)] = hands.get((change.player_id, change.preset), 0) + 1
    with connection.cursor() as cursor:  # the one sanctioned rewrite of the append-only history
        cursor.execute(f"DELETE FROM {RatingChange._meta.db_table}")
        cursor.execute(f"DELETE FROM {Rating._meta.db_table}")
    RatingChange.objects.bulk_create(changes, batch_size=2000)
    Rating.objects.bulk_create([Rating(player_id=player_id, preset=preset, mu=value.mu, sigma=value.sigma,
                                       ordinal=value.ordinal, hands=hands[(player_id, preset)])
                                for (player_id, preset), value in current.items()], batch_size=2000)


@transaction.atomic
def leave_penalty(*, player, room, hand, note: str) -> LedgerEntry:
    entry = _entry(
        player_id=player.pk, kind=LedgerEntry.Kind.LEAVE_PENALTY, points=LEAVE_PENALTY, room=room, hand=hand, note=note
    )
    return _entries_write([entry])[0]


@transaction.atomic
def ledger_adjust(*, player, points: int, note: str, room=None, staff=None) -> LedgerEntry:
    """An administrator's correction (by ``staff``, recorded with it): a new entry, never an
    edit of an old one."""
    if not isinstance(points, int) or isinstance(points, bool) or points == 0:
        raise ServiceError("bad_points", "An adjustment must be a non-zero whole number of points.")
    if not note.strip():
        raise ServiceError("note_required", "Say why the points are adjusted.")
    entry = _entry(player_id=player.pk, kind=LedgerEntry.Kind.ADJUSTMENT, points=points, room=room, note=note.strip(),
                   staff=staff)
    return _entries_write([entry])[0]


@transaction.atomic(savepoint=False)
def debts_create(*, hand, debts: list[dict]) -> list[TributeDebt]:
    """Record the 进贡 owed for the next hand from the engine's `result["tribute"]`."""
    return TributeDebt.objects.bulk_create([
        TributeDebt(
            room_id=hand.room_id,
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
    ])


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
    _entries_write(entries)
    return converted
