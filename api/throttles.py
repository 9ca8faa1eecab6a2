"""Throttling of anonymous clients (logged-in players and token scripts are not throttled)."""

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle

from baohuang.clients import request_address


class AnonymousThrottle(AnonRateThrottle):
    """Requests per client IP without a login, at `DEFAULT_THROTTLE_RATES["anon"]`.

    The rate is read on every request, not once at import as DRF's own class does, so a
    changed setting (tests, the benchmark) takes effect; `None` switches throttling off.
    The counters live in Django's default cache: per process unless `CACHE_URL` names a
    shared Redis (baohuang/settings.py).
    """

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request):
        return request_address(request)  # behind `NUM_PROXIES` trusted proxies
