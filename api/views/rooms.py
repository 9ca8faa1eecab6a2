"""Rooms: the lobby list, a room's public detail, its hands."""

from django.db.models import Count, Prefetch, Q
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.response import Response
from rest_framework.views import APIView

from api import serializers as s
from api.views.common import ERROR, HAND_BRIEF, ID, NOT_FOUND, parse_query
from rooms.models import Hand, Room, Seat


def _rooms():
    return Room.objects.annotate(seats_taken=Count("seats", filter=Q(seats__player__isnull=False)))


class RoomListView(generics.ListAPIView):
    """Rooms, newest first: status, preset, seats taken, whether spectators may watch. 2 queries."""

    serializer_class = s.RoomSerializer

    def get_queryset(self):
        query = parse_query(s.RoomListQuery, self.request)
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
