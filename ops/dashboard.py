"""The admin's live dashboard (`/admin/live/`): what is being played right now.

Rooms playing (preset, hand number, seats, since when; each opens its live table, where
staff watch as spectators), players online, hands per hour, and the error frames sent to
sockets by code since the processes started (rooms/telemetry.py, all processes of this
machine added up as at /metrics).
"""

from datetime import timedelta

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.shortcuts import render
from django.utils import timezone

from ops.metrics import Exposition
from rooms.models import Hand, Room, Seat


def rooms_playing() -> list[dict]:
    hands = {hand.room_id: hand for hand in Hand.objects.filter(ended__isnull=True, room__status=Room.Status.PLAYING)}
    rooms = Room.objects.filter(pk__in=hands).order_by("pk").prefetch_related("seats__player")
    return [{"room": room, "hand": hands[room.pk], "seats": sorted(room.seats.all(), key=lambda seat: seat.index)}
            for room in rooms]


def hands_per_hour(now) -> dict:
    hour, day = now - timedelta(hours=1), now - timedelta(days=1)
    return {
        "started_last_hour": Hand.objects.filter(started__gte=hour).count(),
        "finished_last_hour": Hand.objects.filter(ended__gte=hour).count(),
        "finished_per_hour_last_day": round(Hand.objects.filter(ended__gte=day).count() / 24, 1),
    }


def error_counts() -> list[tuple[str, int]]:
    counts = {}
    for metric in Exposition().counters.collect():
        if metric.name == "baohuang_errors":
            for sample in metric.samples:
                if sample.name.endswith("_total"):
                    code = sample.labels["code"]
                    counts[code] = counts.get(code, 0) + int(sample.value)
    return sorted(counts.items(), key=lambda item: -item[1])


@staff_member_required
def live(request):
    now = timezone.now()
    online = Seat.objects.filter(online=True, player__isnull=False).values("player").distinct().count()
    context = {
        **admin.site.each_context(request),
        "title": "Live",
        "now": now,
        "playing": rooms_playing(),
        "players_online": online,
        "hands": hands_per_hour(now),
        "errors": error_counts(),
    }
    return render(request, "admin/live.html", context)
