"""A server process started by Uvicorn tunes its collector as it starts (the ASGI lifespan,
`baohuang/gc_pauses.py`): its young generation is collected on a timer, idle or not, and
each collection is counted at /metrics."""

import time
import urllib.request

from prometheus_client.parser import text_string_to_metric_families


def young_collections(server) -> float:
    with urllib.request.urlopen(f"{server.url}/metrics", timeout=30) as response:
        families = text_string_to_metric_families(response.read().decode())
    return sum(sample.value for family in families if family.name == "baohuang_gc_pause_seconds"
               for sample in family.samples
               if sample.name.endswith("_count") and sample.labels["generation"] == "0")


def test_a_server_collects_its_young_generation_on_a_timer(live_servers):
    server, = live_servers(1, METRICS_ALLOWED_ADDRESSES="127.0.0.1")
    first = young_collections(server)
    deadline = time.monotonic() + 30
    while young_collections(server) < first + 10 and time.monotonic() < deadline:
        time.sleep(0.2)  # each look at /metrics allocates a little: most of ten collections are the timer's
    assert young_collections(server) >= first + 10
