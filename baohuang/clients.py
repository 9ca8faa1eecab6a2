"""The client's address: the one every limit counts by (API throttles, guest and room
creation, login lockouts).

Behind `NUM_PROXIES` trusted proxies, each of which appends the address it received the
request from to `X-Forwarded-For`, the client is the address the outermost trusted proxy
saw: the `NUM_PROXIES`-th entry from the right. Entries further left were written by the
client itself and are never believed. With `NUM_PROXIES = 0` (the default) the header is
ignored and the socket's peer address is the client.
"""

from django.conf import settings


def forwarded_client(peer: str, forwarded_for: str | None, proxies: int) -> str:
    """The client's address from the socket's `peer` and the `X-Forwarded-For` header."""
    if proxies == 0 or not forwarded_for:
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",")]
    return hops[-min(proxies, len(hops))] or peer


def request_address(request) -> str:
    """An HTTP request's client address (Django `HttpRequest` or DRF `Request`)."""
    meta = request.META
    return forwarded_client(meta.get("REMOTE_ADDR", ""), meta.get("HTTP_X_FORWARDED_FOR"), settings.NUM_PROXIES)


def scope_address(scope: dict) -> str:
    """An ASGI (WebSocket) connection's client address."""
    peer = (scope.get("client") or ("",))[0] or ""
    headers = dict(scope.get("headers") or ())
    forwarded = headers.get(b"x-forwarded-for")
    return forwarded_client(peer, forwarded.decode("latin-1") if forwarded else None, settings.NUM_PROXIES)
