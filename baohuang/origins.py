"""The WebSocket handshake's origin check: the page that opens a socket must be the site
itself — same scheme, host and port as the socket — or one of `CSRF_TRUSTED_ORIGINS`,
as Django's CSRF check demands of a form. The host must also be in `ALLOWED_HOSTS`.

(Channels' `AllowedHostsOriginValidator` compares host names only, so a page on
`http://127.0.0.1:9999` could open a signed-in socket on port 8000.)
"""

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain


def _origin(url: str) -> tuple[str, str] | None:
    """`(scheme, netloc)` of an origin, lower-cased; None when it is not one."""
    try:
        parts = urlsplit(url.strip().lower())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return parts.scheme, parts.netloc


def _secure(scope: dict, headers: dict) -> bool:
    if scope.get("scheme") == "wss":
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)  # ("HTTP_X_FORWARDED_PROTO", "https")
    if proxy:
        header = proxy[0].removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1")
        return headers.get(header, b"").decode("latin-1").split(",")[0].strip() == proxy[1]
    return False


def origin_allowed(scope: dict) -> bool:
    headers = dict(scope.get("headers") or ())
    host = headers.get(b"host", b"").decode("latin-1").lower()
    origin = _origin(headers.get(b"origin", b"").decode("latin-1"))
    domain, _port = split_domain_port(host)
    if origin is None or not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    if origin == ("https" if _secure(scope, headers) else "http", host):
        return True
    for trusted in map(_origin, settings.CSRF_TRUSTED_ORIGINS):
        if trusted is not None and trusted[0] == origin[0] and (
                trusted[1] == origin[1] or (trusted[1].startswith("*.") and is_same_domain(origin[1], trusted[1][1:]))):
            return True
    return False


class OriginValidator:
    """ASGI middleware: a WebSocket whose origin is not allowed is refused at the handshake (403)."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
