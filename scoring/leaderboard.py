"""The leaderboard (排行榜): players ranked by points over a period, aggregated in SQL.

One query per page: points, hands played and hands won are summed per player in the
database — for all time from `LedgerTotal` (running totals, ~one row per player and
preset), for a period from the ledger entries since its start (a covering index on
`created`) — bots and deactivated players are dropped, and window functions give each row its rank and the number
of ranked players, so pagination needs no second pass.

- points: the sum of every ledger entry in the period (hand scores, leave penalties,
  进贡 converted to points, adjustments);
- hands: `hand_score` entries (one per scored hand the player sat in);
- wins: those whose side won (`LedgerEntry.won`, filled by `scoring.services.hand_score`);
- rank: 1 + the number of ranked players with more points (ties share a rank; within a
  tie, more wins first, then the older account).
- rating: the player's skill rating now (`scoring.skill`: the ordinal μ − 3σ, rounded to
  0.01) in the preset asked for, or without one their best over the presets; null before
  a rated hand.

`order="rating"` ranks the same rows (players with hands in the period and preset) by
rating instead, leaving off unrated players; ties: more hands first. A rating is not a
sum over a period: the period only chooses who is listed. `min_hands` leaves off players
with fewer hands in the period and preset.

Read by the leaderboard page (`rooms.views.leaderboard`) and the REST API
(`api.views.leaderboard`) alike.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from scoring.models import LedgerEntry, LedgerTotal, Rating

PERIODS = ("all", "30d", "7d", "today")
ORDERS = ("points", "rating")


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
    rating: float | None = None

    @property
    def win_rate(self) -> float:
        return win_rate(self.wins, self.hands)

    def as_json(self) -> dict:
        """The row as `api.serializers.StandingSerializer` describes it (built directly: hot path)."""
        return {"rank": self.rank, "player": {"id": self.player_id, "display_name": self.display_name, "is_bot": False},
                "points": self.points, "hands": self.hands, "wins": self.wins, "win_rate": self.win_rate,
                "rating": self.rating}


def _per_player(*, since: bool, preset: bool) -> str:
    """Points, hands and wins per player: from the running totals for all time, else the ledger."""
    if not since:
        # All time: LedgerTotal holds ~one row per player and preset (kept by scoring.services).
        where = "WHERE t.preset = %(preset)s" if preset else ""
        # Cast: PostgreSQL sums bigints as numeric, which is slower to sort and rank.
        return f"""SELECT t.player_id, CAST(SUM(t.points) AS BIGINT) AS points,
                          CAST(SUM(t.hands) AS BIGINT) AS hands, CAST(SUM(t.wins) AS BIGINT) AS wins
                     FROM {LedgerTotal._meta.db_table} t {where}
                    GROUP BY t.player_id"""
    # A period: the entries since its start, read from the covering index on `created`.
    where = "e.created >= %(since)s" + (" AND e.preset = %(preset)s" if preset else "")
    return f"""SELECT e.player_id,
                      SUM(e.points) AS points,
                      SUM(CASE WHEN e.kind = %(hand_score)s THEN 1 ELSE 0 END) AS hands,
                      SUM(CASE WHEN e.won THEN 1 ELSE 0 END) AS wins
                 FROM {LedgerEntry._meta.db_table} e
                WHERE {where}
                GROUP BY e.player_id"""


def _rating_of(player: str, preset: bool) -> str:
    """The player's rating in the preset, or without one their best over the presets."""
    where = " AND r.preset = %(preset)s" if preset else ""
    return f"SELECT MAX(r.ordinal) FROM {Rating._meta.db_table} r WHERE r.player_id = {player}{where}"


def _sql(*, order: str, since: bool, preset: bool) -> str:
    per_player = _per_player(since=since, preset=preset)
    name = "COALESCE(NULLIF(p.display_name, ''), p.username)"
    where = "p.is_bot = %(bot)s AND p.is_active AND s.hands >= %(min_hands)s"
    if order == "rating":
        # Only rated players; the rating is read per player before ranking.
        return f"""
            SELECT q.*, RANK() OVER (ORDER BY q.rating DESC) AS rank, COUNT(*) OVER () AS ranked
              FROM (SELECT s.player_id, {name} AS name, s.points, s.hands, s.wins,
                           ({_rating_of("s.player_id", preset)}) AS rating
                      FROM ({per_player}) s
                      JOIN {get_user_model()._meta.db_table} p ON p.id = s.player_id
                     WHERE {where}) q
             WHERE q.rating IS NOT NULL
             ORDER BY q.rating DESC, q.hands DESC, q.player_id
             LIMIT %(limit)s OFFSET %(offset)s
        """
    # By points: rank first, then read the ratings of the page's rows only (the hot path).
    return f"""
        SELECT q.player_id, q.name, q.points, q.hands, q.wins, ({_rating_of("q.player_id", preset)}),
               q.rank, q.ranked
          FROM (SELECT s.player_id, {name} AS name, s.points, s.hands, s.wins,
                       RANK() OVER (ORDER BY s.points DESC) AS rank,
                       COUNT(*) OVER () AS ranked
                  FROM ({per_player}) s
                  JOIN {get_user_model()._meta.db_table} p ON p.id = s.player_id
                 WHERE {where}
                 ORDER BY s.points DESC, s.wins DESC, s.player_id
                 LIMIT %(limit)s OFFSET %(offset)s) q
         ORDER BY q.points DESC, q.wins DESC, q.player_id
    """


def board(*, since: datetime | None, preset: str | None, offset: int, limit: int,
          order: str = "points", min_hands: int = 0) -> tuple[list[Standing], int]:
    """One page of the board and the number of ranked players (0 when the page is empty)."""
    params = {"since": since, "preset": preset, "hand_score": LedgerEntry.Kind.HAND_SCORE,
              "bot": False, "limit": limit, "offset": offset, "min_hands": min_hands}
    sql = _sql(order=order, since=since is not None, preset=bool(preset))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    standings = [Standing(rank=rank, player_id=player_id, display_name=name, points=int(points),
                          hands=int(hands), wins=int(wins), rating=None if rating is None else round(rating, 2))
                 for player_id, name, points, hands, wins, rating, rank, _ in rows]
    return standings, (rows[0][-1] if rows else 0)
