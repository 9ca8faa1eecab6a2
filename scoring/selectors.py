"""Reads of the ledger, the tribute debts, the ratings and a player's hands."""

from django.db.models import Sum

from scoring import skill
from scoring.models import LedgerEntry, RatingChange, TributeDebt


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


def hand_ledger_lines(*, hand) -> list[dict]:
    """The hand's ledger lines besides its scores, for the score sheet: the −40 of each
    player who left it (or was removed) mid-hand, ``{"kind": "leave_penalty", "seat",
    "points"}``, then each 进贡 debt it created that became points because payer or
    receiver left the room first, ``{"kind": "tribute_points", "from", "to", "cards"}``
    (one point per card, from payer to receiver; RULES §7, §8). Seats as dealt."""
    penalties = (LedgerEntry.objects.filter(hand=hand, kind=LedgerEntry.Kind.LEAVE_PENALTY)
                 .order_by("id").values_list("player_id", "points"))
    lines = [{"kind": "leave_penalty", "seat": hand.players.index(player_id), "points": points}
             for player_id, points in penalties if player_id in hand.players]
    converted = (TributeDebt.objects.filter(hand=hand, status=TributeDebt.Status.CONVERTED)
                 .order_by("id").values_list("payer_seat", "receiver_seat", "cards"))
    lines += [{"kind": "tribute_points", "from": payer, "to": receiver, "cards": cards}
              for payer, receiver, cards in converted]
    return lines


ROLES = ("emperor", "guard", "rebel", "solo")


def role_in(result: dict, seat: int) -> str:
    """What `seat` was in a hand: emperor (皇帝) with a guard, guard (保皇派), rebel (造反派),
    or solo (the emperor alone: 独保, 暗独/明独, 抢庄, 抢独)."""
    emperor, guard = result.get("emperor"), result.get("guard")
    if seat == emperor:
        return "solo" if guard in (None, emperor) else "emperor"
    return "guard" if seat == guard else "rebel"


def side_outcome(result: dict, seat: int) -> str:
    """"win", "draw" or "loss" for the side `seat` played on."""
    outcome = result["outcome"]
    if outcome == "draw":
        return "draw"
    on_emperor_side = seat in (result.get("emperor"), result.get("guard"))
    return "win" if (outcome == "win") == on_emperor_side else "loss"


def player_hand_stats(*, player) -> dict[str, dict]:
    """Per preset, over the player's scored hands: hands, average place, points per hand,
    and per role how many hands and how they went (wins, draws, losses)."""
    stats: dict[str, dict] = {}
    entries = (LedgerEntry.objects.filter(player=player, kind=LedgerEntry.Kind.HAND_SCORE, hand__isnull=False)
               .select_related("hand").only("points", "preset", "hand__players", "hand__result").order_by("id"))
    for entry in entries:
        result, players = entry.hand.result, entry.hand.players
        if not result or result.get("outcome") is None or player.pk not in players:
            continue
        seat = players.index(player.pk)
        row = stats.setdefault(entry.preset, {"hands": 0, "places": 0, "points": 0,
                                              "roles": {role: {"hands": 0, "win": 0, "draw": 0, "loss": 0}
                                                        for role in ROLES}})
        row["hands"] += 1
        row["points"] += entry.points
        row["places"] += result["places"].index(seat) + 1
        role = row["roles"][role_in(result, seat)]
        role["hands"] += 1
        role[side_outcome(result, seat)] += 1
    for row in stats.values():
        row["average_place"] = round(row.pop("places") / row["hands"], 2)
        row["points_per_hand"] = round(row["points"] / row["hands"], 2)
    return stats


def rating_history(*, player) -> dict[str, list[float]]:
    """Per preset, the player's rating (μ − 3σ) after each rated hand, oldest first."""
    history: dict[str, list[float]] = {}
    for preset, mu, sigma in (RatingChange.objects.filter(player=player).order_by("id")
                              .values_list("preset", "mu", "sigma")):
        history.setdefault(preset, []).append(skill.Skill(mu, sigma).ordinal)
    return history
