"""WebSocket routes (protocol: docs/protocol.md).

`/ws/echo/<name>/` is the benchmark's bare echo consumer and `/ws/echo-write/<room id>/`
the echo with one committed write per frame; both are routed only when the environment
sets `BENCH_ECHO=1` (read once, when the ASGI application is built).
"""

import os

from django.urls import path

from rooms.consumers import EchoConsumer, RoomConsumer, WriteEchoConsumer

websocket_urlpatterns = [
    path("ws/rooms/<int:room_id>/", RoomConsumer.as_asgi()),
]

if os.environ.get("BENCH_ECHO", "").strip() == "1":
    websocket_urlpatterns += [
        path("ws/echo/<slug:name>/", EchoConsumer.as_asgi()),
        path("ws/echo-write/<int:name>/", WriteEchoConsumer.as_asgi()),
    ]
