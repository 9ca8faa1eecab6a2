"""WebSocket routes. Placeholder: the live-play helper owns this file and fills it."""

websocket_urlpatterns = []
