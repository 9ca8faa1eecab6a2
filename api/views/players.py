"""Players: public profiles with totals, the private ledger, the logged-in player, API tokens."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import AuthenticationFailed, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from api import serializers as s
from api.errors import LockedOut
from api.permissions import IsOwnerOrStaff
from api.views.common import ERROR, ID, NOT_FOUND, PRIVATE, THROTTLED
from rooms.models import Player, Preset
from scoring import leaderboard
from scoring.models import LedgerEntry, LedgerTotal


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
    well formed, the caller is just not who they claim. A missing field stays a 400. Too
    many failures from one address lock it out for a while (django-axes, as the login
    pages): 429 `locked_out`, even with the right password.
    """

    serializer_class = s.TokenRequestSerializer
    renderer_classes = APIView.renderer_classes  # DRF's is JSON only; a browser gets a login form too

    def get_serializer_context(self):
        return {"request": self.request, "format": self.format_kwarg, "view": self}

    def post(self, request, *args, **kwargs):
        try:
            return super().post(request, *args, **kwargs)
        except ValidationError as error:
            if getattr(request, "axes_locked_out", False):
                raise LockedOut() from None
            if error.get_codes() == {"non_field_errors": ["authorization"]}:
                raise AuthenticationFailed(str(error.detail["non_field_errors"][0])) from None
            raise
