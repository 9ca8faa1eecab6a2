"""The ASGI application: Django for HTTP, Channels consumers for WebSockets.

Run it with Uvicorn: `uvicorn baohuang.asgi:application`.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baohuang.settings")

# Django must be set up before anything imports models (the consumers do).
django_http = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from baohuang import gc_pauses, open_files  # noqa: E402
from baohuang.origins import OriginValidator  # noqa: E402
from baohuang.socket_session import socket_auth  # noqa: E402

from rooms.routing import websocket_urlpatterns  # noqa: E402

if settings.DEBUG:
    # Uvicorn serves no static files; in development let Django serve the admin's CSS.
    # In production the proxy serves STATIC_ROOT (see README).
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    django_http = ASGIStaticFilesHandler(django_http)


async def lifespan(scope, receive, send):
    """Uvicorn's start and stop of a server process: as it starts, its collector is tuned
    and its limit of open files raised (a process holds thousands of sockets). The tests'
    in-process sockets send no lifespan, so a test process keeps both as they are."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            gc_pauses.tune()
            open_files.raise_limit()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


application = ProtocolTypeRouter(
    {
        "lifespan": lifespan,
        "http": django_http,
        "websocket": OriginValidator(socket_auth(URLRouter(websocket_urlpatterns))),
    }
)
