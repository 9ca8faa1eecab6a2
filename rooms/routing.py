"""WebSocket routes (protocol: docs/protocol.md).

The benchmark's echo consumers (`rooms/bench_consumers.py`) are routed only when the
environment sets `BENCH_ECHO=1` (read once, when the ASGI application is built).
"""

import os

from django.urls import path

from rooms.consumers import RoomConsumer

websocket_urlpatterns = [
    path("ws/rooms/<int:room_id>/", RoomConsumer.as_asgi()),
]

if os.environ.get("BENCH_ECHO", "").strip() == "1":
    from rooms import bench_consumers as bench

    websocket_urlpatterns += [
        path("ws/echo/<slug:name>/", bench.EchoConsumer.as_asgi()),
        path("ws/echo-write/<int:name>/", bench.WriteEchoConsumer.as_asgi()),
        path("ws/echo-raw/<int:name>/", bench.RawWriteEchoConsumer.as_asgi()),
        path("ws/echo-loop/<int:name>/", bench.LoopWriteEchoConsumer.as_asgi()),
    ]
