"""The leaderboard (排行榜) endpoint; the query itself is `scoring.leaderboard`."""

from drf_spectacular.utils import extend_schema
from rest_framework import generics

from api import serializers as s
from api.pagination import BoardPages
from api.views.common import ERROR, NOT_FOUND, parse_query
from scoring import leaderboard
from scoring.models import LedgerEntry


class LeaderboardView(generics.ListAPIView):
    """Players ranked by points or by skill rating (bots excluded), with hands played, wins,
    win rate and rating. 1 query."""

    serializer_class = s.StandingSerializer
    pagination_class = BoardPages
    queryset = LedgerEntry.objects.none()  # the board is raw SQL (scoring.leaderboard); this is for the schema

    @extend_schema(parameters=[s.LeaderboardQuery],
                   responses={200: s.StandingSerializer(many=True), 400: ERROR, **NOT_FOUND})
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def list(self, request, *args, **kwargs):
        query = parse_query(s.LeaderboardQuery, request)
        since = leaderboard.period_start(query["period"])

        def fetch(offset, limit):
            return leaderboard.board(since=since, preset=query.get("preset"), offset=offset, limit=limit,
                                     order=query["order"], min_hands=query["min_hands"])

        rows = self.paginator.paginate_fetch(fetch, request)
        # Plain dicts, not the serializer: this is the busiest read (schemathesis checks the shape).
        return self.get_paginated_response([row.as_json() for row in rows])
