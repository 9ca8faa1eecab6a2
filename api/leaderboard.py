"""The leaderboard (排行榜): players ranked by points over a period, aggregated in SQL.

One query per page: the ledger is summed per player (points, hands played, hands won) in
the database, bots are dropped, and window functions give each row its rank and the
number of ranked players, so pagination needs no second pass over the ledger.

- points: the sum of every ledger entry in the period (hand scores, leave penalties,
  进贡 converted to points, adjustments);
- hands: `hand_score` entries (one per scored hand the player sat in);
- wins: those whose side won (`LedgerEntry.won`, filled by `scoring.services.hand_score`);
- rank: 1 + the number of ranked players with more points (ties share a rank; within a
  tie, more wins first, then the older account).
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection
from django.utils import timezone

from rooms.models import Player
from scoring.models import LedgerEntry

PERIODS = ("all", "30d", "7d", "today")


def period_start(period: str, now: datetime | None = None) -> datetime | None:
    """The first moment of `period` (None: all time). "today" starts at midnight, server time."""
    now = now or timezone.now()
    if period == "all":
        return None
    if period == "today":
        return timezone.localtime(now).replace(hour=0, minute=0, second=0, microsecond=0)
    days = {"30d": 30, "7d": 7}[period]
    return now - timedelta(days=days)


def win_rate(wins: int, hands: int) -> float:
    return round(wins / hands, 4) if hands else 0.0


@dataclass(frozen=True)
class Standing:
    rank: int
    player_id: int
    display_name: str
    points: int
    hands: int
    wins: int

    @property
    def win_rate(self) -> float:
        return win_rate(self.wins, self.hands)


def _sql(*, since: bool, preset: bool) -> str:
    where = ["TRUE"]
    if since:
        where.append("e.created >= %(since)s")
    if preset:
        where.append("e.preset = %(preset)s")
    return f"""
        SELECT s.player_id, p.display_name, s.points, s.hands, s.wins,
               RANK() OVER (ORDER BY s.points DESC) AS rank,
               COUNT(*) OVER () AS ranked
          FROM (SELECT e.player_id,
                       SUM(e.points) AS points,
                       SUM(CASE WHEN e.kind = %(hand_score)s THEN 1 ELSE 0 END) AS hands,
                       SUM(CASE WHEN e.won THEN 1 ELSE 0 END) AS wins
                  FROM {LedgerEntry._meta.db_table} e
                 WHERE {" AND ".join(where)}
                 GROUP BY e.player_id) s
          JOIN {Player._meta.db_table} p ON p.id = s.player_id
         WHERE p.is_bot = %(bot)s
         ORDER BY s.points DESC, s.wins DESC, s.player_id
         LIMIT %(limit)s OFFSET %(offset)s
    """


def board(*, since: datetime | None, preset: str | None, offset: int, limit: int) -> tuple[list[Standing], int]:
    """One page of the board and the number of ranked players (0 when the page is empty)."""
    params = {"since": since, "preset": preset, "hand_score": LedgerEntry.Kind.HAND_SCORE,
              "bot": False, "limit": limit, "offset": offset}
    sql = _sql(since=since is not None, preset=bool(preset))
    if connection.vendor == "sqlite":
        sql = sql.replace("TRUE", "1")  # older SQLite has no TRUE literal
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    standings = [Standing(rank=rank, player_id=player_id, display_name=name, points=int(points),
                          hands=int(hands), wins=int(wins))
                 for player_id, name, points, hands, wins, rank, _ in rows]
    return standings, (rows[0][-1] if rows else 0)
