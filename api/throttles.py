"""Throttling: anonymous clients per address, signed-in players and token scripts per account.

The rates are read on every request, not once at import as DRF's own classes do, so a
changed setting (tests, the benchmark) takes effect; `None` switches one off. The counters
live in Django's default cache: per process unless `CACHE_URL` names a shared Redis
(baohuang/settings.py).
"""

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from baohuang.clients import request_address


class LiveRate:
    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class AnonymousThrottle(LiveRate, AnonRateThrottle):
    """Requests per client address without a login, at `DEFAULT_THROTTLE_RATES["anon"]`."""

    def get_ident(self, request):
        return request_address(request)  # behind `NUM_PROXIES` trusted proxies


class SignedInThrottle(LiveRate, UserRateThrottle):
    """Requests per signed-in player or token at `DEFAULT_THROTTLE_RATES["user"]`."""

    def get_cache_key(self, request, view):
        if not (request.user and request.user.is_authenticated):
            return None  # counted by AnonymousThrottle
        return super().get_cache_key(request, view)
