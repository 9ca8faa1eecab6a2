"""The REST views: thin reads that validate parameters, query, and serialize.

Every view states its queries: the counts are pinned in `api/tests/test_queries.py`.
"""

from django.db.models import Count, Prefetch, Q
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.exceptions import AuthenticationFailed, ValidationError
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from api import leaderboard, serializers as s
from api.errors import Conflict
from api.pagination import BoardPages
from api.permissions import IsOwnerOrStaff
from baohuang import engine
from rooms.models import Hand, HandEvent, Player, Preset, Room, Seat
from scoring.models import LedgerEntry, LedgerTotal

ERROR = s.ErrorSerializer
# Path ids are positive 64-bit integers (a negative or non-numeric id matches no URL at all).
ID = OpenApiParameter("id", {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}, OpenApiParameter.PATH)
THROTTLED = {429: OpenApiResponse(ERROR, description="anonymous client throttled")}
NOT_FOUND = {404: ERROR, **THROTTLED}
PRIVATE = {401: ERROR, 403: ERROR, 404: ERROR, **THROTTLED}

HAND_BRIEF = ("id", "room_id", "number", "preset", "phase", "version", "started", "ended", "scored")


def _query(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.query_params)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# -- root --------------------------------------------------------------------------------


class ApiRootView(APIView):
    """Links to the collections and to the documentation (the browsable API's front page)."""

    @extend_schema(exclude=True)
    def get(self, request):
        names = ("leaderboard", "rooms", "me", "token", "schema", "docs", "redoc")
        return Response({name: reverse(f"api:{name}", request=request) for name in names})


# -- leaderboard -----------------------------------------------------------------------


class LeaderboardView(generics.ListAPIView):
    """Players ranked by points (bots excluded), with hands played, wins and win rate. 1 query."""

    serializer_class = s.StandingSerializer
    pagination_class = BoardPages
    queryset = LedgerEntry.objects.none()  # the board is raw SQL (api.leaderboard); this is for the schema

    @extend_schema(parameters=[s.LeaderboardQuery],
                   responses={200: s.StandingSerializer(many=True), 400: ERROR, **NOT_FOUND})
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def list(self, request, *args, **kwargs):
        query = _query(s.LeaderboardQuery, request)
        since = leaderboard.period_start(query["period"])

        def fetch(offset, limit):
            return leaderboard.board(since=since, preset=query.get("preset"), offset=offset, limit=limit)

        rows = self.paginator.paginate_fetch(fetch, request)
        return self.get_paginated_response(self.get_serializer(rows, many=True).data)


# -- players ---------------------------------------------------------------------------


def _totals(player_id: int) -> dict:
    """All-time totals and per-preset totals of one player, from their running totals (one query)."""
    by_preset = {row.preset: row for row in LedgerTotal.objects.filter(player_id=player_id)}

    def totals(parts) -> dict:
        points, hands, wins = (sum(getattr(part, key) for part in parts) for key in ("points", "hands", "wins"))
        return {"points": points, "hands": hands, "wins": wins, "win_rate": leaderboard.win_rate(wins, hands)}

    presets = [{"preset": preset, **totals([by_preset[preset]])} for preset in Preset.values if preset in by_preset]
    return {"totals": totals(list(by_preset.values())), "presets": presets}


def _profile(player: Player) -> dict:
    return {"id": player.pk, "display_name": str(player), "is_bot": player.is_bot,
            "date_joined": player.date_joined, "username": player.username, "is_staff": player.is_staff,
            **_totals(player.pk)}


class PlayerView(APIView):
    """A player's public profile with points, hands and wins, in total and per preset. 2 queries."""

    @extend_schema(parameters=[ID], responses={200: s.PlayerProfileSerializer, **NOT_FOUND})
    def get(self, request, pk: int):
        player = get_object_or_404(Player.objects.filter(is_active=True), pk=pk)
        return Response(s.PlayerProfileSerializer(_profile(player)).data)


class MeView(APIView):
    """The logged-in player's own profile (session or token). 1 query after authentication."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.MeSerializer, 401: ERROR, 403: ERROR, **THROTTLED})
    def get(self, request):
        return Response(s.MeSerializer(_profile(request.user)).data)


class LedgerView(generics.ListAPIView):
    """A player's points ledger, newest first: private to the player (and staff). 3 queries.

    **[decision]** Profiles and totals are public, the entries are not: they say when and
    where someone played, and carry administrators' notes on kicks and adjustments.
    """

    serializer_class = s.LedgerEntrySerializer
    permission_classes = [IsOwnerOrStaff]

    def get_queryset(self):
        player = get_object_or_404(Player.objects.only("id"), pk=self.kwargs["pk"])
        self.check_object_permissions(self.request, player)
        return (LedgerEntry.objects.filter(player=player).order_by("-created", "-id")
                .only("id", "kind", "points", "preset", "won", "room_id", "hand_id", "note", "created"))

    @extend_schema(parameters=[ID], responses={200: s.LedgerEntrySerializer(many=True), **PRIVATE})
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


@extend_schema(responses={200: s.TokenSerializer, 400: ERROR, 401: ERROR, **THROTTLED})
class TokenView(ObtainAuthToken):
    """Exchange an account's username and password for its API token (form or JSON body).

    Wrong credentials are a 401 `authentication_failed` (DRF says 400): the request was
    well formed, the caller is just not who they claim. A missing field stays a 400.
    """

    serializer_class = s.TokenRequestSerializer
    renderer_classes = APIView.renderer_classes  # DRF's is JSON only; a browser gets a login form too

    def get_serializer_context(self):
        return {"request": self.request, "format": self.format_kwarg, "view": self}

    def post(self, request, *args, **kwargs):
        try:
            return super().post(request, *args, **kwargs)
        except ValidationError as error:
            if error.get_codes() == {"non_field_errors": ["authorization"]}:
                raise AuthenticationFailed(str(error.detail["non_field_errors"][0])) from None
            raise


# -- rooms -----------------------------------------------------------------------------


def _rooms():
    return Room.objects.annotate(seats_taken=Count("seats", filter=Q(seats__player__isnull=False)))


class RoomListView(generics.ListAPIView):
    """Rooms, newest first: status, preset, seats taken, whether spectators may watch. 2 queries."""

    serializer_class = s.RoomSerializer

    def get_queryset(self):
        query = _query(s.RoomListQuery, self.request)
        rooms = _rooms().order_by("-created", "-id")
        if "status" in query:
            rooms = rooms.filter(status=query["status"])
        else:
            rooms = rooms.exclude(status=Room.Status.DISSOLVED)
        if "preset" in query:
            rooms = rooms.filter(preset=query["preset"])
        return rooms

    @extend_schema(parameters=[s.RoomListQuery], responses={200: s.RoomSerializer(many=True), 400: ERROR, **NOT_FOUND})
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class RoomView(APIView):
    """A room's public information: options, seats and who sits there, the running hand. 3 queries."""

    @extend_schema(parameters=[ID], responses={200: s.RoomDetailSerializer, **NOT_FOUND})
    def get(self, request, pk: int):
        seats = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("index"))
        room = get_object_or_404(_rooms().select_related("creator").prefetch_related(seats), pk=pk)
        current = Hand.objects.filter(room=room, ended__isnull=True).only(*HAND_BRIEF).order_by("-number").first()
        room.current_hand = current
        return Response(s.RoomDetailSerializer(room).data)


class RoomHandsView(generics.ListAPIView):
    """A room's hands, newest first (to find one to replay). 3 queries."""

    serializer_class = s.HandBriefSerializer

    def get_queryset(self):
        room = get_object_or_404(Room.objects.only("id"), pk=self.kwargs["pk"])
        return Hand.objects.filter(room=room).only(*HAND_BRIEF).order_by("-number")

    @extend_schema(parameters=[ID], responses={200: s.HandBriefSerializer(many=True), **NOT_FOUND})
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


# -- hands -----------------------------------------------------------------------------


def _seat_players(hand: Hand) -> list[dict]:
    """Who was dealt into each seat (one query for the five)."""
    players = Player.objects.filter(pk__in=[pk for pk in hand.players if pk is not None]).only(
        "id", "display_name", "username", "is_bot")
    by_id = {player.pk: {"id": player.pk, "display_name": str(player), "is_bot": player.is_bot} for player in players}
    return [{"seat": seat, "player": by_id.get(pk)} for seat, pk in enumerate(hand.players)]


def record_visible(hand: Hand, user) -> bool:
    """An ended hand's full record: its players and staff, or everyone if the room says so."""
    if hand.running:
        return False
    if hand.room.options.get("public_records", False):
        return True
    return bool(user.is_authenticated and (user.is_staff or user.pk in hand.players))


def _hand(pk: int) -> Hand:
    return get_object_or_404(Hand.objects.select_related("room").only(*HAND_BRIEF, "players", "state",
                             "room__options"), pk=pk)


class HandView(APIView):
    """A hand now, as a spectator sees it (`engine.view(state, None)`). 2 queries."""

    @extend_schema(parameters=[ID], responses={200: s.HandSerializer, **NOT_FOUND})
    def get(self, request, pk: int):
        hand = _hand(pk)
        hand.view = engine.view(hand.state, None)
        hand.record_visible = record_visible(hand, request.user)
        hand.players = _seat_players(hand)
        return Response(s.HandSerializer(hand).data)


class HandEventsView(APIView):
    """A hand's events as a spectator sees them (`engine.event_view(event, None)`). 2 queries."""

    @extend_schema(parameters=[ID, s.EventsQuery], responses={200: s.PublicEventSerializer(many=True), 400: ERROR,
                                                           **NOT_FOUND})
    def get(self, request, pk: int):
        since = _query(s.EventsQuery, request)["since"]
        hand = get_object_or_404(Hand.objects.only("id"), pk=pk)
        events = (HandEvent.objects.filter(hand=hand, version__gt=since).order_by("version")
                  .only("version", "seat", "event", "by_trustee", "created"))
        data = [{"version": event.version, "seat": event.seat, "by_trustee": event.by_trustee,
                 "created": event.created, "event": engine.event_view(event.event, None)} for event in events]
        return Response(s.PublicEventSerializer(data, many=True).data)


class HandRecordView(APIView):
    """An ended hand's full record for replay: seed, deal, every action, places, scores, tribute. 3 queries.

    Visible to the hand's players and staff, and to everyone when the room's option
    `public_records` is on; a running hand has no record yet (409 `hand_running`).
    """

    @extend_schema(parameters=[ID], responses={200: s.HandRecordSerializer, 401: ERROR, 403: ERROR, 404: ERROR,
                              409: OpenApiResponse(ERROR, description="hand_running: the hand has not ended"),
                              **THROTTLED})
    def get(self, request, pk: int):
        hand = get_object_or_404(Hand.objects.select_related("room"), pk=pk)
        if hand.running:
            raise Conflict("The record is published when the hand ends.", code="hand_running")
        if not record_visible(hand, request.user):
            if not request.user.is_authenticated:
                self.permission_denied(request)  # 401: log in as one of its players
            self.permission_denied(request, message="Only the hand's players may read its record.")
        hand.players = _seat_players(hand)
        hand.deal = _deal(hand)
        hand.actions = list(HandEvent.objects.filter(hand=hand).order_by("version")
                            .values("version", "seat", "action", "event", "by_trustee", "created"))
        return Response(s.HandRecordSerializer(hand).data)


def _deal(hand: Hand) -> dict:
    """Each seat's cards when bidding began, rebuilt from the seed (the engine deals exactly)."""
    dealt = engine.new_hand(hand.preset, hand.seed, options=hand.options, tribute=tuple(hand.tribute))
    deal = {"hands": dealt["hands"]}
    if hand.preset == "qingdao":
        deal.update(tribute_paid=dealt["tribute_paid"], threes=dealt["threes"])
    return deal
