"""The Prometheus exposition at `/metrics`: the game's counters (rooms/telemetry.py) and
what the database says now.

With `PROMETHEUS_MULTIPROC_DIR` set, the counters come from every process's files in
that directory (prometheus-client's multiprocess mode: the Uvicorn processes and Celery
workers of one machine); without it, from this process alone.
"""

import ipaddress
import os

from django.db.models import Count
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily

from rooms.models import Hand, Room, Seat


class TableCollector:
    """Gauges read from the database at each scrape: right across processes and restarts."""

    def collect(self):
        rooms = GaugeMetricFamily("baohuang_rooms", "Rooms by status.", labels=["status"])
        counts = dict(Room.objects.order_by().values_list("status").annotate(n=Count("pk")))
        for status in Room.Status.values:
            rooms.add_metric([status], counts.get(status, 0))
        yield rooms
        yield GaugeMetricFamily("baohuang_hands_running", "Hands being played now.",
                                value=Hand.objects.filter(ended__isnull=True).count())
        online = Seat.objects.filter(online=True, player__isnull=False).values("player").distinct().count()
        yield GaugeMetricFamily("baohuang_players_online", "Players shown online at a table.", value=online)


class Exposition:
    """Everything `/metrics` shows, for `generate_latest`."""

    def __init__(self):
        if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
            self.counters = CollectorRegistry()
            multiprocess.MultiProcessCollector(self.counters)
        else:
            self.counters = REGISTRY

    def collect(self):
        yield from self.counters.collect()
        yield from TableCollector().collect()


def render() -> bytes:
    return generate_latest(Exposition())


def address_allowed(address: str, networks: list) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)
