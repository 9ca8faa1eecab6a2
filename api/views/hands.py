"""Hands: what a spectator sees of a hand and its events; an ended hand's full record.

Anything about a running hand goes through the engine's spectator views
(`engine.view(state, None)`, `engine.event_view(event, None)`): hidden cards, a 暗保 guard
or a silent declaration never leave the server. In a room without spectators the view
and events are for its players and staff (`rooms.selectors.may_watch`), as on the socket.
Once the hand has ended its whole record (deal, every full event) is for its players — or
for everyone if the room says so.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from api import serializers as s
from api.errors import Conflict
from api.views.common import ERROR, HAND_BRIEF, ID, PRIVATE, THROTTLED, parse_query
from baohuang import engine
from rooms.models import Hand, HandEvent, Player
from rooms.selectors import may_watch, record_visible


def _seat_players(hand: Hand) -> list[dict]:
    """Who was dealt into each seat (one query for the five)."""
    players = Player.objects.filter(pk__in=[pk for pk in hand.players if pk is not None]).only(
        "id", "display_name", "username", "is_bot")
    by_id = {player.pk: {"id": player.pk, "display_name": str(player), "is_bot": player.is_bot} for player in players}
    return [{"seat": seat, "player": by_id.get(pk)} for seat, pk in enumerate(hand.players)]


def _watched_hand(view: APIView, request, pk: int, *fields: str) -> Hand:
    """The hand, if this user may watch its room (401 anonymous / 403 `spectators_not_allowed`)."""
    hand = get_object_or_404(Hand.objects.select_related("room").only(
        *HAND_BRIEF, "players", "room__options", *fields), pk=pk)
    if not (may_watch(room=hand.room, user=request.user, hand=hand) or record_visible(hand, request.user)):
        if not request.user.is_authenticated:
            view.permission_denied(request)  # 401: log in as one of its players
        view.permission_denied(request, message="This room does not allow spectators.",
                               code="spectators_not_allowed")
    return hand


class HandView(APIView):
    """A hand now, as a spectator sees it (`engine.view(state, None)`). 2 queries."""

    @extend_schema(parameters=[ID], responses={200: s.HandSerializer, **PRIVATE})
    def get(self, request, pk: int):
        hand = _watched_hand(self, request, pk, "state")
        hand.view = engine.view(hand.state, None)
        hand.record_visible = record_visible(hand, request.user)
        hand.seat_players = _seat_players(hand)
        return Response(s.HandSerializer(hand).data)


class HandEventsView(APIView):
    """A hand's events as a spectator sees them (`engine.event_view(event, None)`). 2 queries."""

    @extend_schema(parameters=[ID, s.EventsQuery], responses={200: s.PublicEventSerializer(many=True), 400: ERROR,
                                                           **PRIVATE})
    def get(self, request, pk: int):
        since = parse_query(s.EventsQuery, request)["since"]
        hand = _watched_hand(self, request, pk)
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
        hand = get_object_or_404(Hand.objects.select_related("room").defer("state"), pk=pk)
        if hand.running:
            raise Conflict("The record is published when the hand ends.", code="hand_running")
        if not record_visible(hand, request.user):
            if not request.user.is_authenticated:
                self.permission_denied(request)  # 401: log in as one of its players
            self.permission_denied(request, message="Only the hand's players may read its record.")
        hand.seat_players = _seat_players(hand)
        hand.deal = _deal(hand)
        hand.actions = list(HandEvent.objects.filter(hand=hand).order_by("version")
                            .values("version", "seat", "action", "event", "by_trustee", "created"))
        return Response(s.HandRecordSerializer(hand).data)


def _deal(hand: Hand) -> dict:
    """Each seat's cards when bidding began, rebuilt from the seed (the engine deals exactly)."""
    dealt = engine.new_hand(hand.preset, hand.seed, options=hand.options, tribute=tuple(hand.tribute),
                            salt=hand.salt or None)
    deal = {"hands": dealt["hands"]}
    if engine.preset_named(hand.preset).tribute:
        deal.update(tribute_paid=dealt["tribute_paid"], threes=dealt["threes"])
    return deal
