"""Rate limits on what costs the server or other players: new guests, new rooms and public
page reads (`rooms.page_limits`) per client address, chat lines per player (across all
their sockets).

Counted with django-ratelimit's atomic counters in Django's default cache: per process
unless `CACHE_URL` names a shared Redis, as every multi-process deployment must (README).
The rates are `settings.LIMITS` ("count/period", e.g. "20/h"; None switches one off).
"""

from django.conf import settings
from django_ratelimit.core import is_ratelimited


def over(name: str, ident: str) -> bool:
    """Count one more `name` event for `ident`; True once that goes past the rate."""
    return is_ratelimited(None, group=f"baohuang.{name}", key=lambda _group, _request: ident,
                          rate=settings.LIMITS[name], increment=True)
